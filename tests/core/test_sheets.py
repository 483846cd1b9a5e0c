"""Spreadsheets: Excel 97-2003 (.xls), Excel (.xlsx) and OpenDocument (.ods) made by a real LibreOffice from
one workbook read as its cells (English and Chinese, numbers, dates, booleans, a formula's value), sheet by
sheet, alike in every format; one order list saved as .xls, .xlsx, .ods, CSV and WPS Office's .et lands in one
group; a workbook is read by what its bytes are (a web page saved as .xls too); workbooks LibreOffice saved
with a password, damaged and hostile ones get a status and a plain message, never an exception."""

from __future__ import annotations

import io
import re
import struct
import threading
import time
import zipfile
from datetime import date, datetime
from pathlib import Path
from xml.sax.saxutils import escape

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from neardup_gui.core.models import Extracted, Status
from neardup_gui.core.read.containers import UNPACKED_LIMIT, Unreadable
from neardup_gui.core.read.extract import extract
from neardup_gui.core.read.sheets import _date, _number, _read_book, extract_xls, extract_xlsx
from tests.conftest import (
    compound_file,
    libreoffice_convert,
    libreoffice_password,
    scan_beside_unrelated,
)


class Formula(str):
    """A formula cell: its OpenFormula source, with the value LibreOffice shows for it."""

    value: float | str

    def __new__(cls, source: str, value: float | str) -> Formula:
        made = super().__new__(cls, source)
        made.value = value
        return made


Cell = str | int | float | bool | date | Formula | None
SHEETS: list[tuple[str, bool, list[list[Cell]]]] = [  # (name, hidden, rows)
    (
        "Orders",
        False,
        [
            ["Item", "Count", "Price", "Shipped"],
            ["中华人民共和国", 12, 3.25, date(2024, 3, 5)],
            ["中華民國", None, True],  # an empty cell in the middle of a row
            ["Total", Formula("of:=SUM([.B2];30)", 42), 1234567.5, False],
        ],
    ),
    (
        "备注",
        False,
        [["second sheet words", "第二张表"], [datetime(2024, 3, 5, 13, 45), 0.1], ["同意", "同意", "同意", "done"]],
    ),
    ("Folded", True, [["hidden sheet words"]]),
]
EXPECTED_ROWS = [  # each line's cells with text, "" for the blank line between sheets
    ["Item", "Count", "Price", "Shipped"],
    ["中华人民共和国", "12", "3.25", "2024-03-05"],
    ["中華民國", "TRUE"],
    ["Total", "42", "1234567.5", "FALSE"],
    [],
    ["second sheet words", "第二张表"],
    ["2024-03-05 13:45:00", "0.1"],
    ["同意", "同意", "同意", "done"],
    [],
    ["hidden sheet words"],
]


_QUOTE = {'"': "&quot;"}  # in an attribute's value


def write_fods(path: Path, sheets: list[tuple[str, bool, list[list[Cell]]]]) -> Path:
    """A flat OpenDocument spreadsheet (LibreOffice's own .fods) of ``sheets``: text, numbers, booleans, dates
    and date-times in their number styles, formulas with their values, empty cells; hidden sheets hidden."""

    def cell(value: Cell) -> str:
        if value is None:
            return "<table:table-cell/>"
        if isinstance(value, Formula) and isinstance(value.value, str):
            return (
                f'<table:table-cell table:formula="{escape(value, _QUOTE)}" office:value-type="string" '
                f'office:string-value="{escape(value.value, _QUOTE)}"><text:p>{escape(value.value)}</text:p>'
                "</table:table-cell>"
            )
        if isinstance(value, Formula):
            return (
                f'<table:table-cell table:formula="{escape(value, _QUOTE)}" office:value-type="float" '
                f'office:value="{value.value}"><text:p>{value.value}</text:p></table:table-cell>'
            )
        if isinstance(value, bool):
            word = str(value).lower()
            return (
                f'<table:table-cell table:style-name="boolean" office:value-type="boolean" '
                f'office:boolean-value="{word}"><text:p>{word.upper()}</text:p></table:table-cell>'
            )
        if isinstance(value, datetime):
            return (
                f'<table:table-cell table:style-name="datetime" office:value-type="date" '
                f'office:date-value="{value.isoformat()}"><text:p>{value}</text:p></table:table-cell>'
            )
        if isinstance(value, date):
            return (
                f'<table:table-cell table:style-name="date" office:value-type="date" '
                f'office:date-value="{value.isoformat()}"><text:p>{value}</text:p></table:table-cell>'
            )
        if isinstance(value, int | float):
            return (
                f'<table:table-cell office:value-type="float" office:value="{value}">'
                f"<text:p>{value}</text:p></table:table-cell>"
            )
        return f'<table:table-cell office:value-type="string"><text:p>{escape(value)}</text:p></table:table-cell>'

    tables = "".join(
        f'<table:table table:name="{escape(name)}" table:style-name="{"folded" if hidden else "shown"}">'
        + "".join(f"<table:table-row>{''.join(map(cell, row))}</table:table-row>" for row in rows)
        + "</table:table>"
        for name, hidden, rows in sheets
    )
    day = (
        '<number:year number:style="long"/><number:text>-</number:text><number:month number:style="long"/>'
        '<number:text>-</number:text><number:day number:style="long"/>'
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        f"""<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
 xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
 xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"
 xmlns:number="urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0"
 xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"
 xmlns:of="urn:oasis:names:tc:opendocument:xmlns:of:1.2"
 office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.spreadsheet">
 <office:automatic-styles>
  <number:date-style style:name="N1">{day}</number:date-style>
  <number:date-style style:name="N2">{day}<number:text> </number:text><number:hours number:style="long"/>
   <number:text>:</number:text><number:minutes number:style="long"/></number:date-style>
  <number:boolean-style style:name="N3"><number:boolean/></number:boolean-style>
  <style:style style:name="date" style:family="table-cell" style:data-style-name="N1"/>
  <style:style style:name="datetime" style:family="table-cell" style:data-style-name="N2"/>
  <style:style style:name="boolean" style:family="table-cell" style:data-style-name="N3"/>
  <style:style style:name="folded" style:family="table"><style:table-properties table:display="false"/></style:style>
  <style:style style:name="shown" style:family="table"><style:table-properties table:display="true"/></style:style>
 </office:automatic-styles>
 <office:body><office:spreadsheet>{tables}</office:spreadsheet></office:body>
</office:document>
""",
        encoding="utf-8",
    )
    return path


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """The workbook as .xls, .xlsx and .ods, each written by LibreOffice Calc from the flat ODS."""
    root = tmp_path_factory.mktemp("sheets")
    source = write_fods(root / "source" / "orders.fods", SHEETS)
    out, profile = root / "made", root / "profile"
    return {
        "xls": libreoffice_convert(source, "xls:MS Excel 97", out, profile).read_bytes(),
        "xlsx": libreoffice_convert(source, "xlsx:Calc MS Excel 2007 XML", out, profile).read_bytes(),
        "ods": libreoffice_convert(source, "ods", out, profile).read_bytes(),
    }


READERS = {"xls": extract_xls, "xlsx": extract_xlsx}


def _rows(text: str) -> list[list[str]]:
    return [[cell for cell in line.split("\t") if cell] for line in text.split("\n")]


@pytest.mark.e2e
@pytest.mark.parametrize("fmt", READERS)
def test_a_workbook_reads_as_its_cells_row_by_row_and_sheet_by_sheet(made, fmt):
    found = READERS[fmt](made[fmt])
    assert found.status is Status.OK, found.message
    assert _rows(found.text) == EXPECTED_ROWS, found.text
    assert "SUM" not in found.text, "a formula's value, never its source"
    assert "Orders" not in found.text and "备注" not in found.text, "sheets' names are not read"
    # the empty cell of the third row: an .xls keeps its column; an .xlsx has no such cell to write
    assert ("中華民國\t\tTRUE" if fmt == "xls" else "中華民國\tTRUE") in found.text


@pytest.mark.e2e
def test_xls_and_xlsx_of_one_workbook_read_as_the_same_words(made):
    xls, xlsx = extract_xls(made["xls"]), extract_xlsx(made["xlsx"])
    assert xls.text.split() == xlsx.text.split()


@pytest.mark.e2e
def test_an_ods_reads_as_its_cells_as_an_xlsx_does(made):
    found = extract("ods", made["ods"])
    assert found.status is Status.OK and not found.message, found.message
    # a cell's value, as an .xls and an .xlsx give it, not what its number format shows (hours and minutes)
    assert _rows(found.text) == EXPECTED_ROWS, found.text
    assert "SUM" not in found.text, "a formula's value, never its source"
    assert "Orders" not in found.text and "备注" not in found.text, "sheets' names are not read"
    with zipfile.ZipFile(io.BytesIO(made["ods"])) as package:
        content = package.read("content.xml").decode()
    assert 'table:number-columns-repeated="3" office:value-type="string"' in content, "one cell written for three"
    assert "同意\t同意\t同意\tdone" in found.text
    assert "中華民國\t\tTRUE" in found.text, "an empty cell keeps its column, as in an .xls"


# --- one workbook in every format ---------------------------------------------------------------------

_ORDERED = [  # what an office orders: in English, in simplified and in traditional Chinese
    ("Stainless steel thermos bottle, 500 ml", "不锈钢保温杯，容量五百毫升", "不鏽鋼保溫杯"),
    ("Recycled paper notebook with a linen cover", "再生纸笔记本，亚麻布封面", "再生紙筆記本"),
    ("Wireless mouse for the meeting room", "会议室用无线鼠标", "會議室無線滑鼠"),
    ("Desk lamp with a warm light", "暖光台灯，适合夜间阅读", "暖光檯燈"),
    ("Printer toner cartridge, black", "打印机黑色硒鼓", "印表機黑色碳粉匣"),
    ("Whiteboard markers in four colours", "四色白板笔一套", "四色白板筆"),
    ("Ergonomic office chair, grey fabric", "人体工学办公椅，灰色布面", "人體工學辦公椅"),
    ("USB-C charging cable, two metres", "两米长的充电线", "兩米長充電線"),
    ("Green tea from Hangzhou, spring harvest", "杭州春茶，龙井绿茶", "杭州龍井綠茶"),
    ("First aid kit for the third floor", "三楼急救箱", "三樓急救箱"),
    ("Folding umbrella for the front desk", "前台的折叠伞", "前檯摺疊傘"),
    ("Projector bulb for room 204", "二零四会议室投影仪灯泡", "投影機燈泡"),
]
_ORDERED_BY = ("王小明", "李華", "Chen Jing", "張偉", "Maria Lopez", "刘洋", "陳志明")


def _order_list() -> list[list[Cell]]:
    """An office's orders, three of each thing by different people: text in three scripts, counts, prices,
    dates and a total (a formula). The dates are in the ISO style: one shown as 2024年3月5日 is so in the CSV
    (a cell as shown) and 2024-03-05 in the others (its value), which would keep the CSV out of the group."""
    rows: list[list[Cell]] = [["编号 No.", "Item", "物品说明", "說明（繁體）", "Ordered by", "Count", "Price", "Date"]]
    for n in range(3 * len(_ORDERED)):
        english, simplified, traditional = _ORDERED[n % len(_ORDERED)]
        count, price = n * 7 % 23 + 1, round(3.5 + n * 1.25, 2)
        rows.append([f"PO-{20240300 + n}", english, simplified, traditional, _ORDERED_BY[n % 7], count, price,
                     date(2024, 1 + n // 4, 1 + n * 3 % 28)])  # fmt: skip
    total = sum(row[5] for row in rows[1:] if isinstance(row[5], int))
    rows.append(["Total", None, "合计", "合計", None, Formula(f"of:=SUM([.F2:.F{len(rows)}])", total)])
    return rows


# LibreOffice's "Text CSV" filter options: comma apart, double quotes around text, UTF-8 (encoding 76)
_CSV = "csv:Text - txt - csv (StarCalc):44,34,76"


@pytest.fixture(scope="module")
def workbook(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The order list saved by LibreOffice Calc as .xls, .xlsx, .ods and CSV (UTF-8), and its flat ODS."""
    root = tmp_path_factory.mktemp("workbook")
    source = write_fods(root / "source" / "orders.fods", [("Orders 2024", False, _order_list())])
    out, profile = root / "made", root / "profile"
    return {
        "source": source,
        "xls": libreoffice_convert(source, "xls:MS Excel 97", out, profile),
        "xlsx": libreoffice_convert(source, "xlsx:Calc MS Excel 2007 XML", out, profile),
        "ods": libreoffice_convert(source, "ods", out, profile),
        "csv": libreoffice_convert(source, _CSV, out, profile),
    }


@pytest.mark.e2e
def test_one_workbook_saved_as_xls_xlsx_ods_csv_and_et_lands_in_one_group(workbook, tmp_path):
    """A sheet's cells read alike from every format: the CSV's commas and quotes, where the others have tabs,
    are no words; WPS Office's spreadsheet saves Excel 97-2003 inside its .et."""
    words = {fmt: extract(fmt, workbook[fmt].read_bytes()).text.split() for fmt in ("xls", "xlsx", "ods")}
    assert words["xls"] == words["xlsx"] == words["ods"]
    assert "PO-20240301,Recycled paper notebook" in workbook["csv"].read_text(encoding="utf-8")
    names = {"xls": "orders.xls", "xlsx": "orders.xlsx", "ods": "orders.ods", "csv": "orders.csv", "et": "wps.et"}
    report = scan_beside_unrelated(
        {name: workbook["xls" if fmt == "et" else fmt] for fmt, name in names.items()}, tmp_path
    )
    types = {Path(d["path"]).name: d["type"] for d in report["documents"]}
    assert {types[name] for name in names.values()} == {"xls", "xlsx", "ods", "text", "et"}
    assert all(d["status"] == "ok" for d in report["documents"]), report["documents"]
    by_id = {d["id"]: Path(d["path"]).name for d in report["documents"]}
    groups = [{by_id[m["id"]] for m in g["members"]} for g in report["groups"]]
    assert groups == [set(names.values())], groups


@pytest.mark.e2e
def test_a_date_shown_the_chinese_way_reads_alike_from_ods_xls_and_xlsx(tmp_path):
    """Each reader gives a cell's value, not what its number format shows: a date shown as 2024年3月5日 is
    2024-03-05 in all three, so one workbook saved in each lands in one group."""
    rows: list[list[Cell]] = [["交货日期", date(2024, 3, 5)], ["下单时间", datetime(2024, 3, 5, 13, 45)], ["数量", 12]]
    source = write_fods(tmp_path / "source" / "dates.fods", [("日期", False, rows)])
    chinese = (
        '<number:year number:style="long"/><number:text>年</number:text><number:month/>'
        "<number:text>月</number:text><number:day/><number:text>日</number:text>"
    )
    styled = re.sub(
        r'(<number:date-style style:name="N1">).*?(</number:date-style>)',
        lambda m: m.group(1) + chinese + m.group(2),
        source.read_text(encoding="utf-8"),
        count=1,
        flags=re.S,
    )
    source.write_text(styled, encoding="utf-8")
    out, profile = tmp_path / "made", tmp_path / "profile"
    assert "2024年3月5日" in libreoffice_convert(source, _CSV, out, profile).read_text(encoding="utf-8")
    texts = {
        fmt: extract(fmt, libreoffice_convert(source, target, out, profile).read_bytes()).text
        for fmt, target in (("ods", "ods"), ("xls", "xls:MS Excel 97"), ("xlsx", "xlsx:Calc MS Excel 2007 XML"))
    }
    assert texts["ods"] == texts["xls"] == texts["xlsx"], texts
    assert texts["ods"] == "交货日期\t2024-03-05\n下单时间\t2024-03-05 13:45:00\n数量\t12"


@pytest.mark.e2e
def test_an_excel_2003_xml_workbook_under_an_xls_name_reads_as_the_xlsx_does(workbook, tmp_path):
    """Web systems' "Excel" downloads are often Excel 2003's XML under an .xls name."""
    made = libreoffice_convert(workbook["source"], "xml:MS Excel 2003 XML", tmp_path, tmp_path / "profile")
    for kind in ("xls", "et"):
        found = extract(kind, made.read_bytes())
        assert found.status is Status.OK and "Excel 2003 XML workbook" in found.message
        assert found.text.split() == extract("xlsx", workbook["xlsx"].read_bytes()).text.split()


@pytest.fixture(scope="module")
def locked(workbook: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """The order list saved by LibreOffice with a password, as .xls and .xlsx; each checked to be encrypted,
    so that a LibreOffice which wrote it in the clear fails here, not in what reads it."""
    out = tmp_path_factory.mktemp("locked")
    made = {
        fmt: libreoffice_password(workbook["source"], out / f"locked.{fmt}", name, "secret", out / "profile")
        for fmt, name in (("xls", "MS Excel 97"), ("xlsx", "Calc MS Excel 2007 XML"))
    }
    import msoffcrypto

    words = extract("xlsx", workbook["xlsx"].read_bytes()).text.split()
    for path in made.values():
        # an .xls by its FILEPASS record, an .xlsx by its EncryptedPackage; opened with the password
        document = msoffcrypto.OfficeFile(io.BytesIO(path.read_bytes()))
        assert document.is_encrypted(), f"LibreOffice wrote {path.name} without encrypting it"
        document.load_key(password="secret")
        plain = io.BytesIO()
        document.decrypt(plain)
        assert extract(path.suffix[1:], plain.getvalue()).text.split() == words
    return {fmt: path.read_bytes() for fmt, path in made.items()}


@pytest.mark.e2e
def test_workbooks_saved_with_a_password_by_libreoffice_say_so(locked):
    for fmt, data in locked.items():
        for kind in (fmt, "et"):  # and as WPS Office's spreadsheet
            found = extract(kind, data)
            assert found.status is Status.ENCRYPTED and "Password-protected" in found.message, (fmt, kind, found)


@pytest.mark.e2e
def test_a_workbook_under_another_formats_name_is_read_as_what_it_is(made):
    for kind, fmt, named in (
        ("xls", "xlsx", "(.xlsx)"),
        ("xlsx", "xls", "(.xls)"),
        ("xlsx", "ods", "(.ods)"),
        ("ods", "xlsx", "(.xlsx)"),
        ("xls", "ods", "(.ods)"),
    ):
        found = extract(kind, made[fmt])
        assert found.status is Status.OK and named in found.message, (kind, fmt, found.message)
        assert found.text.split() == extract(fmt, made[fmt]).text.split()
    for fmt in ("xls", "xlsx"):  # what WPS Office's spreadsheet may be: no word about it
        found = extract("et", made[fmt])
        assert found.status is Status.OK and not found.message, found.message


_DOWNLOADS = {  # what web apps send as an "Excel" download: a web page, often no more than a table
    "page": (
        '<html xmlns:o="urn:schemas-microsoft-com:office:office" xmlns:x="urn:schemas-microsoft-com:office:excel">'
        '<head><meta charset="utf-8"><!--[if gte mso 9]><xml><x:ExcelWorkbook><x:ExcelWorksheets><x:ExcelWorksheet>'
        "<x:Name>导出</x:Name></x:ExcelWorksheet></x:ExcelWorksheets></x:ExcelWorkbook></xml><![endif]--></head>"
        "<body>{table}</body></html>",
        "utf-8",
    ),
    "bare": ("\ufeff{table}", "utf-8"),
    "declared": ('<meta http-equiv="Content-Type" content="text/html; charset=gb2312">\r\n{table}', "gb18030"),
    "styled": ('<style>td {{ mso-number-format: "\\@"; }}</style>\n{table}', "utf-8"),
}
_DOWNLOADED_TABLE = (
    '<table border="1"><tr><th>姓名</th><th>部门</th><th>Amount</th></tr>'
    "<tr><td>王小明</td><td>财务部</td><td>1,280.50</td></tr><tr><td>Chen Jing</td><td>IT</td><td>96</td></tr></table>"
)


@pytest.mark.parametrize("download", _DOWNLOADS)
def test_a_web_page_saved_under_an_excel_name_is_read_as_a_web_page(download):
    page, encoding = _DOWNLOADS[download]
    data = page.format(table=_DOWNLOADED_TABLE).encode(encoding)
    for kind in ("xls", "xlsx", "et"):
        found = extract(kind, data)
        assert found.status is Status.OK and "web page (.html)" in found.message, (kind, found)
        rows = [row for row in _rows(found.text) if row]
        assert rows == [["姓名", "部门", "Amount"], ["王小明", "财务部", "1,280.50"], ["Chen Jing", "IT", "96"]]


@pytest.mark.e2e
def test_an_encrypted_workbook_says_so_and_other_bytes_are_a_plain_error(made, locked):
    found = extract_xls(locked["xls"])
    assert found.status is Status.ENCRYPTED and "Password-protected" in found.message
    from msoffcrypto.format.ooxml import OOXMLFile

    locked = io.BytesIO()
    OOXMLFile(io.BytesIO(made["xlsx"])).encrypt("secret", locked)
    found = extract_xls(locked.getvalue())  # an encrypted .xlsx is a compound file too
    assert found.status is Status.ENCRYPTED
    found = extract_xlsx(locked.getvalue())  # the dispatcher sends it elsewhere; here too, it is named
    assert found.status is Status.ENCRYPTED
    for reader, other in ((extract_xls, made["xlsx"]), (extract_xlsx, made["xls"])):
        found = reader(other)
        assert found.status in (Status.ERROR, Status.UNSUPPORTED) and found.message, found


@pytest.mark.e2e
def test_a_looping_sector_chain_ends_quickly(made):
    """A small workbook's stream (under 4 KB) is a short stream; xlrd's own compound-file reader follows its
    chain of 64-byte sectors without end when the chain loops, so the stream is read by olefile instead."""
    data = bytearray(made["xls"])
    import olefile

    ole = olefile.OleFileIO(bytes(data))
    entry = next(e for e in ole.direntries if e is not None and e.name == "Workbook")
    assert entry.size < ole.minisectorcutoff, "the test needs a short stream"
    (short_table,) = struct.unpack_from("<i", data, 0x3C)  # the first sector of the short sectors' table
    next_of_second = 512 + short_table * 512 + 4 * (entry.isectStart + 1)
    struct.pack_into("<i", data, next_of_second, entry.isectStart)  # the second sector leads back to the first
    results: list[Extracted] = []

    def read() -> None:
        results.append(extract_xls(bytes(data)))
        try:  # the same file as the Workbook stream of another: never given to xlrd's compound-file reader
            _read_book(bytes(data), [])
        except Unreadable as problem:
            results.append(problem.outcome)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(10)
    assert len(results) == 2, "reading a looping chain did not end"
    assert results[1].status is Status.ERROR


def _mutated(data: bytes, edits: list[tuple[float, int]], cut: float | None) -> bytes:
    changed = bytearray(data)
    for where, byte in edits:
        changed[int(where * len(changed))] = byte
    return bytes(changed[: max(1, int(cut * len(changed)))] if cut is not None else changed)


_EDITS = st.lists(st.tuples(st.floats(0, 1, exclude_max=True), st.integers(0, 255)), min_size=1, max_size=16)


def _assert_an_outcome(found: object, started: float, capfd: pytest.CaptureFixture[str]) -> None:
    assert isinstance(found, Extracted) and isinstance(found.status, Status)
    assert found.status is Status.OK or found.message
    assert time.monotonic() - started < 5
    assert capfd.readouterr() == ("", ""), "nothing on stdout or stderr: a worker's stdout carries its results"


@pytest.mark.e2e
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits=_EDITS, cut=st.none() | st.floats(0, 1))
def test_a_damaged_xls_gets_a_status_never_an_exception(made, capfd, edits, cut):
    started = time.monotonic()
    _assert_an_outcome(extract_xls(_mutated(made["xls"], edits, cut)), started, capfd)


_XML_PIECES = (b"<", b">", b'"', b't="s"', b't="b"', b't="inlineStr"', b"<v>", b"</v>", b's="99"', b"1e999", b"<rPh>")


@pytest.mark.e2e
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    edits=_EDITS,
    cut=st.none() | st.floats(0, 1),
    in_xml=st.booleans(),
    part=st.integers(0, 50),
    piece=st.sampled_from(_XML_PIECES),
)
def test_a_damaged_xlsx_gets_a_status_never_an_exception(made, capfd, edits, cut, in_xml, part, piece):
    """Bytes of the zip changed (mostly caught by its checksums), or of one XML part, rezipped."""
    started = time.monotonic()
    data = made["xlsx"]
    if in_xml:
        with zipfile.ZipFile(io.BytesIO(data)) as package:
            parts = {name: package.read(name) for name in package.namelist()}
        name = sorted(parts)[part % len(parts)]
        where = int(edits[0][0] * len(parts[name]))
        changed = parts[name][:where] + piece + parts[name][where:]
        parts[name] = _mutated(changed, edits[1:], cut) if len(edits) > 1 else changed
        data = _zip(parts)
    else:
        data = _mutated(data, edits, cut)
    _assert_an_outcome(extract_xlsx(data), started, capfd)


# --- .xlsx written here, part by part: what LibreOffice does not write ---------------------------------

_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_STRICT_MAIN = "http://purl.oclc.org/ooxml/spreadsheetml/main"
_STRICT_REL = "http://purl.oclc.org/ooxml/officeDocument/relationships"


def _zip(parts: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as package:
        for name, data in parts.items():
            package.writestr(name, data)
    return out.getvalue()


def _xlsx(
    sheets: list[str],
    *,
    strings: str = "",
    styles: str = "",
    workbook_pr: str = "",
    strict: bool = False,
    prolog: str = '<?xml version="1.0" encoding="UTF-8"?>',
) -> bytes:
    """A workbook of ``sheets`` (each its sheetData's rows), with shared strings' items and styles' XML."""
    main, rel = (_STRICT_MAIN, _STRICT_REL) if strict else (_MAIN, _REL)
    kinds = f"{rel}/" if strict else f"{_REL}/"
    parts = {
        "_rels/.rels": (
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            f'<Relationship Id="r1" Type="{kinds}officeDocument" Target="xl/workbook.xml"/></Relationships>'
        ),
        "xl/workbook.xml": (
            f'<workbook xmlns="{main}" xmlns:r="{rel}">{workbook_pr}<sheets>'
            # listed in reverse of their parts' names: the workbook's order is what counts
            + "".join(f'<sheet name="S{i}" sheetId="{i}" r:id="s{i}"/>' for i in reversed(range(len(sheets))))
            + "</sheets></workbook>"
        ),
        "xl/_rels/workbook.xml.rels": (
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            + "".join(
                f'<Relationship Id="s{i}" Type="{kinds}worksheet" Target="worksheets/sheet{i}.xml"/>'
                for i in range(len(sheets))
            )
            + f'<Relationship Id="t" Type="{kinds}sharedStrings" Target="/xl/sharedStrings.xml"/>'
            + f'<Relationship Id="y" Type="{kinds}styles" Target="styles.xml"/></Relationships>'
        ),
        "xl/sharedStrings.xml": f'{prolog}<sst xmlns="{main}">{strings}</sst>',
        "xl/styles.xml": f'<styleSheet xmlns="{main}">{styles}</styleSheet>',
        **{
            f"xl/worksheets/sheet{i}.xml": f'<worksheet xmlns="{main}"><sheetData>{rows}</sheetData></worksheet>'
            for i, rows in enumerate(sheets)
        },
    }
    return _zip({name: text.encode() for name, text in parts.items()})


_STYLES = (
    '<numFmts><numFmt numFmtId="164" formatCode="yyyy&quot;年&quot;m&quot;月&quot;d&quot;日&quot;"/>'
    '<numFmt numFmtId="165" formatCode="#,##0.00&quot; days&quot;"/><numFmt numFmtId="166" formatCode="[Red]0.0"/>'
    "</numFmts>"
    '<cellStyleXfs><xf numFmtId="14"/></cellStyleXfs>'  # a named style's format: no cell's
    '<cellXfs><xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="164"/><xf numFmtId="165"/><xf numFmtId="166"/>'
    '<xf numFmtId="31"/><xf numFmtId="21"/></cellXfs>'
)


def test_xlsx_cell_types_shared_and_inline_strings_and_date_formats():
    strings = (
        "<si><t>plain</t></si>"
        "<si><r><t>rich </t></r><r><t>runs</t></r><rPh><t>ルビ</t></rPh></si>"  # a phonetic guide: not the text
        "<si><t>東京</t><rPh sb='0' eb='2'><t>とうきょう</t></rPh></si>"
    )
    rows = (
        '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c>'
        '<c r="D1" t="s"><v>7</v></c></row>'  # a shared string's index past the table: nothing
        '<row r="2"><c t="inlineStr"><is><t>inline</t><rPh><t>x</t></rPh></is></c>'
        '<c t="str"><f>"ab"&amp;"cd"</f><v>abcd</v></c><c t="b"><v>0</v></c><c t="e"><f>1/0</f><v>#DIV/0!</v></c>'
        "<c><f>SUM(A9:A10)</f><v>0.30000000000000004</v></c></row>"
        '<row r="3"><c s="1"><v>45356</v></c><c s="2"><v>45356</v></c><c s="3"><v>45356</v></c>'
        '<c s="4"><v>2.5</v></c><c s="5"><v>45356</v></c><c s="6"><v>0.5729166667</v></c>'
        '<c s="99"><v>7</v></c><c s="x"><v>8</v></c></row>'
        '<row r="4"><c t="d"><v>2024-03-05T00:00:00</v></c><c t="d"><v>2024-03-05T13:45:00</v></c>'
        "<c><v>1E+20</v></c><c><v>-0</v></c><c><v>12.0</v></c><c><v>not a number</v></c></row>"
        '<row r="5"><c r="A5" s="1"/><c r="B5"/></row>'  # cells with a format and no value: no line
    )
    found = extract_xlsx(
        _xlsx(
            [rows, '<row r="1"><c t="inlineStr"><is><t>first sheet</t></is></c></row>'], strings=strings, styles=_STYLES
        )
    )
    assert found.status is Status.OK, found.message
    assert found.text.split("\n") == [
        "first sheet",  # the workbook lists sheet 1 first
        "",
        "plain\trich runs\t東京",
        "inline\tabcd\tFALSE\t\t0.3",
        "2024-03-05\t2024-03-05\t45356\t2.5\t2024-03-05\t13:45:00\t7\t8",
        "2024-03-05\t2024-03-05 13:45:00\t1e+20\t0\t12\tnot a number",
    ]
    assert "SUM" not in found.text and "とうきょう" not in found.text and "ルビ" not in found.text


def test_a_strict_xlsx_and_dates_from_1904_are_read():
    rows = '<row><c s="1"><v>0</v></c><c s="1"><v>43894</v></c><c t="b"><v>1</v></c></row>'
    pr = '<workbookPr date1904="1"/>'
    found = extract_xlsx(_xlsx([rows], styles=_STYLES, workbook_pr=pr, strict=True))
    assert found.status is Status.OK, found.message
    assert found.text == "00:00:00\t2024-03-05\tTRUE"


def test_a_hostile_xlsx_is_refused_or_read_cheaply():
    # a cell far out (column XFD, the last row): its place is never a grid's
    started = time.monotonic()
    far = extract_xlsx(_xlsx(['<row r="1048576"><c r="XFD1048576" t="inlineStr"><is><t>far</t></is></c></row>']))
    assert far.status is Status.OK and far.text == "far" and time.monotonic() - started < 1
    # parts crafted so a pattern would scan to their end again and again: each read in linear time
    inline = '<c t="inlineStr"><is>' + "<rPh-x></rPh-x>" * 20_000 + "<t>x</t></is></c>"
    for rows in ("<row>" + "<c-x></c-x>" * 20_000 + "</row>", "<row>" + "<c>" * 20_000 + "</row>", "<" * 40_000):
        started = time.monotonic()
        assert isinstance(extract_xlsx(_xlsx([rows, f"<row>{inline}</row>"])).status, Status)
        assert time.monotonic() - started < 3, rows[:20]
    # shared strings that inflate past the limit (a zip bomb): not inflated
    bomb = _xlsx(["<row><c t='s'><v>0</v></c></row>"], strings="<si><t>" + " " * (UNPACKED_LIMIT + 1) + "</t></si>")
    assert len(bomb) < 2 << 20
    found = extract_xlsx(bomb)
    assert found.status is Status.TOO_LARGE and "zip bomb" in found.message
    # entities declared in a document type (billion laughs): refused before any is declared
    laughs = '<?xml version="1.0"?><!DOCTYPE sst [<!ENTITY lol "lol">]>'
    found = extract_xlsx(_xlsx(["<row><c t='s'><v>0</v></c></row>"], strings="<si><t>&lol;</t></si>", prolog=laughs))
    assert found.status is Status.ERROR and "document type" in found.message
    # an XML part declaring an encoding expat cannot read (unknown; multi-byte): damaged, not an exception
    for encoding in ("UTD-8", "gbk"):
        prolog = f'<?xml version="1.0" encoding="{encoding}"?>'
        found = extract_xlsx(_xlsx(["<row/>"], strings="<si><t>x</t></si>", prolog=prolog))
        assert found.status is Status.ERROR and "Damaged" in found.message, encoding


def test_a_broken_or_empty_xlsx_says_so():
    assert extract_xlsx(b"not a zip at all").status is Status.ERROR
    with zipfile.ZipFile(io.BytesIO(_xlsx(["<row/>"]))) as package:
        parts = {name: package.read(name) for name in package.namelist() if "worksheets" not in name}
    found = extract_xlsx(_zip(parts))
    assert found.status is Status.ERROR and "missing" in found.message
    found = extract_xlsx(_xlsx(["<row><c><v> </v></c></row>", ""]))
    assert found.status is Status.EMPTY and found.message


@pytest.mark.parametrize(
    ("value", "words"),
    [
        (12.0, "12"),
        (3.25, "3.25"),
        (0.1 + 0.2, "0.3"),
        (-7.0, "-7"),
        (-0.0, "0"),
        (1e20, "1e+20"),
        (1 / 3, "0.333333333333333"),
    ],
)
def test_numbers_read_as_the_general_format_shows_them(value, words):
    assert _number(value) == words


@pytest.mark.parametrize(
    ("serial", "date1904", "words"),
    [
        (45356.0, False, "2024-03-05"),
        (45356.5729166667, False, "2024-03-05 13:45:00"),
        (45356.99999999, False, "2024-03-06"),  # rounded to the second, into the next day
        (0.5, False, "12:00:00"),
        (1.0, False, "1900-01-01"),
        (61.0, False, "1900-03-01"),
        (43894.0, True, "2024-03-05"),
        (-1.0, False, "-1"),
        (3e6, False, "3000000"),
        (float("nan"), False, "nan"),
    ],
)
def test_dates_read_as_iso_dates(serial, date1904, words):
    assert _date(serial, date1904) == words


def _biff5_workbook(lines: list[str], codepage: int, encoding: str) -> bytes:
    """An Excel 5/95 workbook (BIFF5) in a compound file's Book stream: its CODEPAGE record says how its 8-bit
    strings are encoded (936: GBK, 950: Big5), a LABEL cell a line. LibreOffice no longer writes BIFF5."""

    def record(kind: int, body: bytes = b"") -> bytes:
        return struct.pack("<HH", kind, len(body)) + body

    name = b"Sheet1"
    head = record(0x0809, struct.pack("<4H", 0x0500, 0x0005, 0, 0)) + record(0x0042, struct.pack("<H", codepage))
    sheet_at = len(head) + 4 + 7 + len(name) + 4  # after BOUNDSHEET and EOF
    book = head + record(0x0085, struct.pack("<IHB", sheet_at, 0, len(name)) + name) + record(0x000A)
    book += record(0x0809, struct.pack("<4H", 0x0500, 0x0010, 0, 0))
    for row, line in enumerate(lines):
        raw = line.encode(encoding)
        book += record(0x0204, struct.pack("<4H", row, 0, 0, len(raw)) + raw)
    return compound_file({"Book": book + record(0x000A)})


def test_an_excel_95_workbook_reads_by_its_code_page_gbk_or_big5():
    simplified = ["中华人民共和国合同法", "第一条 为了保护合同当事人的合法权益"]
    traditional = ["中華民國民法", "第一條 民事，法律所未規定者，依習慣"]
    for lines, codepage, encoding in ((simplified, 936, "gbk"), (traditional, 950, "big5")):
        found = extract("xls", _biff5_workbook(lines, codepage, encoding))
        assert found.status is Status.OK and found.text == "\n".join(lines), found


# --- .xlsx parts in the plain shape read by regular expressions, every other part by expat: the same text --


def _through_expat(data: bytes) -> bytes:
    """The workbook with a comment in each worksheet's and the shared strings' content: no longer in the shape
    the regular expressions read (containers.plain_xml), so read by expat; the text is unchanged."""
    with zipfile.ZipFile(io.BytesIO(data)) as package:
        parts = {name: package.read(name) for name in package.namelist()}
    for name, xml in parts.items():
        if name.endswith(".xml") and (b"<sheetData" in xml or b"<sst" in xml):
            parts[name] = re.sub(rb"(<sheetData\b[^>]*>|<sst\b[^>]*>)", rb"\1<!-- read by expat -->", xml, count=1)
    return _zip(parts)


@pytest.mark.e2e
def test_a_workbook_from_libreoffice_reads_alike_by_either_reader(made):
    assert b"<!-- read by expat -->" in zipfile.ZipFile(io.BytesIO(_through_expat(made["xlsx"]))).read(
        "xl/worksheets/sheet1.xml"
    )
    assert extract_xlsx(made["xlsx"]) == extract_xlsx(_through_expat(made["xlsx"]))


_VALUES = st.sampled_from(
    ["0", "12", "12.0", "-0", "3.25", "1E+20", " 7 ", "", "x &amp; y", "a&#13;b", "&lt;&#x4e2d;&gt;", "2", "99",
     "line\r\nend", "not a number", "45356", "0.30000000000000004", "1", "&#x0000041;&#00000065;", "a\r",
     "\nb", "&#0;", "&#xD800;", "&nbsp;", "a > b"]
)  # fmt: skip
_SPACE = st.sampled_from(["", "", "", "\n  ", " "])


@st.composite
def _cell_xml(draw: st.DrawFn) -> str:
    """One cell as spreadsheet programs write it, or in a rarer shape the regular expressions still read."""
    kind = draw(st.sampled_from(["", ' t="s"', ' t="n"', ' t="str"', ' t="b"', ' t="e"', ' t="inlineStr"', " t='s'"]))
    style = draw(
        st.sampled_from(["", ' s="0"', ' s="1"', ' s="2"', " s = '1'", ' s="x"', ' s="&#49;"', ' cm="1/2"', ' a="x>"'])
    )
    place = draw(st.sampled_from(['r="A1" ', "", 'r="B7" ']))
    attributes = f" {place}{kind}{style}" if place else f"{kind}{style}"
    value = draw(_VALUES)
    shape = draw(st.integers(0, 6))
    if shape == 6:  # a t outside an inline string: not the cell's
        return f"<c{attributes}><v>{value}</v><t>{draw(_VALUES)}</t></c>"
    if shape == 0:
        return f"<c{attributes}/>"
    if shape == 1:
        return f"<c{attributes}><v>{value}</v></c>"
    if shape == 2:
        return f'<c{attributes}><f t="shared" si="0"/><v>{value}</v></c>'
    if shape == 3:
        return f"<c{attributes}><f>SUM(A1:A2)&gt;0</f><v>{value}</v></c>"
    if shape == 4:
        space = draw(_SPACE)
        return f"<c{attributes}>{space}<v xml:space='preserve'>{value}</v>{space}</c>"
    runs = "".join(f"<r><rPr><b/></rPr><t>{v}</t></r>" for v in draw(st.lists(_VALUES, max_size=3)))
    return f'<c{attributes}><is><t xml:space="preserve">{value}</t>{runs}<rPh sb="0"><t>ルビ</t></rPh></is></c>'


@st.composite
def _sheet_rows(draw: st.DrawFn) -> str:
    rows = []
    for number in range(1, draw(st.integers(0, 6)) + 1):
        cells = draw(st.lists(_cell_xml(), max_size=6))
        space = draw(_SPACE)
        if not cells and draw(st.booleans()):
            rows.append(f'<row r="{number}"/>')
        else:  # a row's extLst after its cells: its end is not right after its last cell
            tail = draw(st.sampled_from(["", "", "", '<extLst><ext uri="{0}"/></extLst>']))
            rows.append(f'<row r="{number}" spans="1:6">{space.join(cells)}{space}{tail}</row>{space}')
    return "".join(rows)


_ITEMS = st.lists(
    st.sampled_from(
        ["<si><t>plain</t></si>", '<si><t xml:space="preserve"> spaced </t></si>', "<si/>", "<si></si>",
         "<si><r><t>rich </t></r><r><rPr><sz val='10'/></rPr><t>runs</t></r></si>",
         "<si><t>東京</t><rPh sb='0' eb='2'><t>とうきょう</t></rPh></si>", "<si>\n  <t>x &amp; y&#13;</t>\n</si>",
         "<si><t/></si>", "<si ><t>spaced tag</t></si>", "<si />", "<si><r><t>a\r</t></r><r><t>\nb</t></r></si>",
         "<si><t>&#x0000041;</t></si>"]
    ),
    max_size=5,
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(sheets=st.lists(_sheet_rows(), min_size=1, max_size=3), items=_ITEMS, date1904=st.booleans())
def test_any_plain_sheet_reads_alike_by_either_reader(sheets, items, date1904):
    workbook_pr = '<workbookPr date1904="1"/>' if date1904 else ""
    data = _xlsx(sheets, strings="".join(items), styles=_STYLES, workbook_pr=workbook_pr)
    fast, by_expat = extract_xlsx(data), extract_xlsx(_through_expat(data))
    if by_expat.status is Status.ERROR:  # a reference XML forbids: damaged (expat's details say where, moved)
        assert fast.status is Status.ERROR
    else:
        assert fast == by_expat


# --- an .xls's worksheets read record by record here, beside xlrd's own reading of them: the same cells -----


def _cells_both_ways(data: bytes) -> list[tuple[list[str] | str, list[str] | str]]:
    """For each worksheet: its rows' lines as read here (_biff8_cells), and as from xlrd's own sheet; "damaged"
    where a reader raises what extract_xls calls damaged. A sheet read here holding a record left to xlrd is
    left out: xlrd's reading is then the one used."""
    import xlrd

    from neardup_gui.core.read.sheets import _biff8_cells, _biff_stream, _ElsewhereError, _xls_cell

    damaged = (xlrd.XLRDError, AssertionError, KeyError, IndexError, struct.error, ValueError, TypeError)
    book = xlrd.open_workbook(file_contents=_biff_stream(data), on_demand=True, ragged_rows=True)
    date1904 = book.datemode == 1
    compared: list[tuple[list[str] | str, list[str] | str]] = []
    for index in range(book.nsheets):
        ours: list[str] | str
        theirs: list[str] | str
        try:
            rows = _biff8_cells(
                book.mem, book._sh_abs_posn[index], book._sharedstrings, book._xf_index_to_xl_type_map, date1904
            )
            ours = ["\t".join(rows[rowx]) for rowx in sorted(rows) if any(rows[rowx])]
        except _ElsewhereError:
            continue
        except damaged:
            ours = "damaged"
        try:
            sheet = book.sheet_by_index(index)
            lines = (
                "\t".join(_xls_cell(kind, value, date1904) for kind, value in zip(kinds, values, strict=True))
                for kinds, values in ((sheet.row_types(r), sheet.row_values(r)) for r in range(sheet.nrows))
            )
            theirs = [line for line in lines if line.strip("\t")]
        except damaged:
            theirs = "damaged"
        compared.append((ours, theirs))
    return compared


@pytest.mark.e2e
def test_an_xls_from_libreoffice_reads_record_by_record_as_xlrd_reads_it(made, tmp_path):
    many = [  # numbers LibreOffice writes as RK, MULRK and NUMBER records; booleans; dates; empty cells
        [r, r * 0.25, r * 1.5 + 0.125, -r, 10**12 + r, f"行{r}", None, date(2024, 1, 1 + r % 28), r % 2 == 0]
        for r in range(300)
    ]
    source = write_fods(tmp_path / "records.fods", [("Many", False, many), *SHEETS])
    out, profile = tmp_path / "out", tmp_path / "profile"
    for data in (made["xls"], libreoffice_convert(source, "xls:MS Excel 97", out, profile).read_bytes()):
        for ours, theirs in _cells_both_ways(data):
            assert ours == theirs


def _record(kind: int, body: bytes = b"") -> bytes:
    return struct.pack("<HH", kind, len(body)) + body


def _biff8_workbook(cells: list[bytes], strings: list[str], sheet_type: int = 0x0010) -> bytes:
    """An Excel 97 workbook (BIFF8) in a compound file's Workbook stream: a shared-string table of ``strings``
    and one worksheet of the cell records ``cells``, as they come."""
    sst = struct.pack("<II", len(strings), len(strings)) + b"".join(
        struct.pack("<HB", len(text), 1) + text.encode("utf-16-le") for text in strings
    )
    head = _record(0x0809, struct.pack("<4H", 0x0600, 0x0005, 0, 0)) + _record(0x00FC, sst)
    name = "Sheet1".encode("utf-16-le")
    sheet_at = len(head) + 4 + 8 + len(name) + 4  # after BOUNDSHEET and EOF
    book = head + _record(0x0085, struct.pack("<IHBB", sheet_at, 0, 6, 1) + name) + _record(0x000A)
    book += _record(0x0809, struct.pack("<4H", 0x0600, sheet_type, 0, 0)) + b"".join(cells) + _record(0x000A)
    return compound_file({"Workbook": book})


def _rk_bytes(value: int) -> bytes:
    return struct.pack("<i", (value << 2) | 2)


_PLACES = st.tuples(st.integers(0, 4), st.sampled_from([0, 1, 2, 3, 4, 5, 6, 254, 255, 256, 300]))


@st.composite
def _damaged_record(draw: st.DrawFn) -> bytes:
    """A cell's record, sometimes cut short (its length saying so): damaged, as xlrd says."""
    record = draw(_cell_record())
    cut = draw(st.sampled_from([0] * 12 + [1, 2, 4]))
    code, length = struct.unpack_from("<HH", record)
    if cut == 0 or cut >= length:
        return record
    return struct.pack("<HH", code, length - cut) + record[4 : 4 + length - cut] + record[4 + length :]


@st.composite
def _cell_record(draw: st.DrawFn) -> bytes:
    """One cell's record (or two: a formula's text follows it), of a kind Excel and LibreOffice write."""
    row, col = draw(_PLACES)
    kind = draw(st.sampled_from(["number", "rk", "mulrk", "sst", "boolerr", "formula", "text", "label", "blank"]))
    if kind == "number":
        return _record(0x0203, struct.pack("<HHHd", row, col, 0, draw(st.floats(-1e20, 1e20))))
    if kind == "rk":
        return _record(0x027E, struct.pack("<HHH", row, col, 0) + _rk_bytes(draw(st.integers(-1000, 1000))))
    if kind == "mulrk":
        values = draw(st.lists(st.integers(0, 99), min_size=2, max_size=4))
        items = b"".join(struct.pack("<H", 0) + _rk_bytes(v) for v in values)
        return _record(0x00BD, struct.pack("<HH", row, col) + items + struct.pack("<H", col + len(values) - 1))
    if kind == "sst":
        return _record(0x00FD, struct.pack("<HHHi", row, col, 0, draw(st.integers(0, 2))))
    if kind == "boolerr":
        return _record(0x0205, struct.pack("<HHHBB", row, col, 0, draw(st.integers(0, 1)), draw(st.integers(0, 2))))
    if kind == "blank":
        return _record(0x0201, struct.pack("<HHH", row, col, 0))
    if kind == "label":  # left to xlrd: the whole sheet is then xlrd's
        return _record(0x0204, struct.pack("<HHHHB", row, col, 0, 5, 0) + b"label")
    if kind == "formula":  # a number, or a boolean, an error or an empty text
        special = draw(st.sampled_from([None, 1, 2, 3]))
        result = (
            struct.pack("<d", draw(st.floats(-1e6, 1e6)))
            if special is None
            else struct.pack("<BBBBHH", special, 0, draw(st.integers(0, 1)), 0, 0, 0xFFFF)
        )
        return _record(0x0006, struct.pack("<HHH", row, col, 0) + result + b"\0" * 6)
    text = draw(st.sampled_from(["abcd", "中中中", ""]))
    wide = any(ord(c) > 255 for c in text)
    string = _record(0x0207, struct.pack("<HB", len(text), wide) + text.encode("utf-16-le" if wide else "latin-1"))
    shared = draw(st.booleans())  # a shared formula's SHRFMLA record between the FORMULA and its STRING
    formula = _record(0x0006, struct.pack("<HHH6BH", row, col, 0, 0, 0, 0, 0, 0, 0, 0xFFFF) + b"\0" * 6)
    return formula + (_record(0x04BC, b"\0" * 10) if shared else b"") + string


@settings(max_examples=400, deadline=None)
@given(cells=st.lists(_damaged_record(), max_size=12), sheet_type=st.sampled_from([0x0010] * 6 + [0x0020]))
def test_biff8_records_read_here_as_xlrd_reads_them(cells, sheet_type):
    data = _biff8_workbook(cells, ["plain", "中文", "x\ty"], sheet_type)
    for ours, theirs in _cells_both_ways(data):
        assert ours == theirs
    assert isinstance(extract_xls(data).status, Status)
