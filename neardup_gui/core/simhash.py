"""64-bit weighted SimHash (Charikar) and Hamming distance, vectorised with numpy.

Each feature's 64-bit hash votes +w on the bits it has set and -w on the others; the sign of each
bit's sum is the fingerprint's bit. Near-duplicate texts differ in few bits.
"""

from __future__ import annotations

import numpy as np

BITS = 64
_CHUNK = 65_536


def simhash(features: np.ndarray, weights: np.ndarray | None = None) -> int:
    """The unsigned 64-bit SimHash of uint64 feature hashes with optional positive weights.

    No features gives 0. Equal weights when ``weights`` is None.
    """
    features = np.asarray(features, dtype=np.uint64)
    if features.ndim != 1:
        raise ValueError("features must be a 1-d array of uint64 hashes")
    if weights is None:
        weights = np.ones(len(features), dtype=np.float64)
    else:
        weights = np.asarray(weights, dtype=np.float64)
        if weights.shape != features.shape:
            raise ValueError(f"weights {weights.shape} do not match features {features.shape}")
    if len(features) == 0:
        return 0
    little = np.ascontiguousarray(features, dtype="<u8")  # a copy only when it is not that already
    votes = np.zeros(BITS, dtype=np.float64)
    for start in range(0, len(little), _CHUNK):
        bits = np.unpackbits(little[start : start + _CHUNK].view(np.uint8).reshape(-1, 8), axis=1, bitorder="little")
        votes += weights[start : start + _CHUNK] @ bits.astype(np.float64)
    set_bits = 2.0 * votes > weights.sum()
    return int.from_bytes(np.packbits(set_bits, bitorder="little").tobytes(), "little")


def hamming(a: np.ndarray | int, b: np.ndarray | int) -> np.ndarray:
    """Bitwise Hamming distance of uint64 fingerprints, elementwise (XOR then popcount)."""
    return np.bitwise_count(np.bitwise_xor(np.asarray(a, dtype=np.uint64), np.asarray(b, dtype=np.uint64)))


def to_signed(value: int) -> int:
    """An unsigned 64-bit fingerprint as the signed integer SQLite stores."""
    return value - (1 << 64) if value >= (1 << 63) else value


def to_unsigned(value: int) -> int:
    return value + (1 << 64) if value < 0 else value
