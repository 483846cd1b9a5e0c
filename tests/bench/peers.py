"""The peers measured beside neardup, each used as its documentation shows.

simhash 2.1.2 (the current release) multiplies a uint8 bit array by an int weight, which numpy 2
refuses for weights above 255; numpy 1 widened the array silently. PeerSimhash restores exactly that
widening and changes nothing else.
"""

from __future__ import annotations

import re

import numpy as np

_WORD = re.compile(r"\w+")


def simhash_class():
    import simhash

    class PeerSimhash(simhash.Simhash):
        @staticmethod
        def _bitarray_from_bytes(b):
            return np.unpackbits(np.frombuffer(b, dtype=">B")).astype(np.int64)

    return PeerSimhash


def datasketch_minhash(text: str, shingle: int = 3):
    """datasketch from text: regex words, 3-word shingles, MinHash(128).update_batch."""
    from datasketch import MinHash

    words = _WORD.findall(text.lower())
    shingles = [" ".join(words[i : i + shingle]).encode("utf-8") for i in range(max(1, len(words) - shingle + 1))]
    m = MinHash(num_perm=128)
    m.update_batch(shingles)
    return m


def rensa_minhash(text: str, shingle: int = 3):
    """rensa (Rust) from text, as its README deduplicates: regex words, 3-word shingles as strings,
    RMinHash(128).update, digest."""
    from rensa import RMinHash

    words = _WORD.findall(text.lower())
    shingles = [" ".join(words[i : i + shingle]) for i in range(max(1, len(words) - shingle + 1))]
    m = RMinHash(num_perm=128, seed=42)
    m.update(shingles)
    return m.digest()


def simhash_of(text: str):
    return simhash_class()(text)
