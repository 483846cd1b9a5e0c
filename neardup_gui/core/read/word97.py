"""Text of Word 97–2003 documents (.doc, and WPS Office's writer files, which are the same format), read from
the format's own structure ([MS-DOC]) in a compound file (ole.Compound).

The text is where the piece table says: the File Information Block (FIB) at the start of the WordDocument
stream gives the lengths of the stories and where the piece table (the Clx) lies in the table stream; each
piece is a run of characters, 8-bit (cp1252) or UTF-16, anywhere in WordDocument. A fast-saved document
appends its edits and reorders its pieces, so reading by the piece table reads it right where a scan of the
stream would not. What is read is what a .docx's reader reads: the body with its tables, then the footnotes,
the endnotes and the text boxes; not headers, comments or field codes (a field's shown result is kept).
"""

from __future__ import annotations

import bisect
import re
import struct

from ..i18n import QT_TRANSLATE_NOOP
from ..models import Extracted, Status
from .containers import PASSWORD_PROTECTED, Unreadable, damaged
from .office import finish
from .ole import Compound

_NOT_WORD = QT_TRANSLATE_NOOP(
    "Problem", "This Office file holds no Word document (its WordDocument part is not one); it cannot be compared."
)
_WORD_95 = QT_TRANSLATE_NOOP(
    "Problem",
    "A Word document older than Word 97 (Word 6 or 95), which neardup does not read; open it in Word, WPS or "
    "LibreOffice and save it as .docx to compare it.",
)
_BROKEN_PIECES = QT_TRANSLATE_NOOP(
    "Problem",
    "Damaged Word document: its table of text pieces points outside the file. Open it in its program and save "
    "it again to compare it.",
)

_IDENT = 0xA5EC  # wIdent of every Word 97-2003 FIB
_NFIB_WORD97 = 0x00C1  # Word 97 and later; 101-105 are Word 6 and 95
_F_ENCRYPTED = 0x0100
_F_WHICH_TABLE = 0x0200  # the piece table is in 1Table, else 0Table
_FC_CLX = 33  # the Clx's index among the FIB's (fc, lcb) pairs
_FC_PLCF_BTE_PAPX = 13  # the paragraphs' properties' (PlcBtePapx)
_SPRM_TTP = (0x2417, 0x244C)  # sprmPFTtp, sprmPFInnerTtp: this paragraph ends a table row
# operand sizes of a sprm by its spra (its top three bits); 6: variable, its size in the byte after the sprm
_OPERAND = {0: 1, 1: 1, 2: 2, 3: 4, 4: 2, 5: 2, 7: 3}
_SPRM_T_DEF_TABLE = 0xD608  # a variable operand whose size is two bytes
_STORIES = ("text", "footnotes", "headers", "macros", "comments", "endnotes", "text boxes", "header text boxes")
_READ = ("text", "footnotes", "endnotes", "text boxes")
"""The stories read, in this order; their lengths are ccpText... ccpHdrTxbx, FibRgLw97's longs 3 to 10."""

_FIELD_BEGIN, _FIELD_SEPARATOR, _FIELD_END = "\x13", "\x14", "\x15"
_CELL = "\x07"  # ends a table cell, and a table row after its last cell's mark
# Word's marks in the text, as a reader of the page sees them: paragraph, line, page and column breaks are
# line ends; a non-breaking hyphen is a hyphen; the marks of pictures, drawn objects, note references and
# comment anchors, and the optional hyphen, are nothing.
_MARKS = str.maketrans(
    {
        "\r": "\n",
        "\x0b": "\n",
        "\x0c": "\n",
        "\x0e": "\n",
        "\x1e": "-",
        **dict.fromkeys((c for c in map(chr, range(0x20)) if c not in "\t\n\r\x07\x0b\x0c\x0e\x13\x14\x15\x1e"), None),
    }
)


def extract_doc(data: bytes) -> Extracted:
    """A Word 97–2003 document's text: body and tables, footnotes, endnotes, text boxes."""
    try:
        document = Compound(data)
        if not document.has("WordDocument"):
            raise Unreadable(Status.UNSUPPORTED, _NOT_WORD)
        stream = document.read("WordDocument")
        fib = _fib(stream)
        if fib.encrypted:
            raise Unreadable(Status.ENCRYPTED, PASSWORD_PROTECTED)
        table = document.read(fib.table)
        text_pieces = _clx_pieces(table, fib.clx, fib.clx_size)
        text = _piece_text(stream, text_pieces)
    except Unreadable as problem:
        return problem.outcome
    rows = _row_ends(stream, table, fib.papx, fib.papx_size, text_pieces, text)
    pieces: list[str] = []
    start = 0
    for story, length in zip(_STORIES, fib.story_lengths, strict=True):
        if story in _READ and length:
            pieces.append(_visible(text[start : start + length], rows, start))
            pieces.append("\n")
        start += length
    return finish(pieces)


class _Fib:
    """What is read of a FIB: whether it is encrypted, the table stream's name, the Clx, the stories' lengths."""

    __slots__ = ("clx", "clx_size", "encrypted", "papx", "papx_size", "story_lengths", "table")

    def __init__(
        self, table: str, clx: tuple[int, int], papx: tuple[int, int], story_lengths: tuple[int, ...], encrypted: bool
    ) -> None:
        self.table, (self.clx, self.clx_size), (self.papx, self.papx_size) = table, clx, papx
        self.story_lengths, self.encrypted = story_lengths, encrypted


def _fib(stream: bytes) -> _Fib:
    """The FIB at the head of the WordDocument stream ([MS-DOC] 2.5.1): FibBase (32 bytes), then three arrays,
    each after its count: 16-bit words, 32-bit longs (the stories' lengths), (fc, lcb) pairs."""
    try:
        ident, nfib = struct.unpack_from("<HH", stream, 0)
        (flags,) = struct.unpack_from("<H", stream, 10)
        if ident != _IDENT:
            raise Unreadable(Status.UNSUPPORTED, _NOT_WORD)
        if nfib < _NFIB_WORD97 and nfib not in (0, 0xFFFF):
            raise Unreadable(Status.UNSUPPORTED, _WORD_95)
        if flags & _F_ENCRYPTED:  # encrypted or XOR-obfuscated: the rest of the FIB is still clear
            return _Fib("", (0, 0), (0, 0), (), True)
        at = 32
        (words,) = struct.unpack_from("<H", stream, at)
        at += 2 + 2 * words
        (longs,) = struct.unpack_from("<H", stream, at)
        lengths = struct.unpack_from(f"<{longs}i", stream, at + 2)
        at += 2 + 4 * longs
        (pairs,) = struct.unpack_from("<H", stream, at)
        if longs < 11 or pairs <= _FC_CLX:
            raise Unreadable(Status.UNSUPPORTED, _WORD_95)
        clx = struct.unpack_from("<II", stream, at + 2 + 8 * _FC_CLX)
        papx = struct.unpack_from("<II", stream, at + 2 + 8 * _FC_PLCF_BTE_PAPX)
    except struct.error as exc:
        raise damaged(exc) from exc
    if any(length < 0 for length in lengths[3:11]):
        raise damaged("negative story length")
    table = "1Table" if flags & _F_WHICH_TABLE else "0Table"
    return _Fib(table, clx, papx, tuple(lengths[3:11]), False)


def _clx_pieces(table: bytes, at: int, size: int) -> list[tuple[int, int, int, bool]]:
    """The piece table ([MS-DOC] 2.9.38 Clx): (first character, character count, byte offset, 8-bit?) for each
    piece, in the order of the text. The Clx is property runs (Prc, 0x01) then the piece table (Pcdt, 0x02)."""
    end = at + size
    if end > len(table):
        raise damaged("Clx outside the table stream")
    try:
        while at < end and table[at] == 0x01:
            (grpprl,) = struct.unpack_from("<h", table, at + 1)
            at += 3 + max(grpprl, 0)
        if at >= end or table[at] != 0x02:
            raise damaged("no piece table in the Clx")
        (plc,) = struct.unpack_from("<I", table, at + 1)
        at += 5
        if plc < 4 or at + plc > len(table) or (plc - 4) % 12:
            raise damaged("piece table of a wrong size")
        count = (plc - 4) // 12
        cps = struct.unpack_from(f"<{count + 1}I", table, at)
        pieces = []
        for i in range(count):
            fc = struct.unpack_from("<I", table, at + 4 * (count + 1) + 8 * i + 2)[0]
            compressed = bool(fc & 0x40000000)
            offset = (fc & 0x3FFFFFFF) // 2 if compressed else fc & 0x3FFFFFFF
            pieces.append((cps[i], cps[i + 1] - cps[i], offset, compressed))
    except (struct.error, IndexError) as exc:
        raise damaged(exc) from exc
    return pieces


def _piece_text(stream: bytes, pieces: list[tuple[int, int, int, bool]]) -> str:
    """The document's characters, piece after piece; each piece must lie inside WordDocument, so the text is
    never longer than the file."""
    if sum(count for _first, count, _offset, _compressed in pieces) > len(stream):
        raise Unreadable(Status.ERROR, _BROKEN_PIECES)  # pieces over the same bytes: more text than the file
    parts: list[str] = []
    for _first, count, offset, compressed in pieces:
        size = count if compressed else 2 * count
        if count < 0 or offset + size > len(stream):
            raise Unreadable(Status.ERROR, _BROKEN_PIECES)
        chunk = stream[offset : offset + size]
        # 8-bit pieces are Windows-1252 ([MS-DOC] 2.4.1); Chinese, and every other script, is in UTF-16 pieces
        parts.append(chunk.decode("cp1252", "replace") if compressed else chunk.decode("utf-16-le", "replace"))
    return "".join(parts)


def _visible(story: str, row_ends: frozenset[int] | None = None, start: int = 0) -> str:
    """A story's characters as a reader sees them: a field's code dropped and its result kept, table cells
    apart by tabs and rows on lines of their own, Word's other marks as _MARKS says. ``row_ends``: the
    positions (in the document, the story starting at ``start``) of the cell marks that end a row, as the
    paragraphs' properties say; without them, a mark right after a cell's is taken for a row's end (an empty
    cell is too)."""
    out: list[str] = []
    fields: list[bool] = []  # for each open field, whether its code is over (its result is being shown)
    after_cell = False
    at = start
    for run in _split_marks(story):
        at += len(run)
        if run == _FIELD_BEGIN:
            fields.append(False)
        elif run == _FIELD_SEPARATOR:
            if fields:
                fields[-1] = True
        elif run == _FIELD_END:
            if fields:
                fields.pop()
        elif not all(fields):
            continue  # inside a field's code
        elif run == _CELL:
            row_end = (at - 1) in row_ends if row_ends is not None else after_cell
            out.append("\n" if row_end else "\t")  # the mark after a row's last cell ends the row
            after_cell = not after_cell
            continue
        else:
            out.append(run.translate(_MARKS))
        after_cell = False
    return "".join(out)


def _row_ends(
    stream: bytes, table: bytes, at: int, size: int, pieces: list[tuple[int, int, int, bool]], text: str
) -> frozenset[int] | None:
    """The positions of the cell marks that end a table row: a row's last paragraph is its own, marked as such
    in its properties (sprmPFTtp). The paragraphs' properties are in PlcBtePapx, pages of 512 bytes (FKPs) in
    WordDocument, each giving byte ranges of the stream and their properties. None where they cannot be read
    (the rows are then told apart by the marks alone)."""
    try:
        ranges = _ttp_ranges(stream, table, at, size)
    except (struct.error, IndexError, ValueError):
        return None
    if ranges is None:
        return None
    ranges.sort()
    starts = [first for first, _end in ranges]
    found: set[int] = set()
    for first, count, offset, compressed in pieces:
        width = 1 if compressed else 2
        mark = text.find(_CELL, first, first + count)
        while mark >= 0:
            fc = offset + (mark - first) * width
            i = bisect.bisect_right(starts, fc) - 1
            if i >= 0 and fc < ranges[i][1]:
                found.add(mark)
            mark = text.find(_CELL, mark + 1, first + count)
    return frozenset(found)


def _ttp_ranges(stream: bytes, table: bytes, at: int, size: int) -> list[tuple[int, int]] | None:
    """The byte ranges of WordDocument whose paragraph ends a table row; None without paragraph properties."""
    if size < 12 or at + size > len(table) or (size - 4) % 8:
        return None
    count = (size - 4) // 8
    pages = struct.unpack_from(f"<{count}I", table, at + 4 * (count + 1))
    ranges: list[tuple[int, int]] = []
    for page in pages:
        first = (page & 0x3FFFFF) * 512
        fkp = stream[first : first + 512]
        if len(fkp) < 512:
            return None
        runs = fkp[511]
        bounds = struct.unpack_from(f"<{runs + 1}I", fkp, 0)
        for i in range(runs):
            where = 2 * fkp[4 * (runs + 1) + 13 * i]
            if where and _is_row_end(_papx_sprms(fkp, where)):
                ranges.append((bounds[i], bounds[i + 1]))
    return ranges


def _papx_sprms(fkp: bytes, where: int) -> bytes:
    """A paragraph's property modifiers (its grpprl) in an FKP, after its style's index."""
    size = fkp[where]
    begin, length = (where + 2, 2 * fkp[where + 1]) if size == 0 else (where + 1, 2 * size - 1)
    return fkp[begin + 2 : begin + length]


def _is_row_end(sprms: bytes) -> bool:
    """Whether the modifiers set sprmPFTtp (or its inner table's) to 1."""
    i = 0
    while i + 2 <= len(sprms):
        (sprm,) = struct.unpack_from("<H", sprms, i)
        i += 2
        if sprm in _SPRM_TTP and sprms[i] == 1:
            return True
        i += _operand_size(sprm, sprms, i)
    return False


def _operand_size(sprm: int, sprms: bytes, at: int) -> int:
    """The bytes of a sprm's operand: by its spra, or, when variable, a byte of size before it (two bytes for
    sprmTDefTable, counting themselves less one)."""
    size = _OPERAND.get(sprm >> 13)
    if size is not None:
        return size
    if sprm == _SPRM_T_DEF_TABLE:
        return 2 + max(struct.unpack_from("<H", sprms, at)[0] - 1, 0)
    return 1 + sprms[at]


def _split_marks(story: str) -> list[str]:
    """The story cut into runs of plain characters and single field and cell marks."""
    return [run for run in _FIELD_AND_CELL_MARKS.split(story) if run]


_FIELD_AND_CELL_MARKS = re.compile("([\x07\x13\x14\x15])")
