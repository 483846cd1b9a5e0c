"""Text to features: normalise, tokenise and hash in numpy, build shingles.

Two views of a text serve two fingerprints:
- *units* (one per Han/kana/Hangul character, one per word elsewhere) make the shingles MinHash and
  exact Jaccard work on: character n-grams are what keep 上海浦东四季酒店 nearer to 浦东四季酒店 than
  to 上海浦东全季酒店;
- *words* (the same words as the units outside Han runs; in Han runs either the Han characters, or
  jieba's words when asked: ``segment_han``) are what SimHash's features are made of.
Only Han runs ever reach jieba: on Latin text it is about 100x slower than this tokeniser. jieba runs
without its HMM (new-word guessing): 22 % faster, and SimHash features gain nothing from it.

Tokenising and hashing are vectorised: the text becomes an array of code points, a lookup table
classifies each one, token spans fall out of the class changes, and every token is hashed at once by
a polynomial hash over its code points (prefix sums; the base is invertible mod 2^64) followed by
splitmix64's finaliser. Nothing depends on Python's ``hash()``, so fingerprints agree across runs,
processes and machines.
"""

from __future__ import annotations

import functools
import re
import threading
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import numpy as np

from .chars import _MIX_MUL, _U64, HAN, WORD, _classes, _codepoints, _jieba, mix64, span_hashes
from .chars import jieba_version as jieba_version
from .chars import span_polynomials as span_polynomials

_CHUNK_CHARS = 1 << 20

_table_lock = threading.Lock()
_nfkc_changes: list[int | str] | None = None
_nfkc_array_table: _NfkcArrays | None = None


def nfkc(text: str) -> str:
    """``unicodedata.normalize("NFKC", text)``, 3-5x faster on Chinese text.

    Chinese text is full of full-width punctuation (，。：) that NFKC changes, so CPython's quick check
    fails and the whole text takes the slow path (a quarter of fingerprinting a Chinese text). Here
    every character NFKC changes by itself is first replaced by its own NFKC form, from a table; that
    leaves the text's NFKC as it was (NFKD works one character at a time and NFKD(NFKC(c)) = NFKD(c)),
    and what is left usually passes the quick check. The table is applied in numpy to text within the
    BMP (str.translate looks each character up in a Python list: 4x slower); characters beyond the
    BMP are left to NFKC.
    """
    if unicodedata.is_normalized("NFKC", text):
        return text
    return unicodedata.normalize("NFKC", _nfkc_characters(text))


def _nfkc_characters(text: str) -> str:
    """``text`` with every BMP character replaced by its own NFKC form."""
    cps = _codepoints(text)
    if not len(cps) or cps.max() > 0xFFFF:
        return text.translate(_nfkc_table())
    table = _nfkc_arrays()
    lengths = table.lengths[cps]
    if (lengths == 1).all():
        out = table.data[table.offsets[cps]]
    else:  # some characters become several (… to ...): each one's output spread over its own slots
        ends = np.cumsum(lengths)
        out = table.data[np.repeat(table.offsets[cps] - (ends - lengths), lengths) + np.arange(int(ends[-1]))]
    return out.tobytes().decode("utf-32-le", "surrogatepass")


@dataclass(frozen=True, slots=True)
class _NfkcArrays:
    """The BMP's NFKC forms, character by character, as code points: code point c becomes
    data[offsets[c] : offsets[c] + lengths[c]]."""

    data: np.ndarray
    offsets: np.ndarray
    lengths: np.ndarray


def _nfkc_table() -> list[int | str]:
    """Each BMP code point, or its NFKC form where that differs (about 3,000); once per process."""
    global _nfkc_changes
    if _nfkc_changes is not None:
        return _nfkc_changes
    with _table_lock:
        if _nfkc_changes is None:
            table: list[int | str] = list(range(0x10000))
            for code in range(0x10000):
                normal = unicodedata.normalize("NFKC", chr(code))
                if normal != chr(code):
                    table[code] = normal
            _nfkc_changes = table
        return _nfkc_changes


def _nfkc_arrays() -> _NfkcArrays:
    """_nfkc_table as arrays; once per process."""
    global _nfkc_array_table
    if _nfkc_array_table is None:
        forms = [chr(v) if isinstance(v, int) else v for v in _nfkc_table()]
        lengths = np.fromiter(map(len, forms), dtype=np.int64, count=len(forms))
        data = _codepoints("".join(forms)).copy()
        _nfkc_array_table = _NfkcArrays(data, np.cumsum(lengths) - lengths, lengths)
    return _nfkc_array_table


def normalise(text: str) -> str:
    """NFKC, case-folded, every run of white space one space: what "the same text" means here."""
    if len(text) <= _CHUNK_CHARS:
        return " ".join(nfkc(text).casefold().split())
    return "".join(normalised_pieces(text))


def normalised_pieces(text: str, piece_chars: int = _CHUNK_CHARS) -> Iterator[str]:
    """normalise(text) in pieces of about ``piece_chars`` characters whose concatenation is the whole.

    A huge one-line text normalised at once costs some 12 times its size: the list of its words
    (about 50 bytes each) and casefold's buffer of 12 bytes a character. Piece by piece it costs the
    result. Pieces are cut before an ASCII or CJK character, which neither composes with nor is
    reordered against what precedes it, so NFKC and case folding give what they give on the whole.
    """
    if piece_chars < 1:
        raise ValueError(f"piece_chars must be at least 1, not {piece_chars}")
    started = space_pending = False
    start = 0
    while start < len(text):
        end = _boundary_before(text, min(len(text), start + piece_chars), start)
        folded = nfkc(text[start:end]).casefold()
        start = end
        words = " ".join(folded.split())
        if not words:
            space_pending = True  # only white space: at most one space, if words follow on both sides
            continue
        if started and (space_pending or folded[0].isspace()):
            yield " "
        yield words
        started = True
        space_pending = folded[-1].isspace()


_SEGMENT_START = re.compile("[\x00-\x7f\u4e00-\u9fff]")


def _boundary_before(text: str, end: int, start: int) -> int:
    """The nearest cut at or before ``end`` (and after ``start``) before a character that starts a new
    normalisation segment (ASCII, CJK ideographs); if none is within 256 characters, the first one
    after ``end`` (or the text's end): a piece may grow, a cut is never unsafe."""
    if end >= len(text):
        return len(text)
    for cut in range(end, max(start, end - 256), -1):
        if _SEGMENT_START.match(text, cut):
            return cut
    after = _SEGMENT_START.search(text, end)
    return after.start() if after else len(text)


@dataclass(frozen=True, slots=True)
class Tokens:
    """A normalised text's unit hashes (for shingles) and word hashes (for SimHash), in order:
    ``words`` holds the non-Han words first, then the ``han_words`` of the Han runs (their characters,
    or jieba's words if the text was tokenised with ``segment_han``)."""

    units: np.ndarray
    words: np.ndarray
    han_words: int = 0


def tokenize(norm: str, *, segment_han: bool = False) -> Tokens:
    """Hash the units and the words of a normalised text (long texts in 1 M-character pieces)."""
    pieces = [tokens for _piece, tokens in token_pieces([norm], segment_han=segment_han)]
    if len(pieces) == 1:
        return pieces[0]
    latin = [p.words[: len(p.words) - p.han_words] for p in pieces]
    han = [p.words[len(p.words) - p.han_words :] for p in pieces]
    return Tokens(
        np.concatenate([p.units for p in pieces]), np.concatenate(latin + han), sum(p.han_words for p in pieces)
    )


def token_pieces(
    norm_pieces: Iterable[str], piece_chars: int = _CHUNK_CHARS, *, segment_han: bool = False
) -> Iterator[tuple[str, Tokens]]:
    """Tokenise a normalised text given in pieces, ``piece_chars`` characters at a time: each piece is
    cut at its last space (or at ``piece_chars`` if it has none), wherever the input pieces were cut,
    so a text's tokens do not depend on how it was read. At least one piece is yielded.
    ``segment_han``: the words of Han runs are jieba's words, not their characters."""
    buffer = ""
    yielded = False
    for piece in norm_pieces:
        buffer += piece
        while len(buffer) > piece_chars:
            cut = buffer.rfind(" ", 0, piece_chars)
            end = cut + 1 if cut > 0 else piece_chars
            yield buffer[:end], _tokenize_piece(buffer[:end], segment_han)
            yielded = True
            buffer = buffer[end:]
    if buffer or not yielded:
        yield buffer, _tokenize_piece(buffer, segment_han)


def unit_hashes(norm: str) -> np.ndarray:
    """The hashes of a normalised text's units alone, what its shingles are made of (no jieba: for
    MinHash and exact Jaccard, which never use words)."""
    cps = _codepoints(norm)
    return _units(cps, _classes()[cps])[0]


def unit_places(raw: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The units of a text as read (not normalised), with where each starts and ends in it: (unit hashes,
    starts, ends), character offsets. Each character is normalised on its own, which gives the units of the
    normalised text except where NFKC composes characters (a letter and a combining accent typed apart):
    the caller checks the units against the fingerprint's."""
    folded = list(map(_folded, raw))
    lengths = np.fromiter(map(len, folded), dtype=np.int64, count=len(folded))
    origin = np.repeat(np.arange(len(raw), dtype=np.int64), lengths)
    cps = _codepoints("".join(folded))
    hashes, starts, ends = _units(cps, _classes()[cps]) if len(cps) else (np.empty(0, _U64), origin, origin)
    return hashes, origin[starts], origin[ends - 1] + 1


@functools.lru_cache(maxsize=1 << 16)
def _folded(ch: str) -> str:
    return unicodedata.normalize("NFKC", ch).casefold()


def _units(cps: np.ndarray, cls: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The unit hashes of a text's code points and where each unit starts and ends."""
    word = cls == WORD
    single = cls >= HAN
    before = np.concatenate(([False], word[:-1]))
    after = np.concatenate((word[1:], [False]))
    starts = np.flatnonzero((word & ~before) | single)
    ends = np.flatnonzero((word & ~after) | single) + 1
    return _unit_span_hashes(cps, starts, ends), starts, ends


def _unit_span_hashes(cps: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """span_hashes of the units: a unit of one BMP character (each Han character) from a table, the
    others over their own characters only. The same values; Chinese text, a unit a character, is
    hashed some 2x faster (the prefix sums ran over every character of the text)."""
    if not len(starts):
        return np.empty(0, dtype=_U64)
    first = cps[starts]
    one = (ends - starts == 1) & (first <= 0xFFFF)
    if 4 * np.count_nonzero(one) < len(starts):  # mostly words (Latin text): the prefix sums serve best
        return span_hashes(cps, starts, ends)
    hashes = np.empty(len(starts), dtype=_U64)
    hashes[one] = _single_character_hashes()[first[one]]
    many = ~one
    if many.any():
        lo, hi = starts[many], ends[many]
        lengths = hi - lo
        total = int(lengths.sum())
        if 2 * total < len(cps):  # gather the longer units' characters, so the prefix sums skip the rest
            new_hi = np.cumsum(lengths)
            new_lo = new_hi - lengths
            at = np.repeat(lo - new_lo, lengths) + np.arange(total)
            hashes[many] = span_hashes(cps[at], new_lo, new_hi)
        else:
            hashes[many] = span_hashes(cps, lo, hi)
    return hashes


_single_hashes: np.ndarray | None = None


def _single_character_hashes() -> np.ndarray:
    """span_hashes of every one-character span of the BMP, by code point (512 KB, once per process):
    a one-character span's polynomial is its code point + 1 plus the length term."""
    global _single_hashes
    if _single_hashes is None:
        _single_hashes = mix64(np.arange(1, 0x10001, dtype=_U64) + _MIX_MUL)
    return _single_hashes


def _tokenize_piece(norm: str, segment_han: bool) -> Tokens:
    cps = _codepoints(norm)
    if len(cps) == 0:
        empty = np.empty(0, dtype=_U64)
        return Tokens(empty, empty)
    cls = _classes()[cps]
    units, starts, _ends = _units(cps, cls)
    is_han = cls[starts] == HAN
    if not is_han.any():
        return Tokens(units, units)
    han = _han_word_hashes(norm, cps, cls) if segment_han else units[is_han]
    return Tokens(units, np.concatenate((units[~is_han], han)), len(han))


def _han_word_hashes(norm: str, cps: np.ndarray, cls: np.ndarray) -> np.ndarray:
    """jieba's words of every Han run (its dictionary, without HMM), hashed like any other token. Only
    schemes whose SimHash features are jieba's words ask for them; the default's are runs of Han
    characters, which measured better and cost nothing more."""
    han = cls == HAN
    edges = np.flatnonzero(np.diff(np.concatenate(([False], han, [False])).astype(np.int8))).tolist()
    bounds: list[int] = []
    for start, end in zip(edges[0::2], edges[1::2], strict=True):
        at = start
        for word in _jieba().cut(norm[start:end], HMM=False):
            bounds += (at, at + len(word))
            at += len(word)
    found = np.array(bounds, dtype=np.int64)
    return span_hashes(cps, found[0::2], found[1::2])


def units(norm: str) -> list[str]:
    """Units of a normalised text as strings (for display and tests; fingerprints use tokenize)."""
    cps_class = _classes()[_codepoints(norm)] if norm else np.empty(0, np.uint8)
    out: list[str] = []
    current = ""
    for ch, c in zip(norm, cps_class.tolist(), strict=True):
        if c == WORD:
            current += ch
            continue
        if current:
            out.append(current)
            current = ""
        if c >= HAN:
            out.append(ch)
    if current:
        out.append(current)
    return out


def words(norm: str) -> list[str]:
    """Words of a normalised text as strings: jieba's for Han runs, the units elsewhere."""
    cls = _classes()[_codepoints(norm)] if norm else np.empty(0, np.uint8)
    out = [u for u in units(norm) if _classes()[ord(u[0])] != HAN]
    han = np.flatnonzero(np.diff(np.concatenate(([False], cls == HAN, [False])).astype(np.int8)))
    for start, end in zip(han[0::2].tolist(), han[1::2].tolist(), strict=True):
        out.extend(_jieba().lcut(norm[start:end], HMM=False))
    return out


def hash_tokens(tokens: list[str]) -> np.ndarray:
    """The hashes tokenize() gives these tokens (each hashed on its own)."""
    if not tokens:
        return np.empty(0, dtype=_U64)
    lengths = np.fromiter(map(len, tokens), dtype=np.int64, count=len(tokens))
    ends = np.cumsum(lengths)
    return span_hashes(_codepoints("".join(tokens)), ends - lengths, ends)


_CHAR_SALT = _U64(0xC4A7_5A17_D00D_F00D)


def sorted_unique(values: np.ndarray) -> np.ndarray:
    """The distinct values of an integer array (flattened), sorted. Sort then mask: numpy 2.4's np.unique takes
    a hash path for plain integer arrays that measured 10-25x slower (2,000 shingles: 142 vs 13 µs;
    12 million pair codes: 12.6 vs 0.22 s)."""
    out = np.sort(values, axis=None)  # flattened, as np.unique does
    if len(out) > 1:
        out = out[np.concatenate(([True], out[1:] != out[:-1]))]
    return out


def char_shingles(norm: str, size: int) -> np.ndarray:
    """Sorted, unique 32-bit hashes of every run of ``size`` characters (spaces included): the
    shingles of short texts, where one changed word would otherwise change every word shingle."""
    if size < 1:
        raise ValueError(f"shingle size must be at least 1, not {size}")
    cps = _codepoints(norm)
    if len(cps) == 0:
        return np.empty(0, dtype=np.uint32)
    width = min(size, len(cps))
    starts = np.arange(len(cps) - width + 1)
    hashes = span_hashes(cps, starts, starts + width) ^ _CHAR_SALT
    return sorted_unique((mix64(hashes) >> _U64(32)).astype(np.uint32))


def run_hashes(hashes: np.ndarray, width: int) -> np.ndarray:
    """64-bit hashes of every run of exactly ``width`` consecutive token hashes, in order."""
    count = len(hashes) - width + 1
    if width < 1 or count < 1:
        return np.empty(0, dtype=_U64)
    acc = hashes[:count].astype(_U64, copy=True)
    for offset in range(1, width):
        acc *= _MIX_MUL
        acc += hashes[offset : offset + count]
    return mix64(acc)


def gram_hashes(hashes: np.ndarray, size: int) -> np.ndarray:
    """64-bit hashes of every run of ``size`` consecutive token hashes, in order (with repeats); a
    sequence shorter than ``size`` gives one hash of all of it."""
    return run_hashes(hashes, min(size, len(hashes)))


def shingle_ids(run_codes: np.ndarray) -> np.ndarray:
    """Sorted, unique 32-bit shingle ids of 64-bit run hashes (their high halves)."""
    return sorted_unique(shingle_id_sequence(run_codes))


def shingle_id_sequence(run_codes: np.ndarray) -> np.ndarray:
    """The 32-bit shingle id of each 64-bit run hash (its high half), in order, repeats kept."""
    return (run_codes >> _U64(32)).astype(np.uint32)


def shingle_hashes(unit_hashes: np.ndarray, size: int) -> np.ndarray:
    """Sorted, unique 32-bit hashes of every run of ``size`` consecutive units.

    A text shorter than ``size`` units gives one shingle of all its units, so that even a title has
    a fingerprint; an empty text gives none.
    """
    if size < 1:
        raise ValueError(f"shingle size must be at least 1, not {size}")
    return shingle_ids(gram_hashes(unit_hashes, size))


def merged_runs(
    codes_a: np.ndarray, values_a: np.ndarray, codes_b: np.ndarray, values_b: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Two runs of sorted integer codes, each code once in each, with a value each, as one sorted run,
    each code once (the second run's value where both hold it: written into ``values_a``, which must
    be writable). One copy of each array, no sort of the whole: merging a batch into millions is
    linear, and the codes both hold are dropped before the copy, not after it. When one run is
    empty, the other is returned itself: the runs are handed over, not kept by the caller."""
    if not len(codes_a) or not len(codes_b):
        return (codes_b, values_b) if len(codes_b) else (codes_a, values_a)
    at = np.searchsorted(codes_a, codes_b)
    held = np.minimum(at, len(codes_a) - 1)
    both = codes_a[held] == codes_b
    if both.any():
        values_a[held[both]] = values_b[both]
        new = ~both
        at, codes_b, values_b = at[new], codes_b[new], values_b[new]
    return np.insert(codes_a, at, codes_b), np.insert(values_a, at, values_b)
