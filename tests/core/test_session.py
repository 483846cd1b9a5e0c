"""The application layer as the CLI and the app use it: keepers, decisions that stick, roots, reports."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest

from neardup_gui.core.models import ScanOptions, Thresholds
from neardup_gui.core.review.rules import KeeperRule, move_target_problem
from neardup_gui.core.session import Session
from tests.conftest import english_texts, plant_edits, write_drafts, write_pdf

pytestmark = pytest.mark.e2e  # each test scans through the worker pool


def names(session: Session, view) -> list[set[str]]:
    docs = view.documents
    return [{Path(docs[m.document_id].path).name for m in g.members} for g in view.result.groups]


def keeper_name(view, member_name: str) -> str:
    docs = view.documents
    for group in view.result.groups:
        if any(Path(docs[m.document_id].path).name == member_name for m in group.members):
            return Path(docs[view.keepers[group.id]].path).name
    raise AssertionError(f"{member_name} is in no group")


def family(root: Path, *, older: float = 1_600_000_000) -> Path:
    """Seven identical originals, an edited copy (longer) and a PDF printout of the original."""
    text = english_texts()["BSD"]
    root.mkdir(parents=True, exist_ok=True)
    for n in range(7):
        path = root / f"original-{n}.txt"
        path.write_text(text)
        os.utime(path, (older + n, older + n))
    (root / "edited_v2.txt").write_text(plant_edits(text, 0.02, seed=4) + "\nA closing paragraph added by the editor.")
    write_pdf(root / "printout.pdf", text)
    return root


def scan_view(session: Session, *roots: Path, **thresholds):
    return session.scan(ScanOptions(roots=tuple(str(r) for r in roots), workers=1), Thresholds(**thresholds))


def test_the_proposed_keeper_is_an_original_not_the_edited_copy_or_the_printout(tmp_path):
    root = family(tmp_path / "docs")
    with Session(tmp_path / "db.sqlite") as session:
        view = scan_view(session, root, jaccard=0.6)
        assert keeper_name(view, "edited_v2.txt") == "original-0.txt"  # the most copies, then the oldest
        for rule, expected in (
            (KeeperRule.NEWEST, None),
            (KeeperRule.LARGEST, None),
            (KeeperRule.OLDEST, "original-0.txt"),
        ):
            view = session.set_keeper_rule(rule)
            chosen = keeper_name(view, "edited_v2.txt")
            assert chosen == expected if expected else chosen != "original-0.txt"


def test_a_reference_folder_holds_the_keeper(tmp_path):
    root = family(tmp_path / "uploads")
    reference = tmp_path / "reference"
    reference.mkdir()
    shutil.copy(root / "edited_v2.txt", reference / "approved.txt")
    with Session(tmp_path / "db.sqlite", reference_folders=[str(reference)]) as session:
        view = scan_view(session, root, reference, jaccard=0.6)
        assert keeper_name(view, "edited_v2.txt") == "approved.txt"


def test_keep_this_one_survives_regrouping_and_a_restart_and_never_moves_by_itself(tmp_path):
    root = family(tmp_path / "docs")
    db = tmp_path / "db.sqlite"
    with Session(db) as session:
        view = scan_view(session, root, jaccard=0.6)
        edited = next(d for d in view.result.documents if d.path.endswith("edited_v2.txt"))
        view = session.keep(edited)
        assert keeper_name(view, "original-3.txt") == "edited_v2.txt"
        for t in (0.9, 0.6, 0.7, 0.6):
            view = session.regroup(Thresholds(jaccard=t))
            if any("edited_v2.txt" in g for g in names(session, view)):
                assert keeper_name(view, "edited_v2.txt") == "edited_v2.txt"
        first = {g.id: view.keepers[g.id] for g in view.result.groups}
        again = session.regroup(Thresholds(jaccard=0.6))
        assert {g.id: again.keepers[g.id] for g in again.result.groups} == first
    with Session(db) as restarted:
        view = restarted.open([str(root)], Thresholds(jaccard=0.6))
        assert view is not None and keeper_name(view, "original-3.txt") == "edited_v2.txt"


def test_not_a_duplicate_takes_effect_at_once_in_groups_and_reports_and_can_be_withdrawn(tmp_path):
    root = tmp_path / "docs"
    root.mkdir()
    text = english_texts()["MPL-2.0"]
    (root / "a.txt").write_text(text)
    (root / "b.txt").write_text(plant_edits(text, 0.03, seed=1))
    (root / "other.txt").write_text(english_texts()["Apache-2.0"])
    with Session(tmp_path / "db.sqlite") as session:
        view = scan_view(session, root)
        assert names(session, view) == [{"a.txt", "b.txt"}]
        docs = {Path(d.path).name: d for d in view.result.documents}
        view = session.mark_not_duplicate(docs["a.txt"], [docs["b.txt"]])
        assert names(session, view) == []  # at once, without a separate re-group
        report = json.loads(session.report("json"))
        assert report["groups"] == [] and report["pairs"] == []
        [decision] = session.decisions()
        assert {Path(p).name for p in decision.paths_a + decision.paths_b} == {"a.txt", "b.txt"}
        view = session.withdraw_decisions([decision])
        assert names(session, view) == [{"a.txt", "b.txt"}] and session.decisions() == []


def test_groups_answer_for_the_last_scans_folders_unless_told_otherwise(tmp_path):
    first, second = tmp_path / "first", tmp_path / "second"
    for root, name in ((first, "BSD"), (second, "MPL-2.0")):
        root.mkdir()
        (root / "x.txt").write_text(english_texts()[name])
        (root / "y.txt").write_text(english_texts()[name])
    db = tmp_path / "db.sqlite"
    with Session(db) as session:
        scan_view(session, first)
        scan_view(session, second)
    with Session(db) as session:
        view = session.open([], Thresholds())
        assert view is not None and {Path(d.path).parent for d in view.result.documents} == {second}
        view = session.open([str(first), str(second)], Thresholds())
        assert len(view.result.groups) == 2


def test_setting_a_member_apart_takes_it_out_of_its_group_however_it_was_joined_and_undo_brings_it_back(tmp_path):
    """The printout matches seven originals and the edited copy: ruling out only the pair shown would leave
    it in the group through the others. Set apart from the group, it leaves; Undo puts it back."""
    root = family(tmp_path / "docs")
    with Session(tmp_path / "db.sqlite") as session:
        view = scan_view(session, root, jaccard=0.6)
        group = next(
            g for g in view.result.groups if any(view.documents[m.document_id].path.endswith(".pdf") for m in g.members)
        )
        printout = next(
            view.documents[m.document_id] for m in group.members if view.documents[m.document_id].kind == "pdf"
        )
        others = [view.documents[m.document_id] for m in group.members if m.document_id != printout.id]
        view = session.mark_not_duplicate(printout, others)
        assert not any("printout.pdf" in g for g in names(session, view))
        assert any("edited_v2.txt" in g for g in names(session, view))  # the rest stays together
        assert session.undoable is not None and session.undoable.what == "not a duplicate"
        outcome, view = session.undo_last()
        assert outcome is None
        assert any({"printout.pdf", "edited_v2.txt"} <= g for g in names(session, view)) and session.undoable is None


def test_setting_apart_the_first_copy_of_a_text_keeps_its_other_copies_together(tmp_path):
    """Copies of one text are joined to the first of them (by path): ruling that one out must not
    scatter the rest."""
    root = tmp_path / "docs"
    root.mkdir()
    text = english_texts()["BSD"]
    write_pdf(root / "a-printout.pdf", text)  # first by path
    for name in ("b.txt", "c.txt", "d.txt"):
        (root / name).write_text(text)
    (root / "c.txt").write_text(text + "\n")  # the same text, other bytes
    (root / "d.txt").write_text(text + "\n\n")
    with Session(tmp_path / "db.sqlite") as session:
        view = scan_view(session, root)
        assert names(session, view) == [{"a-printout.pdf", "b.txt", "c.txt", "d.txt"}]
        docs = {Path(d.path).name: d for d in view.result.documents}
        view = session.mark_not_duplicate(docs["a-printout.pdf"], [docs[n] for n in ("b.txt", "c.txt", "d.txt")])
        assert names(session, view) == [{"b.txt", "c.txt", "d.txt"}]


def test_moving_marked_files_into_a_folder_keeps_their_places_and_one_undo_brings_them_all_back(tmp_path):
    """Two groups' copies go to another folder under their root's name and relative path; the database
    follows them (no re-reading), they leave the groups, and one undo puts every file back."""
    root = tmp_path / "uploads"
    family(root / "a")
    family(root / "b", older=1_500_000_000)
    (root / "b" / "edited_v2.txt").unlink()
    (root / "b" / "printout.pdf").unlink()
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    destination = tmp_path / "set aside"
    with Session(tmp_path / "db.sqlite") as session:
        view = scan_view(session, root)
        grouped_before = sorted(sorted(g) for g in names(session, view))
        docs = view.documents
        batches = []
        for group in view.result.groups:
            keeper = docs[view.keepers[group.id]]
            batches.append((keeper, [docs[m.document_id] for m in group.members if m.document_id != keeper.id]))
        moving = {Path(d.path) for _k, files in batches for d in files}
        assert len(moving) >= 8
        assert move_target_problem(str(root / "a"), [str(root)]) != ""  # into a scanned folder: refused
        assert move_target_problem(str(tmp_path), [str(root)]) != ""  # tmp_path/uploads is the scanned folder
        assert move_target_problem(str(destination), [str(root)]) == ""
        with pytest.raises(ValueError, match="inside a scanned folder"):
            session.move_batches(batches, str(root / "b"))
        outcome, view = session.move_batches(batches, str(destination))
        assert {Path(p) for p in outcome.done} == moving and not outcome.failed and not outcome.skipped
        for source, target in zip(outcome.done, outcome.moved_to, strict=True):
            assert Path(target) == destination / "uploads" / Path(source).relative_to(root)
            assert not Path(source).exists() and Path(target).read_bytes() == before[Path(source)]
        assert view is not None and view.result.groups == ()  # every group kept only its keeper
        assert session.store.files.document_by_path(outcome.moved_to[0]) is not None  # followed, not forgotten
        assert session.undoable is not None and session.undoable.what == "move"
        back, view = session.undo_last()
    assert back is not None and set(back.moved_to) == {str(p) for p in moving} and not back.skipped
    assert {p: p.read_bytes() for p in root.rglob("*") if p.is_file()} == before
    assert [Path(p) for p in destination.rglob("*") if p.is_file()] == []
    assert sorted(sorted(g) for g in names(session, view)) == grouped_before


def test_a_move_never_replaces_a_file_and_undo_never_overwrites_one(tmp_path):
    root = family(tmp_path / "docs")
    destination = tmp_path / "out"
    (destination / "docs").mkdir(parents=True)
    (destination / "docs" / "original-3.txt").write_text("someone else's file")
    with Session(tmp_path / "db.sqlite") as session:
        view = scan_view(session, root)
        docs = view.documents
        group = view.result.groups[0]
        keeper = docs[view.keepers[group.id]]
        others = [docs[m.document_id] for m in group.members if m.document_id != keeper.id]
        outcome, view = session.move_batches([(keeper, others)], str(destination))
        refused = dict(outcome.failed)
        assert str(root / "original-3.txt") in refused and "already there" in refused[str(root / "original-3.txt")]
        assert (destination / "docs" / "original-3.txt").read_text() == "someone else's file"
        assert (root / "original-3.txt").exists()
        moved_from = outcome.done[0]
        Path(moved_from).write_text("a new file where the moved one was")
        back, view = session.undo_last()
    assert back is not None and any(moved_from in why for _p, why in back.skipped)
    assert Path(moved_from).read_text() == "a new file where the moved one was"


def test_each_group_is_measured_from_its_keeper_in_the_groups_and_the_reports(tmp_path):
    """The grouping's representative is the longest text (the edited copy); the session makes the keeper
    (an original) the representative and measures every member against it, reports included."""
    root = family(tmp_path / "docs")
    with Session(tmp_path / "db.sqlite") as session:
        view = scan_view(session, root, jaccard=0.6)
        group = max(view.result.groups, key=lambda g: len(g.members))
        docs = view.documents
        keeper = docs[view.keepers[group.id]]
        assert Path(keeper.path).name.startswith("original-")
        assert group.representative == keeper.id and group.members[0].document_id == keeper.id
        by_name = {Path(docs[m.document_id].path).name: m.similarity for m in group.members}
        assert all(by_name[f"original-{n}.txt"].jaccard == 1.0 for n in range(7))
        edited = next(d for d in docs.values() if d.path.endswith("edited_v2.txt"))
        # the member's numbers against the keeper: containment_ab is the member inside the keeper
        assert by_name["edited_v2.txt"] == session.matcher.similarity(edited.content_id, keeper.content_id)
        assert by_name["edited_v2.txt"].jaccard < 1.0
        jaccards = [m.similarity.jaccard for m in group.members[1:]]
        assert jaccards == sorted(jaccards, reverse=True)
        report = json.loads(session.report("json"))
        [reported] = [g for g in report["groups"] if len(g["members"]) == len(group.members)]
        assert (
            Path(next(d["path"] for d in report["documents"] if d["id"] == reported["representative"])).name
            == Path(keeper.path).name
        )


def assert_groups_are_duplicates(session, view) -> list[set[str]]:
    """Every two members of every group are duplicates at the view's setting, the keeper first; no file
    some group keeps is one to remove in another; every pair the report lists lies inside a group."""
    from neardup_gui.core.models import within_thresholds
    from neardup_gui.core.review.rules import all_but_keepers, kept_anywhere

    t = view.result.thresholds
    docs = view.documents
    matcher = session.matcher
    for group in view.result.groups:
        assert group.representative == view.keepers[group.id] == group.members[0].document_id
        assert not group.chained(t)
        ids = [m.document_id for m in group.members]
        for k, a in enumerate(ids):
            for b in ids[k + 1 :]:
                ca, cb = docs[a].content_id, docs[b].content_id
                assert matcher.same_text(ca, cb) or within_thresholds(matcher.similarity(ca, cb), t), (
                    docs[a].path,
                    docs[b].path,
                )
    marked = all_but_keepers(view.result.groups, view.keepers, docs, (), t)
    assert not marked & kept_anywhere(view.result.groups, view.keepers)
    together = {
        frozenset((a.document_id, b.document_id)) for g in view.result.groups for a in g.members for b in g.members
    }
    assert all(frozenset((p.a, p.b)) in together for p in view.result.pairs)
    return names(session, view)


def test_every_two_members_of_a_group_are_duplicates_and_a_persons_decisions_hold(tmp_path):
    """Ten successive revisions of one licence (and an exact copy of the first) form one chained component at
    T = 0.7; the groups shown are the drafts that are all duplicates of one another, so a draft may be listed
    under two groups; every two drafts that are duplicates share a group; the copy stays with its original
    as an exact pair; "Not a duplicate" and "Keep this one" hold in them."""
    from neardup_gui.core.models import Method

    root = write_drafts(tmp_path / "drafts", 10)
    shutil.copy(root / "draft-00.txt", root / "draft-00-copy.txt")
    (root / "mpl.txt").write_text(english_texts()["MPL-2.0"])
    (root / "mpl-copy.txt").write_text(plant_edits(english_texts()["MPL-2.0"], 0.005, seed=1))
    chain = {f"draft-{n:02d}.txt" for n in range(10)} | {"draft-00-copy.txt"}

    with Session(tmp_path / "db.sqlite") as session:
        view = scan_view(session, root, jaccard=0.7)
        groups = assert_groups_are_duplicates(session, view)
        assert len(groups) >= 3 and {"mpl.txt", "mpl-copy.txt"} in groups
        assert set().union(*groups) >= chain, "every draft is in a group"
        listed = [name for g in groups for name in g]
        assert len(listed) > len(set(listed)), "a draft between two others is listed under both their groups"
        assert any({"draft-00.txt", "draft-00-copy.txt"} <= g for g in groups)
        matcher, docs = session.matcher, {Path(d.path).name: d for d in view.result.documents}
        names_ = sorted(chain)
        for k, x in enumerate(names_):  # every two drafts that are duplicates share a group
            for y in names_[k + 1 :]:
                if matcher.similarity(docs[x].content_id, docs[y].content_id).jaccard >= 0.7:
                    assert any({x, y} <= g for g in groups), (x, y)
        report = json.loads(session.report("json"))
        together = {frozenset((a["id"], b["id"])) for g in report["groups"] for a in g["members"] for b in g["members"]}
        path_of = {d["id"]: Path(d["path"]).name for d in report["documents"]}
        assert all(frozenset((p["a"], p["b"])) in together for p in report["pairs"])
        assert any(
            {path_of[p["a"]], path_of[p["b"]]} == {"draft-00.txt", "draft-00-copy.txt"} and p["matched_by"] == "exact"
            for p in report["pairs"]
        )
        assert report["summary"]["documents_in_groups"] == len(set(listed))

        assert any({"draft-00.txt", "draft-01.txt"} <= g for g in groups)
        apart = assert_groups_are_duplicates(
            session, session.mark_not_duplicate(docs["draft-00.txt"], [docs["draft-01.txt"]])
        )
        assert not any({"draft-00.txt", "draft-01.txt"} <= g for g in apart), "the ruling holds"
        session.keep(docs["draft-00.txt"])
        kept = session.keep(docs["draft-07.txt"])
        assert_groups_are_duplicates(session, kept)
        keepers = {Path(kept.documents[k].path).name for k in kept.keepers.values()}
        assert {"draft-00.txt", "draft-07.txt"} <= keepers
        for g in kept.result.groups:  # a group holding a file a person kept keeps it
            held = {Path(kept.documents[m.document_id].path).name for m in g.members} & {"draft-00.txt", "draft-07.txt"}
            if held:
                assert Path(kept.documents[kept.keepers[g.id]].path).name in held
        # a mild chain (the first and the last drafts a little below T) is shown the same way
        assert_groups_are_duplicates(session, session.regroup(Thresholds(Method.MINHASH, 8, 0.8)))
        # the slider moved back finds the same groups (kept for this matcher and these rulings)
        back = session.regroup(Thresholds(Method.MINHASH, 8, 0.7))
        assert back.result.groups == kept.result.groups and back.keepers == kept.keepers


def test_each_member_is_measured_as_inside_its_keeper_after_a_person_chooses_the_keeper(tmp_path):
    """A short text that is three quarters of a long one: whoever keeps the group, a member's
    containment_ab is how much of the member is inside the keeper (as the matcher measures its groups)."""
    root = tmp_path / "docs"
    root.mkdir()
    words = english_texts()["GPL-2"].split()
    (root / "long.txt").write_text(" ".join(words[:2000]))
    (root / "short.txt").write_text(" ".join(words[:1500]))
    with Session(tmp_path / "db.sqlite") as session:
        view = scan_view(session, root, jaccard=0.6)
        docs = {Path(d.path).name: d for d in view.result.documents}
        for keeper, member in (("long.txt", "short.txt"), ("short.txt", "long.txt")):
            view = session.keep(docs[keeper])
            [group] = view.result.groups
            assert group.representative == docs[keeper].id
            m = next(m for m in group.members if m.document_id == docs[member].id)
            short_in_long, long_in_short = (m.similarity.containment_ab, m.similarity.containment_ba)[
                :: 1 if member == "short.txt" else -1
            ]
            assert short_in_long > 0.99 and long_in_short < 0.85, (keeper, m.similarity)


def test_a_mild_chain_is_shown_as_groups_of_mutual_duplicates(tmp_path):
    """Three drafts, each a few words from the one before: at T = 0.8 the first and the last are below T
    (but not so far as to be called chained); they are shown as two groups sharing the middle draft, each
    a pair of duplicates, and the middle draft is never proposed for removal where another group keeps it."""
    from neardup_gui.core.review.rules import all_but_keepers, kept_anywhere

    root = write_drafts(tmp_path / "drafts", 3)
    with Session(tmp_path / "db.sqlite") as session:
        view = scan_view(session, root, jaccard=0.8)
        matcher, docs = session.matcher, {Path(d.path).name: d for d in view.result.documents}
        first, last = docs["draft-00.txt"], docs["draft-02.txt"]
        assert matcher.similarity(first.content_id, last.content_id).jaccard < 0.8
        groups = assert_groups_are_duplicates(session, view)
        assert sorted(map(sorted, groups)) == [["draft-00.txt", "draft-01.txt"], ["draft-01.txt", "draft-02.txt"]]
        marked = all_but_keepers(view.result.groups, view.keepers, view.documents, (), view.result.thresholds)
        assert marked and not marked & kept_anywhere(view.result.groups, view.keepers)


def test_byte_copies_group_whatever_their_status(tmp_path):
    """Copies of a scanned PDF (OCR off: no text) and of an encrypted PDF group as exact copies, as every
    duplicate finder groups byte copies first; a person can clear them with one mark and the trash keeps
    one of each; empty files are not grouped; the report says the same."""
    import numpy as np

    from neardup_gui.core.models import Status
    from neardup_gui.core.review.rules import all_but_keepers, batch_plan
    from tests.conftest import write_image_pdf, write_pdf

    root = tmp_path / "uploads"
    root.mkdir()
    page = np.full((300, 200), 255, dtype=np.uint8)
    page[50:80, 20:180] = 0
    write_image_pdf(root / "scan.pdf", [page])
    write_pdf(root / "locked.pdf", english_texts()["BSD"], user_password="secret")
    for name, copy in (("scan.pdf", "scan (1).pdf"), ("scan.pdf", "scan (2).pdf"), ("locked.pdf", "locked-copy.pdf")):
        shutil.copy(root / name, root / copy)
    (root / "empty.txt").write_bytes(b"")
    (root / "empty (1).txt").write_bytes(b"")
    with Session(tmp_path / "db.sqlite") as session:
        view = scan_view(session, root)
        statuses = {Path(d.path).name: d.status for d in view.result.documents}
        assert statuses["scan.pdf"] is not Status.OK and statuses["locked.pdf"] is Status.ENCRYPTED
        groups = names(session, view)
        assert sorted(map(sorted, groups)) == [
            ["locked-copy.pdf", "locked.pdf"],
            ["scan (1).pdf", "scan (2).pdf", "scan.pdf"],
        ]
        assert all(g.exact for g in view.result.groups)
        report = json.loads(session.report("json"))
        assert report["summary"]["groups"] == 2 and report["summary"]["redundant_documents"] == 3
        # every pair of copies: three among the scans, one of the locked file
        assert [p["matched_by"] for p in report["pairs"]] == ["exact"] * 4 == ["exact"] * len(view.duplicates)
        assert report["summary"]["pairs"] == 4
        marked = all_but_keepers(view.result.groups, view.keepers, view.documents, (), view.result.thresholds)
        assert len(marked) == 3
        plan = batch_plan(view.result.groups, view.keepers, marked, view.documents, ())
        outcome, after = session.trash_batches([(keeper, files) for keeper, files in plan.batches])
        assert len(outcome.done) == 3 and after is not None and not after.result.groups
        left = sorted(p.name for p in root.iterdir())
        assert len([n for n in left if n.startswith("scan")]) == 1 and len([n for n in left if "locked" in n]) == 1


def test_a_slider_moved_back_shows_the_same_groups_at_once_and_never_ones_a_decision_changed(tmp_path):
    """Groupings are kept by threshold for a slider moved back and forth; a decision (a file kept, a "not a
    duplicate", another keeper rule) made meanwhile is never hidden by one kept from before it."""
    root = write_drafts(tmp_path / "drafts", 5)
    low, high = Thresholds(jaccard=0.7), Thresholds(jaccard=0.8)
    with Session(tmp_path / "db.sqlite") as session:
        first = scan_view(session, root, jaccard=0.7)
        session.regroup(high)
        assert session.regroup(low) is first, "moved back: the grouping already made"
        docs = {Path(d.path).name: d for d in first.result.documents}
        kept = session.keep(docs["draft-03.txt"])  # at 0.7
        session.regroup(high)
        back = session.regroup(low)
        assert back is not first and back.result.groups == kept.result.groups
        assert docs["draft-03.txt"].id in back.keepers.values()
        apart = session.mark_not_duplicate(docs["draft-03.txt"], [docs["draft-04.txt"]])
        session.regroup(high)
        back = session.regroup(low)
        assert back.result.groups == apart.result.groups
        together = [{m.document_id for m in g.members} for g in back.result.groups]
        assert not any({docs["draft-03.txt"].id, docs["draft-04.txt"].id} <= g for g in together)
        assert len(back.duplicates) == len(first.duplicates) - 1
        session.set_keeper_rule(KeeperRule.NEWEST)
        assert session.regroup(high) is not None and session.regroup(low) is not back


def test_two_files_a_person_kept_are_never_marked_when_one_group_holds_both(tmp_path):
    """Two near copies a person kept, each while it was in a group of its own: when one group holds both, it
    keeps one, and neither is ever ticked by a rule or moved by a batch."""
    from neardup_gui.core.review.rules import all_but_keepers, batch_plan, kept_anywhere

    root = tmp_path / "docs"
    root.mkdir()
    text = english_texts()["MPL-2.0"]
    for n in range(4):
        (root / f"copy-{n}.txt").write_text(plant_edits(text, 0.01 * n, seed=n))
    with Session(tmp_path / "db.sqlite") as session:
        view = scan_view(session, root, jaccard=0.9)
        docs = {Path(d.path).name: d for d in view.result.documents}
        session.keep(docs["copy-0.txt"])
        view = session.keep(docs["copy-3.txt"])
        assert {docs["copy-0.txt"].id, docs["copy-3.txt"].id} == set(view.chosen)
        view = session.regroup(Thresholds(jaccard=0.5))
        [group] = view.result.groups
        assert {docs["copy-0.txt"].id, docs["copy-3.txt"].id} <= {m.document_id for m in group.members}
        t = view.result.thresholds
        marked = all_but_keepers(view.result.groups, view.keepers, view.documents, (), t, view.chosen)
        assert marked and not marked & view.chosen
        everything = {m.document_id for m in group.members}
        plan = batch_plan(view.result.groups, view.keepers, everything, view.documents, (), view.chosen)
        moved = {d.id for _keeper, files in plan.batches for d in files}
        assert moved == everything - kept_anywhere(view.result.groups, view.keepers, view.chosen)
        assert not moved & view.chosen and plan.protected == 2


def test_a_scan_records_what_it_read_and_a_view_carries_it(tmp_path):
    """The folders, patterns, kinds of file and OCR of the last scan, kept in the database: the window
    compares what it shows with them (controller.rescan_reasons), also after a restart."""
    root = tmp_path / "docs"
    root.mkdir()
    (root / "x.txt").write_text(english_texts()["BSD"])
    options = ScanOptions(
        roots=(str(root),), include=("*.txt",), exclude=("drafts",), kinds=frozenset({"text", "pdf"}), workers=1
    )
    db = tmp_path / "db.sqlite"
    with Session(db) as session:
        assert session.last_scan_options() is None  # nothing scanned yet
        view = session.scan(options, Thresholds())
        assert view.scanned_with == session.last_scan_options()
    with Session(db) as session:
        view = session.open([str(root)], Thresholds())
        assert view is not None and view.scanned_with is not None
        last = view.scanned_with
        assert (last.roots, last.include, last.exclude, last.kinds, last.ocr, last.hidden) == (
            (os.path.realpath(root),),
            ("*.txt",),
            ("drafts",),
            frozenset({"text", "pdf"}),
            "",
            False,
        )
        for damaged in ("{not json", json.dumps({"include": 1}), json.dumps([1, 2])):
            session.store.set_meta("last_scan_options", damaged)
            assert session.last_scan_options() is None  # as if not recorded: nothing is compared


def test_a_report_written_to_a_file_is_the_report_written_in_pieces(tmp_path, monkeypatch):
    """The JSON report's documents and groups are encoded as the file is written, a slice at a time (a million
    documents' records are never whole in memory): the file holds the very text report() gives."""
    from neardup_gui.core.review import report as report_module

    root = family(tmp_path / "docs")
    (root / "unrelated.txt").write_text(english_texts()["MPL-2.0"])
    pieces: list[int] = []
    encoded = report_module._encoded_pieces

    def counted(key, records):
        for piece in encoded(key, records):
            if key == "documents":
                pieces.append(len(piece))
            yield piece

    monkeypatch.setattr(report_module, "_RECORDS_A_PIECE", 3)
    monkeypatch.setattr(report_module, "_encoded_pieces", counted)
    monkeypatch.setattr(report_module.time, "time", lambda: 1_700_000_000.0)  # the same "generated" twice
    with Session(tmp_path / "db.sqlite") as session:
        scan_view(session, root)
        written = session.write_report(tmp_path / "out" / "report.json", "json").read_text(encoding="utf-8")
        assert len(pieces) == 1 + 3 + 1  # the member's head and first record, 3 slices of the other 9, its end
        assert written == session.report("json")
    found = json.loads(written)
    assert [d["id"] for d in found["documents"]] == list(range(1, 11))
    assert sorted(Path(d["path"]).name for d in found["documents"]) == sorted(p.name for p in root.iterdir())


def test_a_report_cancelled_while_its_records_are_written_leaves_no_file(tmp_path, monkeypatch):
    from neardup_gui.core.jobs import CancelToken, JobCancelled
    from neardup_gui.core.review import report as report_module

    root = family(tmp_path / "docs")
    cancel = CancelToken()
    encoded = report_module._encoded_pieces

    def cancelled_after_the_first(key, records):
        for piece in encoded(key, records):
            yield piece
            cancel.cancel()  # the person presses Cancel while the documents are being written

    monkeypatch.setattr(report_module, "_RECORDS_A_PIECE", 2)
    monkeypatch.setattr(report_module, "_encoded_pieces", cancelled_after_the_first)
    out = tmp_path / "out" / "report.json"
    with Session(tmp_path / "db.sqlite") as session:
        scan_view(session, root)
        with pytest.raises(JobCancelled):
            session.write_report(out, "json", cancel=cancel)
    assert list(out.parent.iterdir()) == []  # neither the report nor its part-written file


@pytest.mark.e2e
def test_a_pooled_report_whose_writing_fails_stops_its_search_for_passages(tmp_path, monkeypatch):
    """In the pool, the workers look for the pairs' shared passages while the documents' records are
    written: a disk that fills up while the report is written stops that search (one that would run
    until stopped, here) and waits for it. Nothing is left running nor written, and the next report
    is whole, its passages found."""
    import errno
    import threading

    from neardup_gui.core.jobs import JobCancelled
    from neardup_gui.core.review import report as report_module

    root = family(tmp_path / "docs")
    db = tmp_path / "db.sqlite"
    with Session(db) as session:
        scan_view(session, root)
    real_find_all, real_fdopen = report_module.PairPassages.find_all, os.fdopen

    def until_stopped(self, *args, cancel, **kwargs):
        while not cancel.cancelled:
            time.sleep(0.01)
        raise JobCancelled()

    class FullDisk:
        """A report file on a disk that is full after a few writes."""

        def __init__(self, fh) -> None:
            self.fh, self.writes = fh, 0

        def __enter__(self):
            return self

        def __exit__(self, *exc) -> None:
            self.fh.close()

        def write(self, piece: str) -> int:
            self.writes += 1
            if self.writes > 3:
                raise OSError(errno.ENOSPC, "No space left on device")
            return self.fh.write(piece)

    monkeypatch.setattr(report_module, "_RECORDS_A_PIECE", 1)
    out = tmp_path / "out" / "report.json"
    with Session(db, workers=2) as session:
        assert session.open([str(root)], Thresholds()) is not None
        monkeypatch.setattr(report_module.PairPassages, "find_all", until_stopped)
        monkeypatch.setattr(os, "fdopen", lambda *a, **k: FullDisk(real_fdopen(*a, **k)))
        with pytest.raises(OSError, match="No space left") as failed:  # kept, as the app keeps a failure
            session.write_report(out, "json")
        monkeypatch.setattr(os, "fdopen", real_fdopen)
        assert not [t for t in threading.enumerate() if t.name.startswith("json-passages")], failed.value
        assert list(out.parent.iterdir()) == []
        monkeypatch.setattr(report_module.PairPassages, "find_all", real_find_all)
        report = json.loads(session.write_report(out, "json").read_text(encoding="utf-8"))
    assert any(pair.get("shared_passages") for pair in report["pairs"])
    assert list(out.parent.iterdir()) == [out]


def test_what_a_grouping_made_is_set_apart_from_the_collector_until_its_matcher_retires(tmp_path):
    """A full collection at a million documents walked 2.9 million objects holding the GIL for 0.75 s (the
    window stopped answering): what a matcher and its groupings make is frozen out of the cycle collector,
    and given back when the matcher retires."""
    import gc

    root = family(tmp_path / "docs")
    gc.unfreeze()
    with Session(tmp_path / "db.sqlite") as session:
        scan_view(session, root, jaccard=0.6)
        frozen = gc.get_freeze_count()
        assert frozen > 0 and gc.isenabled()
        session.regroup(Thresholds(jaccard=0.7))
        assert gc.get_freeze_count() >= frozen and gc.isenabled()
    assert gc.get_freeze_count() == 0
