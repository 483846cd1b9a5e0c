"""What OCR read of each page of a scan (``ocr_pages``), by the bytes' hash and the languages: kept when
fingerprints are dropped for a new scheme, so that hours of OCR are not thrown away, and a killed scan
goes on from the next page."""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Sequence
from pathlib import Path

from .repository import Repository


class OcrPages(Repository):
    """OCR's pages, and the scans still waiting for them."""

    def awaiting(self, encoding: str) -> set[int]:
        """Scans whose text OCR has not read in the languages asked (``encoding``, ocr.tag of them): PDFs
        and images without text, and those OCR read in other languages; read again by a scan that reads
        scans (the pages read before in each language are kept, so going back costs no OCR)."""
        return {
            cid
            for (cid,) in self._db.execute(
                "SELECT id FROM contents WHERE kind IN ('pdf', 'image') AND COALESCE(encoding, '') != ? AND "
                "(status = 'empty' OR encoding LIKE 'ocr %')",
                (encoding,),
            )
        }

    def pages(self, raw_hash: bytes, languages: str) -> dict[int, str]:
        """The pages of a scan OCR read in ``languages`` so far: page index -> text."""
        return dict(
            self._db.execute(
                "SELECT page, text FROM ocr_pages WHERE raw_hash = ? AND languages = ?", (raw_hash, languages)
            )
        )

    def save(self, pages: Sequence[tuple[bytes, str, int, str]]) -> None:
        """Keep what OCR read: (bytes' hash, languages, page index, text), in one transaction."""
        with self._store.transaction():
            self._db.executemany(
                "INSERT OR REPLACE INTO ocr_pages (raw_hash, languages, page, text) VALUES (?, ?, ?, ?)", pages
            )


def scan_text(path: str | os.PathLike[str], raw_hash: bytes) -> str | None:
    """The text OCR read of the scan with these bytes, as its fingerprint holds it (its pages, in the
    languages its content's encoding names), from the database at ``path``, read-only (any thread or
    process); None when it has none."""
    from ..read.pdf import PAGE_SEPARATOR

    uri = f"{Path(path).resolve().as_uri()}?mode=ro"
    try:
        with contextlib.closing(sqlite3.connect(uri, uri=True)) as db:
            rows = db.execute(
                """SELECT c.pages, o.page, o.text FROM ocr_pages o JOIN contents c ON c.raw_hash = o.raw_hash
                   AND c.encoding = 'ocr ' || o.languages WHERE o.raw_hash = ? ORDER BY o.page""",
                (raw_hash,),
            ).fetchall()
    except sqlite3.Error:
        return None
    if not rows:
        return None
    pages = dict((page, text) for _, page, text in rows)  # a page OCR could not read is empty, as compared
    return PAGE_SEPARATOR.join(pages.get(n, "") for n in range(max(rows[0][0] or 0, len(pages))))
