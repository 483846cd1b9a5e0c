"""The application layer as the CLI and the app use it: keepers, decisions that stick, roots, reports."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from neardup_gui.core.models import ScanOptions, Thresholds
from neardup_gui.core.review import KeeperRule
from neardup_gui.core.session import Session
from tests.conftest import english_texts, plant_edits, write_pdf


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
        for rule, expected in ((KeeperRule.NEWEST, None), (KeeperRule.LARGEST, None),
                               (KeeperRule.OLDEST, "original-0.txt")):
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
        view = session.mark_not_duplicate(docs["a.txt"], docs["b.txt"])
        assert names(session, view) == []  # at once, without a separate re-group
        report = json.loads(session.report("json"))
        assert report["groups"] == [] and report["pairs"] == []
        [decision] = session.decisions()
        assert {Path(p).name for p in decision.paths_a + decision.paths_b} == {"a.txt", "b.txt"}
        view = session.withdraw_decision(decision.hash_a, decision.hash_b)
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
        group = next(g for g in view.result.groups if any(view.documents[m.document_id].path.endswith(".pdf")
                                                        for m in g.members))
        printout = next(view.documents[m.document_id] for m in group.members
                        if view.documents[m.document_id].kind == "pdf")
        others = [view.documents[m.document_id] for m in group.members if m.document_id != printout.id]
        view = session.separate(printout, others)
        assert not any("printout.pdf" in g for g in names(session, view))
        assert any("edited_v2.txt" in g for g in names(session, view))  # the rest stays together
        assert session.can_undo
        view = session.undo_last()
        assert any({"printout.pdf", "edited_v2.txt"} <= g for g in names(session, view)) and not session.can_undo


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
        view = session.separate(docs["a-printout.pdf"], [docs[n] for n in ("b.txt", "c.txt", "d.txt")])
        assert names(session, view) == [{"b.txt", "c.txt", "d.txt"}]
