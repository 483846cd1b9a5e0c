"""One exception hierarchy; every message tells the user what happened and what to do."""

from __future__ import annotations


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
