"""Excerpts: every pair of texts where at least a share C of the smaller one's shingles are in the larger
one, whatever their Jaccard (a 2-page excerpt of a 100-page report has a Jaccard near 0.02, and is never
an LSH candidate), each verified exactly.

Candidates come from prefix filtering (Chaudhuri, Ganti and Kaushik, ICDE 2006; Bayardo, Ma and Srikant,
WWW 2007), which misses nothing: order every shingle by how many texts hold it (rarest first, then by its
hash), and take each text A's first p = |A| - ceil(C·|A|) + 1 shingles in that order. A text B holding
none of them shares at most |A| - p = ceil(C·|A|) - 1 shingles with A, fewer than C·|A|: so every B
that holds enough of A holds one of A's first p, and meets A in the postings of a rare shingle. The
pairs found so are then measured exactly, |A∩B| / |A|: recall 1.0 by construction, precision 1.0 by
the measurement.

The prefix is taken longer, m = p + e, to count (Bayardo et al.'s and PPJoin's count filter): a B that
holds C·|A| of A holds at least m - (|A| - ceil(C·|A|)) = e + 1 of A's first m, so a pair meeting in fewer
of them is dropped before it is measured. A few more postings are read; far fewer pairs are measured where
texts share rare passages without one being inside the other (quotations, copied paragraphs).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from ..fingerprint import minhash
from ..fingerprint.text import sorted_unique
from ..jobs import NEVER_CANCELLED, CancelToken, Progress, ProgressEvent, no_progress
from ..workers.parallel import IN_THIS_PROCESS, MappedFiles, Workers

_PAIRS_AT_ONCE = 1_000_000  # candidate pairs made at once: some 60 bytes each while they are made
_SORTED_AT_ONCE = 1 << 20  # shingles a task orders at once (some 40 bytes each while sorting)
_LONGER = 0.25  # the prefix's length beyond p, as a share of p (count filter): measured on real collections


@dataclass(frozen=True, slots=True, eq=False)
class ExcerptArrays:
    """Pairs of rows (``inner``, ``outer``) where |inner| <= |outer| (rows in order where their sizes tie)
    and ``shared`` = |inner ∩ outer| >= C·|inner|; with the sizes of both sets."""

    inner: np.ndarray
    outer: np.ndarray
    shared: np.ndarray
    inner_size: np.ndarray
    outer_size: np.ndarray

    def __len__(self) -> int:
        return len(self.inner)

    @property
    def containment(self) -> np.ndarray:
        """|inner ∩ outer| / |inner|, each pair's share of the smaller text found in the larger."""
        return self.shared / self.inner_size


def required_shared(sizes: np.ndarray, containment: float) -> np.ndarray:
    """The fewest shingles a text of each size shares with a text it is inside, at ``containment``:
    ceil(C·size), counted without a rounding error turning 0.7 × 10 into 8."""
    return np.ceil(np.asarray(sizes, dtype=np.float64) * containment - 1e-9).astype(np.int64)


def prefix_length(sizes: np.ndarray, containment: float, min_size: int) -> tuple[np.ndarray, np.ndarray]:
    """Each text's prefix (how many of its rarest shingles are looked up) and how many of them a text it is
    inside holds at least: p + e and e + 1, with p = |A| - ceil(C·|A|) + 1 and e = _LONGER·p, within |A|
    (0 and 1 for texts of fewer than ``min_size`` shingles: never looked up)."""
    sizes = np.asarray(sizes, dtype=np.int64)
    shortest = sizes - required_shared(sizes, containment) + 1
    length = np.minimum(sizes, shortest + np.floor(shortest * _LONGER).astype(np.int64))
    length[sizes < min_size] = 0
    return length, np.maximum(length - shortest + 1, 1)


@dataclass(frozen=True, slots=True)
class _Shingles:
    """The .npy files a search's tasks map: every text's shingles, one sorted run a text (``values``, from
    ``starts``), and each text's rank by size (``rank``: by size, then row); once each range of values is
    ordered by value, the ranks of the texts holding each shingle (``holders``, in value then text order)
    and, for each shingle of each text, in text order within the range, how many texts hold it (``held``)
    and where they are listed in ``holders`` (``postings``); and where each range's part of each range of
    texts begins in those two (``placed``, a row a range of values, a column each first row of ``cuts``)."""

    values: str
    starts: str
    rank: str
    holders: str
    held: str
    postings: str
    placed: str
    cuts: str


@dataclass(frozen=True, slots=True)
class _HoldersTask:
    """The shingles of values in [low, high], the ``number``-th range: their holders written from ``offset`` on."""

    files: _Shingles
    number: int
    low: int
    high: int
    offset: int


def _holders_task(task: _HoldersTask) -> None:
    """Write the holders of the task's shingles in value order, and for each of them in text order how many
    texts hold it and where they are listed (worker side)."""
    values = np.load(task.files.values, mmap_mode="r")
    starts = np.load(task.files.starts, mmap_mode="r")
    # each text's shingles of these values are a run of its sorted ones: found by bisection, text by text,
    # so a task reads its own shingles, not all of them
    first = _first_at_least(values, starts, task.low)
    ends = _first_at_least(values, starts, task.high + 1) if task.high < 0xFFFFFFFF else np.asarray(starts[1:])
    runs = ends - first
    within = np.concatenate(([0], np.cumsum(runs)))
    cuts = np.load(task.files.cuts, mmap_mode="r")
    placed = np.load(task.files.placed, mmap_mode="r+")
    placed[task.number] = task.offset + within[cuts]
    placed.flush()
    del placed
    at = np.arange(int(within[-1]), dtype=np.int64) + np.repeat(first - within[:-1], runs)
    text = np.repeat(np.arange(len(runs), dtype=np.int32), runs)
    del first, ends, runs, within
    # made and sorted in place: a task's arrays are a worker's memory (a copy each step was 60 MB more a task)
    keys = values[at].astype(np.uint64)
    del at
    keys <<= np.uint64(32)
    keys |= np.arange(len(keys), dtype=np.uint64)
    keys.sort()
    # where each shingle by value is in text order
    order = (keys & np.uint64(0xFFFFFFFF)).astype(np.int32 if len(keys) < 1 << 31 else np.int64)
    text = np.load(task.files.rank, mmap_mode="r")[text[order]]  # by value, then text: their ranks
    keys >>= np.uint64(32)
    if not len(keys):
        return
    new = np.empty(len(keys), dtype=bool)
    new[0] = True
    np.not_equal(keys[1:], keys[:-1], out=new[1:])
    del keys
    group = np.flatnonzero(new)
    del new
    count = np.diff(np.append(group, len(text)))
    # back in text order, where a text's task reads them as a run (a scatter into the file, a page a text
    # for every range, measured 2-3 s a task at 100,000 texts; this one is in memory)
    held = np.empty(len(text), dtype=np.int32)
    held[order] = np.repeat(count.astype(np.int32), count)
    listed = np.load(task.files.postings, mmap_mode="r").dtype
    postings = np.empty(len(text), dtype=listed)
    postings[order] = np.repeat((group + task.offset).astype(listed), count)
    del order, group, count
    # every write is of a run in the range's own place
    for name, written in ((task.files.holders, text), (task.files.held, held), (task.files.postings, postings)):
        out = np.load(name, mmap_mode="r+")
        out[task.offset : task.offset + len(written)] = written
        out.flush()
        del out


def _first_at_least(values: np.ndarray, starts: np.ndarray, value: int) -> np.ndarray:
    """In each text's sorted run of ``values`` (text t's from ``starts[t]`` to ``starts[t + 1]``), where the
    first of at least ``value`` is (the run's end where none is): a bisection of every run at once."""
    low = np.array(starts[:-1], dtype=np.int64)
    high = np.array(starts[1:], dtype=np.int64)
    last = max(len(values) - 1, 0)
    while True:
        open_ = low < high
        if not open_.any():
            return low
        middle = (low + high) // 2
        below = open_ & (values[np.minimum(middle, last)] < value)
        low = np.where(below, middle + 1, low)
        high = np.where(open_ & ~below, middle, high)


@dataclass(frozen=True, slots=True)
class _Index:
    """The .npy files of where each range of values starts (``lows``), the text of each rank (``by_size``),
    and of each text's prefix length and how many of its prefix a text it is inside holds (``prefix_length``)."""

    lows: str
    by_size: str
    length: str
    needed: str


@dataclass(frozen=True, slots=True)
class _PairsTask:
    """The texts [first_row, last_row), the ``number``-th range of texts: the pairs each may be an excerpt of."""

    files: _Shingles
    index: _Index
    number: int
    first_row: int
    last_row: int


def _pairs_task(task: _PairsTask) -> tuple[np.ndarray, np.ndarray]:
    """Codes (text << 32 | other) of the pairs where the other, after it by size (then row), holds as many of
    the text's prefix as one it is inside does, for the task's texts, each with |text ∩ other| measured on
    the mapped shingles (worker side)."""
    files, index = task.files, task.index

    def load(path: str) -> np.ndarray:
        return np.load(path, mmap_mode="r")

    a, held, postings = _prefixes(task)
    codes = _meetings(a, held, postings, load(files.holders), load(files.rank), load(index.by_size), load(index.needed))
    return codes, _measured(codes, load(files.values), load(files.starts))


def _measured(codes: np.ndarray, values: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """|text ∩ other| of each pair ``codes`` (text << 32 | other, a text's in a row), each text's shingles a
    sorted run of ``values`` (text t's from ``starts[t]`` to ``starts[t + 1]``): a text read once for all its
    pairs, each other merged with it (the pairs' texts are read where they lie, not from the database)."""
    shared = np.empty(len(codes), dtype=np.int64)
    text, other = (codes >> 32).tolist(), (codes & 0xFFFFFFFF).tolist()
    small = values[:0]
    for k, (x, b) in enumerate(zip(text, other, strict=True)):
        if not k or x != text[k - 1]:
            small = np.asarray(values[starts[x] : starts[x + 1]])
        shared[k] = shared_count(small, np.asarray(values[starts[b] : starts[b + 1]]))
    return shared


def _prefixes(task: _PairsTask) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(row, how many texts hold it, where they are listed) of each of the task's texts' rarest ``length``
    shingles (``prefix_length``): by how many texts hold them, then by value (one order for every text, which
    is all prefix filtering needs); those no other text holds left out (they meet none)."""
    files, first_row, last_row = task.files, task.first_row, task.last_row
    rows, held, postings = _entries(task)
    sizes = np.diff(np.load(files.starts, mmap_mode="r")[first_row : last_row + 1])
    order = _rarest_first(rows, held, last_row - first_row)
    length = np.asarray(np.load(task.index.length, mmap_mode="r")[first_row:last_row], dtype=np.int64)
    counts = np.column_stack((length, sizes - length))
    taken = order[np.repeat(np.tile([True, False], last_row - first_row), counts.ravel())]
    del order
    taken = taken[held[taken] > 1]
    return rows[taken] + np.int32(first_row), held[taken], postings[taken]


_HELD_BITS, _AT_BITS = 20, 24  # a key of (row, holders, place) in 64 bits


def _rarest_first(rows: np.ndarray, held: np.ndarray, texts: int) -> np.ndarray:
    """The order of entries (each text's in value order) by text, then by how many texts hold them (counted
    up to 2**20 - 1: an order is all prefix filtering needs, the same for every text), then by value. One sort
    of packed keys, several times quicker than a stable argsort, where the ``texts`` and entries fit."""
    capped = np.minimum(held, (1 << _HELD_BITS) - 1).astype(np.uint64)
    if len(rows) >= 1 << _AT_BITS or texts > 1 << (64 - _HELD_BITS - _AT_BITS):
        return np.argsort((rows.astype(np.uint64) << np.uint64(32)) | capped, kind="stable")
    keys = (rows.astype(np.uint64) << np.uint64(_HELD_BITS + _AT_BITS)) | (capped << np.uint64(_AT_BITS))
    keys |= np.arange(len(rows), dtype=np.uint64)
    keys.sort()
    return (keys & np.uint64((1 << _AT_BITS) - 1)).astype(np.int64)


def _entries(task: _PairsTask) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(row within the task, how many texts hold it, where they are listed) of every shingle of the task's
    texts: range of values by range, each a run the holders' round wrote (nothing is looked up), within it
    text by text in value order."""
    files = task.files
    values = np.load(files.values, mmap_mode="r")
    starts = np.load(files.starts, mmap_mode="r")[task.first_row : task.last_row + 1]
    lows = np.load(task.index.lows, mmap_mode="r")
    placed = np.load(files.placed, mmap_mode="r")
    held_file = np.load(files.held, mmap_mode="r")
    postings_file = np.load(files.postings, mmap_mode="r")
    rows, held, postings = [], [], []
    texts = np.arange(task.last_row - task.first_row, dtype=np.int32)
    begin = _first_at_least(values, starts, int(lows[0]))
    for r in range(len(lows)):
        end = _first_at_least(values, starts, int(lows[r + 1])) if r + 1 < len(lows) else np.asarray(starts[1:])
        span = slice(int(placed[r, task.number]), int(placed[r, task.number + 1]))
        rows.append(np.repeat(texts, end - begin))
        held.append(held_file[span])
        postings.append(postings_file[span])
        begin = end
    return np.concatenate(rows), np.concatenate(held), np.concatenate(postings)


def _meetings(
    a: np.ndarray,
    held: np.ndarray,
    postings: np.ndarray,
    holders: np.ndarray,
    rank: np.ndarray,
    by_size: np.ndarray,
    needed: np.ndarray,
) -> np.ndarray:
    """Codes (text << 32 | other) of the pairs the prefix entries (``a``: each text's in a row, with how many
    texts hold each entry's shingle, ``held``, whose ranks by size are listed in ``holders`` from
    ``postings``) make with the holders after the text by size (``rank``; ``by_size``, the text of each rank;
    of two alike in size, either is inside the other if one is, so one is judged), kept where the other holds
    at least ``needed`` of the text's prefix (the count filter). Whole texts are taken together, as many as
    one table counts (``_counted``), about ``_PAIRS_AT_ONCE`` pairs made at once (a text that makes more,
    alone, a part at a time)."""
    if not len(a):
        return np.empty(0, np.int64)
    ends = np.append(np.flatnonzero(a[1:] != a[:-1]) + 1, len(a))  # where each text's entries end
    made = np.cumsum(held, dtype=np.int64)[ends - 1]  # pairs made by the texts up to each
    kept: list[np.ndarray] = []
    per_table = max(_COUNTED_AT_ONCE // max(len(by_size), 1), 1)  # texts whose meetings one table counts
    text = 0
    while text < len(ends):
        done = int(made[text - 1]) if text else 0
        last = max(int(np.searchsorted(made, done + _PAIRS_AT_ONCE, "right")), text + 1)  # at least one text
        last = min(last, text + per_table)
        begin, stop = int(ends[text - 1]) if text else 0, int(ends[last - 1])
        kept.append(
            _counted(a[begin:stop], held[begin:stop], postings[begin:stop], holders, rank, needed, len(by_size))
        )
        text = last
    codes = np.concatenate(kept)
    return (codes >> 32 << 32) | by_size[codes & 0xFFFFFFFF]  # the other's row, for those kept only


_COUNTED_AT_ONCE = 1 << 22
"""Counters of (text, other) held at once where texts' meetings are counted in a table (a row a text, a
column each other by rank; 32 MB, as much as the pairs of a round took to sort): past 4 million texts, where
one text's row does not fit, they are sorted and counted."""


def _counted(
    a: np.ndarray,
    held: np.ndarray,
    postings: np.ndarray,
    holders: np.ndarray,
    rank: np.ndarray,
    needed: np.ndarray,
    texts: int,
) -> np.ndarray:
    """Codes (text << 32 | other's rank) of the pairs whole texts' prefix entries make with holders after
    them by rank that pass the count filter, in code order; ``texts``: how many there are, by rank. Counted in
    a table where it is small enough (a text's meetings, many times quicker than sorting them), else sorted."""
    rows, first = np.unique(a, return_index=True)  # the texts, in order (their entries are in a row)
    own = np.repeat(np.arange(len(rows), dtype=np.int64), np.diff(np.append(first, len(a))))
    table = len(rows) * texts <= _COUNTED_AT_ONCE
    counts = np.zeros(0, dtype=np.int64)
    parts: list[np.ndarray] = []
    made = np.cumsum(held, dtype=np.int64)
    begin = 0
    while begin < len(a):  # a text alone that makes more than _PAIRS_AT_ONCE, a part at a time
        done = int(made[begin - 1]) if begin else 0
        stop = max(int(np.searchsorted(made, done + _PAIRS_AT_ONCE, "right")), begin + 1)
        lengths = np.asarray(held[begin:stop], dtype=np.int64)
        # where each pair's other is listed: each entry's postings, a run from its own place (fewest passes
        # over these arrays, the search's hottest: half its time at 100,000 texts)
        at = np.repeat(postings[begin:stop].astype(np.int64) - (np.cumsum(lengths) - lengths), lengths)
        at += np.arange(len(at))
        if table:
            key = np.repeat(own[begin:stop] * texts, lengths)
            key += holders[at]
            found = np.bincount(key, minlength=len(rows) * texts)
            counts = counts + found if len(counts) else found
        else:
            b = holders[at].astype(np.int64)
            row = np.repeat(own[begin:stop], lengths)
            keep = b > rank[rows[row]]
            parts.append((row[keep] << 32) | b[keep])
        begin = stop
    if table:  # one pass over the table for the fewest any text needs; the rest checked on those found
        hit = np.flatnonzero(counts >= max(int(needed[rows].min()), 1))
        r, other = np.divmod(hit, texts)
        ok = (counts[hit] >= needed[rows[r]]) & (other > rank[rows[r]])  # the others after the text by size
        return (rows[r[ok]].astype(np.int64) << 32) | other[ok]
    codes, found = np.unique(np.concatenate(parts), return_counts=True)
    codes = codes[found >= needed[rows[codes >> 32]]]
    return (rows[codes >> 32].astype(np.int64) << 32) | (codes & 0xFFFFFFFF)


def _value_ranges(slices: np.ndarray, parts: int) -> list[tuple[int, int, int]]:
    """(low, high, offset): ranges of values holding about as many shingles each, in value order, with how
    many shingles the ranges before each hold; ``slices``: how many each 4,096th of the 32-bit values holds."""
    ends = np.cumsum(slices)
    cuts = sorted_unique(np.searchsorted(ends, np.arange(1, parts) * (int(ends[-1]) / parts), side="left"))
    bounds = [0, *[int(c) + 1 for c in cuts.tolist() if c + 1 < len(slices)], len(slices)]
    out = []
    for low, high in itertools.pairwise(bounds):
        offset = int(ends[low - 1]) if low else 0
        if int(ends[high - 1]) > offset:
            out.append((low << 20, (high << 20) - 1, offset))
    return out


def find_excerpts(
    sets: Sequence[np.ndarray],
    containment: float,
    *,
    min_size: int = 30,
    sizes: np.ndarray | None = None,
    workers: Workers = IN_THIS_PROCESS,
    beside: str | None = None,
    progress: Progress = no_progress,
    cancel: CancelToken = NEVER_CANCELLED,
) -> ExcerptArrays:
    """Every pair of ``sets`` (sorted arrays of distinct shingle hashes, one a text) where the smaller,
    of at least ``min_size`` shingles, has a share of at least ``containment`` of its shingles in the
    larger; the rows of a pair are indices into ``sets``, read a slice at a time in order (a sequence that
    reads them from the database then holds none of them for long) when their ``sizes`` are given.
    Candidates are found and measured by tasks on ``workers`` (their files in a folder ``beside`` the
    database, see MappedFiles)."""
    if not 0.0 < containment <= 1.0:
        raise ValueError(f"containment must be in (0, 1], not {containment}")
    if min_size < 1:
        raise ValueError(f"min_size must be at least 1, not {min_size}")
    if sizes is None:
        sizes = np.fromiter((len(s) for s in sets), dtype=np.int64, count=len(sets))
    elif len(sizes) != len(sets):
        raise ValueError(f"{len(sizes)} sizes for {len(sets)} sets")
    sizes = np.asarray(sizes, dtype=np.int64)
    progress(ProgressEvent("excerpts", 0, None))
    inner, outer, shared = candidate_pairs(
        sets, sizes, containment, min_size, workers=workers, beside=beside, progress=progress, cancel=cancel
    )
    kept = shared >= required_shared(sizes[inner], containment)
    inner, outer = inner[kept], outer[kept]
    return ExcerptArrays(inner, outer, shared[kept], sizes[inner], sizes[outer])


def shared_count(small: np.ndarray, large: np.ndarray) -> int:
    """|A∩B| of two sorted sets of distinct values, the first no larger: each of its values looked up in
    the other (|A| log |B|, an excerpt against its source) or the two merged (|A| + |B|, alike in size)."""
    if len(small) * max(int(len(large)).bit_length(), 1) < len(small) + len(large):
        at = np.searchsorted(large, small)
        return int(np.count_nonzero(large[np.minimum(at, len(large) - 1)] == small)) if len(large) else 0
    return minhash.exact_overlap(small, large)


def candidate_pairs(
    sets: Sequence[np.ndarray],
    sizes: np.ndarray,
    containment: float,
    min_size: int,
    *,
    workers: Workers = IN_THIS_PROCESS,
    beside: str | None = None,
    progress: Progress = no_progress,
    cancel: CancelToken = NEVER_CANCELLED,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(inner, outer, |inner ∩ outer|) rows, each pair once, of every pair of ``sets`` (of these ``sizes``)
    that may be an excerpt: the outer, no smaller (rows in order where the sizes tie), holds as many of the
    inner's prefix as one it is inside does; each measured exactly by the task that found it.

    Two rounds of tasks on ``workers``, which map the shingles, written to a file a part at a time: the
    holders of each range of values (one sort of its shingles gives them, and, put back in text order, how
    many texts hold each shingle and where they are listed), then each range of texts' prefixes and the pairs they make
    (whole texts: each pair is judged on one text's prefix, and of two alike in size, either one an excerpt
    must pass). The parent holds a part of the sets at a time (all of them only if it is given them all),
    what is known of each text, and the pairs found: nothing for each distinct shingle."""
    starts = np.concatenate(([0], np.cumsum(sizes)))
    total = int(starts[-1])
    length, needed = prefix_length(sizes, containment, min_size)
    # ranges of values of some 2 million shingles: a task's arrays, some 25 bytes a shingle, are a worker's
    # memory (at 100,000 texts 4 million made the search's peak); a task more costs two bisections of the texts
    parts = max(workers.count * 2, -(-total // _SORTED_AT_ONCE // 2))
    slices = np.zeros(1 << 12, dtype=np.int64)  # how many shingles each 4,096th of the 32-bit values holds

    def pieces() -> Iterator[np.ndarray]:
        slices[:] = 0
        for first, last in _row_ranges(starts, np.ones(len(sets), np.int64), _SORTED_AT_ONCE):
            piece = np.concatenate([np.asarray(s, dtype=np.uint32) for s in sets[first:last]])
            if len(piece) != starts[last] - starts[first]:
                raise ValueError(f"the sets of rows {first}-{last - 1} are not of the sizes given")
            slices[:] += np.bincount(piece >> np.uint32(20), minlength=1 << 12)
            yield piece

    rows = _row_ranges(starts, length, _SORTED_AT_ONCE)
    if not rows:
        return np.empty(0, np.int64), np.empty(0, np.int64), np.empty(0, np.int64)
    cuts = np.array([first for first, _last in rows] + [rows[-1][1]], dtype=np.int64)
    by_size = np.argsort(sizes, kind="stable").astype(np.int32)  # ranks: by size, then row
    rank = np.empty(len(sizes), dtype=np.int32)
    rank[by_size] = np.arange(len(sizes), dtype=np.int32)
    with MappedFiles(beside) as files:
        values = files.allocate("excerpt-values", np.uint32, total, pieces)
        ranges = _value_ranges(slices, parts)  # counted as the values were written
        shingles = _Shingles(
            values,
            files.write("excerpt-starts", starts),
            files.write("excerpt-rank", rank),
            files.allocate("excerpt-holders", np.int32, total),
            files.allocate("excerpt-held", np.int32, total),
            files.allocate("excerpt-postings", np.uint32 if total < 1 << 32 else np.int64, total),
            files.write("excerpt-placed", np.zeros((len(ranges), len(cuts)), dtype=np.int64)),
            files.write("excerpt-cuts", cuts),
        )
        tasks = [_HoldersTask(shingles, number, *bounds) for number, bounds in enumerate(ranges)]
        for _done in workers.map(_holders_task, tasks, cancel=cancel):
            pass
        index = _Index(
            files.write("excerpt-lows", np.array([t.low for t in tasks], dtype=np.uint32)),
            files.write("excerpt-by-size", by_size),
            files.write("excerpt-length", length),
            files.write("excerpt-needed", needed),
        )
        pair_tasks = [_PairsTask(shingles, index, number, *bounds) for number, bounds in enumerate(rows)]
        kept: list[tuple[np.ndarray, np.ndarray]] = []
        for done, (_task, found) in enumerate(workers.map(_pairs_task, pair_tasks, cancel=cancel), 1):
            kept.append(found)
            progress(ProgressEvent("excerpts", done, len(pair_tasks)))
    codes = np.concatenate([c for c, _ in kept]) if kept else np.empty(0, np.int64)
    shared = np.concatenate([m for _, m in kept]) if kept else np.empty(0, np.int64)
    order = np.argsort(codes)  # each pair once (from its inner): in order, whatever order the tasks came back in
    codes, shared = codes[order], shared[order]
    return codes >> 32, codes & 0xFFFFFFFF, shared


def _row_ranges(starts: np.ndarray, length: np.ndarray, shingles: int) -> list[tuple[int, int]]:
    """Ranges of texts of about ``shingles`` shingles each (a text alone when it has more), texts whose
    prefix is empty (too small to be an excerpt) left out at the ends."""
    looked = np.flatnonzero(length > 0)
    if not len(looked):
        return []
    first_row, end_row = int(looked[0]), int(looked[-1]) + 1
    out = []
    while first_row < end_row:
        last_row = int(np.searchsorted(starts, starts[first_row] + shingles, "right")) - 1
        last_row = min(max(last_row, first_row + 1), end_row)
        out.append((first_row, last_row))
        first_row = last_row
    return out
