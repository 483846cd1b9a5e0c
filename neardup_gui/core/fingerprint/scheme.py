"""One document's bytes to its fingerprints, under a named, versioned scheme.

The scheme is everything that shapes a fingerprint (normalisation, units, shingle size, SimHash
features, hash and seeds, and the versions of the PDF readers, and of jieba when the features use it). The
database records it; a different scheme means every document is fingerprinted again, a different threshold never does.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass

import numpy as np

from ..models import Extracted, Fingerprint, SentBetweenProcesses, Status
from ..read.extract import extract
from ..read.pdf import reader_versions
from . import keywords, minhash, simhash, text

# 2: MinHash permutations are affine maps mod 2^32 (were 64-bit multiply-shift)
# 3: SimHash features of Han text are runs of three Han characters (were jieba's words)
# 4: the shingles at each end of a text are kept in order ("edges"), for boilerplate passages
# 5: every shingle of a text is kept in order ("sequence"), for the passages two texts share
SCHEME_VERSION = 5


@dataclass(frozen=True, slots=True)
class Scheme(SentBetweenProcesses):
    """What a fingerprint means. Two databases can be compared only under equal schemes."""

    version: int = SCHEME_VERSION
    normalise: str = "nfkc-casefold-ws"
    units: str = "han-char+word"
    shingle_size: int = 3
    short_text_units: int = 30  # below this many units a text is shingled by characters
    short_shingle_chars: int = 3
    simhash_features: str = "word-3grams+han-3grams"  # measured against J >= 0.8 (docs/how-it-decides.md: defaults)
    simhash_weights: str = "log-tf"
    num_perm: int = minhash.NUM_PERM
    seed: int = 1
    edge_window: int = 400  # shingle positions kept in order at each end of a text (boilerplate.py)
    feature_hash: str = "poly64-splitmix"
    jieba: str = ""  # jieba's version, when the SimHash features use its words (else they do not change with it)
    pypdf: str = ""  # the PDF readers' versions (extract_pdf.reader_versions); the name is the first one's

    @classmethod
    def current(cls) -> Scheme:
        return cls(jieba=text.jieba_version() if cls().segments_han else "", pypdf=reader_versions())

    @property
    def segments_han(self) -> bool:
        """Whether the SimHash features hold jieba's words of Han runs (else their characters)."""
        return "jieba" in self.simhash_features

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, raw: str) -> Scheme:
        return cls(**json.loads(raw))


def raw_hash(data: bytes) -> bytes:
    """Identity of a file's bytes: equal hashes = exact duplicates before any extraction."""
    return hashlib.blake2b(data, digest_size=16).digest()


def fingerprint_bytes(kind: str, data: bytes, scheme: Scheme) -> Fingerprint:
    """Extract and fingerprint one file's bytes. Never raises for bad content: the status says it."""
    digest = raw_hash(data)
    extracted = extract(kind, data)
    if extracted.status is not Status.OK:
        return Fingerprint(digest, kind, extracted.status, extracted.message, extracted.encoding, extracted.pages)
    return fingerprint_text(digest, kind, extracted, scheme)


def fingerprint_text(digest: bytes, kind: str, extracted: Extracted, scheme: Scheme) -> Fingerprint:
    """Fingerprints of extracted text: normalised-text hash, SimHash, MinHash and the shingle set."""
    features = _text_features(extracted.text, scheme)
    if features.shingles.size == 0:
        return Fingerprint(
            digest,
            kind,
            Status.EMPTY,
            "No words or characters to compare (only punctuation or symbols).",
            extracted.encoding,
            extracted.pages,
            chars=len(extracted.text),
        )
    return Fingerprint(
        raw_hash=digest,
        kind=kind,
        status=Status.OK,
        message=extracted.message,
        encoding=extracted.encoding,
        pages=extracted.pages,
        chars=len(extracted.text),
        text_hash=features.text_hash,
        simhash=features.simhash,
        minhash=minhash.signature(features.shingles, scheme.num_perm, scheme.seed).astype("<u4").tobytes(),
        shingle_count=int(features.shingles.size),
        shingles=minhash.pack_shingles(features.shingles),
        short_text=features.short_text,
        edges=None if features.short_text else pack_order(features.edges, features.shingles),
        sequence=None if features.short_text else pack_order(features.sequence, features.shingles),
        keywords=keywords.pack(keywords.keywords(extracted.text)),
    )


def pack_order(sequence: np.ndarray, shingles: np.ndarray) -> bytes:
    """Shingle ids of a text in order (its edges, ``_Edges.sequence``, or all of them) as positions in its
    sorted shingle set: two bytes each while the set has at most 65,536 shingles, four beyond (see
    unpack_order)."""
    at = np.searchsorted(shingles, sequence)
    return at.astype("<u2" if len(shingles) <= 1 << 16 else "<u4").tobytes()


def unpack_order(blob: bytes, shingles: np.ndarray) -> np.ndarray:
    """The shingle ids, in text order, that ``pack_order`` stored for this shingle set."""
    return shingles[np.frombuffer(blob, dtype="<u2" if len(shingles) <= 1 << 16 else "<u4")]


@dataclass(frozen=True, slots=True)
class _TextFeatures:
    text_hash: bytes
    shingles: np.ndarray
    simhash: int
    short_text: bool
    edges: np.ndarray  # see _Edges.sequence
    sequence: np.ndarray  # every shingle id in text order, repeats kept


def _text_features(raw_text: str, scheme: Scheme) -> _TextFeatures:
    """What fingerprint_text needs, read from the text a million characters at a time, so that a huge
    text costs its result and not 15 times its size; equal to text_shingles and text_simhash on the
    whole normalised text."""
    text_hash = hashlib.blake2b(digest_size=16)
    unit_runs = _Runs(scheme.shingle_size)
    shingles, features, edges = _SortedUnion(), _PieceFeatures(scheme), _Edges(scheme.edge_window)
    units = pieces = 0
    in_order: list[np.ndarray] = []
    last_piece = ""
    for last_piece, tokens in text.token_pieces(text.normalised_pieces(raw_text), segment_han=scheme.segments_han):
        pieces += 1
        text_hash.update(last_piece.encode("utf-8", "surrogatepass"))
        units += len(tokens.units)
        ids = text.shingle_id_sequence(unit_runs.feed(tokens.units))
        edges.add(ids)
        in_order.append(ids)
        shingles.add(text.sorted_unique(ids))
        features.add(tokens)
    ids = text.shingle_id_sequence(unit_runs.finish())
    edges.add(ids)
    in_order.append(ids)
    shingles.add(text.sorted_unique(ids))
    if scheme.simhash_features != "shingles":  # before the shingles are merged: the peaks do not add up
        votes = simhash.Votes()
        for distinct, counts in features.in_order():
            votes.add(distinct, _weights(counts, scheme))
    short = 0 < units < scheme.short_text_units
    if short:
        norm = last_piece if pieces == 1 else text.normalise(raw_text)
        shingle_set = text.char_shingles(norm, scheme.short_shingle_chars)
    else:
        shingle_set = shingles.result()
    fingerprint = _shingle_simhash(shingle_set) if scheme.simhash_features == "shingles" else votes.result()
    sequence = np.concatenate(in_order) if len(in_order) > 1 else in_order[0]
    return _TextFeatures(text_hash.digest(), shingle_set, fingerprint, short, edges.sequence(), sequence)


class _Runs:
    """The run hashes (text.gram_hashes) of a token sequence that arrives in pieces: each run is
    hashed once, in the piece where it ends; a whole sequence shorter than ``size`` gives one run of
    all of it, as on the whole sequence."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.tail = np.empty(0, dtype=np.uint64)
        self.seen = 0

    def feed(self, hashes: np.ndarray) -> np.ndarray:
        self.seen += len(hashes)
        joined = np.concatenate((self.tail, hashes)) if len(self.tail) else hashes
        self.tail = joined[len(joined) - min(len(joined), self.size - 1) :].copy()
        return text.run_hashes(joined, self.size)

    def finish(self) -> np.ndarray:
        return text.run_hashes(self.tail, self.seen) if 0 < self.seen < self.size else np.empty(0, np.uint64)


class _Edges:
    """The shingle ids at a text's first and last ``window`` positions, in order, from a sequence that
    arrives in pieces: where boilerplate passages (letterheads, notices, footers) sit."""

    def __init__(self, window: int) -> None:
        self.window = window
        self.head: list[np.ndarray] = []
        self.head_count = 0
        self.tail = np.empty(0, dtype=np.uint32)
        self.count = 0

    def add(self, ids: np.ndarray) -> None:
        self.count += len(ids)
        if self.head_count < self.window and len(ids):
            part = ids[: self.window - self.head_count].copy()
            self.head.append(part)
            self.head_count += len(part)
        joined = np.concatenate((self.tail, ids[-self.window :])) if len(self.tail) else ids[-self.window :]
        self.tail = joined[-self.window :].copy() if self.window else joined[:0]

    def sequence(self) -> np.ndarray:
        """The whole sequence if it has at most 2 x window positions, else its first window positions
        followed by its last window positions."""
        head = np.concatenate(self.head) if self.head else np.empty(0, dtype=np.uint32)
        after_head = min(self.count - len(head), len(self.tail))
        return np.concatenate((head, self.tail[len(self.tail) - after_head :]))


class _PieceFeatures:
    """SimHash's features of a text whose tokens arrive in pieces, counted: together, what
    simhash_feature_counts gives for the whole text (the runs of three that straddle two pieces
    included), bucket by bucket in order."""

    def __init__(self, scheme: Scheme) -> None:
        self.scheme = scheme
        self.latin_runs, self.han_runs = _Runs(3), _Runs(3)
        self.counts = _FeatureCounts()

    def add(self, tokens: text.Tokens) -> None:
        self.counts.add(_simhash_features(tokens, self.latin_runs.feed, self.han_runs.feed, self.scheme))

    def in_order(self) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """(distinct features, their counts), sorted bucket by bucket (see _FeatureCounts.in_order)."""
        self.counts.add(self.latin_runs.finish())
        if self.scheme.simhash_features == "word-3grams+han-3grams":
            self.counts.add(self.han_runs.finish())
        return self.counts.in_order()


class _SortedUnion:
    """The union of sorted unique arrays, merged as it grows so it never holds much more than twice
    the union."""

    def __init__(self) -> None:
        self.parts: list[np.ndarray] = []
        self.held = self.merged = 0

    def add(self, values: np.ndarray) -> None:
        if len(values):
            self.parts.append(values)
            self.held += len(values)
            if len(self.parts) > 1 and self.held > max(2 * self.merged, 1 << 22):
                self._merge()

    def _merge(self) -> None:
        merged = text.sorted_unique(np.concatenate(self.parts)) if len(self.parts) > 1 else self.parts[0]
        self.parts = [merged]
        self.held = self.merged = len(merged)

    def result(self) -> np.ndarray:
        if not self.parts:
            return np.empty(0, dtype=np.uint32)
        self._merge()
        return self.parts[0]


class _FeatureCounts:
    """SimHash features with how often each occurs, over arrays that arrive in pieces. Each piece is
    counted on its own and split by the top bits of the hash, so that the buckets, merged one after
    the other in order, give every distinct feature in sorted order with its total count while only
    one bucket is ever sorted: the memory is what the pieces' distinct features take, not three times
    it."""

    _BUCKET_BITS = 4
    _EDGES = np.arange(1, 1 << _BUCKET_BITS, dtype=np.uint64) << np.uint64(64 - _BUCKET_BITS)

    def __init__(self) -> None:
        self.buckets: list[list[tuple[np.ndarray, np.ndarray]]] = [[] for _ in range(1 << self._BUCKET_BITS)]

    def add(self, values: np.ndarray) -> None:
        if len(values):
            distinct, counts = _counted(np.sort(values), np.ones(len(values), dtype=np.uint32))
            cuts = [0, *np.searchsorted(distinct, self._EDGES).tolist(), len(distinct)]
            for bucket, lo, hi in zip(self.buckets, cuts, cuts[1:], strict=False):
                if hi > lo:
                    bucket.append((distinct[lo:hi].copy(), counts[lo:hi].copy()))

    def in_order(self) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """(distinct features, their counts) bucket by bucket: together, sorted and each once."""
        for index, parts in enumerate(self.buckets):
            self.buckets[index] = []
            if len(parts) == 1:
                yield parts[0]
            elif parts:
                values = np.concatenate([v for v, _c in parts])
                counts = np.concatenate([c for _v, c in parts])
                del parts
                order = np.argsort(values, kind="stable")
                yield _counted(values[order], counts[order])


def _counted(values: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sorted values with repeats and their counts -> each distinct value once, counts summed."""
    starts = np.flatnonzero(np.concatenate(([True], values[1:] != values[:-1])))
    return values[starts], np.add.reduceat(counts, starts)


def text_shingles(norm: str, scheme: Scheme) -> np.ndarray:
    """The sorted 32-bit shingle set of a normalised text (what Jaccard is measured on): unit
    shingles; for short texts (titles, names, one sentence) character shingles instead."""
    units = text.unit_hashes(norm)
    if _is_short(units, scheme):
        return text.char_shingles(norm, scheme.short_shingle_chars)
    return text.shingle_hashes(units, scheme.shingle_size)


def _is_short(units: np.ndarray, scheme: Scheme) -> bool:
    return 0 < len(units) < scheme.short_text_units


def text_simhash(norm: str, scheme: Scheme) -> int:
    """The 64-bit SimHash of a normalised text under the scheme's features and weights."""
    if scheme.simhash_features == "shingles":
        return _shingle_simhash(text_shingles(norm, scheme))
    return _weighted_simhash(*simhash_feature_counts(norm, scheme), scheme)


def simhash_feature_counts(norm: str, scheme: Scheme) -> tuple[np.ndarray, np.ndarray]:
    """The distinct SimHash features of a normalised text (sorted) and how often each occurs: what
    text_simhash weighs and sums (the "shingles" features have no counts: not for those)."""
    if scheme.simhash_features == "shingles":
        raise ValueError("the shingle features are the shingle set itself, without counts")
    tokens = text.tokenize(norm, segment_han=scheme.segments_han)
    grams = lambda hashes: text.gram_hashes(hashes, 3)  # noqa: E731
    features, counts = np.unique(_simhash_features(tokens, grams, grams, scheme), return_counts=True)
    return features, counts


def _simhash_features(
    tokens: text.Tokens,
    latin_grams: Callable[[np.ndarray], np.ndarray],
    han_grams: Callable[[np.ndarray], np.ndarray],
    scheme: Scheme,
) -> np.ndarray:
    """SimHash's features of some tokens, with repeats: the non-Han words' runs of three
    (``latin_grams``), and the Han characters' runs of three (``han_grams``; the Han characters in
    the order they come, across punctuation and other words, as the Latin words' runs are) or jieba's
    words of the Han runs. Runs of Han characters measured better than jieba's words and cost
    nothing more than the units already hashed (docs/how-it-decides.md: defaults)."""
    split = len(tokens.words) - tokens.han_words
    if scheme.simhash_features == "shingles":
        return np.empty(0, dtype=np.uint64)
    if scheme.simhash_features == "jieba-words":
        return tokens.words
    if scheme.simhash_features == "word-3grams+jieba-words":
        return np.concatenate((latin_grams(tokens.words[:split]), tokens.words[split:]))
    if scheme.simhash_features == "word-3grams+han-3grams":
        return np.concatenate((latin_grams(tokens.words[:split]), han_grams(tokens.words[split:])))
    raise ValueError(f"unknown SimHash features {scheme.simhash_features!r}")


def _shingle_simhash(shingles: np.ndarray) -> int:
    # 32-bit shingle ids spread to 64 bits, or half the fingerprint would always be zero
    return simhash.simhash(text.mix64(shingles.astype(np.uint64)))


def _weighted_simhash(features: np.ndarray, counts: np.ndarray, scheme: Scheme) -> int:
    return simhash.simhash(features, _weights(counts, scheme))


def _weights(counts: np.ndarray, scheme: Scheme) -> np.ndarray:
    if scheme.simhash_weights == "log-tf":
        return 1.0 + np.log(counts)
    if scheme.simhash_weights == "tf":
        return counts.astype(np.float64)
    raise ValueError(f"unknown SimHash weights {scheme.simhash_weights!r}")
