"""Records passed between the engine's parts and its front ends. All frozen; no behaviour here."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from operator import attrgetter
from typing import Any

from .i18n import translate


class SentBetweenProcesses:
    """Base of frozen slots dataclasses that cross the worker pipes: they pickle as their class and
    field values. Python 3.11's own pickling of slots dataclasses looks up fields() for every object,
    which was a third of the pool parent's CPU time."""

    __slots__: tuple[str, ...] = ()

    def __reduce__(self) -> tuple:
        cls = type(self)
        values = _field_getter(cls)(self)
        return cls, values if len(cls.__slots__) > 1 else (values,)


_field_getters: dict[type[SentBetweenProcesses], attrgetter[Any]] = {}


def _field_getter(cls: type[SentBetweenProcesses]) -> attrgetter[Any]:
    # a dict rather than functools.cache, whose arguments mypy requires to be Hashable and which it
    # does not believe class objects are (python/mypy#11470)
    getter = _field_getters.get(cls)
    if getter is None:
        getter = _field_getters[cls] = attrgetter(*cls.__slots__)
    return getter


class Status(StrEnum):
    """What became of one file. The JSON report's ``status`` field uses these values."""

    OK = "ok"
    EMPTY = "empty"
    ENCRYPTED = "encrypted"
    UNREADABLE = "unreadable"
    TOO_LARGE = "too_large"
    UNSUPPORTED = "unsupported"
    ERROR = "error"


class Method(StrEnum):
    SIMHASH = "simhash"
    MINHASH = "minhash"
    BOTH = "both"


HAMMING_MAX = 12
"""Largest Hamming threshold accepted. The index is exact for every K up to it (multi-probe blocks)."""
JACCARD_MIN = 0.3
"""Lowest Jaccard threshold accepted: below it nearly every pair of texts in one language shares an
LSH band, and "near-duplicate" stops meaning anything."""
CONTAINMENT_MIN = 0.5
"""Lowest containment accepted for excerpts: below half, "inside" stops meaning inside, and the shingles
each text is looked up by (core/match/excerpts.py) grow to most of it."""
CONTAINMENT_DEFAULT = 0.8
PASSAGE_MIN_WORDS = 20
"""The shortest shared passage one may look for, in words (Han: characters): a shorter one is a sentence
many texts share by chance."""
PASSAGE_MAX_WORDS = 10_000
PASSAGE_DEFAULT_WORDS = 50
PASSAGE_COMMON_DEFAULT = 10
"""A passage every part of which more than this many documents hold is common wording (a standard clause,
a well-known quotation), not a copy worth listing: MOSS's default too."""
PASSAGE_COMMON_MAX = 1000
"""The most documents wording may be in and still be listed when asked: each value so many texts keep is
matched between every two of them (the square of it)."""
CHAIN_MARGIN = 0.2
"""A group whose member is this much less alike to its representative than T says so (Group.chained)."""
CHAIN_BITS = 4
"""...or, by SimHash, whose member is more than max(2K, K + this) bits from its representative."""
SIMHASH_MIN_JACCARD = 0.2
"""A pair within the Hamming distance is shown only if its exact Jaccard (of what is compared: cores when
boilerplate is ignored, so that a shared footer does not pass it) reaches this: SimHash candidates are
verified, so texts that only share vocabulary (formulaic statutes, licences of one style) or a footer are
never grouped (a one-file query compares whole texts). Measured (docs/how-it-decides.md, "Verification"):
every pair within K <= 8 of our three corpora has J >= 0.3; the pairs below 0.2 appear from K = 9 (71 English
pairs within 12 bits, none of them near-duplicates)."""


@dataclass(frozen=True, slots=True)
class Thresholds:
    """When two documents count as near-duplicates. Changing these never re-fingerprints."""

    method: Method = Method.MINHASH  # measured: reproduces the exact Jaccard answer (docs/how-it-decides.md: defaults)
    hamming: int = 8  # measured: the K at which SimHash best reproduces J >= 0.8 (docs/how-it-decides.md)
    jaccard: float = 0.8
    ignore_boilerplate: bool = True  # compare documents without passages common to the collection

    def __post_init__(self) -> None:
        if not 0 <= self.hamming <= HAMMING_MAX:
            raise ValueError(
                translate("Errors", "Hamming distance must be between 0 and {max}, not {value}").format(
                    max=HAMMING_MAX, value=self.hamming
                )
            )
        if not JACCARD_MIN <= self.jaccard <= 1.0:
            raise ValueError(
                translate("Errors", "Jaccard threshold must be between {min} and 1, not {value}").format(
                    min=JACCARD_MIN, value=self.jaccard
                )
            )
        object.__setattr__(self, "method", Method(self.method))


@dataclass(frozen=True, slots=True)
class FileEntry(SentBetweenProcesses):
    """A file found under one of the roots, before it is read."""

    path: str
    size: int
    mtime_ns: int
    kind: str  # "text" or "pdf"


@dataclass(frozen=True, slots=True)
class Extracted:
    """Text taken out of one file's bytes, or the reason there is none."""

    status: Status
    text: str = ""
    message: str = ""
    encoding: str = ""
    pages: int = 0


@dataclass(frozen=True, slots=True)
class Fingerprint(SentBetweenProcesses):
    """Everything the index and the verifier need of one document's content; never its text.

    ``simhash`` is unsigned 64-bit; ``minhash`` is the signature as little-endian uint32 bytes;
    ``shingles`` is the sorted set of 32-bit shingle hashes, packed (see minhash.pack_shingles).
    """

    raw_hash: bytes
    kind: str
    status: Status
    message: str = ""
    encoding: str = ""
    pages: int = 0
    chars: int = 0
    text_hash: bytes | None = None
    simhash: int | None = None
    minhash: bytes | None = None
    shingle_count: int = 0
    shingles: bytes | None = None
    short_text: bool = False  # shingled by characters (too few words for word shingles)
    edges: bytes | None = None  # the shingles at the text's two ends, in order (fingerprint.pack_order)
    sequence: bytes | None = None  # every shingle of the text in order (fingerprint.pack_order), for passages
    keywords: str = ""  # what the text's opening is about, weighted (fingerprint/keywords.py's pack)
    # a failure that may not happen again: the time limit it ran out of (s), or 0 for a reader that crashed
    # or ran out of memory; None for a result that is what these bytes are (text, empty, encrypted…)
    transient: float | None = None
    # where a worker put minhash, shingles, edges and sequence instead (spill.py): (file, offset, their sizes)
    spilled: tuple[str, int, int, int, int, int] | None = None


@dataclass(frozen=True, slots=True)
class Document(SentBetweenProcesses):
    """One file as the database knows it."""

    id: int
    path: str
    size: int
    mtime_ns: int
    kind: str
    status: Status
    message: str
    chars: int
    content_id: int | None
    # the type its bytes were read as when they were compared: a content is read once, as the first file
    # holding those bytes (the same bytes as .html and as .txt are one content); "" for the file's own
    read_as: str = ""

    @property
    def display_path(self) -> str:
        return display_path(self.path)


class Documents(tuple[Document, ...]):
    """A collection's documents, with their index by id made once, when first asked for: every part that
    looks documents up by id shares it (a dict of a million documents is 50 MB; each report, view and
    keeper rule made its own)."""

    def by_id(self) -> Mapping[int, Document]:
        found: dict[int, Document] | None = self.__dict__.get("_by_id")
        if found is None:
            found = self.__dict__["_by_id"] = {d.id: d for d in self}
        return found


def documents_by_id(documents: Sequence[Document]) -> Mapping[int, Document]:
    """Documents by id: the shared index of a ``Documents``, else one made now."""
    return documents.by_id() if isinstance(documents, Documents) else {d.id: d for d in documents}


@dataclass(frozen=True, slots=True)
class Similarity:
    """How alike two documents are, with every number that explains why they matched.

    ``containment_ab`` = |A∩B|/|A| (how much of A is inside B); ``containment`` is the larger of the two
    directions, i.e. |A∩B| / min(|A|, |B|).
    """

    hamming: int
    jaccard_estimate: float
    jaccard: float
    containment_ab: float
    containment_ba: float

    @property
    def containment(self) -> float:
        return max(self.containment_ab, self.containment_ba)

    @property
    def same_text(self) -> bool:
        """Whether what is compared is the same: every shingle and the fingerprint (texts that differ only in
        spacing, punctuation or case, in any language, and byte copies)."""
        return self.jaccard >= 1.0 and self.hamming == 0


IDENTICAL = Similarity(0, 1.0, 1.0, 1.0, 1.0)


def matched_by(s: Similarity, t: Thresholds) -> str | None:
    """By which method two documents with these numbers are duplicates by the thresholds directly (not
    through others): "minhash" (Jaccard at least T), "simhash" (at most K bits apart and sharing
    SIMHASH_MIN_JACCARD), "both", or None. The methods the thresholds do not use do not count."""
    by_jaccard = t.method is not Method.SIMHASH and s.jaccard >= t.jaccard - 1e-9
    by_bits = t.method is not Method.MINHASH and s.hamming <= t.hamming and s.jaccard >= SIMHASH_MIN_JACCARD - 1e-9
    return "both" if by_jaccard and by_bits else "simhash" if by_bits else "minhash" if by_jaccard else None


def within_thresholds(s: Similarity, t: Thresholds) -> bool:
    """Whether two documents with these numbers are duplicates by the thresholds directly (matched_by)."""
    return matched_by(s, t) is not None


@dataclass(frozen=True, slots=True)
class Pair:
    """Two documents judged duplicates, and by what: "exact", "simhash", "minhash" or "both"."""

    a: int
    b: int
    similarity: Similarity
    matched_by: str


PLACES = 4
"""Places a shown ratio (Jaccard, containment) has."""


def shown_ratio(part: int, whole: int) -> float:
    """``part / whole`` as shown: rounded down to PLACES, exactly (in integers). Rounded down, a number shown
    reaches a threshold of PLACES places only if the exact ratio does: 3,535 shingles shared out of 4,419 is
    0.7999, not a duplicate at 0.8, where rounding to the nearest showed 0.8."""
    return (part * 10**PLACES // whole) / 10**PLACES


@dataclass(frozen=True, slots=True)
class Excerpt:
    """A document inside another: ``shared`` of the ``inner`` one's shingles (what is compared: cores where
    boilerplate is ignored) are in the ``outer`` one, which has at least as many."""

    inner: int
    outer: int
    shared: int
    inner_shingles: int
    outer_shingles: int

    @property
    def containment(self) -> float:
        """How much of the inner document is in the outer one, shown as Similarity's numbers are."""
        return shown_ratio(self.shared, self.inner_shingles)

    @property
    def jaccard(self) -> float:
        return shown_ratio(self.shared, self.inner_shingles + self.outer_shingles - self.shared)


@dataclass(frozen=True, slots=True)
class PassageSearch:
    """What shared passages are looked for: at least ``words`` words (Han: characters) in a row, word for
    word, and not common wording (found in more than ``common`` documents; None: listed all the same)."""

    words: int = PASSAGE_DEFAULT_WORDS
    common: int | None = PASSAGE_COMMON_DEFAULT

    def __post_init__(self) -> None:
        if not PASSAGE_MIN_WORDS <= self.words <= PASSAGE_MAX_WORDS:
            raise ValueError(f"a passage has {PASSAGE_MIN_WORDS} to {PASSAGE_MAX_WORDS} words, not {self.words}")
        if self.common is not None and self.common < 2:
            raise ValueError(f"common wording is in more than 2 documents at least, not {self.common}")


class Find(StrEnum):
    """What the pairs listed are: duplicates (the groups' pairs), excerpts (a document inside another) or
    documents that share passages (``neardup --find``'s words)."""

    DUPLICATES = "duplicates"
    EXCERPTS = "excerpts"
    PASSAGES = "passages"


@dataclass(frozen=True, slots=True)
class Search:
    """What the app looks for, with each kind's setting (kept while another kind is shown)."""

    find: Find = Find.DUPLICATES
    containment: float = CONTAINMENT_DEFAULT
    passages: PassageSearch = PassageSearch()

    def __post_init__(self) -> None:
        if not CONTAINMENT_MIN <= self.containment <= 1.0:
            raise ValueError(f"containment is {CONTAINMENT_MIN} to 1, not {self.containment}")
        object.__setattr__(self, "find", Find(self.find))

    @property
    def asked(self) -> Search:
        """This search with only its own kind's setting (the others' at their defaults): what it finds."""
        if self.find is Find.EXCERPTS:
            return Search(self.find, containment=self.containment)
        if self.find is Find.PASSAGES:
            return Search(self.find, passages=self.passages)
        return Search()


@dataclass(frozen=True, slots=True)
class Passage:
    """A run of words (Han: characters) two documents both hold word for word: where it starts in each,
    counted in words from the text's start, and how many words it has."""

    start_a: int
    start_b: int
    words: int


@dataclass(frozen=True, slots=True)
class SharedPassages:
    """Two documents (``a`` before ``b`` by path) and every passage of at least the length asked for that
    both hold, in the order they come in ``a``."""

    a: int
    b: int
    passages: tuple[Passage, ...]

    @property
    def longest(self) -> int:
        return max(p.words for p in self.passages)


@dataclass(frozen=True, slots=True)
class Member:
    """A group member with its similarity to the group's representative (not to its neighbour)."""

    document_id: int
    similarity: Similarity


@dataclass(frozen=True, slots=True)
class Group:
    id: int
    representative: int
    members: tuple[Member, ...]
    exact: bool  # every member has the same normalised text as the representative

    def chained(self, thresholds: Thresholds) -> bool:
        """Whether a member is far from the representative by every measure the thresholds use (Jaccard
        below T - CHAIN_MARGIN; Hamming distance above max(2K, K + CHAIN_BITS)): it is in the group only
        through other members, a chain A ~ B ~ C the group must say it is. A member joined to the
        representative directly is within the thresholds, so a pair is never chained."""
        far_bits = max(2 * thresholds.hamming, thresholds.hamming + CHAIN_BITS)

        def far(s: Similarity) -> bool:
            by_jaccard = s.jaccard < thresholds.jaccard - CHAIN_MARGIN - 1e-9
            by_bits = s.hamming > far_bits
            if thresholds.method is Method.MINHASH:
                return by_jaccard
            if thresholds.method is Method.SIMHASH:
                return by_bits
            return by_jaccard and by_bits

        return any(far(m.similarity) for m in self.members)


@dataclass(frozen=True, slots=True)
class ScanOptions:
    """What to scan and how. Defaults are those of the command line and the app."""

    roots: tuple[str, ...]
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    hidden: bool = False
    kinds: frozenset[str] = frozenset(  # extract.KINDS
        {"text", "pdf", "doc", "docx", "odt", "rtf", "xls", "xlsx", "ods", "ppt", "pptx", "odp"}
        | {"wps", "et", "dps", "epub", "html", "email", "image"}
    )
    ocr: str = ""  # Tesseract's languages ("chi_sim+eng") to read scans and images with; "": images are not scanned
    workers: int = field(default_factory=lambda: os.cpu_count() or 1)
    max_file_size: int = 256 * 1024 * 1024
    file_timeout: float = 120.0
    reader_memory: int | None = None  # bytes each reader may use; None: pool.default_reader_memory()
    retry_failed: bool = False  # read again the files whose reader crashed, ran out of memory or of time
    check_memory: bool = True  # not started when it would need more memory than memory_budget (forecast.py)
    memory_budget: int | None = None  # bytes; None: what the machine has free


# a backslash, a control character (which would drive a terminal: ESC sequences, a newline splitting a line,
# C1 codes), or a byte that is not UTF-8 (surrogateescape)
_SHOWN_ESCAPED = re.compile("[\\\\\x00-\x1f\x7f-\x9f\udc80-\udcff]")
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # every control character but tab and newline


def _escaped(char: str) -> str:
    code = ord(char)
    if char == "\\":
        return "\\\\"
    if code >= 0xDC80:  # a byte that is not UTF-8
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code < 0x80 else f"\\u{code:04x}"


def display_path(path: str) -> str:
    """A path fit for a report, a label or a terminal, unambiguous: a byte that is not UTF-8 or a control
    character (a newline, ESC) appears as \\xNN (C1 controls as \\u0080-\\u009f) and a backslash as \\\\
    (as ``ls -b`` shows them), so a file literally named "caf\\xe9" and one whose name holds the byte 0xE9
    never look alike, and no name can drive a terminal.
    The escapes are reversible (tests/cli/test_cli.py turns them back)."""
    if path.isascii() and path.isprintable() and "\\" not in path:  # shown as it is (0.06 s a report)
        return path
    text = os.fsdecode(os.fsencode(path))
    return _SHOWN_ESCAPED.sub(lambda m: _escaped(m.group()), text)


def printable(text: str) -> str:
    """A message fit for a terminal: its control characters but tab and newline shown as display_path
    shows them (a file name quoted in an error cannot drive the terminal, nor rewrite its line)."""
    return _CONTROL.sub(lambda m: _escaped(m.group()), text)
