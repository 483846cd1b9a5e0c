"""Text of spreadsheets: Excel 97–2003 (.xls, and WPS Office's .et, the same format) and Excel (.xlsx).

What is read is each cell's value as a person sees it in the General format, row by row, sheet by sheet in
the workbook's order, hidden sheets too (their cells are the workbook's content, only folded away): a cell's
text; a number as a person reads it (12, not 12.0; at most 15 digits, as Excel shows them); a date or time as
an ISO date (2024-03-05, 2024-03-05 13:45:00, 13:45:00); TRUE and FALSE; a formula's last computed value,
never its source. Cells of a row are apart by a tab (an .xls's empty cell keeps its column; an .xlsx writes
only the cells it holds), a row is a line, sheets are apart by a blank line; rows without text are left out,
so a blank line always means the next sheet. Not read: error values (#DIV/0!),
comments, charts, pictures, headers and footers, styles, and the sheets' names: LibreOffice's CSV export,
the peer compared with, writes none, and the default names ("Sheet1", "工作表1") would be the same words in
every workbook, making unrelated ones look a little alike.

.xls through xlrd (BSD-3-Clause), fed the Workbook stream that ole.Compound reads within the file's size:
xlrd's own compound-file reader follows a short stream's sector chain without end when the chain loops (a
small workbook's stream, under 4 KB, is such a short stream). xlrd reads the workbook's globals (shared
strings, formats, where the sheets are); a BIFF8 sheet's cell records are read here, a record at a time
without xlrd's bookkeeping per cell, and a sheet holding a record this reader leaves to xlrd is xlrd's.
.xlsx from its XML directly (containers.Package: bounded, no DTDs), cells in the order they come: no grid is
ever built, so a cell claiming column XFD of row 1,048,576 costs what any other cell costs. A worksheet or
shared-string part in the shape spreadsheet programs write (containers.plain_xml) is read by regular
expressions, with no Python call per element; any other part by expat. Both ways give the same text
(tests/core/test_sheets.py), and a 60,000-cell workbook reads in a fraction of the time.
"""

from __future__ import annotations

import re
import struct
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from ..i18n import QT_TRANSLATE_NOOP
from ..models import Extracted, Status
from .containers import (
    PASSWORD_PROTECTED,
    READ_ERRORS,
    NotPlain,
    TextBudget,
    Unreadable,
    damaged,
    parse_xml,
    plain_xml,
    xml_text,
)
from .office import ODF_OFFICE, RELATIONSHIP_IDS, extract_odf, finish, main_part, read_package, relationships
from .ole import MAGIC, Compound

_NOT_EXCEL = QT_TRANSLATE_NOOP(
    "Problem", "This Office file holds no Excel workbook (its Workbook part is missing); it cannot be compared."
)

# --- cell values, as a person sees them in the General format ------------------------------------------

_DAY_SECONDS = 86_400
_LAST_SERIAL = 2_958_466  # 10000-01-01 in the 1900 date system: later serials are no date Excel shows


def _number(value: float) -> str:
    """A number as the General format shows it: whole numbers without ".0", others to 15 significant digits
    (a float's binary noise, 0.30000000000000004, is not shown)."""
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return f"{value:.15g}"


def _date(serial: float, date1904: bool) -> str:
    """A date cell's serial number (days since the workbook's epoch, the time of day as the fraction) as an ISO
    date, with the time when it has one, or the time alone for a serial under 1; the number itself when it is
    no date Excel could show."""
    if not 0 <= serial < _LAST_SERIAL:  # also NaN
        return _number(serial)
    days, seconds = divmod(round(serial * _DAY_SECONDS), _DAY_SECONDS)
    clock = f"{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
    if days == 0:
        return clock
    if date1904:
        epoch = datetime(1904, 1, 1)
    elif days < 60:
        epoch = datetime(1899, 12, 31)
    else:  # Excel counts a 29 February 1900 that never was (Lotus 1-2-3's mistake): serial 61 is 1 March
        epoch = datetime(1899, 12, 30)
    day = (epoch + timedelta(days=days)).strftime("%Y-%m-%d")
    return f"{day} {clock}" if seconds else day


def _boolean(value: bool) -> str:
    return "TRUE" if value else "FALSE"


def _row_line(cells: list[str], pieces: list[str], budget: TextBudget) -> None:
    """A row's line: its cells apart by tabs; nothing for a row without text. Its characters are spent from
    the workbook's budget: one shared string in every cell of a crafted workbook."""
    budget.spend(sum(map(len, cells)))
    if any(cells):
        pieces.append("\t".join(cells))
        pieces.append("\n")


# --- OpenDocument (.ods) -------------------------------------------------------------------------------

_VALUE_TYPE, _VALUE = f"{ODF_OFFICE} value-type", f"{ODF_OFFICE} value"
_DATE_VALUE, _TIME_VALUE = f"{ODF_OFFICE} date-value", f"{ODF_OFFICE} time-value"
_BOOLEAN_VALUE = f"{ODF_OFFICE} boolean-value"
_DURATION = re.compile(r"-?PT(\d+)H(\d+)M(\d+)(?:[.,]\d+)?S")


def extract_ods(data: bytes) -> Extracted:
    """An OpenDocument spreadsheet's cells as the Excel readers give them: each cell's value (a number in the
    General format, a date as an ISO date, TRUE or FALSE), not what its number format shows (2024年3月5日,
    1,234.50), so a workbook saved as .ods, .xls and .xlsx reads the same; a text cell's text; formulas'
    values, never their source; comments not."""
    return extract_odf(data, _ods_cell)


def _ods_cell(attrs: dict[str, str]) -> str | None:
    """A cell's value as text from its attributes; None for a text cell (its text is what it shows)."""
    kind = attrs.get(_VALUE_TYPE)
    try:
        if kind in ("float", "percentage", "currency"):
            return _number(float(attrs[_VALUE]))
        if kind == "date":
            day, _, clock = attrs[_DATE_VALUE].partition("T")
            clock = clock.split(".")[0]
            return day if not clock or clock == "00:00:00" else f"{day} {clock}"
        if kind == "time":
            match = _DURATION.fullmatch(attrs[_TIME_VALUE])
            if match:
                hours, minutes, seconds = (int(part) for part in match.groups())
                return f"{hours:02d}:{minutes:02d}:{seconds:02d}"
        if kind == "boolean":
            return _boolean(attrs[_BOOLEAN_VALUE].strip().lower() in ("true", "1"))
    except (KeyError, ValueError, OverflowError):
        pass  # no value where its type says: what the cell shows
    return None


# --- Excel 2003 XML (SpreadsheetML 2003, often saved under an .xls name) --------------------------------

_SS = "urn:schemas-microsoft-com:office:spreadsheet"
_SS_DATA, _SS_CELL, _SS_ROW, _SS_SHEET = f"{_SS} Data", f"{_SS} Cell", f"{_SS} Row", f"{_SS} Worksheet"
_SS_SKIPPED = frozenset({f"{_SS} Comment", f"{_SS} Names", f"{_SS} Styles"})
_SS_TYPE = f"{_SS} Type"


def extract_excel_xml(data: bytes) -> Extracted:
    """An Excel 2003 XML workbook: each cell's Data as the Excel readers give it (a number in the General
    format, a date as an ISO date, TRUE or FALSE), row by row, worksheet by worksheet; not comments."""
    pieces: list[str] = []
    row: list[str] = []
    value: list[str] = []
    state = {"skip": 0, "data": 0}
    kind = ["String"]  # the open Data's type
    budget = TextBudget()

    def start(tag: str, attrs: dict[str, str]) -> None:
        if state["skip"] or tag in _SS_SKIPPED:
            state["skip"] += 1
        elif tag == _SS_DATA:
            state["data"] += 1
            kind[0] = attrs.get(_SS_TYPE, "String")
        elif tag == _SS_CELL:
            value.clear()
        elif tag == _SS_ROW:
            row.clear()

    def end(tag: str) -> None:
        if state["skip"]:
            state["skip"] -= 1
        elif tag == _SS_DATA:
            state["data"] -= 1
        elif tag == _SS_CELL:
            row.append(_excel_xml_cell(kind[0], "".join(value)))
        elif tag == _SS_ROW:
            _row_line(row, pieces, budget)
        elif tag == _SS_SHEET:
            pieces.append("\n")

    def text(data: str) -> None:
        if state["data"] and not state["skip"]:
            value.append(data)

    try:
        parse_xml(data, "workbook", start, end, text)
    except Unreadable as problem:
        return problem.outcome
    return finish(pieces)


def _excel_xml_cell(kind: str, value: str) -> str:
    try:
        if kind == "Number":
            return _number(float(value))
        if kind == "DateTime":
            day, _, clock = value.strip().partition("T")
            clock = clock.split(".")[0]
            return day if not clock or clock == "00:00:00" else f"{day} {clock}"
        if kind == "Boolean":
            return _boolean(value.strip() in ("1", "true", "TRUE"))
    except (ValueError, OverflowError):
        pass  # no number where its type says: the characters as they are
    return "" if kind == "Error" else value


# --- Excel 97-2003 (.xls) -------------------------------------------------------------------------------


class _Discard:
    """xlrd's log: its notes on odd records go nowhere (a worker's stdout carries its results)."""

    def write(self, _text: str) -> int:
        return 0

    def flush(self) -> None:
        pass


def extract_xls(data: bytes) -> Extracted:
    """An Excel 97-2003 workbook's cells, every sheet (hidden ones too) in the workbook's order."""
    try:
        pieces: list[str] = []
        _read_book(_biff_stream(data), pieces)
    except Unreadable as problem:
        return problem.outcome
    return finish(pieces)


def _biff_stream(data: bytes) -> bytes:
    """The workbook's BIFF records: the Workbook stream (Book before Excel 97) of a compound file, or the
    file itself for an Excel 2-4 worksheet, which is bare records."""
    if not data.startswith(MAGIC):
        return data
    document = Compound(data)
    if document.has("EncryptedPackage"):  # a password-protected .xlsx under an .xls name
        raise Unreadable(Status.ENCRYPTED, PASSWORD_PROTECTED)
    for name in ("Workbook", "Book"):
        if document.has(name):
            return document.read(name)
    raise Unreadable(Status.UNSUPPORTED, _NOT_EXCEL)


def _read_book(stream: bytes, pieces: list[str]) -> None:
    """Append each sheet's rows; Unreadable for an encrypted workbook or one xlrd cannot read."""
    import xlrd

    # What xlrd raised on 30,000 damaged workbooks: its own XLRDError (its CompDocError comes only from its
    # compound-file reader, never used here), AssertionError from the asserts it checks records with, and
    # struct.error, IndexError, KeyError, UnicodeDecodeError, LookupError (a code page no codec has) and
    # TypeError from records read as garbage.
    errors = (xlrd.XLRDError, AssertionError, struct.error, LookupError, TypeError, *READ_ERRORS)
    if stream.startswith(MAGIC):  # a compound file inside the Workbook stream: xlrd would read it with its own
        raise damaged("a compound file inside the workbook's stream")
    try:
        book = xlrd.open_workbook(
            file_contents=stream, logfile=_Discard(), verbosity=0, on_demand=True, ragged_rows=True
        )
        budget = TextBudget()
        for index in range(book.nsheets):
            if not _biff8_sheet(book, index, pieces, budget):
                _xls_sheet(book.sheet_by_index(index), book.datemode == 1, pieces, budget)
                book.unload_sheet(index)  # one sheet's cells in memory at a time
            pieces.append("\n")
        book.release_resources()
    except xlrd.XLRDError as exc:
        if str(exc) == "Workbook is encrypted":  # a FILEPASS record: RC4, CryptoAPI or XOR obfuscation
            raise Unreadable(Status.ENCRYPTED, PASSWORD_PROTECTED) from exc
        raise damaged(exc) from exc
    except errors as exc:
        raise damaged(exc) from exc


def _xls_sheet(sheet: Any, date1904: bool, pieces: list[str], budget: TextBudget) -> None:
    """Append one xlrd sheet's rows: its cells' values as _xls_cell says, empty ones holding their column."""
    for rowx in range(sheet.nrows):
        kinds = sheet.row_types(rowx)
        values = sheet.row_values(rowx)
        cells = [_xls_cell(kind, value, date1904) for kind, value in zip(kinds, values, strict=True)]
        _row_line(cells, pieces, budget)


# A BIFF8 worksheet's cell records, read here: xlrd's sheet reader spends most of an .xls's time on its own
# bookkeeping for each cell. The workbook's globals (shared strings, formats, sheets) are still xlrd's.
_BOFS = frozenset({0x0809, 0x0409, 0x0209, 0x0009})
_BOF, _COLUMNS = 0x0809, 256
_EOF, _NUMBER, _LABELSST, _RK, _MULRK, _BOOLERR, _FORMULA, _STRING = 0x0A, 0x203, 0xFD, 0x27E, 0xBD, 0x205, 0x06, 0x207
_BEFORE_STRING = frozenset({0x04BC, 0x0221, 0x0236, 0x0021, 0x0037, 0x0036})  # SHRFMLA, ARRAY, TABLEOPs
_SHORTEST = {0x203: 14, 0x27E: 10, 0xBD: 6, 0x205: 8, 0x06: 16, 0x04BC: 10, 0x0221: 14}
"""The bytes each record must hold for what xlrd unpacks of it (a LABELSST: exactly 10)."""
_ELSEWHERE = frozenset({0x01, 0x02, 0x03, 0x04, 0x05, 0x07, 0x204, 0xD6, 0x206, 0x406, *_BOFS})
"""Records xlrd reads cells from that this reader leaves to it: BIFF2's, LABEL and RSTRING (rare since
Excel 97, which writes LABELSST), old FORMULA codes, a chart's substream inside the sheet."""
_HEADER, _CELL, _NUMBER_CELL = struct.Struct("<HH"), struct.Struct("<HHH"), struct.Struct("<HHHd")
_INT_CELL, _MULRK_ITEM, _DOUBLE, _WORD = (
    struct.Struct("<HHHi"),
    struct.Struct("<Hi"),
    struct.Struct("<d"),
    struct.Struct("<H"),
)


class _ElsewhereError(Exception):
    """A record this reader leaves to xlrd's."""


def _biff8_sheet(book: Any, index: int, pieces: list[str], budget: TextBudget) -> bool:
    """Append a BIFF8 worksheet's rows as _xls_sheet does from xlrd's sheet; False, with nothing appended,
    for any other (older BIFF, xlrd without the attributes read here) or one holding a record left to xlrd."""
    try:
        mem, position = book.mem, book._sh_abs_posn[index]
        strings, types, date1904 = book._sharedstrings, book._xf_index_to_xl_type_map, book.datemode == 1
    except (AttributeError, IndexError):
        return False
    if book.biff_version != 80:
        return False
    try:
        rows = _biff8_cells(mem, position, strings, types, date1904)
    except _ElsewhereError:
        return False
    for rowx in sorted(rows):
        _row_line(rows[rowx], pieces, budget)
    return True


def _biff8_cells(
    mem: bytes, position: int, strings: list[str], types: dict[int, int], date1904: bool
) -> dict[int, list[str]]:
    """Each row's cells' texts (a missing cell's column held by ""), from the sheet's BOF record at
    ``position`` to its EOF. Raises _ElsewhereError for a record left to xlrd; KeyError, IndexError,
    AssertionError and struct.error, as xlrd does, for records read as garbage."""
    rows: dict[int, list[str]] = {}
    row: list[str] = []
    row_index = -1  # the row cells were last put in: the records of a row come together
    end = len(mem)
    code, length = _HEADER.unpack_from(mem, position)
    if code != _BOF or length < 4 or _HEADER.unpack_from(mem, position + 4) != (0x0600, 0x0010):
        raise _ElsewhereError  # not plainly a BIFF8 worksheet's start: what it is, xlrd says
    position += 4 + length
    while True:
        if position + 4 > end:
            raise _ElsewhereError  # no EOF: what xlrd makes of it, it says
        code, length = _HEADER.unpack_from(mem, position)
        start, position = position + 4, position + 4 + length
        if length < _SHORTEST.get(code, 0):
            raise _ElsewhereError  # a record too short for what it holds: damaged, as xlrd says
        if code == _LABELSST:
            if length != 10:
                raise _ElsewhereError
            rowx, colx, _xf, shared = _INT_CELL.unpack_from(mem, start)
            text = strings[shared]
        elif code in (_NUMBER, _RK):
            if code == _NUMBER:
                rowx, colx, xf, value = _NUMBER_CELL.unpack_from(mem, start)
            else:
                rowx, colx, xf, rk = _INT_CELL.unpack_from(mem, start)
                value = _rk(rk)
            kind = types[xf]
            text = _number(value) if kind == _XL_NUMBER else _xls_cell(kind, value, date1904)
        elif code == _MULRK:
            rowx, first = _HEADER.unpack_from(mem, start)
            (last,) = _WORD.unpack_from(mem, position - 2)
            if length < 6 + 6 * (last - first + 1):
                raise _ElsewhereError
            for offset, colx in enumerate(range(first, last + 1)):
                xf, rk = _MULRK_ITEM.unpack_from(mem, start + 4 + 6 * offset)
                _put(rows.setdefault(rowx, []), colx, _xls_cell(types[xf], _rk(rk), date1904))
            continue
        elif code == _BOOLERR:
            rowx, colx, _xf = _CELL.unpack_from(mem, start)
            if mem[start + 7] > 1:  # neither a boolean nor an error
                raise _ElsewhereError
            text = "" if mem[start + 7] else _boolean(bool(mem[start + 6]))
        elif code == _FORMULA:
            rowx, colx, xf = _CELL.unpack_from(mem, start)
            result = mem[start + 6 : start + 14]
            if result[6:8] != b"\xff\xff":
                text = _xls_cell(types[xf], _DOUBLE.unpack(result)[0], date1904)
            elif result[0] == 0:  # a text: in the STRING record next, or after one that shares the formula
                code, length = _HEADER.unpack_from(mem, position)
                if code in _BEFORE_STRING:
                    if length < _SHORTEST.get(code, 0):
                        raise _ElsewhereError
                    position += 4 + length
                    code, length = _HEADER.unpack_from(mem, position)
                if code != _STRING or length < 3:
                    raise _ElsewhereError
                text = _biff8_string(mem[position + 4 : position + 4 + length])
                position += 4 + length
            elif result[0] in (1, 2, 3):  # a boolean, an error, an empty text
                text = _boolean(bool(result[2])) if result[0] == 1 else ""
            else:
                raise _ElsewhereError
        elif code == _EOF:
            return rows
        elif code in _ELSEWHERE:
            raise _ElsewhereError
        else:
            continue
        if rowx != row_index:
            row, row_index = rows.setdefault(rowx, []), rowx
        if colx == len(row) and colx < _COLUMNS:
            row.append(text)
        else:
            _put(row, colx, text)


def _put(row: list[str], colx: int, text: str) -> None:
    """A cell's text in its row's column, as xlrd's ragged rows hold it (a later cell in its place wins)."""
    if colx >= _COLUMNS:  # past BIFF8's last column: xlrd's assert calls it damaged
        raise AssertionError(f"column {colx}")
    if colx == len(row):
        row.append(text)
    elif colx < len(row):
        row[colx] = text
    else:
        row.extend([""] * (colx - len(row)))
        row.append(text)


def _rk(rk: int) -> float:
    """An RK value: a 30-bit integer or the top of a double, perhaps divided by 100."""
    value = float(rk >> 2) if rk & 2 else _DOUBLE.unpack(struct.pack("<ii", 0, rk & ~3))[0]
    return value / 100 if rk & 1 else value


def _biff8_string(data: bytes) -> str:
    """A STRING record's text, when the record holds all of it (a CONTINUE after it is left to xlrd)."""
    (count,) = _WORD.unpack_from(data)
    wide = data[2] & 1
    text = data[3:].decode("utf_16_le" if wide else "latin_1")
    if len(text) != count:
        raise _ElsewhereError
    return text


_XL_TEXT, _XL_NUMBER, _XL_DATE, _XL_BOOLEAN = 1, 2, 3, 4  # xlrd's XL_CELL_* (empty 0, error 5, blank 6: nothing)


def _xls_cell(kind: int, value: Any, date1904: bool) -> str:
    if kind == _XL_TEXT:
        return str(value)
    if kind == _XL_NUMBER:
        return _number(float(value))
    if kind == _XL_DATE:
        return _date(float(value), date1904)
    if kind == _XL_BOOLEAN:
        return _boolean(bool(value))
    return ""


# --- Excel (.xlsx) --------------------------------------------------------------------------------------

_SHEET_ML = (
    "http://schemas.openxmlformats.org/spreadsheetml/2006/main",
    "http://purl.oclc.org/ooxml/spreadsheetml/main",
)


def _tags(*locals_: str) -> dict[str, str]:
    """SpreadsheetML's element names as expat gives them ("namespace local"), transitional and strict, to
    their local names."""
    return {f"{namespace} {local}": local for namespace in _SHEET_ML for local in locals_}


def extract_xlsx(data: bytes) -> Extracted:
    """An Excel workbook's cells, every worksheet (hidden ones too) in the workbook's order."""
    try:
        package = read_package(data)
        workbook = main_part(package, "xl/workbook.xml")
        sheet_ids, date1904 = _workbook(package.read(workbook), workbook)
        related = relationships(package, workbook)
        parts = {kind: target for kind, target in related.values() if package.has(target)}
        strings = _shared_strings(package.read(parts["sharedStrings"])) if "sharedStrings" in parts else []
        dates = _date_styles(package.read(parts["styles"])) if "styles" in parts else []
        pieces: list[str] = []
        cells = _CellReader(strings, dates, date1904, TextBudget())
        for sheet_id in sheet_ids:
            kind, part = related.get(sheet_id, ("", ""))
            if kind == "worksheet":  # chart and dialog sheets hold no cells
                _xlsx_sheet(package.read(part), part, cells, pieces)
                pieces.append("\n")
    except Unreadable as problem:
        return problem.outcome
    return finish(pieces)


_WORKBOOK_TAGS = _tags("sheet", "workbookPr")


def _workbook(xml: bytes, part: str) -> tuple[list[str], bool]:
    """The relationship ids of the workbook's sheets in its order, and whether its dates count from 1904."""
    ids: list[str] = []
    date1904 = [False]

    def start(tag: str, attrs: dict[str, str]) -> None:
        local = _WORKBOOK_TAGS.get(tag)
        if local == "sheet":
            ids.extend(attrs[key] for key in (f"{ns} id" for ns in RELATIONSHIP_IDS) if key in attrs)
        elif local == "workbookPr":
            date1904[0] = attrs.get("date1904", "").strip().lower() in ("1", "true")

    parse_xml(xml, part, start)
    return ids, date1904[0]


_STRING_TAGS = _tags("si", "t", "rPh")


def _shared_strings(xml: bytes) -> list[str]:
    """The shared strings' texts in order: an item's text, or its runs' (a t in each r), without the
    phonetic guides (rPh: the reading of Japanese kanji, not the cell's text)."""
    plain = _plain_strings(xml)
    if plain is not None:
        return plain
    strings: list[str] = []
    item: list[str] = []
    depth = {"t": 0, "rPh": 0}

    def start(tag: str, _attrs: dict[str, str]) -> None:
        local = _STRING_TAGS.get(tag)
        if local == "si":
            item.clear()
        elif local is not None:
            depth[local] += 1

    def end(tag: str) -> None:
        local = _STRING_TAGS.get(tag)
        if local == "si":
            strings.append("".join(item))
        elif local is not None:
            depth[local] -= 1

    def text(data: str) -> None:
        if depth["t"] and not depth["rPh"]:
            item.append(data)

    parse_xml(xml, "xl/sharedStrings.xml", start, end, text)
    return strings


# Excel's built-in formats that show dates and times: 14-22 and 45-47 everywhere; 27-36 and 50-58 in the
# Chinese, Japanese and Korean Excels (yyyy"年"m"月"d"日" and the like), which write no code for them.
_BUILT_IN_DATES = frozenset((*range(14, 23), *range(27, 37), *range(45, 48), *range(50, 59)))
_NOT_IN_A_CODE = re.compile(r'"[^"]*"|\[[^\]]*\]|\\.|[_*].')  # quoted text, [colours] [$-locales], escapes, fill
_DATE_LETTERS = re.compile(r"[dmyhsDMYHS]")
_STYLE_TAGS = _tags("numFmts", "numFmt", "cellXfs", "xf")


def _is_date_code(code: str) -> bool:
    """Whether a number format's code shows a date or a time: a day, month, year, hour or second outside its
    quoted text, brackets and escaped characters."""
    return bool(_DATE_LETTERS.search(_NOT_IN_A_CODE.sub("", code)))


def _date_styles(xml: bytes) -> list[bool]:
    """For each cell format (a cell's s attribute), whether its number format shows a date."""
    codes: dict[int, bool] = {}
    formats: list[int] = []
    inside = {"numFmts": 0, "cellXfs": 0}

    def start(tag: str, attrs: dict[str, str]) -> None:
        local = _STYLE_TAGS.get(tag)
        if local in inside:
            inside[local] += 1
        elif local == "numFmt" and inside["numFmts"]:
            codes[_index(attrs.get("numFmtId"))] = _is_date_code(attrs.get("formatCode", ""))
        elif local == "xf" and inside["cellXfs"]:  # not cellStyleXfs' xf, the named styles' own
            formats.append(_index(attrs.get("numFmtId")))

    def end(tag: str) -> None:
        local = _STYLE_TAGS.get(tag)
        if local in inside:
            inside[local] -= 1

    parse_xml(xml, "xl/styles.xml", start, end)
    return [codes.get(number, number in _BUILT_IN_DATES) for number in formats]


def _index(value: str | None) -> int:
    """An index attribute's number; -1 (no such thing) when it is missing or no number."""
    try:
        return int(value or "")
    except ValueError:
        return -1


class _CellReader:
    """A cell's text from its type (t), its format (s) and its value's characters: ``reader(t, s)`` is the
    function from the characters to the text, one for each type and format."""

    __slots__ = ("_dates", "_readers", "_strings", "budget", "date1904", "kinds")

    def __init__(self, strings: list[str], dates: list[bool], date1904: bool, budget: TextBudget) -> None:
        self._strings, self._dates, self.date1904, self.budget = strings, dates, date1904, budget
        self._readers: dict[tuple[str, str | None], Callable[[str], str]] = {}
        self.kinds: dict[str, Callable[[str], str]] = {}  # a cell's attributes but r to its reader

    def reader(self, kind: str, style: str | None) -> Callable[[str], str]:
        found = self._readers.get((kind, style))
        if found is None:
            found = self._readers[kind, style] = self._new_reader(kind, style)
        return found

    def _new_reader(self, kind: str, style: str | None) -> Callable[[str], str]:
        if kind == "s":  # a shared string
            strings = self._strings

            def shared(value: str) -> str:
                try:
                    index = int(value)
                except ValueError:
                    return ""
                return strings[index] if 0 <= index < len(strings) else ""

            return shared
        if kind in ("inlineStr", "str"):  # an inline string; a formula's text result
            return str
        if kind == "b":
            return lambda value: _boolean(value.strip() in ("1", "true")) if value.strip() else ""
        if kind == "d":  # an ISO 8601 date (strict workbooks may store dates so)
            return lambda value: value.strip().replace("T", " ").removesuffix(" 00:00:00")
        if kind == "e":
            return lambda _value: ""
        index = _index(style) if style else 0
        if 0 <= index < len(self._dates) and self._dates[index]:
            return _date_1904 if self.date1904 else _date_1900
        return _general


def _general(value: str) -> str:
    """A number cell's text in the General format; nothing for no value, the characters for no number."""
    try:
        return _number(float(value))
    except ValueError:  # no number where one belongs (or none at all): the characters as they are
        return value.strip()


def _date_1900(value: str) -> str:
    """A date cell's text, its serial counted from 1900."""
    try:
        return _date(float(value), False)
    except ValueError:
        return value.strip()


def _date_1904(value: str) -> str:
    """A date cell's text, its serial counted from 1904."""
    try:
        return _date(float(value), True)
    except ValueError:
        return value.strip()


_CELL_TAGS = _tags("row", "c", "v", "is", "t", "rPh")


def _xlsx_sheet(xml: bytes, part: str, cells: _CellReader, pieces: list[str]) -> None:
    """Append a worksheet's rows: each row's cells in the order they come, apart by tabs (a cell's r, its
    column, is never read: the gap of a missing cell is not filled); a value is v's text, an inline string is
    the t elements' text in is, without phonetic guides; formulas (f) are not read."""
    if _plain_sheet(xml, cells, pieces):
        return
    row: list[str] = []
    value: list[str] = []
    cell: dict[str, str | None] = {"t": "n", "s": None}
    depth = {"v": 0, "is": 0, "t": 0, "rPh": 0}

    def start(tag: str, attrs: dict[str, str]) -> None:
        local = _CELL_TAGS.get(tag)
        if local == "c":
            cell["t"], cell["s"] = attrs.get("t", "n"), attrs.get("s")
            value.clear()
        elif local == "row":
            row.clear()
        elif local is not None:
            depth[local] += 1

    def end(tag: str) -> None:
        local = _CELL_TAGS.get(tag)
        if local == "c":
            row.append(cells.reader(cell["t"] or "n", cell["s"])("".join(value)))
        elif local == "row":
            _row_line(row, pieces, cells.budget)
        elif local is not None:
            depth[local] -= 1

    def text(data: str) -> None:
        if depth["v"] or (depth["is"] and depth["t"] and not depth["rPh"]):
            value.append(data)

    parse_xml(xml, part, start, end, text)


# --- .xlsx parts as spreadsheet programs write them: regular expressions, no Python call per element -------
# Exact about the shape plain_xml lets through, unprefixed elements of the main namespace, none but those
# below; any other part is read by expat above. Each pattern runs in time linear in the part (possessive
# repeats; a cell's content never crosses another cell's tag), and what a pattern skips, a count finds:
# tests/core/test_sheets.py reads its workbooks both ways and compares.

_RUN_ELEMENTS = frozenset(
    {"r", "rPr", "t", "rPh", "b", "i", "strike", "condense", "extend", "outline", "shadow", "u", "vertAlign"}
    | {"sz", "color", "rFont", "family", "charset", "scheme"}
)  # rich text's runs and their properties, in a shared or inline string
_SHEET_ELEMENTS = frozenset({"sheetData", "row", "c", "f", "v", "is"}) | _RUN_ELEMENTS
_STRING_ELEMENTS = frozenset({"sst", "si", "phoneticPr"}) | _RUN_ELEMENTS
_PLAIN_CELL = re.compile(  # a cell: "<c" first, so the engine looks for it as for a plain string
    r"<c(?=[\s/>])(?:\s+r=(?:\"[^\"]*+\"|'[^']*+'))?+"  # its place (r), apart: its other attributes repeat
    r"((?:[^>/]++|/(?!>))*+)"
    r"(?:/>|>(?:(?:<f(?=[\s/>])[^>]*+(?<=/)>|<f(?=[\s>])[^>]*+>[^<]*+</f>)?+<v>([^<]*+)</v>"  # its value alone,
    r"|((?:[^<]++|<(?!/?c[\s/>]|/row>))*+))</c>)"  # or all inside, up to its end and no further
    r"\s*+(</row>)?+",  # the end of its row, when it is the row's last cell
)
_EMPTY_ROW = re.compile(r"<row(?:\s[^>]*+)?(?<!/)>\s*+</row>")
_ATTRIBUTE = re.compile(r"""\s+([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')""")
_PHONETIC = re.compile(r"<rPh(?:\s[^>]*+)?(?:(?<=/)>|(?<!/)>(?:[^<]++|<(?!/?rPh[\s/>]))*+</rPh>)")
_VALUE_OR_INLINE = re.compile(
    r"<v(?:\s[^>]*+)?(?<!/)>([^<]*+)</v>|<is(?:\s[^>]*+)?(?<!/)>((?:[^<]++|<(?!/?is[\s/>]))*+)</is>"
)
_TEXT = re.compile(r"<t(?:\s[^>]*+)?(?<!/)>([^<]*+)</t>")


def _plain_sheet(xml: bytes, cells: _CellReader, pieces: list[str]) -> bool:
    """Append a worksheet's rows as _xlsx_sheet does, when its sheetData is plain; False, with nothing
    appended, when it is not."""
    plain = plain_xml(xml, _SHEET_ML, "<sheetData", "</sheetData>", _SHEET_ELEMENTS)
    if plain is None:
        return False
    kinds, budget = cells.kinds, cells.budget
    lines: list[str] = []
    row: list[str] = []
    rows = count = 0
    try:
        for attributes, value, inner, row_end in _PLAIN_CELL.findall(*plain):
            read = kinds.get(attributes)
            if read is None:
                read = kinds[attributes] = cells.reader(*_cell_attributes(attributes))
            if inner:
                value = "".join(_inner_text(inner))
            elif "&" in value or "\r" in value:
                value = xml_text(value)
            row.append(read(value))
            count += 1
            if row_end:
                _row_line(row, lines, budget)
                row = []
                rows += 1
    except NotPlain:
        return False
    data, begin, end = plain
    if (
        row
        # a cell the pattern passed over: of the elements allowed, color, condense and charset start so too
        or count != data.count("<c", begin, end) - data.count("<co", begin, end) - data.count("<ch", begin, end)
        or rows != data.count("</row>", begin, end) - len(_EMPTY_ROW.findall(data, begin, end))
    ):
        return False  # a row ends other than right after its last cell: where, expat knows
    pieces.extend(lines)
    return True


def _cell_attributes(attributes: str) -> tuple[str, str | None]:
    """A cell's type (t, "n" when it has none) and format (s) from its attributes' text; NotPlain for
    attributes that are not plain name="value" pairs, each once, without references."""
    found = {name: double or single for name, double, single in _ATTRIBUTE.findall(attributes)}
    if _ATTRIBUTE.sub("", attributes).strip() or "&" in attributes or len(found) != attributes.count("="):
        raise NotPlain(attributes)
    return found.get("t", "n"), found.get("s")


def _inner_text(inner: str) -> list[str]:
    """The characters of a cell's v, and of the t elements in its inline string (is), without phonetic
    guides; a t elsewhere is not the cell's."""
    if "<rPh" in inner:  # anywhere in the cell, as expat's reader skips them
        inner = _PHONETIC.sub("", inner)
    texts = []
    for value, inline in _VALUE_OR_INLINE.findall(inner):
        texts.extend(_run_texts(inline) if inline else [xml_text(value)])
    return texts


def _run_texts(runs: str) -> list[str]:
    """The characters of the t elements of a string's runs (inline or shared), without phonetic guides."""
    if "<rPh" in runs:
        runs = _PHONETIC.sub("", runs)
    return [xml_text(text) for text in _TEXT.findall(runs)]


_PLAIN_ITEM = re.compile(
    r"<si\s*+>(?:<t(?:\s[^>]*+)?(?<!/)>([^<]*+)</t>)?+</si>"  # an item of one text
    r"|<si\s*+>((?:[^<]++|<(?!/?si[\s/>]))*+)</si>|<si\s*+/>"  # of runs, or anything else; none
)


def _plain_strings(xml: bytes) -> list[str] | None:
    """The shared strings as _shared_strings reads them, when the part is plain; None when it is not."""
    plain = plain_xml(xml, _SHEET_ML, "<sst", "</sst>", _STRING_ELEMENTS)
    if plain is None:
        return None
    items = [xml_text(text) if not runs else "".join(_run_texts(runs)) for text, runs in _PLAIN_ITEM.findall(*plain)]
    return items if len(items) == plain[0].count("<si", plain[1], plain[2]) else None
