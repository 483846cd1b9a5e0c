"""The text of stored documents, read again from disk for review (the database keeps no text but what OCR
read of scans, which is read from there: OCR takes seconds a page).

A file that changed or vanished since the scan is reported as such, never shown as if it matched.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ..fingerprint.ocr import OCR_KINDS
from ..fingerprint.scheme import raw_hash
from ..i18n import localize, translate
from ..models import Document, Status
from ..read.extract import extract
from ..read.regular_files import open_regular_file
from .ocr_pages import scan_text


@dataclass(frozen=True, slots=True)
class DocumentText:
    text: str | None
    problem: str = ""  # why there is no text, in the person's language


@dataclass(frozen=True, slots=True)
class TextsOf:
    """What a TextLoader in another process needs to read some documents' text: the hashes of their bytes
    (by content id) and the database that keeps what OCR read."""

    hashes: tuple[tuple[int, bytes], ...]
    database: str = ""

    def loader(self) -> TextLoader:
        return TextLoader(dict(self.hashes), cache_size=max(len(self.hashes), 1), database=self.database)


class TextLoader:
    """Loads documents' text, checking each file still holds the bytes that were scanned."""

    def __init__(self, content_hashes: Mapping[int, bytes], cache_size: int = 32, database: str = "") -> None:
        self._hashes = content_hashes
        self._database = database  # where the text OCR read of a scan is kept (ocr_pages.scan_text)
        self._cache: OrderedDict[int, DocumentText] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()  # the window's pair views read in threads of their own, at once

    def texts_of(self, docs: Iterable[Document]) -> TextsOf:
        """What another process needs to read ``docs`` as this loader reads them."""
        ids = {d.content_id for d in docs if d.content_id is not None and d.content_id in self._hashes}
        return TextsOf(tuple((i, self._hashes[i]) for i in sorted(ids)), self._database)

    def __call__(self, doc: Document) -> DocumentText:
        with self._lock:
            cached = self._cache.get(doc.id)
            if cached is not None:
                self._cache.move_to_end(doc.id)
                return cached
        loaded = self._load(doc)  # outside the lock: two files are read at once
        with self._lock:
            self._cache[doc.id] = loaded
            if len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
        return loaded

    def _load(self, doc: Document) -> DocumentText:
        try:
            with open_regular_file(doc.path) as fh:
                data = fh.read()
        except FileNotFoundError:
            return DocumentText(
                None, translate("Texts", "The file is no longer there (moved or deleted since the scan).")
            )
        except OSError as exc:
            return DocumentText(
                None, translate("Texts", "The file cannot be read now: {reason}.").format(reason=exc.strerror or exc)
            )
        expected = self._hashes.get(doc.content_id) if doc.content_id is not None else None
        if expected is not None and raw_hash(data) != expected:
            return DocumentText(
                None, translate("Texts", "The file changed since the scan; rescan to compare it again.")
            )
        kind = doc.read_as or doc.kind  # as the bytes were read when compared
        if kind in OCR_KINDS and self._database and expected is not None:
            scanned = scan_text(self._database, expected)  # OCR's text: the file's own has none
            if scanned is not None:
                return DocumentText(scanned)
        extracted = extract(kind, data)
        if extracted.status is not Status.OK:
            return DocumentText(None, localize("Problem", extracted.message))
        return DocumentText(extracted.text)
