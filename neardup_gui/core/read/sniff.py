"""What an office file's bytes are, whatever its name says: the container's signature, then what it holds.

People rename files, and programs save one format under another's ending: a .doc saved as .docx, an .xls
that is a web page, WPS Office's .wps, .et and .dps files that are Word, Excel or PowerPoint documents
inside. Only the directory of a container is looked at here (a compound file's stream names, a zip's member
names and its OpenDocument mimetype), never a document's text.
"""

from __future__ import annotations

import io
import zipfile
import zlib

from .ole import MAGIC as _COMPOUND
from .ole import stream_names

_OOXML_FOLDERS = (("word/", "docx"), ("xl/", "xlsx"), ("ppt/", "pptx"))
_ODF_MIMETYPES = {
    b"application/vnd.oasis.opendocument.text": "odt",
    b"application/vnd.oasis.opendocument.text-template": "odt",
    b"application/vnd.oasis.opendocument.spreadsheet": "ods",
    b"application/vnd.oasis.opendocument.spreadsheet-template": "ods",
    b"application/vnd.oasis.opendocument.presentation": "odp",
    b"application/vnd.oasis.opendocument.presentation-template": "odp",
    b"application/epub+zip": "epub",
}
# A web page's start; web apps' "Excel" downloads are often a bare table, or one after a meta or style tag
_HTML_STARTS = (b"<!doctype html", b"<html", b"<head", b"<body", b"<meta", b"<style", b"<table")
ENCRYPTED_OOXML = "encrypted"
"""A compound file holding an EncryptedPackage: a password-protected .docx, .xlsx or .pptx."""


def format_of(data: bytes) -> str | None:
    """The format the bytes are in: "doc", "xls", "ppt", "docx", "xlsx", "pptx", "odt", "ods", "odp",
    "epub", "rtf", "pdf", "html", "word-xml" and "excel-xml" (Office 2003's XML), ENCRYPTED_OOXML; None when
    they are none of these (or too damaged to tell)."""
    if data.startswith(_COMPOUND):
        return _compound_format(stream_names(data))
    if data.startswith(b"PK\x03\x04"):
        return _zip_format(data)
    head = data[:2048].lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith(b"{\\rtf"):
        return "rtf"
    if head.startswith(b"%PDF-"):
        return "pdf"
    lowered = head.lower()
    if lowered.startswith(b"<?xml"):  # Office 2003's XML documents, often saved under .doc and .xls names
        if b"urn:schemas-microsoft-com:office:spreadsheet" in lowered or b'progid="excel.sheet"' in lowered:
            return "excel-xml"
        if b"schemas.microsoft.com/office/word/2003/wordml" in lowered or b'progid="word.document"' in lowered:
            return "word-xml"
    if lowered.startswith(_HTML_STARTS) or (lowered.startswith(b"<?xml") and b"<html" in lowered):
        return "html"  # Word and Excel's "web page" saves, often named .doc and .xls
    return None


def _compound_format(streams: frozenset[str]) -> str | None:
    if "encryptedpackage" in streams:
        return ENCRYPTED_OOXML
    if "worddocument" in streams:
        return "doc"
    if "workbook" in streams or "book" in streams:  # BIFF8 and later; BIFF5 (Excel 5 and 95)
        return "xls"
    if "powerpoint document" in streams:
        return "ppt"
    return None


def _zip_format(data: bytes) -> str | None:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as package:
            names = package.namelist()
            if "mimetype" in names:
                with package.open("mimetype") as member:
                    odf = _ODF_MIMETYPES.get(member.read(100).strip())
                if odf:
                    return odf
    except (
        zipfile.BadZipFile,
        zlib.error,
        OSError,
        ValueError,
        RuntimeError,
        NotImplementedError,
        EOFError,
    ):
        return None  # cut short, or its mimetype entry unreadable: the named reader says how
    if "[Content_Types].xml" in names:
        for folder, fmt in _OOXML_FOLDERS:
            if any(name.startswith(folder) for name in names):
                return fmt
    return None
