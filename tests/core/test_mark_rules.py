"""Mark rules: which members a rule marks, and that it never marks a keeper or a reference file."""

from __future__ import annotations

import pytest

from neardup_gui.core.models import Document, Group, Member, Similarity, Thresholds
from neardup_gui.core.review.rules import MarkCriteria, all_but_keepers, members_matching, trash_plan

SAME = Similarity(hamming=0, jaccard_estimate=1.0, jaccard=1.0, containment_ab=1.0, containment_ba=1.0)
DAY = 86_400


def doc(doc_id: int, path: str, size: int, day: int) -> Document:
    return Document(doc_id, path, size, day * DAY * 10**9, "text", "ok", "", size, doc_id)


DOCS = {
    1: doc(1, "/up/a/report.txt", 1_000, 10),
    2: doc(2, "/up/b/report draft.txt", 2_000, 20),
    3: doc(3, "/up/b/Report-copy.PDF", 50_000, 30),
    4: doc(4, "/ref/report.txt", 1_000, 5),
    5: doc(5, "/up/a/notes.txt", 300, 12),
    6: doc(6, "/up/b/notes (1).txt", 300, 40),
}
GROUPS = [
    Group(1, 1, (Member(1, SAME), Member(2, SAME), Member(3, SAME), Member(4, SAME)), exact=True),
    Group(2, 5, (Member(5, SAME), Member(6, SAME)), exact=True),
]
KEEPERS = {1: 1, 2: 5}


def marked(**criteria) -> set[int]:
    return set(members_matching(MarkCriteria(**criteria), GROUPS, KEEPERS, DOCS, ["/ref"], Thresholds()).documents)


def test_each_condition_alone():
    assert marked(folder="/up/b") == {2, 3, 6}
    assert marked(folder="/up/b/") == {2, 3, 6}
    assert marked(folder="/up/bb") == set()  # a folder is not a name prefix
    assert marked(pattern="copy") == {3}  # a plain word: contained, whatever the case
    assert marked(pattern="*.pdf") == {3}
    assert marked(pattern="*(1)*") == {6}
    assert marked(modified_before=25 * DAY) == {2}  # 1 and 5 are keepers, 4 is a reference
    assert marked(modified_after=25 * DAY) == {3, 6}
    assert marked(min_size=1_500) == {2, 3}
    assert marked(max_size=1_000) == {6}


def test_conditions_combine_and_the_empty_rule_marks_every_member_that_may_move():
    assert marked(folder="/up/b", min_size=10_000) == {3}
    assert marked(folder="/up", modified_after=15 * DAY, max_size=5_000) == {2, 6}
    assert marked() == {2, 3, 6}


def test_keepers_and_reference_files_are_counted_not_marked():
    selection = members_matching(MarkCriteria(pattern="report"), GROUPS, KEEPERS, DOCS, ["/ref"], Thresholds())
    assert set(selection.documents) == {2, 3}
    assert selection.keepers_left == 1 and selection.references_left == 1


def test_a_negative_size_is_refused():
    with pytest.raises(ValueError, match="min_size"):
        MarkCriteria(min_size=-1)


def test_a_rule_never_marks_a_member_that_is_not_a_duplicate_of_its_keeper_or_a_file_another_group_keeps():
    """A member below the setting (a grouping made elsewhere, or a setting since raised) is not marked; a file
    listed under two groups and kept by one is not marked in the other."""
    far = Similarity(hamming=20, jaccard_estimate=0.6, jaccard=0.6, containment_ab=0.7, containment_ba=0.7)
    groups = [
        Group(1, 1, (Member(1, SAME), Member(2, SAME), Member(3, far)), exact=False),
        Group(2, 5, (Member(5, SAME), Member(1, SAME), Member(6, SAME)), exact=False),
    ]
    keepers = {1: 1, 2: 5}
    selection = members_matching(MarkCriteria(), groups, keepers, DOCS, ["/ref"], Thresholds(jaccard=0.8))
    assert set(selection.documents) == {2, 6}
    assert selection.keepers_left == 2  # 1 (kept by group 1, listed under group 2 too) and 5


def test_a_member_that_holds_its_keeper_and_more_is_never_ticked_by_a_rule_nor_taken_by_the_groups_trash():
    """A longer version (the keeper whole, and 15 % more) would lose text only it has: no rule ticks it and the
    group's trash leaves it, saying why; a member inside the keeper (an excerpt of it) is ticked as a copy."""
    holds = Similarity(hamming=6, jaccard_estimate=0.85, jaccard=0.85, containment_ab=0.85, containment_ba=1.0)
    inside = Similarity(hamming=6, jaccard_estimate=0.85, jaccard=0.85, containment_ab=1.0, containment_ba=0.85)
    groups = [Group(1, 1, (Member(1, SAME), Member(2, holds), Member(3, inside)), exact=False)]
    keepers = {1: 1}
    t = Thresholds(jaccard=0.8)
    selection = members_matching(MarkCriteria(), groups, keepers, DOCS, [], t)
    assert set(selection.documents) == {3} and selection.fuller_left == 1 and selection.keepers_left == 1
    assert all_but_keepers(groups, keepers, DOCS, [], t) == {3}
    plan = trash_plan(groups[0], 1, DOCS, [])
    assert [d.id for d in plan.documents] == [3] and [d.id for d in plan.fuller] == [2]
    assert plan.total_size == DOCS[3].size
    # in a reference folder it is protected as such, not counted twice
    plan = trash_plan(groups[0], 1, DOCS, ["/up/b/report draft.txt"])
    assert [d.id for d in plan.protected] == [2] and plan.fuller == ()


def test_an_edited_copy_is_ticked_though_most_of_its_keeper_is_in_it():
    """2 % of a licence's words edited (the numbers a scan measured): 95 % of the keeper is in the copy, but
    the copy has about as much of its own as the keeper has: it holds nothing more, and is a copy to tick."""
    edited = Similarity(
        hamming=7, jaccard_estimate=0.8984, jaccard=0.8907, containment_ab=0.9322, containment_ba=0.9524
    )
    groups = [Group(1, 1, (Member(1, SAME), Member(2, edited)), exact=False)]
    assert all_but_keepers(groups, {1: 1}, DOCS, [], Thresholds(jaccard=0.8)) == {2}
    assert [d.id for d in trash_plan(groups[0], 1, DOCS, []).documents] == [2]
