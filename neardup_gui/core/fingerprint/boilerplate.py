"""What the boilerplate analysis (boilerplate.py, which says what boilerplate is) leaves for the store and the
matcher: each affected document's core (how many edge positions are cut at each end), the table of them,
the whole analysis as it is kept, and a document's core set of shingles."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ..models import SentBetweenProcesses

Shingled = tuple[np.ndarray, np.ndarray | None]
"""A content's sorted shingle set and its edges (the shingle ids at its two ends in order, see
fingerprint.unpack_order; None for a text shingled by characters)."""
ShingleLoader = Callable[[Sequence[int]], dict[int, Shingled]]


@dataclass(frozen=True, slots=True)
class Core(SentBetweenProcesses):
    """A document compared without its boilerplate: the core's size and MinHash signature, and how many
    positions of its edges the passages take (``head_cut`` at its start, ``tail_cut`` at its end)."""

    shingle_count: int
    minhash: bytes
    head_cut: int = 0
    tail_cut: int = 0


class CoreTable(Mapping[int, Core]):
    """Cores as arrays (content ids ascending, shingle counts, signatures one row each, edge cuts): what
    a matcher reads back from the database. At 100,000 documents a dict of Core objects took 70 MB and
    a second to build in the parent; these take the 51 MB of the signatures, read in 0.1 s."""

    __slots__ = ("counts", "cuts", "ids", "signatures")

    def __init__(
        self, ids: np.ndarray, counts: np.ndarray, signatures: np.ndarray, cuts: np.ndarray | None = None
    ) -> None:
        cuts = np.zeros((len(ids), 2), dtype=np.int64) if cuts is None else cuts
        if not (len(ids) == len(counts) == len(signatures) == len(cuts)) or (
            len(ids) > 1 and not (np.diff(ids) > 0).all()
        ):
            raise ValueError("a core table needs ascending distinct ids, one count, signature and cut each")
        self.ids, self.counts, self.signatures, self.cuts = ids, counts, signatures, cuts

    @classmethod
    def of(cls, cores: Mapping[int, Core]) -> CoreTable:
        """The same cores as a table."""
        ids = np.array(sorted(cores), dtype=np.int64)
        found = [cores[c] for c in ids.tolist()]
        counts = np.array([c.shingle_count for c in found], dtype=np.int64)
        signatures = np.array([np.frombuffer(c.minhash, dtype="<u4") for c in found], dtype=np.uint32)
        cuts = np.array([(c.head_cut, c.tail_cut) for c in found], dtype=np.int64).reshape(len(ids), 2)
        return cls(ids, counts, signatures.reshape(len(ids), -1) if len(ids) else np.empty((0, 0), np.uint32), cuts)

    def _row(self, content_id: object) -> int:
        if not isinstance(content_id, int | np.integer) or not len(self.ids):
            return -1
        row = int(np.searchsorted(self.ids, content_id))
        return row if row < len(self.ids) and self.ids[row] == content_id else -1

    def __getitem__(self, content_id: int) -> Core:
        row = self._row(content_id)
        if row < 0:
            raise KeyError(content_id)
        head, tail = self.cuts[row].tolist()
        return Core(int(self.counts[row]), self.signatures[row].astype("<u4").tobytes(), head, tail)

    def __contains__(self, content_id: object) -> bool:
        return self._row(content_id) >= 0

    def __iter__(self) -> Iterator[int]:
        return iter(self.ids.tolist())

    def __len__(self) -> int:
        return len(self.ids)


@dataclass(frozen=True, slots=True)
class Boilerplate:
    """The outcome of one analysis of the whole collection."""

    digest: str  # of the scheme and the contents analysed: a different collection makes it stale
    min_share: float
    min_documents: int
    shingles: np.ndarray  # sorted uint32: the frequent shingles
    cores: Mapping[int, Core]  # content id -> core, for the documents that have boilerplate
    passages: int = 0  # distinct passages taken for boilerplate
    family_passages: int = 0  # passages at documents' edges kept, being what a family shares

    @property
    def documents_affected(self) -> int:
        return len(self.cores)


def collection_digest(scheme_json: str, content_ids: np.ndarray) -> str:
    """Identifies a collection state: the fingerprint scheme and the set of comparable contents."""
    h = hashlib.blake2b(scheme_json.encode(), digest_size=16)
    h.update(np.ascontiguousarray(content_ids, dtype="<i8").tobytes())
    return h.hexdigest()


def core_set(shingles: np.ndarray, edges: np.ndarray | None, head_cut: int, tail_cut: int) -> np.ndarray:
    """A document's shingles without those at the first ``head_cut`` and last ``tail_cut`` positions of its
    edges, except shingles it also has at edge positions that are kept. (A cut shingle that recurs only in
    the middle of a long text, whose positions are not kept, goes too: the analysis and every reader of
    cores do the same, so they always describe the same set.)"""
    if edges is None or not (head_cut or tail_cut):
        return shingles
    cut = np.zeros(len(edges), dtype=bool)
    cut[:head_cut] = True
    cut[max(0, len(edges) - tail_cut) :] = True
    removed = np.setdiff1d(edges[cut], edges[~cut])
    return shingles[~_is_in(shingles, removed)] if len(removed) else shingles


def _is_in(values: np.ndarray, sorted_keys: np.ndarray) -> np.ndarray:
    """Mask of ``values`` found in the sorted ``sorted_keys``."""
    if len(sorted_keys) == 0 or len(values) == 0:
        return np.zeros(len(values), dtype=bool)
    at = np.minimum(np.searchsorted(sorted_keys, values), len(sorted_keys) - 1)
    return sorted_keys[at] == values
