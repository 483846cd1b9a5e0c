"""jieba's dictionary segmentation without HMM, re-implemented in numpy: the same words, ~10x faster.

``jieba.Tokenizer.lcut(run, HMM=False)`` costs about 3 µs per Chinese character in pure Python, some
40 times what fingerprinting English costs per character. han_word_bounds() gives exactly its words
for the Han runs of a normalised text (text.py's HAN class) by doing what jieba does, in numpy:

1. jieba first splits a string with ``re_han_default``: only U+4E00-U+9FD5 (and ASCII letters,
   digits and ``+#&._%-``, which Han runs never hold) form *blocks* that it segments; every other
   character (Extension A, U+9FD6-U+9FFF, compatibility ideographs, the supplementary planes) is not
   white space, so its ``re_skip_default`` branch yields it as a word of its own.
2. In a block, jieba's DAG gives every position k the ends i such that block[k:i+1] is a dictionary
   word of non-zero frequency, or [k] if there are none. Here the substrings are hashed (the
   polynomial of ``text.span_hashes``, grown a character at a time) and looked up in a hash table
   of the dictionary, one length at a time for all positions at once, and a substring is only
   extended while it is a prefix of a dictionary word, as jieba's scan is: ~1.6 lookups a character.
3. jieba's route, ``route[k] = max((log(FREQ.get(w) or 1) - logtotal + route[i + 1][0], i) for i in
   DAG[k])`` from the right, is computed for all blocks in lockstep, one numpy step per distance
   from a block's end, in the same float64 operations in the same order (the log-frequencies come
   from ``math.log``, as jieba's do), so the values are bit-identical and ties go, as in Python's
   tuple max, to the longer word. When few blocks are still being walked (a long block among short
   ones) a plain Python loop over the same candidates finishes them.
4. The words are read off the route from each block's start, in lockstep too. jieba's NO_HMM walk
   also glues runs of single ASCII letters and digits together; blocks of Han characters have none.

Words are identified by 64-bit hashes: two different strings (a substring of the text and a
dictionary entry) share one with probability about 2^-64 per pair, some 3e-14 per substring looked
up among the ~500,000 entries; the default dictionary itself has no collision (the tests check).
Inputs of fewer than _FEW_CHARS characters, where numpy's fixed costs exceed jieba's, and runs of
more than _GROUP_CHARS go to jieba itself.
"""

from __future__ import annotations

import itertools
import math
import re
import threading
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import chars as text  # the shared character tables and hashes (text.py builds on them too)

_U64 = np.uint64
_BLOCK_LO, _BLOCK_HI = 0x4E00, 0x9FD5  # the Han characters of jieba's re_han_default
_BLOCK_WORD = re.compile("[\u4e00-\u9fd5]+")
_GROUP_CHARS = 1 << 15  # runs are segmented in groups of at most 2x this many characters (bounds memory)
_FEW_CHARS = 256  # fewer characters than this in all runs: jieba is faster (measured crossover ~250)
_TAIL_POSITIONS = 64  # fewer prefixes than this still alive: hash all their longer lengths at once
_LOCKSTEP_MIN = 16  # fewer blocks than this still being walked: finish their routes in Python
_NEG = -math.inf


@dataclass(frozen=True, slots=True)
class Dictionary:
    """jieba's words of non-zero frequency made of U+4E00-U+9FD5 alone, as hashes: the only words
    that can match in a block. Every prefix of such a word is an entry too (weight -inf unless it is
    a word itself), so that substrings of a text are only extended while they can still become one.

    The entries' hashes (text.span_polynomials: span_hashes before its finaliser) are kept in a cuckoo
    hash table: each may sit in one of three slots (_slots), so that a lookup is three probes at
    once with no loop. np.searchsorted in a sorted array of the hashes measured 7x slower on random
    queries (220 ns each), and a sorted array with a directory of top bits, whose buckets must be
    searched in a loop, 2x slower.
    A slot holds the entry's hash and, beside it (the same cache line: a lookup reads one line per
    probe), its *value*: for a word of weight w = math.log(freq) - math.log(total) (< 0), w if the
    word is a proper prefix of a longer one, else -w; for a mere prefix of a word, -inf; for no
    entry, NaN. So ``value > -inf`` says "a word", ``value < 0`` "extends", and -|value| is w.
    Built from the default dictionary in 0.4-0.5 s (after jieba's own ~1 s load; 0.03 s of it the
    table) in 16 MB: 497,973 entries in 2^20 slots of 16 bytes.
    """

    table: np.ndarray  # uint64 per slot: an entry's hash, or one that cannot be looked up there; then 0
    values: np.ndarray  # float64 per slot (the same memory as table: a view), see above; then NaN
    slot_bits: int  # the table has 2^slot_bits slots (and one more, where lookups that fail point)
    char_values: np.ndarray  # float64 per code point U+4E00-U+9FD5: the value of the one-character entry
    max_length: int  # the longest word
    unknown_weight: float  # log(1) - log(total): the weight jieba gives a character that starts no word
    source: tuple[int, int, int]  # id, total and len(FREQ) of the tokenizer it was built from


_dictionary_lock = threading.Lock()
_dictionary: Dictionary | None = None


def load_dictionary(tokenizer: Any = None) -> Dictionary:
    """The dictionary of ``tokenizer`` (default: the process's, ``text._jieba()``), built on first
    use and kept per process (thread-safe); rebuilt if the tokenizer changed (another one, or words
    added to it). Call it where jieba is preloaded so that forked workers share it."""
    global _dictionary
    if tokenizer is None:
        tokenizer = text._jieba()
    with _dictionary_lock:
        tokenizer.check_initialized()
        source = (id(tokenizer), int(tokenizer.total), len(tokenizer.FREQ))
        if _dictionary is None or _dictionary.source != source:
            _dictionary = _build(tokenizer, source)
        return _dictionary


def _build(tokenizer: Any, source: tuple[int, int, int]) -> Dictionary:
    is_block_word = _BLOCK_WORD.fullmatch
    entries = [(w, f) for w, f in tokenizer.FREQ.items() if f > 0 and is_block_word(w)]
    words = [w for w, _ in entries]
    logtotal = math.log(tokenizer.total)
    word_weights = np.fromiter((math.log(f) - logtotal for _, f in entries), dtype=np.float64, count=len(entries))
    lengths = np.fromiter(map(len, words), dtype=np.int64, count=len(words))
    cps = text._codepoints("".join(words))
    # the prefixes of every word end at each of its characters: one entry per character of the words
    word_of = np.repeat(np.arange(len(words)), lengths)
    ends = np.arange(1, len(cps) + 1)
    starts = (np.cumsum(lengths) - lengths)[word_of]
    hashes = text.span_polynomials(cps, starts, ends)
    is_word = ends - starts == lengths[word_of]
    order = np.argsort(hashes, kind="stable")
    hashes, is_word, word_of = hashes[order], is_word[order], word_of[order]
    first = np.flatnonzero(np.concatenate(([True], hashes[1:] != hashes[:-1])))
    if np.count_nonzero(np.add.reduceat(is_word.astype(np.int64), first) > 1):
        raise RuntimeError("two dictionary words share a 64-bit hash")  # ~1e-8 for a dictionary this size
    entry_weights = np.maximum.reduceat(np.where(is_word, word_weights[word_of], _NEG), first)
    entry_extends = np.logical_or.reduceat(~is_word, first)
    keys = hashes[first]

    slot_bits = 20
    while (owner := _cuckoo(keys, slot_bits)) is None:
        slot_bits += 1
    size = 1 << slot_bits
    slots = np.zeros((size + 1, 2), dtype=_U64)
    table, values = slots[:, 0], slots.view(np.float64)[:, 1]
    # an empty slot holds a hash that cannot be looked up there: 0 (whose three slots are 0), or at 0 another
    table[0] = next(v for v in range(1, 99) if _slots(np.array([v], dtype=_U64), slot_bits).all())
    values[:] = np.nan
    used = np.flatnonzero(owner >= 0)
    table[used] = keys[owner[used]]
    entry_values = np.where(entry_extends, entry_weights, -entry_weights)  # -inf stays -inf: prefixes extend
    values[used] = entry_values[owner[used]]

    singles = np.arange(_BLOCK_LO, _BLOCK_HI + 1, dtype=np.uint32)
    one_character = np.arange(len(singles))
    slot = _lookup(table, slot_bits, text.span_polynomials(singles, one_character, one_character + 1))
    return Dictionary(table, values, slot_bits, values[slot], int(lengths.max()), math.log(1) - logtotal, source)


_SLOT_MULTIPLIERS = np.array([[0x9E3779B97F4A7C15], [0xC2B2AE3D27D4EB4F], [0x165667B19E3779F9]], dtype=_U64)


def _slots(keys: np.ndarray, slot_bits: int) -> np.ndarray:
    """The three slots each key may sit in (3 rows): the top bits of three odd multiples of it."""
    return ((keys * _SLOT_MULTIPLIERS) >> _U64(64 - slot_bits)).view(np.int64)


def _cuckoo(keys: np.ndarray, slot_bits: int) -> np.ndarray | None:
    """The entry in each of 2^slot_bits slots (-1: none), every key in one of its three _slots, or
    None if that did not work out. All keys are placed at once, round after round: the keys that
    lost a slot to another, or were pushed out of theirs, try their next one (17 rounds for the
    default dictionary at load 0.47)."""
    candidates = _slots(keys, slot_bits).T
    owner = np.full(1 << slot_bits, -1, dtype=np.intp)
    choice = np.zeros(len(keys), dtype=np.intp)
    pending = np.arange(len(keys))
    for _round in range(1000):
        if not len(pending):
            return owner
        slots = candidates[pending, choice[pending]]
        previous = owner[slots]
        owner[slots] = pending  # one of the keys that want a slot gets it
        won = owner[slots] == pending
        pending = np.concatenate((pending[~won], previous[won & (previous >= 0)]))
        choice[pending] = (choice[pending] + 1) % 3
    return None


def _lookup(table: np.ndarray, slot_bits: int, queries: np.ndarray) -> np.ndarray:
    """The slot of every query (span_polynomials), or -1 (which indexes the last, empty, slot) where it
    is not there: three probes at once."""
    slots = _slots(queries, slot_bits)
    return np.where(table[slots] == queries, slots, -1).max(axis=0)


def han_word_bounds(
    norm: str, run_starts: np.ndarray, run_ends: np.ndarray, *, codepoints: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Where jieba's words are: the absolute (start, end) positions in ``norm`` of every word that
    ``text._jieba().lcut(norm[s:e], HMM=False)`` gives for each run [s, e), runs in order and words
    in order, as two int64 arrays. ``span_hashes(codepoints, starts, ends)`` then hashes them as
    hashing the words themselves would.

    The runs must be disjoint, in increasing order, and made of Han characters (text.py's HAN class,
    as ``_han_word_hashes`` finds them); empty runs give no words. ValueError otherwise.
    Fewer than _FEW_CHARS characters in all, or a run of more than _GROUP_CHARS, go to jieba itself
    (the same words): numpy's fixed costs would exceed jieba's, or its memory grow with the run.
    """
    run_starts = np.asarray(run_starts, dtype=np.int64).ravel()
    run_ends = np.asarray(run_ends, dtype=np.int64).ravel()
    _check_runs(len(norm), run_starts, run_ends)
    keep = run_ends > run_starts
    run_starts, run_ends = run_starts[keep], run_ends[keep]
    lengths = run_ends - run_starts
    if lengths.sum() < _FEW_CHARS:
        return _jieba_bounds(norm, run_starts, run_ends)
    cps = text._codepoints(norm) if codepoints is None else codepoints  # the caller's, when it has them
    starts: list[np.ndarray] = []
    ends: list[np.ndarray] = []
    for lo, hi in _groups(lengths):
        if lengths[lo] > _GROUP_CHARS:
            s, e = _jieba_bounds(norm, run_starts[lo:hi], run_ends[lo:hi])
        else:
            s, e = _segment_runs(cps, run_starts[lo:hi], run_ends[lo:hi], load_dictionary())
        starts.append(s)
        ends.append(e)
    if not starts:
        return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64)
    return np.concatenate(starts), np.concatenate(ends)


def _check_runs(size: int, run_starts: np.ndarray, run_ends: np.ndarray) -> None:
    if len(run_starts) != len(run_ends):
        raise ValueError(f"{len(run_starts)} run starts but {len(run_ends)} run ends")
    bounds = np.column_stack((run_starts, run_ends)).ravel()  # start, end, start, end...: never decreasing
    if len(bounds) and (bounds[0] < 0 or bounds[-1] > size or (bounds[1:] < bounds[:-1]).any()):
        raise ValueError("runs must lie within the text, in increasing order, each ending at or after its start")


def _jieba_bounds(norm: str, run_starts: np.ndarray, run_ends: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """han_word_bounds by jieba itself, run by run."""
    tokenizer = text._jieba()
    classes = text._classes()
    starts: list[int] = []
    lengths: list[int] = []
    for start, end in zip(run_starts.tolist(), run_ends.tolist(), strict=True):
        run = norm[start:end]
        if (classes[text._codepoints(run)] != text.HAN).any():
            raise ValueError("runs must hold Han characters only")
        word_lengths = list(map(len, tokenizer.lcut(run, HMM=False)))
        starts.extend(itertools.accumulate(word_lengths[:-1], initial=start))
        lengths.extend(word_lengths)
    word_starts = np.array(starts, dtype=np.int64)
    return word_starts, word_starts + np.array(lengths, dtype=np.int64)


def _groups(lengths: np.ndarray) -> list[tuple[int, int]]:
    """Consecutive runs in groups of at most about _GROUP_CHARS characters; a run longer than that
    alone."""
    cut = np.cumsum(lengths + 1) // _GROUP_CHARS
    edges = {0, len(lengths), *(np.flatnonzero(np.diff(cut)) + 1).tolist()}
    long = np.flatnonzero(lengths > _GROUP_CHARS)
    edges.update(long.tolist())
    edges.update((long + 1).tolist())
    bounds = sorted(edges)
    return [(a, b) for a, b in zip(bounds[:-1], bounds[1:], strict=True) if b > a]


def _segment_runs(
    cps: np.ndarray, run_starts: np.ndarray, run_ends: np.ndarray, d: Dictionary
) -> tuple[np.ndarray, np.ndarray]:
    """The absolute bounds of jieba's words in each run, run by run.

    Layout: the runs one after another, each followed by one empty slot. jieba's blocks are the
    stretches of U+4E00-U+9FD5 in it; every other position ends a block: a slot, or a character
    that jieba yields as a word of its own. Its route value is 0 and it chooses no word, so that
    no word reaches past a block and every block's route starts from 0 at its end.
    """
    lengths = run_ends - run_starts
    offsets = np.cumsum(lengths + 1) - (lengths + 1)
    size = int(offsets[-1] + lengths[-1] + 1)
    to_absolute = np.repeat(run_starts - offsets, lengths + 1)  # absolute = layout position + to_absolute
    codes = np.zeros(size + d.max_length, dtype=np.uint32)  # U+0000 at the slots and after the end
    in_run = np.ones(size, dtype=bool)
    in_run[offsets + lengths] = False
    chars = np.flatnonzero(in_run)
    codes[chars] = cps[chars + to_absolute[chars]]
    block = (codes >= _BLOCK_LO) & (codes <= _BLOCK_HI)  # the padding after the end is no block
    singles = in_run & ~block[:size]  # jieba yields each of these as a word of its own
    if (text._classes()[codes[:size][singles]] != text.HAN).any():  # the blocks' characters are Han
        raise ValueError("runs must hold Han characters only")
    compact = np.flatnonzero(block)
    edges = np.flatnonzero(block[1:] != block[:-1]) + 1  # the layout starts with a run, ends with a slot
    if block[0]:
        edges = np.concatenate(([0], edges))
    block_starts, block_ends = edges[0::2], edges[1::2]
    block_lengths = block_ends - block_starts
    room = np.zeros(size, dtype=np.int64)
    room[compact] = np.repeat(block_ends, block_lengths) - compact

    choice = np.zeros(size, dtype=np.int64)
    if len(compact):
        candidates = _candidates(codes, compact, room, d)
        choice = _route(candidates, block_lengths, compact, room)
        on = _path(choice, block_starts)
    else:
        on = np.zeros(size, dtype=bool)
    on |= singles
    choice[singles] = 1
    word_starts = np.flatnonzero(on)
    absolute = word_starts + to_absolute[word_starts]
    return absolute, absolute + choice[word_starts]


def _candidates(ccps: np.ndarray, compact: np.ndarray, room: np.ndarray, d: Dictionary
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """jieba's DAG with its weights: every (compact position, length, weight) of a dictionary word
    in a block, plus jieba's one-character fallback (DAG[k] = [k]) where a position starts none.
    ``room[j]``: the characters from j to its block's end.

    The hash of [j, j + L) is text.span_hashes's: its polynomial, (c + 1) summed with powers of the
    base, is built by Horner's rule a character at a time as the substrings grow. A substring that
    runs past its block's end holds the U+0000 of the slot after it, which no dictionary word holds:
    it is looked up like any other and not found (but for a hash collision).
    """
    base, mix = int(text._BASE), int(text._MIX_MUL)
    code = ccps[compact].astype(np.intp) - _BLOCK_LO
    single = d.char_values[code]
    positions = [compact]  # where each looked-up substring starts,
    counts = [len(compact)]  # how many there are of each length (1, 2, ...),
    values = [single]  # and its dictionary value
    pos = compact[single < 0]
    # key = polynomial + length * MIX (see text.span_polynomials): key' = key * BASE + (c + 1) + step, mod 2^64
    key = ccps[pos].astype(_U64) + _U64(1 + mix)
    length = 1
    while len(pos) > _TAIL_POSITIONS and length < d.max_length:
        step = ((length + 1) * mix - length * mix * base + 1) % (1 << 64)
        key *= _U64(base)
        key += ccps[length:].take(pos)
        key += _U64(step)
        length += 1
        value = d.values[_lookup(d.table, d.slot_bits, key)]
        positions.append(pos)
        counts.append(len(pos))
        values.append(value)
        more = value < 0
        pos, key = pos[more], key[more]
    lengths = np.repeat(np.arange(1, len(counts) + 1), counts)
    if len(pos) and length < d.max_length:
        # a few long prefixes left: all their longer lengths that fit in their blocks at once, without
        # pruning. With the next k characters c_i: poly' = poly * B^k + B^(k-1) * sum((c_i + 1) * B^-i).
        more_chars = d.max_length - length
        forward, inverse = text._power_tables(more_chars + 1)
        poly = key - _U64(length * mix % (1 << 64))
        after = ccps[(pos + length)[:, None] + np.arange(more_chars)].astype(_U64) + _U64(1)
        sums = np.cumsum(after * inverse[:more_chars], axis=1)
        polys = poly[:, None] * forward[1 : more_chars + 1] + sums * forward[:more_chars]
        longer = np.arange(length + 1, d.max_length + 1)
        row, column = np.nonzero(longer <= room[pos][:, None])
        positions.append(pos[row])
        lengths = np.concatenate((lengths, longer[column]))
        keys = polys[row, column] + longer[column].astype(_U64) * _U64(mix)
        values.append(d.values[_lookup(d.table, d.slot_bits, keys)])
    value = np.concatenate(values)
    is_word = value > _NEG
    at = np.concatenate(positions)[is_word]
    starts_word = np.zeros(len(ccps), dtype=bool)
    starts_word[at] = True
    none = compact[~starts_word[compact]]
    return (np.concatenate((at, none)),
            np.concatenate((lengths[is_word], np.ones(len(none), dtype=np.int64))),
            np.concatenate((-np.abs(value[is_word]), np.full(len(none), d.unknown_weight))))


def _route(candidates: tuple[np.ndarray, np.ndarray, np.ndarray], lengths: np.ndarray, compact: np.ndarray,
           room: np.ndarray) -> np.ndarray:
    """jieba's calc(): the length of the word route[j] takes at every compact position (0 at the
    slots after the blocks).

    Step t computes the route at the position t characters before the end of every block at least
    t long, all at once: with the blocks sorted longest first, the first ``active_at[t]`` of them.
    Positions are numbered in that order (their *rank*: step, then block), the route is kept by
    rank and the candidates (longest word first) by the rank of their position, so that a step is
    one slice of candidates and its positions' maxima one np.maximum.reduceat into a slice of the
    route. When fewer than _LOCKSTEP_MIN blocks are left, a Python loop finishes them. The lengths
    chosen are recovered at the end by comparing each candidate's value to its position's route
    value (the same float sums, so equality is exact), the longest word winning ties as in Python's
    tuple max.
    """
    at, word_lengths, weights = candidates
    n = len(compact)
    key = lengths.max() - lengths
    order = np.argsort(key.astype(np.uint16) if key.max() < 1 << 16 else key, kind="stable")  # radix sort
    block_rank = np.empty(len(order), dtype=np.int64)
    block_rank[order] = np.arange(len(order))
    lengths_desc = lengths[order]
    active_at = np.searchsorted(-lengths_desc, -np.arange(int(lengths_desc[0]) + 2), side="right")
    first_rank = np.concatenate(([0], np.cumsum(active_at[1:])))  # the first rank of each step, from step 1
    steps = int(np.count_nonzero(active_at[1:] >= _LOCKSTEP_MIN))
    rank_of = np.full(len(room), n, dtype=np.int64)  # the slots' rank is n, where the route is 0
    rank_of[compact] = first_rank[room[compact] - 1] + np.repeat(block_rank, lengths)
    position_of = np.empty(n, dtype=np.int64)
    position_of[rank_of[compact]] = compact

    # the candidates by rank, longest word first: they come by length (then fallbacks), so reversed
    # and stably sorted by rank (a radix sort: ranks < 2^16 in a group of _GROUP_CHARS)
    ranks = rank_of[at[::-1]]
    order = np.argsort(ranks.astype(np.uint16) if n < 1 << 16 else ranks, kind="stable")
    row = ranks[order]
    length = word_lengths[::-1][order]
    cand_weight = weights[::-1][order]
    target = rank_of[position_of[row] + length]
    route = np.zeros(n + 1, dtype=np.float64)
    choice_by_rank = np.zeros(n, dtype=np.int64)
    locked = int(first_rank[steps])
    bounds = np.searchsorted(row, first_rank[: steps + 1]).tolist()  # each step's first candidate
    end = bounds[-1]
    if steps:
        first_of_row = np.flatnonzero(np.concatenate(([True], row[1:end] != row[: end - 1])))  # every row has one
        local = first_of_row - np.repeat(bounds[:-1], active_at[1 : steps + 1])
        rank_bounds = first_rank[: steps + 1].tolist()
        values = np.empty(end, dtype=np.float64)
        for t in range(1, steps + 1):
            c0, c1 = bounds[t - 1], bounds[t]
            r0, r1 = rank_bounds[t - 1], rank_bounds[t]
            step_values = values[c0:c1]
            np.add(cand_weight[c0:c1], route.take(target[c0:c1]), out=step_values)
            np.maximum.reduceat(step_values, local[r0:r1], out=route[r0:r1])
        best = np.flatnonzero(values == route[row[:end]])
        best = best[np.concatenate(([True], row[best[1:]] != row[best[:-1]]))]  # the longest word of each
        choice_by_rank[row[best]] = length[best]
    if locked < n:
        # the rest of the blocks longer than ``steps``, in the same order (a position's words end
        # nearer its block's end, so their route values are known), in Python
        targets = target[end:].tolist()
        weights_list = cand_weight[end:].tolist()
        lengths_list = length[end:].tolist()
        counts = np.bincount(row[end:] - locked, minlength=n - locked).tolist()  # every row has one at least
        known: Any = route.data  # a memoryview: Python floats, read and written in place
        chosen = []
        i = 0
        for r, count in enumerate(counts, locked):
            best_value = _NEG
            best_length = 0
            for k in range(i, i + count):  # the longest word first
                v = weights_list[k] + known[targets[k]]
                if v > best_value:
                    best_value, best_length = v, lengths_list[k]
            known[r] = best_value
            chosen.append(best_length)
            i += count
        choice_by_rank[locked:] = chosen
    choice = np.zeros(len(room), dtype=np.int64)
    choice[position_of] = choice_by_rank
    return choice


def _path(choice: np.ndarray, block_starts: np.ndarray) -> np.ndarray:
    """Where jieba's words start (a mask of the layout): from each block's start, the chosen
    lengths followed, all blocks in lockstep while many are being walked, the last few in Python."""
    jump = np.arange(len(choice)) + choice
    on = np.zeros(len(choice), dtype=bool)
    at = block_starts
    while len(at) >= _LOCKSTEP_MIN:
        on[at] = True
        at = jump[at]
        at = at[choice[at] > 0]  # the end of a block chooses nothing
    lengths: Any = choice.data  # a memoryview: Python ints
    for j in at.tolist():
        while lengths[j]:
            on[j] = True
            j += lengths[j]
    return on
