"""Shared passages: every pair of texts that hold the same run of at least N units word for word (a unit
is a word, or one Han, kana or Hangul character), found by winnowing (Schleimer, Wilkerson and Aiken,
SIGMOD 2003) and measured exactly on the texts' shingle sequences.

A run of N units is a run of M = N - k + 1 shingles (k units each). Every run of g = ceil(M / 2)
shingles in a row (a "gram") is hashed, and a run of M shingles holds w = M - g + 1 grams in a row.
Winnowing keeps, of every w grams in a row, the smallest hash: two texts that share those w grams keep
the same value there. So two texts sharing N units in a row share a kept value, whatever else they
hold: recall 1.0 by construction. A text keeps about 2 / (w + 1) of its grams; grams of half a passage
keep chance phrases ("in accordance with the") out of the candidates. The candidates (two texts that
share a kept value) are then measured: every maximal run of at least M equal shingles both hold, found
by comparing the two texts outwards from the places both keep a value (a run holds one), shingle by
shingle: precision 1.0.

Common wording (MOSS's -m): with ``max_texts``, a value kept by more texts makes no pair, and a run each
of whose windows keeps such a value is not listed.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

import numpy as np

from ..fingerprint import text
from ..fingerprint.chars import span_hashes
from ..jobs import NEVER_CANCELLED, CancelToken, Progress, ProgressEvent, no_progress
from ..workers.parallel import MappedFiles

_TEXTS_AT_ONCE = 2_000  # texts read and winnowed at once
_PAIRS_AT_ONCE = 1_000_000  # candidate pairs made at once (some 50 bytes each while they are made)
_VALUES_AT_ONCE = 2_000_000  # kept values a task pairs texts by (8 bytes each, some 30 while sorted and paired)
_SAMPLED = 256  # a winnowing task tells every 256th of its kept values, to cut their range into tasks' parts
_MEASURED_AT_ONCE = 500  # candidate pairs measured at once, their texts read together (measured: 2,000 took 90 MB more)
_PLACES = 64
"""A kept gram repeated more often than this in one text (a refrain, a page of one word) is matched at its
first 64 places there only: every other place would pair with every one of the other text's."""

_NONE = np.empty(0, dtype=np.uint64)

Load = Callable[[Sequence[int]], Sequence["Placed"]]


@dataclass(frozen=True, slots=True)
class Placed:
    """The shingles of a text that are searched, in text order, and where they start in the whole text
    (a text compared without its boilerplate is searched from its first shingle after it)."""

    shingles: np.ndarray  # uint32 shingle ids, repeats kept
    offset: int = 0


@dataclass(frozen=True, slots=True, eq=False)
class RunArrays:
    """Runs of shingles two texts both hold in a row: the texts' keys (``a`` < ``b``), where each run
    starts in each text (shingle positions in the whole text) and how many shingles it has; ordered by
    pair, then by where it starts in ``a``."""

    a: np.ndarray
    b: np.ndarray
    start_a: np.ndarray
    start_b: np.ndarray
    length: np.ndarray

    def __len__(self) -> int:
        return len(self.a)

    @staticmethod
    def empty() -> RunArrays:
        none = np.empty(0, dtype=np.int64)
        return RunArrays(none, none, none, none, none)


def shingles_per_passage(units: int, shingle_size: int) -> int:
    """M: how many shingles a run of ``units`` units makes."""
    return units - shingle_size + 1


def window_hashes(values: np.ndarray, width: int) -> np.ndarray:
    """64-bit hashes of every ``width`` values in a row, in order (by prefix sums: linear whatever the
    width)."""
    starts = np.arange(max(len(values) - width + 1, 0), dtype=np.int64)
    return span_hashes(values, starts, starts + width)


def window_minima(values: np.ndarray, width: int) -> np.ndarray:
    """The smallest of every ``width`` values in a row, in order (van Herk / Gil-Werman: each block of
    ``width`` values' running minima from both ends; linear whatever the width)."""
    if width < 1:
        raise ValueError(f"width must be at least 1, not {width}")
    count = len(values) - width + 1
    if count < 1:
        return values[:0].copy()
    if width == 1:
        return values.copy()
    pad = -len(values) % width
    blocks = np.concatenate((values, np.full(pad, np.iinfo(values.dtype).max, values.dtype))).reshape(-1, width)
    from_start = np.minimum.accumulate(blocks, axis=1).ravel()
    from_end = np.minimum.accumulate(blocks[:, ::-1], axis=1)[:, ::-1].ravel()
    return np.minimum(from_end[:count], from_start[width - 1 : width - 1 + count])


def _grams_and_minima(shingles: np.ndarray, per_passage: int) -> tuple[np.ndarray, np.ndarray]:
    """A text's gram hashes (``ceil(per_passage / 2)`` shingles each) and the value each window of
    ``per_passage`` shingles keeps (the smallest of its grams)."""
    gram = (per_passage + 1) // 2
    grams = window_hashes(shingles, gram)
    return grams, window_minima(grams, per_passage - gram + 1)


@dataclass(frozen=True, slots=True)
class WinnowTask:
    """Texts (by key; rows from ``first_row`` on) whose kept values a worker finds, reading them itself with
    ``load``, and writes to ``kept`` (a .npy): each value with its low ``drop_bits`` bits replaced by its
    text's row. The worker writes the texts and their anchors to ``path`` (a block), where the measuring tasks
    map them: each text is read and winnowed once, however many pairs it is in."""

    load: Load
    keys: tuple[int, ...]
    first_row: int
    per_passage: int
    drop_bits: int
    path: str
    kept: str


@dataclass(frozen=True, slots=True, eq=False)
class Winnowed:
    """A winnowing task's texts: how many kept values it wrote (sorted), every ``_SAMPLED``-th of them, and
    where each text's anchors and shingles lie in the task's block (``anchors``, ``shingles``: n + 1 starts
    each), with its offset."""

    kept: int
    anchors: np.ndarray
    shingles: np.ndarray
    offsets: np.ndarray
    sample: np.ndarray


def winnow_texts(task: WinnowTask) -> Winnowed:
    """Each text's kept values (distinct), written with its row, sorted; the texts and their
    anchors written to the task's block: one .npy of uint32, every anchor's value (two each), then every
    anchor's place, then the texts' shingles (a text shorter than a passage, which shares none, left out)."""
    shift = np.uint64(task.drop_bits)
    placed = task.load(task.keys)
    kept, places, values, shingles = [], [], [], []
    for row, p in enumerate(placed, task.first_row):
        at, value = _anchors(p.shingles, task.per_passage)
        # the values windows keep are the anchors' values
        kept.append((text.sorted_unique(value >> shift) << shift) | np.uint64(row))
        places.append(at.astype(np.uint32))
        values.append(value)
        shingles.append(p.shingles if len(at) else p.shingles[:0])
    anchors = np.concatenate(([0], np.cumsum([len(v) for v in values]))).astype(np.int64)
    starts = np.concatenate(([0], np.cumsum([len(s) for s in shingles]))).astype(np.int64)
    block = np.concatenate(
        [np.concatenate(values or [_NONE]).view(np.uint32), *places, *(s.astype(np.uint32) for s in shingles)]
    )
    MappedFiles.save(task.path, block)
    codes = np.sort(np.concatenate(kept or [_NONE]))  # sorted: a pairing task reads its range as a run
    MappedFiles.save(task.kept, codes)
    offsets = np.array([p.offset for p in placed], dtype=np.int64)
    return Winnowed(len(codes), anchors, starts, offsets, codes[::_SAMPLED].copy())


_LAYOUT = 7
"""A text's row in the blocks' layout: its block, how many anchors the block holds, where its anchors begin
and end, where its shingles begin and end, and its offset."""


@dataclass(frozen=True, slots=True)
class Blocks:
    """Where the winnowing tasks wrote the texts (see winnow_texts): each block's file, and the layout of
    every text by row (``layout``, a .npy of _LAYOUT numbers a row), both mapped by the measuring tasks."""

    paths: tuple[str, ...]
    layout: str

    def read(self, rows: np.ndarray) -> tuple[list[Placed], list[tuple[np.ndarray, np.ndarray]]]:
        """The texts of ``rows``, each with its anchors (places and values, by value then place)."""
        layout = np.asarray(np.load(self.layout, mmap_mode="r")[rows])
        mapped: dict[int, np.ndarray] = {}
        placed, anchors = [], []
        for block, total, lo, hi, first, last, offset in layout.tolist():
            if block not in mapped:
                mapped[block] = np.load(self.paths[block], mmap_mode="r")
            words = mapped[block]
            values = np.array(words[2 * lo : 2 * hi]).view(np.uint64)
            at = words[2 * total + lo : 2 * total + hi].astype(np.int64)
            placed.append(Placed(words[3 * total + first : 3 * total + last], offset))
            anchors.append((at, values))
        return placed, anchors


@dataclass(frozen=True, slots=True)
class MeasureTask:
    """Pairs of texts (by row) whose shared runs a worker finds, reading each text once from where the
    winnowing wrote it; a run whose every window keeps a value of ``common`` (values cut as in WinnowTask)
    is common wording."""

    texts: Blocks
    a: np.ndarray
    b: np.ndarray
    per_passage: int
    common: np.ndarray
    drop_bits: int


def measure_pairs(task: MeasureTask) -> RunArrays:
    """The shared runs of each pair of the task, in rows, less those of common wording."""
    rows = text.sorted_unique(np.concatenate((task.a, task.b)))
    texts = _Batch(*task.texts.read(rows), task.per_passage, task.common, task.drop_bits)
    ia, ib = np.searchsorted(rows, task.a), np.searchsorted(rows, task.b)
    pair, start_a, start_b, length = texts.runs(ia, ib)
    if len(pair) and len(task.common):
        rare = ~texts.common(ia[pair], start_a, length, task.common, task.drop_bits)
        pair, start_a, start_b, length = pair[rare], start_a[rare], start_b[rare], length[rare]
    return RunArrays(
        task.a[pair],
        task.b[pair],
        start_a + texts.offset[ia[pair]],
        start_b + texts.offset[ib[pair]],
        length,
    )


T = TypeVar("T")
R = TypeVar("R")
Map = Callable[[Callable[[T], R], list[T]], Iterable[tuple[T, R]]]


def in_order(fn: Callable[[T], R], tasks: list[T]) -> Iterator[tuple[T, R]]:
    """Every task here, one after another (what ``Workers.map`` does in the pool)."""
    for task in tasks:
        yield task, fn(task)


def find_shared_passages(
    load: Load,
    keys: np.ndarray,
    per_passage: int,
    *,
    max_texts: int | None = None,
    run: Map = in_order,
    beside: str | None = None,
    progress: Progress = no_progress,
    cancel: CancelToken = NEVER_CANCELLED,
) -> RunArrays:
    """Every run of at least ``per_passage`` shingles that two of the texts ``keys`` (distinct integers,
    read by ``load``) both hold in a row; with ``max_texts``, less common wording: a run each of whose
    windows keeps a value more than ``max_texts`` texts keep (a standard clause, a well-known quotation;
    MOSS's -m). ``run`` does the tasks (winnowing a block of texts, measuring a batch of pairs), in any
    order; the texts as winnowed are written to files in a folder ``beside`` the database (MappedFiles)."""
    if per_passage < 1:
        raise ValueError(f"a passage has at least one shingle, not {per_passage}")
    if max_texts is not None and max_texts < 2:
        raise ValueError(f"common wording is in more than 2 texts at least, not {max_texts}")
    keys = np.asarray(keys, dtype=np.int64)
    if len(text.sorted_unique(keys)) != len(keys):
        raise ValueError("each text is searched once: the keys are distinct")
    # each text is its row (its place in keys) in what is packed below and in the files the winnowing writes
    # (which reads it by its key)
    row_bits = max(int(len(keys) - 1).bit_length(), 1)
    progress(ProgressEvent("passages", 0, None))
    with MappedFiles(beside) as files:
        tasks = [
            WinnowTask(
                load,
                tuple(keys[k : k + _TEXTS_AT_ONCE].tolist()),
                k,
                per_passage,
                row_bits,
                files.path(f"passage-texts-{k // _TEXTS_AT_ONCE}"),
                files.path(f"passage-kept-{k // _TEXTS_AT_ONCE}"),
            )
            for k in range(0, len(keys), _TEXTS_AT_ONCE)
        ]
        layout = np.zeros((len(keys), _LAYOUT), dtype=np.int64)
        kept, samples = 0, []
        for task, winnowed in run(winnow_texts, tasks):
            cancel.raise_if_cancelled()
            block = task.first_row // _TEXTS_AT_ONCE
            kept += winnowed.kept
            samples.append(winnowed.sample)
            rows = slice(task.first_row, task.first_row + len(task.keys))
            layout[rows] = np.column_stack(
                (
                    np.full(len(task.keys), block),
                    np.full(len(task.keys), winnowed.anchors[-1]),
                    winnowed.anchors[:-1],
                    winnowed.anchors[1:],
                    winnowed.shingles[:-1],
                    winnowed.shingles[1:],
                    winnowed.offsets,
                )
            )
        # each value with its text's row in the low bits it gave up, 8 bytes an entry (a value cut to 33 bits
        # or more: a few more pairs measured, none missed but where a rare value agrees with a common one in
        # what is left of it, which 2^-33 makes negligible); the texts that keep one in common are paired by
        # tasks, each reading one range of values from every winnowing task's file: at 100,000 texts the
        # parent held 32 million of them (250 MB) and sorted them alone
        ranges = _value_ranges(samples, kept, row_bits)
        kept_files = tuple(task.kept for task in tasks)
        paired = [_PairingTask(kept_files, low, high, row_bits, max_texts) for low, high in ranges]
        codes, commons = [], []
        for _task, (pairs, common) in run(pair_texts, paired):
            cancel.raise_if_cancelled()
            codes.append(pairs)
            commons.append(common)
        pair_codes = text.sorted_unique(np.concatenate(codes)) if codes else np.empty(0, np.int64)
        del codes
        rows_a, rows_b = pair_codes >> 32, pair_codes & 0xFFFFFFFF
        del pair_codes
        common = np.sort(np.concatenate(commons)) if commons else np.empty(0, dtype=np.uint64)
        texts = Blocks(tuple(task.path for task in tasks), files.write("passage-layout", layout))
        del layout
        batches = [
            MeasureTask(
                texts,
                rows_a[k : k + _MEASURED_AT_ONCE],
                rows_b[k : k + _MEASURED_AT_ONCE],
                per_passage,
                common,
                row_bits,
            )
            for k in range(0, len(rows_a), _MEASURED_AT_ONCE)
        ]
        found: list[RunArrays] = []
        for done, (_task, runs) in enumerate(run(measure_pairs, batches)):
            cancel.raise_if_cancelled()
            progress(ProgressEvent("passages", done * _MEASURED_AT_ONCE, len(rows_a)))
            found.append(runs)
    progress(ProgressEvent("passages", len(rows_a), len(rows_a)))
    runs = concatenated(found)
    runs = replace(runs, a=keys[runs.a], b=keys[runs.b])
    first = np.minimum(runs.a, runs.b) == runs.a  # pairs in keys' order, whatever their rows' order
    turned = RunArrays(
        np.where(first, runs.a, runs.b),
        np.where(first, runs.b, runs.a),
        np.where(first, runs.start_a, runs.start_b),
        np.where(first, runs.start_b, runs.start_a),
        runs.length,
    )
    by_pair = np.lexsort((turned.start_b, turned.start_a, turned.b, turned.a))  # the tasks came back in any order
    return RunArrays(*(getattr(turned, name)[by_pair] for name in ("a", "b", "start_a", "start_b", "length")))


def _value_ranges(samples: Sequence[np.ndarray], kept: int, key_bits: int) -> list[tuple[int, int]]:
    """Ranges [low, high) of codes holding about ``_VALUES_AT_ONCE`` kept values each (kept values are the
    smallest of their windows: not spread evenly, so cut where the winnowing tasks' samples say), each
    value whole in one range (a range's bounds have no row bits), covering every code."""
    parts = max(1, -(-kept // _VALUES_AT_ONCE))
    sample = np.sort(np.concatenate(samples)) if samples else _NONE
    if parts == 1 or not len(sample):
        return [(0, 1 << 64)]
    at = sample[(np.arange(1, parts) * len(sample)) // parts] >> np.uint64(key_bits) << np.uint64(key_bits)
    bounds = [0, *[int(v) for v in text.sorted_unique(at).tolist() if v], 1 << 64]
    return list(itertools.pairwise(bounds))


@dataclass(frozen=True, slots=True)
class _PairingTask:
    """The codes in [low, high) of every winnowing task's file (``kept``, each sorted): the texts that keep
    a value in common, less common wording (see candidate_pairs)."""

    kept: tuple[str, ...]
    low: int
    high: int
    key_bits: int
    max_texts: int | None


def pair_texts(task: _PairingTask) -> tuple[np.ndarray, np.ndarray]:
    """(pair codes, a << 32 | b, sorted; the values of common wording) of the task's range (worker side)."""
    parts = []
    for path in task.kept:
        codes = np.load(path, mmap_mode="r")
        low = int(np.searchsorted(codes, np.uint64(task.low)))
        high = int(np.searchsorted(codes, np.uint64(task.high))) if task.high < 1 << 64 else len(codes)
        parts.append(np.asarray(codes[low:high]))
    codes = np.concatenate(parts) if parts else np.empty(0, dtype=np.uint64)
    del parts
    codes.sort()
    a, b, common = candidate_pairs(codes, task.key_bits, task.max_texts)
    return (a << 32) | b, common


def candidate_pairs(
    codes: np.ndarray, key_bits: int, max_texts: int | None = None, cancel: CancelToken = NEVER_CANCELLED
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(a, b) rows, a < b (below 2^31), each pair once (sorted), of texts that keep a value in common, and
    the values kept by more than ``max_texts`` texts (which make no pair): ``codes`` are each text's kept
    values shifted up by ``key_bits`` with its row in those bits, sorted."""
    shift = np.uint64(key_bits)
    if len(codes) < 2:
        none = np.empty(0, dtype=np.int64)
        return none, none, np.empty(0, dtype=np.uint64)
    new = np.empty(len(codes), dtype=bool)  # where each value begins, a part at a time (no copy of the codes)
    new[0] = True
    for k in range(1, len(codes), _PAIRS_AT_ONCE):
        end = min(k + _PAIRS_AT_ONCE, len(codes))
        np.not_equal(codes[k:end] >> shift, codes[k - 1 : end - 1] >> shift, out=new[k:end])
    shared = ~(new & np.append(new[1:], True))  # values more than one text keeps
    del new
    codes = codes[shared]
    common = np.empty(0, dtype=np.uint64)
    if max_texts is not None and len(codes):
        values = codes >> shift
        starts = np.flatnonzero(np.concatenate(([True], values[1:] != values[:-1])))
        sizes = np.diff(np.append(starts, len(values)))
        common = values[starts[sizes > max_texts]]
        codes = codes[np.repeat(sizes <= max_texts, sizes)]
        del values
    if not len(codes):
        none = np.empty(0, dtype=np.int64)
        return none, none, common
    keys = (codes & np.uint64((1 << key_bits) - 1)).astype(np.int64)
    values = codes >> shift
    del codes
    ends = np.flatnonzero(np.concatenate((values[1:] != values[:-1], [True]))) + 1
    del values
    partners = np.repeat(ends, np.diff(np.concatenate(([0], ends)))) - np.arange(len(keys)) - 1
    at = np.flatnonzero(partners)  # each entry with the entries after it in its group
    made = np.cumsum(partners[at], dtype=np.int64)
    found: list[np.ndarray] = []
    begin = 0
    while begin < len(at):
        cancel.raise_if_cancelled()
        done = int(made[begin - 1]) if begin else 0
        stop = max(int(np.searchsorted(made, done + _PAIRS_AT_ONCE, "right")), begin + 1)
        first = at[begin:stop]
        lengths = partners[first]
        within = np.arange(int(lengths.sum())) - np.repeat(np.cumsum(lengths) - lengths, lengths) + 1
        x, y = np.repeat(keys[first], lengths), keys[np.repeat(first, lengths) + within]
        found.append(text.sorted_unique((np.minimum(x, y) << 32) | np.maximum(x, y)))
        begin = stop
    pairs = text.sorted_unique(np.concatenate(found)) if found else np.empty(0, np.int64)
    return pairs >> 32, pairs & 0xFFFFFFFF, common


class _Batch:
    """The texts of a batch of pairs, laid end to end, each with its anchors: where it keeps a value (the
    smallest gram hash of some window) and which. Any run of a passage two texts share holds a window whose
    anchor both keep at the same place in the run; the run is found by comparing outwards from there. Every
    pair of the batch is measured at once, in numpy (a pair at a time, numpy's calls cost more than the
    comparing)."""

    def __init__(
        self,
        placed: Sequence[Placed],
        anchors: Sequence[tuple[np.ndarray, np.ndarray]],
        per_passage: int,
        common: np.ndarray = _NONE,
        drop_bits: int = 0,
    ) -> None:
        """``anchors``: each text's (_anchors)."""
        self.per_passage = per_passage
        self.offset = np.array([p.offset for p in placed], dtype=np.int64)
        sizes = np.array([len(p.shingles) for p in placed], dtype=np.int64)
        self.start = np.concatenate(([0], np.cumsum(sizes)))  # text t is seq[start[t] : start[t + 1]]
        self.seq = np.concatenate([p.shingles for p in placed]) if placed else np.empty(0, np.uint32)
        at_parts, value_parts, owner_parts = [], [], []
        for t, (at, values) in enumerate(anchors):
            at_parts.append(at + self.start[t])
            value_parts.append(values)
            owner_parts.append(np.full(len(at), t, dtype=np.int64))
        anchor_at = np.concatenate(at_parts) if at_parts else np.empty(0, np.int64)
        values = np.concatenate(value_parts) if value_parts else np.empty(0, np.uint64)
        owner = np.concatenate(owner_parts) if owner_parts else np.empty(0, np.int64)
        # only anchors another text of the batch keeps too can start a run (most are the text's own), and
        # only those not of common wording: a run that is not has a window inside it that keeps a rare value;
        # of a gram a text repeats (a refrain), its first _PLACES places
        # by value, then text, then place: each text's are so (a run each, which the stable sort merges)
        order = np.argsort(values, kind="stable")
        values, owner, anchor_at = values[order], owner[order], anchor_at[order]
        new_value = np.concatenate(([True], values[1:] != values[:-1]))
        value_start = np.flatnonzero(new_value)
        value_size = np.diff(np.append(value_start, len(values)))
        shared = np.repeat(value_size > 1, value_size)
        if len(common):
            cut = values >> np.uint64(drop_bits)
            shared &= common[np.minimum(np.searchsorted(common, cut), len(common) - 1)] != cut
        new_place = new_value | np.concatenate(([True], owner[1:] != owner[:-1]))
        place_start = np.flatnonzero(new_place)
        rank = np.arange(len(values)) - np.repeat(place_start, np.diff(np.append(place_start, len(values))))
        shared &= rank < _PLACES
        self.anchor_value, self.anchor_owner, self.anchor_at = values[shared], owner[shared], anchor_at[shared]

    def runs(self, ia: np.ndarray, ib: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Every maximal run of at least per_passage shingles the texts ``ia[p]`` and ``ib[p]`` both hold:
        (pair p, start in its first text, start in its second, length), starts in each text's own
        shingles."""
        none = np.empty(0, dtype=np.int64)
        # every two anchors of one value (sorted by value), kept where their texts are a pair of the batch
        values, owner = self.anchor_value, self.anchor_owner
        if not len(values):
            return none, none, none, none
        ends = np.flatnonzero(np.concatenate((values[1:] != values[:-1], [True]))) + 1
        after = np.repeat(ends, np.diff(np.concatenate(([0], ends)))) - np.arange(len(values)) - 1
        first = np.repeat(np.arange(len(values)), after)
        second = first + _within(after) + 1
        x, y = owner[first], owner[second]
        code = (np.minimum(x, y) << 32) | np.maximum(x, y)
        asked = (np.minimum(ia, ib) << 32) | np.maximum(ia, ib)
        by_code = np.argsort(asked, kind="stable")
        at = np.minimum(np.searchsorted(asked[by_code], code), len(asked) - 1)
        found = asked[by_code][at] == code
        if not found.any():
            return none, none, none, none
        pair = by_code[at[found]]
        first, second = first[found], second[found]
        turned = owner[first] != ia[pair]  # the pair's first text holds the second anchor
        i = np.where(turned, self.anchor_at[second], self.anchor_at[first])
        j = np.where(turned, self.anchor_at[first], self.anchor_at[second])
        in_a = self.start[ia[pair]], self.start[ia[pair] + 1]
        in_b = self.start[ib[pair]], self.start[ib[pair] + 1]
        seq, block = self.seq, _BLOCK
        # how far the two agree around each anchor, up to _BLOCK each way, all anchors at once
        ahead, back = _alike(seq, i, j, 1, in_a, in_b), _alike(seq, i - 1, j - 1, -1, in_a, in_b)
        begin, end, diagonal = i - back, i + ahead, i - j
        # what agrees around anchors of one pair and diagonal that overlap or touch is one run
        order = np.lexsort((begin, diagonal, pair))
        begin, end, diagonal, pair = begin[order], end[order], diagonal[order], pair[order]
        open_left, open_right = back[order] == block, ahead[order] == block
        group = np.concatenate(([0], np.cumsum((diagonal[1:] != diagonal[:-1]) | (pair[1:] != pair[:-1]))))
        reach = _running_max(end, group)
        new = np.ones(len(order), dtype=bool)
        new[1:] = (group[1:] != group[:-1]) | (begin[1:] > reach[:-1])
        firsts = np.flatnonzero(new)
        run_end = np.maximum.reduceat(end, firsts)
        run_open_right = np.logical_or.reduceat(
            open_right & (end == np.repeat(run_end, np.diff(np.append(firsts, len(end))))), firsts
        )
        run_begin, run_diagonal, run_pair = begin[firsts], diagonal[firsts], pair[firsts]
        for r in np.flatnonzero(open_left[firsts] | run_open_right).tolist():  # the block's edge, not a difference
            p, d = int(run_pair[r]), int(run_diagonal[r])
            lo_a, hi_a = int(self.start[ia[p]]), int(self.start[ia[p] + 1])
            lo_b, hi_b = int(self.start[ib[p]]), int(self.start[ib[p] + 1])
            b0, e0 = int(run_begin[r]), int(run_end[r])
            if open_left[firsts[r]]:
                b0 -= _agreeing(seq[lo_a:b0][::-1], seq[max(lo_b, 0) : b0 - d][::-1])
            if run_open_right[r]:
                e0 += _agreeing(seq[e0:hi_a], seq[e0 - d : hi_b])
            run_begin[r], run_end[r] = b0, e0
        length = run_end - run_begin
        kept = length >= self.per_passage
        run_pair, run_begin, run_diagonal, length = run_pair[kept], run_begin[kept], run_diagonal[kept], length[kept]
        start_a = run_begin - self.start[ia[run_pair]]
        start_b = run_begin - run_diagonal - self.start[ib[run_pair]]
        order = np.lexsort((start_b, start_a, run_pair))
        run_pair, start_a, start_b, length = run_pair[order], start_a[order], start_b[order], length[order]
        # anchors of one run far apart (past _BLOCK) found it each: once is enough
        again = np.zeros(len(order), dtype=bool)
        again[1:] = (run_pair[1:] == run_pair[:-1]) & (start_a[1:] == start_a[:-1]) & (start_b[1:] == start_b[:-1])
        return run_pair[~again], start_a[~again], start_b[~again], length[~again]

    def common(
        self, texts: np.ndarray, starts: np.ndarray, lengths: np.ndarray, common: np.ndarray, drop_bits: int
    ) -> np.ndarray:
        """Whether each run (of text ``texts[r]``, from ``starts[r]``, ``lengths[r]`` shingles) is common
        wording: every window wholly inside it keeps a value of ``common`` (sorted, values cut to their
        high bits)."""
        minima = {  # each window's kept value, for the texts asked about only
            t: _grams_and_minima(self.seq[self.start[t] : self.start[t + 1]], self.per_passage)[1]
            for t in text.sorted_unique(texts).tolist()
        }
        windows = lengths - self.per_passage + 1
        kept = (
            np.concatenate(
                [
                    minima[t][s : s + w]
                    for t, s, w in zip(texts.tolist(), starts.tolist(), windows.tolist(), strict=True)
                ]
            )
            if len(texts)
            else _NONE
        )
        kept >>= np.uint64(drop_bits)
        rare = common[np.minimum(np.searchsorted(common, kept), len(common) - 1)] != kept
        return ~np.logical_or.reduceat(rare, np.cumsum(windows) - windows) if len(rare) else np.ones(len(texts), bool)


def _anchors(shingles: np.ndarray, per_passage: int) -> tuple[np.ndarray, np.ndarray]:
    """Where a text keeps a value and which, by value then place: each gram that is the smallest of a window
    that holds it, that is, equal to the largest of the minima of the windows that hold it (so the values
    are those the windows keep). None for a text shorter than a passage."""
    grams, minima = _grams_and_minima(shingles, per_passage)
    if not len(minima):
        return np.empty(0, dtype=np.int64), _NONE
    width = per_passage - (per_passage + 1) // 2 + 1
    pad = np.zeros(width - 1, dtype=np.uint64)
    covering = ~window_minima(~np.concatenate((pad, minima, pad)), width)
    at = np.flatnonzero(grams == covering[: len(grams)])
    at = at[np.argsort(grams[at], kind="stable")]
    return at, grams[at]


def _within(counts: np.ndarray) -> np.ndarray:
    """0, 1, ..., c - 1 for each count c, one after another."""
    return np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)


_BLOCK = 64
"""Values compared around every anchor at once, each way: a run that reaches past them is followed one
run at a time."""


def _alike(
    seq: np.ndarray,
    i: np.ndarray,
    j: np.ndarray,
    step: int,
    bounds_a: tuple[np.ndarray, np.ndarray],
    bounds_b: tuple[np.ndarray, np.ndarray],
) -> np.ndarray:
    """For each (i, j): how many values ``seq`` has alike from i and from j on, going ``step`` (1: ahead,
    -1: back), within each one's text (``bounds``: where it starts and ends), up to _BLOCK; _ROWS at a
    time (some 40 bytes a value compared)."""
    out = np.empty(len(i), dtype=np.int64)
    offsets = np.arange(_BLOCK) * step
    last = max(len(seq) - 1, 0)
    for k in range(0, len(i), _ROWS):
        part = slice(k, k + _ROWS)
        x, y = i[part, None] + offsets, j[part, None] + offsets
        alike = (x >= bounds_a[0][part, None]) & (x < bounds_a[1][part, None])
        alike &= (y >= bounds_b[0][part, None]) & (y < bounds_b[1][part, None])
        alike &= seq[np.clip(x, 0, last)] == seq[np.clip(y, 0, last)]
        out[part] = np.where(alike.all(axis=1), _BLOCK, np.argmin(alike, axis=1))
    return out


_ROWS = 8192


def _running_max(values: np.ndarray, group: np.ndarray) -> np.ndarray:
    """The largest of ``values`` (0 or more) so far within each group (numbered 0, 1, ... in order): each
    group lifted above the ones before it, one running maximum over all."""
    lift = group * (int(values.max()) + 1 if len(values) else 1)
    return np.maximum.accumulate(values + lift) - lift


def _agreeing(a: np.ndarray, b: np.ndarray) -> int:
    """How many values two sequences have alike from their starts (compared a block at a time, the block
    growing: a mismatch a few values away costs little, a long run few steps)."""
    limit, done, block = min(len(a), len(b)), 0, 64
    while done < limit:
        end = min(limit, done + block)
        differ = np.flatnonzero(a[done:end] != b[done:end])
        if len(differ):
            return done + int(differ[0])
        done, block = end, block * 4
    return limit


def concatenated(parts: Sequence[RunArrays]) -> RunArrays:
    if not parts:
        return RunArrays.empty()
    if len(parts) == 1:
        return parts[0]
    return RunArrays(
        *(np.concatenate([getattr(p, name) for p in parts]) for name in ("a", "b", "start_a", "start_b", "length"))
    )
