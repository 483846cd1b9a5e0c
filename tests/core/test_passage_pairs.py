"""The pairs that share passages, held as arrays (core/review/passage_pairs.py): the same pairs, in the same
order, with the same passages, as records made one by one."""

from __future__ import annotations

import random

import numpy as np
import pytest

from neardup_gui.core.match.passage_search import RunArrays
from neardup_gui.core.models import Document, Passage, SharedPassages, Status
from neardup_gui.core.review.passage_pairs import PassagePairs, passage_pairs


def _documents(rng: random.Random, contents: int) -> dict[int, Document]:
    """Each content's first document, their ids and paths in no order of the contents'."""
    ids = rng.sample(range(1, 10 * contents), contents)
    paths = rng.sample(range(100 * contents), contents)
    return {
        c: Document(ids[c], f"/d/{paths[c]:08d}.txt", 1, 0, "text", Status.OK, "", 1, c + 7) for c in range(contents)
    }


def _runs(rng: random.Random, contents: int, count: int) -> RunArrays:
    rows = []
    for _ in range(count):
        a, b = sorted(rng.sample(range(contents), 2))
        rows.append((a + 7, b + 7, rng.randrange(500), rng.randrange(500), rng.randrange(46, 300)))
    rows = sorted(set(rows))
    cols = [np.array(c, dtype=np.int64) for c in zip(*rows, strict=True)] if rows else [np.empty(0, np.int64)] * 5
    return RunArrays(*cols)


def _one_by_one(runs: RunArrays, first: dict[int, Document]) -> list[SharedPassages]:
    """What Session.shared_passages made before, record by record."""
    by_pair: dict[tuple[int, int], list[Passage]] = {}
    for a, b, start_a, start_b, length in zip(
        runs.a.tolist(),
        runs.b.tolist(),
        runs.start_a.tolist(),
        runs.start_b.tolist(),
        runs.length.tolist(),
        strict=True,
    ):
        doc_a, doc_b = first[a], first[b]
        if doc_b.path < doc_a.path:
            doc_a, doc_b, start_a, start_b = doc_b, doc_a, start_b, start_a
        by_pair.setdefault((doc_a.id, doc_b.id), []).append(Passage(start_a, start_b, length))
    docs = {d.id: d for d in first.values()}
    pairs = sorted(by_pair.items(), key=lambda item: (docs[item[0][0]].path, docs[item[0][1]].path))
    return [SharedPassages(a, b, tuple(sorted(ps, key=lambda p: (p.start_a, p.start_b)))) for (a, b), ps in pairs]


@pytest.mark.parametrize("seed", range(20))
def test_the_arrays_hold_what_records_made_one_by_one_held(seed):
    rng = random.Random(seed)
    contents = rng.choice((2, 3, 10, 60))
    documents = _documents(rng, contents)
    first = {doc.content_id: doc for doc in documents.values()}
    runs = _runs(rng, contents, rng.choice((0, 1, 5, 200)))
    found = passage_pairs(runs, first)
    expected = _one_by_one(runs, first)
    assert list(found) == expected
    assert found == expected and found == passage_pairs(runs, first)
    assert found.counts.tolist() == [len(p.passages) for p in expected]
    assert found.longest.tolist() == [p.longest for p in expected]
    rows = np.array(rng.sample(range(len(found)), len(found)), dtype=np.int64)
    assert list(found.taken(rows)) == [expected[k] for k in rows.tolist()]
    assert list(found[1::2]) == expected[1::2]
    if expected:
        assert found[-1] == expected[-1]
    with pytest.raises(IndexError):
        found[len(expected)]


def test_a_content_with_no_document_in_the_view_is_said():
    rng = random.Random(1)
    documents = _documents(rng, 3)
    first = {doc.content_id: doc for doc in documents.values()}
    runs = RunArrays(*(np.array([v], dtype=np.int64) for v in (7, 99, 0, 0, 50)))
    with pytest.raises(KeyError):
        passage_pairs(runs, first)


def test_arrays_that_do_not_fit_together_are_refused():
    one = np.zeros(1, dtype=np.int64)
    with pytest.raises(ValueError):
        PassagePairs(one, one, np.array([0, 2]), one, one, one)  # two passages said, one given
    with pytest.raises(ValueError):
        PassagePairs(one, np.zeros(2, dtype=np.int64), np.array([0, 1]), one, one, one)
    assert len(PassagePairs.empty()) == 0 and not PassagePairs.empty()
