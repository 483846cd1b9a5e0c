"""One exception hierarchy; every message tells the user what happened and what to do."""

from __future__ import annotations

import os
import sqlite3

from .i18n import translate


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
