"""One truth for every number: the pairs of duplicates at a setting are the same pairs in the session's
view, the Pairs table, the JSON and HTML reports and the command line, and they are exactly the pairs of
documents whose measured numbers make them duplicates (a chain of drafts, exact copies, a family of
copies, a decision)."""

from __future__ import annotations

import json
import re
import shutil
from itertools import combinations
from pathlib import Path

import pytest

from neardup_gui.core.models import Method, ScanOptions, Status, Thresholds, within_thresholds
from neardup_gui.core.session import Session
from tests.conftest import english_texts, plant_edits, run_cli, write_drafts

pytestmark = pytest.mark.e2e  # runs the command line in a process of its own, and scans


def corpus(root: Path) -> Path:
    """A chain of 8 drafts with a byte copy of the first, five copies of a licence with small edits, a
    licence and a copy of it with its spacing changed, and an unrelated text."""
    write_drafts(root, 8)
    shutil.copy(root / "draft-00.txt", root / "draft-00-copy.txt")
    bsd = english_texts()["BSD"]
    for n in range(5):
        (root / f"bsd-{n}.txt").write_text(plant_edits(bsd, 0.01 * n, seed=n))
    mpl = english_texts()["MPL-2.0"]
    (root / "mpl.txt").write_text(mpl)
    (root / "mpl-spaced.txt").write_text(mpl.replace(" ", "  ", 40))
    (root / "apache.txt").write_text(english_texts()["Apache-2.0"])
    return root


def truth(session: Session, view) -> set[frozenset[int]]:
    """Every two documents that are duplicates at the view's setting, from their measured numbers: the
    same text, or within the thresholds; never a pair a person ruled apart."""
    matcher, t = session.matcher, view.result.thresholds
    compared = [d for d in view.result.documents if d.status is Status.OK]
    found = set()
    for a, b in combinations(compared, 2):
        ca, cb = a.content_id, b.content_id
        if matcher.ruled_apart(ca, cb):
            continue
        if matcher.same_text(ca, cb) or within_thresholds(matcher.similarity(ca, cb), t):
            found.add(frozenset((a.id, b.id)))
    return found


def test_every_number_counts_the_same_pairs(tmp_path):
    root = corpus(tmp_path / "docs")
    db = tmp_path / "db.sqlite"
    with Session(db) as session:
        view = session.scan(ScanOptions(roots=(str(root),), workers=1), Thresholds(Method.MINHASH, 8, 0.7))
        for thresholds in (
            Thresholds(Method.MINHASH, 8, 0.7),
            Thresholds(Method.MINHASH, 8, 0.9),
            Thresholds(Method.SIMHASH, 6, 0.7),
            Thresholds(Method.BOTH, 6, 0.8),
        ):
            view = session.regroup(thresholds)
            table = session.pairs()
            pairs = {frozenset((int(a), int(b))) for a, b in zip(table.a, table.b, strict=True)}
            assert len(pairs) == len(table) == len(view.duplicates), "each pair once"
            assert pairs == truth(session, view), thresholds
            grouped = {m.document_id for g in view.result.groups for m in g.members}
            assert set().union(*pairs) == grouped, "a document is grouped when it has a duplicate"
            for k in range(len(table)):  # the numbers are those the pair view shows
                a, b = view.documents[int(table.a[k])], view.documents[int(table.b[k])]
                assert table.similarity.at(k) == session.matcher.similarity(a.content_id, b.content_id)
                assert (table.how[k] == "exact") == session.matcher.similarity(a.content_id, b.content_id).same_text

        view = session.regroup(Thresholds(Method.MINHASH, 8, 0.7))
        docs = {Path(d.path).name: d for d in view.result.documents}
        assert frozenset((docs["draft-00.txt"].id, docs["draft-00-copy.txt"].id)) in truth(session, view)
        before = len(view.duplicates)
        view = session.mark_not_duplicate(docs["draft-01.txt"], [docs["draft-00.txt"]])
        # the ruling is between the two texts: the byte copy of draft-00 leaves draft-01 too
        assert len(view.duplicates) == before - 2 == len(truth(session, view)) == len(session.pairs())

        report = json.loads(session.report("json"))
        assert report["summary"]["pairs"] == len(report["pairs"]) == len(view.duplicates)
        path_of = {d["id"]: d["path"] for d in report["documents"]}
        by_path = {d.display_path: d.id for d in view.result.documents}
        assert {frozenset((by_path[path_of[p["a"]]], by_path[path_of[p["b"]]])) for p in report["pairs"]} == truth(
            session, view
        )
        html = session.report("html")
        assert re.search(rf"<b>{len(view.duplicates)}</b><span class='muted'>pairs of duplicates", html)
        count = len(view.duplicates)

    cli = run_cli("groups", "--db", str(db), "--method", "minhash", "--jaccard", "0.7", "--format", "json")
    assert cli.returncode == 0, cli.stderr
    assert f"{count} pairs of duplicates" in cli.stderr
    assert json.loads(cli.stdout)["summary"]["pairs"] == count
