"""Text to features: normalise, split into units and words, hash them stably, build shingles.

Two views of a text serve two fingerprints:
- *units* (one per Han/kana/Hangul character, one per word elsewhere) make the shingles MinHash and
  exact Jaccard work on: character n-grams are what keep 上海浦东四季酒店 nearer to 浦东四季酒店 than
  to 上海浦东全季酒店;
- *words* (jieba words for Han runs, regex words elsewhere) are SimHash's features.
Only Han runs ever reach jieba: on Latin text it is about 100x slower than the regex.
Hashes are blake2b (never Python's ``hash()``), so fingerprints agree across runs, processes, machines.
"""

from __future__ import annotations

import hashlib
import logging
import re
import threading
import unicodedata

import numpy as np

_HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002ebef\U00030000-\U0003134f"
_OTHER_CJK = "\u3040-\u30ff\u31f0-\u31ff\uac00-\ud7af"  # kana, Hangul syllables: one unit per char
_TOKEN = re.compile(
    rf"(?P<han>[{_HAN}]+)|(?P<cjk>[{_OTHER_CJK}])|(?P<word>[^\W_{_HAN}{_OTHER_CJK}]+)"
)
_SPACE = re.compile(r"\s+")

_U64 = np.uint64
_MIX_MUL = _U64(0x9E3779B97F4A7C15)


def normalise(text: str) -> str:
    """NFKC, case-folded, every run of white space one space: what "the same text" means here."""
    return _SPACE.sub(" ", unicodedata.normalize("NFKC", text).casefold()).strip()


def units(norm: str) -> list[str]:
    """Shingle units of a normalised text: each Han/kana/Hangul character, each other word."""
    out: list[str] = []
    for m in _TOKEN.finditer(norm):
        if m.lastgroup == "han":
            out.extend(m.group())
        else:
            out.append(m.group())
    return out


def words(norm: str) -> list[str]:
    """Words of a normalised text: jieba segments the Han runs, a regex the rest; no punctuation."""
    out: list[str] = []
    han_runs: list[str] = []
    for m in _TOKEN.finditer(norm):
        if m.lastgroup == "han":
            han_runs.append(m.group())
        else:
            out.append(m.group())
    if han_runs:
        tokenizer = _jieba()
        for run in han_runs:
            out.extend(tokenizer.lcut(run, HMM=True))
    return out


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


_hash_cache: dict[str, int] = {}
_HASH_CACHE_LIMIT = 500_000


def stable_hash64(token: str) -> int:
    """A 64-bit hash of a string that is the same everywhere and always."""
    return int.from_bytes(
        hashlib.blake2b(token.encode("utf-8", "surrogatepass"), digest_size=8).digest(), "little"
    )


def hash_tokens(tokens: list[str]) -> np.ndarray:
    """Stable 64-bit hashes of tokens (uint64 array), memoised: vocabularies are Zipfian."""
    cache = _hash_cache
    if len(cache) > _HASH_CACHE_LIMIT:
        cache.clear()
    out = np.empty(len(tokens), dtype=_U64)
    for i, token in enumerate(tokens):
        h = cache.get(token)
        if h is None:
            h = cache[token] = stable_hash64(token)
        out[i] = h
    return out


def mix64(x: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser, vectorised: spreads every input bit over all output bits."""
    x = x.astype(_U64, copy=True)
    x ^= x >> _U64(30)
    x *= _U64(0xBF58476D1CE4E5B9)
    x ^= x >> _U64(27)
    x *= _U64(0x94D049BB133111EB)
    x ^= x >> _U64(31)
    return x


def shingle_hashes(unit_hashes: np.ndarray, size: int) -> np.ndarray:
    """Sorted, unique 32-bit hashes of every run of ``size`` consecutive units.

    A text shorter than ``size`` units gives one shingle of all its units, so that even a title has
    a fingerprint; an empty text gives none.
    """
    if size < 1:
        raise ValueError(f"shingle size must be at least 1, not {size}")
    n = len(unit_hashes)
    if n == 0:
        return np.empty(0, dtype=np.uint32)
    width = min(size, n)
    count = n - width + 1
    acc = unit_hashes[:count].astype(_U64, copy=True)
    for offset in range(1, width):
        acc = acc * _MIX_MUL + unit_hashes[offset : offset + count]
    return np.unique((mix64(acc) >> _U64(32)).astype(np.uint32))
