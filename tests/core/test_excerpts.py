"""Excerpts (core/match/excerpts.py): every pair where a share C of the smaller text's shingles is in the
larger, against an exact oracle that measures every pair: generated sets of any sizes, and excerpts of
1-50 % of real long documents (licences, Chinese statutes) with 0-5 % of their words edited, alone and
inside other text."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from neardup_gui.core.fingerprint import minhash
from neardup_gui.core.fingerprint.scheme import Scheme, fingerprint_text
from neardup_gui.core.jobs import CancelToken, JobCancelled
from neardup_gui.core.match import excerpts
from neardup_gui.core.match.excerpts import find_excerpts, required_shared, shared_count
from neardup_gui.core.models import Extracted, Status
from neardup_gui.core.workers.parallel import Workers
from tests.conftest import chinese_texts, english_texts, plant_edits


def _oracle(sets: list[np.ndarray], containment: float, min_size: int) -> dict[tuple[int, int], int]:
    """Every pair measured: (smaller row, larger row) -> |A∩B|, where |A∩B| >= ceil(C·|A|)."""
    out = {}
    for i, j in itertools.combinations(range(len(sets)), 2):
        a, b = (i, j) if (len(sets[i]), i) <= (len(sets[j]), j) else (j, i)
        if len(sets[a]) < min_size:
            continue
        shared = len(np.intersect1d(sets[a], sets[b]))
        if shared >= required_shared(np.array([len(sets[a])]), containment)[0]:
            out[(a, b)] = shared
    return out


def _found(sets: list[np.ndarray], containment: float, min_size: int) -> dict[tuple[int, int], int]:
    found = find_excerpts(sets, containment, min_size=min_size)
    assert np.all(found.containment >= containment - 1e-12)
    return dict(zip(zip(found.inner.tolist(), found.outer.tolist(), strict=True), found.shared.tolist(), strict=True))


@st.composite
def _families(draw: st.DrawFn) -> list[np.ndarray]:
    """Texts drawn from a small vocabulary (so that common shingles are held by many), some of them cut
    out of others with a few shingles added, some empty, some equal."""
    vocabulary = draw(st.integers(2, 400))
    sets = [
        np.unique(np.array(draw(st.lists(st.integers(0, vocabulary), max_size=60)), dtype=np.uint32))
        for _ in range(draw(st.integers(0, 12)))
    ]
    for _ in range(draw(st.integers(0, 8))):
        if not sets:
            break
        source = sets[draw(st.integers(0, len(sets) - 1))]
        kept = [v for v in source.tolist() if draw(st.booleans()) or draw(st.booleans())]
        extra = draw(st.lists(st.integers(0, vocabulary * 2), max_size=10))
        sets.append(np.unique(np.array(kept + extra, dtype=np.uint32)))
    return sets


@settings(max_examples=300, deadline=None)
@given(_families(), st.sampled_from([0.05, 0.3, 0.5, 0.7, 0.8, 0.95, 1.0]), st.integers(1, 12))
def test_every_excerpt_and_nothing_else_whatever_the_sets(sets, containment, min_size):
    """Prefix filtering misses nothing: the pairs and their overlaps are the oracle's, at any C."""
    assert _found(sets, containment, min_size) == _oracle(sets, containment, min_size)


@settings(max_examples=200, deadline=None)
@given(_families(), st.sampled_from([0.3, 0.7, 0.9]), st.integers(1, 6), st.integers(1, 40))
def test_shingles_spread_over_every_value_and_tasks_of_a_few_find_the_same(sets, containment, min_size, at_once):
    """The same sets with their values spread over the 32-bit range (multiplied by an odd number: the same
    sets, other values), ordered by ranges of values and by ranges of texts a few shingles each: the tasks'
    pieces join into the oracle's answer."""
    spread = [
        np.unique((s.astype(np.uint64) * np.uint64(2_654_435_761)) % np.uint64(1 << 32)).astype(np.uint32) for s in sets
    ]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(excerpts, "_SORTED_AT_ONCE", at_once)
        assert _found(spread, containment, min_size) == _oracle(spread, containment, min_size)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 3000), max_size=50), st.lists(st.integers(0, 3000), max_size=2000))
def test_a_small_set_looked_up_in_a_large_one_shares_what_a_merge_finds(small, large):
    a, b = np.unique(np.array(small, dtype=np.uint32)), np.unique(np.array(large, dtype=np.uint32))
    if len(a) > len(b):
        a, b = b, a
    assert shared_count(a, b) == len(np.intersect1d(a, b))


@pytest.mark.parametrize("table", [True, False])
def test_pairs_made_in_many_rounds_are_the_pairs_made_at_once(monkeypatch, table):
    """Candidates are made a bounded number at a time: cut into rounds of a few pairs (a text's own pairs
    then made a part at a time), the same answer, whether their meetings are counted in a table or sorted,
    and the oracle's."""
    rng = np.random.default_rng(3)
    sets = [np.unique(rng.integers(0, 300, rng.integers(5, 120))).astype(np.uint32) for _ in range(40)]
    at_once = _found(sets, 0.3, 5)
    assert at_once == _oracle(sets, 0.3, 5) and len(at_once) > 20
    if not table:
        monkeypatch.setattr(excerpts, "_COUNTED_AT_ONCE", 0)
        assert _found(sets, 0.3, 5) == at_once
    monkeypatch.setattr(excerpts, "_PAIRS_AT_ONCE", 7)
    assert _found(sets, 0.3, 5) == at_once


@pytest.mark.parametrize("longer", [0.0, 0.3, 2.0, 100.0])
def test_the_count_filter_drops_no_excerpt_however_long_the_prefix(monkeypatch, longer):
    """A prefix looked up further (the count filter) finds the same excerpts as the shortest one, and as the
    oracle: from p shingles alone to the whole text."""
    rng = np.random.default_rng(5)
    sets = [np.unique(rng.integers(0, 400, rng.integers(5, 150))).astype(np.uint32) for _ in range(30)]
    sets += [
        np.unique(np.concatenate([s[: len(s) * 3 // 4], rng.integers(0, 900, 6)])).astype(np.uint32) for s in sets[:10]
    ]
    monkeypatch.setattr(excerpts, "_LONGER", longer)
    for containment in (0.3, 0.7, 0.9):
        assert _found(sets, containment, 5) == _oracle(sets, containment, 5)


def test_the_packed_sort_orders_entries_as_the_stable_one_does(monkeypatch):
    """Each text's entries rarest first, then in their (value) order: one sort of packed keys gives the order
    the stable sort gives, holder counts past the cap included; and where the keys would not fit (forced
    here), the stable sort is taken, the same order. The search finds the same excerpts either way."""
    rng = np.random.default_rng(11)
    rows = np.sort(rng.integers(0, 50, 5000)).astype(np.int32)
    rows = np.concatenate((rows, rows[:700]))  # a second range of values: each text's entries again, later
    held = rng.integers(1, 9, len(rows)).astype(np.int32)
    held[::97] = (1 << excerpts._HELD_BITS) + 5  # past the cap: ranked with the cap, by value among them
    capped = np.minimum(held, (1 << excerpts._HELD_BITS) - 1)
    expected = np.lexsort((np.arange(len(rows)), capped, rows))
    assert np.array_equal(excerpts._rarest_first(rows, held, 50), expected)
    assert np.array_equal(excerpts._rarest_first(rows, held, 1 << 30), expected)  # too many texts to pack
    sets = [np.unique(rng.integers(0, 400, rng.integers(5, 150))).astype(np.uint32) for _ in range(40)]
    packed = _found(sets, 0.5, 5)
    monkeypatch.setattr(excerpts, "_AT_BITS", 2)  # no task's entries fit: every one sorted the stable way
    assert _found(sets, 0.5, 5) == packed == _oracle(sets, 0.5, 5)


def test_arguments_are_checked_and_a_cancel_is_heard():
    for containment in (0.0, -0.1, 1.5):
        with pytest.raises(ValueError, match="containment"):
            find_excerpts([], containment)
    with pytest.raises(ValueError, match="min_size"):
        find_excerpts([], 0.8, min_size=0)
    assert len(find_excerpts([], 0.8)) == 0
    token = CancelToken()
    token.cancel()
    with pytest.raises(JobCancelled):
        find_excerpts([np.arange(40, dtype=np.uint32)] * 2, 0.8, cancel=token)


def _shingles(text: str) -> tuple[np.ndarray, bool]:
    """A text's shingle set, and whether it is shingled by characters (under 30 words: no excerpt of a
    text shingled by words can be found in it)."""
    fingerprint = fingerprint_text(b"", "txt", Extracted(Status.OK, text), Scheme())
    assert fingerprint.shingles is not None
    return minhash.unpack_shingles(fingerprint.shingles), fingerprint.short_text


def _real_corpus(seed: int) -> tuple[list[str], list[str]]:
    """Long real documents, and documents cut from them: excerpts of 1-50 % of one (a run of its
    paragraphs or characters), 0-5 % of their words edited, alone, after a passage of another document,
    or between two; with their names."""
    rng = random.Random(seed)
    sources = {**english_texts(), **chinese_texts()}
    names, texts = list(sources), list(sources.values())
    for n in range(160):
        name = rng.choice(list(sources))
        source = sources[name]
        share = rng.choice([0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5])
        length = max(int(len(source) * share), 60)
        start = rng.randrange(0, len(source) - length)
        rate = rng.choice([0.0, 0.01, 0.02, 0.05])
        excerpt = plant_edits(source[start : start + length], rate, seed=n)
        other = rng.choice([t for k, t in sources.items() if k != name])
        around = rng.choice(["alone", "after", "between"])
        cut = rng.randrange(0, len(other) - 400)
        if around == "after":
            excerpt = other[cut : cut + 400] + "\n\n" + excerpt
        elif around == "between":
            excerpt = other[cut : cut + 150] + "\n\n" + excerpt + "\n\n" + other[cut + 150 : cut + 300]
        names.append(f"{name}:{share}:{rate}:{around}")
        texts.append(excerpt)
    return names, texts


@pytest.mark.parametrize("containment", [0.7, 0.8, 0.9])
def test_excerpts_of_real_documents_are_found_as_the_oracle_finds_them(containment):
    """Recall 1.0 and precision 1.0 against every pair measured, at C 0.7-0.9, on excerpts of 30
    shingles or more; most of them are excerpts no Jaccard threshold would show."""
    names, texts = _real_corpus(seed=int(containment * 10))
    sets, short = zip(*(_shingles(t) for t in texts), strict=True)
    sets = list(sets)
    found, truth = _found(sets, containment, 30), _oracle(sets, containment, 30)
    assert found == truth
    # the corpus holds what the search is for: excerpts inside their source, most of them at a Jaccard no
    # near-duplicate search would go down to, and every excerpt copied alone (1 % edited at most, 30 words
    # or more) found
    sources = len(english_texts()) + len(chinese_texts())
    inside_a_source = [(a, b) for a, b in truth if b < sources <= a]
    assert len(inside_a_source) > 40
    low_jaccard = [
        (a, b) for a, b in inside_a_source if truth[(a, b)] / (len(sets[a]) + len(sets[b]) - truth[(a, b)]) < 0.2
    ]
    assert len(low_jaccard) > len(inside_a_source) / 3
    source_of = {name: row for row, name in enumerate(names[:sources])}
    copied = [
        (row, source_of[name.split(":")[0]])
        for row, name in enumerate(names[sources:], start=sources)
        if name.endswith(":alone") and float(name.split(":")[2]) <= 0.01 and not short[row]
    ]
    assert len(copied) > 10 and all(pair in found for pair in copied)


@pytest.mark.e2e
def test_the_worker_pool_finds_what_this_process_finds_and_leaves_no_file(tmp_path):
    """The tasks run by two workers (files beside the database's folder): the same excerpts as in this process,
    and as the oracle; the folder they mapped is gone afterwards."""
    _names, texts = _real_corpus(seed=8)
    sets = [_shingles(t)[0] for t in texts]
    here = find_excerpts(sets, 0.8)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(excerpts, "_SORTED_AT_ONCE", 20_000)  # many tasks of each kind
        pooled = find_excerpts(sets, 0.8, workers=Workers(2), beside=str(tmp_path))
    for field in ("inner", "outer", "shared", "inner_size", "outer_size"):
        assert np.array_equal(getattr(here, field), getattr(pooled, field)), field
    truth = _oracle(sets, 0.8, 30)
    assert len(here) == len(truth) > 40
    assert list(tmp_path.iterdir()) == []
