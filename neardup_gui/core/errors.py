"""One exception hierarchy; every message tells the user what happened and what to do."""

from __future__ import annotations

import errno
import os
import re
import sqlite3

from .i18n import QT_TRANSLATE_NOOP, said, translate, with_details


class NeardupError(Exception):
    """Base of every error the engine raises on purpose. ``str(e)`` is fit to show a user."""


class UsageError(NeardupError):
    """The request itself is wrong (bad threshold, missing folder); fix the request and retry."""


class DatabaseError(NeardupError):
    """The database cannot be opened or is not a neardup database."""


class ExtractionError(NeardupError):
    """A document's text cannot be had; ``status`` is one of the report's document statuses."""

    def __init__(self, status: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class StaleFingerprints(NeardupError):
    """The database's fingerprints were made under another scheme (an older neardup, another jieba or
    pypdf); they cannot be compared with today's until a scan renews them."""


class DamagedResult(NeardupError):
    """A Spark result (``neardup spark scan --out``) holds a record or a file that cannot be loaded as it is:
    damaged, cut short, or naming a path outside the folders it is mapped to. Nothing of it is loaded."""


def database_error_message(exc: sqlite3.Error, path: str | os.PathLike[str] | None = None) -> str:
    """What an SQLite failure means for the person, and what to do, in one sentence: the CLI prints it,
    the app shows it, instead of a traceback. Work committed before the failure is kept either way."""
    name = getattr(exc, "sqlite_errorname", "") or ""
    if name.startswith("SQLITE_READONLY"):
        text = (
            translate(
                "Errors",
                "neardup may not write to the database {path} (read-only file, folder or disk): "
                "make it writable, or choose another database file.",
            )
            if path
            else translate(
                "Errors",
                "neardup may not write to the database (read-only file, folder or disk): "
                "make it writable, or choose another database file.",
            )
        )
    elif name.startswith("SQLITE_FULL"):
        text = (
            translate(
                "Errors",
                "The disk holding the database {path} is full. Free some space and run again; "
                "what was saved before is kept.",
            )
            if path
            else translate(
                "Errors",
                "The disk holding the database is full. Free some space and run again; what was saved before is kept.",
            )
        )
    elif name.startswith("SQLITE_IOERR"):
        text = (
            translate(
                "Errors",
                "Writing to the database {path} failed ({error}): the disk may be full, failing "
                "or disconnected. Check it and run again; what was saved before is kept.",
            )
            if path
            else translate(
                "Errors",
                "Writing to the database failed ({error}): the disk may be full, failing or "
                "disconnected. Check it and run again; what was saved before is kept.",
            )
        )
    elif name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")):
        text = (
            translate(
                "Errors",
                "The database {path} is damaged ({error}); neardup stopped where it met the "
                "damage. Move the file away (or choose another database file) and scan again "
                "to make a new one.",
            )
            if path
            else translate(
                "Errors",
                "The database is damaged ({error}); neardup stopped where it met the damage. "
                "Move the file away (or choose another database file) and scan again to make "
                "a new one.",
            )
        )
    elif name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        text = (
            translate(
                "Errors", "The database {path} is busy: another neardup is using it. Wait for it, or use another file."
            )
            if path
            else translate(
                "Errors", "The database is busy: another neardup is using it. Wait for it, or use another file."
            )
        )
    else:
        text = (
            translate("Errors", "The database {path} failed: {error}.")
            if path
            else translate("Errors", "The database failed: {error}.")
        )
    return text.format(path=os.fspath(path) if path else "", error=exc)


def is_damaged_database(exc: BaseException) -> bool:
    """Whether ``exc`` (or what caused it) says the database file is damaged or not a database at all:
    a new database is then the way on, with the damaged one kept aside."""
    while exc is not None:
        name = getattr(exc, "sqlite_errorname", "") or ""
        if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")):
            return True
        exc = exc.__cause__  # type: ignore[assignment]
    return False


def set_aside_damaged_database(path: str | os.PathLike[str], stamp: str) -> str:
    """Move a damaged database (and its journal files) aside as ``<name>.damaged-<stamp>``, never
    deleting it, so that a new one can be made at ``path``; returns where it went."""
    kept = f"{os.fspath(path)}.damaged-{stamp}"
    n = 1
    while os.path.exists(kept):  # never over an earlier copy
        n += 1
        kept = f"{os.fspath(path)}.damaged-{stamp}-{n}"
    for suffix in ("", "-wal", "-shm", "-journal"):
        if os.path.exists(f"{os.fspath(path)}{suffix}"):
            os.replace(f"{os.fspath(path)}{suffix}", f"{kept}{suffix}")
    return kept


def _errnos(*names: str) -> str:
    """A pattern finding an OSError of these errno names in its details ("[Errno 5] ..."); names this
    system lacks are left out."""
    return r"\[Errno (?:" + "|".join(str(getattr(errno, n)) for n in names if hasattr(errno, n)) + r")\]"


_NOT_READ = QT_TRANSLATE_NOOP("Problem", "The file could not be read.")
# What earlier versions stored, with the library's words inside: a database keeps them until the file
# changes, so they are still known (and translated when shown; i18n.localize)
_STORED_BEFORE = (
    QT_TRANSLATE_NOOP("Problem", "the page could not be drawn: {reason}"),
    QT_TRANSLATE_NOOP("Problem", "Damaged or unreadable document: {reason}"),
    QT_TRANSLATE_NOOP("Problem", "Encrypted PDF that could not be opened: {error}"),
    QT_TRANSLATE_NOOP("Problem", "Damaged or unreadable PDF: {reason}"),
    QT_TRANSLATE_NOOP("Problem", "Damaged PDF: its structure loops on itself."),
    QT_TRANSLATE_NOOP("Problem", "The file could not be read: {reason}"),
    QT_TRANSLATE_NOOP("Problem", "the reader failed: {error}"),
    QT_TRANSLATE_NOOP("Problem", "the reader crashed on it (exit code {code})"),
    QT_TRANSLATE_NOOP("Problem", "the reader crashed on it ({signal})"),
    QT_TRANSLATE_NOOP(
        "Problem",
        "Not compared: its fingerprint could not be read back ({reason}). To try it again: Try Again in the "
        "app's Problems tab, or neardup scan --retry-failed.",
    ),
)
# Why a reader or the system could not read a file, in our words (stored in English, shown translated by
# i18n.localize), found by what the library or the system said ("Type: text", i18n.with_details); the first
# row whose pattern is found wins. What no row knows gets the caller's own words, or _NOT_READ.
_READ_FAILURES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), reason)
    for pattern, reason in (
        (
            r"RecursionError|recursion|self.?reference|\bloop",
            QT_TRANSLATE_NOOP(
                "Problem",
                "Damaged file: its structure loops on itself. Open it in its program and save it again to compare it.",
            ),
        ),
        (
            r"crypt|password|\bAES\b|\bRC4\b",
            QT_TRANSLATE_NOOP(
                "Problem",
                "Encrypted in a way neardup cannot open. Remove the password (or save an unprotected copy) to "
                "compare it.",
            ),
        ),
        (
            r"ended unexpectedly|end of (?:stream|file)|EOF marker|startxref|Truncated file header|^EOFError"
            r"|incomplete or truncated",
            QT_TRANSLATE_NOOP(
                "Problem",
                "Damaged file: its end is missing (a download or copy cut short?). Download or copy it again, or "
                "open it in its program and save it again.",
            ),
        ),
        (
            r"Bad CRC|Bad magic number|while decompressing|File name in directory|zlib",
            QT_TRANSLATE_NOOP(
                "Problem",
                "Damaged file: some of its contents are garbled (a failing disk, or a copy gone wrong?). Copy it "
                "again from where it came from, or open it in its program and save it again.",
            ),
        ),
        (
            r"ExpatError|not well-formed|mismatched tag|unclosed token|junk after document|no element found"
            r"|line \d+, column \d+",
            QT_TRANSLATE_NOOP(
                "Problem",
                "Damaged document: the markup that holds its text is broken. Open it in its program and save "
                "it again to compare it.",
            ),
        ),
        (
            r"compression (?:type|method)|zip file version",
            QT_TRANSLATE_NOOP(
                "Problem",
                "Packed in a way neardup cannot unpack. Open it in its program and save it again to compare it.",
            ),
        ),
        (
            r"PermissionError|" + _errnos("EACCES", "EPERM"),
            QT_TRANSLATE_NOOP("Problem", "Permission denied: neardup may not read this file."),
        ),
        (
            _errnos("EIO", "ENXIO", "ENODEV", "ENOMEDIUM", "EREMOTEIO"),
            QT_TRANSLATE_NOOP(
                "Problem",
                "The disk gave an error while reading it (a failing disk, or a drive or network share that "
                "was disconnected?). Check the disk, or copy the file elsewhere, and scan again.",
            ),
        ),
        (
            _errnos(
                "ESTALE",
                "ENOTCONN",
                "EHOSTDOWN",
                "EHOSTUNREACH",
                "ETIMEDOUT",
                "ECONNRESET",
                "ECONNABORTED",
                "ENETDOWN",
                "ENETUNREACH",
                "ECOMM",
                "ENOLINK",
            ),
            QT_TRANSLATE_NOOP(
                "Problem", "The network share holding it stopped answering. Reconnect it and scan again."
            ),
        ),
        (
            _errnos("ENAMETOOLONG"),
            QT_TRANSLATE_NOOP(
                "Problem",
                "Its path is too long to open. Move it to a shorter path (or shorten its name) and scan again.",
            ),
        ),
    )
)


def read_failure(error: BaseException | str, fallback: str = _NOT_READ) -> str:
    """Why a file could not be read, as stored: the plain reason (``_READ_FAILURES``, else ``fallback``)
    with what the library or the system said as its details (i18n.with_details)."""
    details = said(error)
    reason = next((reason for pattern, reason in _READ_FAILURES if pattern.search(details)), fallback)
    return with_details(reason, details)
