"""Characters as numbers, for the tokeniser (text.py) and the pair view's words: each code point's
class (a lookup table), polynomial hashes of code-point spans (prefix sums; the base is invertible
mod 2^64) with splitmix64's finaliser, and the process's one jieba tokenizer."""

from __future__ import annotations

import logging
import threading

import numpy as np

_U64 = np.uint64
SEPARATOR, WORD, HAN, OTHER_CJK = 0, 1, 2, 3
_HAN_RANGES = ((0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0x20000, 0x2EBEF), (0x30000, 0x3134F))
_OTHER_CJK_RANGES = ((0x3040, 0x30FF), (0x31F0, 0x31FF), (0xAC00, 0xD7AF))  # kana, Hangul: a unit per char


def han_character_class() -> str:
    """The Han ranges as the inside of a regular expression's [...] (the pair view's words split by them)."""
    return "".join(f"{chr(lo)}-{chr(hi)}" for lo, hi in _HAN_RANGES)


_BASE = 0x100000001B3  # odd, so invertible mod 2^64
_BASE_INVERSE = pow(_BASE, -1, 1 << 64)
_MIX_MUL = _U64(0x9E3779B97F4A7C15)

_table_lock = threading.Lock()
_class_table: np.ndarray | None = None
_powers: tuple[np.ndarray, np.ndarray] = (np.ones(1, _U64), np.ones(1, _U64))


def _classes() -> np.ndarray:
    """Class of every code point (SEPARATOR, WORD, HAN, OTHER_CJK); built once per process (~0.1 s)."""
    global _class_table
    with _table_lock:
        if _class_table is None:
            table = np.frombuffer(bytes(c.isalnum() for c in map(chr, range(0x110000))), dtype=np.uint8).copy()
            for lo, hi in _HAN_RANGES:
                table[lo : hi + 1] = HAN
            for lo, hi in _OTHER_CJK_RANGES:
                table[lo : hi + 1] = OTHER_CJK
            _class_table = table
        return _class_table


def _power_tables(n: int) -> tuple[np.ndarray, np.ndarray]:
    """BASE^i and BASE^-i mod 2^64 for i < n (grown on demand, kept per process)."""
    global _powers
    if len(_powers[0]) < n:
        size = max(n, 2 * len(_powers[0]), 1024)
        forward = np.ones(size, dtype=_U64)
        inverse = np.ones(size, dtype=_U64)
        np.cumprod(np.full(size - 1, _BASE, dtype=_U64), out=forward[1:])
        np.cumprod(np.full(size - 1, _BASE_INVERSE, dtype=_U64), out=inverse[1:])
        _powers = (forward, inverse)
    return _powers


def mix64(x: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser, vectorised: spreads every input bit over all output bits."""
    x = np.asarray(x, dtype=_U64).copy()
    x ^= x >> _U64(30)
    x *= _U64(0xBF58476D1CE4E5B9)
    x ^= x >> _U64(27)
    x *= _U64(0x94D049BB133111EB)
    x ^= x >> _U64(31)
    return x


def span_hashes(codepoints: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """64-bit hashes of the code-point spans [start, end), all at once."""
    if len(starts) == 0:
        return np.empty(0, dtype=_U64)
    return mix64(span_polynomials(codepoints, starts, ends))


def span_polynomials(codepoints: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """span_hashes before its finaliser: sum((c + 1) * BASE^(end - 1 - i)) plus the length times a
    constant, mod 2^64."""
    n = len(codepoints)
    forward, inverse = _power_tables(n + 1)
    prefix = np.zeros(n + 1, dtype=_U64)
    np.cumsum((codepoints.astype(_U64) + _U64(1)) * inverse[:n], out=prefix[1:])
    poly = (prefix[ends] - prefix[starts]) * forward[ends - 1]
    return poly + (ends - starts).astype(_U64) * _MIX_MUL


def _codepoints(text: str) -> np.ndarray:
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype="<u4")


_jieba_lock = threading.Lock()
_jieba_tokenizer = None


def _jieba():
    """One jieba tokenizer per process, built on first use (loading its dictionary takes ~1 s)."""
    global _jieba_tokenizer
    with _jieba_lock:
        if _jieba_tokenizer is None:
            import jieba

            jieba.setLogLevel(logging.WARNING)
            tokenizer = jieba.Tokenizer()
            tokenizer.initialize()
            _jieba_tokenizer = tokenizer
        return _jieba_tokenizer


def jieba_version() -> str:
    import jieba

    return jieba.__version__
