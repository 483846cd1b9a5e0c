"""Word 97–2003 (.doc) and WPS writer files, made by a real LibreOffice: the text by the piece table (body,
tables, a link's words without its field code, footnotes, text boxes), password-protected ones named, a
file read by what its bytes are whatever its name says, and hostile compound files refused within bounds."""

from __future__ import annotations

import re
import struct
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from neardup_gui.core.models import Status
from neardup_gui.core.read.extract import extract
from neardup_gui.core.read.word97 import _visible
from tests.conftest import (
    chinese_texts,
    english_texts,
    libreoffice_convert,
    libreoffice_password,
    write_flat_odt,
)

FOOTNOTE = "Footnote: the conditions hold in every country."
COMMENT = "Reviewer comment that is not part of the text"
META_TITLE = "Metadata title never shown"
TEXT_BOX = "Words inside a text box, read once"
LINK = "the licence's own page"
TRADITIONAL = "中華民國憲法第一條：中華民國基於三民主義，為民有民治民享之民主共和國。"


def _paragraphs() -> list[str]:
    english = [" ".join(p.split()) for p in re.split(r"\n\s*\n", english_texts()["BSD"]) if p.strip()]
    chinese = [p for p in next(iter(chinese_texts().values())).splitlines() if p.strip()][:8]
    return english + chinese + [TRADITIONAL]


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("word97")
    source = write_flat_odt(
        root / "source" / "licence.fodt",
        _paragraphs(),
        footnote=FOOTNOTE,
        comment=COMMENT,
        title=META_TITLE,
        text_box=TEXT_BOX,
        link=LINK,
    )
    out, profile = root / "made", root / "profile"
    # LibreOffice 7.4 loaded through its API crashes on a comment: the password-protected copy has none
    plain = write_flat_odt(root / "source" / "plain.fodt", _paragraphs(), footnote=FOOTNOTE, link=LINK)
    return {
        "doc": libreoffice_convert(source, "doc:MS Word 97", out, profile),
        "docx": libreoffice_convert(source, "docx", out, profile),
        "txt": libreoffice_convert(source, "txt:Text (encoded):UTF8", out, profile),
        "word-xml": libreoffice_convert(source, "xml:MS Word 2003 XML", out, profile),
        "locked": libreoffice_password(plain, out / "locked.doc", "MS Word 97", "secret", profile),
    }


def _words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text))


@pytest.mark.e2e
def test_a_doc_reads_as_the_document_with_its_table_link_notes_and_text_box(made):
    found = extract("doc", made["doc"].read_bytes())
    assert found.status is Status.OK and not found.message, found.message
    text = " ".join(found.text.split())
    assert " ".join(_paragraphs()[1].split()) in text  # English body
    assert "".join(_paragraphs()[-2].split())[:30] in "".join(found.text.split())  # simplified Chinese
    assert TRADITIONAL in found.text  # traditional Chinese: UTF-16 pieces, as every non-Latin script
    assert "cell one\tcell two" in found.text  # a table's row on a line, its cells apart by a tab
    assert LINK in text and "HYPERLINK" not in found.text and "example.org" not in found.text  # a field's result
    assert COMMENT not in text and META_TITLE not in text
    assert text.index(FOOTNOTE) > text.index(TRADITIONAL), "notes after the body"
    assert text.count(TEXT_BOX) == 1
    assert not re.search(r"[\x00-\x08\x0b-\x1f]", found.text), "Word's marks are gone"
    # the same words as the .docx saved from the same document; LibreOffice's own text export has the same
    # body, and leaves out the footnote and the text box
    ours, docx = _words(found.text), _words(extract("docx", made["docx"].read_bytes()).text)
    assert len(ours & docx) / len(ours | docx) >= 0.98, sorted(ours ^ docx)
    exported = _words(made["txt"].read_text("utf-8-sig"))
    assert len(exported - ours) <= 0.02 * len(exported), sorted(exported - ours)


@pytest.mark.e2e
def test_a_password_protected_doc_is_named_and_a_word_95_one_is_not_read(made):
    locked = extract("doc", made["locked"].read_bytes())
    assert locked.status is Status.ENCRYPTED and "Password-protected" in locked.message
    data = bytearray(made["doc"].read_bytes())
    fib = _stream_offset(data, "WordDocument")  # the FIB heads the stream: wIdent, then nFib
    assert struct.unpack_from("<H", data, fib) == (0xA5EC,)
    struct.pack_into("<H", data, fib + 2, 104)  # Word 95's nFib
    older = extract("doc", bytes(data))
    assert older.status is Status.UNSUPPORTED and "Word 6 or 95" in older.message


@pytest.mark.e2e
def test_content_decides_not_the_name(made, tmp_path):
    doc, docx = made["doc"].read_bytes(), made["docx"].read_bytes()
    for kind in ("docx", "odt", "rtf"):  # a .doc under another word processor's name
        found = extract(kind, doc)
        assert found.status is Status.OK and TRADITIONAL in found.text
        assert "Word 97–2003 document (.doc)" in found.message
    found = extract("doc", docx)  # and the other way round
    assert found.status is Status.OK and "Word document (.docx)" in found.message
    for kind, data in (("wps", doc), ("wps", docx)):  # WPS Office's writer files are either
        found = extract(kind, data)
        assert found.status is Status.OK and not found.message and TRADITIONAL in found.text
    neither = extract("wps", b"\x00\x01Microsoft Works word processor file" * 20)
    assert neither.status is Status.UNSUPPORTED and "not a WPS Office document" in neither.message
    # a compound file holding no Word document: WordDocument renamed
    renamed = doc.replace("WordDocument".encode("utf-16-le"), "WordDocumenX".encode("utf-16-le"))
    found = extract("doc", renamed)
    assert found.status is Status.UNSUPPORTED and found.message
    rtf = extract("doc", rb"{\rtf1\ansi Saved by a word processor as RTF under a .doc name}")
    assert rtf.status is Status.OK and "RTF" in rtf.message


@pytest.mark.e2e
def test_a_word_2003_xml_document_under_a_doc_name_is_read_as_one(made):
    """Systems that export "Word" files often write Word 2003's XML under a .doc name."""
    found = extract("doc", made["word-xml"].read_bytes())
    assert found.status is Status.OK and "Word 2003 XML document" in found.message
    assert TRADITIONAL in found.text and FOOTNOTE in found.text and "cell one\tcell two" in found.text
    assert COMMENT not in found.text and META_TITLE not in found.text
    ours, docx = _words(found.text), _words(extract("docx", made["docx"].read_bytes()).text)
    assert len(ours & docx) / len(ours | docx) >= 0.98, sorted(ours ^ docx)


def _directory_entry(data: bytes, name: str) -> int:
    """Where a stream's directory entry is: from the directory's first sector (the header says which; a file
    may hold a stale copy of the directory before it)."""
    (first,) = struct.unpack_from("<I", data, 0x30)
    return data.index(name.encode("utf-16-le") + b"\x00\x00", 512 * (first + 1))


def _stream_offset(data: bytes, name: str) -> int:
    """Where a stream of 4,096 bytes or more begins in a compound file of 512-byte sectors."""
    (start,) = struct.unpack_from("<I", data, _directory_entry(data, name) + 0x74)
    return 512 * (start + 1)


@pytest.mark.e2e
def test_hostile_compound_files_are_refused_quickly(made):
    doc = made["doc"].read_bytes()
    entry = _directory_entry(doc, "WordDocument")
    (start,) = struct.unpack_from("<I", doc, entry + 0x74)
    # a stream claiming two gigabytes
    huge = bytearray(doc)
    struct.pack_into("<I", huge, entry + 0x78, 0x7FFF_FFF0)
    # a sector chain that loops: the stream's first sector followed by itself in the FAT
    (fat_sector,) = struct.unpack_from("<I", doc, 0x4C)
    looped = bytearray(doc)
    struct.pack_into("<I", looped, 512 * (fat_sector + 1) + 4 * start, start)
    # a chain pointing outside the file
    outside = bytearray(doc)
    struct.pack_into("<I", outside, 512 * (fat_sector + 1) + 4 * start, 0x00FF_FFF0)
    # the mini stream's own chain (the root entry's), which holds the small table stream, looping
    (root_start,) = struct.unpack_from("<I", doc, _directory_entry(doc, "Root Entry") + 0x74)
    mini_looped = bytearray(doc)
    struct.pack_into("<I", mini_looped, 512 * (fat_sector + 1) + 4 * root_start, root_start)
    for hostile in (huge, looped, outside, mini_looped, doc[: len(doc) // 2], doc[:600]):
        began = time.perf_counter()
        found = extract("doc", bytes(hostile))
        assert found.status is Status.ERROR and found.message.startswith("Damaged"), found
        assert time.perf_counter() - began < 2


@pytest.mark.e2e
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_flipped_bytes_anywhere_give_a_status_never_an_exception(made, data):
    doc = bytearray(made["doc"].read_bytes())
    for _ in range(data.draw(st.integers(1, 16))):
        at = data.draw(st.integers(0, len(doc) - 1))
        doc[at] = data.draw(st.integers(0, 255))
    cut = data.draw(st.sampled_from([len(doc), len(doc) - 1, len(doc) // 2, 2048]))
    for kind in ("doc", "wps"):
        found = extract(kind, bytes(doc[:cut]))
        assert isinstance(found.status, Status)
        assert found.status is Status.OK or found.message


def test_field_codes_go_their_results_stay_and_table_rows_end_lines():
    story = 'See \x13 HYPERLINK "https://x" \x14the page\x15.\rA\x07B\x07\x07next\x0bline\x1eend\x1f\x02'
    assert _visible(story) == "See the page.\nA\tB\t\nnext\nline-end"
    nested = "\x13 IF \x13 PAGE \x145\x15 = 5 \x14five\x15 done"
    assert _visible(nested) == "five done"
    assert _visible("\x13 TOC \x15kept") == "kept"  # a field with no result shows nothing


@pytest.mark.e2e
def test_pieces_over_the_same_bytes_are_refused_not_read_again_and_again(made, tmp_path):
    """A crafted piece table whose pieces all cover the whole WordDocument stream would give its text as often
    as it has pieces: more characters than the file has bytes is damage."""
    import olefile

    crafted = tmp_path / "pieces.doc"
    crafted.write_bytes(made["doc"].read_bytes())
    ole = olefile.OleFileIO(str(crafted), write_mode=True)
    stream = bytearray(ole.openstream("WordDocument").read())
    table = "1Table" if struct.unpack_from("<H", stream, 10)[0] & 0x0200 else "0Table"
    size = ole.get_size(table)
    at = 32 + 2 + 2 * struct.unpack_from("<H", stream, 32)[0]
    longs_at = at + 2
    at += 2 + 4 * struct.unpack_from("<H", stream, at)[0]
    count = (size - 9) // 12
    cps = [i * len(stream) for i in range(count + 1)]
    clx = b"\x02" + struct.pack("<I", 4 * (count + 1) + 8 * count) + struct.pack(f"<{count + 1}I", *cps)
    clx += struct.pack("<HIH", 0, 0x40000000, 0) * count  # every piece: 8-bit text from the stream's start
    struct.pack_into("<II", stream, at + 2 + 8 * 33, 0, len(clx))
    struct.pack_into("<i", stream, longs_at + 12, count * len(stream))  # ccpText
    ole.write_stream(table, clx + b"\x00" * (size - len(clx)))
    ole.write_stream("WordDocument", bytes(stream))
    ole.close()
    found = extract("doc", crafted.read_bytes())
    assert found.status is Status.ERROR and "table of text pieces" in found.message, found


@pytest.mark.e2e
def test_a_fast_saved_doc_is_read_in_the_order_of_its_pieces_not_of_its_bytes(made, tmp_path):
    """Word's fast save appends what changed and reorders the piece table instead of rewriting the text: the
    text is where the pieces say, in their order. Made here from LibreOffice's .doc: its one piece split in
    two whose bytes swap places in the stream, the file marked complex (fast-saved once)."""
    import olefile

    original = extract("doc", made["doc"].read_bytes()).text
    crafted = tmp_path / "fast-saved.doc"
    crafted.write_bytes(made["doc"].read_bytes())
    ole = olefile.OleFileIO(str(crafted), write_mode=True)
    stream = bytearray(ole.openstream("WordDocument").read())
    (flags,) = struct.unpack_from("<H", stream, 10)
    table_name = "1Table" if flags & 0x0200 else "0Table"
    table = bytearray(ole.openstream(table_name).read())
    at = 32 + 2 + 2 * struct.unpack_from("<H", stream, 32)[0]
    at += 2 + 4 * struct.unpack_from("<H", stream, at)[0]
    clx_at = at + 2 + 8 * 33
    clx, clx_size = struct.unpack_from("<II", stream, clx_at)
    assert table[clx] == 0x02 and clx_size == 21, "LibreOffice writes one piece and no property runs"
    count, fc = struct.unpack_from("<I", table, clx + 9)[0], struct.unpack_from("<I", table, clx + 15)[0]
    assert not fc & 0x40000000, "a UTF-16 piece (the document has Chinese)"
    half = count // 2
    first, second = stream[fc : fc + 2 * half], stream[fc + 2 * half : fc + 2 * count]
    stream[fc : fc + 2 * count] = second + first  # the second half's bytes now come first
    pieces = struct.pack("<3I", 0, half, count)
    pieces += struct.pack("<HIH", 0, fc + len(second), 0) + struct.pack("<HIH", 0, fc, 0)
    new_clx = b"\x02" + struct.pack("<I", len(pieces)) + pieces
    table[-len(new_clx) :] = new_clx  # where the table stream ends: nothing this reader reads is there
    struct.pack_into("<II", stream, clx_at, len(table) - len(new_clx), len(new_clx))
    struct.pack_into("<H", stream, 10, flags | 0x0004 | 0x0010)  # fComplex, cQuickSaves 1
    ole.write_stream(table_name, bytes(table))
    ole.write_stream("WordDocument", bytes(stream))
    ole.close()
    found = extract("doc", crafted.read_bytes())
    assert found.status is Status.OK and found.text == original
    in_stream_order = (second + first).decode("utf-16-le")
    assert " ".join(original.split())[:200] not in " ".join(in_stream_order.split()), "the bytes are out of order"


@pytest.mark.e2e
def test_a_tables_empty_cells_keep_their_places_and_rows_end_where_the_document_says(tmp_path):
    """A row's end is its own paragraph, marked so in its properties (sprmPFTtp): an empty cell, a lone cell
    mark too, is not taken for it. The .doc reads as the .docx saved from the same document."""
    cell = '<table:table-cell office:value-type="string"><text:p>{}</text:p></table:table-cell>'
    empty = "<table:table-cell/>"
    rows = [[cell.format("a1"), empty, cell.format("c1")], [empty, cell.format("b2"), cell.format("c2")]]
    table = "".join(f"<table:table-row>{''.join(row)}</table:table-row>" for row in rows)
    source = tmp_path / "table.fodt"
    source.write_text(
        '<?xml version="1.0" encoding="UTF-8"?><office:document '
        'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
        'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" office:version="1.2" '
        'office:mimetype="application/vnd.oasis.opendocument.text"><office:body><office:text>'
        '<text:p>Before the table.</text:p><table:table table:name="T">'
        f'<table:table-column table:number-columns-repeated="3"/>{table}</table:table>'
        "<text:p>After the table.</text:p></office:text></office:body></office:document>",
        encoding="utf-8",
    )
    doc = libreoffice_convert(source, "doc:MS Word 97", tmp_path / "made", tmp_path / "profile")
    docx = libreoffice_convert(source, "docx", tmp_path / "made", tmp_path / "profile")
    found = extract("doc", doc.read_bytes())
    assert found.text == "Before the table.\na1\t\tc1\n\tb2\tc2\nAfter the table.", found.text
    assert found.text == extract("docx", docx.read_bytes()).text
