"""Review journeys (#12): decisions that take effect at once and stick, keepers that stay, nothing stale,
and the serial runner under interleaved use."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from neardup_gui.core.models import Method, Thresholds
from neardup_gui.core.review.words import percent, similarity_words
from neardup_gui.core.session import Session
from tests.conftest import plant_edits
from tests.gui.conftest import answer_dialog, group_names, press, scan, select_member, tick_reference

pytestmark = pytest.mark.e2e  # each test scans through the worker pool


def keeper_of(w, name: str) -> str:
    for s in w.groups.group_model.summaries:
        if any(Path(w.groups.group_model.docs[m.document_id].path).name == name for m in s.group.members):
            return Path(w.groups.group_model.docs[w.groups.group_model.keepers[s.group.id]].path).name
    raise AssertionError(f"{name} is in no group")


def test_not_a_duplicate_splits_the_group_at_once_and_the_pair_view_lets_go(window, uploads, qtbot):
    w = window(folders=[str(uploads)])
    scan(qtbot, w)
    select_member(qtbot, w, "mpl-edited.txt")
    qtbot.waitUntil(lambda: w.groups.diff.model.rowCount() > 0, timeout=20_000)
    assert w.groups.not_dup_button.isEnabled()
    w.mark_not_duplicate()
    qtbot.waitUntil(lambda: not any("mpl-edited.txt" in g for g in group_names(w)), timeout=10_000)
    assert w.groups.diff.model.rowCount() == 0 and not w.groups.not_dup_button.isEnabled()  # no pair left behind
    assert "no longer grouped" in w.statusBar().currentMessage()
    w.action("undo").trigger()  # Edit ▸ Undo: back in its group
    qtbot.waitUntil(lambda: any({"mpl.txt", "mpl-edited.txt"} <= g for g in group_names(w)), timeout=10_000)
    assert not w.action("undo").isEnabled()


def _current_row(w) -> tuple[str | None, set[str]]:
    """The selected member's file name (None for a group's row) and its group's names."""
    index = w.groups.tree.currentIndex()
    assert index.isValid(), "nothing is selected"
    doc = w.groups.group_model.document(index)
    members = w.groups.group_model.summary(index).group.members
    return (
        Path(doc.path).name if doc else None,
        {Path(w.groups.group_model.docs[m.document_id].path).name for m in members},
    )


def _listed_members(w, name: str) -> list[str]:
    """The names of the members of ``name``'s group, in the order the list shows them."""
    model = w.groups.group_model
    for row in range(model.rowCount()):
        group = model.index(row, 0)
        names = [Path(model.document(model.index(r, 0, group)).path).name for r in range(model.rowCount(group))]
        if name in names:
            return names
    raise AssertionError(f"{name} is in no group")


def test_review_goes_on_where_a_decision_left_it(window, uploads, qtbot):
    """Not a duplicate takes the selected member out of its group: the selection moves to its group's
    next member (whose pair is shown), or, when the group is gone, to the group now in its place; a
    group's row stays selected when the thresholds move."""
    (uploads / "bsd-third.txt").write_text(plant_edits((uploads / "bsd.txt").read_text(), 0.01, seed=3))
    w = window(folders=[str(uploads)])
    scan(qtbot, w)
    members = _listed_members(w, "bsd-copy.txt")
    assert len(members) == 3, members
    leaving = members[1]
    select_member(qtbot, w, leaving)
    w.mark_not_duplicate()
    qtbot.waitUntil(lambda: not any(leaving in g for g in group_names(w)), timeout=10_000)
    assert _current_row(w)[0] == members[2]  # the next member, not nothing
    assert w.groups.detail.currentWidget() is w.groups.diff
    qtbot.waitUntil(lambda: w.groups.diff.model.rowCount() > 0, timeout=20_000)
    assert w.groups.not_dup_button.isEnabled()

    groups_before = w.groups.group_model.rowCount()
    pair = _listed_members(w, "mpl.txt")
    assert len(pair) == 2
    select_member(qtbot, w, pair[1])
    row = w.groups.tree.currentIndex().parent().row()
    w.mark_not_duplicate()  # the group of two is gone
    qtbot.waitUntil(lambda: w.groups.group_model.rowCount() == groups_before - 1, timeout=10_000)
    name, group = _current_row(w)
    assert name is None and w.groups.tree.currentIndex().row() == min(row, groups_before - 2)
    assert "mpl.txt" not in group and w.groups.detail.currentWidget() is w.groups.group_view

    for value in (0.75, 0.8):  # the group's row, selected, stays selected
        w.thresholds.similarity_slider.setValue(int(value * 100))
        qtbot.waitUntil(lambda v=value: abs(w.result.thresholds.jaccard - v) < 1e-9, timeout=10_000)
    assert _current_row(w) == (None, group)
    # a group's row clicked in another column than the first is remembered by its members too, not by
    # its place in the list alone (which another group may take)
    w.groups.tree.setCurrentIndex(w.groups.tree.currentIndex().siblingAtColumn(2))
    anchor = w.groups.selection_anchor()
    assert anchor is not None and anchor.group_row
    assert {Path(w.groups.group_model.docs[d].path).name for d in anchor.documents} == group


@pytest.mark.e2e
def test_a_filter_shows_its_groups_from_the_top(window, tmp_path, qtbot):
    """Scrolled down a long list, then a filter typed: the groups it shows are shown from the first."""
    from tests.conftest import english_texts

    root = tmp_path / "many"
    root.mkdir()
    words = english_texts()["MPL-2.0"].split()
    for n in range(80):
        body = " ".join(random.Random(n).sample(words, 300))  # 80 texts unlike each other, each with a copy
        (root / f"doc-{n:02}.txt").write_text(body)
        (root / f"doc-{n:02}-copy.txt").write_text(body)
    w = window(folders=[str(root)])
    scan(qtbot, w)
    tree = w.groups.tree
    assert w.groups.group_model.rowCount() >= 60
    tree.verticalScrollBar().setValue(tree.verticalScrollBar().maximum())
    assert tree.verticalScrollBar().value() > 0
    w.groups.filter_edit.setText("doc-")
    assert tree.verticalScrollBar().value() == 0


def test_a_filter_that_hides_the_pair_clears_the_pair_view(window, uploads, qtbot):
    w = window(folders=[str(uploads)])
    scan(qtbot, w)
    select_member(qtbot, w, "bsd-copy.txt")
    qtbot.waitUntil(lambda: w.groups.diff.model.rowCount() > 0, timeout=20_000)
    w.groups.filter_edit.setText("mpl")
    assert w.groups.diff.model.rowCount() == 0 and not w.groups.not_dup_button.isEnabled()


def test_keep_this_one_survives_a_restart_and_threshold_moves(window, uploads, qtbot):
    w = window(folders=[str(uploads)])
    scan(qtbot, w)
    select_member(qtbot, w, "bsd-copy.txt")
    w.keep_selected()
    qtbot.waitUntil(lambda: keeper_of(w, "bsd.txt") == "bsd-copy.txt", timeout=10_000)
    for value in (0.95, 0.8):
        w.thresholds.similarity_slider.setValue(int(value * 100))
        qtbot.waitUntil(lambda v=value: abs(w.result.thresholds.jaccard - v) < 1e-9, timeout=10_000)
    assert keeper_of(w, "bsd.txt") == "bsd-copy.txt"
    w.close()
    w2 = window()
    qtbot.waitUntil(lambda: w2.result is not None, timeout=20_000)
    assert keeper_of(w2, "bsd.txt") == "bsd-copy.txt"


def test_interleaved_regroups_histograms_and_decisions_end_where_a_fresh_session_does(window, uploads, qtbot):
    """Everything the window asks of the collection goes through one serial runner: fired at it from the
    GUI thread without waiting, the last grouping equals a new session's at the same settings."""
    w = window(folders=[str(uploads)])
    scan(qtbot, w)
    slider = w.thresholds.similarity_slider
    for round_ in range(12):
        slider.setValue(60 + (round_ * 7) % 35)
        w.thresholds.method.setCurrentIndex(w.thresholds.method.findData(Method.MINHASH if round_ % 3 else Method.BOTH))
        w._compute_histogram()
        if round_ == 5:
            select_member(qtbot, w, "中文修改稿.txt")
            w.mark_not_duplicate()
        qtbot.wait(20)
    slider.setValue(80)
    w.thresholds.method.setCurrentIndex(w.thresholds.method.findData(Method.MINHASH))
    wanted = w.thresholds.thresholds()
    qtbot.waitUntil(
        lambda: not w.session_jobs.busy and not w.regrouping.running and w.result.thresholds == wanted, timeout=60_000
    )
    with Session(w.db_path) as fresh:
        view = fresh.open([str(uploads)], wanted)
    assert view is not None
    fresh_groups = sorted(
        sorted(Path(view.documents[m.document_id].path).name for m in g.members) for g in view.result.groups
    )
    shown = sorted(sorted(names) for names in group_names(w))
    assert shown == fresh_groups
    assert not any("中文修改稿.txt" in g for g in group_names(w))
    assert isinstance(wanted, Thresholds)


def test_the_sessions_trash_regroups_what_is_left(tmp_path, xdg_home):
    """Here, where the tests' own trash is set up before send2trash is imported."""
    import send2trash.plat_other as trash_impl

    from neardup_gui.core.models import ScanOptions
    from tests.conftest import english_texts

    assert Path(trash_impl.HOMETRASH).is_relative_to(xdg_home), "the test must use its own trash"
    root = tmp_path / "docs"
    root.mkdir()
    for name in ("a.txt", "b.txt", "c.txt"):
        (root / name).write_text(english_texts()["BSD"])
    with Session(tmp_path / "db.sqlite") as session:
        view = session.scan(ScanOptions(roots=(str(root),), workers=1), Thresholds())
        docs = {Path(d.path).name: d for d in view.result.documents}
        outcome, after = session.trash([docs["b.txt"]], keeper=docs["a.txt"])
        assert [Path(p).name for p in outcome.done] == ["b.txt"] and not (root / "b.txt").exists()
        assert after is not None
        assert [{Path(after.documents[m.document_id].path).name for m in g.members} for g in after.result.groups] == [
            {"a.txt", "c.txt"}
        ]


def test_mark_all_but_the_keepers_on_a_hundred_groups_then_one_confirmation(window, tmp_path, qtbot, xdg_home):
    """dupeGuru users' first wish: a hundred groups cleared with one rule and one confirmation, every keeper
    left in place, the reference folder untouched."""
    from PySide6.QtWidgets import QMessageBox

    root = tmp_path / "many"
    root.mkdir()
    reference = tmp_path / "reference"
    reference.mkdir()
    words = ["amber", "quartz", "lantern", "meadow", "copper", "harbor", "velvet", "orbit", "cinder", "willow"]
    for n in range(100):
        text = " ".join(f"{words[(n * 7 + i * 3) % 10]}{(n * 31 + i) % 97}" for i in range(60)) + f" note {n}"
        (root / f"note-{n:03d}.txt").write_text(text)
        (root / f"note-{n:03d} (copy).txt").write_text(text)
    (reference / "note-000-approved.txt").write_text((root / "note-000.txt").read_text())
    w = window(folders=[str(root), str(reference)])
    tick_reference(w, str(reference))
    scan(qtbot, w)
    assert len(w.result.groups) == 100
    w.action("mark_rule").trigger()
    assert len(w.groups.group_model.marked) == 101  # one copy per group, and both uploads of note-000
    assert "101 marked" in w.groups.marked_label.text()
    assert not any(w.groups.group_model.docs[d].path.startswith(str(reference)) for d in w.groups.group_model.marked)
    keepers = {w.groups.group_model.docs[k].path for k in w.groups.group_model.keepers.values()}
    seen = answer_dialog(qtbot, QMessageBox, press("Move to Trash"))
    w.action("trash_marked").trigger()
    assert len(seen) == 1 and "101 marked files from 100 groups" in seen[0]
    qtbot.waitUntil(lambda: w.result is not None and not w.result.groups, timeout=60_000)
    assert all(Path(p).exists() for p in keepers)
    left = sorted(p.name for p in root.iterdir())
    assert len(left) == 99 and (reference / "note-000-approved.txt").exists()
    assert not w.groups.group_model.marked and w.groups.marked_label.text() == ""


def test_move_marked_into_a_folder_then_undo_puts_every_file_back(window, uploads, tmp_path, qtbot):
    from PySide6.QtWidgets import QMessageBox

    w = window(folders=[str(uploads)])
    scan(qtbot, w)
    before = sorted(p.name for p in uploads.iterdir())
    w.action("mark_rule").trigger()
    marked = {Path(w.groups.group_model.docs[d].path).name for d in w.groups.group_model.marked}
    assert len(marked) == 3 and w.groups.move_marked_button.isEnabled()
    destination = tmp_path / "set aside"
    (destination / "mine").mkdir(parents=True)  # the person's folder, empty: not ours to remove
    seen = answer_dialog(qtbot, QMessageBox, press("Move"))
    w.files.move_marked(str(destination))
    assert len(seen) == 1 and "Move 3 marked files from 3 groups" in seen[0] and "Edit ▸ Undo" in seen[0]
    assert str(destination / "uploads") in seen[0]  # where a file goes, shown with its real name
    qtbot.waitUntil(lambda: w.result is not None and not w.result.groups, timeout=20_000)
    assert sorted(p.name for p in (destination / "uploads").iterdir()) == sorted(marked)
    assert "Moved 3 files into" in w.statusBar().currentMessage()
    assert "No duplicates among the 4 documents" in w.groups.diff.title.text()  # says why the list is empty
    assert w.action("undo").isEnabled() and w.action("undo").text() == "&Undo Move"
    w.action("undo").trigger()
    qtbot.waitUntil(lambda: len(w.result.groups) == 3, timeout=20_000)
    assert sorted(p.name for p in uploads.iterdir()) == before
    assert [p.name for p in destination.iterdir()] == ["mine"], "the folders the move made go with it"
    assert "back where they were" in w.statusBar().currentMessage() and not w.action("undo").isEnabled()


def test_a_folder_inside_the_scanned_ones_is_refused_before_anything_moves(window, uploads, qtbot):
    from PySide6.QtWidgets import QMessageBox

    w = window(folders=[str(uploads)])
    scan(qtbot, w)
    w.action("mark_rule").trigger()
    seen = answer_dialog(qtbot, QMessageBox, press("OK"))
    w.files.move_marked(str(uploads / "inside"))
    assert len(seen) == 1 and "inside a scanned folder" in seen[0]
    assert len(w.result.groups) == 3 and not (uploads / "inside").exists()


def test_mark_by_rule_ticks_what_the_rule_names_and_never_a_keeper(window, uploads, qtbot):
    from neardup_gui.gui.mark_dialog import MarkRuleDialog

    w = window(folders=[str(uploads)])
    scan(qtbot, w)

    def mark_txt_copies(dialog: MarkRuleDialog) -> str:
        dialog.pattern.setText("*.txt")
        dialog.mark_button.click()
        text = dialog.result_label.text()
        dialog.accept()
        return text

    seen = answer_dialog(qtbot, MarkRuleDialog, mark_txt_copies)
    w.action("mark_by_rule").trigger()
    assert len(seen) == 1 and "Ticked 3 files" in seen[0] and "3 keepers" in seen[0]
    assert len(w.groups.group_model.marked) == 3
    assert not set(w.groups.group_model.marked) & set(w.groups.group_model.keepers.values())
    assert w.groups.marked_label.text().startswith("3 marked")


def test_a_group_row_shows_the_whole_group_against_its_keeper(window, uploads, qtbot):
    w = window(folders=[str(uploads)])
    scan(qtbot, w)
    groups = w.groups.group_model
    row = next(r for r in range(groups.rowCount()) if "mpl" in groups.summary(groups.index(r, 0)).representative.path)
    w.groups.tree.setCurrentIndex(groups.index(row, 0))
    assert w.groups.detail.currentWidget() is w.groups.group_view
    model = w.groups.group_view.model
    assert model.rowCount() == 2 and len(model.sims) == 2 and model.index(0, 2).data() == "keep"
    keeper = w.groups.group_model.docs[w.groups.group_model.keepers[model.group.id]]
    assert model.rows[0] == keeper
    edited = model.sims[model.rows[1].id]
    assert 0.5 < edited.jaccard < 1.0 and model.index(1, 2).data() == similarity_words(edited)
    # a member picked in the table is the one Keep this one and Not a duplicate act on
    assert not w.action("keep").isEnabled() and not w.groups.keep_button.isEnabled()
    w.groups.group_view.table.selectRow(1)
    assert w.groups.current()[1] == model.rows[1]
    assert w.action("keep").isEnabled() and w.action("not_duplicate").isEnabled()
    # activating the member shows the pair against the keeper, with the same number
    w.groups.group_view.table.activated.emit(model.index(1, 0))
    assert w.groups.detail.currentWidget() is w.groups.diff
    qtbot.waitUntil(lambda: w.groups.diff.model.rowCount() > 0, timeout=20_000)
    assert f"<b>{percent(edited.jaccard)}</b>" in w.groups.diff.numbers.text()
    assert f"Jaccard {edited.jaccard:.3f}" in w.groups.diff.numbers.text()
    assert w.groups.diff.title.text().startswith(keeper.display_path)


def test_the_decisions_window_takes_a_decision_back_and_the_group_returns(window, uploads, qtbot):
    from neardup_gui.gui.decisions_dialog import DecisionsDialog

    w = window(folders=[str(uploads)])
    scan(qtbot, w)
    select_member(qtbot, w, "mpl-edited.txt")
    w.mark_not_duplicate()
    qtbot.waitUntil(lambda: not any("mpl-edited.txt" in g for g in group_names(w)), timeout=10_000)

    def take_back(dialog: DecisionsDialog) -> int:
        qtbot.waitUntil(lambda: dialog.tree.topLevelItemCount() == 1, timeout=10_000)
        listed = dialog.tree.topLevelItem(0).text(1) + " | " + dialog.tree.topLevelItem(0).text(2)
        dialog.tree.topLevelItem(0).setSelected(True)
        dialog.take_back.click()
        qtbot.waitUntil(lambda: dialog.tree.topLevelItemCount() == 0, timeout=10_000)
        dialog.accept()
        return listed

    seen = answer_dialog(qtbot, DecisionsDialog, take_back)
    w.action("decisions").trigger()
    assert len(seen) == 1 and "mpl" in seen[0]
    qtbot.waitUntil(lambda: any({"mpl.txt", "mpl-edited.txt"} <= g for g in group_names(w)), timeout=10_000)


def test_the_keeper_rule_is_chosen_in_the_window_and_remembered(window, uploads, qtbot):
    import os

    from neardup_gui.core.review.rules import KeeperRule

    os.utime(uploads / "bsd-copy.txt", (2_000_000_000, 2_000_000_000))  # the newest by far
    os.utime(uploads / "bsd.txt", (1_000_000_000, 1_000_000_000))
    w = window(folders=[str(uploads)])
    scan(qtbot, w)
    assert keeper_of(w, "bsd.txt") == "bsd.txt"
    w.groups.keeper_rule.setCurrentIndex(w.groups.keeper_rule.findData(KeeperRule.NEWEST))
    qtbot.waitUntil(lambda: keeper_of(w, "bsd.txt") == "bsd-copy.txt", timeout=10_000)
    w.close()
    w2 = window()
    qtbot.waitUntil(lambda: w2.result is not None, timeout=20_000)
    assert w2.groups.keeper_rule.currentData() is KeeperRule.NEWEST and keeper_of(w2, "bsd.txt") == "bsd-copy.txt"


def test_a_reference_folder_holds_the_keeper_in_the_window(window, uploads, tmp_path, qtbot):
    import shutil

    originals = tmp_path / "originals"
    originals.mkdir()
    shutil.copy(uploads / "mpl-edited.txt", originals / "mpl-approved.txt")
    w = window(folders=[str(uploads), str(originals)])
    scan(qtbot, w)
    assert keeper_of(w, "mpl-approved.txt") != "mpl-approved.txt"
    tick_reference(w, str(originals))  # ticked after the scan: the keeper follows at once
    qtbot.waitUntil(lambda: keeper_of(w, "mpl-approved.txt") == "mpl-approved.txt", timeout=10_000)
    w.action("mark_rule").trigger()
    assert not any(w.groups.group_model.docs[d].path.startswith(str(originals)) for d in w.groups.group_model.marked)


def test_the_keeper_stays_the_first_row_of_its_group_whichever_way_the_list_is_sorted(window, uploads, qtbot):
    from PySide6.QtCore import Qt

    w = window(folders=[str(uploads)])
    scan(qtbot, w)
    model = w.groups.group_model
    for column in (0, 2, 5):
        for order in (Qt.SortOrder.AscendingOrder, Qt.SortOrder.DescendingOrder):
            w.groups.tree.sortByColumn(column, order)
            for row in range(model.rowCount()):
                parent = model.index(row, 0)
                first = model.document(model.index(0, 0, parent))
                group = model.summary(parent).group
                assert first.id == model.keepers[group.id], (column, order)


def test_many_rows_selected_are_marked_at_once(window, uploads, qtbot):
    """Shift/Ctrl+click selects many rows; Mark Selected ticks them (a group's row: all it may move)."""
    from PySide6.QtCore import QItemSelectionModel

    w = window(folders=[str(uploads)])
    scan(qtbot, w)
    model, selection = w.groups.group_model, w.groups.tree.selectionModel()
    flags = QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
    selection.clearSelection()
    for row in range(model.rowCount()):  # every group row
        selection.select(model.index(row, 0), flags)
    assert w.action("mark_selected").isEnabled()
    w.action("mark_selected").trigger()
    keepers = set(w.groups.group_model.keepers.values())
    every_other = {m.document_id for s in w.groups.group_model.summaries for m in s.group.members} - keepers
    assert set(w.groups.group_model.marked) == every_other and len(every_other) == 3
    selection.clearSelection()
    group = model.index(0, 0)
    selection.select(model.index(1, 0, group), flags)  # one member
    member = model.document(model.index(1, 0, group))
    w.action("unmark_selected").trigger()
    assert set(w.groups.group_model.marked) == every_other - {member.id}


def test_each_group_is_named_by_what_it_is_about_and_found_by_those_words(window, uploads, qtbot):
    w = window(folders=[str(uploads)])
    scan(qtbot, w)
    model = w.groups.group_model
    titles = {}
    for row in range(model.rowCount()):
        names = {Path(model.docs[m.document_id].path).name for m in model.summary(model.index(row, 0)).group.members}
        titles[frozenset(names)] = model.index(row, 0).data()
    zh_title = next(t for names, t in titles.items() if "中文原稿.txt" in names)
    assert "烟花爆竹" in zh_title and "中文" not in zh_title  # its words, not a file's name
    mpl_title = next(t for names, t in titles.items() if "mpl.txt" in names)
    mpl_words = w.view.topics[next(s.group.id for s in model.summaries if s.representative.path.endswith("mpl.txt"))]
    assert ", ".join(mpl_words) in mpl_title and "mpl.txt" not in mpl_title
    assert "About: " in model.index(0, 0).data(Qt.ItemDataRole.ToolTipRole)
    # the names get the room: the last column, stretched to the edge, is left no more than it needs
    tree = w.groups.tree
    last = max(c for c in range(model.columnCount()) if not tree.isColumnHidden(c))
    assert tree.columnWidth(last) < 150 and tree.columnWidth(0) > 400

    w.groups.filter_edit.setText("烟花")  # a topic's word, in no file's name
    assert model.rowCount() == 1
    w.groups.tree.setCurrentIndex(model.index(0, 0))  # the group's own row: every member against the keeper
    qtbot.waitUntil(lambda: "烟花爆竹" in w.groups.group_view.title.text(), timeout=10_000)
    w.groups.filter_edit.setText("no group is about this")  # the group hidden: the view below lets it go
    assert w.groups.group_view.title.text() == "" and w.groups.detail.currentWidget() is w.groups.diff


def test_two_files_of_one_name_are_told_apart_by_their_folders_in_the_pairs_tab(window, tmp_path, qtbot):
    from neardup_gui.gui.pairs_page import LEFT, RIGHT

    text = "\n".join(f"Clause {n}: the tenant pays the rent on the first day of each month." for n in range(40))
    for folder in ("Legal", "Downloads"):
        (tmp_path / "docs" / folder).mkdir(parents=True)
        (tmp_path / "docs" / folder / "lease.txt").write_text(text)
    (tmp_path / "docs" / "Legal" / "lease-draft.txt").write_text(text + "\nA clause added.")
    w = window(folders=[str(tmp_path / "docs")])
    scan(qtbot, w)
    w.tabs.setCurrentWidget(w.pairs)
    model = w.pairs.model
    qtbot.waitUntil(lambda: model.rowCount() == 3, timeout=20_000)
    rows = {(model.index(r, LEFT).data(), model.index(r, RIGHT).data()) for r in range(3)}
    same = next(pair for pair in rows if "lease.txt" in pair[0] and "lease.txt" in pair[1])
    assert sorted(same) == ["lease.txt — in Downloads", "lease.txt — in Legal"]
    assert any("lease-draft.txt" in pair for pair in rows)  # names that differ are shown as they are
    for r in range(3):  # the first of each pair by path on the left
        left, right, _similarity = model.pair_at(r)
        assert left.path < right.path


def test_a_grouping_shown_names_only_the_groups_the_tree_shows(window, tmp_path, qtbot, monkeypatch):
    """Groups are named when asked: showing a grouping of many groups names those in sight, not all."""
    from neardup_gui.core.review.topics import Topics

    root = tmp_path / "docs"
    root.mkdir()
    for n in range(60):  # sixty pairs of near copies, each pair its own group
        text = "\n".join(f"Record {n} line {k}: {' '.join(f'w{n}x{k}y{j}' for j in range(8))}" for k in range(30))
        (root / f"a{n:02d}.txt").write_text(text)
        (root / f"b{n:02d}.txt").write_text(text + "\nOne more line.")
    w = window(folders=[str(root)])
    named: list[tuple[int, ...]] = []
    topic = Topics.topic
    monkeypatch.setattr(Topics, "topic", lambda self, contents: named.append(contents) or topic(self, contents))
    scan(qtbot, w)
    qtbot.waitUntil(lambda: len(w.groups.group_model.summaries) == 60, timeout=20_000)
    qtbot.wait(100)  # the tree painted
    assert 0 < len(set(named)) < 60
    w.groups.filter_edit.setText("record")  # a filter looks in every group's keywords, and names none of them
    qtbot.wait(100)  # the tree painted again
    assert w.groups.group_model.rowCount() == 60 and len(set(named)) < 60
