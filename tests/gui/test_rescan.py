"""What the window shows is what applies (#41): a setting that waits for the next scan is said at once under
the thresholds, with Scan Again beside it, and goes once a scan applied it."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from neardup_gui.core.match.matcher import MatchResult
from neardup_gui.core.models import ScanOptions, Thresholds
from neardup_gui.core.read.extract import READ_WITHOUT_OCR
from neardup_gui.core.review.rules import KeeperRule
from neardup_gui.core.session import View
from neardup_gui.gui.controller import rescan_reasons
from neardup_gui.gui.preferences import PreferencesDialog
from tests.gui.conftest import answer_dialog, press, scan, select_member, tick_reference

COMMON_TEXT = "Common text cannot be left out until these files are scanned again."


def _view(*, available: bool = True, scanned_with: ScanOptions | None = None) -> View:
    return View(
        MatchResult(Thresholds(), (), (), ()), {}, (), boilerplate_available=available, scanned_with=scanned_with
    )


def test_what_waits_for_a_scan_in_words(tmp_path):
    """Common text only when it is asked for and these files were not analysed for it; folders added since
    the last scan; patterns, file types and OCR changed since. A folder taken away applies at once, and an
    older database (nothing recorded) is compared with nothing."""
    scanned, new = tmp_path / "scanned", tmp_path / "new"
    for folder in (scanned / "sub", new):
        folder.mkdir(parents=True)
    on, off = Thresholds(ignore_boilerplate=True), Thresholds(ignore_boilerplate=False)
    # as the command line scans: every kind, images among them, read only while OCR reads scans
    last = ScanOptions(roots=(str(scanned), str(tmp_path / "gone")))
    # as the window scans: the ticked types, and no images without OCR
    window = ScanOptions(roots=(str(scanned),), kinds=READ_WITHOUT_OCR)
    assert rescan_reasons(None, on, window) == ()
    assert rescan_reasons(_view(available=False), on, window) == (COMMON_TEXT,)
    assert rescan_reasons(_view(available=False), off, window) == ()
    assert rescan_reasons(_view(available=False, scanned_with=None), on, replace(window, ocr="eng")) == (COMMON_TEXT,)
    seen = _view(scanned_with=last)
    assert rescan_reasons(seen, on, window) == ()
    assert rescan_reasons(seen, on, replace(window, roots=(str(scanned / "sub"),))) == ()  # inside a scanned one
    added = rescan_reasons(seen, on, replace(window, roots=(str(scanned), str(new))))
    assert added == ("Not in the results until the next scan: 1 folder added since the last.",)
    assert rescan_reasons(seen, on, replace(window, include=("*.md",))) == (
        "Changed since the last scan, applied at the next: Include.",
    )
    changed = replace(window, exclude=("drafts",), kinds=window.kinds - {"pdf"} | {"image"}, ocr="chi_sim+eng")
    assert rescan_reasons(_view(available=False, scanned_with=last), on, changed) == (
        COMMON_TEXT,
        "Changed since the last scan, applied at the next: Exclude, File types, OCR.",
    )


def _note(w) -> str:
    return w.rescan_note.text.text() if w.rescan_note.isVisible() else ""


def _trash(qtbot, w, name: str) -> None:
    """The file ``name`` to the trash as a person does: selected, Del, the confirmation's Move to Trash."""
    select_member(qtbot, w, name)
    seen = answer_dialog(qtbot, QMessageBox, press("Move to Trash"))
    w.files.trash_others()
    assert seen and name in seen[0]
    qtbot.waitUntil(
        lambda: w.result is not None and all(Path(d.path).name != name for d in w.result.documents), timeout=20_000
    )


@pytest.mark.e2e
def test_common_text_a_trash_left_unanalysed_is_said_at_once_and_scan_again_applies_it(
    window, uploads, qtbot, xdg_home
):
    w = window(folders=[str(uploads)])
    assert w.thresholds.boilerplate.isChecked()
    scan(qtbot, w)
    assert not w.rescan_note.isVisible()
    # settings that apply at once: a reference folder
    tick_reference(w, str(uploads))
    qtbot.wait(200)
    assert not w.rescan_note.isVisible()
    w.folders.list.item(0).setCheckState(Qt.CheckState.Unchecked)
    # a file type unticked waits for a scan: said at once, and taken back, unsaid
    w.folders.type_boxes["pdf"].setChecked(False)
    assert "File types" in _note(w) and w.rescan_note.scan_button.isEnabled()
    w.folders.type_boxes["pdf"].setChecked(True)
    assert not w.rescan_note.isVisible()
    # a near-duplicate of its own text trashed: the analysis is of another collection now
    _trash(qtbot, w, "bsd-copy.txt")
    assert _note(w) == COMMON_TEXT
    assert w.view is not None and not w.view.boilerplate_available
    w.rescan_note.scan_button.click()  # the Scan action's own button
    assert w.scan_job is not None and not w.rescan_note.isVisible()  # a scan applies it: nothing waits meanwhile
    qtbot.waitUntil(lambda: w.scan_job is None, timeout=120_000)
    assert w.view is not None and w.view.boilerplate_available
    assert not w.rescan_note.isVisible()


@pytest.mark.e2e
def test_preferences_say_at_once_what_waits_for_a_scan_and_only_that(window, uploads, qtbot, xdg_home):
    w = window(folders=[str(uploads)])
    w.thresholds.boilerplate.setChecked(False)
    scan(qtbot, w)
    _trash(qtbot, w, "bsd-copy.txt")
    assert not w.rescan_note.isVisible()  # common text is not asked for: nothing waits
    # what applies at once: which file is kept, how pairs are compared side by side
    dialog = PreferencesDialog(w.preferences(), w)
    dialog.keeper.setCurrentIndex(dialog.keeper.findData(KeeperRule.NEWEST))
    dialog.ignore_layout.setChecked(not dialog.ignore_layout.isChecked())
    w.apply_preferences(dialog.preferences())
    assert not w.rescan_note.isVisible()
    # common text asked for, which these files were not analysed for: said as the dialog closes
    dialog = PreferencesDialog(w.preferences(), w)
    dialog.boilerplate.setChecked(True)
    w.apply_preferences(dialog.preferences())
    assert _note(w) == COMMON_TEXT
    qtbot.waitUntil(lambda: w.view is not None and w.view.ignores_boilerplate, timeout=20_000)  # and stays
    assert _note(w) == COMMON_TEXT
