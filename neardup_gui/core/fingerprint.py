"""One document's bytes to its fingerprints, under a named, versioned scheme.

The scheme is everything that shapes a fingerprint (normalisation, units, shingle size, SimHash
features, hash and seeds, and the versions of jieba and pypdf). The database records it; a different
scheme means every document is fingerprinted again, a different threshold never does.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections import Counter
from dataclasses import asdict, dataclass

import numpy as np

from . import minhash, simhash, text
from .extract import extract, pypdf_version
from .models import Extracted, Fingerprint, Status

SCHEME_VERSION = 1


@dataclass(frozen=True, slots=True)
class Scheme:
    """What a fingerprint means. Two databases can be compared only under equal schemes."""

    version: int = SCHEME_VERSION
    normalise: str = "nfkc-casefold-ws"
    units: str = "han-char+word-regex"
    shingle_size: int = 3
    simhash_features: str = "jieba-words"
    simhash_weights: str = "log-tf"
    num_perm: int = minhash.NUM_PERM
    seed: int = 1
    feature_hash: str = "blake2b-64"
    jieba: str = ""
    pypdf: str = ""

    @classmethod
    def current(cls) -> Scheme:
        return cls(jieba=text.jieba_version(), pypdf=pypdf_version())

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
    norm = text.normalise(extracted.text)
    shingles = text_shingles(norm, scheme)
    if shingles.size == 0:
        return Fingerprint(
            digest, kind, Status.EMPTY, "No words or characters to compare (only punctuation or symbols).",
            extracted.encoding, extracted.pages, chars=len(extracted.text),
        )
    return Fingerprint(
        raw_hash=digest,
        kind=kind,
        status=Status.OK,
        message=extracted.message,
        encoding=extracted.encoding,
        pages=extracted.pages,
        chars=len(extracted.text),
        text_hash=hashlib.blake2b(norm.encode("utf-8", "surrogatepass"), digest_size=16).digest(),
        simhash=text_simhash(norm, scheme),
        minhash=minhash.signature(shingles, scheme.num_perm, scheme.seed).astype("<u4").tobytes(),
        shingle_count=int(shingles.size),
        shingles=minhash.pack_shingles(shingles),
    )


def text_shingles(norm: str, scheme: Scheme) -> np.ndarray:
    """The sorted 32-bit shingle set of a normalised text (what Jaccard is measured on)."""
    return text.shingle_hashes(text.hash_tokens(text.units(norm)), scheme.shingle_size)


def text_simhash(norm: str, scheme: Scheme) -> int:
    """The 64-bit SimHash of a normalised text under the scheme's features and weights."""
    if scheme.simhash_features == "jieba-words":
        counts = Counter(text.words(norm))
    elif scheme.simhash_features == "shingles":
        # 32-bit shingle ids spread to 64 bits, or half the fingerprint would always be zero
        return simhash.simhash(text.mix64(text_shingles(norm, scheme).astype(np.uint64)))
    else:
        raise ValueError(f"unknown SimHash features {scheme.simhash_features!r}")
    tokens = list(counts)
    features = text.hash_tokens(tokens)
    if scheme.simhash_weights == "log-tf":
        weights = np.fromiter((1.0 + math.log(counts[t]) for t in tokens), dtype=np.float64, count=len(tokens))
    elif scheme.simhash_weights == "tf":
        weights = np.fromiter((counts[t] for t in tokens), dtype=np.float64, count=len(tokens))
    else:
        raise ValueError(f"unknown SimHash weights {scheme.simhash_weights!r}")
    return simhash.simhash(features, weights)
