"""The formats people upload, made by a real LibreOffice from one document: Word, OpenDocument, RTF, EPUB,
HTML and PDF. Each reads as the document (body, table, footnote; never a comment or the metadata), all
of them land in one group, and damaged, encrypted or hostile files get a plain status and message."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import zipfile
from pathlib import Path

import pytest

from neardup_gui.core.models import ScanOptions, Status
from neardup_gui.core.read.containers import UNPACKED_LIMIT
from neardup_gui.core.read.extract import KINDS, extract, kind_of
from neardup_gui.core.read.pdf import PAGE_SEPARATOR, _by_pypdf, extract_pdf
from tests.conftest import (
    DATA,
    PDF_SAMPLES,
    chinese_texts,
    english_texts,
    libreoffice_convert,
    run_cli,
    write_flat_odt,
    write_pdf,
)

FOOTNOTE = "Footnote: the conditions hold in every country."
COMMENT = "Reviewer comment that is not part of the text"
META_TITLE = "Metadata title never shown"
TEXT_BOX = "Words inside a text box, read once"
ALT_TEXT = "Alternative text of a picture frame"
FORMATS = ("odt", "docx", "rtf", "epub", "html", "pdf")


def _paragraphs() -> list[str]:
    english = [p for p in re.split(r"\n\s*\n", english_texts()["BSD"]) if p.strip()]
    chinese = [p for p in next(iter(chinese_texts().values())).splitlines() if p.strip()][:6]
    return [" ".join(p.split()) for p in english] + chinese


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The same document in every format, each written by LibreOffice from the flat ODT."""
    root = tmp_path_factory.mktemp("formats")
    source = root / "source" / "licence.fodt"
    write_flat_odt(
        source,
        _paragraphs(),
        footnote=FOOTNOTE,
        comment=COMMENT,
        title=META_TITLE,
        text_box=TEXT_BOX,
        alt_text=ALT_TEXT,
    )
    out, profile = root / "made", root / "profile"
    files = {fmt: libreoffice_convert(source, fmt, out, profile) for fmt in FORMATS}
    files["doc"] = libreoffice_convert(source, "doc:MS Word 97", out, profile)
    return files


def _words(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.e2e
@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_reads_as_the_document(made, fmt):
    found = extract(kind_of(str(made[fmt])) or "", made[fmt].read_bytes())
    assert found.status is Status.OK, found.message
    text = _words(found.text)
    paragraphs = _paragraphs()
    assert _words(paragraphs[1]) in text  # English body
    assert "".join(paragraphs[-1].split())[:40] in "".join(found.text.split())  # Chinese body
    assert "cell one" in text and "cell two" in text
    assert COMMENT not in text and META_TITLE not in text
    if fmt in ("odt", "docx"):
        assert text.count(TEXT_BOX) == 1, "a text box once (.docx holds a fallback copy of it)"
        assert FOOTNOTE in text
        assert text.index(FOOTNOTE) > text.index(_words(paragraphs[-1])[:20]), "notes come after the body"


@pytest.mark.e2e
def test_a_docx_and_the_pdf_exported_from_it_land_in_one_group_with_every_other_format(made, tmp_path):
    root = tmp_path / "uploads"
    root.mkdir()
    for age, fmt in enumerate(("pdf", "html", "epub", "odt", "docx", "rtf", "doc", "wps")):  # the exports oldest
        # WPS Office's writer saves Word 97-2003 inside its .wps
        shutil.copy(made["doc" if fmt == "wps" else fmt], root / f"licence-{fmt}.{fmt}")
        os.utime(root / f"licence-{fmt}.{fmt}", (1_600_000_000 + age, 1_600_000_000 + age))
    for name in ("GPL-2", "Apache-2.0", "MPL-2.0"):  # unrelated documents
        (root / f"{name}.txt").write_text(english_texts()[name])
    good_docx = made["docx"].read_bytes()
    (root / "truncated.docx").write_bytes(good_docx[: len(good_docx) // 2])
    proc = run_cli("scan", str(root), "--db", str(tmp_path / "n.db"), "--format", "json", "--workers", "2")
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    by_id = {d["id"]: d for d in report["documents"]}
    types = {Path(d["path"]).name: d["type"] for d in report["documents"]}
    assert types["licence-docx.docx"] == "docx" and types["licence-epub.epub"] == "epub"
    assert types["licence-doc.doc"] == "doc" and types["licence-wps.wps"] == "wps"
    groups = [{Path(by_id[m["id"]]["path"]).name for m in g["members"]} for g in report["groups"]]
    every = (*FORMATS, "doc", "wps")
    assert {f"licence-{fmt}.{fmt}" for fmt in every} in groups, groups
    group = next(g for g in report["groups"] if len(g["members"]) == len(every))
    keeper = Path(by_id[group["representative"]]["path"]).name
    # the .doc and the .wps are the same bytes: the content with most copies is kept, the older copy of it
    assert keeper == "licence-doc.doc", keeper
    truncated = next(d for d in report["documents"] if d["path"].endswith("truncated.docx"))
    assert truncated["status"] == "error" and "Damaged" in truncated["message"]
    # what to do in the message, on one line; what a reader said, if anything, in a field of its own
    assert "\n" not in truncated["message"] and "details" in truncated


@pytest.mark.e2e
def test_an_old_word_file_under_a_docx_name_is_read_as_one_and_an_encrypted_docx_says_so(made):
    old = extract("docx", made["doc"].read_bytes())
    assert old.status is Status.OK and "Word 97–2003 document (.doc)" in old.message
    from msoffcrypto.format.ooxml import OOXMLFile

    locked = io.BytesIO()
    with made["docx"].open("rb") as plain:
        OOXMLFile(plain).encrypt("secret", locked)
    found = extract("docx", locked.getvalue())
    assert found.status is Status.ENCRYPTED and "Password-protected" in found.message


def _rezip(source: bytes, replace: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(source)) as old, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as new:
        for info in old.infolist():
            new.writestr(info, replace.pop(info.filename, old.read(info)))
        for name, data in replace.items():
            new.writestr(name, data)
    return out.getvalue()


@pytest.mark.e2e
def test_an_encrypted_odt_and_a_drm_epub_say_so(made):
    """LibreOffice cannot be told a password from its command line: the encryption is written as it
    writes it (the manifest's encryption-data for content.xml, the part's bytes unreadable), and an EPUB
    whose chapters META-INF/encryption.xml lists as a DRM scheme does."""
    odt = made["odt"].read_bytes()
    with zipfile.ZipFile(io.BytesIO(odt)) as z:
        manifest = z.read("META-INF/manifest.xml").decode()
    manifest = manifest.replace(
        'manifest:full-path="content.xml" manifest:media-type="text/xml"/>',
        'manifest:full-path="content.xml" manifest:media-type="text/xml"><manifest:encryption-data '
        'manifest:checksum-type="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0#sha256-1k" manifest:checksum="x">'
        '<manifest:algorithm manifest:algorithm-name="http://www.w3.org/2001/04/xmlenc#aes256-cbc" '
        'manifest:initialisation-vector="x"/></manifest:encryption-data></manifest:file-entry>',
    )
    assert "encryption-data" in manifest
    locked = _rezip(odt, {"META-INF/manifest.xml": manifest.encode(), "content.xml": os.urandom(4000)})
    found = extract("odt", locked)
    assert found.status is Status.ENCRYPTED and "Password-protected" in found.message

    epub = made["epub"].read_bytes()
    with zipfile.ZipFile(io.BytesIO(epub)) as z:
        chapters = [n for n in z.namelist() if n.endswith((".xhtml", ".html"))]
    references = "".join(
        f'<enc:EncryptedData><enc:CipherData><enc:CipherReference URI="{c}"/></enc:CipherData></enc:EncryptedData>'
        for c in chapters
    )
    encryption = (
        '<?xml version="1.0"?><encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" '
        f'xmlns:enc="http://www.w3.org/2001/04/xmlenc#">{references}</encryption>'
    ).encode()
    found = extract(
        "epub", _rezip(epub, {"META-INF/encryption.xml": encryption, **{c: os.urandom(2000) for c in chapters}})
    )
    assert found.status is Status.ENCRYPTED and "DRM" in found.message


@pytest.mark.e2e
def test_zip_bombs_and_entity_expansion_are_refused_and_damage_is_an_error(made):
    docx = made["docx"].read_bytes()
    bomb = _rezip(docx, {"word/document.xml": b" " * (UNPACKED_LIMIT + (1 << 20))})
    assert len(bomb) < 2 << 20  # a small file...
    found = extract("docx", bomb)
    assert found.status is Status.TOO_LARGE and "zip bomb" in found.message  # ...that is not inflated

    laughs = (
        '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
        + "".join(f'<!ENTITY lol{i} "{("&lol" + str(i - 1) + ";") * 10 if i else "&lol;" * 10}">' for i in range(9))
        + ']><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
        "<w:body><w:p><w:r><w:t>&lol8;</w:t></w:r></w:p></w:body></w:document>"
    )
    found = extract("docx", _rezip(docx, {"word/document.xml": laughs.encode()}))
    assert found.status is Status.ERROR and "document type" in found.message

    for kind, good in (("docx", docx), ("odt", made["odt"].read_bytes()), ("epub", made["epub"].read_bytes())):
        for damaged in (good[: len(good) // 2], b"PK\x03\x04" + os.urandom(500)):
            found = extract(kind, damaged)
            assert found.status is Status.ERROR and found.message, (kind, found)
        noise = extract(kind, b"\x00" + os.urandom(3000))  # no package at all: not this format
        assert noise.status in (Status.UNSUPPORTED, Status.ERROR) and noise.message, (kind, noise)
        empty_zip = io.BytesIO()
        zipfile.ZipFile(empty_zip, "w").close()  # a valid zip without the document's parts
        found = extract(kind, empty_zip.getvalue())
        assert found.status is Status.ERROR and "missing" in found.message, (kind, found)
    assert extract("docx", b"").status is Status.EMPTY
    assert extract("rtf", b"plain words, not RTF").status is Status.UNSUPPORTED


def test_web_pages_decode_as_declared_and_show_only_what_a_browser_shows():
    page = (
        "<html><head><meta http-equiv='Content-Type' content='text/html; charset=gb2312'>"
        "<title>标题不算</title><style>p {color: red}</style><script>var hidden = '脚本';</script>"
        "<body><h1>近似重复</h1><p>上海浦东四季酒店是一家豪华酒店，\n   位于陆家嘴金融区。</p>"
        "<pre>keep   these\n  spaces</pre><table><tr><td>a</td><td>b</td></tr></table></body></html>"
    )
    found = extract("html", page.encode("gbk"))
    assert found.status is Status.OK and found.encoding == "gb18030"
    assert "上海浦东四季酒店是一家豪华酒店， 位于陆家嘴金融区。" in found.text
    assert "keep   these\nspaces" in found.text and "a\tb" in found.text
    assert "标题不算" not in found.text and "脚本" not in found.text and "color" not in found.text
    # a head left open, no declared charset, GB18030 bytes: detected as a text file is
    careless = "<html><head><title>x</title><p>段落的文字在这里，没有声明编码。这是第二句话。</p>".encode("gb18030")
    found = extract("html", careless)
    assert found.status is Status.OK and "段落的文字在这里" in found.text
    assert extract("html", b"<html><body><script>only()</script></body></html>").status is Status.EMPTY


def encrypt_attachments_only(pdf: bytes) -> bytes:
    """``pdf`` with an incremental update that encrypts only its attachments (PDF 1.6: the crypt filter
    /EFF, the pages' streams and strings /Identity), as Acrobat's "encrypt only file attachments" writes
    it; the password check values are random, so no password opens the attachments."""
    prev = int(re.search(rb"startxref\s+(\d+)\s+%%EOF\s*$", pdf).group(1))
    trailer = pdf[pdf.rindex(b"trailer") :]
    size = int(re.search(rb"/Size (\d+)", trailer).group(1))
    root = re.search(rb"/Root (\d+ \d+ R)", trailer).group(1).decode()
    ident = re.search(rb"/ID\s*\[\s*<([0-9a-fA-F]+)>", trailer).group(1).decode()
    check = os.urandom(32).hex()
    obj = (
        f"{size} 0 obj\n<< /Filter /Standard /V 4 /R 4 /Length 128 /P -1028 /EncryptMetadata false "
        "/CF << /StdCF << /CFM /AESV2 /AuthEvent /EFOpen /Length 16 >> >> /StmF /Identity /StrF /Identity "
        f"/EFF /StdCF /O <{check}> /U <{check}> >>\nendobj\n"
    ).encode()
    tail = (
        f"xref\n{size} 1\n{len(pdf):010d} 00000 n \ntrailer\n<< /Size {size + 1} /Root {root} /Prev {prev} "
        f"/Encrypt {size} 0 R /ID [<{ident}> <{ident}>] >>\nstartxref\n{len(pdf) + len(obj)}\n%%EOF\n"
    ).encode()
    return pdf + obj + tail


def test_a_pdf_whose_attachments_alone_are_encrypted_is_read(tmp_path):
    text = english_texts()["BSD"]
    data = encrypt_attachments_only(write_pdf(tmp_path / "a.pdf", text).read_bytes())
    assert _by_pypdf(data).status is Status.ENCRYPTED  # what neardup said before PDFium read first
    found = extract_pdf(data)
    assert found.status is Status.OK and _words(text)[:200] in _words(found.text)


def test_every_kind_has_a_name_ending_and_is_scanned_by_default():
    endings = ("txt", "pdf", "docx", "odt", "rtf", "epub", "html", "htm", "eml", "png", "jpg", "tiff")
    office = ("doc", "xls", "xlsx", "ods", "ppt", "pptx", "odp", "wps", "et", "dps")
    assert {kind_of(f"x.{ending}") for ending in endings + office} == KINDS
    assert kind_of("x.DOCX") == "docx" and kind_of("x.xhtml") == "html" and kind_of("x.ppsx") == "pptx"
    assert kind_of("x.dot") == "doc" and kind_of("x.xlsm") == "xlsx" and kind_of("x.key") is None
    assert ScanOptions(roots=()).kinds == KINDS


def test_every_kind_is_shown_by_a_name_a_person_reads():
    """The Type columns and the HTML report: a format by its name, WPS Office's files by its apps' names (the
    endings .et and .dps say nothing to a person), text, images and e-mail in words."""
    from neardup_gui.core.review.words import kind_label

    shown = {kind: kind_label(kind) for kind in KINDS}
    assert shown["wps"] == "WPS Writer" and shown["et"] == "WPS Spreadsheets" and shown["dps"] == "WPS Presentation"
    assert shown["doc"] == "DOC" and shown["xlsx"] == "XLSX" and shown["odp"] == "ODP" and shown["email"] == "e-mail"
    assert len(set(shown.values())) == len(KINDS)  # no two kinds look alike


def test_pdfium_text_is_cleaned_and_right_to_left_words_keep_their_order():
    """PDFium marks a word it joined across a line's hyphen with U+FFFE (pypdf leaves "adip-" and "iscing"
    apart), and gives Arabic in visual order: the first is cleaned, the second read by pypdf."""
    columns = extract_pdf((PDF_SAMPLES / "026-latex-multicolumn_multicolumn.pdf").read_bytes())
    assert "adipiscing" in columns.text and "\ufffe" not in columns.text
    assert not re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f]", columns.text.replace(PAGE_SEPARATOR, ""))
    arabic = extract_pdf((PDF_SAMPLES / "015-arabic_habibi.pdf").read_bytes())
    assert "حَبيبي" in arabic.text


@pytest.mark.e2e
def test_hostile_and_odd_inputs_get_a_status_never_an_exception(made):
    """What a byte-flip review found: each once escaped as an exception or a wrong status."""
    docx = made["docx"].read_bytes()
    # a central directory entry asking for a zip version zipfile refuses
    at = docx.rindex(b"PK\x01\x02")
    newer = docx[: at + 6] + bytes([100]) + docx[at + 7 :]
    assert extract("docx", newer).status is Status.ERROR
    # an old binary Office file under an .odt name is read as what it is
    old = extract("odt", made["doc"].read_bytes())
    assert old.status is Status.OK and "(.doc)" in old.message
    # RTF: a control word without its number; a Mac Japanese font (no such codec in Python)
    assert extract("rtf", rb"{\rtf1\ansi \uc hello}").status is Status.ERROR
    japanese = extract("rtf", rb"{\rtf1\ansi{\fonttbl{\f0\fcharset78 Osaka;}}\f0 \'82\'a0 and more words}")
    assert japanese.status is Status.OK and "あ" in japanese.text
    # a web page declaring an encoding that is no web encoding
    for label in ("undefined", "unicode_escape"):
        page = extract("html", f'<meta charset="{label}"><p>C:\\new\\table</p>'.encode())
        assert page.status is Status.OK and "C:\\new\\table" in page.text, label
    # cells whose end tags were left out, a long run of spaces
    assert "alpha\tbeta" in extract("html", b"<table><tr><td>alpha<td>beta</table>").text
    spaces = _rezip(
        docx,
        {
            "word/document.xml": (
                '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r>'
                f'<w:t xml:space="preserve">words{" " * 200_000}more</w:t></w:r></w:p></w:body></w:document>'
            ).encode()
        },
    )
    assert extract("docx", spaces).status is Status.OK
    # an e-book whose chapters are all missing
    epub = made["epub"].read_bytes()
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(epub)) as old_zip, zipfile.ZipFile(out, "w") as new_zip:
        for info in old_zip.infolist():
            if not info.filename.endswith((".xhtml", ".html")):
                new_zip.writestr(info, old_zip.read(info))
    gone = extract("epub", out.getvalue())
    assert gone.status is Status.ERROR and "missing" in gone.message
    # a PDF PDFium refuses and in which pypdf meets an object referring to itself
    looped = extract_pdf((DATA / "damaged" / "self-reference.pdf").read_bytes())
    assert looped.status is Status.ERROR and looped.message


@pytest.mark.e2e
def test_a_text_box_is_apart_from_the_word_before_it_and_alternative_text_is_not_read(made):
    word = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
    document = (
        f'<w:document xmlns:w="{word}"><w:body><w:p><w:r><w:t>host</w:t></w:r><w:r><w:pict><w:txbxContent>'
        "<w:p><w:r><w:t>box</w:t></w:r></w:p></w:txbxContent></w:pict></w:r></w:p></w:body></w:document>"
    )
    text = extract("docx", _rezip(made["docx"].read_bytes(), {"word/document.xml": document.encode()})).text
    assert "host" in text and "box" in text and "hostbox" not in text
    odt = extract("odt", made["odt"].read_bytes()).text
    assert ALT_TEXT not in odt and ALT_TEXT not in extract("docx", made["docx"].read_bytes()).text


def test_the_note_that_bytes_are_another_format_is_each_copys_own():
    """The same bytes are read once for all their copies: a copy under the right name has no note, a copy
    under a wrong name has it, whichever was read first."""
    from neardup_gui.core.read.extract import message_for

    xlsx_note = "This file is an Excel workbook (.xlsx), whatever its name says, and was read as one."
    assert message_for("xlsx", "xls", xlsx_note) == ""  # read first under an .xls name
    assert message_for("xls", "xlsx", "") == xlsx_note  # read first under its own name
    assert message_for("xls", "", xlsx_note) == xlsx_note  # the copy that was read
    assert message_for("doc", "pdf", "").startswith("This file is a PDF")
    assert message_for("wps", "doc", "") == ""  # a WPS writer file holds Word 97-2003
    assert message_for("docx", "wps", "") == ""  # a .wps's bytes may be either: not known, not said
    assert message_for("xls", "xlsx", "Damaged document: x") == "Damaged document: x"
    assert message_for("text", "pdf", "") == ""


def test_text_repeated_without_end_by_a_crafted_file_is_refused_not_read():
    """A few bytes can make one text repeat without end: cells repeated inside repeated cells (.odt, .ods), one
    long shared string in every cell (.xlsx). A reader gives at most TEXT_LIMIT characters, then says so."""
    from neardup_gui.core.read.containers import TEXT_LIMIT

    odf = (
        'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"'
    )
    nested = "<text:p>word</text:p>"
    for _ in range(4):
        nested = (
            '<table:table><table:table-row><table:table-cell table:number-columns-repeated="16384">'
            f"{nested}</table:table-cell></table:table-row></table:table>"
        )
    content = f"<office:document-content {odf}><office:body><office:text>{nested}</office:text></office:body>"
    odt = io.BytesIO()
    with zipfile.ZipFile(odt, "w") as package:
        package.writestr("mimetype", "application/vnd.oasis.opendocument.text")
        package.writestr("content.xml", content + "</office:document-content>")
    sheet = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
    relation = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    xlsx = io.BytesIO()
    with zipfile.ZipFile(xlsx, "w", zipfile.ZIP_DEFLATED) as package:
        package.writestr("[Content_Types].xml", "<Types/>")
        package.writestr(
            "xl/workbook.xml",
            f'<workbook {sheet} xmlns:r="{relation}"><sheets><sheet name="a" sheetId="1" r:id="rId1"/></sheets>'
            "</workbook>",
        )
        package.writestr(
            "xl/_rels/workbook.xml.rels",
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            f'<Relationship Id="rId1" Type="{relation}/worksheet" Target="sheet1.xml"/>'
            f'<Relationship Id="rId2" Type="{relation}/sharedStrings" Target="sharedStrings.xml"/></Relationships>',
        )
        package.writestr("xl/sharedStrings.xml", f"<sst {sheet}><si><t>{'ab ' * 10_000}</t></si></sst>")
        cells = '<c t="s"><v>0</v></c>' * (TEXT_LIMIT // 30_000 + 10)
        package.writestr("xl/sheet1.xml", f"<worksheet {sheet}><sheetData><row>{cells}</row></sheetData></worksheet>")
    for kind, data in (("odt", odt.getvalue()), ("xlsx", xlsx.getvalue())):
        assert len(data) < 100_000
        found = extract(kind, data)
        assert found.status is Status.TOO_LARGE and "million characters" in found.message, (kind, found)
