"""64-bit weighted SimHash (Charikar) and Hamming distance, vectorised with numpy.

Each feature's 64-bit hash votes +w on the bits it has set and -w on the others; the sign of each
bit's sum is the fingerprint's bit. Near-duplicate texts differ in few bits.
"""

from __future__ import annotations

import numpy as np

BITS = 64
# Votes are summed a window of features at a time: 2,048 features' bits as float64 are 1 MB, which
# stays in the core's cache (windows of 65,536 made a 13,000-character Chinese text's SimHash 2x slower).
_WINDOW = 2_048


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
    votes = Votes()
    votes.add(features, weights)
    return votes.result()


class Votes:
    """A SimHash whose features arrive in parts (in order, each with its weights): the same value as
    simhash() of their concatenation whatever the parts, since the votes are summed over the same
    fixed windows of ``_WINDOW`` features. Holds one window, not the features."""

    def __init__(self) -> None:
        self._votes = np.zeros(BITS, dtype=np.float64)
        self._total = 0.0
        self._features: list[np.ndarray] = []
        self._weights: list[np.ndarray] = []
        self._held = 0

    def add(self, features: np.ndarray, weights: np.ndarray) -> None:
        if len(features):
            self._features.append(np.ascontiguousarray(features, dtype="<u8"))
            self._weights.append(np.asarray(weights, dtype=np.float64))
            self._held += len(features)
            if self._held >= _WINDOW:
                self._count(final=False)

    def result(self) -> int:
        """The unsigned 64-bit SimHash; 0 if there were no features."""
        self._count(final=True)
        set_bits = 2.0 * self._votes > self._total
        return int.from_bytes(np.packbits(set_bits, bitorder="little").tobytes(), "little")

    def _count(self, *, final: bool) -> None:
        if not self._features:
            return
        features = self._features[0] if len(self._features) == 1 else np.concatenate(self._features)
        weights = self._weights[0] if len(self._weights) == 1 else np.concatenate(self._weights)
        counted = len(features) if final else len(features) - len(features) % _WINDOW
        for start in range(0, counted, _WINDOW):
            window = features[start : start + _WINDOW].view(np.uint8).reshape(-1, 8)
            bits = np.unpackbits(window, axis=1, bitorder="little")
            self._votes += weights[start : start + _WINDOW] @ bits.astype(np.float64)
            self._total += float(weights[start : start + _WINDOW].sum())
        left = slice(counted, None)
        self._features = [features[left].copy()] if counted < len(features) else []
        self._weights = [weights[left].copy()] if counted < len(weights) else []
        self._held = len(features) - counted


def hamming(a: np.ndarray | int, b: np.ndarray | int) -> np.ndarray:
    """Bitwise Hamming distance of uint64 fingerprints, elementwise (XOR then popcount)."""
    return np.bitwise_count(np.bitwise_xor(np.asarray(a, dtype=np.uint64), np.asarray(b, dtype=np.uint64)))


def to_signed(value: int) -> int:
    """An unsigned 64-bit fingerprint as the signed integer SQLite stores."""
    return value - (1 << 64) if value >= (1 << 63) else value


def to_unsigned(value: int) -> int:
    return value + (1 << 64) if value < 0 else value
