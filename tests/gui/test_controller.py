"""The review controller without a window (no QApplication): the same session and files as the app,
its calls run in place of the serial runner."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest

from neardup_gui.core.jobs import NEVER_CANCELLED, no_progress
from neardup_gui.core.models import ScanOptions, Thresholds
from neardup_gui.core.review.rules import FileOutcome, MarkCriteria
from neardup_gui.core.review.words import similarity_words
from neardup_gui.core.session import Session
from neardup_gui.gui.controller import Report, ReviewController, rescan_reasons
from tests.conftest import english_texts
from tests.core.test_moves import locked
from tests.core.test_session import family

pytestmark = pytest.mark.e2e  # each test scans through the worker pool


class Recorder:
    """Runs each call at once, like the serial runner would later; keeps what the events said."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.events: list[tuple] = []

    def run(self, fn, *args, returned=None, title: str = ""):
        self.calls.append(getattr(fn, "__name__", "work"))
        result = fn(*args, progress=no_progress, cancel=NEVER_CANCELLED)
        if returned is not None:
            returned(result)


def open_review(tmp_path: Path, root: Path, **thresholds) -> tuple[ReviewController, Recorder]:
    session = Session(tmp_path / "db.sqlite")
    recorder = Recorder()
    review = ReviewController(session, recorder.run)
    for name in ("view_changed", "pair_changed", "message", "undo_changed", "acted"):
        getattr(review, name).connect(lambda *args, name=name: recorder.events.append((name, *args)))
    review.show(session.scan(ScanOptions(roots=(str(root),), workers=1), Thresholds(**thresholds)))
    return review, recorder


def by_name(review: ReviewController, name: str):
    return next(d for d in review.docs.values() if Path(d.path).name == name)


def test_groups_are_measured_from_their_keepers_and_a_member_is_compared_with_the_keeper(tmp_path):
    """The keeper (an original) is not the representative the grouping picked (the longest text, the
    edited copy): the session rebases each group on its keeper, so every number is against it."""
    review, recorder = open_review(tmp_path, family(tmp_path / "docs"), jaccard=0.6)
    matcher = review.session.matcher
    for group in review.view.result.groups:
        keeper = review.keeper(group)
        assert group.representative == keeper.id and group.members[0].document_id == keeper.id
        for m in group.members:
            doc = review.docs[m.document_id]
            assert m.similarity == matcher.similarity(doc.content_id, keeper.content_id)  # member inside keeper: ab
    edited = by_name(review, "edited_v2.txt")
    group = review.group_of(edited.id)
    assert group is not None and Path(review.keeper(group).path).name.startswith("original-")
    review.select(group, edited)
    pair = review.pair
    assert pair is not None and pair.left == review.keeper(group) and pair.right == edited
    assert pair.similarity.jaccard < 1.0 and recorder.events[-1] == ("pair_changed", pair)
    # the keeper's own row shows it against another member, never against itself
    review.select(group, review.keeper(group))
    assert review.pair.left.id != review.pair.right.id


def test_not_a_duplicate_takes_effect_the_pair_lets_go_and_undo_brings_it_back(tmp_path):
    review, recorder = open_review(tmp_path, family(tmp_path / "docs"), jaccard=0.6)
    printout = by_name(review, "printout.pdf")
    group = review.group_of(printout.id)
    review.select(group, printout)
    review.mark_not_duplicate(printout)
    assert review.group_of(printout.id) is None and review.pair is None
    assert review.undoable is not None and review.undoable.what == "not a duplicate"
    assert any(e[0] == "message" and "no longer grouped" in e[1] for e in recorder.events)
    review.undo()
    assert review.group_of(printout.id) is not None and review.undoable is None


def test_marks_follow_the_groups_and_rules_never_mark_a_keeper(tmp_path):
    review, _ = open_review(tmp_path, family(tmp_path / "docs"), jaccard=0.6)
    review.mark_all_but_keepers()
    group = review.view.result.groups[0]
    keeper = review.keeper(group)
    assert len(review.marks) == len(group.members) - 1 and keeper.id not in review.marks
    review.marks.set(())
    selection = review.mark_matching(MarkCriteria(pattern="original"))
    assert selection.keepers_left == 1 and len(selection.documents) == 6
    assert review.marked_summary().startswith("6 marked")
    review.mark_matching(MarkCriteria(pattern="*-3.txt"), mark=False)
    assert len(review.marks) == 5
    printout = by_name(review, "printout.pdf")
    review.marks.update([printout.id], True)
    review.mark_not_duplicate(printout)  # it leaves the groups: its mark goes with it
    assert printout.id not in review.marks and len(review.marks) == 5
    assert review.marked_paths().count("\n") == 5


def test_a_longer_version_is_never_ticked_for_the_keeper_it_holds_until_it_is_kept_itself(tmp_path):
    """A licence and the same licence with an appendix (Jaccard 0.87): the older, shorter one is kept, and the
    longer one holds it whole. Removing the longer one would lose the appendix: Mark all but the keepers and the
    group's trash leave it. Kept instead, it makes the shorter one a copy inside it, which is then ticked."""
    root = tmp_path / "docs"
    root.mkdir()
    text = english_texts()["Apache-2.0"]
    short = root / "licence.txt"
    short.write_text(text)
    os.utime(short, (1_600_000_000, 1_600_000_000))
    (root / "licence with appendix.txt").write_text(text + "\n\nAppendix\n\n" + english_texts()["BSD"])
    review, _ = open_review(tmp_path, root, jaccard=0.8)
    longer = by_name(review, "licence with appendix.txt")
    group = review.group_of(longer.id)
    assert group is not None and review.keeper(group).path == str(short)
    member = next(m for m in group.members if m.document_id == longer.id)
    assert 0.8 <= member.similarity.jaccard < 0.9
    assert similarity_words(member.similarity).endswith("holds the keeper")
    review.mark_all_but_keepers()
    assert not review.marks.ids
    plan = review.group_trash_plan(group)
    assert plan.documents == () and plan.fuller == (longer,)
    assert review.mark_matching(MarkCriteria()).fuller_left == 1 and not review.marks.ids
    review.keep(longer)
    group = review.group_of(longer.id)
    assert group is not None and review.keeper(group) == longer
    review.mark_all_but_keepers()
    assert review.marks.ids == {by_name(review, "licence.txt").id}
    assert [d.id for d in review.group_trash_plan(group).documents] == [by_name(review, "licence.txt").id]


def test_a_groups_row_marks_what_the_trash_would_take_and_a_members_row_that_file(tmp_path):
    review, _ = open_review(tmp_path, family(tmp_path / "docs"), jaccard=0.6)
    group = review.view.result.groups[0]
    keeper = review.keeper(group)
    review.mark_rows([], [group], True)
    assert review.marks.ids == {m.document_id for m in group.members} - {keeper.id}
    review.mark_rows([keeper], [], True)  # a member's row: that file, even the keeper, as a tick by hand
    assert keeper.id in review.marks
    review.mark_rows([keeper], [group], False)
    assert not review.marks.ids


def test_moving_marked_files_reports_in_words_and_one_undo_puts_them_back(tmp_path):
    root = family(tmp_path / "docs")
    review, recorder = open_review(tmp_path, root, jaccard=0.6)
    review.mark_all_but_keepers()
    plan = review.marked_plan()
    assert plan.files == 8
    assert "inside a scanned folder" in review.move_problem(str(root / "sub"))
    destination = tmp_path / "aside"
    review.move(plan.batches, str(destination))
    report = [e[1] for e in recorder.events if e[0] == "acted"][-1]
    assert isinstance(report, Report) and report.headline.startswith("Moved 8 files into") and not report.problems
    assert review.view.result.groups == () and len(review.marks) == 0
    assert len(list((destination / "docs").iterdir())) == 8
    assert review.undoable is not None and review.undoable.what == "move"
    review.undo()
    report = [e[1] for e in recorder.events if e[0] == "acted"][-1]
    assert report.headline == "Put 8 files back where they were."
    assert len(list(root.iterdir())) == 9 and not destination.exists(), "the folders the move made go too"
    assert len(review.view.result.groups) == 1


def test_a_move_says_how_many_files_moved_and_which_did_not_and_why(tmp_path):
    """The outcome in words: the count moved, then each file that did not move with its reason; a move that
    moved nothing says so (not "Moved 0 files")."""
    partly = FileOutcome(
        ("/u/a.txt", "/u/b.txt"), (), (("/u/c.txt", "the drive is full"),), moved_to=("/x/u/a.txt", "/x/u/b.txt")
    )
    report = ReviewController.describe(partly, "/x")
    assert report.headline.startswith("Moved 2 files into /x.") and not report.nothing_done
    assert report.problems == "1 file could not be moved; each is still where it was:\n/u/c.txt: the drive is full"

    root = family(tmp_path / "docs")
    review, recorder = open_review(tmp_path, root, jaccard=0.6)
    review.mark_all_but_keepers()
    with locked(root):  # not one file can leave its folder
        review.move(review.marked_plan().batches, str(tmp_path / "aside"))
    report = [e[1] for e in recorder.events if e[0] == "acted"][-1]
    assert report.nothing_done and report.headline == f"No file was moved into {tmp_path / 'aside'}."
    assert report.problems.startswith("8 files could not be moved; each is still where it was:\n")
    assert report.problems.count(": it could not be ") == 8 and "[Errno" not in report.problems
    assert len(list(root.iterdir())) == 9 and not (tmp_path / "aside").exists()
    assert review.undoable is None or review.undoable.what != "move"


def test_decisions_are_listed_and_taken_back_together(tmp_path):
    review, _ = open_review(tmp_path, family(tmp_path / "docs"), jaccard=0.6)
    for name in ("printout.pdf", "edited_v2.txt"):
        review.mark_not_duplicate(by_name(review, name))
    listed: list = []
    review.decisions(listed.extend)
    assert len(listed) == 2  # one a "not a duplicate", whatever the number of texts it ruled on
    edit, printout = listed  # newest first
    sides = sorted([sorted(Path(p).name for p in edit.paths_a), sorted(Path(p).name for p in edit.paths_b)])
    assert sides == [["edited_v2.txt"], [f"original-{n}.txt" for n in range(7)]]  # one pair: either way round
    assert [Path(p).name for p in printout.paths_a] == ["printout.pdf"] and len(printout.pairs) == 2
    assert len(printout.paths_b) == 8
    review.withdraw(listed)
    assert len(review.group_of(by_name(review, "printout.pdf").id).members) == 9
    after: list = []
    review.decisions(after.extend)
    assert after == []


def test_setting_apart_an_identical_copy_says_so_and_keeps_the_undo(tmp_path):
    """Copies of one text stay together: setting one apart rules on the others that differ only, and
    among copies alone rules on nothing, says so, and leaves the last decision's Undo in place."""
    review, recorder = open_review(tmp_path, family(tmp_path / "docs"), jaccard=0.6)
    review.mark_not_duplicate(by_name(review, "original-0.txt"))
    message = [e[1] for e in recorder.events if e[0] == "message"][-1]
    assert "identical copies stay with it" in message and review.undoable is not None
    assert len(review.group_of(by_name(review, "original-0.txt").id).members) == 7
    last = review.undoable
    review.mark_not_duplicate(by_name(review, "original-3.txt"))
    message = [e[1] for e in recorder.events if e[0] == "message"][-1]
    assert "same text as the rest of its group" in message
    assert review.undoable is last, "the earlier decision can still be taken back"
    review.undo()
    assert len(review.group_of(by_name(review, "printout.pdf").id).members) == 9


def test_keep_this_one_is_undone_listed_in_the_decisions_and_taken_back_there(tmp_path):
    """Keep this one: Undo puts the rule's keeper back; kept again, the decision is listed (newest first,
    after a restart too) and taking it back there lets the rule choose again."""
    root = family(tmp_path / "docs")
    review, recorder = open_review(tmp_path, root, jaccard=0.6)
    printout = by_name(review, "printout.pdf")
    group = review.group_of(printout.id)
    by_rule = review.keeper(group)
    assert by_rule.id != printout.id
    review.keep(printout)
    assert review.keeper(review.group_of(printout.id)).id == printout.id
    assert review.undoable is not None and review.undoable.what == "keep"
    assert any(e[0] == "message" and "Edit ▸ Undo" in e[1] for e in recorder.events)
    review.undo()
    assert review.keeper(review.group_of(printout.id)).id == by_rule.id and review.undoable is None
    assert not review.session.store.kept.paths()

    review.keep(printout)
    review.session.close()
    restarted = Session(tmp_path / "db.sqlite")
    again = ReviewController(restarted, recorder.run)
    again.show(restarted.open((str(root),), Thresholds(jaccard=0.6)))
    assert again.keeper(again.group_of(printout.id)).id == printout.id
    found: list = []
    again.decisions(found.extend)
    [kept] = [d for d in found if d.what == "keep"]
    assert kept.paths_a == (printout.path,) and not kept.pairs
    again.withdraw([kept])
    assert again.keeper(again.group_of(printout.id)).id == by_rule.id
    assert not restarted.store.kept.paths()
    restarted.close()


def test_not_a_duplicate_applies_to_the_group_the_document_was_selected_in(tmp_path):
    """Three drafts in a chain at 80 %: the middle one is listed under both groups; set apart in the second
    group, it leaves that one and stays with the first draft."""
    from tests.conftest import write_drafts

    review, recorder = open_review(tmp_path, write_drafts(tmp_path / "drafts", 3), jaccard=0.8)
    middle, last = by_name(review, "draft-01.txt"), by_name(review, "draft-02.txt")
    [second] = [g for g in review.view.result.groups if {middle.id, last.id} <= {m.document_id for m in g.members}]
    assert sum(1 for g in review.view.result.groups if middle.id in {m.document_id for m in g.members}) == 2
    review.mark_not_duplicate(middle, second)
    names = [{Path(review.docs[m.document_id].path).name for m in g.members} for g in review.view.result.groups]
    assert names == [{"draft-00.txt", "draft-01.txt"}]
    said = [e[1] for e in recorder.events if e[0] == "message"][-1]
    assert said == (
        "draft-01.txt is no longer grouped with the 1 other document of this group; it stays in its "
        "other groups. Edit ▸ Undo takes this back."
    ), said


def test_pairs_keep_left_ticks_the_right_and_not_a_duplicate_takes_a_pair_out(tmp_path):
    """The Pairs view's actions: every pair of the grouping is listed; Keep left keeps the left file (an
    undoable decision) and ticks the right one unless a group keeps it; Not a duplicate rules the two
    apart, and Undo brings the pair back."""
    from tests.conftest import write_drafts

    review, _recorder = open_review(tmp_path, write_drafts(tmp_path / "drafts", 4), jaccard=0.8)
    tables = []
    review.pairs(lambda view, table: tables.append((view, table)))
    [(view, table)] = tables
    assert view is review.view and len(table) == len(view.duplicates) >= 3
    names = {
        frozenset(Path(review.docs[int(x)].path).name for x in (a, b)) for a, b in zip(table.a, table.b, strict=True)
    }
    assert {"draft-00.txt", "draft-01.txt"} in names and {"draft-00.txt", "draft-03.txt"} not in names

    first, second = by_name(review, "draft-02.txt"), by_name(review, "draft-03.txt")
    review.keep_of_pair(first, second)
    assert review.undoable is not None and review.undoable.what == "keep"
    assert second.id in review.marks and first.id not in review.marks
    assert any(keeper == first.id for keeper in review.view.keepers.values())
    review.marks.set(())
    review.keep_of_pair(second, first)  # the file just kept: it stays unticked, and it is said why
    assert first.id not in review.marks

    a, b = by_name(review, "draft-00.txt"), by_name(review, "draft-01.txt")
    before = len(review.view.duplicates)
    review.mark_pair_not_duplicate(a, b)
    assert review.undoable is not None and review.undoable.what == "not a duplicate"
    review.pairs(lambda view, table: tables.append((view, table)))
    after = tables[-1][1]
    assert len(after) == before - 1 and after.row_of(a.id, b.id) is None
    review.undo()
    assert len(review.view.duplicates) == before


def test_the_pairs_of_a_grouping_that_another_replaced_meanwhile_are_not_measured(tmp_path):
    """The pairs asked for while another job was queued (a scan, a threshold move) belong to a grouping that
    is gone by their turn: they are not measured against the new one, and nothing is handed back."""
    from tests.conftest import write_drafts

    review, _recorder = open_review(tmp_path, write_drafts(tmp_path / "drafts", 4), jaccard=0.8)
    shown = review.view
    review.session.regroup(Thresholds(jaccard=0.7))  # the session moved on before the pairs' turn
    tables: list = []
    review.pairs(lambda view, table: tables.append(table))
    assert tables == [] and review.view is shown
    review.show(review.session.view)
    review.pairs(lambda view, table: tables.append(table))
    assert len(tables) == 1 and len(tables[0]) == len(review.session.view.duplicates)


def test_a_trash_that_changes_the_collection_makes_common_text_wait_for_a_scan_which_applies_it(tmp_path):
    """The boilerplate analysis is of the contents scanned: a file of its own text trashed, it is of another
    collection, and common text is not left out until a scan analyses this one; a move out of the folders
    keeps the contents (and the analysis), so nothing waits."""
    root = family(tmp_path / "docs")
    review, _ = open_review(tmp_path, root, jaccard=0.6)
    thresholds = review.view.result.thresholds
    chosen = replace(review.view.scanned_with, workers=1)  # the next scan reads as the last did
    assert thresholds.ignore_boilerplate and rescan_reasons(review.view, thresholds, chosen) == ()
    printout = by_name(review, "printout.pdf")
    review.move([(review.keeper(review.group_of(printout.id)), [printout])], str(tmp_path / "aside"))
    assert review.view.boilerplate_available and rescan_reasons(review.view, thresholds, chosen) == ()
    edited = by_name(review, "edited_v2.txt")
    review.trash([(review.keeper(review.group_of(edited.id)), [edited])])
    assert not review.view.boilerplate_available
    assert rescan_reasons(review.view, thresholds, chosen) == (
        "Common text cannot be left out until these files are scanned again.",
    )
    assert rescan_reasons(review.view, replace(thresholds, ignore_boilerplate=False), chosen) == ()  # not asked
    review.show(review.session.scan(chosen, thresholds))
    assert review.view.boilerplate_available and rescan_reasons(review.view, thresholds, chosen) == ()
