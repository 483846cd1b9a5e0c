"""Reading the parts of zip-packed documents (Word .docx, OpenDocument .odt, EPUB) without trusting them.

A document is a zip of XML parts. Two attacks hide there, and both are refused with a plain message
rather than read: a zip bomb (parts that inflate to far more than any real document's text: at most
UNPACKED_LIMIT bytes are inflated a document, counted as they come out, whatever the zip's directory
claims) and XML entity expansion (a document type definition in a part: Office, OpenDocument and EPUB
parts never need one, so any DTD is refused before an entity could be declared).
"""

from __future__ import annotations

import functools
import posixpath
import re
import zipfile
import zlib
from collections.abc import Callable
from typing import Any
from xml.parsers import expat

from ..errors import read_failure
from ..i18n import QT_TRANSLATE_NOOP
from ..models import Extracted, Status

UNPACKED_LIMIT = 128 << 20
"""Bytes of a document's parts inflated at most (its text parts, never its pictures): a 2,000-page
book's XML is a few tens of MB."""

_CHUNK = 1 << 20

_DAMAGED = QT_TRANSLATE_NOOP(
    "Problem",
    "Damaged document: its contents could not be read. Open it in its program and save it again to compare it.",
)
_NOT_A_PACKAGE = QT_TRANSLATE_NOOP(
    "Problem", "Damaged document: it is not a complete package of its format (a download or copy cut short?)."
)
_MISSING_PART = QT_TRANSLATE_NOOP("Problem", "Damaged document: its part {part} is missing.")
_BOMB = QT_TRANSLATE_NOOP(
    "Problem", "Not read: this document unpacks to more than {limit} MB of text parts (a zip bomb?)."
)
_DTD = QT_TRANSLATE_NOOP(
    "Problem",
    "Not read: the document's part {part} declares a document type (XML entities), which such "
    "documents never need; it could expand without limit.",
)
PASSWORD_PROTECTED = QT_TRANSLATE_NOOP(
    "Problem", "Password-protected document: remove the password (or save an unprotected copy) to compare it."
)


TEXT_LIMIT = 32 << 20
"""Characters of text one document may give at most: a 2,000-page book has a few million. A crafted file
repeats one text without end (a cell repeated, one string shared by every cell, pieces over the same bytes)
from a few bytes; TextBudget stops it there."""
_TOO_MUCH_TEXT = QT_TRANSLATE_NOOP(
    "Problem", "Not read: this document would give more than {limit} million characters of text (a crafted file?)."
)


class TextBudget:
    """The characters a document's reader may still give (TEXT_LIMIT); ``spend`` raises Unreadable (too large)
    when a text repeated, or shared, over and over would pass it."""

    __slots__ = ("left",)

    def __init__(self) -> None:
        self.left = TEXT_LIMIT

    def spend(self, characters: int) -> None:
        self.left -= characters
        if self.left < 0:
            raise Unreadable(Status.TOO_LARGE, _TOO_MUCH_TEXT.format(limit=TEXT_LIMIT // 1_000_000))


class Unreadable(Exception):  # noqa: N818 - an outcome, like JobCancelled
    """A document that cannot be read; ``outcome`` is what the scan records (status and message)."""

    def __init__(self, status: Status, message: str) -> None:
        super().__init__(message)
        self.outcome = Extracted(status, message=message)


def damaged(reason: BaseException | str) -> Unreadable:
    """The outcome for a document whose structure is broken: why in plain words, the reader's own as details."""
    return Unreadable(Status.ERROR, read_failure(reason, _DAMAGED))


# What reading a broken zip or XML part can raise; anything else is a bug of ours, which the pool reports.
READ_ERRORS: tuple[type[BaseException], ...] = (
    zipfile.BadZipFile,
    zlib.error,
    EOFError,
    OSError,
    ValueError,
    KeyError,
    IndexError,
    NotImplementedError,
    expat.ExpatError,
    UnicodeError,
    RecursionError,
)


class Package:
    """The parts of one zip-packed document, each inflated at most once, all within UNPACKED_LIMIT."""

    def __init__(self, data: bytes) -> None:
        import io

        try:
            self._zip = zipfile.ZipFile(io.BytesIO(data))
        except zipfile.BadZipFile as exc:  # no zip directory at its end: cut short, or not this format at all
            raise Unreadable(Status.ERROR, _NOT_A_PACKAGE) from exc
        except READ_ERRORS as exc:  # a directory entry zipfile refuses ("zip file version 10.0")
            raise damaged(exc) from exc
        self._names = {info.filename for info in self._zip.infolist()}
        self._unpacked = 0

    def has(self, name: str) -> bool:
        """Whether the package holds a part of that name."""
        return name in self._names

    def read(self, name: str) -> bytes:
        """One part's bytes. Raises Unreadable when it is missing, its zip entry is encrypted, or the
        document's inflated parts pass UNPACKED_LIMIT."""
        if name not in self._names:
            raise Unreadable(Status.ERROR, _MISSING_PART.format(part=name))
        chunks: list[bytes] = []
        try:
            with self._zip.open(name) as member:
                while chunk := member.read(_CHUNK):
                    self._unpacked += len(chunk)
                    if self._unpacked > UNPACKED_LIMIT:
                        raise Unreadable(Status.TOO_LARGE, _BOMB.format(limit=UNPACKED_LIMIT >> 20))
                    chunks.append(chunk)
        except NotImplementedError as exc:  # a compression zipfile lacks (Deflate64): not a password
            raise damaged(exc) from exc
        except RuntimeError as exc:  # zipfile: "File ... is encrypted, password required for extraction"
            raise Unreadable(Status.ENCRYPTED, PASSWORD_PROTECTED) from exc
        except READ_ERRORS as exc:
            raise damaged(exc) from exc
        return b"".join(chunks)


def resolve(base_part: str, target: str) -> str:
    """A relationship's or a link's target (relative to ``base_part``'s folder, or absolute from the
    package's root) as a part name."""
    from urllib.parse import unquote

    target = unquote(target.split("#", 1)[0])
    if target.startswith("/"):
        return posixpath.normpath(target.lstrip("/"))
    return posixpath.normpath(posixpath.join(posixpath.dirname(base_part), target))


def parse_xml(
    data: bytes,
    part: str,
    start: Callable[[str, dict[str, str]], Any],
    end: Callable[[str], Any] | None = None,
    text: Callable[[str], Any] | None = None,
) -> None:
    """Run one XML part through expat, names as "namespace local-name". A document type declaration is
    refused (Unreadable) before anything in it is read."""
    parser = expat.ParserCreate(namespace_separator=" ")
    parser.buffer_text = True

    def refuse(*_args: object) -> None:
        raise Unreadable(Status.ERROR, _DTD.format(part=part))

    parser.StartDoctypeDeclHandler = refuse
    parser.EntityDeclHandler = refuse
    parser.StartElementHandler = start
    if end is not None:
        parser.EndElementHandler = end
    if text is not None:
        parser.CharacterDataHandler = text
    try:
        parser.Parse(data, True)
    except (expat.ExpatError, LookupError, ValueError) as exc:  # also a declared encoding expat cannot read:
        raise damaged(f"{part}: {exc}") from exc  # unknown ("UTD-8": LookupError), multi-byte ("gbk": ValueError)


_DECLARATION = re.compile(r"""<\?xml[^>]*?\sencoding\s*=\s*["']([^"']*)["'][^>]*\?>|<\?xml[^>]*\?>""")
_REFERENCE = re.compile(r"&(?:#x([0-9a-fA-F]+)|#([0-9]+)|(amp|lt|gt|quot|apos));")
_NOT_A_REFERENCE = re.compile(r"&(?!(?:#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);)")
_NAMED = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}
_ROOT = re.compile(r"<[A-Za-z_][\w.-]*(?=[\s/>])[^>]*>")  # an unprefixed element's start tag
_CONTROLS = bytes([*range(9), 11, 12, *range(14, 32)])  # the control characters XML 1.0 forbids
_NOT_CHARACTERS = (b"\xef\xbf\xbe", b"\xef\xbf\xbf")  # U+FFFE and U+FFFF in UTF-8


class NotPlain(Exception):  # noqa: N818 - an outcome: read the part by expat
    """An XML part is not in the shape plain_xml lets regular expressions read exactly, found only while reading
    it (a cell's attributes that are not plain name="value" pairs)."""


@functools.cache
def _other_elements(elements: frozenset[str]) -> re.Pattern[str]:
    """Any markup but the start and end tags of ``elements``: another element, a prefixed one, a comment, CDATA,
    an instruction. One look at each "<", whatever follows it."""
    names = "|".join(sorted(map(re.escape, elements)))
    return re.compile(f"<(?!/?(?:{names})[\\s/>])")


def plain_xml(
    data: bytes, namespaces: tuple[str, ...], first: str, last: str, elements: frozenset[str]
) -> tuple[str, int, int] | None:
    """An XML part's text, with where its element ``first`` starts (an opening tag's start, "<sheetData") and
    where ``last`` ends (a closing tag, "</sheetData>"), when the part is as the programs that make such files
    write it: UTF-8; its root element unprefixed, declaring one of ``namespaces`` its default; no document
    type; after the root's start tag, no namespace declared; between the two, no markup but ``elements``'
    tags (unprefixed), no ">" but those ending tags (so none inside an attribute's value), no reference XML
    does not define; in all of it, no character XML 1.0 forbids. None otherwise: the part is then read by
    expat (parse_xml), exact about all of XML. A reader of the span with regular expressions is exact about
    this shape, and takes no Python call per element (a sheet of 60,000 cells is 130,000 elements); it
    raises NotPlain for what only reading finds."""
    if len(data.translate(None, _CONTROLS)) != len(data) or any(bad in data for bad in _NOT_CHARACTERS):
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    declared = _DECLARATION.match(text, 1 if text.startswith("\ufeff") else 0)
    if declared and declared.group(1) and declared.group(1).lower() not in ("utf-8", "utf8"):
        return None
    begin, end = text.find(first), text.rfind(last)
    if begin < 0 or end < begin:
        return None
    end += len(last)
    root = _ROOT.match(text, _prolog_end(text, declared.end() if declared else 0))
    if (
        root is None
        or not any(
            re.search(rf"""\sxmlns\s*=\s*(["']){re.escape(namespace)}\1""", root.group()) for namespace in namespaces
        )
        or begin < root.start()
        or text.find("<!", 0, begin) >= 0
        or text.find("xmlns", root.end(), end) >= 0
        or text.count("<", begin, end) != text.count(">", begin, end)
        or _other_elements(elements).search(text, begin, end)
        or _NOT_A_REFERENCE.search(text, begin, end)
        or any(not match[3] and not _allowed(match) for match in _REFERENCE.finditer(text, begin, end))
    ):
        return None
    return text, begin, end


def _prolog_end(text: str, at: int) -> int:
    """Where the root element starts: after the declaration, the white space before it."""
    while at < len(text) and text[at] in " \t\r\n\ufeff":
        at += 1
    return at


def xml_text(raw: str) -> str:
    """An element's characters, from a span plain_xml let through, as an XML parser gives them: line ends as
    one newline, references resolved (plain_xml saw that each is one XML allows)."""
    if "\r" in raw:
        raw = raw.replace("\r\n", "\n").replace("\r", "\n")
    if "&" in raw:
        raw = _REFERENCE.sub(_reference, raw)
    return raw


def _reference(match: re.Match[str]) -> str:
    name = match.group(3)
    return _NAMED[name] if name else chr(_code(match))


def _code(match: re.Match[str]) -> int:
    """The character a numeric reference (a _REFERENCE match) names."""
    hexadecimal, decimal = match.group(1), match.group(2)
    return int(hexadecimal, 16) if hexadecimal else int(decimal)


def _allowed(match: re.Match[str]) -> bool:
    """Whether a numeric character reference names a character XML 1.0 allows."""
    code = _code(match)
    return code in (0x9, 0xA, 0xD) or 0x20 <= code <= 0xD7FF or 0xE000 <= code <= 0xFFFD or 0x10000 <= code <= 0x10FFFF
