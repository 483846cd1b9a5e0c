"""One document's bytes to its fingerprints, under a named, versioned scheme.

The scheme is everything that shapes a fingerprint (normalisation, units, shingle size, SimHash
features, hash and seeds, and the versions of jieba and pypdf). The database records it; a different
scheme means every document is fingerprinted again, a different threshold never does.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass

import numpy as np

from . import minhash, simhash, text
from .extract import extract, pypdf_version
from .models import Extracted, Fingerprint, SentBetweenProcesses, Status

SCHEME_VERSION = 2  # 2: MinHash permutations are affine maps mod 2^32 (were 64-bit multiply-shift)


@dataclass(frozen=True, slots=True)
class Scheme(SentBetweenProcesses):
    """What a fingerprint means. Two databases can be compared only under equal schemes."""

    version: int = SCHEME_VERSION
    normalise: str = "nfkc-casefold-ws"
    units: str = "han-char+word"
    shingle_size: int = 3
    short_text_units: int = 30  # below this many units a text is shingled by characters
    short_shingle_chars: int = 3
    simhash_features: str = "word-3grams+jieba-words"  # measured best against J >= 0.8 (README)
    simhash_weights: str = "log-tf"
    num_perm: int = minhash.NUM_PERM
    seed: int = 1
    feature_hash: str = "poly64-splitmix"
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
    tokens = text.tokenize(norm)
    shingles = _shingles(norm, tokens, scheme)
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
        simhash=_simhash(tokens, shingles, scheme),
        minhash=minhash.signature(shingles, scheme.num_perm, scheme.seed).astype("<u4").tobytes(),
        shingle_count=int(shingles.size),
        shingles=minhash.pack_shingles(shingles),
        short_text=_is_short(tokens, scheme),
    )


def text_shingles(norm: str, scheme: Scheme) -> np.ndarray:
    """The sorted 32-bit shingle set of a normalised text (what Jaccard is measured on)."""
    return _shingles(norm, text.tokenize(norm), scheme)


def _shingles(norm: str, tokens: text.Tokens, scheme: Scheme) -> np.ndarray:
    """Unit shingles; for short texts (titles, names, one sentence) character shingles instead."""
    if _is_short(tokens, scheme):
        return text.char_shingles(norm, scheme.short_shingle_chars)
    return text.shingle_hashes(tokens.units, scheme.shingle_size)


def _is_short(tokens: text.Tokens, scheme: Scheme) -> bool:
    return 0 < len(tokens.units) < scheme.short_text_units


def text_simhash(norm: str, scheme: Scheme) -> int:
    """The 64-bit SimHash of a normalised text under the scheme's features and weights."""
    tokens = text.tokenize(norm)
    return _simhash(tokens, _shingles(norm, tokens, scheme), scheme)


def _simhash(tokens: text.Tokens, shingles: np.ndarray, scheme: Scheme) -> int:
    if scheme.simhash_features == "shingles":
        # 32-bit shingle ids spread to 64 bits, or half the fingerprint would always be zero
        return simhash.simhash(text.mix64(shingles.astype(np.uint64)))
    if scheme.simhash_features == "jieba-words":
        features, counts = np.unique(tokens.words, return_counts=True)
    elif scheme.simhash_features == "word-3grams+jieba-words":
        latin = tokens.words[: len(tokens.words) - tokens.han_words]
        han = tokens.words[len(tokens.words) - tokens.han_words :]
        features, counts = np.unique(np.concatenate((text.gram_hashes(latin, 3), han)), return_counts=True)
    else:
        raise ValueError(f"unknown SimHash features {scheme.simhash_features!r}")
    if scheme.simhash_weights == "log-tf":
        weights = 1.0 + np.log(counts)
    elif scheme.simhash_weights == "tf":
        weights = counts.astype(np.float64)
    else:
        raise ValueError(f"unknown SimHash weights {scheme.simhash_weights!r}")
    return simhash.simhash(features, weights)
