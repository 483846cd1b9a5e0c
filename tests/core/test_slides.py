"""Presentations: PowerPoint 97-2003 (.ppt), PowerPoint (.pptx) and OpenDocument (.odp) made by a real
LibreOffice Impress from one deck read as that deck (every slide's text in order, tables, then the speaker
notes once; never a master's text), and the same words from each; one deck saved as .ppt, .pptx, .odp, PDF
and WPS Office's .dps lands in one group; a deck is read by what its bytes are; hand-made files for what
LibreOffice never writes (text kept in the slide list, a later edit, a notes page's furniture, strict OOXML);
damaged, hostile and encrypted files get a status, quickly, never an exception."""

from __future__ import annotations

import io
import struct
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from neardup_gui.core.models import Status
from neardup_gui.core.read.extract import extract
from neardup_gui.core.read.office import extract_odp
from neardup_gui.core.read.slides import extract_ppt, extract_pptx
from tests.conftest import (
    compound_file,
    libreoffice_convert,
    libreoffice_password,
    scan_beside_unrelated,
)


@dataclass(frozen=True)
class Slide:
    title: str
    bullets: tuple[str, ...]
    box: str = ""
    rows: tuple[tuple[str, ...], ...] = ()
    notes: tuple[str, ...] = ()


def write_flat_odp(path: Path, slides: list[Slide], *, master_text: str = "") -> Path:
    """A flat OpenDocument presentation (LibreOffice's own .fodp): each slide a title and an outline placeholder
    (bullets), a free text box, a table, speaker notes in the notes placeholder; a master with its own title and
    outline placeholders, a slide number and ``master_text`` in a text box of its own."""

    def frame(kind: str, x: float, y: float, width: float, height: float, inner: str, layer: str = "layout") -> str:
        style = f' presentation:style-name="Default-{kind}"' if kind in ("title", "outline", "notes") else ""
        placeholder = f' presentation:class="{kind}"{style}' if kind else ""
        return (
            f'<draw:frame draw:layer="{layer}"{placeholder} svg:x="{x}cm" svg:y="{y}cm" svg:width="{width}cm" '
            f'svg:height="{height}cm"><draw:text-box>{inner}</draw:text-box></draw:frame>'
        )

    def paragraphs(lines: tuple[str, ...]) -> str:
        return "".join(f"<text:p>{escape(line)}</text:p>" for line in lines)

    def table(rows: tuple[tuple[str, ...], ...]) -> str:
        cells = "".join(
            "<table:table-row>"
            + "".join(
                f'<table:table-cell office:value-type="string"><text:p>{escape(c)}</text:p></table:table-cell>'
                for c in row
            )
            + "</table:table-row>"
            for row in rows
        )
        return (
            '<draw:frame draw:layer="layout" svg:x="2cm" svg:y="12cm" svg:width="14cm" svg:height="3cm"><table:table>'
            f'<table:table-column table:number-columns-repeated="{len(rows[0])}"/>{cells}</table:table></draw:frame>'
        )

    def page(number: int, slide: Slide) -> str:
        bullets = "".join(f"<text:list-item><text:p>{escape(b)}</text:p></text:list-item>" for b in slide.bullets)
        notes = (
            f'<presentation:notes draw:style-name="dp1"><draw:page-thumbnail draw:layer="layout" presentation:class='
            f'"page" svg:x="3cm" svg:y="2cm" svg:width="14cm" svg:height="10cm" draw:page-number="{number}"/>'
            f"{frame('notes', 2, 13, 17, 12, paragraphs(slide.notes))}</presentation:notes>"
            if slide.notes
            else ""
        )
        return (
            f'<draw:page draw:name="page{number}" draw:style-name="dp1" draw:master-page-name="Default" '
            'presentation:presentation-page-layout-name="AL1T1">'
            f"{frame('title', 1.5, 1, 25, 3, paragraphs((slide.title,)))}"
            f"{frame('outline', 1.5, 4.5, 25, 7, f'<text:list>{bullets}</text:list>')}"
            f"{frame('', 18, 12, 8, 2, paragraphs((slide.box,))) if slide.box else ''}"
            f"{table(slide.rows) if slide.rows else ''}{notes}</draw:page>"
        )

    background = "backgroundobjects"
    master_box = frame("", 1, 18, 10, 1, paragraphs((master_text,)), background) if master_text else ""
    path.parent.mkdir(parents=True, exist_ok=True)
    namespaces = " ".join(
        f'xmlns:{prefix}="urn:oasis:names:tc:opendocument:xmlns:{name}:1.0"'
        for prefix, name in (
            ("office", "office"),
            ("style", "style"),
            ("text", "text"),
            ("table", "table"),
            ("draw", "drawing"),
            ("fo", "xsl-fo-compatible"),
            ("svg", "svg-compatible"),
            ("presentation", "presentation"),
        )
    )
    styles = "".join(
        f'<style:style style:name="Default-{kind}" style:family="presentation"/>'
        for kind in ("title", "outline", "notes")
    )
    layouts = "".join(
        f'<style:page-layout style:name="{name}"><style:page-layout-properties fo:page-width="{width}" '
        f'fo:page-height="{height}"/></style:page-layout>'
        for name, width, height in (("PM0", "21cm", "29.7cm"), ("PM1", "28cm", "21cm"))
    )
    layers = "".join(
        f'<draw:layer draw:name="{name}"/>'
        for name in ("layout", "background", "backgroundobjects", "controls", "measurelines")
    )
    number = "<text:p><text:page-number/></text:p>"
    path.write_text(
        f"""<?xml version="1.0" encoding="UTF-8"?>
<office:document {namespaces}
 office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.presentation">
 <office:styles>{styles}</office:styles>
 <office:automatic-styles>{layouts}
  <style:style style:name="dp1" style:family="drawing-page">
   <style:drawing-page-properties presentation:display-page-number="true"/></style:style>
 </office:automatic-styles>
 <office:master-styles><draw:layer-set>{layers}</draw:layer-set>
  <style:master-page style:name="Default" style:page-layout-name="PM1">
   {frame("title", 1.5, 1, 25, 3, "", background)}{frame("outline", 1.5, 4.5, 25, 12, "", background)}
   {frame("page-number", 20, 19, 6, 1, number, background)}{master_box}
   <presentation:notes style:page-layout-name="PM0">
    <draw:page-thumbnail draw:layer="{background}" presentation:class="page"
     svg:x="3cm" svg:y="2cm" svg:width="14cm" svg:height="10cm"/>{frame("notes", 2, 13, 17, 12, "", background)}
    {frame("page-number", 12, 26.5, 9, 1.4, number, background)}</presentation:notes>
  </style:master-page></office:master-styles>
 <office:body><office:presentation>{"".join(page(n, s) for n, s in enumerate(slides, 1))}</office:presentation>
 </office:body>
</office:document>
""",
        encoding="utf-8",
    )
    return path


MASTER_TEXT = "Master decoration words"
DECK = [
    Slide(
        "Alpha title of the opening slide",
        ("First bullet about apples", "Second bullet about 中华人民共和国"),
        notes=("Speaker notes for the opening slide", "a second line of notes"),
    ),
    Slide(
        "Beta title 中華民國",
        ("Bullet on bananas",),
        box="Free text box words",
        rows=(("cell one", "cell two"), ("cell three", "單元格四")),
    ),
    Slide("Gamma closing title", ("Last bullet cherries",), notes=("Notes of the closing slide 简体中文",)),
]


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """The deck as .ppt, .pptx and .odp, each written by LibreOffice Impress from the flat ODP."""
    root = tmp_path_factory.mktemp("slides")
    source = write_flat_odp(root / "source" / "deck.fodp", DECK, master_text=MASTER_TEXT)
    out, profile = root / "made", root / "profile"
    return {
        "ppt": libreoffice_convert(source, "ppt:MS PowerPoint 97", out, profile).read_bytes(),
        "pptx": libreoffice_convert(source, "pptx:Impress MS PowerPoint 2007 XML", out, profile).read_bytes(),
        "odp": libreoffice_convert(source, "odp", out, profile).read_bytes(),
    }


READERS = {"ppt": extract_ppt, "pptx": extract_pptx, "odp": extract_odp}


def _words(text: str) -> set[str]:
    return set(text.split())


@pytest.mark.e2e
@pytest.mark.parametrize("fmt", READERS)
def test_the_deck_reads_slide_by_slide_then_its_notes(made, fmt):
    read = READERS[fmt](made[fmt])
    assert read.status is Status.OK, read.message
    text = read.text
    slides_text = [[s.title, *s.bullets, s.box, *(c for row in s.rows for c in row)] for s in DECK]
    for lines in slides_text:
        for line in filter(None, lines):
            assert text.count(line) == 1, line
    titles = [text.index(s.title) for s in DECK]
    assert titles == sorted(titles)
    notes = [text.index(line) for s in DECK for line in s.notes]
    assert notes == sorted(notes) and min(notes) > text.index("Last bullet cherries")
    for line in (line for s in DECK for line in s.notes):
        assert text.count(line) == 1, line
    assert "cell one\tcell two\ncell three\t單元格四" in text
    assert "\n\nBeta title 中華民國\n" in text  # slides apart by a blank line
    assert MASTER_TEXT not in text and "Click to edit" not in text


@pytest.mark.e2e
def test_the_ppt_the_pptx_and_the_odp_give_the_same_words(made):
    ppt, pptx, odp = (_words(READERS[fmt](made[fmt]).text) for fmt in ("ppt", "pptx", "odp"))
    # LibreOffice writes each slide's number as a placeholder on the .pptx's slides, only on the .ppt's master
    # (and the .odp's)
    assert ppt == odp
    assert ppt <= pptx and pptx - ppt <= {"1", "2", "3"}


@pytest.mark.e2e
def test_an_encrypted_ppt_says_so(made):
    plain = made["ppt"]
    token = b"\x14\x00\x00\x00" + struct.pack("<I", 0xE391C05F)  # CurrentUserAtom's size, then headerToken
    assert plain.count(token) == 1
    read = extract_ppt(plain.replace(token, b"\x14\x00\x00\x00" + struct.pack("<I", 0xF3D1C4DF)))
    assert read.status is Status.ENCRYPTED and "Password" in read.message


# --- one deck in every format -------------------------------------------------------------------------

# A person's deck: the notes are a line or two of what to say, not the slides' words again. The PDF holds only
# the slides: notes of three lines on half the slides put it below J = 0.8 from the others (0.77 measured).
REVIEW = [
    Slide(
        "Quarterly review of the campus library 图书馆季度工作汇报",
        ("Opening hours were extended to ten in the evening", "借阅量比上季度增长百分之十二", "新增自习座位两百个"),
        notes=("Welcome everyone and thank the staff of the reading rooms",),
    ),
    Slide(
        "Borrowing and returns 借閱與歸還",
        ("Self-service machines now handle most returns", "逾期图书数量明显下降", "電子書借閱人次首次超過紙本"),
        rows=(
            ("Month 月份", "Loans 借阅", "Returns 归还"),
            ("January 一月", "12,480", "11,902"),
            ("February 二月", "10,315", "10,877"),
            ("March 三月", "14,026", "13,540"),
        ),
    ),
    Slide(
        "Reading rooms and study spaces 阅览室与自习空间",
        (
            "The third floor quiet room opened in February",
            "小组讨论室需要提前一天预约",
            "Power sockets were added beside every desk",
            "暖氣改造工程將於暑假進行",
        ),
        box="Survey: 87% of students are satisfied 学生满意度百分之八十七",
        notes=("The survey had about nine hundred answers",),
    ),
    Slide(
        "Digital resources 数字资源",
        (
            "Two new databases for engineering journals",
            "校外访问改用统一身份认证",
            "Training sessions for first-year students every Tuesday",
            "古籍數位化計畫完成第一期",
        ),
    ),
    Slide(
        "Budget and next steps 预算与下一步",
        (
            "Spend the remaining budget on shelving for the east wing",
            "下学期开放二十四小时自习区",
            "Review the opening hours again in June",
            "感謝各位同仁的辛勤付出",
        ),
        notes=("Keep this slide short, questions come after it",),
    ),
]


@pytest.fixture(scope="module")
def review(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The review deck saved by LibreOffice Impress as .ppt, .pptx, .odp and PDF, and its flat ODP."""
    root = tmp_path_factory.mktemp("review")
    source = write_flat_odp(root / "source" / "review.fodp", REVIEW)
    out, profile = root / "made", root / "profile"
    return {
        "source": source,
        "ppt": libreoffice_convert(source, "ppt:MS PowerPoint 97", out, profile),
        "pptx": libreoffice_convert(source, "pptx:Impress MS PowerPoint 2007 XML", out, profile),
        "odp": libreoffice_convert(source, "odp", out, profile),
        "pdf": libreoffice_convert(source, "pdf", out, profile),
    }


@pytest.mark.e2e
def test_one_deck_saved_as_ppt_pptx_odp_pdf_and_dps_lands_in_one_group(review, tmp_path):
    """WPS Office's presentation saves PowerPoint 97-2003 inside its .dps; the PDF has each slide's number, and
    not the notes."""
    names = {"ppt": "review.ppt", "pptx": "review.pptx", "odp": "review.odp", "pdf": "review.pdf", "dps": "wps.dps"}
    report = scan_beside_unrelated(
        {name: review["ppt" if fmt == "dps" else fmt] for fmt, name in names.items()}, tmp_path
    )
    types = {Path(d["path"]).name: d["type"] for d in report["documents"]}
    assert {types[name] for name in names.values()} == set(names)
    assert all(d["status"] == "ok" for d in report["documents"]), report["documents"]
    by_id = {d["id"]: Path(d["path"]).name for d in report["documents"]}
    groups = [{by_id[m["id"]] for m in g["members"]} for g in report["groups"]]
    assert groups == [set(names.values())], groups


@pytest.mark.e2e
def test_a_pptx_saved_with_a_password_by_libreoffice_says_so(review, tmp_path):
    """LibreOffice (7.4) writes a .ppt given a password in the clear, so an encrypted .ppt is made by hand
    (test_an_encrypted_ppt_says_so); the .pptx is checked to be encrypted, and with that password."""
    import msoffcrypto

    path = libreoffice_password(
        review["source"], tmp_path / "locked.pptx", "Impress MS PowerPoint 2007 XML", "secret", tmp_path / "profile"
    )
    document = msoffcrypto.OfficeFile(io.BytesIO(path.read_bytes()))
    assert document.is_encrypted(), "LibreOffice wrote the .pptx without encrypting it"
    document.load_key(password="secret")
    plain = io.BytesIO()
    document.decrypt(plain)
    assert extract("pptx", plain.getvalue()).text == extract("pptx", review["pptx"].read_bytes()).text
    for kind in ("pptx", "ppt", "dps"):
        found = extract(kind, path.read_bytes())
        assert found.status is Status.ENCRYPTED and "Password-protected" in found.message, (kind, found)


@pytest.mark.e2e
def test_a_deck_under_another_formats_name_is_read_as_what_it_is(made):
    for kind, fmt, named in (("pptx", "ppt", "(.ppt)"), ("ppt", "pptx", "(.pptx)"), ("pptx", "odp", "(.odp)")):
        found = extract(kind, made[fmt])
        assert found.status is Status.OK and named in found.message, (kind, fmt, found.message)
        assert found.text == extract(fmt, made[fmt]).text
    for fmt in ("ppt", "pptx"):  # what WPS Office's presentation may be: no word about it
        found = extract("dps", made[fmt])
        assert found.status is Status.OK and not found.message, found.message


FUZZ = settings(max_examples=200, deadline=2000, suppress_health_check=[HealthCheck.too_slow])


def _mutated(data: bytes, edits: list[tuple[int, int]], cut: int) -> bytes:
    out = bytearray(data)
    for at, value in edits:
        out[at % len(out)] = value
    return bytes(out[: max(8, len(out) - cut)])


_EDITS = st.lists(st.tuples(st.integers(0, 1 << 30), st.integers(0, 255)), max_size=12)
_CUTS = st.one_of(st.just(0), st.integers(0, 1 << 16))


def _status_quickly(read, data: bytes) -> None:
    started = time.perf_counter()
    outcome = read(data)
    assert isinstance(outcome.status, Status)
    assert time.perf_counter() - started < 1.5
    assert len(outcome.text) <= 2 * len(data)


@pytest.mark.e2e
@FUZZ
@given(edits=_EDITS, cut=_CUTS, fmt=st.sampled_from(sorted(READERS)))
def test_damaged_real_files_get_a_status_quickly(made, edits, cut, fmt):
    _status_quickly(READERS[fmt], _mutated(made[fmt], edits, cut))


@pytest.mark.e2e
@FUZZ
@given(edits=_EDITS, cut=st.integers(0, 4096))
def test_a_damaged_powerpoint_stream_of_a_real_file_gets_a_status_quickly(made, edits, cut):
    """Bytes changed inside the PowerPoint Document stream of LibreOffice's .ppt (a byte flipped in the file
    mostly breaks the compound file first), and inside a .pptx's slide."""
    import olefile

    ole = olefile.OleFileIO(made["ppt"])
    streams = {name: ole.openstream(name).read() for name in ("Current User", "PowerPoint Document")}
    streams["PowerPoint Document"] = _mutated(streams["PowerPoint Document"], edits, cut)
    _status_quickly(extract_ppt, compound_file(streams))
    slide = zipfile.ZipFile(io.BytesIO(made["pptx"])).read("ppt/slides/slide2.xml")
    _status_quickly(extract_pptx, _rezip(made["pptx"], {"ppt/slides/slide2.xml": _mutated(slide, edits, cut % 64)}))


# --- hand-made files (fast) ---------------------------------------------------------------------------


def _record(kind: int, body: bytes = b"", *, instance: int = 0, version: int = 0) -> bytes:
    return struct.pack("<HHI", version | instance << 4, kind, len(body)) + body


def _container(kind: int, *children: bytes, instance: int = 0) -> bytes:
    return _record(kind, b"".join(children), instance=instance, version=0xF)


def _text(characters: str, text_type: int = 4) -> bytes:
    """A TextHeaderAtom and a TextCharsAtom."""
    return _record(0x0F9F, struct.pack("<I", text_type)) + _record(0x0FA0, characters.encode("utf-16-le"))


def _shape(*records: bytes, placement: int | None = None, shape_type: int = 1, top: int | None = None) -> bytes:
    """An OfficeArt shape: its FSP, a child anchor, a placeholder's ClientData, a ClientTextbox of ``records``."""
    parts = [_record(0xF00A, bytes(8), instance=shape_type)]
    if top is not None:
        parts.append(_record(0xF00F, struct.pack("<4i", 0, top, 100, top + 50)))
    if placement is not None:
        parts.append(_container(0xF011, _record(0x0BC3, struct.pack("<iBBH", 0, placement, 0, 0))))
    if records:
        parts.append(_container(0xF00D, *records))
    return _container(0xF004, *parts)


def _table(rows: list[list[str]]) -> bytes:
    """A table as PowerPoint draws it: a group marked by tableProperties, cells row by row, border lines."""
    group = _container(0xF004, _record(0xF00A, bytes(8)), _record(0xF122, struct.pack("<HI", 0x039F, 1), instance=1))
    cells = [_shape(_text(cell), top=100 * r) for r, row in enumerate(rows) for cell in row]
    return _container(0xF003, group, *cells, _shape(shape_type=20, top=0), _shape(shape_type=20, top=100))


def _drawing(*shapes: bytes) -> bytes:
    return _container(0x040C, _container(0xF002, _container(0xF003, _shape(), *shapes)))


def _slide(notes_id: int, *shapes: bytes) -> bytes:
    return _container(0x03EE, _record(0x03EF, bytes(16) + struct.pack("<IHH", notes_id, 0, 0)), _drawing(*shapes))


def _notes(*shapes: bytes) -> bytes:
    return _container(0x03F0, _record(0x03F1, bytes(8)), _drawing(*shapes))


def _persist(persist: int, ident: int) -> bytes:
    return _record(0x03F3, struct.pack("<5I", persist, 0, 0, ident, 0))


def _edit(stream: bytes, objects: dict[int, bytes], *, last_edit: int = 0, encrypt: int = 0) -> tuple[bytes, int]:
    """``stream`` with ``objects`` (by persist id) appended, their PersistDirectoryAtom and a UserEditAtom; and
    where that UserEditAtom is."""
    entries = b""
    for persist, data in objects.items():
        entries += struct.pack("<II", persist | 1 << 20, len(stream))
        stream += data
    directory = len(stream)
    stream += _record(0x1772, entries)
    edit = len(stream)
    body = struct.pack("<IHBBIIIIHH", 0, 0, 0, 3, last_edit, directory, 1, 9, 1, 0)
    stream += _record(0x0FF5, body + (struct.pack("<I", encrypt) if encrypt else b""))
    return stream, edit


def _current_user(edit: int, token: int = 0xE391C05F) -> bytes:
    body = struct.pack("<IIIHHBBH", 0x14, token, edit, 4, 0x03F4, 3, 0, 0) + b"user"
    return _record(0x0FF6, body + struct.pack("<I", 8) + "user".encode("utf-16-le"))


def _ppt(stream: bytes, edit: int, token: int = 0xE391C05F) -> bytes:
    return compound_file({"Current User": _current_user(edit, token), "PowerPoint Document": stream})


def _hand_made_deck() -> tuple[bytes, int]:
    """Two slides and a notes page, as PowerPoint writes them: slide 1's title kept in the slide list (pointed at
    by an OutlineTextRefAtom) and 8-bit text; slide 2 a slide-number field and a table; the notes page its
    slide number, header and body."""
    document = _container(
        0x03E8,
        _container(0x0FF0, _persist(2, 256), _text("Kept in the list\rits second paragraph", 0), _persist(3, 257)),
        _container(0x0FF0, _persist(4, 0x100), instance=2),
        _container(0x0FF0, _persist(9, 0x80000000), _text("Click to edit the master title"), instance=1),
    )
    first = _slide(
        0x100,
        _shape(_record(0x0F9E, struct.pack("<i", 0)), placement=0x0D),
        _shape(_record(0x0F9F, struct.pack("<I", 4)), _record(0x0FA8, "café au lait\x0bnext line".encode("latin-1"))),
    )
    second = _slide(
        0, _shape(_text("Page *"), _record(0x0FD8, struct.pack("<i", 5))), _table([["a1", "b1"], ["a2", "b2"]])
    )
    notes = _notes(
        _shape(_text("*"), _record(0x0FD8, struct.pack("<i", 0)), placement=0x08),
        _shape(_text("Header words"), placement=0x0A),
        _shape(_text("Spoken words\rmore spoken words", 2), placement=0x0C),
    )
    return _edit(b"", {1: document, 2: first, 3: second, 4: notes})


HAND_MADE_TEXT = (
    "Kept in the list\nits second paragraph\ncafé au lait\nnext line\n\nPage\na1\tb1\na2\tb2\n\n"
    "Spoken words\nmore spoken words"
)


def test_a_hand_made_ppt_reads_its_slide_list_text_fields_tables_and_notes_body():
    stream, edit = _hand_made_deck()
    read = extract_ppt(_ppt(stream, edit))
    assert read.status is Status.OK, read.message
    assert read.text == HAND_MADE_TEXT


def test_the_newest_edit_of_a_ppt_wins_and_a_missing_current_user_is_recovered():
    stream, edit = _hand_made_deck()
    stream, newer = _edit(stream, {3: _slide(0, _shape(_text("Edited slide words")))}, last_edit=edit)
    text = extract_ppt(_ppt(stream, newer)).text
    assert "Edited slide words" in text and "Page" not in text and "café" in text
    alone = extract_ppt(compound_file({"PowerPoint Document": stream}))  # the last edit found in the stream
    assert alone.text == text


def test_a_looping_or_overlong_ppt_is_an_error_quickly_and_encryption_is_said():
    stream, edit = _hand_made_deck()
    looping = bytearray(stream)
    struct.pack_into("<I", looping, edit + 16, edit)  # offsetLastEdit: the edit itself
    overlong = bytearray(stream)
    struct.pack_into("<I", overlong, 4, 0x7FFFFFF0)  # the DocumentContainer's length, past the stream
    for damaged in (bytes(looping), bytes(overlong)):
        started = time.perf_counter()
        read = extract_ppt(_ppt(damaged, edit))
        assert read.status is Status.ERROR and read.message
        assert time.perf_counter() - started < 0.5
    assert extract_ppt(_ppt(stream, edit, token=0xF3D1C4DF)).status is Status.ENCRYPTED
    sealed, sealed_edit = _edit(stream, {}, last_edit=edit, encrypt=7)
    assert extract_ppt(_ppt(sealed, sealed_edit)).status is Status.ENCRYPTED


def test_office_files_that_are_no_ppt_say_what_they_are():
    word = extract_ppt(compound_file({"WordDocument": b"\xec\xa5"}))
    assert word.status is Status.UNSUPPORTED and "PowerPoint" in word.message
    old = extract_ppt(compound_file({"PP40": b"old"}))
    assert old.status is Status.UNSUPPORTED and "95" in old.message
    assert extract_ppt(b"not a compound file at all").status is Status.ERROR
    assert extract_pptx(compound_file({"EncryptedPackage": b"x", "EncryptionInfo": b"y"})).status is Status.ENCRYPTED
    stream, edit = _hand_made_deck()
    assert extract("pptx", _ppt(stream, edit)).text == HAND_MADE_TEXT  # a .ppt under a .pptx name
    empty, empty_edit = _edit(b"", {1: _container(0x03E8)})
    assert extract_ppt(_ppt(empty, empty_edit)).status is Status.EMPTY


@settings(max_examples=200, deadline=2000)
@given(edits=_EDITS, cut=st.integers(0, 2048))
def test_a_damaged_hand_made_ppt_gets_a_status_quickly(edits, cut):
    stream, edit = _hand_made_deck()
    _status_quickly(extract_ppt, _ppt(_mutated(stream, edits, cut), edit))


_P = "http://schemas.openxmlformats.org/presentationml/2006/main"
_A = "http://schemas.openxmlformats.org/drawingml/2006/main"
_R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_MC = "http://schemas.openxmlformats.org/markup-compatibility/2006"
_STRICT = {
    _P: "http://purl.oclc.org/ooxml/presentationml/main",
    _A: "http://purl.oclc.org/ooxml/drawingml/main",
    _R: "http://purl.oclc.org/ooxml/officeDocument/relationships",
}


def _rels(*targets: tuple[str, str, str]) -> str:
    items = "".join(f'<Relationship Id="{i}" Type="{_R}/{kind}" Target="{target}"/>' for i, kind, target in targets)
    return (
        f'<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">{items}</Relationships>'
    )


def _sp(paragraphs: str, placeholder: str = "") -> str:
    return (
        f'<p:sp><p:nvSpPr><p:cNvPr id="2" name="Shape" descr="Alternative text"/><p:cNvSpPr/><p:nvPr>{placeholder}'
        f"</p:nvPr></p:nvSpPr><p:txBody>{paragraphs}</p:txBody></p:sp>"
    )


def _run(text: str) -> str:
    return f"<a:p><a:r><a:t>{text}</a:t></a:r></a:p>"


def _part(root: str, shapes: str) -> str:
    return (
        f'<{root} xmlns:p="{_P}" xmlns:a="{_A}" xmlns:r="{_R}" xmlns:mc="{_MC}"><p:cSld><p:spTree>{shapes}'
        f"</p:spTree></p:cSld></{root}>"
    )


def _hand_made_pptx(strict: bool = False) -> bytes:
    """Two slides listed in the other order than their part names; groups, a fallback copy, a field, a line
    break; notes whose page holds its number, date and header placeholders beside the body."""
    first = _part(
        "p:sld",
        _sp(_run("First listed title"), '<p:ph type="title"/>')
        + "<p:grpSp><p:nvGrpSpPr/><p:grpSpPr/>"
        + _sp("<a:p><a:r><a:t>grouped</a:t></a:r><a:br/><a:r><a:t>after break</a:t></a:r></a:p>")
        + '</p:grpSp><mc:AlternateContent><mc:Choice Requires="p14">'
        + _sp(_run("chosen once"))
        + "</mc:Choice><mc:Fallback>"
        + _sp(_run("chosen once"))
        + "</mc:Fallback></mc:AlternateContent>"
        + _sp('<a:p><a:r><a:t>Slide </a:t></a:r><a:fld id="{1}" type="slidenum"><a:t>1</a:t></a:fld></a:p>'),
    )
    second = _part("p:sld", _sp(_run("Second listed title")))
    notes = _part(
        "p:notes",
        _sp("", '<p:ph type="sldImg"/>')
        + _sp(_run("99"), '<p:ph type="sldNum" idx="5"/>')
        + _sp(_run("Notes date"), '<p:ph type="dt"/>')
        + _sp(_run("Notes header"), '<p:ph type="hdr"/>')
        + _sp(_run("Spoken about the first slide"), '<p:ph type="body" idx="1"/>'),
    )
    parts = {
        "_rels/.rels": _rels(("rId1", "officeDocument", "ppt/presentation.xml")),
        "ppt/presentation.xml": f'<p:presentation xmlns:p="{_P}" xmlns:r="{_R}"><p:sldIdLst>'
        '<p:sldId id="256" r:id="rId3"/><p:sldId id="257" r:id="rId2"/></p:sldIdLst></p:presentation>',
        "ppt/_rels/presentation.xml.rels": _rels(
            ("rId2", "slide", "slides/slide1.xml"), ("rId3", "slide", "slides/slide2.xml")
        ),
        "ppt/slides/slide2.xml": first,
        "ppt/slides/_rels/slide2.xml.rels": _rels(("rId1", "notesSlide", "../notesSlides/notesSlide1.xml")),
        "ppt/slides/slide1.xml": second,
        "ppt/notesSlides/notesSlide1.xml": notes,
        "ppt/slideMasters/slideMaster1.xml": _part("p:sldMaster", _sp(_run("Click to edit Master title style"))),
    }
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as package:
        for name, xml in parts.items():
            for transitional, strict_namespace in _STRICT.items() if strict else ():
                xml = xml.replace(transitional, strict_namespace)
            package.writestr(name, xml)
    return out.getvalue()


@pytest.mark.parametrize("strict", [False, True])
def test_a_hand_made_pptx_reads_in_the_list_order_and_only_the_notes_body(strict):
    read = extract_pptx(_hand_made_pptx(strict))
    assert read.status is Status.OK, read.message
    assert read.text == (
        "First listed title\ngrouped\nafter break\nchosen once\nSlide\n\nSecond listed title\n\n"
        "Spoken about the first slide"
    )


@settings(max_examples=200, deadline=2000)
@given(edits=_EDITS, cut=_CUTS)
def test_a_damaged_hand_made_pptx_gets_a_status_quickly(edits, cut):
    _status_quickly(extract_pptx, _mutated(_hand_made_pptx(), edits, cut))


def _rezip(source: bytes, replace: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(source)) as old, zipfile.ZipFile(out, "w") as new:
        for info in old.infolist():
            new.writestr(info, replace.get(info.filename, old.read(info)))
    return out.getvalue()
