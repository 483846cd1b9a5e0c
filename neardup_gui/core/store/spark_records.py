"""A Spark result's records and description, read and checked before anything of them is stored.

``neardup spark scan`` writes one JSON object a line (``review/part-*.gz``; spark/result.py ``_record``)
for every grouped document and every problem, and describes the run in ``job.json``. A result folder comes
from elsewhere (a cluster, a copy, a download) and may be damaged or made to do harm, so each record is
checked field by field against what the job writes (types, sizes, ranges, the parts of a fingerprint
agreeing with each other), and each path is placed on this machine under a ``--map`` target (with no
mapping it must already be an absolute, normalised path): no record can make the app read, move or delete
a file anywhere else. The first record that fails is refused (DamagedResult) naming its file, line and field.
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import gzip
import io
import json
import math
import os
import zlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import DamagedResult, UsageError
from ..fingerprint.boilerplate import Core
from ..fingerprint.scheme import Scheme
from ..fingerprint.simhash import to_unsigned
from ..i18n import translate
from ..models import HAMMING_MAX, Fingerprint, Method, Status, display_path

INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1  # what SQLite stores as an integer
UINT32_MAX = (1 << 32) - 1
HASH_BYTES = 16  # blake2b-128: a content's hash (fingerprint.raw_hash) and its text's
PATH_CHARACTERS = 16384
KIND_CHARACTERS = 64
ENCODING_CHARACTERS = 256
MESSAGE_CHARACTERS = 65536
KEYWORDS_CHARACTERS = 4096
_STATUSES = tuple(str(s) for s in Status)
_METHODS = tuple(str(m) for m in Method)
_SOURCE_KINDS = ("folder", "uri", "table")
_SCHEME_FIELDS = frozenset(f.name for f in dataclasses.fields(Scheme))


def damaged(problem: str) -> DamagedResult:
    """The error for a result that cannot be loaded: ``problem`` (which names the record), and that nothing was."""
    return DamagedResult(translate("Errors", "{problem}; nothing was loaded").format(problem=problem))


@dataclass(frozen=True, slots=True)
class Place:
    """Where a record is: its file and line (0 for a whole file, such as job.json)."""

    file: str
    line: int = 0

    def __str__(self) -> str:
        shown = display_path(self.file)
        return translate("Errors", "{file}, line {line}").format(file=shown, line=self.line) if self.line else shown


class _Fields:
    """The fields of one JSON object, each taken with its check: the first that fails refuses the record,
    naming it and the field. A bool is never taken for a number (JSON tells them apart; Python does not)."""

    def __init__(self, value: Mapping[str, Any], place: Place, prefix: str = "") -> None:
        self._value = value
        self._place = place
        self._prefix = prefix

    def has(self, name: str) -> bool:
        return name in self._value

    def _get(self, name: str) -> Any:
        if name not in self._value:
            raise damaged(
                translate("Errors", "{record}: the field {field} is missing").format(
                    record=self._place, field=self._prefix + name
                )
            )
        return self._value[name]

    def wrong(self, name: str, expected: str) -> DamagedResult:
        return damaged(
            translate("Errors", "{record}: the field {field} must be {expected}").format(
                record=self._place, field=self._prefix + name, expected=expected
            )
        )

    def disagrees(self, name: str, other: str) -> DamagedResult:
        return damaged(
            translate("Errors", "{record}: the field {field} does not agree with {other}").format(
                record=self._place, field=self._prefix + name, other=self._prefix + other
            )
        )

    def needed(self, name: str) -> DamagedResult:
        return damaged(
            translate("Errors", "{record}: the field {field} must be given when the status is ok").format(
                record=self._place, field=self._prefix + name
            )
        )

    def whole(self, name: str, low: int = 0, high: int = INT64_MAX) -> int:
        value = self._get(name)
        if type(value) is not int or not low <= value <= high:
            raise self.wrong(
                name, translate("Errors", "a whole number from {low} to {high}").format(low=low, high=high)
            )
        return value

    def whole_or_null(self, name: str, low: int = 0, high: int = INT64_MAX) -> int | None:
        value = self._get(name)
        if value is not None and (type(value) is not int or not low <= value <= high):
            raise self.wrong(
                name, translate("Errors", "null or a whole number from {low} to {high}").format(low=low, high=high)
            )
        return value

    def number(self, name: str, low: float, high: float) -> float:
        value = self._get(name)
        if type(value) not in (int, float) or not math.isfinite(value) or not low <= value <= high:
            raise self.wrong(name, translate("Errors", "a number from {low} to {high}").format(low=low, high=high))
        return float(value)

    def seconds_or_null(self, name: str) -> float | None:
        value = self._get(name)
        if value is not None and (type(value) not in (int, float) or not math.isfinite(value) or value < 0):
            raise self.wrong(name, translate("Errors", "null or a number of seconds, 0 or more"))
        return None if value is None else float(value)

    def flag(self, name: str) -> bool:
        value = self._get(name)
        if type(value) is not bool:
            raise self.wrong(name, translate("Errors", "true or false"))
        return value

    def text(self, name: str, limit: int) -> str:
        value = self._get(name)
        if not isinstance(value, str) or len(value) > limit:
            raise self.wrong(name, translate("Errors", "text of at most {limit} characters").format(limit=limit))
        return value

    def choice(self, name: str, choices: Sequence[str]) -> str:
        value = self._get(name)
        if not isinstance(value, str) or value not in choices:
            raise self.wrong(name, translate("Errors", "one of {choices}").format(choices=", ".join(choices)))
        return value

    def path(self, name: str) -> str:
        """A path as the cluster wrote it: text this machine's file system can name (surrogate escapes of
        bytes that are not UTF-8 are; a lone surrogate of another kind, or NUL, is not)."""
        value = self._get(name)
        try:
            if isinstance(value, str) and value and "\0" not in value and len(value) <= PATH_CHARACTERS:
                os.fsencode(value)
                return value
        except UnicodeEncodeError:
            pass
        raise self.wrong(
            name, translate("Errors", "a path of at most {limit} characters, without NUL").format(limit=PATH_CHARACTERS)
        )

    def blob(self, name: str, size: int) -> bytes:
        found = self._blob(self._get(name))
        if found is None or len(found) != size:
            raise self.wrong(name, translate("Errors", "base64 of {size} bytes").format(size=size))
        return found

    def blob_or_null(self, name: str, size: int) -> bytes | None:
        value = self._get(name)
        found = self._blob(value)
        if value is not None and (found is None or len(found) != size):
            raise self.wrong(name, translate("Errors", "null or base64 of {size} bytes").format(size=size))
        return found

    def values_or_null(self, name: str, width: int) -> bytes | None:
        """Base64 of little-endian values ``width`` bytes each (a shingle set, edge positions), or null."""
        value = self._get(name)
        found = self._blob(value)
        if value is not None and (found is None or len(found) % width):
            raise self.wrong(name, translate("Errors", "null or base64 of {width}-byte values").format(width=width))
        return found

    @staticmethod
    def _blob(value: Any) -> bytes | None:
        if not isinstance(value, str):
            return None
        try:
            return base64.b64decode(value, validate=True)
        except (binascii.Error, ValueError):  # not base64; a character that is not ASCII
            return None

    def whole_list(self, name: str, low: int, high: int) -> list[int]:
        value = self._get(name)
        if not isinstance(value, list) or not all(type(v) is int and low <= v <= high for v in value):
            raise self.wrong(
                name, translate("Errors", "a list of whole numbers from {low} to {high}").format(low=low, high=high)
            )
        return value

    def object(self, name: str) -> _Fields:
        value = self._get(name)
        if not isinstance(value, dict):
            raise self.wrong(name, translate("Errors", "an object"))
        return _Fields(value, self._place, f"{self._prefix}{name}.")

    def object_or_null(self, name: str) -> _Fields | None:
        value = self._get(name)
        if value is not None and not isinstance(value, dict):
            raise self.wrong(name, translate("Errors", "null or an object"))
        return None if value is None else _Fields(value, self._place, f"{self._prefix}{name}.")


# -- the records ----------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ReviewRecord:
    """One document of a Spark result, checked: where the cluster saw it, its file's facts, its fingerprint
    (or why it has none) and its core (the document without its boilerplate), if it has one."""

    place: Place
    path: str
    size: int
    mtime_ns: int
    kind: str
    fingerprint: Fingerprint
    core: Core | None


def parse_record(value: Any, place: Place, num_perm: int) -> ReviewRecord:
    """A decoded line of the review records as a ReviewRecord, or DamagedResult naming the field at fault."""
    if not isinstance(value, dict):
        raise damaged(translate("Errors", "{record}: the line is not a JSON object").format(record=place))
    f = _Fields(value, place)
    path = f.path("path")
    size = f.whole("size")
    mtime_ns = f.whole("mtime_ns", INT64_MIN)
    kind = f.text("kind", KIND_CHARACTERS)
    fingerprint = _fingerprint(f, kind, num_perm)
    core = f.object_or_null("core")
    return ReviewRecord(
        place,
        path,
        size,
        mtime_ns,
        kind,
        fingerprint,
        None
        if core is None
        else Core(
            core.whole("shingle_count"),
            core.blob("minhash", 4 * num_perm),
            core.whole("head_cut"),
            core.whole("tail_cut"),
        ),
    )


def _positions(f: _Fields, name: str, shingle_count: int) -> bytes | None:
    """Shingles in text order as positions in the set (fingerprint.pack_order: 2 bytes each while they fit)."""
    wide = shingle_count > 1 << 16
    blob = f.values_or_null(name, 4 if wide else 2)
    if blob is not None and len(blob) and int(np.frombuffer(blob, "<u4" if wide else "<u2").max()) >= shingle_count:
        raise f.disagrees(name, "shingle_count")  # a position past the set: unpack_order would fail on it
    return blob


def _fingerprint(f: _Fields, kind: str, num_perm: int) -> Fingerprint:
    status = Status(f.choice("status", _STATUSES))
    shingle_count = f.whole("shingle_count")
    shingles = f.values_or_null("shingles", 4)
    if shingles is not None and len(shingles) != 4 * shingle_count:
        raise f.disagrees("shingles", "shingle_count")
    edges, sequence = (_positions(f, name, shingle_count) for name in ("edges", "sequence"))
    simhash = f.whole_or_null("simhash", INT64_MIN, INT64_MAX)
    fp = Fingerprint(
        raw_hash=f.blob_or_null("raw_hash", HASH_BYTES) or b"",
        kind=kind,
        status=status,
        message=f.text("message", MESSAGE_CHARACTERS),
        encoding=f.text("encoding", ENCODING_CHARACTERS),
        pages=f.whole("pages"),
        chars=f.whole("chars"),
        text_hash=f.blob_or_null("text_hash", HASH_BYTES),
        simhash=None if simhash is None else to_unsigned(simhash),
        minhash=f.blob_or_null("minhash", 4 * num_perm),
        shingle_count=shingle_count,
        shingles=shingles,
        short_text=f.flag("short_text"),
        edges=edges,
        sequence=sequence,
        # a result written before keywords were (their groups are named by a file)
        keywords=f.text("keywords", KEYWORDS_CHARACTERS) if f.has("keywords") else "",
        transient=f.seconds_or_null("transient"),
    )
    if status is Status.OK:  # a compared document has every fingerprint the matcher reads
        for name, present in (
            ("raw_hash", fp.raw_hash),
            ("text_hash", fp.text_hash),
            ("simhash", simhash is not None),
            ("minhash", fp.minhash),
            ("shingles", fp.shingles),
        ):
            if not present:
                raise f.needed(name)
    return fp


def review_lines(parts: Sequence[Path]) -> Iterator[tuple[Place, Any]]:
    """Each non-blank line of the part files, decoded from JSON, with its place; a file cut short, a line
    that is not UTF-8 or not JSON is refused there."""
    for part in parts:
        for number, line in _numbered_lines(part):
            place = Place(str(part), number)
            try:
                text = line.decode("utf-8")
            except UnicodeDecodeError:
                raise damaged(
                    translate("Errors", "{record}: the line is not UTF-8 text").format(record=place)
                ) from None
            if not text.strip():
                continue
            try:
                value = json.loads(text)
            except (ValueError, RecursionError):  # not JSON; a number of too many digits; nesting too deep
                raise damaged(translate("Errors", "{record}: the line is not JSON").format(record=place)) from None
            yield place, value


def _numbered_lines(part: Path) -> Iterator[tuple[int, bytes]]:
    if not part.is_file():  # a device never ends, a pipe may never start: the job writes regular files
        raise damaged(translate("Errors", "{record}: not a regular file").format(record=Place(str(part))))
    number = 0
    try:
        if part.suffix == ".gz" and part.stat().st_size == 0:  # the job's gzip files hold a header at least
            raise EOFError
        with _open(part) as fh:
            for number, line in enumerate(fh, start=1):
                yield number, line
    except (EOFError, zlib.error, gzip.BadGzipFile):
        raise damaged(
            translate("Errors", "{record}: the file is cut short, or is not gzip").format(
                record=Place(str(part), number + 1)
            )
        ) from None


def _open(part: Path) -> gzip.GzipFile | io.BufferedReader:
    if part.suffix == ".gz":
        return gzip.GzipFile(part, "rb")
    return open(part, "rb")  # noqa: SIM115 - closed by the caller's with


# -- paths ----------------------------------------------------------------------------------------------
def mapping_problem(before: str, after: str) -> str | None:
    """Why ``FROM=TO`` cannot map paths (None if it can): its target must be an absolute folder here."""
    if os.path.isabs(after) and "\0" not in after:
        return None
    return translate("Errors", "A path mapping's TO must be an absolute folder on this machine; not {text}").format(
        text=display_path(f"{before}={after}")
    )


def checked_mapping(mapping: Sequence[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    """The mapping with each target normalised, longest FROM first; a relative target is refused (UsageError)."""
    for before, after in mapping:
        problem = mapping_problem(before, after)
        if problem:
            raise UsageError(problem)
    return tuple(sorted(((before, os.path.normpath(after)) for before, after in mapping), key=lambda m: -len(m[0])))


class _Outside(Exception):
    """A path that cannot be placed here: ``template`` (translated) says why, with {record}, {field} and {path}."""

    def __init__(self, template: str, target: str = "") -> None:
        super().__init__(template)
        self.template = template
        self.target = target


def local_path(path: str, mapping: Sequence[tuple[str, str]]) -> str:
    """Where the file the cluster saw at ``path`` is on this machine (``mapping`` from checked_mapping): the
    target of the longest FROM it is under, with the rest of the path; with no mapping, the path itself (a
    ``file:`` URI as a path). Refused (_Outside) unless that is a normalised path inside the target (with no
    mapping: the cluster's path already absolute and normalised); a path under no FROM is refused too."""
    if not mapping:
        local = "/" + path[len("file:") :].lstrip("/") if path.startswith("file:") else path
        if not os.path.isabs(local):
            raise _Outside(
                translate(
                    "Errors",
                    "{record}: the field {field} ({path}) is not an absolute path; say "
                    "where the cluster's files are on this machine with --map FROM=TO",
                )
            )
        if os.path.normpath(local) != local:
            raise _Outside(
                translate(
                    "Errors",
                    "{record}: the field {field} ({path}) has . or .. in it, or repeated "
                    "slashes; neardup loads no path that could lead elsewhere",
                )
            )
        return local
    for before, after in mapping:
        stem = before.rstrip("/")
        if path == before or path.startswith(stem + "/"):
            rest = path[len(stem) :]
            local = os.path.normpath(after.rstrip("/") + rest) if rest else after
            # no ".." may climb out of the target (even one that climbs back in: what the OS opens through a
            # link there is not what normpath says)
            if ".." in rest.split("/") or not _inside(local, after):
                raise _Outside(
                    translate(
                        "Errors",
                        "{record}: the field {field} ({path}) leads outside {target}, "
                        "where --map puts it; neardup loads no path outside the "
                        "folders mapped",
                    ),
                    after,
                )
            return local
    raise _Outside(
        translate(
            "Errors",
            "{record}: the field {field} ({path}) is under no --map FROM; neardup loads "
            "no path outside the folders mapped",
        )
    )


def _inside(path: str, folder: str) -> bool:
    """Whether ``path`` is ``folder`` or below it (both normalised; any separator this system has)."""
    try:
        return os.path.commonpath([path, folder]) == os.path.normpath(folder)
    except ValueError:  # Windows: another drive
        return False


def placed(record: ReviewRecord, mapping: Sequence[tuple[str, str]]) -> str:
    """``record``'s path on this machine (local_path), or DamagedResult naming the record."""
    try:
        return local_path(record.path, mapping)
    except _Outside as outside:
        raise damaged(
            outside.template.format(
                record=record.place, field="path", path=_shown(record.path), target=display_path(outside.target)
            )
        ) from None


def placed_or_none(path: str, mapping: Sequence[tuple[str, str]]) -> str | None:
    """``path`` on this machine (local_path), or None where it cannot be placed."""
    try:
        return local_path(path, mapping)
    except _Outside:
        return None


def _shown(path: str, limit: int = 200) -> str:
    shown = display_path(path)  # a path the record check let through: this machine can name it
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"


# -- the job's description ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class JobDescription:
    """What ``job.json`` says, checked: the source read, the fingerprint scheme, the thresholds, how many
    records the review folder holds, and the boilerplate analysis of the whole collection."""

    source: str
    source_kind: str
    scheme: Scheme
    thresholds: tuple[tuple[str, Any], ...]  # (name, value) in the job's order, for ImportSummary
    records: int  # documents in groups + problems: one record each
    min_share: float
    min_documents: int
    shingles: tuple[int, ...]
    passages: int
    family_passages: int


def describe(job: Mapping[str, Any], place: Place) -> JobDescription:
    """``job.json``'s fields (read_job checked its format and version) as a JobDescription, or DamagedResult."""
    f = _Fields(job, place)
    scheme = f.object("scheme")._value
    if not set(scheme) <= _SCHEME_FIELDS:
        raise f.wrong("scheme", translate("Errors", "the fingerprint scheme of a version of neardup"))
    t = f.object("thresholds")
    thresholds = (
        ("method", t.choice("method", _METHODS)),
        ("hamming", t.whole("hamming", 0, HAMMING_MAX)),
        ("jaccard", t.number("jaccard", 0.0, 1.0)),
        ("ignore_boilerplate", t.flag("ignore_boilerplate")),
    )
    counts = f.object("counts")
    b = f.object("boilerplate")
    return JobDescription(
        source=f.path("source"),
        source_kind=f.choice("source_kind", _SOURCE_KINDS) if f.has("source_kind") else "folder",
        scheme=Scheme(**scheme),
        thresholds=thresholds,
        records=counts.whole("documents_in_groups") + counts.whole("problems"),
        min_share=b.number("min_share", 0.0, 1.0) if b.has("min_share") else 0.1,
        min_documents=b.whole("min_documents") if b.has("min_documents") else 10,
        shingles=tuple(b.whole_list("shingles", 0, UINT32_MAX)) if b.has("shingles") else (),
        passages=b.whole("passages") if b.has("passages") else 0,
        family_passages=b.whole("family_passages") if b.has("family_passages") else 0,
    )
