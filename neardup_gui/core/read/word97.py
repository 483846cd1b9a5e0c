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
        text = _piece_text(stream, _clx_pieces(table, fib.clx, fib.clx_size))
    except Unreadable as problem:
        return problem.outcome
    pieces: list[str] = []
    start = 0
    for story, length in zip(_STORIES, fib.story_lengths, strict=True):
        if story in _READ and length:
            pieces.append(_visible(text[start : start + length]))
            pieces.append("\n")
        start += length
    return finish(pieces)


class _Fib:
    """What is read of a FIB: whether it is encrypted, the table stream's name, the Clx, the stories' lengths."""

    __slots__ = ("clx", "clx_size", "encrypted", "story_lengths", "table")

    def __init__(self, table: str, clx: int, clx_size: int, story_lengths: tuple[int, ...], encrypted: bool) -> None:
        self.table, self.clx, self.clx_size = table, clx, clx_size
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
            return _Fib("", 0, 0, (), True)
        at = 32
        (words,) = struct.unpack_from("<H", stream, at)
        at += 2 + 2 * words
        (longs,) = struct.unpack_from("<H", stream, at)
        lengths = struct.unpack_from(f"<{longs}i", stream, at + 2)
        at += 2 + 4 * longs
        (pairs,) = struct.unpack_from("<H", stream, at)
        if longs < 11 or pairs <= _FC_CLX:
            raise Unreadable(Status.UNSUPPORTED, _WORD_95)
        clx, clx_size = struct.unpack_from("<II", stream, at + 2 + 8 * _FC_CLX)
    except struct.error as exc:
        raise damaged(exc) from exc
    if any(length < 0 for length in lengths[3:11]):
        raise damaged("negative story length")
    table = "1Table" if flags & _F_WHICH_TABLE else "0Table"
    return _Fib(table, clx, clx_size, tuple(lengths[3:11]), False)


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


def _visible(story: str) -> str:
    """A story's characters as a reader sees them: a field's code dropped and its result kept, table cells
    apart by tabs and rows on lines of their own, Word's other marks as _MARKS says."""
    out: list[str] = []
    fields: list[bool] = []  # for each open field, whether its code is over (its result is being shown)
    after_cell = False
    for run in _split_marks(story):
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
            out.append("\n" if after_cell else "\t")  # the mark after a row's last cell ends the row
            after_cell = not after_cell
            continue
        else:
            out.append(run.translate(_MARKS))
        after_cell = False
    return "".join(out)


def _split_marks(story: str) -> list[str]:
    """The story cut into runs of plain characters and single field and cell marks."""
    return [run for run in _FIELD_AND_CELL_MARKS.split(story) if run]


_FIELD_AND_CELL_MARKS = re.compile("([\x07\x13\x14\x15])")
