"""File bytes to text: the kind of each file name, and one reader per kind, a status and a plain message
when there is no text. Text files are decoded by decode.py; the other formats have a module each:
extract_pdf (PDFium, then pypdf), extract_office (.docx, .odt, .rtf), extract_web (.html, .epub), mail (.eml).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable

from ..i18n import QT_TRANSLATE_NOOP
from ..models import Extracted, Status
from . import containers  # noqa: F401 - its messages' templates, for i18n.localize where no document is read
from .decode import _EMPTY
from .decode import extract_text as extract_text

TEXT_SUFFIXES = frozenset(
    {".txt", ".text", ".md", ".markdown", ".rst", ".csv", ".tsv", ".log", ".tex", ".org", ".adoc", ".srt"}
)
KIND_OF_SUFFIX = {
    **dict.fromkeys(TEXT_SUFFIXES, "text"),
    ".pdf": "pdf",
    ".docx": "docx",
    ".odt": "odt",
    ".rtf": "rtf",
    ".epub": "epub",
    ".html": "html",
    ".htm": "html",
    ".xhtml": "html",
    ".eml": "email",
    **dict.fromkeys((".png", ".jpg", ".jpeg", ".tif", ".tiff", ".bmp"), "image"),  # read only by OCR (ocr.py)
}
"""The kind of each file name ending neardup reads: the JSON report's ``type`` values are these kinds."""
KINDS = frozenset(KIND_OF_SUFFIX.values())
READ_WITHOUT_OCR = KINDS - {"image"}
"""What a scan reads when OCR is off: images have no text but what OCR reads in them."""

# What becomes of a file, stored in English in the database and translated where shown (i18n.localize)
_UNREAD_KIND = QT_TRANSLATE_NOOP("Problem", "neardup does not read {kind} files")
_NOT_AN_IMAGE = QT_TRANSLATE_NOOP("Problem", "This is not a PNG, JPEG, TIFF or BMP image, although its name says so.")
_IMAGE_NEEDS_OCR = QT_TRANSLATE_NOOP(
    "Problem", "An image: its text is read only with OCR (tick Read scans with OCR, or neardup scan --ocr)."
)


def kind_of(path: str) -> str | None:
    """The kind of file a path names by its ending (KIND_OF_SUFFIX), or None for one neardup does not read."""
    return KIND_OF_SUFFIX.get(os.path.splitext(path)[1].lower())


def extract(kind: str, data: bytes) -> Extracted:
    """The text of a file's bytes, given its kind (one of KINDS)."""
    reader = _readers().get(kind)
    if reader is None:
        return Extracted(Status.UNSUPPORTED, message=_UNREAD_KIND.format(kind=kind))
    if not data:
        return Extracted(Status.EMPTY, message=_EMPTY)
    return reader(data)


@functools.cache
def _readers() -> dict[str, Callable[[bytes], Extracted]]:
    from .mail import extract_email
    from .office import extract_docx, extract_odt, extract_rtf
    from .pdf import extract_pdf
    from .web import extract_epub, extract_html

    return {
        "text": extract_text,
        "pdf": extract_pdf,
        "docx": extract_docx,
        "odt": extract_odt,
        "rtf": extract_rtf,
        "epub": extract_epub,
        "html": extract_html,
        "email": extract_email,
        "image": _image,
    }


_IMAGE_SIGNATURES = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"II*\x00", b"MM\x00*", b"BM")  # PNG JPEG TIFF BMP


def _image(data: bytes) -> Extracted:
    """An image has no text but what OCR reads in it (scan.py hands it to ocr.py when asked: a page to
    read). Bytes that are no image are refused here: Tesseract takes what it cannot decode for a list of
    file names, and would read those files."""
    if not data.startswith(_IMAGE_SIGNATURES):
        return Extracted(Status.UNSUPPORTED, message=_NOT_AN_IMAGE)
    return Extracted(Status.EMPTY, message=_IMAGE_NEEDS_OCR, pages=1)
