"""Saved e-mail (.eml) read as a person reads it: the subject and the text body, each part by its charset;
attachments named, not read; what is no e-mail said so."""

from __future__ import annotations

from email.message import EmailMessage
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from neardup_gui.core.models import ScanOptions, Status, Thresholds
from neardup_gui.core.read.extract import extract, kind_of
from neardup_gui.core.session import Session
from tests.conftest import chinese_texts, english_texts


def _mail(subject: str, body: str, charset: str = "utf-8", attachment: bytes | None = None) -> bytes:
    message = EmailMessage()
    message["From"] = "张三 <zhang@example.cn>"
    message["To"] = "li@example.cn"
    message["Subject"] = subject
    message.set_content(body, charset=charset)
    if attachment is not None:
        message.add_attachment(attachment, maintype="application", subtype="pdf", filename="合同.pdf")
    return bytes(message)


def test_a_chinese_mail_in_gb2312_is_read_with_its_subject_and_its_attachment_named():
    statute = chinese_texts()["02_fireworks_safety"][:600]
    data = _mail("关于烟花爆竹管理条例的意见", statute, charset="gb2312", attachment=b"%PDF-1.4 ...")
    assert b'charset="gb2312"' in data or b"charset=gb2312" in data
    found = extract(kind_of("意见.eml") or "", data)
    assert found.status is Status.OK
    assert found.text.startswith("关于烟花爆竹管理条例的意见\n\n") and "烟花爆竹" in found.text[20:]
    assert "%PDF" not in found.text and found.message == "Attachments not compared: 合同.pdf."
    # a name as a mail program may write it: on one line, and short, however many attachments there are
    message = EmailMessage()
    message["Subject"] = "many"
    message.set_content("Text.")
    for n in range(300):
        message.add_attachment(b"x", maintype="application", subtype="octet-stream", filename=f"a\x1b[31m{n}.bin")
    said = extract("email", bytes(message)).message
    assert "\x1b" not in said and "\n" not in said and len(said) < 600


def test_the_plain_part_is_read_and_an_html_only_mail_as_a_browser_shows_it():
    alternative = MIMEMultipart("alternative")
    alternative["Subject"] = "Licence"
    alternative.attach(MIMEText("Redistribution and use in source and binary forms.", "plain"))
    alternative.attach(MIMEText("<p>Redistribution <b>and use</b> in source</p>", "html"))
    found = extract("email", alternative.as_bytes())
    assert found.text == "Licence\n\nRedistribution and use in source and binary forms."
    html_only = MIMEText("<html><script>alert(1)</script><p>Only <i>this</i> is read.</p></html>", "html")
    html_only["Subject"] = "Web"
    assert extract("email", html_only.as_bytes()).text.split() == ["Web", "Only", "this", "is", "read."]


def test_a_charset_that_is_unknown_or_wrong_is_found_out_from_the_bytes():
    body = "中华人民共和国档案法规定，档案应当妥善保管。" * 5
    wrong = _mail("x", body, charset="gb18030").replace(b"gb18030", b"no-such-charset")
    assert "档案" in extract("email", wrong).text
    mislabelled = bytes(_mail("y", body, charset="gb18030")).replace(b"gb18030", b"utf-8")
    assert "档案" in extract("email", mislabelled).text  # GB bytes said to be UTF-8


def test_what_is_no_mail_says_so_and_a_mail_without_text_is_empty():
    assert extract("email", b"just some words, no headers\n").status is Status.UNSUPPORTED
    assert extract("email", b"\x00\x01\x02garbage").status is Status.UNSUPPORTED
    empty = extract("email", b"From: a@b.c\nTo: d@e.f\n\n")
    assert empty.status is Status.EMPTY and "no text" in empty.message


@pytest.mark.e2e
def test_a_letter_sent_by_mail_groups_with_its_text_file(tmp_path: Path):
    root = tmp_path / "docs"
    root.mkdir()
    letter = english_texts()["BSD"]
    (root / "licence.txt").write_text(letter)
    (root / "licence.eml").write_bytes(_mail("BSD licence", letter))
    (root / "other.eml").write_bytes(_mail("MPL", english_texts()["MPL-2.0"]))
    with Session(tmp_path / "db.sqlite") as session:
        view = session.scan(ScanOptions(roots=(str(root),), workers=1), Thresholds(jaccard=0.8))
        docs = view.documents
        groups = [{Path(docs[m.document_id].path).name for m in g.members} for g in view.result.groups]
        assert groups == [{"licence.txt", "licence.eml"}]
        keeper = docs[view.keepers[view.result.groups[0].id]]
        assert keeper.path.endswith("licence.txt") and keeper.kind == "text"  # the text, not the mail that sent it


@settings(max_examples=300, deadline=None)
@given(cut=st.integers(0, 4_000), flips=st.lists(st.tuples(st.integers(0, 4_000), st.integers(0, 255)), max_size=20))
@example(cut=286, flips=[(285, 0)])  # a NUL in the charset's name: codecs.lookup raised ValueError, not LookupError
def test_a_damaged_mail_never_stops_the_reader(cut, flips):
    """Cut short or with bytes changed anywhere (headers, boundaries, base64, charsets), a mail is read or
    refused with a status: the reader never raises."""
    data = bytearray(_mail("关于条例的意见", chinese_texts()["01_chinese_sturgeon"][:900], "gb2312", b"%PDF-1.4"))
    for at, value in flips:
        data[at % len(data)] = value
    found = extract("email", bytes(data[:cut]))
    assert found.status in (Status.OK, Status.EMPTY, Status.UNSUPPORTED)
