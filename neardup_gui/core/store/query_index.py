"""The indexes only ``neardup query`` reads: the SimHash block index (``simhash_blocks``: the four 16-bit
blocks of each fingerprint, with the fingerprint, a covering key) and the MinHash band index (``bands``),
written by the first query after a scan, in sorted batches of some thousand contents, not by the scan."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from ..fingerprint import minhash
from ..fingerprint.simhash import to_unsigned
from .repository import Repository

BLOCKS = 4
BLOCK_BITS = 16
BAND_THRESHOLD = 0.7
"""The persisted band index is laid out for this Jaccard threshold and above; lower ones use memory."""
BAND_KEY_MASK = 0xFFFFFFFF
_COMPLETE = "query_index_complete"  # meta key: "1" when every content has its blocks and bands
_CONTENTS_AT_ONCE = 20_000


def blocks_of(fingerprint: int) -> list[int]:
    """The four 16-bit blocks of an unsigned 64-bit fingerprint, low block first."""
    mask = (1 << BLOCK_BITS) - 1
    return [(fingerprint >> (BLOCK_BITS * i)) & mask for i in range(BLOCKS)]


class QueryIndex(Repository):
    """Near neighbours of one document among the stored contents."""

    def simhash_neighbours(self, fingerprint: int, probes: Sequence[int]) -> list[tuple[int, int]]:
        """(content id, fingerprint) of every stored content sharing a block value with the probes.

        ``probes`` are XOR masks applied to each 16-bit block (0 alone means exact block match).
        """
        if not self._ready():  # read every fingerprint instead
            arrays = self._store.contents.fingerprint_arrays()
            near = np.zeros(len(arrays), dtype=bool)
            for i, value in enumerate(blocks_of(fingerprint)):
                blocks = (arrays.simhash >> np.uint64(BLOCK_BITS * i)) & np.uint64((1 << BLOCK_BITS) - 1)
                near |= np.isin(blocks, np.array(sorted({value ^ p for p in probes}), dtype=np.uint64))
            return list(zip(arrays.content_ids[near].tolist(), arrays.simhash[near].tolist(), strict=True))
        found: dict[int, int] = {}
        for i, value in enumerate(blocks_of(fingerprint)):
            candidates = sorted({value ^ p for p in probes})
            marks = ",".join("?" * len(candidates))
            for cid, sim in self._db.execute(
                f"SELECT content_id, simhash FROM simhash_blocks WHERE block = ? AND value IN ({marks})",
                (i, *candidates),
            ):
                found[cid] = to_unsigned(sim)
        return list(found.items())

    def band_neighbours(self, keys: Sequence[int]) -> set[int]:
        """Content ids sharing at least one persisted band key with ``keys`` (one key per band)."""
        if not self._ready():  # read every fingerprint instead
            arrays = self._store.contents.fingerprint_arrays()
            bands, rows = minhash.optimal_bands(BAND_THRESHOLD)
            every = minhash.band_keys(arrays.minhash, bands, rows) & np.uint64(BAND_KEY_MASK)
            wanted = np.array([int(k) & BAND_KEY_MASK for k in keys], dtype=np.uint64)
            return set(arrays.content_ids[(every == wanted[None, :]).any(axis=1)].tolist())
        found: set[int] = set()
        for band, key in enumerate(keys):
            for (cid,) in self._db.execute(
                "SELECT content_id FROM bands WHERE band = ? AND key = ?", (band, int(key) & BAND_KEY_MASK)
            ):
                found.add(cid)
        return found

    def invalidate(self) -> None:
        """Mark the index as missing contents (new ones were written), for the next query to complete."""
        self._store.set_meta(_COMPLETE, "0")

    def _ready(self) -> bool:
        """Whether the query's index holds every content, made so now if need be; never on a read-only disk,
        where a query reads every fingerprint instead (as fast below some hundred thousand documents)."""
        if self._store.get_meta(_COMPLETE) == "1":
            return True
        if self._store.read_only:
            return False
        self.complete()
        return True

    def complete(self) -> None:
        """Add the SimHash blocks and LSH band keys of the contents that have none yet, in batches sorted
        by key (a slice of the contents each). A scan leaves them to the first query: they serve ``query``
        alone (grouping works on the fingerprints in memory), and written one content at a time as a scan
        writes, the block columns' indexes cost it half its database time and the bands 60 %. A flag the
        scan clears spares each later query the search for contents without them."""
        if self._store.get_meta(_COMPLETE) == "1":
            return
        if self._store.contents.damaged():
            raise self._store.contents.damaged_error()
        with self._store.transaction():  # looked for inside it: a scan's writer may add contents meanwhile
            if self._store.get_meta(_COMPLETE) == "1":
                return
            self._fill(
                "bands", "minhash", "INSERT OR IGNORE INTO bands (band, key, content_id) VALUES (?, ?, ?)", _band_rows
            )
            self._fill(
                "simhash_blocks",
                "simhash",
                "INSERT OR IGNORE INTO simhash_blocks (block, value, content_id, simhash) VALUES (?, ?, ?, ?)",
                _block_rows,
            )
            self._store.set_meta(_COMPLETE, "1")

    def _fill(
        self, table: str, column: str, insert: str, rows_of: Callable[[list[tuple[int, Any]]], Iterator[tuple]]
    ) -> None:
        """Add to ``table`` the rows (``insert``, made by ``rows_of`` from contents' id and ``column``) of
        the contents that have none, a slice of _CONTENTS_AT_ONCE contents at a time, each read whole before
        its rows go in: all at once, a million signatures and their 20 million band rows as Python objects
        took gigabytes."""
        missing = np.fromiter(
            (
                cid
                for (cid,) in self._db.execute(
                    f"SELECT id FROM contents WHERE {column} IS NOT NULL "
                    f"AND id NOT IN (SELECT content_id FROM {table}) ORDER BY id"
                )
            ),
            dtype=np.int64,
        )
        for start in range(0, len(missing), _CONTENTS_AT_ONCE):
            part = missing[start : start + _CONTENTS_AT_ONCE]
            contents = self._db.execute(
                f"SELECT id, {column} FROM contents WHERE {column} IS NOT NULL AND id BETWEEN ? AND ? "
                f"AND id NOT IN (SELECT content_id FROM {table})",
                (int(part[0]), int(part[-1])),
            ).fetchall()
            if contents:
                self._db.executemany(insert, rows_of(contents))


def _band_rows(contents: list[tuple[int, bytes]]) -> Iterator[tuple[int, int, int]]:
    """(band, key, content id) of (content id, MinHash signature) pairs, in the table's key order."""
    bands, rows = minhash.optimal_bands(BAND_THRESHOLD)
    ids = np.array([cid for cid, _ in contents], dtype=np.int64)
    signatures = np.frombuffer(b"".join(sig for _, sig in contents), dtype="<u4").reshape(len(contents), -1)
    keys = (minhash.band_keys(signatures, bands, rows) & np.uint64(BAND_KEY_MASK)).astype(np.int64).ravel()
    band = np.broadcast_to(np.arange(bands, dtype=np.int64), (len(contents), bands)).ravel()
    owner = np.repeat(ids, bands)
    order = np.lexsort((owner, keys, band))
    return zip(band[order].tolist(), keys[order].tolist(), owner[order].tolist(), strict=True)


def _block_rows(contents: list[tuple[int, int]]) -> Iterator[tuple[int, int, int, int]]:
    """(block, value, content id, signed fingerprint) of (content id, signed SimHash) pairs, in the
    table's key order."""
    ids = np.array([cid for cid, _ in contents], dtype=np.int64)
    signed = np.array([sim for _, sim in contents], dtype=np.int64)
    shifts = np.arange(BLOCKS, dtype=np.uint64) * np.uint64(BLOCK_BITS)
    values = ((signed.view(np.uint64)[:, None] >> shifts) & np.uint64((1 << BLOCK_BITS) - 1)).astype(np.int64)
    block = np.broadcast_to(np.arange(BLOCKS, dtype=np.int64), values.shape).ravel()
    owner = np.repeat(ids, BLOCKS)
    fingerprint = np.repeat(signed, BLOCKS)
    values = values.ravel()
    order = np.lexsort((owner, values, block))
    return zip(
        block[order].tolist(), values[order].tolist(), owner[order].tolist(), fingerprint[order].tolist(), strict=True
    )
