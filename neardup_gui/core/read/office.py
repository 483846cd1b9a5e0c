"""Text of word-processor documents: Word (.docx), OpenDocument (.odt, and its spreadsheets and presentations,
.ods and .odp, which are the same XML) and RTF.

What is read is what a reader of the document reads: the body's paragraphs and tables, text boxes once,
then the footnotes and endnotes; not styles, metadata, comments, deleted tracked changes or field codes.
.docx and .odt are read from their XML directly (containers.Package: bounded, no DTDs); RTF through
striprtf (BSD-3-Clause).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from ..errors import read_failure
from ..i18n import QT_TRANSLATE_NOOP
from ..models import Extracted, Status
from .containers import PASSWORD_PROTECTED, Package, TextBudget, Unreadable, parse_xml, resolve
from .ole import MAGIC as OLE_MAGIC

_NO_TEXT = QT_TRANSLATE_NOOP("Problem", "The document holds no text.")
_OTHER_COMPOUND = QT_TRANSLATE_NOOP(
    "Problem",
    "This is a binary Office file that holds no Word, Excel or PowerPoint document (another program's file?).",
)
_DAMAGED_RTF = QT_TRANSLATE_NOOP(
    "Problem",
    "Damaged RTF document: its control words could not be read. Open it in its program and save it again to "
    "compare it.",
)
_NOT_RTF = QT_TRANSLATE_NOOP("Problem", "This is not an RTF document, although its name says so.")

_ENCRYPTED_PACKAGE = "EncryptedPackage".encode("utf-16-le")  # the stream an encrypted OOXML file holds

_WORD_2003 = "http://schemas.microsoft.com/office/word/2003/wordml"
_WORD = frozenset(
    {
        "http://schemas.openxmlformats.org/wordprocessingml/2006/main",
        "http://purl.oclc.org/ooxml/wordprocessingml/main",
        _WORD_2003,  # Word 2003's XML document: the same elements, one file
    }
)  # transitional and strict
_ANNOTATION = "http://schemas.microsoft.com/aml/2001/core annotation"
_NOT_TEXT_2003 = frozenset({"Word.Comment", "Word.Deletion"})  # a Word 2003 XML annotation that is no text
MARKUP_COMPATIBILITY = "http://schemas.openxmlformats.org/markup-compatibility/2006"
_RELATIONSHIPS = "http://schemas.openxmlformats.org/package/2006/relationships"
RELATIONSHIP_IDS = (
    "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
    "http://purl.oclc.org/ooxml/officeDocument/relationships",
)  # the namespace of r:id, which names a part by its relationship: transitional and strict


def finish(pieces: list[str], encoding: str = "") -> Extracted:
    """The document's text from its pieces: lines stripped of trailing blanks, runs of blank lines one (line
    by line: a regular expression over a long run of spaces takes quadratic time)."""
    text = "\n".join(line.rstrip(" \t") for line in "".join(pieces).split("\n"))
    text = re.sub(r"\n{3,}", "\n\n", text).strip("\n")
    if not text.strip():
        return Extracted(Status.EMPTY, message=_NO_TEXT, encoding=encoding)
    return Extracted(Status.OK, text=text, encoding=encoding)


def end_cell(pieces: list[str]) -> None:
    """A table cell ends: its last paragraph's line break becomes the tab between cells."""
    if pieces and pieces[-1] == "\n":
        pieces[-1] = "\t"
    else:
        pieces.append("\t")


def read_package(data: bytes) -> Package:
    """The document's package, or Unreadable: a compound file here is an encrypted Office document, or one of
    a program neardup does not read (extract.py reads Word, Excel and PowerPoint's own before they come here)."""
    if data.startswith(OLE_MAGIC):
        if _ENCRYPTED_PACKAGE in data:
            raise Unreadable(Status.ENCRYPTED, PASSWORD_PROTECTED)
        raise Unreadable(Status.UNSUPPORTED, _OTHER_COMPOUND)
    return Package(data)


# --- Word ---------------------------------------------------------------------------------------------


def extract_docx(data: bytes) -> Extracted:
    """A .docx's body, then its footnotes and endnotes."""
    try:
        package = read_package(data)
        main = main_part(package, "word/document.xml")
        pieces: list[str] = []
        _word_text(package.read(main), main, pieces)
        for part in _related_parts(package, main, ("footnotes", "endnotes")):
            pieces.append("\n")
            _word_text(package.read(part), part, pieces)
    except Unreadable as problem:
        return problem.outcome
    return finish(pieces)


def extract_word_xml(data: bytes) -> Extracted:
    """A Word 2003 XML document (often saved under a .doc name): its body, footnotes where they stand."""
    pieces: list[str] = []
    try:
        _word_text(data, "document", pieces)
    except Unreadable as problem:
        return problem.outcome
    return finish(pieces)


def relationships(package: Package, part: str) -> dict[str, tuple[str, str]]:
    """Each relationship of ``part`` ("" for the package's own) by its id: (its type's last word, its target
    part). A workbook names its sheets, and a presentation its slides, by these ids."""
    folder, _, name = part.rpartition("/")
    rels = f"{folder}/_rels/{name}.rels" if folder else f"_rels/{name}.rels"
    if not package.has(rels):
        return {}
    found: dict[str, tuple[str, str]] = {}

    def start(tag: str, attrs: dict[str, str]) -> None:
        if tag == f"{_RELATIONSHIPS} Relationship" and attrs.get("TargetMode") != "External":
            kind = attrs.get("Type", "").rsplit("/", 1)[-1]
            found[attrs.get("Id", "")] = (kind, resolve(part, attrs.get("Target", "")))

    parse_xml(package.read(rels), rels, start)
    return found


def main_part(package: Package, usual: str) -> str:
    """The package's main document part (its officeDocument relationship), or where it usually is."""
    return next((target for kind, target in relationships(package, "").values() if kind == "officeDocument"), usual)


def _related_parts(package: Package, main: str, kinds: tuple[str, ...]) -> list[str]:
    related = dict(relationships(package, main).values())
    return [related[kind] for kind in kinds if kind in related and package.has(related[kind])]


def _word_text(xml: bytes, part: str, pieces: list[str]) -> None:
    """Append the text of one WordprocessingML part: w:t inside runs, tabs and breaks of runs, a line a
    paragraph, a table's row on a line, its cells apart by tabs; a text box's fallback copy (mc:Fallback)
    and text moved away (w:moveFrom) skipped, and a Word 2003 XML document's comments and deletions;
    deleted text (w:delText) and field codes (w:instrText) are other elements, never read."""
    state = {"skip": 0, "text": False, "run": 0}

    def start(tag: str, attrs: dict[str, str]) -> None:
        namespace, _, local = tag.rpartition(" ")
        if state["skip"]:
            state["skip"] += 1
            return
        fallback = namespace == MARKUP_COMPATIBILITY and local == "Fallback"
        if fallback or (tag == _ANNOTATION and attrs.get(f"{_WORD_2003} type") in _NOT_TEXT_2003):
            state["skip"] = 1
        elif namespace in _WORD:
            if local == "txbxContent":  # a text box's text is not the word before it
                pieces.append("\n")
            elif local == "t":
                state["text"] = True
            elif local == "r":
                state["run"] += 1
            elif local == "moveFrom":
                state["skip"] = 1
            elif state["run"]:
                if local == "tab":
                    pieces.append("\t")
                elif local in ("br", "cr"):
                    pieces.append("\n")
                elif local == "noBreakHyphen":
                    pieces.append("-")

    def end(tag: str) -> None:
        if state["skip"]:
            state["skip"] -= 1
            return
        namespace, _, local = tag.rpartition(" ")
        if namespace in _WORD:
            if local == "t":
                state["text"] = False
            elif local == "r":
                state["run"] -= 1
            elif local == "p":
                pieces.append("\n")
            elif local == "tc":
                end_cell(pieces)
            elif local == "tr":
                pieces.append("\n")

    def text(data: str) -> None:
        if state["text"] and not state["skip"]:
            pieces.append(data)

    parse_xml(xml, part, start, end, text)


# --- OpenDocument -------------------------------------------------------------------------------------

_ODF_TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
ODF_OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
_ODF_TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
_ODF_DRAWING = "urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"
_ODF_SVG = "urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"
_ODF_PRESENTATION = "urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"
_ODF_SKIPPED = frozenset(
    {
        (_ODF_SVG, "title"),
        (_ODF_SVG, "desc"),  # a picture's alternative text: not what the page says
        (ODF_OFFICE, "annotation"),
        (ODF_OFFICE, "annotation-end"),
        (_ODF_TEXT, "tracked-changes"),
        (_ODF_TEXT, "note-citation"),
        (_ODF_TEXT, "sequence-decls"),
        (_ODF_TEXT, "variable-decls"),
        (_ODF_TEXT, "user-field-decls"),
    }
)
_ODF_REPEATED = f"{_ODF_TABLE} number-columns-repeated"
_ODF_SPACES = f"{_ODF_TEXT} c"
_ODF_SLIDE_NOTES = f"{_ODF_PRESENTATION} notes"
# What an element's start and end do: skip it and all inside, count the body or a note, a cell's bounds, or
# the characters written
_ODF_STARTS: dict[str, str] = {
    **{f"{namespace} {local}": "skip" for namespace, local in _ODF_SKIPPED},
    f"{ODF_OFFICE} body": "body",
    f"{_ODF_DRAWING} text-box": "\n",
    _ODF_SLIDE_NOTES: "note",
    f"{_ODF_TEXT} note-body": "note",
    f"{_ODF_TABLE} table-cell": "cell",
    f"{_ODF_TEXT} s": "spaces",
    f"{_ODF_TEXT} tab": "\t",
    f"{_ODF_TEXT} line-break": "\n",
}
_ODF_ENDS: dict[str, str] = {
    f"{_ODF_TEXT} p": "\n",
    f"{_ODF_TEXT} h": "\n",
    f"{_ODF_TEXT} note-body": "note",
    f"{_ODF_TABLE} table-cell": "cell",
    f"{_ODF_TABLE} table-row": "\n",
    f"{_ODF_TABLE} table": "\n",
    f"{_ODF_DRAWING} page": "\n\n",
    _ODF_SLIDE_NOTES: "note",
    f"{ODF_OFFICE} body": "body",
}


def extract_odt(data: bytes) -> Extracted:
    """An OpenDocument text's body; its notes (footnotes, endnotes) after it, as a .docx has them."""
    return extract_odf(data)


def extract_odp(data: bytes) -> Extracted:
    """An OpenDocument presentation's slides in order, then the speaker notes of each, as .ppt and .pptx
    are read."""
    return extract_odf(data)


def extract_odf(data: bytes, cell_value: CellValue | None = None) -> Extracted:
    """An OpenDocument file's content.xml: the body (text, sheets or slides), then what stands apart from it
    (notes); a spreadsheet cell's text what ``cell_value`` makes of its attributes, where it makes anything."""
    try:
        package = read_package(data)
        if package.has("META-INF/manifest.xml") and b"encryption-data" in package.read("META-INF/manifest.xml"):
            raise Unreadable(Status.ENCRYPTED, PASSWORD_PROTECTED)
        body: list[str] = []
        notes: list[str] = []
        _odf_text(package.read("content.xml"), "content.xml", body, notes, cell_value)
    except Unreadable as problem:
        return problem.outcome
    return finish([*body, "\n", *notes])


CellValue = Callable[[dict[str, str]], "str | None"]
"""A spreadsheet cell's text from its attributes (its value and type), or None to read the text it shows."""


def _odf_text(xml: bytes, part: str, body: list[str], notes: list[str], cell_value: CellValue | None = None) -> None:
    """Append an OpenDocument part's text: a line a paragraph or heading, a table's row on a line, its cells
    apart by tabs (a cell repeated as often as it says), sheets and slides apart by a blank
    line, spaces (text:s), tabs and line breaks as written; the bodies of footnotes and the speaker notes of
    slides to ``notes``; annotations, tracked changes and note numbers skipped; what repeats, within a
    TextBudget; a cell whose ``cell_value`` is
    a text has that text, not what it shows. Each element is one look-up in _ODF_STARTS or _ODF_ENDS: a sheet
    of 60,000 cells is 130,000 elements."""
    state = {"skip": 0, "note": 0, "body": 0, "valued": 0}
    cells: list[tuple[int, int]] = []  # for each open cell: where its text starts, how often it repeats
    budget = TextBudget()  # a repeated cell inside a repeated cell inside...

    def out() -> list[str]:
        return notes if state["note"] else body

    def start(tag: str, attrs: dict[str, str]) -> None:
        if state["skip"] or state["valued"]:
            state["skip" if state["skip"] else "valued"] += 1
            return
        action = _ODF_STARTS.get(tag)
        if action is None:
            return
        if action == "skip":
            state["skip"] = 1
        elif action == "body":
            state["body"] += 1
        elif action == "cell":
            repeated = attrs.get(_ODF_REPEATED)
            cells.append((len(out()), _count(repeated) if repeated else 1))
            value = cell_value(attrs) if cell_value else None
            if value is not None:  # its value, not what it shows: what is inside is not read
                out().append(value)
                state["valued"] = 1
        elif action == "note":
            state["note"] += 1
            if tag == _ODF_SLIDE_NOTES:
                out().append("\n")
        elif action == "spaces":
            spaces = _count(attrs.get(_ODF_SPACES))
            budget.spend(spaces)
            out().append(" " * spaces)
        else:
            out().append(action)

    def end(tag: str) -> None:
        if state["skip"]:
            state["skip"] -= 1
            return
        if state["valued"]:
            state["valued"] -= 1
            if state["valued"]:
                return  # inside a cell read by its value
        action = _ODF_ENDS.get(tag)
        if action is None:
            return
        if action == "cell":
            _end_cell(out(), *(cells.pop() if cells else (len(out()), 1)), budget)
        elif action == "note":
            state["note"] -= 1
        elif action == "body":
            state["body"] -= 1
        else:
            out().append(action)

    def text(data: str) -> None:
        if state["body"] and not state["skip"] and not state["valued"]:
            out().append(data)

    parse_xml(xml, part, start, end, text)


def _end_cell(pieces: list[str], start: int, repeated: int, budget: TextBudget) -> None:
    """A spreadsheet cell ends: a tab after its text (an empty one has no paragraph: a tab alone, not the row
    before it joined). One with text that says it is repeated (number-columns-repeated) is written that often,
    within the budget; an empty one is not: a sheet's rows end in a run of a thousand empty cells."""
    if len(pieces) > start:
        end_cell(pieces)
    else:
        pieces.append("\t")
    written = pieces[start:]
    if repeated > 1 and "".join(written).strip():
        budget.spend(sum(map(len, written)) * (repeated - 1))
        pieces.extend(written * (repeated - 1))


_MOST_REPEATED = 16_384  # a sheet's columns at most; spaces and repeated cells are charged to a TextBudget


def _count(value: str | None) -> int:
    try:
        return max(1, min(int(value or 1), _MOST_REPEATED))
    except ValueError:
        return 1


# --- RTF ----------------------------------------------------------------------------------------------


def extract_rtf(data: bytes) -> Extracted:
    """An RTF document's text (striprtf: the body and tables; its footnotes are among what it leaves out)."""
    from striprtf.striprtf import rtf_to_text

    if not data.lstrip().startswith(b"{\\rtf"):
        return Extracted(Status.UNSUPPORTED, message=_NOT_RTF)
    # RTF is 7-bit: other characters are escapes (\'hh in the document's code page, \uN); a byte above
    # 127 written raw by a careless writer is kept as the Latin-1 character it is.
    _readable_charsets()
    try:
        text = rtf_to_text(data.decode("latin-1"), errors="replace")
    except MemoryError:
        raise
    except Exception as exc:  # striprtf's parsing of a broken file raises what it happens to (TypeError, ValueError...)
        return Extracted(Status.ERROR, message=read_failure(exc, _DAMAGED_RTF))
    return finish([text])


# Code pages striprtf names that Python lacks (Mac font charsets), and the nearest it has
_CHARSET_STAND_INS = {
    "mac_japanese": "shift_jis",
    "mac_chinesetrad": "big5",
    "mac_korean": "euc_kr",
    "mac_hebrew": "cp1255",
    "mac_chinesesimp": "gb18030",
    "mac_rumanian": "mac_romanian",
    "mac_ukrainian": "mac_cyrillic",
    "mac_thai": "cp874",
    "mac_ce": "mac_latin2",
}


@functools.cache
def _readable_charsets() -> None:
    """Point striprtf's table of RTF font charsets at codecs Python has (once): an RTF naming a Mac
    Japanese or Chinese font is read, not called damaged for "unknown encoding"."""
    import codecs

    from striprtf import striprtf

    for number, name in list(striprtf.charset_map.items()):
        try:
            codecs.lookup(name)
        except LookupError:
            striprtf.charset_map[number] = _CHARSET_STAND_INS.get(name, "cp1252")
