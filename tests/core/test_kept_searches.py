"""Excerpts and shared passages are found once for a collection and a setting, kept in its database:
asked again, after a restart too, they are read back; a changed collection is searched again. Passages in
boilerplate a collection's documents open with are not listed while it is ignored."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import numpy as np
import pytest

from neardup_gui.core.match import excerpts, matcher
from neardup_gui.core.match.excerpts import find_excerpts
from neardup_gui.core.models import Find, PassageSearch, ScanOptions, Search, Thresholds
from neardup_gui.core.review import report
from neardup_gui.core.review.pairs import excerpt_groups, inner_share
from neardup_gui.core.session import Session
from tests.conftest import chinese_texts, english_texts, plant_edits

pytestmark = pytest.mark.e2e  # each test scans through the worker pool


def _uploads(root: Path) -> Path:
    """Three licences; an essay quoting 80 words of one and 100 characters of a statute; a part of another."""
    en, statute = english_texts(), next(iter(chinese_texts().values()))
    root.mkdir()
    for name in ("Apache-2.0", "GPL-2", "MPL-2.0"):
        (root / f"{name}.txt").write_text(en[name], encoding="utf-8")
    (root / "statute.txt").write_text(statute, encoding="utf-8")
    quoted = " ".join(en["Apache-2.0"].split()[400:480])
    own = " ".join(en["BSD"].split()[:120])
    (root / "essay.txt").write_text(own + "\n\n" + quoted + "\n\n" + statute[3000:3100], encoding="utf-8")
    (root / "gpl-part.txt").write_text(en["GPL-2"][5000:9000], encoding="utf-8")
    return root


def _pairs(session: Session, found) -> set[tuple[str, str]]:
    docs = session.view.documents
    return {(Path(docs[p.a].path).name, Path(docs[p.b].path).name) for p in found}


def test_searches_are_kept_for_the_collection_and_read_back_after_a_restart(tmp_path, monkeypatch):
    root = _uploads(tmp_path / "uploads")
    db = tmp_path / "n.db"
    options = ScanOptions(roots=(str(root),), workers=1)
    with Session(db) as session:
        session.scan(options, Thresholds())
        passages = session.shared_passages(PassageSearch())
        excerpts = session.excerpts(0.8)
        assert _pairs(session, passages) == {
            ("Apache-2.0.txt", "essay.txt"),
            ("essay.txt", "statute.txt"),
            ("GPL-2.txt", "gpl-part.txt"),
        }
        assert excerpts

    def searched(*args, **kwargs):
        raise AssertionError("searched again")

    monkeypatch.setattr(matcher, "find_shared_passages", searched)
    monkeypatch.setattr(matcher, "find_excerpts", searched)
    with Session(db) as session:
        session.open([str(root)], Thresholds())
        assert session.shared_passages(PassageSearch()) == passages
        assert session.excerpts(0.8) == excerpts
        with pytest.raises(AssertionError, match="searched again"):
            session.shared_passages(PassageSearch(words=60))  # another setting is searched for
    monkeypatch.undo()

    (root / "gpl-part.txt").unlink()  # the collection changes: searched again
    with Session(db) as session:
        session.scan(options, Thresholds())
        assert _pairs(session, session.shared_passages(PassageSearch())) == {
            ("Apache-2.0.txt", "essay.txt"),
            ("essay.txt", "statute.txt"),
        }


def test_a_passage_in_boilerplate_is_not_listed_while_boilerplate_is_ignored(tmp_path):
    """Twenty letters open with the same 60-word letterhead, their bodies unrelated: the letterhead is
    boilerplate, and no two letters share a passage but where one quotes another."""
    words = " ".join(english_texts().values()).split()
    letterhead = " ".join(english_texts()["Apache-2.0"].split()[:60])
    # bodies of licence words with a quarter of them changed: two share no 50 words by chance
    bodies = [plant_edits(" ".join(words[2000 + 300 * n : 2250 + 300 * n]), 0.25, seed=n) for n in range(20)]
    root = tmp_path / "letters"
    root.mkdir()
    for n, body in enumerate(bodies):
        (root / f"letter-{n:02d}.txt").write_text(letterhead + "\n\n" + body, encoding="utf-8")
    quote = " ".join(bodies[0].split()[:70])
    (root / "letter-20.txt").write_text(f"{letterhead}\n\n{quote} {bodies[5][::-1]}", encoding="utf-8")
    with Session(tmp_path / "n.db") as session:
        session.scan(ScanOptions(roots=(str(root),), workers=1), Thresholds(ignore_boilerplate=True))
        assert session.view.boilerplate.get("documents_affected", 0) >= 20
        # excerpts of the letters' cores, read a few at a time, are those of the cores held at once
        m = session.matcher
        ids = m.arrays.content_ids
        held = m.boilerplate.compared(m.store, ids.tolist())
        at_once = find_excerpts([held[c] for c in ids.tolist()], 0.25)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(excerpts, "_SORTED_AT_ONCE", 700)
            in_parts = m.excerpts(0.25)
        assert len(at_once) >= 1 and np.array_equal(ids[at_once.inner], in_parts.inner)
        assert np.array_equal(ids[at_once.outer], in_parts.outer) and np.array_equal(at_once.shared, in_parts.shared)
        ignored = _pairs(session, session.shared_passages(PassageSearch(common=None)))
        assert ignored == {("letter-00.txt", "letter-20.txt")}
        session.regroup(Thresholds(ignore_boilerplate=False))
        kept = _pairs(session, session.shared_passages(PassageSearch(common=None)))
        assert len(kept) == 21 * 20 // 2  # the letterhead is a passage every two letters share


def test_passages_are_placed_in_their_texts_alike_by_the_workers_and_here(tmp_path, monkeypatch):
    """The JSON report's passages, placed a few documents a task in worker processes, are those placed here."""
    root = _uploads(tmp_path / "uploads")
    monkeypatch.setattr(report, "_DOCUMENTS_PER_TASK", 1)  # a task a document: several tasks for the pool
    reports = []
    for workers in (1, 2):
        with Session(tmp_path / f"n{workers}.db", workers=workers) as session:
            session.scan(ScanOptions(roots=(str(root),), workers=workers), Thresholds())
            reports.append(json.loads(session.report("json", passages=PassageSearch()))["passages"])
    here, pooled = reports
    assert here == pooled and len(here) == 3
    assert all(p["a_start"] is not None and p["b_start"] is not None for pair in here for p in pair["passages"])


def test_the_pairs_of_each_search_are_tables_with_their_numbers_and_passages_placed_in_both_texts(tmp_path):
    """What the Pairs tab lists for each search: the excerpt measured as inside its container, every pair
    that shares passages with its passages (in the row's order), and the passages of a pair placed in both
    texts as read now; a file changed since the scan has no places, and says why when it is gone."""
    from neardup_gui.core.models import Find, Search
    from neardup_gui.core.review.passages import passages_in_texts

    root = _uploads(tmp_path / "uploads")
    with Session(tmp_path / "n.db") as session:
        view = session.scan(ScanOptions(roots=(str(root),), workers=1), Thresholds())
        docs = view.documents
        name = {d: Path(doc.path).name for d, doc in docs.items()}
        excerpts = session.pairs(search=Search(Find.EXCERPTS, 0.8))
        listed = {frozenset((name[a], name[b])) for a, b in zip(excerpts.a.tolist(), excerpts.b.tolist(), strict=True)}
        assert frozenset(("GPL-2.txt", "gpl-part.txt")) in listed
        for k in range(len(excerpts)):
            s = excerpts.similarity.at(k)
            assert max(s.containment_ab, s.containment_ba) >= 0.8 and s.jaccard < 0.8
        assert session.pairs(search=Search(Find.EXCERPTS, 0.8)) is excerpts  # measured once a view and a search
        found = session.pairs(search=Search(Find.PASSAGES))
        assert len(found.passages) == len(found) == 3
        for k in range(len(found)):
            assert {found.passages[k].a, found.passages[k].b} == {int(found.a[k]), int(found.b[k])}
        assert len(session.pairs()) == len(view.duplicates)  # the duplicates, whatever the other settings

        row = next(k for k in range(len(found)) if name[found.passages[k].a] == "Apache-2.0.txt")
        pair = found.passages[row]
        documents = (docs[pair.a], docs[pair.b])
        shown = passages_in_texts(pair, documents, view.text_loader(), view.database)
        assert shown.texts is not None and len(shown.placed.spans) == 1
        span_a, span_b = shown.placed.spans[0]
        assert span_a is not None and span_b is not None
        a_words = shown.texts[0][span_a.start : span_a.end].split()
        assert a_words == shown.texts[1][span_b.start : span_b.end].split()
        assert len(a_words) >= 80  # the 80 quoted words, as long as they run on

        essay = Path(documents[1].path)
        essay.write_text(essay.read_text(encoding="utf-8") + " more", encoding="utf-8")
        changed = passages_in_texts(pair, documents, view.text_loader(), view.database)
        assert changed.texts is None and changed.problem.startswith(documents[1].display_path)


def test_excerpts_are_grouped_by_the_document_they_are_inside(tmp_path):
    """A report of three licences holds two chapters copied out (one edited); an anthology holds one of them
    with another licence: the report's group lists both chapters, the most inside first, the anthology's its
    one; a chapter inside both is under each, and the groups' excerpts are the table's, each once."""
    en = english_texts()
    root = tmp_path / "uploads"
    root.mkdir()
    (root / "report.txt").write_text("\n\n".join(en[n] for n in ("Apache-2.0", "MPL-2.0", "LGPL-3")), encoding="utf-8")
    (root / "chapter-apache.txt").write_text(en["Apache-2.0"], encoding="utf-8")
    (root / "chapter-lgpl.txt").write_text(plant_edits(en["LGPL-3"], 0.05, seed=2), encoding="utf-8")
    (root / "anthology.txt").write_text(en["GPL-2"] + "\n\n" + en["Apache-2.0"], encoding="utf-8")
    with Session(tmp_path / "n.db") as session:
        session.scan(ScanOptions(roots=(str(root),), workers=1), Thresholds())
        table = session.pairs(search=Search(Find.EXCERPTS, containment=0.7))
        docs = session.view.documents
        groups = excerpt_groups(table, docs)
        share = inner_share(table)

        def name(doc_id: int) -> str:
            return Path(docs[doc_id].path).name

        listed = [(name(g.outer), [name(int(table.inner[k])) for k in g.rows]) for g in groups]
        assert listed == [
            ("report.txt", ["chapter-apache.txt", "chapter-lgpl.txt"]),
            ("anthology.txt", ["chapter-apache.txt"]),
        ]
        for g in groups:
            shares = [float(share[k]) for k in g.rows]
            assert shares == sorted(shares, reverse=True) and min(shares) >= 0.7
        assert sorted(k for g in groups for k in g.rows) == list(range(len(table)))
        with pytest.raises(ValueError, match="excerpt"):
            excerpt_groups(session.pairs(), docs)


def test_of_the_candidates_measured_only_the_excerpts_overlaps_are_kept(tmp_path):
    """The excerpts' overlaps are kept for the pair view; the other candidates measured are not written (at
    100,000 documents, 2.5 million pairs: 15 s of the parent's time and a larger database, for nothing)."""
    root = _uploads(tmp_path / "uploads")
    db = tmp_path / "n.db"

    def kept() -> set[tuple[int, int]]:
        with sqlite3.connect(db) as connection:
            tables = ("overlaps", "core_overlaps")  # whole texts, or their cores where boilerplate is ignored
            return {(a, b) for t in tables for a, b in connection.execute(f"SELECT a, b FROM {t}")}

    with Session(db) as session:
        session.scan(ScanOptions(roots=(str(root),), workers=1), Thresholds())
        m = session.matcher
        m.keep_measured()
        before = kept()
        ids = m.arrays.content_ids
        held = m.boilerplate.compared(m.store, ids.tolist())
        inner, outer, _shared = excerpts.candidate_pairs(
            [held[c] for c in ids.tolist()], m.arrays.shingle_count, 0.5, matcher.EXCERPT_MIN_SHINGLES
        )
        found = m.excerpts(0.5)
        candidates = {tuple(sorted(p)) for p in zip(ids[inner].tolist(), ids[outer].tolist(), strict=True)}
        pairs = {tuple(sorted(p)) for p in zip(found.inner.tolist(), found.outer.tolist(), strict=True)}
        assert pairs < candidates and pairs - before  # candidates that are not excerpts, excerpts not yet kept
    assert kept() - before == pairs - before
