"""The desktop app driven like a person would: real widgets, real scans, real files, the real trash."""

from __future__ import annotations

import shutil
import time
from itertools import pairwise
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QTimer, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QMessageBox

from neardup_gui.core.jobs import ProgressEvent
from neardup_gui.core.models import Method
from neardup_gui.core.read.extract import KINDS
from neardup_gui.gui.folders import TYPE_GROUPS
from neardup_gui.gui.item_models import BITS_COLUMN, TYPE_COLUMN
from tests.conftest import (
    english_texts,
    libreoffice_convert,
    plant_edits,
    scan_of,
    write_drafts,
    write_flat_odt,
    write_footed_letters,
    write_image_pdf,
    write_pdf,
)
from tests.gui.conftest import PLANTED, answer_dialog, group_names, press, scan, select_member, tick_reference


def test_first_launch_shows_an_inviting_empty_state(window):
    w = window()
    assert w.pages.currentIndex() == 0
    assert "Add a folder" in w.empty.text.text()
    assert w.empty.add_button.isVisible() and not w.empty.scan_button.isVisible()
    assert not w.scan_button.isEnabled()
    for widget in (
        w.empty.add_button,
        w.scan_button,
        w.thresholds.hamming_slider,
        w.thresholds.similarity_slider,
        w.thresholds.method,
        w.groups.filter_edit,
        w.groups.keep_button,
        w.groups.not_dup_button,
        w.groups.trash_button,
        w.folders.list,
    ):
        assert widget.toolTip(), widget


def test_dropping_a_folder_adds_it(window, uploads, qtbot):
    w = window()
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(uploads)), QUrl.fromLocalFile(str(uploads / "bsd.txt"))])
    target = w.pages  # dropped onto the empty state: the event travels up to the window, as a real drag does
    buttons, modifiers = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    enter = QDragEnterEvent(QPoint(40, 40), Qt.DropAction.CopyAction, mime, buttons, modifiers)
    QApplication.sendEvent(target, enter)
    assert enter.isAccepted(), "a folder being dragged in is welcome"
    QApplication.sendEvent(target, QDropEvent(QPointF(40, 40), Qt.DropAction.CopyAction, mime, buttons, modifiers))
    assert w.folders.folders() == [str(uploads)]  # the file was not taken for a folder
    assert w.empty.scan_button.isVisible() and w.scan_button.isEnabled()


@pytest.mark.e2e
def test_the_whole_journey(window, uploads, qtbot, xdg_home):
    w = window(folders=[str(uploads)])
    scan(qtbot, w)
    assert w.pages.currentIndex() == 1
    groups = group_names(w)
    assert {"bsd.txt", "bsd-copy.txt"} in groups and {"中文原稿.txt", "中文修改稿.txt"} in groups
    assert not any("apache.txt" in g for g in groups)
    assert w.tabs.tabText(w.tabs.indexOf(w.problems)) == "Problems (1)"
    assert "Password-protected" in w.problems.model.rows[0].message

    # the pair view shows the planted change, highlighted
    select_member(qtbot, w, "bsd-copy.txt")
    qtbot.waitUntil(lambda: w.groups.diff.model.rowCount() > 0, timeout=20_000)
    changed = [r for r in w.groups.diff.model.rows if r.kind != "equal"]
    assert changed and any(
        PLANTED in s.text and s.changed for r in changed for side in (r.left, r.right) if side for s in side.segments
    )
    numbers = w.groups.diff.numbers.text()
    assert "of the text is the same" in numbers and "Jaccard" in numbers
    assert "bits differ" not in numbers and w.groups.tree.isColumnHidden(BITS_COLUMN)  # only MinHash's numbers
    assert w.groups.diff.current_change_row is not None

    # thresholds move the groups at once, without rescanning
    before = len(w.result.groups)
    w.thresholds.method.setCurrentIndex(w.thresholds.method.findData(Method.SIMHASH))
    assert not w.thresholds.hamming_slider.isHidden() and w.thresholds.similarity_slider.isHidden()
    qtbot.waitUntil(lambda: not w.groups.tree.isColumnHidden(BITS_COLUMN), timeout=10_000)
    w.thresholds.hamming_slider.setValue(0)
    qtbot.waitUntil(
        lambda: w.result.thresholds.method is Method.SIMHASH and w.result.thresholds.hamming == 0, timeout=10_000
    )
    assert len(w.result.groups) < before
    w.thresholds.hamming_slider.setValue(12)
    qtbot.waitUntil(lambda: w.result.thresholds.hamming == 12, timeout=10_000)
    assert len(w.result.groups) >= before - 1
    w.thresholds.method.setCurrentIndex(w.thresholds.method.findData(Method.MINHASH))
    qtbot.waitUntil(lambda: w.result.thresholds.method is Method.MINHASH, timeout=10_000)
    assert "<b>" in w.thresholds.counts.text()

    # "not a duplicate" hides the pair, and the decision survives a restart
    select_member(qtbot, w, "mpl-edited.txt")
    w.mark_not_duplicate()
    qtbot.waitUntil(lambda: not any("mpl-edited.txt" in g for g in group_names(w)), timeout=10_000)
    w.close()
    w2 = window()
    qtbot.waitUntil(lambda: w2.result is not None, timeout=20_000)
    assert w2.folders.folders() == [str(uploads)]
    assert not any("mpl-edited.txt" in g for g in group_names(w2))
    assert {"bsd.txt", "bsd-copy.txt"} in group_names(w2)

    # keep one, trash the other: confirmed in the dialog, the file is in the trash, not deleted
    select_member(qtbot, w2, "bsd.txt")
    w2.keep_selected()
    qtbot.waitUntil(
        lambda: any(
            w2.groups.group_model.docs[k].path.endswith("/bsd.txt") for k in w2.groups.group_model.keepers.values()
        ),
        timeout=10_000,
    )
    victim = uploads / "bsd-copy.txt"
    content = victim.read_bytes()

    def confirm():
        box = next(b for b in QApplication.topLevelWidgets() if isinstance(b, QMessageBox) and b.isVisible())
        assert "bsd-copy.txt" in box.informativeText() and "KB" in box.text(), (box.text(), box.detailedText())
        move = next(b for b in box.buttons() if b.text() == "Move to Trash")
        move.click()

    QTimer.singleShot(300, confirm)
    w2.files.trash_others()
    import send2trash.plat_other as trash_impl

    assert Path(trash_impl.HOMETRASH).is_relative_to(xdg_home), "the test must use its own trash"
    qtbot.waitUntil(lambda: not victim.exists(), timeout=10_000)
    trashed = Path(trash_impl.HOMETRASH) / "files" / "bsd-copy.txt"
    assert trashed.read_bytes() == content
    assert (uploads / "bsd.txt").exists()
    qtbot.waitUntil(
        lambda: w2.result is not None and not any("bsd-copy.txt" in g for g in group_names(w2)), timeout=20_000
    )


@pytest.mark.e2e
def test_cancelling_the_trash_dialog_moves_nothing(window, uploads, qtbot):
    w = window(folders=[str(uploads)])
    scan(qtbot, w)
    select_member(qtbot, w, "bsd-copy.txt")

    def cancel():
        box = next(b for b in QApplication.topLevelWidgets() if isinstance(b, QMessageBox) and b.isVisible())
        box.button(QMessageBox.StandardButton.Cancel).click()

    QTimer.singleShot(300, cancel)
    w.files.trash_others()
    assert (uploads / "bsd-copy.txt").exists() and (uploads / "bsd.txt").exists()


@pytest.mark.e2e
def test_the_groups_trash_leaves_a_member_that_holds_the_keeper_and_says_why(window, tmp_path, qtbot):
    """A licence (the oldest, kept), its copy, and the licence with an appendix: the group's trash takes the copy
    only, and its confirmation says that one file stays because it holds the whole keeper and more."""
    import os

    root = tmp_path / "licences"
    root.mkdir()
    text = english_texts()["Apache-2.0"]
    (root / "licence.txt").write_text(text)
    os.utime(root / "licence.txt", (1_600_000_000, 1_600_000_000))
    (root / "licence-copy.txt").write_text(text)
    (root / "licence with appendix.txt").write_text(text + "\n\nAppendix\n\n" + english_texts()["BSD"])
    w = window(folders=[str(root)])
    scan(qtbot, w)
    assert group_names(w) == [{"licence.txt", "licence-copy.txt", "licence with appendix.txt"}]
    select_member(qtbot, w, "licence with appendix.txt")
    seen = answer_dialog(
        qtbot,
        QMessageBox,
        lambda box: (box.text(), box.informativeText(), box.button(QMessageBox.StandardButton.Cancel).click()),
    )
    w.files.trash_others()
    question, details, _ = seen[0]
    assert "Move 1 file" in question and "Keeping: " in question and question.endswith("licence.txt")
    assert "licence-copy.txt" in details and "appendix" not in details.split("Kept because")[0]
    assert "Kept because each holds the whole keeper and more: 1" in details
    assert all(p.exists() for p in root.iterdir())


@pytest.mark.e2e
def test_reference_folder_files_are_never_proposed_for_removal(window, uploads, tmp_path, qtbot):
    originals = tmp_path / "originals"
    originals.mkdir()
    shutil.copy(uploads / "apache.txt", originals / "apache-original.txt")
    w = window(folders=[str(uploads), str(originals)])
    tick_reference(w, str(originals))
    scan(qtbot, w)
    summary = next(
        s
        for s in w.groups.group_model.summaries
        if any(
            Path(w.groups.group_model.docs[m.document_id].path).name == "apache-original.txt" for m in s.group.members
        )
    )
    keeper = w.groups.group_model.docs[w.groups.group_model.keepers[summary.group.id]]
    assert keeper.path.startswith(str(originals))
    from neardup_gui.core.review.rules import trash_plan

    first, second = summary.group.members[0].document_id, summary.group.members[1].document_id
    docs = w.groups.group_model.docs
    plan = trash_plan(summary.group, first if first != keeper.id else second, docs, (str(originals),))
    assert all(not d.path.startswith(str(originals)) for d in plan.documents)
    assert plan.protected and plan.protected[0].path.startswith(str(originals))


def many_files(root: Path, count: int) -> Path:
    root.mkdir()
    texts = list(english_texts().values())
    for n in range(count):
        (root / f"doc{n}.txt").write_text(plant_edits(texts[n % len(texts)], 0.02, seed=n))
    return root


@pytest.mark.e2e
def test_the_window_stays_responsive_during_a_scan(window, tmp_path, qtbot):
    root = many_files(tmp_path / "many", 300)
    w = window(folders=[str(root)])
    ticks = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(time.monotonic()))
    timer.start(20)
    started = time.monotonic()
    w.start_scan()
    qtbot.waitUntil(lambda: w.scan_job is None, timeout=120_000)
    timer.stop()
    during = [t for t in ticks if t > started]
    assert len(during) >= 10, "the event loop must run while the scan works"
    gaps = [b - a for a, b in pairwise(during)]
    assert max(gaps) < 1.0, f"the window froze for {max(gaps):.2f} s"
    assert w.scan_status.label.text() == "" or not w.scan_status.progress.isVisible()


@pytest.mark.e2e
def test_the_status_bar_says_what_the_scan_does_between_its_phases(window, uploads, qtbot):
    """The events of a real scan, as the status bar shows them: each phase named as it begins, before it
    counts anything ("Grouping…", not "Grouping" over a bar saying 0), and after the last file is read the
    results being saved, not that file's name."""
    from neardup_gui.gui.scan_status import PHASES

    w = window(folders=[str(uploads)])
    shown: list[tuple[str, str, str]] = []  # each event's phase, and the label and the bar's text after it
    original = w.scan_status.show_progress

    def watch(event: ProgressEvent) -> None:
        original(event)
        shown.append((event.phase, w.scan_status.label.text(), w.scan_status.progress.format()))

    w.scan_status.show_progress = watch  # type: ignore[method-assign]
    scan(qtbot, w)
    assert all(phase in PHASES and label.startswith(PHASES[phase]) for phase, label, _bar in shown), shown
    phases = [phase for phase, _label, _bar in shown]
    assert shown[0] == ("discover", "Finding files…", ""), "the walk is said before it finds 500 files"
    saving = phases.index("save")
    assert "fingerprint" in phases[:saving] and phases[saving + 1] == "index"
    assert shown[saving] == ("save", "Saving…", "")
    assert ("match", "Grouping…", "") in shown


@pytest.mark.e2e
def test_cancel_a_scan_keeps_what_was_read(window, tmp_path, qtbot):
    root = many_files(tmp_path / "many", 400)
    w = window(folders=[str(root)])
    w.start_scan()
    qtbot.waitUntil(lambda: "Fingerprinting" in w.scan_status.label.text(), timeout=60_000)
    assert "files/s" in w.scan_status.label.text() or "Fingerprinting" in w.scan_status.label.text()
    cancelled_at = time.monotonic()
    w.cancel_scan()
    qtbot.waitUntil(lambda: w.scan_job is None, timeout=10_000)
    assert time.monotonic() - cancelled_at < 5
    assert "cancelled" in w.statusBar().currentMessage().lower()


@pytest.mark.e2e
def test_keyboard_navigation_and_filtering(window, uploads, qtbot):
    w = window(folders=[str(uploads)])
    scan(qtbot, w)
    w.groups.tree.setFocus()
    w.groups.tree.setCurrentIndex(w.groups.group_model.index(0, 0))
    qtbot.keyClick(w.groups.tree, Qt.Key.Key_Right)  # expand
    qtbot.keyClick(w.groups.tree, Qt.Key.Key_Down)
    assert w.groups.tree.currentIndex().parent().isValid(), "Down from an expanded group goes to its first member"
    qtbot.keyClicks(w.groups.filter_edit, "bsd-co")
    assert w.groups.group_model.rowCount() == 1
    w.groups.filter_edit.clear()
    w.groups.filter_edit.setText("中文")  # what an input method delivers; QTest cannot type Han characters
    assert w.groups.group_model.rowCount() == 1
    w.groups.filter_edit.clear()
    w.groups.kind_filter.setCurrentIndex(w.groups.kind_filter.findData("exact"))
    assert w.groups.group_model.rowCount() == 0
    w.groups.kind_filter.setCurrentIndex(w.groups.kind_filter.findData("near"))
    assert w.groups.group_model.rowCount() == len(w.result.groups)


@pytest.mark.e2e
def test_chinese_pair_in_the_diff_view(window, uploads, qtbot):
    w = window(folders=[str(uploads)])
    scan(qtbot, w)
    select_member(qtbot, w, "中文修改稿.txt")
    qtbot.waitUntil(lambda: w.groups.diff.model.rowCount() > 0, timeout=20_000)
    rows = w.groups.diff.model.rows
    assert any(r.kind == "replace" and r.right and any(s.changed for s in r.right.segments) for r in rows)
    assert any("烟花爆竹" in "".join(s.text for s in (r.left.segments if r.left else ())) for r in rows)


@pytest.mark.e2e
def test_export_applies_the_current_thresholds_and_decisions(window, uploads, tmp_path, qtbot):
    w = window(folders=[str(uploads)])
    scan(qtbot, w)
    select_member(qtbot, w, "mpl-edited.txt")
    w.mark_not_duplicate()
    qtbot.waitUntil(lambda: not any("mpl-edited.txt" in g for g in group_names(w)), timeout=10_000)
    for fmt in ("html", "csv", "json"):
        out = tmp_path / f"report.{fmt}"
        w.export.write(str(out))
        qtbot.waitUntil(out.exists, timeout=30_000)  # written as .part, then renamed: complete when it exists
        text = out.read_text(encoding="utf-8")
        assert "bsd-copy.txt" in text
        assert "mpl-edited.txt" not in text or fmt == "json"  # JSON lists every document, grouped or not
    import json

    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    grouped = {Path(m["path"]).name for g in report["groups"] for m in g["members"]}
    assert "mpl-edited.txt" not in grouped
    # a filter shows one group: the report holds that group (every document listed all the same), and says so
    w.groups.filter_edit.setText("bsd")
    qtbot.waitUntil(lambda: w.groups.group_model.rowCount() == 1, timeout=10_000)
    filtered = tmp_path / "filtered.json"
    w.export.write(str(filtered))
    qtbot.waitUntil(filtered.exists, timeout=30_000)
    shown = json.loads(filtered.read_text(encoding="utf-8"))
    assert [{Path(m["path"]).name for m in g["members"]} for g in shown["groups"]] == [{"bsd.txt", "bsd-copy.txt"}]
    assert len(shown["documents"]) == len(report["documents"]) and len(report["groups"]) > 1
    ids = {m["id"] for m in shown["groups"][0]["members"]}
    assert shown["pairs"] and all({p["a"], p["b"]} <= ids for p in shown["pairs"])
    qtbot.waitUntil(lambda: "filter shows" in w.statusBar().currentMessage(), timeout=10_000)


@pytest.mark.e2e
def test_the_window_is_laid_out_again_as_it_was_left(window, uploads, qtbot):
    """Splitters, the columns' widths and the sort order of the groups tree and of the Pairs table come
    back after a restart as the person left them."""
    from PySide6.QtCore import Qt

    w = window(folders=[str(uploads)])
    scan(qtbot, w)
    w.main_split.setSizes([200, 1200])
    w.groups.tree.setColumnWidth(1, 333)
    w.groups.tree.sortByColumn(1, Qt.SortOrder.AscendingOrder)
    w.pairs.split.setSizes([300, 500])
    w.pairs.table.setColumnWidth(0, 277)
    w.pairs.table.sortByColumn(0, Qt.SortOrder.AscendingOrder)
    before = (
        w.main_split.sizes(),
        w.pairs.split.sizes(),
        w.groups.tree.header().sortIndicatorSection(),
        w.pairs.table.horizontalHeader().sortIndicatorSection(),
    )
    w.close()
    w2 = window()
    qtbot.waitUntil(lambda: w2.result is not None, timeout=20_000)
    assert w2.groups.tree.columnWidth(1) == 333 and w2.pairs.table.columnWidth(0) == 277
    assert w2.groups.tree.header().sortIndicatorOrder() == Qt.SortOrder.AscendingOrder
    after = (
        w2.main_split.sizes(),
        w2.pairs.split.sizes(),
        w2.groups.tree.header().sortIndicatorSection(),
        w2.pairs.table.horizontalHeader().sortIndicatorSection(),
    )
    assert after == before


@pytest.mark.e2e
def test_the_boilerplate_switch_regroups_and_is_remembered(window, tmp_path, qtbot):
    letters = tmp_path / "letters"
    letters.mkdir()
    write_footed_letters(letters)
    w = window(folders=[str(letters)])
    w.thresholds.similarity_spin.setValue(50)
    scan(qtbot, w)
    qtbot.waitUntil(lambda: w.result.thresholds.jaccard == 0.5, timeout=20_000)
    assert w.thresholds.boilerplate.isChecked()
    assert group_names(w) == [{"letter00.txt", "letter00~copy.txt"}]
    select_member(qtbot, w, "letter00~copy.txt")
    qtbot.waitUntil(lambda: "common text left out" in w.groups.diff.numbers.text(), timeout=10_000)
    box = w.thresholds.boilerplate
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=QPoint(8, box.height() // 2))  # on the tick: keep boilerplate
    assert not box.isChecked()
    qtbot.waitUntil(lambda: not w.result.thresholds.ignore_boilerplate, timeout=20_000)
    assert max(len(g) for g in group_names(w)) >= 25  # the shared footer joins unrelated letters
    select_member(qtbot, w, "letter00~copy.txt")
    numbers = w.groups.diff.numbers
    qtbot.waitUntil(lambda: "Jaccard" in numbers.text() and "common text" not in numbers.text(), timeout=10_000)
    qtbot.waitUntil(lambda: not w.regrouping.running and not w.runner.busy, timeout=20_000)
    w.close()
    w2 = window()
    assert not w2.thresholds.boilerplate.isChecked()
    qtbot.waitUntil(lambda: w2.result is not None, timeout=20_000)
    assert max(len(g) for g in group_names(w2)) >= 25


@pytest.mark.e2e
def test_a_family_of_licences_marks_only_duplicates_of_what_is_kept_and_the_trash_keeps_a_copy_of_each(
    window, tmp_path, qtbot, xdg_home
):
    """A family of licence drafts at 65-100 % of one another, and the setting at 80 %: every two documents of a
    group are duplicates at 80 %; Ctrl+M ticks no file some group keeps and none that is not a duplicate of
    its group's keeper; after the one confirmation, every group still has the file it kept on disk."""
    from PySide6.QtWidgets import QMessageBox

    from neardup_gui.core.models import within_thresholds
    from neardup_gui.core.review.rules import kept_anywhere

    drafts = write_drafts(tmp_path / "drafts", 8)
    w = window(folders=[str(drafts)])
    w.thresholds.similarity_spin.setValue(80)
    scan(qtbot, w)
    qtbot.waitUntil(lambda: w.result.thresholds.jaccard == 0.8, timeout=20_000)
    matcher, view = w.session.matcher, w.view
    docs = view.documents
    first, last = (next(d for d in docs.values() if d.path.endswith(n)) for n in ("draft-00.txt", "draft-07.txt"))
    assert matcher.similarity(first.content_id, last.content_id).jaccard < 0.8  # the family reaches below 80 %
    for g in view.result.groups:
        for k, a in enumerate(g.members):
            for b in g.members[k + 1 :]:
                sim = matcher.similarity(docs[a.document_id].content_id, docs[b.document_id].content_id)
                assert within_thresholds(sim, view.result.thresholds)
    assert "chained" not in " ".join(
        w.groups.group_model.data(w.groups.group_model.index(r, 0)) for r in range(w.groups.group_model.rowCount())
    )
    press_keys = w.action("mark_rule")
    assert press_keys.shortcut().toString() == "Ctrl+M"
    press_keys.trigger()
    marked = set(w.groups.group_model.marked)
    kept = kept_anywhere(view.result.groups, view.keepers)
    assert marked and not marked & kept
    for g in view.result.groups:
        for m in g.members:
            if m.document_id in marked:
                assert within_thresholds(m.similarity, view.result.thresholds)
    kept_paths = {docs[k].path for k in kept}
    seen = answer_dialog(qtbot, QMessageBox, press("Move to Trash"))
    w.action("trash_marked").trigger()
    assert len(seen) == 1
    qtbot.waitUntil(
        lambda: sorted(p.name for p in drafts.iterdir()) == sorted(Path(p).name for p in kept_paths), timeout=60_000
    )
    # two files kept by two groups may be duplicates of each other: they are a group of their own then
    qtbot.waitUntil(lambda: not w.runner.busy and len(w.view.documents) == len(kept_paths), timeout=60_000)
    assert all(len(g.members) == 2 for g in w.result.groups)


@pytest.mark.e2e
def test_edits_actions_act_on_the_tab_shown(window, uploads, qtbot):
    """A member selected on the Groups tab, then the Problems tab shown: Keep, Not a duplicate and Move
    others to trash (Del) no longer act on the hidden selection; Open and Show in folder act on the
    problem selected there, from the menu, the keys or the tab's own buttons."""
    w = window(folders=[str(uploads)])
    scan(qtbot, w)
    select_member(qtbot, w, "bsd-copy.txt")
    assert all(w.action(name).isEnabled() for name in ("keep", "not_duplicate", "trash_others", "open"))
    w.tabs.setCurrentWidget(w.problems)
    assert not any(w.action(name).isEnabled() for name in ("keep", "not_duplicate", "trash_others", "open"))
    assert not w.problems.open_button.isEnabled() and not w.problems.reveal_button.isEnabled()
    w.problems.table.setCurrentIndex(w.problems.model.index(0, 0))
    assert w.action("open").isEnabled() and w.action("reveal").isEnabled()
    assert w.problems.open_button.isEnabled() and w.problems.reveal_button.isEnabled()
    assert w.selected() == (None, w.problems.model.rows[0]) and w.problems.model.rows[0].path.endswith("locked.pdf")
    assert "Ctrl+Return" in w.problems.open_button.toolTip()
    w.tabs.setCurrentWidget(w.groups)
    assert w.action("keep").isEnabled() and w.selected()[1].path.endswith("bsd-copy.txt")


def test_the_preparing_message_goes_when_the_new_groups_are_shown(window):
    """A forest built for a lower threshold reports its progress in the status bar; its last figure
    (the forest never says 100 %) must not stay there beside the groups it prepared."""
    w = window()
    bar = w.statusBar()
    w.regrouping.progress(ProgressEvent("match", 1536, 2048))
    assert "75 %" in bar.currentMessage()
    w.regrouping.finished()
    assert bar.currentMessage() == ""
    w.regrouping.progress(ProgressEvent("match", 512, 2048))
    bar.showMessage("Report saved: /tmp/r.json")  # something said since is left alone
    w.regrouping.finished()
    assert bar.currentMessage() == "Report saved: /tmp/r.json"


def test_each_file_dialog_opens_where_it_was_last_left_also_after_a_restart(window, tmp_path, qtbot):
    """Adding a folder and Mark by rule's folder each open where they were left, not where the other was;
    home the first time, or once that folder is gone."""
    from PySide6.QtWidgets import QFileDialog, QLineEdit

    from neardup_gui.gui.mark_dialog import MarkRuleDialog

    scanned, marked = tmp_path / "scanned", tmp_path / "marked"
    for folder in (scanned, marked):
        folder.mkdir()

    def choose(folder: Path | None):
        """Note where the dialog opened, then choose ``folder`` (None: Cancel)."""

        def act(dialog: QFileDialog) -> str:
            opened = dialog.directory().absolutePath()
            if folder is None:
                dialog.reject()
            else:
                dialog.findChild(QLineEdit, "fileNameEdit").setText(str(folder))
                dialog.accept()
            return opened

        return act

    def opened(act, show) -> str:
        seen = answer_dialog(qtbot, QFileDialog, act)
        show()
        assert len(seen) == 1
        return seen[0]

    home = str(Path.home())
    w = window()
    assert opened(choose(scanned), w.folders.choose_folder) == home
    assert w.folders.folders() == [str(scanned)]
    assert opened(choose(marked), MarkRuleDialog(w.review, w.dialogs, w)._choose_folder) == home
    w.close()
    w = window()  # started again
    assert opened(choose(None), w.folders.choose_folder) == str(scanned)
    rule = MarkRuleDialog(w.review, w.dialogs, w)
    assert opened(choose(None), rule._choose_folder) == str(marked)
    marked.rmdir()
    assert opened(choose(None), rule._choose_folder) == home


def test_open_and_show_in_folder_say_so_when_no_program_opens_the_file(window, tmp_path, qtbot):
    """Qt's offscreen platform, like a desktop with no program for the file, opens nothing
    (QDesktopServices.openUrl says no): the person is told, with the path, which a button copies."""
    from PySide6.QtGui import QGuiApplication

    from neardup_gui.core.models import Document, Status
    from neardup_gui.gui.file_actions import FileActions

    if QGuiApplication.platformName() != "offscreen":
        pytest.skip("a desktop platform may have a program for the file")
    path = tmp_path / "notes.txt"
    path.write_text("a note")
    doc = Document(1, str(path), 6, 0, "text", Status.OK, "", 6, 1)
    w = window()
    files = FileActions(w, w.review, w.dialogs, w.say, lambda: (None, doc), lambda: False)
    seen = answer_dialog(qtbot, QMessageBox, press("Copy Path"))
    files.open_selected()
    assert seen and str(path) in seen[0] and "no program" in seen[0] and "Show in Folder" in seen[0]
    assert QApplication.clipboard().text() == str(path)
    assert w.statusBar().currentMessage() == "Copied 1 path."
    seen = answer_dialog(qtbot, QMessageBox, press("Close"))
    files.reveal_selected()
    assert seen and str(path) in seen[0] and "show folders" in seen[0]


def test_a_threshold_move_with_no_grouping_shown_starts_nothing(window):
    """No grouping shown (no folder, or the database set aside): neither a move of the slider nor the
    move that waited for the one before asks the session for groups."""
    w = window()
    assert w.view is None
    w.regrouping.request()
    assert not w.regrouping.running and not w.session_jobs.busy
    w.regrouping.running = True  # a grouping under way when the view went: the waiting move is dropped
    w.regrouping.request()
    w.regrouping.finished()
    assert not w.regrouping.running and not w.session_jobs.busy


def test_a_file_listed_under_two_groups_says_so_and_one_another_group_keeps_is_never_ticked(qtbot):
    """A chain A ~ B ~ C shown as the groups {A, B} and {B, C}: B's rows say it is also listed under the other
    group; where one group keeps B, its row in the other says another group keeps it, and ticking that other
    group ticks everything it may remove, not B."""
    from neardup_gui.core.match.matcher import MatchResult
    from neardup_gui.core.models import Document, Group, Member, Similarity, Status, Thresholds
    from neardup_gui.gui.item_models import GroupTreeModel

    docs = tuple(Document(n, f"/data/doc{n}.txt", 1000, 0, "text", Status.OK, "", 900, n) for n in range(3))
    same, near = Similarity(0, 1, 1, 1, 1), Similarity(2, 0.85, 0.84, 0.9, 0.9)
    first = Group(1, 1, (Member(1, same), Member(0, near)), False)
    second = Group(2, 1, (Member(1, same), Member(2, near)), False)
    model = GroupTreeModel()
    model.set_result(MatchResult(Thresholds(), docs, (), (first, second)), {1: 1, 2: 1})
    assert model.groups_listing(1) == [1, 2]
    member = model.index(0, 0, model.index(0, 0))  # B, kept by both groups
    assert "keep" in model.data(member)
    assert "Also listed under group 2" in model.data(member, Qt.ItemDataRole.ToolTipRole)

    third = Group(2, 2, (Member(2, same), Member(1, near)), False)  # C keeps the second group, B is in it
    model.set_result(MatchResult(Thresholds(), docs, (), (first, third)), {1: 1, 2: 2})
    row_of_b = model.index(1, 0, model.index(1, 0))
    assert model.document(row_of_b).id == 1 and "kept by another group" in model.data(row_of_b)
    model.setData(model.index(1, 0), Qt.CheckState.Checked.value, Qt.ItemDataRole.CheckStateRole)
    assert model.marked == frozenset()  # the second group's tick: nothing it may remove (C keeps, B is kept)
    model.setData(model.index(0, 0), Qt.CheckState.Checked.value, Qt.ItemDataRole.CheckStateRole)
    assert model.marked == {0}

    # A and B both kept by a person, one group holding both: A says so, and ticking the group spares it
    model.marks.set(())
    model.set_result(MatchResult(Thresholds(), docs, (), (first,)), {1: 1}, (), frozenset({0, 1}))
    row_of_a = model.index(1, 0, model.index(0, 0))
    assert model.document(row_of_a).id == 0 and "kept, as you chose" in model.data(row_of_a)
    model.setData(model.index(0, 0), Qt.CheckState.Checked.value, Qt.ItemDataRole.CheckStateRole)
    assert model.marked == frozenset()


def test_ten_thousand_groups_in_a_real_item_model(qtbot):
    from PySide6.QtCore import QModelIndex
    from PySide6.QtWidgets import QTreeView

    from neardup_gui.core.match.matcher import MatchResult
    from neardup_gui.core.models import Document, Group, Member, Similarity, Status, Thresholds
    from neardup_gui.gui.item_models import GroupTreeModel

    docs, groups = [], []
    for g in range(10_000):
        members = []
        for k in range(3):
            doc_id = g * 3 + k
            docs.append(
                Document(
                    doc_id, f"/data/folder{g % 50}/doc{doc_id}.txt", 1000 + k, 0, "text", Status.OK, "", 900, doc_id
                )
            )
            members.append(Member(doc_id, Similarity(k, 1 - k / 10, 1 - k / 10, 1.0, 1.0)))
        groups.append(Group(g + 1, g * 3, tuple(members), False))
    result = MatchResult(Thresholds(), tuple(docs), (), tuple(groups))
    model = GroupTreeModel()
    view = QTreeView()
    qtbot.addWidget(view)
    view.setUniformRowHeights(True)
    view.setModel(model)
    model.set_result(result, {})
    # a thousand groups handed to the view at a time, more as it scrolls to the end
    assert model.rowCount() == 1_000 and model.listed_count == 10_000 and model.canFetchMore(QModelIndex())
    view.show()
    fetched = model.rowCount()
    assert fetched < 10_000
    view.scrollToBottom()
    qtbot.waitUntil(lambda: model.rowCount() == fetched + 1_000)
    assert not model.index(9_999, 0).isValid()
    assert model.index_of(29_999).isValid() and model.rowCount() == 10_000  # a document asked for is fetched
    view.sortByColumn(2, Qt.SortOrder.AscendingOrder)
    assert model.rowCount() == 1_000
    last = model.group_index(9_999)  # fetched through it
    view.scrollTo(last)
    view.setCurrentIndex(last)
    assert view.currentIndex().row() == 9_999
    assert model.rowCount(last) == 3
    # the model sorts and filters itself; the current row follows its member, or goes with its group
    view.setCurrentIndex(model.index(1, 0, model.index(123, 0)))
    current = model.document(view.currentIndex())
    view.sortByColumn(1, Qt.SortOrder.DescendingOrder)  # by the keeper's folder
    paths = [model.summary(model.index(row, 0)).representative.path for row in range(model.rowCount())]
    assert paths == sorted(paths, reverse=True) and paths[0].startswith("/data/folder9/")
    assert model.document(view.currentIndex()) == current
    model.set_filter(text="FOLDER7/")
    assert model.rowCount() == 200 and all("/folder7/" in model.index(r, 1).data() + "/" for r in range(200))
    assert not view.currentIndex().isValid()  # its group, in folder 23, is not listed
    model.set_filter(text="")
    assert model.rowCount() == 1_000 and model.listed_count == 10_000
    view.sortByColumn(2, Qt.SortOrder.AscendingOrder)
    while model.canFetchMore(QModelIndex()):
        model.fetchMore(QModelIndex())
    assert model.rowCount() == 10_000
    # ticking one file repaints its group only (the group's box and its members'), not ten thousand
    changed: list = []
    model.dataChanged.connect(lambda first, final, roles: changed.append((first.parent().row(), first.row())))
    member = model.index(1, 0, model.index(4_321, 0))
    assert model.setData(member, Qt.CheckState.Checked.value, Qt.ItemDataRole.CheckStateRole)
    assert model.marked == {4_321 * 3 + 1} and changed == [(-1, 4_321), (4_321, 0)]
    assert model.data(model.index(4_321, 0), Qt.ItemDataRole.CheckStateRole) == Qt.CheckState.PartiallyChecked
    changed.clear()
    model.marks.set(range(0, 30_000, 3))  # a rule marks a file in every group: every group repaints
    assert len(changed) == 2 * 10_000
    # a group's own tick ticks what the trash would take: never its keeper; ticked again, it unticks
    model.marks.set(())
    group = model.index(7, 0)
    keeper = model.summary(group).group.representative
    assert model.setData(group, Qt.CheckState.Checked.value, Qt.ItemDataRole.CheckStateRole)
    assert keeper not in model.marked and len(model.marked) == 2
    assert model.data(group, Qt.ItemDataRole.CheckStateRole) == Qt.CheckState.Checked
    assert model.setData(group, Qt.CheckState.Unchecked.value, Qt.ItemDataRole.CheckStateRole)
    assert not model.marked


def test_end_in_the_groups_tree_goes_to_the_last_group_not_the_last_fetched(qtbot):
    from neardup_gui.core.match.matcher import MatchResult
    from neardup_gui.core.models import Document, Group, Member, Similarity, Status, Thresholds
    from neardup_gui.core.review.rules import KeeperRule
    from neardup_gui.gui.controller import Marks
    from neardup_gui.gui.groups_page import GroupsPage

    docs = [Document(d, f"/data/doc{d:05d}.txt", 1000, 0, "text", Status.OK, "", 900, d) for d in range(6_000)]
    groups = [
        Group(
            g + 1,
            2 * g,
            (Member(2 * g, Similarity(0, 1, 1, 1, 1)), Member(2 * g + 1, Similarity(3, 0.9, 0.9, 1, 1))),
            False,
        )
        for g in range(3_000)
    ]
    page = GroupsPage(Marks(), KeeperRule.OLDEST)
    qtbot.addWidget(page)
    page.show()
    page.group_model.set_result(MatchResult(Thresholds(), tuple(docs), (), tuple(groups)), {})
    page.tree.setFocus()
    page.tree.setCurrentIndex(page.group_model.index(0, 0))
    assert page.group_model.rowCount() < 3_000
    qtbot.keyClick(page.tree, Qt.Key.Key_End)
    assert page.tree.currentIndex().row() == 2_999 and page.group_model.rowCount() == 3_000


@pytest.mark.e2e
def test_export_never_overwrites_a_document_and_asks_before_replacing_a_file(window, uploads, tmp_path, qtbot):
    """Typed without a suffix, the name gets the chosen format's suffix: the dialog never asked about that
    file, so the app checks it: a scanned document is refused, and the dialog asks again with the name
    typed (Cancel ends it); anything else needs a yes. The dialog opens in the folder of the last export."""
    from PySide6.QtWidgets import QFileDialog, QLineEdit

    (uploads / "notes.csv").write_text("name,phone\nAda,123\n")  # a spreadsheet the user uploaded: scanned
    w = window(folders=[str(uploads)])
    scan(qtbot, w)
    seen: list[str] = []
    csv = "CSV spreadsheet (*.csv)"
    suggested = f"neardup-report-{time.strftime('%Y%m%d')}.html"

    def export(
        names: list[Path | None], answer: QMessageBox.StandardButton, written: Path | None = None
    ) -> list[tuple[str, str, str]]:
        """Each Save dialog shown gets the next of ``names`` typed (None: Cancel), each message ``answer``,
        until that or the report ``written``; returns where each dialog opened: its folder, the name and
        the format it offered."""
        offered: list[tuple[str, str, str]] = []
        done: list[bool] = []

        def step() -> None:
            if done:
                return
            top = [b for b in QApplication.topLevelWidgets() if b.isVisible()]
            dialog = next((d for d in top if isinstance(d, QFileDialog)), None)
            box = next((b for b in top if isinstance(b, QMessageBox)), None)
            if dialog is not None:
                edit = dialog.findChild(QLineEdit, "fileNameEdit")
                offered.append((dialog.directory().absolutePath(), edit.text(), dialog.selectedNameFilter()))
                name = names.pop(0)
                if name is None:
                    dialog.reject()
                    done.append(True)
                    return
                dialog.selectNameFilter(csv)
                edit.setText(str(name))  # as a person types the name
                dialog.accept()
            elif box is not None:
                seen.append(box.text())
                if names:  # a place refused: the dialog again
                    QTimer.singleShot(100, step)
                else:
                    done.append(True)
                (box.button(answer) or box.buttons()[0]).click()
                return
            QTimer.singleShot(100, step)

        QTimer.singleShot(200, step)
        w.export.ask()  # the path is checked in the background: the refusal or the question follows
        qtbot.waitUntil(lambda: bool(done) or (written is not None and written.exists()), timeout=20_000)
        done.append(True)
        return offered

    offered = export([uploads / "notes", None], QMessageBox.StandardButton.Ok)
    assert "one of the documents" in seen[-1]
    assert offered == [(str(Path.home()), suggested, "HTML report (*.html)"), (str(uploads), "notes", csv)]
    qtbot.wait(300)
    assert not any(isinstance(t, (QFileDialog, QMessageBox)) and t.isVisible() for t in QApplication.topLevelWidgets())
    assert (uploads / "notes.csv").read_text() == "name,phone\nAda,123\n"
    offered = export([uploads / "notes", tmp_path / "chosen"], QMessageBox.StandardButton.Ok, tmp_path / "chosen.csv")
    assert offered[0][:2] == (str(uploads), suggested), "where the last export went, the day's name"
    assert offered[1][:2] == (str(uploads), "notes") and "one of the documents" in seen[-1]
    old = tmp_path / "old-report.csv"
    old.write_text("old")
    offered = export([tmp_path / "old-report"], QMessageBox.StandardButton.Cancel)
    assert "already exists" in seen[-1] and old.read_text() == "old"
    assert offered[0][:2] == (str(tmp_path), suggested)
    export([tmp_path / "old-report"], QMessageBox.StandardButton.Yes)
    assert "already exists" in seen[-1]
    qtbot.waitUntil(lambda: old.read_text(encoding="utf-8") != "old", timeout=20_000)
    assert "bsd-copy.txt" in old.read_text(encoding="utf-8")


@pytest.mark.e2e
def test_rows_are_tall_enough_for_names_that_mix_latin_and_han(window, uploads, qtbot):
    """Han comes from a taller fallback font: a row sized by the Latin font's metrics cuts the
    underscores of "02_修改稿.txt" (seen under Xvfb with Noto Sans CJK)."""
    from neardup_gui.gui.delegates import mixed_script_line_height

    (uploads / "02_中文_copy.txt").write_text((uploads / "中文原稿.txt").read_text())
    w = window(folders=[str(uploads)])
    scan(qtbot, w)
    w.groups.tree.expandAll()
    needed = mixed_script_line_height(w.groups.tree.font())
    assert needed > w.groups.tree.fontMetrics().height()  # the fallback is taller, or this test shows nothing
    select_member(qtbot, w, "02_中文_copy.txt")
    row = w.groups.tree.visualRect(w.groups.tree.currentIndex())
    assert row.height() >= needed + 2, (row.height(), needed)


@pytest.mark.e2e
def test_try_again_rescans_the_failed_files(window, uploads, qtbot):
    w = window(folders=[str(uploads)])
    scan(qtbot, w)
    assert w.tabs.tabText(w.tabs.indexOf(w.problems)) == "Problems (1)" and w.problems.retry_button.isEnabled()
    w.problems.retry_button.click()
    assert w.scan_job is not None and not w.problems.retry_button.isEnabled()
    qtbot.waitUntil(lambda: w.scan_job is None and w.result is not None, timeout=120_000)
    # a password is not a passing failure: still there, still said
    assert w.tabs.tabText(w.tabs.indexOf(w.problems)) == "Problems (1)"


@pytest.mark.e2e
def test_a_damaged_database_is_kept_aside_and_a_new_one_started(window, uploads, make_settings, qtbot):
    w = window(folders=[str(uploads)])
    scan(qtbot, w)
    db = Path(w.db_path)
    w.close()
    size = db.stat().st_size
    with open(db, "r+b") as fh:  # every page but the first overwritten, as a failing disk leaves them
        fh.seek(4096)
        fh.write(bytes(range(256)) * ((size - 4096) // 256))
    damaged = db.read_bytes()
    seen = answer_dialog(qtbot, QMessageBox, press("Start a New Database"))
    w2 = window()
    qtbot.waitUntil(lambda: bool(seen) and not db.exists(), timeout=20_000)
    assert "is damaged" in seen[0] and str(db) in seen[0]
    kept = next(p for p in db.parent.glob(db.name + ".damaged-*") if not p.name.endswith(("-wal", "-shm")))
    assert kept.read_bytes() == damaged  # set aside, never deleted or written
    assert w2.isVisible() and w2.pages.currentIndex() == 0 and w2.scan_button.isEnabled()
    scan(qtbot, w2)  # the app goes on: a new database, the same groups
    assert {"bsd.txt", "bsd-copy.txt"} in group_names(w2)


@pytest.mark.e2e
def test_office_documents_group_with_their_pdf_and_the_file_types_are_remembered(window, tmp_path, qtbot):
    """A .docx, the PDF and the web page LibreOffice exported from it: with every type ticked they are one
    group, shown as DOCX / PDF / HTML; with "Web pages and e-books" unticked the page is not scanned, and
    the choice survives a restart."""
    source = write_flat_odt(
        tmp_path / "src" / "terms.fodt",
        [" ".join(p.split()) for p in english_texts()["BSD"].split("\n\n") if p.strip()] + ["End of the terms."],
    )
    uploads = tmp_path / "uploads"
    made = {fmt: libreoffice_convert(source, fmt, uploads, tmp_path / "lo") for fmt in ("docx", "pdf", "html")}
    (uploads / "gpl.txt").write_text(english_texts()["GPL-2"])
    assert set().union(*TYPE_GROUPS.values()) == KINDS - {"image"}  # images: while OCR reads scans
    w = window(folders=[str(uploads)])
    scan(qtbot, w)
    assert {made[f].name for f in made} in group_names(w)
    model = w.groups.group_model
    parent = model.index(0, 0)
    types = {model.index(r, TYPE_COLUMN, parent).data() for r in range(model.rowCount(parent))}
    assert types == {"DOCX", "PDF", "HTML"}, types
    w.folders.type_boxes["web"].click()
    assert w.folders.kinds() == KINDS - TYPE_GROUPS["web"] - {"image"}
    scan(qtbot, w)
    assert {made["docx"].name, made["pdf"].name} in group_names(w)
    assert not any(made["html"].name in g for g in group_names(w))
    qtbot.waitUntil(lambda: not w.runner.busy, timeout=20_000)
    w.close()
    w2 = window()
    assert not w2.folders.type_boxes["web"].isChecked() and w2.folders.type_boxes["office"].isChecked()


@pytest.mark.e2e
def test_scans_are_read_with_ocr_when_ticked_and_the_pair_view_says_so(window, tmp_path, qtbot):
    text = english_texts()["BSD"]
    uploads = tmp_path / "uploads"
    uploads.mkdir()
    (uploads / "bsd.txt").write_text(text)
    write_image_pdf(uploads / "bsd-scan.pdf", scan_of(write_pdf(tmp_path / "bsd.pdf", text).read_bytes(), noise=4))
    w = window(folders=[str(uploads)])
    assert not w.folders.ocr.isChecked() and not w.folders.ocr_languages.isEnabled()  # slow: off until asked
    w.folders.ocr.click()
    w.folders.ocr_languages.setCurrentIndex(w.folders.ocr_languages.findData("eng"))
    assert "image" in w.folders.kinds() and w.folders.scan_options().ocr == "eng"
    shown: list[str] = []
    original = w.scan_status.show_progress

    def watch(event: ProgressEvent) -> None:
        original(event)
        if event.phase == "ocr":
            shown.append(w.scan_status.label.text())

    w.scan_status.show_progress = watch  # type: ignore[method-assign]
    scan(qtbot, w)
    assert any("Reading scans (OCR)" in text for text in shown)
    w.scan_status.show_progress(ProgressEvent("ocr", 3, 10))
    assert "pages/s" in w.scan_status.label.text()
    assert {"bsd.txt", "bsd-scan.pdf"} in group_names(w)
    select_member(qtbot, w, "bsd-scan.pdf")
    qtbot.waitUntil(lambda: w.groups.diff.model.rowCount() > 0, timeout=20_000)
    assert "Text from OCR (Tesseract, eng)" in w.groups.diff.title.text()
    qtbot.waitUntil(lambda: not w.runner.busy, timeout=20_000)
    w.close()
    w2 = window()
    assert w2.folders.ocr.isChecked() and w2.folders.ocr_choice() == "eng"


@pytest.mark.e2e
def test_another_database_opens_for_one_run_and_is_not_remembered(window, uploads, tmp_path, make_settings, qtbot):
    """`neardup-gui --db FILE` (a Spark result loaded by import-spark, say): the window shows that
    database's groups under the folders of its last scan, and afterwards the app still remembers its own
    database and folders."""
    from neardup_gui.core.models import ScanOptions
    from neardup_gui.core.scan import scan as scan_folders
    from neardup_gui.core.store.store import Store
    from neardup_gui.gui.app import split_arguments

    assert split_arguments(["--db", "x.db", "/a", "-reverse"]) == (["/a"], "x.db")
    assert split_arguments(["--db=y.db"]) == ([], "y.db")
    other = tmp_path / "other" / "result.db"
    other.parent.mkdir()
    with Store(other) as store:
        scan_folders(store, ScanOptions(roots=(str(uploads),), workers=1))
        store.set_meta("last_scan_roots", str(uploads))  # as Session.scan and import-spark record it
    remembered = make_settings()
    own_database = remembered.value("database")
    remembered.setValue("folders", [str(tmp_path)])
    remembered.sync()
    w = window(database=str(other))
    assert w.db_path == str(other)
    assert "result.db" in w.windowTitle()  # the title says which database is open
    assert w.folders.folders() == [str(uploads)]
    qtbot.waitUntil(lambda: w.result is not None and len(w.result.groups) >= 3, timeout=60_000)
    assert {"bsd.txt", "bsd-copy.txt"} in group_names(w)
    w._save_state()
    w.close()
    after = make_settings()
    assert after.value("database") == own_database
    assert [str(f) for f in (after.value("folders") or [])] == [str(tmp_path)]


@pytest.mark.e2e
def test_the_pairs_tab_lists_every_pair_and_acts_on_one_by_keyboard(window, tmp_path, qtbot):
    """A chain of drafts at 80 %: the Pairs tab (Ctrl+2) lists every pair of duplicates, as many as the
    caption under the histogram and the tab say, also those that share no group; selecting one shows it
    side by side; the filter and sorting work; Alt+Left keeps the left file and ticks the right one; Ctrl+D
    takes the pair out; Undo brings it back."""
    from PySide6.QtGui import QKeySequence
    from PySide6.QtTest import QTest

    from neardup_gui.gui.pairs_page import SIMILARITY, TOGETHER

    drafts = write_drafts(tmp_path / "drafts", 6)
    w = window(folders=[str(drafts)])
    w.thresholds.similarity_spin.setValue(80)
    scan(qtbot, w)
    qtbot.waitUntil(lambda: w.result.thresholds.jaccard == 0.8 and not w.runner.busy, timeout=20_000)
    count = len(w.view.duplicates)
    assert count >= 5
    assert w.thresholds.caption.text() == f"{count} pairs of duplicates at 80\u00a0% or more"
    assert w.tabs.tabText(w.tabs.indexOf(w.pairs)) == f"Pairs ({count})"
    ctrl2 = next(a for a in w.findChildren(type(w.action("undo"))) if a.shortcut() == QKeySequence("Ctrl+2"))
    ctrl2.trigger()
    assert w.tabs.currentWidget() is w.pairs
    model = w.pairs.model
    qtbot.waitUntil(lambda: model.rowCount() == count, timeout=20_000)
    assert w.pairs.count_label.text() == f"{count} pairs"
    # most alike first, and the other way round on a click of the header
    shares = [model.pair_at(r)[2].jaccard for r in range(count)]
    assert shares == sorted(shares, reverse=True) and min(shares) >= 0.8
    w.pairs.table.sortByColumn(SIMILARITY, Qt.SortOrder.AscendingOrder)
    assert [model.pair_at(r)[2].jaccard for r in range(count)] == sorted(shares)
    w.pairs.table.sortByColumn(TOGETHER, Qt.SortOrder.AscendingOrder)  # pairs no group lists together first
    listed_in = [model.data(model.index(r, TOGETHER)) for r in range(count)]
    assert [0 if t == "\u2014" else int(t.split(",")[0]) for t in listed_in] == sorted(
        0 if t == "\u2014" else int(t.split(",")[0]) for t in listed_in
    )
    w.pairs.table.sortByColumn(SIMILARITY, Qt.SortOrder.DescendingOrder)
    # every pair of duplicates once, also one that no group lists whole (each draft is grouped with others)
    shown = {frozenset((left.id, right.id)) for left, right, _ in (model.pair_at(r) for r in range(count))}
    a, b = w.view.duplicates.arrays()
    assert len(shown) == count and shown == {frozenset(p) for p in zip(a.tolist(), b.tolist(), strict=True)}
    matcher = w.session.matcher
    for pair in shown:
        x, y = (w.view.documents[d] for d in pair)
        assert matcher.similarity(x.content_id, y.content_id).jaccard >= 0.8
    w.pairs.filter_edit.setText("draft-05")
    assert 0 < model.rowCount() < count
    assert all(
        "draft-05" in (left.path + right.path) for left, right, _ in (model.pair_at(r) for r in range(model.rowCount()))
    )
    w.pairs.filter_edit.setText("")
    assert model.rowCount() == count

    w.pairs.table.setFocus()
    w.pairs.table.setCurrentIndex(model.index(0, 0))
    left, right, similarity = w.pairs.current_pair()
    qtbot.waitUntil(lambda: w.pairs.diff.model.rowCount() > 0, timeout=20_000)
    assert Path(left.path).name in w.pairs.diff.title.text() and Path(right.path).name in w.pairs.diff.title.text()
    QTest.keyClick(w.pairs.table, Qt.Key.Key_Left, Qt.KeyboardModifier.AltModifier)  # Keep left
    qtbot.waitUntil(lambda: right.id in w.review.marks, timeout=20_000)
    assert left.id not in w.review.marks and w.review.undoable.what == "keep"

    qtbot.waitUntil(lambda: not w.runner.busy and w.pairs.model.rowCount() == count, timeout=20_000)
    row = w.pairs.model.row_of(left.id, right.id)
    w.pairs.table.setCurrentIndex(w.pairs.model.index(row, 0))
    w.action("not_duplicate").trigger()  # Ctrl+D on the Pairs tab: this pair
    qtbot.waitUntil(
        lambda: len(w.view.duplicates) == count - 1 and w.pairs.model.rowCount() == count - 1, timeout=20_000
    )
    assert w.pairs.model.row_of(left.id, right.id) is None
    assert w.thresholds.caption.text() == f"{count - 1} pairs of duplicates at 80\u00a0% or more"
    assert w.pairs.current_pair() is not None, "the next pair is selected, review goes on"
    w.action("undo").trigger()
    qtbot.waitUntil(lambda: w.pairs.model.rowCount() == count, timeout=20_000)
