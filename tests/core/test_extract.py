import json
import os

import pytest

from neardup_gui.core.models import Status
from neardup_gui.core.read.decode import detect_encoding
from neardup_gui.core.read.extract import extract, extract_text, kind_of
from neardup_gui.core.read.pdf import extract_pdf
from tests.conftest import PDF_SAMPLES, chinese_texts, english_texts, write_pdf

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
