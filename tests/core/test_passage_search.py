"""Shared passages (core/match/passage_search.py): every pair of texts that hold the same run of at least N
words, and every such run, against oracles that look at every pair: generated sequences with planted runs
(hypothesis), and passages of real licences and Chinese statutes planted in other real text, checked
against the texts' own words (not their hashes)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from neardup_gui.core.fingerprint import minhash
from neardup_gui.core.fingerprint.scheme import Scheme, fingerprint_text, unpack_order
from neardup_gui.core.fingerprint.text import normalise, units
from neardup_gui.core.jobs import CancelToken, JobCancelled
from neardup_gui.core.match import passage_search
from neardup_gui.core.match.passage_search import (
    Placed,
    RunArrays,
    find_shared_passages,
    shingles_per_passage,
    window_minima,
)
from neardup_gui.core.models import Extracted, Status
from neardup_gui.core.workers.parallel import Workers
from tests.conftest import chinese_texts, english_texts, plant_edits

Run = tuple[int, int, int, int, int]  # (row a, row b, start in a, start in b, length)


def _oracle(sequences: list[list], length: int) -> set[Run]:
    """Every maximal run of at least ``length`` equal items two sequences hold, found by comparing every
    pair position by position."""
    out = set()
    for x, y in itertools.combinations(range(len(sequences)), 2):
        a, b = sequences[x], sequences[y]
        for i in range(len(a)):
            for j in range(len(b)):
                if i and j and a[i - 1] == b[j - 1]:
                    continue  # not where a run starts
                n = 0
                while i + n < len(a) and j + n < len(b) and a[i + n] == b[j + n]:
                    n += 1
                if n >= length:
                    out.add((x, y, i, j, n))
    return out


def _found(sequences: list[np.ndarray], length: int) -> set[Run]:
    found = find_shared_passages(lambda keys: [Placed(sequences[k]) for k in keys], np.arange(len(sequences)), length)
    runs = list(
        zip(*(getattr(found, name).tolist() for name in ("a", "b", "start_a", "start_b", "length")), strict=True)
    )
    assert runs == sorted(set(runs))  # each run once, in order
    return set(runs)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 2**64 - 1), max_size=200), st.integers(1, 40))
def test_window_minima_are_the_smallest_of_each_window(values, width):
    array = np.array(values, dtype=np.uint64)
    expected = [min(values[i : i + width]) for i in range(len(values) - width + 1)]
    assert window_minima(array, width).tolist() == expected


@st.composite
def _planted(draw: st.DrawFn) -> tuple[list[np.ndarray], int]:
    """Sequences over a small vocabulary (chance runs, repeats), with runs copied between them: some as
    long as a passage, some one item shorter, some longer, some copied twice."""
    vocabulary = draw(st.integers(2, 60))
    length = draw(st.integers(1, 12))
    sequences = [draw(st.lists(st.integers(0, vocabulary), max_size=70)) for _ in range(draw(st.integers(0, 7)))]
    for _ in range(draw(st.integers(0, 6))):
        if len(sequences) < 2:
            break
        x, y = draw(st.integers(0, len(sequences) - 1)), draw(st.integers(0, len(sequences) - 1))
        size = draw(st.sampled_from([length - 1, length, length + 1, length + 9]))
        if size < 1 or len(sequences[x]) < size:
            continue
        start = draw(st.integers(0, len(sequences[x]) - size))
        at = draw(st.integers(0, len(sequences[y])))
        sequences[y] = sequences[y][:at] + sequences[x][start : start + size] + sequences[y][at:]
    return [np.array(s, dtype=np.uint32) for s in sequences], length


@settings(max_examples=400, deadline=None)
@given(_planted())
def test_every_shared_run_and_nothing_else_whatever_the_sequences(planted):
    """Winnowing misses nothing, and measuring keeps only what is there: the runs are the oracle's."""
    sequences, length = planted
    assert _found(sequences, length) == _oracle([s.tolist() for s in sequences], length)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 5), max_size=80), st.lists(st.integers(0, 5), max_size=80), st.integers(1, 10))
def test_the_runs_of_a_pair_measured_are_every_maximal_run(a, b, length):
    found = _found([np.array(a, np.uint32), np.array(b, np.uint32)], length)
    assert found == _oracle([a, b], length)


def test_pairs_made_and_measured_in_many_rounds_are_those_made_at_once(monkeypatch):
    rng = np.random.default_rng(5)
    sequences = [rng.integers(0, 8, rng.integers(10, 200)).astype(np.uint32) for _ in range(30)]
    at_once = _found(sequences, 4)
    monkeypatch.setattr(passage_search, "_PAIRS_AT_ONCE", 5)
    monkeypatch.setattr(passage_search, "_MEASURED_AT_ONCE", 3)
    monkeypatch.setattr(passage_search, "_TEXTS_AT_ONCE", 4)
    assert _found(sequences, 4) == at_once and len({(a, b) for a, b, *_ in at_once}) > 50


@pytest.mark.parametrize("max_texts", [None, 3])
def test_texts_paired_by_ranges_of_values_are_those_paired_at_once(monkeypatch, max_texts):
    """The kept values cut into many ranges, each paired by a task of its own: the same runs, and the same
    common wording (a value is never cut between two ranges)."""
    rng = np.random.default_rng(11)
    sequences = [rng.integers(0, 25, rng.integers(10, 150)).astype(np.uint32) for _ in range(40)]

    def found() -> RunArrays:
        return find_shared_passages(
            lambda keys: [Placed(sequences[k]) for k in keys], np.arange(len(sequences)), 3, max_texts=max_texts
        )

    at_once = found()
    cut = []
    monkeypatch.setattr(passage_search, "_VALUES_AT_ONCE", 6)
    monkeypatch.setattr(passage_search, "_SAMPLED", 1)
    monkeypatch.setattr(passage_search, "_TEXTS_AT_ONCE", 9)
    ranges = passage_search._value_ranges
    monkeypatch.setattr(passage_search, "_value_ranges", lambda *args: cut.append(ranges(*args)) or cut[-1])
    in_ranges = found()
    assert len(cut[0]) > 10 and cut[0][0][0] == 0 and cut[0][-1][1] == 1 << 64
    assert all(high == low for (_, high), (low, _) in itertools.pairwise(cut[0]))
    for field in ("a", "b", "start_a", "start_b", "length"):
        assert np.array_equal(getattr(at_once, field), getattr(in_ranges, field)), field
    assert len(at_once) > 30


@pytest.mark.parametrize("length", [20, 150, 300])
def test_a_long_run_is_one_run_however_far_apart_its_anchors(length):
    """A passage of thousands of values is found once, from end to end, whether its anchors are a few
    values apart or farther than the stretch compared around each at once."""
    rng = np.random.default_rng(length)
    shared = rng.integers(0, 2**32, 3000).astype(np.uint32)
    texts = [
        np.concatenate(
            (rng.integers(0, 2**32, 500).astype(np.uint32), shared, rng.integers(0, 2**32, 70).astype(np.uint32))
        ),
        np.concatenate((rng.integers(0, 2**32, 90).astype(np.uint32), shared)),
    ]
    assert _found(texts, length) == {(0, 1, 500, 90, 3000)}


@pytest.mark.parametrize("keys", [[3, 2**32 + 3], [2**40 + 1, 7], [2**31 + 1, 2**31 + 5]])
def test_texts_are_found_by_their_keys_whatever_they_are(keys):
    """Keys far past 2^31, in any order: the pair in the keys' order, the starts turned with it."""
    shared = np.arange(1000, 1100, dtype=np.uint32)
    texts = {keys[0]: Placed(shared), keys[1]: Placed(np.concatenate((np.arange(5, dtype=np.uint32), shared)))}
    found = find_shared_passages(lambda asked: [texts[k] for k in asked], np.array(keys), 20)
    low, high = sorted(keys)
    starts = {keys[0]: 0, keys[1]: 5}
    assert (found.a.tolist(), found.b.tolist(), found.start_a.tolist(), found.start_b.tolist()) == (
        [low],
        [high],
        [starts[low]],
        [starts[high]],
    )


def test_a_searched_part_is_placed_in_its_whole_text_and_a_cancel_is_heard():
    shared = np.arange(100, 140, dtype=np.uint32)
    texts = [Placed(shared, 7), Placed(np.concatenate((np.arange(10, dtype=np.uint32), shared)), 0)]
    found = find_shared_passages(lambda keys: [texts[k] for k in keys], np.arange(2), 20)
    assert (found.start_a.tolist(), found.start_b.tolist(), found.length.tolist()) == ([7], [10], [40])
    with pytest.raises(ValueError, match="at least one"):
        find_shared_passages(lambda keys: [], np.arange(0), 0)
    token = CancelToken()
    token.cancel()
    with pytest.raises(JobCancelled):
        find_shared_passages(lambda keys: [texts[k] for k in keys], np.arange(2), 20, cancel=token)


@pytest.mark.parametrize("holders", [3, 10, 11, 14])
def test_wording_more_than_so_many_texts_hold_is_common_and_not_listed(holders):
    """A passage ``holders`` texts hold (a standard clause) is common wording past 10 of them: not listed,
    and no pair is made of it; a passage two of those texts also share is listed all the same."""
    rng = np.random.default_rng(holders)
    clause, quote = rng.integers(0, 2**32, 60).astype(np.uint32), rng.integers(0, 2**32, 40).astype(np.uint32)
    texts = [rng.integers(0, 2**32, 300).astype(np.uint32) for _ in range(holders + 3)]
    for n in range(holders):
        at = int(rng.integers(0, 300))
        texts[n] = np.concatenate((texts[n][:at], clause, texts[n][at:]))
    texts[1] = np.concatenate((texts[1][:200], quote, texts[1][200:]))
    texts[holders + 1] = np.concatenate((quote, texts[holders + 1]))
    every = _found(texts, 20)
    assert every == _oracle([t.tolist() for t in texts], 20)
    found = find_shared_passages(lambda keys: [Placed(texts[k]) for k in keys], np.arange(len(texts)), 20, max_texts=10)
    listed = set(zip(found.a.tolist(), found.b.tolist(), found.length.tolist(), strict=True))
    assert (1, holders + 1, 40) in listed  # the quotation two texts share
    clause_runs = {(a, b, n) for a, b, _i, _j, n in every if n == 60}
    assert len(clause_runs) == holders * (holders - 1) // 2
    assert listed == ({(a, b, n) for a, b, _i, _j, n in every} - (clause_runs if holders > 10 else set()))


# -- real text --------------------------------------------------------------------------------------------
WORDS = 50
SHINGLE_SIZE = Scheme().shingle_size


def _real_corpus(seed: int) -> list[str]:
    """Real documents, and documents made of real text with passages of others planted in them: passages
    of 40-300 words (Han: characters), word for word or with 1-2 % edited, one or three to a document,
    among text of another document edited at 5 %."""
    rng = random.Random(seed)
    sources = list({**english_texts(), **chinese_texts()}.values())
    texts = list(sources)
    for n in range(40):
        host = plant_edits(rng.choice(sources)[: rng.randrange(2000, 8000)], 0.05, seed=n)
        for k in range(rng.choice([1, 3])):
            chars = rng.choice([40, 48, 52, 60, 150, 300])
            source = rng.choice([s for s in sources if len(s) > 6 * chars])
            chars *= 6 if source.isascii() else 1
            start = rng.randrange(0, len(source) - chars)
            passage = source[start : start + chars]
            passage = plant_edits(passage, rng.choice([0.0, 0.0, 0.01, 0.02]), seed=100 * n + k)
            cut = rng.randrange(0, len(host))
            host = host[:cut] + " " + passage + " " + host[cut:]
        texts.append(host)
    return texts


def _sequence(text: str) -> np.ndarray:
    fingerprint = fingerprint_text(b"", "txt", Extracted(Status.OK, text), Scheme())
    assert fingerprint.shingles is not None and fingerprint.sequence is not None
    return unpack_order(fingerprint.sequence, minhash.unpack_shingles(fingerprint.shingles))


def _word_oracle(texts: list[str], words: int) -> set[Run]:
    """Every maximal run of at least ``words`` units two texts share, read from their words themselves:
    each text's runs of ``words`` units as tuples of strings, looked up in a dictionary, then extended."""
    unit_lists = [units(normalise(t)) for t in texts]
    where: dict[tuple[str, ...], list[tuple[int, int]]] = {}
    for row, u in enumerate(unit_lists):
        for i in range(len(u) - words + 1):
            where.setdefault(tuple(u[i : i + words]), []).append((row, i))
    out = set()
    for places in where.values():
        for (x, i), (y, j) in itertools.combinations(places, 2):
            if x == y:
                continue
            if x > y:
                x, y, i, j = y, x, j, i
            a, b = unit_lists[x], unit_lists[y]
            while i and j and a[i - 1] == b[j - 1]:
                i, j = i - 1, j - 1
            n = 0
            while i + n < len(a) and j + n < len(b) and a[i + n] == b[j + n]:
                n += 1
            out.add((x, y, i, j, n))
    return out


@pytest.mark.parametrize("seed", [1, 2])
def test_passages_planted_in_real_text_are_found_as_their_words_say(seed):
    """Recall 1.0 and precision 1.0 against the texts' own words: every pair that shares 50 words (Han:
    characters) in a row, each such passage where it is and as long as it is; passages cut short by an
    edit are found only where 50 words are left whole."""
    texts = _real_corpus(seed)
    sequences = [_sequence(t) for t in texts]
    found = _found(sequences, shingles_per_passage(WORDS, SHINGLE_SIZE))
    in_words = {(x, y, i, j, n + SHINGLE_SIZE - 1) for x, y, i, j, n in found}
    truth = _word_oracle(texts, WORDS)
    assert in_words == truth
    sources = len(english_texts()) + len(chinese_texts())
    planted = {(x, y) for x, y, *_ in truth if y >= sources > x}
    assert len(planted) > 40  # the corpus holds what the search is for


@dataclass(frozen=True)
class _Sequences:
    """A loader a worker process can be sent: the texts by key."""

    sequences: tuple[np.ndarray, ...]

    def __call__(self, keys: Sequence[int]) -> list[Placed]:
        return [Placed(self.sequences[k]) for k in keys]


@pytest.mark.e2e
def test_the_worker_pool_finds_what_this_process_finds_and_leaves_no_file(tmp_path, monkeypatch):
    """Texts winnowed by two workers into files beside the database (a few texts a task, a few pairs a batch,
    each batch reading texts that several tasks wrote): the same passages as in this process and as the
    words say; the folder they wrote is gone afterwards."""
    texts = _real_corpus(seed=3)
    load = _Sequences(tuple(_sequence(t) for t in texts))
    per_passage = shingles_per_passage(WORDS, SHINGLE_SIZE)
    here = find_shared_passages(load, np.arange(len(texts)), per_passage)
    monkeypatch.setattr(passage_search, "_TEXTS_AT_ONCE", 7)
    monkeypatch.setattr(passage_search, "_MEASURED_AT_ONCE", 5)
    monkeypatch.setattr(passage_search, "_VALUES_AT_ONCE", 500)  # the texts paired by several tasks
    workers = Workers(2)
    pooled = find_shared_passages(
        load, np.arange(len(texts)), per_passage, run=lambda fn, tasks: workers.map(fn, tasks), beside=str(tmp_path)
    )
    for field in ("a", "b", "start_a", "start_b", "length"):
        assert np.array_equal(getattr(here, field), getattr(pooled, field)), field
    in_words = {
        (x, y, i, j, n + SHINGLE_SIZE - 1)
        for x, y, i, j, n in zip(
            *(getattr(here, f).tolist() for f in ("a", "b", "start_a", "start_b", "length")), strict=True
        )
    }
    assert in_words == _word_oracle(texts, WORDS) and len(here) > 40
    assert list(tmp_path.iterdir()) == []
