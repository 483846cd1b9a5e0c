"""The ``contents`` table: one row per distinct byte content (keyed by its hash) with its fingerprints,
read whole into arrays for grouping, one by one for a query, and as shingle sets for exact overlaps."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import numpy as np

from ..errors import DatabaseError, StaleFingerprints
from ..fingerprint import minhash
from ..fingerprint.boilerplate import Shingled, core_set
from ..fingerprint.scheme import unpack_order
from ..fingerprint.simhash import to_signed, to_unsigned
from ..fingerprint.text import sorted_unique
from ..i18n import translate
from ..models import Fingerprint, display_path
from .id_maps import BytesById
from .repository import Repository, Signatures


@dataclass(frozen=True, slots=True)
class FingerprintArrays:
    """Every comparable content's fingerprints as arrays, row i describing ``content_ids[i]``."""

    content_ids: np.ndarray  # int64
    simhash: np.ndarray  # uint64
    minhash: np.ndarray  # (n, num_perm) uint32
    text_hash: list[bytes]
    shingle_count: np.ndarray  # int64

    def __len__(self) -> int:
        return len(self.content_ids)


class Contents(Repository):
    """Contents and their fingerprints."""

    def insert(self, fp: Fingerprint, replaces: bool) -> None:
        """Store a content's fingerprint (the contents' half of ``Store.write_batch``); ``replaces``: these
        bytes were stored before."""
        signed = to_signed(fp.simhash) if fp.simhash is not None else None
        cid = self._db.execute(
            """INSERT INTO contents (raw_hash, kind, status, message, encoding, pages, chars, text_hash,
                 simhash, minhash, shingle_count, shingles, short_text, transient, edges, keywords, sequence)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
               ON CONFLICT (raw_hash) DO UPDATE SET kind = excluded.kind, status = excluded.status,
                 message = excluded.message, encoding = excluded.encoding, pages = excluded.pages,
                 chars = excluded.chars, text_hash = excluded.text_hash, simhash = excluded.simhash,
                 minhash = excluded.minhash, shingle_count = excluded.shingle_count, shingles = excluded.shingles,
                 short_text = excluded.short_text, transient = excluded.transient, edges = excluded.edges,
                 keywords = excluded.keywords, sequence = excluded.sequence
               RETURNING id""",
            (
                fp.raw_hash,
                fp.kind,
                str(fp.status),
                fp.message,
                fp.encoding,
                fp.pages,
                fp.chars,
                fp.text_hash,
                signed,
                fp.minhash,
                fp.shingle_count,
                fp.shingles,
                int(fp.short_text),
                fp.transient,
                fp.edges,
                fp.keywords,
                fp.sequence,
            ),
        ).fetchone()[0]
        if replaces:  # the same bytes fingerprinted again: what was derived from the old row goes
            self._db.execute("DELETE FROM bands WHERE content_id = ?", (cid,))
            self._db.execute("DELETE FROM simhash_blocks WHERE content_id = ?", (cid,))
            self._db.execute("DELETE FROM cores WHERE content_id = ?", (cid,))
            self._db.execute("DELETE FROM overlaps WHERE a = ? OR b = ?", (cid, cid))
            self._db.execute("DELETE FROM core_overlaps WHERE a = ? OR b = ?", (cid, cid))
            self._db.execute("DELETE FROM passages WHERE a = ? OR b = ?", (cid, cid))

    def ids_for(self, hashes: Iterable[bytes]) -> dict[bytes, int]:
        """The content ids already stored for these byte hashes (missing ones are left out)."""
        found: dict[bytes, int] = {}
        batch = list(hashes)
        for start in range(0, len(batch), 500):
            chunk = batch[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for raw, cid in self._db.execute(f"SELECT raw_hash, id FROM contents WHERE raw_hash IN ({marks})", chunk):
                found[raw] = cid
        return found

    def hashes(self, content_ids: Iterable[int]) -> dict[int, bytes]:
        """The byte hashes of these contents."""
        out: dict[int, bytes] = {}
        batch = list(set(content_ids))
        for start in range(0, len(batch), 500):
            chunk = batch[start : start + 500]
            marks = ",".join("?" * len(chunk))
            out.update(self._db.execute(f"SELECT id, raw_hash FROM contents WHERE id IN ({marks})", chunk).fetchall())
        return out

    def hash_map(self, content_ids: np.ndarray) -> BytesById:
        """The byte hashes of these contents (each once) as a compact map: one per compared document."""
        wanted = sorted_unique(np.asarray(content_ids, dtype=np.int64)).tolist()

        def pairs() -> Iterator[tuple[int, bytes]]:
            for start in range(0, len(wanted), 500):
                chunk = wanted[start : start + 500]
                marks = ",".join("?" * len(chunk))
                yield from self._db.execute(f"SELECT id, raw_hash FROM contents WHERE id IN ({marks})", chunk)

        return BytesById.of(pairs())

    def keywords(self, content_ids: Iterable[int]) -> list[tuple[int, str | None]]:
        """These contents' keywords as stored (fingerprint/keywords.py's pack; None before they were kept)."""
        out: list[tuple[int, str | None]] = []
        batch = list(content_ids)
        for start in range(0, len(batch), 500):
            chunk = batch[start : start + 500]
            marks = ",".join("?" * len(chunk))
            out += self._db.execute(f"SELECT id, keywords FROM contents WHERE id IN ({marks})", chunk).fetchall()
        return out

    def keywords_sample(self, size: int) -> list[tuple[int, str | None]]:
        """``size`` comparable contents' keywords, spread over the collection: the first by their bytes' hash
        (which a Spark job can take alike: spark/result.py)."""
        return self._db.execute(
            "SELECT id, keywords FROM contents WHERE status = 'ok' ORDER BY raw_hash LIMIT ?", (size,)
        ).fetchall()

    def ok_ids(self, *, word_shingled_only: bool = False) -> np.ndarray:
        """Ids of every comparable content (or of those shingled by words, not characters), ascending."""
        only = " AND short_text = 0" if word_shingled_only else ""
        rows = self._db.execute(f"SELECT id FROM contents WHERE status = 'ok'{only} ORDER BY id").fetchall()
        return np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))

    def transient_failures(self) -> dict[int, float]:
        """Contents whose reading failed in a way that may not happen again: content id -> the time
        limit it ran out of (seconds), or 0 for a crash or lack of memory."""
        return dict(self._db.execute("SELECT id, transient FROM contents WHERE transient IS NOT NULL"))

    def fingerprint_arrays(self) -> FingerprintArrays:
        """All comparable contents, loaded for in-memory matching (64 + 512 bytes each), read row by
        row into arrays made to size."""
        with self._store.snapshot():  # the count and the rows from one state of the database
            (n,) = self._db.execute("SELECT COUNT(*) FROM contents WHERE status = 'ok'").fetchone()
            ids = np.empty(n, dtype=np.int64)
            sims = np.empty(n, dtype=np.uint64)
            sigs = Signatures(n)
            counts = np.empty(n, dtype=np.int64)
            text_hashes: list[bytes] = []
            rows = self._db.execute(
                "SELECT id, simhash, minhash, text_hash, shingle_count FROM contents WHERE status = 'ok' ORDER BY id"
            )
            try:
                for row, (cid, simhash_value, signature, text_hash, count) in enumerate(rows):
                    ids[row], sims[row], counts[row] = cid, to_unsigned(simhash_value), count
                    sigs.put(row, signature)
                    text_hashes.append(text_hash)
            except (ValueError, TypeError, OverflowError, IndexError):  # a row damaged (or written by another program)
                raise self.damaged_error() from None
        return FingerprintArrays(ids, sims, sigs.matrix(), text_hashes, counts)

    def fingerprint(self, content_id: int) -> tuple[int, np.ndarray, bytes, int] | None:
        """(SimHash, MinHash signature, text hash, shingle count) of a comparable content."""
        row = self._db.execute(
            "SELECT simhash, minhash, text_hash, shingle_count FROM contents WHERE id = ? AND status = 'ok'",
            (content_id,),
        ).fetchone()
        if row is None:
            return None
        try:
            signature = np.frombuffer(row[1], dtype="<u4").astype(np.uint32)
            if len(signature) != minhash.NUM_PERM or not isinstance(row[3], int):
                raise ValueError(content_id)
            return to_unsigned(row[0]), signature, row[2], row[3]
        except (ValueError, TypeError):
            raise self.damaged_error() from None

    def shingles(self, content_ids: Iterable[int], *, cores: str | None = None) -> dict[int, np.ndarray]:
        """Contents' shingle sets: whole, or (``cores`` = the digest of the boilerplate analysis) what
        each is compared by under that analysis, its core where it has one (StaleFingerprints if that
        analysis is no longer the database's)."""
        if cores is None:
            return {cid: shingles for cid, (shingles, _edges) in self._shingled(content_ids, edges=False).items()}
        with self._store.snapshot():
            if self._store.boilerplate.digest() != cores:
                raise StaleFingerprints("the boilerplate analysis changed while documents were compared")
            sets = self._shingled(content_ids, edges=True)
            cuts = self._store.boilerplate.cuts(sets)
        return {cid: core_set(shingles, edges, *cuts.get(cid, (0, 0))) for cid, (shingles, edges) in sets.items()}

    def shingles_and_edges(self, content_ids: Iterable[int]) -> dict[int, Shingled]:
        """Contents' shingle sets with their edges (the shingles at each end in order; None for texts
        shingled by characters): what the boilerplate analysis reads."""
        return self._shingled(content_ids, edges=True)

    def _shingled(self, content_ids: Iterable[int], *, edges: bool) -> dict[int, Shingled]:
        out: dict[int, Shingled] = {}
        batch = list(set(content_ids))
        columns = "id, shingles, edges" if edges else "id, shingles, NULL"
        for start in range(0, len(batch), 500):
            chunk = batch[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for cid, blob, edge_blob in self._db.execute(
                f"SELECT {columns} FROM contents WHERE id IN ({marks})", chunk
            ):
                if blob is not None:
                    shingles = minhash.unpack_shingles(blob)
                    out[cid] = shingles, unpack_order(edge_blob, shingles) if edge_blob is not None else None
        return out

    def sequences(self, content_ids: Iterable[int], *, cores: str | None = None) -> dict[int, tuple[np.ndarray, int]]:
        """Contents' shingle ids in text order, repeats kept (uint32), for those that have them (not texts
        shingled by characters), each with where it starts in the text: whole (0), or (``cores`` = the
        digest of the boilerplate analysis) without the passages that analysis cut from its ends
        (StaleFingerprints if that analysis is no longer the database's)."""
        with self._store.snapshot():
            if cores is not None and self._store.boilerplate.digest() != cores:
                raise StaleFingerprints("the boilerplate analysis changed while documents were compared")
            batch = list(set(content_ids))
            cuts = self._store.boilerplate.cuts(batch) if cores is not None else {}
            out: dict[int, tuple[np.ndarray, int]] = {}
            for start in range(0, len(batch), 500):
                chunk = batch[start : start + 500]
                marks = ",".join("?" * len(chunk))
                for cid, blob, packed in self._db.execute(
                    f"SELECT id, shingles, sequence FROM contents WHERE id IN ({marks}) AND sequence IS NOT NULL",
                    chunk,
                ):
                    try:
                        sequence = unpack_order(packed, minhash.unpack_shingles(blob))
                    except (ValueError, IndexError, TypeError):
                        raise self.damaged_error() from None
                    head, tail = cuts.get(cid, (0, 0))
                    out[cid] = sequence[head : max(head, len(sequence) - tail)], head
        return out

    def sequence(self, content_id: int) -> np.ndarray | None:
        """A content's whole shingle sequence (see ``sequences``), or None if it has none."""
        found = self.sequences([content_id]).get(content_id)
        return found[0] if found is not None else None

    _DAMAGED = f"""
        status = 'ok' AND (typeof(minhash) != 'blob' OR length(minhash) != {4 * minhash.NUM_PERM}
        OR typeof(simhash) != 'integer' OR typeof(shingle_count) != 'integer' OR shingle_count < 0
        OR typeof(text_hash) != 'blob' OR (typeof(shingles) = 'blob' AND length(shingles) % 4 != 0)
        OR (typeof(edges) = 'blob' AND length(edges) % 2 != 0)
        OR (typeof(sequence) = 'blob' AND length(sequence) % 2 != 0))"""

    def damaged(self) -> list[int]:
        """Contents whose fingerprint cannot be read (a damaged row)."""
        return [r[0] for r in self._db.execute(f"SELECT id FROM contents WHERE {self._DAMAGED}")]

    def damaged_error(self) -> DatabaseError:
        """What to say of fingerprints that cannot be read, and what to do."""
        count = max(len(self.damaged()), 1)  # a name: lupdate drops a count that is an expression
        return DatabaseError(
            translate(
                "Errors",
                "The database {path} is damaged: the fingerprints of %n file(s) cannot be read. Scan the same "
                "folders again (neardup scan FOLDER, or Scan in the app): those files are read again, and "
                "nothing else is lost.",
                None,
                count,
            ).format(path=display_path(str(self._store.path)))
        )

    def forget_damaged(self) -> int:
        """Forget the contents whose fingerprint cannot be read, and the files that had them, so that the
        scan reads those files again (the person's decisions are kept: by path and by text hash). Returns
        how many contents were forgotten."""
        damaged = self.damaged()
        if damaged:
            with self._store.transaction():
                marks = ",".join("?" * len(damaged))
                self._db.execute(f"DELETE FROM files WHERE content_id IN ({marks})", damaged)
                self._db.execute(f"DELETE FROM contents WHERE id IN ({marks})", damaged)
        return len(damaged)
