import io
import json
import os
import re
import zipfile

import pytest

from neardup_gui.core import i18n
from neardup_gui.core.models import Status
from neardup_gui.core.read.decode import detect_encoding
from neardup_gui.core.read.extract import extract, extract_text, kind_of
from neardup_gui.core.read.pdf import extract_pdf
from tests.conftest import DATA, PDF_SAMPLES, chinese_texts, english_texts, write_pdf

ZH_SIMPLIFIED = "上海浦东四季酒店是一家豪华酒店，位于陆家嘴金融区。我们今天讨论近似重复文档的检测方法。"
ZH_TRADITIONAL = "台北的天氣很好，我們今天討論近似重複文件的偵測方法，這是一個測試。"
LATIN = "Le café est très bon à Paris — naïve résumé, “quotes” and the €uro sign."


@pytest.mark.parametrize(
    "content, encoding",
    [
        (LATIN, "utf-8"),
        (LATIN, "utf-8-sig"),
        (ZH_SIMPLIFIED, "utf-16"),
        (ZH_SIMPLIFIED, "utf-16-le"),
        (ZH_SIMPLIFIED, "utf-16-be"),
        ("plain ascii in utf-16 without a mark " * 3, "utf-16-le"),
        ("plain ascii in utf-16 without a mark " * 3, "utf-16-be"),
        (ZH_SIMPLIFIED, "gb18030"),
        (ZH_SIMPLIFIED, "gbk"),
        (ZH_TRADITIONAL, "big5"),
        (LATIN, "cp1252"),
        ("四季酒店", "gb18030"),
        ("天氣很好", "big5"),
    ],
)
def test_text_is_decoded_by_detection(content, encoding):
    result = extract_text(content.encode(encoding))
    assert result.status is Status.OK, result.message
    assert result.text == content


def test_real_chinese_articles_in_gb18030_and_big5_round_trip():
    for name, content in chinese_texts().items():
        data = content.encode("gb18030")
        assert extract_text(data).text == content, name


def test_binary_named_txt_is_unsupported_not_garbage():
    assert extract_text(os.urandom(4096)).status is Status.UNSUPPORTED
    with open("/bin/ls", "rb") as fh:
        assert extract_text(fh.read(65536)).status is Status.UNSUPPORTED
    assert detect_encoding(b"\x00\x01\x02\x03binary\x00\xff") is None


def test_empty_and_whitespace_files_are_empty():
    assert extract_text(b"").status is Status.EMPTY
    assert extract_text(b" \n\t\r\n").status is Status.EMPTY


def test_kind_of_by_suffix():
    assert kind_of("/a/b.TXT") == "text"
    assert kind_of("notes.md") == "text"
    assert kind_of("paper.Pdf") == "pdf"
    assert kind_of("photo.jpg") == "image"  # read only by OCR
    assert kind_of("setup.exe") is None


def test_pdf_written_by_reportlab_english_and_chinese(tmp_path):
    en = english_texts()["BSD"]
    result = extract_pdf(write_pdf(tmp_path / "en.pdf", en).read_bytes())
    assert result.status is Status.OK
    assert "Redistribution and use in source and binary forms" in " ".join(result.text.split())
    zh = write_pdf(tmp_path / "zh.pdf", ZH_SIMPLIFIED)
    result = extract_pdf(zh.read_bytes())
    assert result.status is Status.OK and "四季酒店" in result.text


def test_pdf_encrypted_with_empty_user_password_opens(tmp_path):
    path = write_pdf(
        tmp_path / "owner-only.pdf",
        "Only an owner password protects this document.",
        user_password="",
        owner_password="secret",
    )
    result = extract_pdf(path.read_bytes())
    assert result.status is Status.OK
    assert "owner password" in result.text


def test_pdf_with_a_user_password_is_encrypted_with_a_message(tmp_path):
    path = write_pdf(tmp_path / "locked.pdf", "You cannot read me.", user_password="hunter2")
    result = extract_pdf(path.read_bytes())
    assert result.status is Status.ENCRYPTED
    assert "password" in result.message.lower()


def test_truncated_and_garbage_pdfs_are_errors_with_a_reason(tmp_path):
    good = write_pdf(tmp_path / "good.pdf", english_texts()["BSD"]).read_bytes()
    truncated = extract_pdf(good[: len(good) // 3])
    assert truncated.status in (Status.ERROR, Status.EMPTY)
    assert truncated.message
    garbage = extract_pdf(b"%PDF-1.7\n" + os.urandom(3000))
    assert garbage.status in (Status.ERROR, Status.EMPTY) and garbage.message


def test_real_world_samples_each_get_the_status_they_deserve(capfd):
    meta = {d["path"].replace("/", "_"): d for d in json.loads((PDF_SAMPLES / "files.json").read_text())["data"]}
    statuses = {}
    for pdf in sorted(PDF_SAMPLES.glob("*.pdf")):
        result = extract("pdf", pdf.read_bytes())
        statuses[pdf.name] = result.status
        assert result.status is Status.OK or result.message, pdf.name
    assert statuses["005-libreoffice-writer-password_libreoffice-writer-password.pdf"] is Status.ENCRYPTED
    assert statuses["007-imagemagick-images_imagemagick-lzw.pdf"] is Status.EMPTY  # image only: probably a scan
    assert statuses["015-arabic_habibi.pdf"] is Status.OK
    assert statuses["026-latex-multicolumn_multicolumn.pdf"] is Status.OK
    assert sum(s is Status.OK for s in statuses.values()) >= 20
    assert len(meta) >= len(statuses) - 1
    out, err = capfd.readouterr()
    assert out == "" and err == "", "pypdf's warnings must not reach the terminal"


def test_real_chinese_articles_without_a_byte_order_mark_in_utf16_and_big5():
    for name, content in chinese_texts().items():
        for encoding in ("utf-16-le", "utf-16-be"):
            assert extract_text(content.encode(encoding)).text == content, (name, encoding)
        excerpt = "".join(ch for ch in content[:600] if ch.encode("big5", "ignore"))
        assert extract_text(excerpt.encode("big5")).text == excerpt, name


def test_cyrillic_cp1251():
    content = "Привет, как дела? Это тест кодировки, и он должен пройти."
    assert extract_text(content.encode("cp1251")).text == content


def _damaged(data: bytes, at: int, junk: bytes) -> bytes:
    return data[:at] + junk + data[at:]


def test_a_stray_zero_or_invalid_byte_loses_one_character_not_the_document():
    english = english_texts()["BSD"]
    chinese = chinese_texts()["03_archives"]
    cases = [  # a stray byte between two characters
        (english, _damaged(english.encode(), 500, b"\x00"), "utf-8"),
        (chinese, _damaged(chinese.encode(), len(chinese[:300].encode()), b"\xff"), "utf-8"),
        (chinese, _damaged(chinese.encode("gb18030"), len(chinese[:300].encode("gb18030")), b"\x80"), "gb18030"),
    ]
    for original, data, encoding in cases:
        result = extract_text(data)
        assert result.status is Status.OK and result.encoding == encoding, (encoding, result)
        assert result.text.count("\ufffd") == 1 and "1 damaged byte" in result.message and encoding in result.message
        assert result.text.replace("\ufffd", "") == original  # every other character exactly as written


def test_damage_beyond_a_share_of_the_bytes_is_binary():
    english = english_texts()["BSD"].encode()
    assert extract_text(os.urandom(20_000)).status is Status.UNSUPPORTED
    every_twentieth = b"".join(english[k : k + 20] + b"\x00" for k in range(0, len(english), 20))  # 5 % zeros
    assert extract_text(every_twentieth).status is Status.UNSUPPORTED
    one_in_two_hundred = b"".join(english[k : k + 200] + b"\x00" for k in range(0, len(english), 200))
    assert extract_text(one_in_two_hundred).status is Status.OK


# --- a damaged file in plain words ----------------------------------------------------------------------

_WORD = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


def _docx(document: str) -> bytes:
    """A .docx of one part, its body's XML as given (written as Word writes it: deflated)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as package:
        package.writestr("word/document.xml", f"<w:document xmlns:w='{_WORD}'><w:body>{document}")
    return buffer.getvalue()


def _paragraphs() -> str:
    return "".join(f"<w:p><w:r><w:t>{line}</w:t></w:r></w:p>" for line in english_texts()["BSD"].splitlines())


def _garbled(data: bytes) -> bytes:
    """A zip's only part with bytes in the middle of its packed data changed, as a failing disk would."""
    middle = len(data) // 3
    return data[:middle] + bytes(b ^ 0x5A for b in data[middle : middle + 16]) + data[middle + 16 :]


def _deflate64(data: bytes) -> bytes:
    """A zip's only part said to be packed with Deflate64 (method 9), as Windows packs large folders."""
    central = data.index(b"PK\x01\x02")
    data = data[:8] + b"\x09\x00" + data[10:]  # the part's own header
    return data[: central + 10] + b"\x09\x00" + data[central + 12 :]  # and the zip's directory


DAMAGED = {  # (kind, the file's bytes from a scratch folder, the reason, what the library said)
    "cut-short.pdf": (
        "pdf",
        lambda tmp: write_pdf(tmp / "whole.pdf", english_texts()["BSD"]).read_bytes()[:1500],
        "Damaged file: its end is missing (a download or copy cut short?).",
        r"^PdfStreamError: Stream has ended unexpectedly$",
    ),
    "self-reference.pdf": (
        "pdf",
        lambda tmp: (DATA / "damaged" / "self-reference.pdf").read_bytes(),
        "Damaged file: its structure loops on itself.",
        r"^LimitReachedError: Detected loop with self reference",
    ),
    "broken-markup.docx": (
        "docx",
        lambda tmp: _docx("<w:p><w:r><w:t>Cut off in the middle of a wo"),
        "Damaged document: the markup that holds its text is broken.",
        r"^word/document\.xml: no element found: line 1, column \d+$",
    ),
    "garbled.docx": (
        "docx",
        lambda tmp: _garbled(_docx(_paragraphs() + "</w:body></w:document>")),
        "Damaged file: some of its contents are garbled (a failing disk, or a copy gone wrong?).",
        r"^(BadZipFile: Bad CRC-32 for file 'word/document\.xml'|error: Error -3 while decompressing data: .*)$",
    ),
    "deflate64.docx": (
        "docx",
        lambda tmp: _deflate64(_docx(_paragraphs() + "</w:body></w:document>")),
        "Packed in a way neardup cannot unpack.",
        r"^NotImplementedError: (That compression method is not supported|compression type 9 \(deflate64\))$",
    ),
    "broken.rtf": (
        "rtf",
        lambda tmp: b"{\\rtf1\\ansi Hello \\u-99999999999? world}",
        "Damaged RTF document: its control words could not be read.",
        r"^OverflowError: ",
    ),
}


@pytest.mark.parametrize("name", DAMAGED)
def test_a_damaged_file_is_said_in_plain_words_and_what_its_reader_said_is_kept(name, tmp_path, chinese):
    """The Problems tab and the reports give the reason in our words, with what to do (translated); the
    reader library's own words are kept as the message's details (the JSON report's message ends with them)."""
    kind, make, reason, library_said = DAMAGED[name]
    path = tmp_path / name
    path.write_bytes(make(tmp_path))
    found = extract(kind, path.read_bytes())
    assert found.status is Status.ERROR, found
    message, details = i18n.split_details(found.message)
    assert message.startswith(reason) and "open it in its program and save it again" in message.lower(), message
    assert re.search(library_said, details), details
    assert found.message == f"{message}\nDetails: {details}"  # as stored, and in the JSON report

    shown = i18n.localize("Problem", message)  # the Problems table's words, in Chinese
    assert re.search(r"[\u4e00-\u9fff]", shown) and "重新保存" in shown, shown
    assert set(re.findall(r"[A-Za-z]+", shown)) <= {"PDF", "RTF", "neardup"}, shown
    assert i18n.localize("Problem", found.message) == f"{shown}\n详细信息：{details}"  # its tooltip


def test_a_file_that_is_no_pdf_at_all_says_so(tmp_path, chinese):
    path = tmp_path / "notes.pdf"
    path.write_text("Notes saved as plain text under a .pdf name.\n" * 40)
    found = extract("pdf", path.read_bytes())
    assert found.status is Status.UNSUPPORTED and found.message == "This is not a PDF, although its name says so."
    assert i18n.localize("Problem", found.message) == "这不是 PDF 文件，只是文件名以 .pdf 结尾。"
