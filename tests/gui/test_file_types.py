"""The file-type boxes of the folders panel (#42): every kind neardup reads is behind exactly one box, the boxes
are groups a person understands (documents, spreadsheets, slides...), each tooltip lists its endings, a choice
saved before the boxes grew still holds, and the labels fit the panel of a 1024×700 window."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from neardup_gui.core.match.matcher import MatchResult
from neardup_gui.core.models import Thresholds
from neardup_gui.core.read.extract import KIND_OF_SUFFIX, KINDS
from neardup_gui.core.session import View
from neardup_gui.gui import settings as app_settings
from neardup_gui.gui.app import create_app
from neardup_gui.gui.controller import rescan_reasons
from neardup_gui.gui.folders import TYPE_GROUPS, FoldersPanel
from neardup_gui.gui.settings import AppState, FileDialogs


@pytest.fixture
def panel(qtbot) -> FoldersPanel:
    create_app([], language="en")
    folders = FoldersPanel(FileDialogs(AppState()))
    qtbot.addWidget(folders)
    return folders


def test_every_kind_read_is_behind_exactly_one_box_or_is_an_image():
    """A kind added to the readers and forgotten here would never be scanned by the app."""
    for kind in KINDS - {"image"}:  # images: scanned while OCR reads scans
        assert [key for key, kinds in TYPE_GROUPS.items() if kind in kinds] != [], f"{kind} is in no box"
        assert len([key for key, kinds in TYPE_GROUPS.items() if kind in kinds]) == 1, f"{kind} is in two boxes"
    assert set().union(*TYPE_GROUPS.values()) == KINDS - {"image"}
    assert list(AppState().file_types) == list(TYPE_GROUPS)  # the settings remember every box


def test_documents_spreadsheets_and_slides_are_boxes_of_their_own(panel):
    assert list(panel.type_boxes) == ["text", "pdf", "office", "sheets", "slides", "web", "mail"]
    assert TYPE_GROUPS["office"] == {"doc", "docx", "odt", "rtf", "wps"}
    assert TYPE_GROUPS["sheets"] == {"xls", "xlsx", "ods", "et"}
    assert TYPE_GROUPS["slides"] == {"ppt", "pptx", "odp", "dps"}
    assert panel.kinds() == KINDS - {"image"}  # all ticked at first; images only with OCR
    assert panel.type_boxes["office"].text() == "Documents (Word, WPS, ODT, RTF)"
    assert panel.type_boxes["sheets"].text() == "Spreadsheets (Excel, WPS, ODS)"
    assert panel.type_boxes["slides"].text() == "Slides (PowerPoint, WPS, ODP)"
    for key, box in panel.type_boxes.items():  # each tooltip ends with every ending its box reads
        shown = box.toolTip().splitlines()[-1].split()
        assert all(s in shown for s, kind in KIND_OF_SUFFIX.items() if kind in TYPE_GROUPS[key]), (key, shown)
        assert not any(s in shown for s, kind in KIND_OF_SUFFIX.items() if kind not in TYPE_GROUPS[key]), key
    sheets = panel.type_boxes["sheets"].toolTip()
    assert "row by row, sheet by sheet" in sheets and ".csv" in sheets and "“Text and Markdown”" in sheets
    assert "speaker notes" in panel.type_boxes["slides"].toolTip()


def test_unticking_slides_leaves_presentations_out_of_the_scan_and_waits_for_it(panel):
    scanned = panel.scan_options()
    panel.type_boxes["slides"].click()
    kinds = panel.scan_options().kinds
    assert {"ppt", "pptx", "odp", "dps"}.isdisjoint(kinds) and {"docx", "xlsx", "wps", "et"} <= kinds
    view = View(MatchResult(Thresholds(), (), (), ()), {}, (), boilerplate_available=True, scanned_with=scanned)
    assert rescan_reasons(view, Thresholds(), panel.scan_options()) == (
        "Changed since the last scan, applied at the next: File types.",
    )
    panel.type_boxes["slides"].click()
    assert rescan_reasons(view, Thresholds(), panel.scan_options()) == ()


@pytest.mark.parametrize("office", [True, False])
def test_a_choice_saved_with_the_five_old_boxes_holds_and_the_new_boxes_are_ticked(panel, tmp_path, office):
    """Settings saved before spreadsheets and slides were read: "office" (Word, OpenDocument and RTF then)
    keeps its tick for Documents, and Spreadsheets and Slides, never seen, are ticked, as every new type is."""
    saved = QSettings(str(tmp_path / "old.ini"), QSettings.Format.IniFormat)
    for key, ticked in {"text": True, "pdf": True, "office": office, "web": False, "mail": True}.items():
        saved.setValue(f"scan_{key}", ticked)
    saved.sync()
    state = app_settings.load(QSettings(str(tmp_path / "old.ini"), QSettings.Format.IniFormat))
    panel.restore(state, [])
    ticked = {key for key, box in panel.type_boxes.items() if box.isChecked()}
    assert ticked == {"text", "pdf", "sheets", "slides", "mail"} | ({"office"} if office else set())
    assert ("doc" in panel.kinds()) is office and "xls" in panel.kinds() and "pptx" in panel.kinds()
    panel.type_boxes["slides"].click()  # and a choice of the new boxes is remembered in turn
    panel.remember(state)
    app_settings.save(again := QSettings(str(tmp_path / "new.ini"), QSettings.Format.IniFormat), state)
    again.sync()
    loaded = app_settings.load(QSettings(str(tmp_path / "new.ini"), QSettings.Format.IniFormat))
    assert set(loaded.file_types) == ticked - {"slides"}


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_the_type_boxes_fit_the_panel_of_a_1024_by_700_window(qtbot, make_settings, language):
    from neardup_gui.gui.main_window import MainWindow

    create_app([], language=language)
    try:
        w = MainWindow(make_settings())
        qtbot.addWidget(w)
        w.resize(1024, 700)
        w.show()
        QApplication.processEvents()
        for box in (*w.folders.type_boxes.values(), w.folders.ocr):
            assert box.sizeHint().width() <= box.width() <= w.folders.width(), (language, box.text())
        w.close()
    finally:
        create_app([], language="en")
