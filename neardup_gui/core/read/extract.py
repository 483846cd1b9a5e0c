"""File bytes to text: the kind of each file name, and one reader per format, a status and a plain message
when there is no text. Text files are decoded by decode.py; the other formats have a module each: pdf.py
(PDFium, then pypdf), office.py (.docx, OpenDocument, .rtf), word97.py (.doc), sheets.py (.xls, .xlsx),
slides.py (.ppt, .pptx), web.py (.html, .epub), mail.py (.eml). An office file is read by what its bytes are
(sniff.py), whatever its name says.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import re
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
    **dict.fromkeys((".doc", ".dot"), "doc"),  # Word 97-2003 and its templates
    **dict.fromkeys((".docx", ".docm", ".dotx", ".dotm"), "docx"),
    ".odt": "odt",
    ".rtf": "rtf",
    **dict.fromkeys((".xls", ".xlt"), "xls"),
    **dict.fromkeys((".xlsx", ".xlsm", ".xltx", ".xltm"), "xlsx"),
    ".ods": "ods",
    **dict.fromkeys((".ppt", ".pps", ".pot"), "ppt"),
    **dict.fromkeys((".pptx", ".pptm", ".ppsx", ".ppsm", ".potx", ".potm"), "pptx"),
    ".odp": "odp",
    **dict.fromkeys((".wps", ".wpt"), "wps"),  # WPS Office: writer, spreadsheet, presentation, and templates
    **dict.fromkeys((".et", ".ett"), "et"),
    **dict.fromkeys((".dps", ".dpt"), "dps"),
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


OFFICE_FORMATS: dict[str, frozenset[str]] = {
    **{kind: frozenset({kind}) for kind in ("doc", "docx", "odt", "rtf", "xls", "xlsx", "ods", "ppt", "pptx", "odp")},
    # WPS Office saves its own endings in Microsoft's binary formats, and in OOXML when asked to
    "wps": frozenset({"doc", "docx"}),
    "et": frozenset({"xls", "xlsx"}),
    "dps": frozenset({"ppt", "pptx"}),
}
"""The office kinds, read by what their bytes are (sniff.py), and the formats each kind's name promises."""

_WPS_BINARY = {"wps": "doc", "et": "xls", "dps": "ppt"}
_WPS_OOXML = {"wps": "docx", "et": "xlsx", "dps": "pptx"}
_BIFF_STARTS = (b"\x09\x00", b"\x09\x02", b"\x09\x04", b"\x09\x08")  # an Excel 2-4 worksheet: bare records
_FORMAT_NAMES = {
    "doc": QT_TRANSLATE_NOOP("Problem", "a Word 97–2003 document (.doc)"),
    "docx": QT_TRANSLATE_NOOP("Problem", "a Word document (.docx)"),
    "odt": QT_TRANSLATE_NOOP("Problem", "an OpenDocument text (.odt)"),
    "rtf": QT_TRANSLATE_NOOP("Problem", "an RTF document (.rtf)"),
    "xls": QT_TRANSLATE_NOOP("Problem", "an Excel 97–2003 workbook (.xls)"),
    "xlsx": QT_TRANSLATE_NOOP("Problem", "an Excel workbook (.xlsx)"),
    "ods": QT_TRANSLATE_NOOP("Problem", "an OpenDocument spreadsheet (.ods)"),
    "ppt": QT_TRANSLATE_NOOP("Problem", "a PowerPoint 97–2003 presentation (.ppt)"),
    "pptx": QT_TRANSLATE_NOOP("Problem", "a PowerPoint presentation (.pptx)"),
    "odp": QT_TRANSLATE_NOOP("Problem", "an OpenDocument presentation (.odp)"),
    "pdf": QT_TRANSLATE_NOOP("Problem", "a PDF"),
    "html": QT_TRANSLATE_NOOP("Problem", "a web page (.html)"),
    "epub": QT_TRANSLATE_NOOP("Problem", "an e-book (.epub)"),
    "word-xml": QT_TRANSLATE_NOOP("Problem", "a Word 2003 XML document"),
    "excel-xml": QT_TRANSLATE_NOOP("Problem", "an Excel 2003 XML workbook"),
}
_READ_AS = QT_TRANSLATE_NOOP("Problem", "This file is {format}, whatever its name says, and was read as one.")
_NOT_ITS_FORMAT = QT_TRANSLATE_NOOP("Problem", "This is not {format}, although its name says so.")
_NEITHER_WPS = QT_TRANSLATE_NOOP(
    "Problem",
    "This file is not a WPS Office document (neither a Word, Excel nor PowerPoint file inside, nor an "
    "Office Open XML one); it may be from another program of that name, such as Microsoft Works.",
)


def extract(kind: str, data: bytes) -> Extracted:
    """The text of a file's bytes, given its kind (one of KINDS); an office file's message says where its bytes
    are another format than its name says."""
    if kind not in KINDS:
        return Extracted(Status.UNSUPPORTED, message=_UNREAD_KIND.format(kind=kind))
    if not data:
        return Extracted(Status.EMPTY, message=_EMPTY)
    if kind in OFFICE_FORMATS:
        return _office_file(kind, data)
    return _readers()[kind](data)


def _office_file(kind: str, data: bytes) -> Extracted:
    """An office file read as the format its bytes are; the message says so where its name promised another."""
    from .containers import PASSWORD_PROTECTED
    from .ole import MAGIC, stream_names
    from .sniff import ENCRYPTED_OOXML, format_of

    promised = OFFICE_FORMATS[kind]
    actual = format_of(data)
    if actual == ENCRYPTED_OOXML:
        return Extracted(Status.ENCRYPTED, message=PASSWORD_PROTECTED)
    if actual is None and kind in _WPS_BINARY:
        if data.startswith(b"PK"):
            actual = _WPS_OOXML[kind]  # a damaged package: its reader says how
        elif data.startswith(MAGIC) and not stream_names(data):
            actual = _WPS_BINARY[kind]  # a damaged compound file: its reader says how
        else:  # another program's compound file (Microsoft Works keeps a CONTENTS stream), or no office file
            return Extracted(Status.UNSUPPORTED, message=_NEITHER_WPS)
    elif actual is None and kind != "rtf" and not data.startswith((MAGIC, b"PK", *_BIFF_STARTS)):
        return Extracted(Status.UNSUPPORTED, message=_NOT_ITS_FORMAT.format(format=_FORMAT_NAMES[kind]))
    if actual is None or actual in promised:
        return _readers()[actual or kind](data)  # the named reader says what is wrong with what it is not
    found = _readers()[actual](data)
    if found.status is not Status.OK or found.message:  # its own message says more than what it is
        return found
    return dataclasses.replace(found, message=_READ_AS.format(format=_FORMAT_NAMES[actual]))


def message_for(kind: str, read_as: str, message: str) -> str:
    """The message of a file of ``kind`` whose bytes were read as ``read_as`` (the kind of the first file that
    held them; "" for its own kind). Bytes are read once for all their copies, so the note that they are
    another format than the name says belongs to each copy's name: a copy under the right name has none, a
    copy under a wrong name has it."""
    if not read_as or read_as == kind:
        return message
    noted = _READ_AS_PATTERN.fullmatch(message)
    if noted:
        actual = _FORMAT_OF_NAME.get(noted["format"])
    elif not message and len(_PROMISED.get(read_as, ())) == 1 and kind in OFFICE_FORMATS:
        (actual,) = _PROMISED[read_as]
    else:
        return message  # another message (a reader's own), or a WPS file's bytes, whose format is not kept
    if actual is None or actual in _PROMISED.get(kind, {kind}):
        return "" if noted else message
    return _READ_AS.format(format=_FORMAT_NAMES[actual])


_PROMISED = {**OFFICE_FORMATS, **{kind: frozenset({kind}) for kind in ("pdf", "html", "epub")}}
_FORMAT_OF_NAME = {name: fmt for fmt, name in _FORMAT_NAMES.items()}
_READ_AS_PATTERN = re.compile(re.escape(_READ_AS).replace(re.escape("{format}"), "(?P<format>.+)"))


@functools.cache
def _readers() -> dict[str, Callable[[bytes], Extracted]]:
    from .mail import extract_email
    from .office import extract_docx, extract_odp, extract_odt, extract_rtf, extract_word_xml
    from .pdf import extract_pdf
    from .sheets import extract_excel_xml, extract_ods, extract_xls, extract_xlsx
    from .slides import extract_ppt, extract_pptx
    from .web import extract_epub, extract_html
    from .word97 import extract_doc

    return {
        "text": extract_text,
        "pdf": extract_pdf,
        "doc": extract_doc,
        "docx": extract_docx,
        "odt": extract_odt,
        "rtf": extract_rtf,
        "xls": extract_xls,
        "xlsx": extract_xlsx,
        "ods": extract_ods,
        "ppt": extract_ppt,
        "pptx": extract_pptx,
        "odp": extract_odp,
        "epub": extract_epub,
        "html": extract_html,
        "email": extract_email,
        "image": _image,
        "word-xml": extract_word_xml,  # formats a file's bytes may be, under an office name (sniff.py)
        "excel-xml": extract_excel_xml,
    }


_IMAGE_SIGNATURES = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"II*\x00", b"MM\x00*", b"BM")  # PNG JPEG TIFF BMP


def _image(data: bytes) -> Extracted:
    """An image has no text but what OCR reads in it (scan.py hands it to ocr.py when asked: a page to
    read). Bytes that are no image are refused here: Tesseract takes what it cannot decode for a list of
    file names, and would read those files."""
    if not data.startswith(_IMAGE_SIGNATURES):
        return Extracted(Status.UNSUPPORTED, message=_NOT_AN_IMAGE)
    return Extracted(Status.EMPTY, message=_IMAGE_NEEDS_OCR, pages=1)
