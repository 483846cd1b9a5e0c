"""The engine, the command line and the HTML report speak the person's language (the real zh_CN catalogue),
while what is stored and the JSON/CSV contract stay English."""

from __future__ import annotations

import errno
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from neardup_gui.core import i18n
from neardup_gui.core.fingerprint.scheme import Scheme
from neardup_gui.core.match.matcher import Matcher
from neardup_gui.core.models import ScanOptions, Status, Thresholds
from neardup_gui.core.read.extract import extract_text
from neardup_gui.core.review.html_report import to_html
from neardup_gui.core.review.report import PairPassages, ReportContext, to_json
from neardup_gui.core.scan import ExtractTask, scan, transient_failure
from neardup_gui.core.store.store import Store
from neardup_gui.core.store.stored_text import TextLoader
from neardup_gui.core.workers.pool import TaskFailed
from tests.conftest import REPO, english_texts, plant_edits, speaking

HAN = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture
def english():
    with speaking("en"):
        yield


@pytest.fixture
def two_near_copies(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    text = english_texts()["BSD"]
    (folder / "licence.txt").write_text(text, encoding="utf-8")
    (folder / "licence-edited.txt").write_text(plant_edits(text, 0.01, seed=7), encoding="utf-8")
    (folder / "empty.txt").write_text("", encoding="utf-8")
    return folder


def test_a_stored_message_with_a_field_is_shown_in_chinese(chinese):
    damaged = extract_text(b"A text of many words, and one damaged byte. " * 40 + b"\x00" + b"The end of it. " * 10)
    assert damaged.status is Status.OK and damaged.message.startswith("Read as utf-8: 1 damaged byte")  # stored
    shown = i18n.localize("Problem", damaged.message)
    assert HAN.search(shown) and "utf-8" in shown and "Read as" not in shown


def test_a_stored_message_s_details_are_kept_after_it_as_they_were_said(chinese):
    stored = i18n.with_details("The file is empty.", ValueError("EOF marker not found\n  at byte 12"))
    assert stored == "The file is empty.\nDetails: ValueError: EOF marker not found at byte 12"  # one line of details
    assert i18n.split_details(stored) == ("The file is empty.", "ValueError: EOF marker not found at byte 12")
    assert i18n.localize("Problem", stored) == "文件是空的。\n详细信息：ValueError: EOF marker not found at byte 12"
    assert i18n.with_details("The file is empty.", "") == "The file is empty." == i18n.split_details(stored)[0]
    # what a library says is kept short and printable: it goes to a terminal and into every report
    noisy = i18n.with_details("The file is empty.", OSError("\x1b]0;pwned\x07" + "x" * 5_000))
    _message, details = i18n.split_details(noisy)
    assert "\x1b" not in details and "\\x1b]0;pwned\\x07" in details and len(details) == 500

    # the JSON report: what to do in ``message``, what the library said in ``details``
    from neardup_gui.core.match.matcher import MatchResult
    from neardup_gui.core.models import Document, Status, Thresholds
    from neardup_gui.core.review.report import ReportContext, to_json

    doc = Document(1, "/x/a.pdf", 9, 0, "pdf", Status.ERROR, stored, 0, None)
    (listed,) = json.loads(to_json(MatchResult(Thresholds(), (doc,), (), ()), ReportContext()))["documents"]
    assert (listed["message"], listed["details"]) == (
        "The file is empty.",
        "ValueError: EOF marker not found at byte 12",
    )
    # an OSError's number and the system's words, not its path (the row names the file)
    said = i18n.said(OSError(errno.EIO, "Input/output error", "/secret/a.pdf"))
    assert said == f"OSError: [Errno {errno.EIO}] Input/output error"
    # a value's details go to the end of the message it is put in, where they are found again
    inner = i18n.with_details("the reader crashed on it", "SIGSEGV")
    assert i18n.fill("Not compared: {reason}. Try again.", reason=inner) == (
        "Not compared: the reader crashed on it. Try again.\nDetails: SIGSEGV"
    )


def test_a_nested_stored_message_is_translated_with_its_parts(chinese):
    task = ExtractTask("/x/slow.pdf", "pdf", b"\0" * 16, Scheme.current(), 1)
    failed = TaskFailed("reading it took longer than 5 s, so it was stopped", timed_out=True)
    stored = transient_failure(task, failed, 5.0).message
    assert stored.startswith("Not compared: reading it took longer than 5 s")  # stored in English
    shown = i18n.localize("Problem", stored)
    assert shown.startswith("未比较：读取超过 5 秒") and "neardup scan --timeout" in shown, shown
    assert "reading it" not in shown and "Try Again" not in shown, shown  # the reason and the remedy too

    # a reader's own error (which may hold ". ") is the message's details, after the remedy, as it was said
    failed = TaskFailed(i18n.with_details("the reader failed on it", "PdfReadError: Invalid object. Expected dict"))
    stored = transient_failure(task, failed, 5.0).message
    assert stored.startswith("Not compared: the reader failed on it. To try it again: Try Again")
    assert stored.endswith("neardup scan --retry-failed.\nDetails: PdfReadError: Invalid object. Expected dict")
    shown = i18n.localize("Problem", stored)
    assert shown.startswith("未比较：读取时出错。") and "Try Again" not in shown, shown
    assert shown.endswith("\n详细信息：PdfReadError: Invalid object. Expected dict"), shown
    failed = TaskFailed(i18n.with_details("the reader crashed on it", "exit code 3"))
    assert i18n.localize("Problem", transient_failure(task, failed, 5.0).message).startswith("未比较：读取时程序崩溃。")

    i18n.set_language("en")
    assert i18n.localize("Problem", stored) == stored


def test_messages_an_earlier_version_stored_are_still_translated(chinese):
    """A database keeps a file's message until the file changes: those of earlier versions, with the
    library's words inside them, are shown in Chinese all the same."""
    for stored, expected in (
        ("Damaged or unreadable PDF: EOF marker not found", "PDF 已损坏或无法读取：EOF marker not found"),
        (
            "Not compared: the reader crashed on it (SIGKILL). To try it again: Try Again in the app's Problems tab, "
            "or neardup scan --retry-failed.",
            "读取时程序崩溃（SIGKILL）",
        ),
        ("The file could not be read: [Errno 5] Input/output error", "无法读取文件："),
    ):
        shown = i18n.localize("Problem", stored)
        assert expected in shown and "could not" not in shown and "crashed" not in shown, shown


def _cli(args: list[str], lang: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    env["LANG"] = lang
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH", "")]))
    return subprocess.run(
        [sys.executable, "-m", "neardup_gui.cli", *args], capture_output=True, text=True, cwd=cwd, env=env, timeout=300
    )


@pytest.mark.e2e
def test_a_message_stored_by_a_reader_is_translated_where_no_document_was_read():
    """The window and the command line show what worker processes stored: the templates of the readers they
    never imported themselves are known all the same."""
    code = (
        "from neardup_gui.core import i18n, session; i18n.set_language('zh_CN');"
        "print(i18n.localize('Problem', 'Damaged document: its part word/document.xml is missing.'))"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH", "")]))}
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert HAN.search(shown.stdout) and "word/document.xml" in shown.stdout, shown


@pytest.mark.e2e
def test_the_command_line_follows_lang(two_near_copies, tmp_path):
    db = str(tmp_path / "n.db")
    zh = _cli(["scan", str(two_near_copies), "--db", db, "--format", "json", "--workers", "2"], "zh_CN.UTF-8", tmp_path)
    assert zh.returncode == 0, zh.stderr
    assert "1 个重复组" in zh.stderr and "个文件" in zh.stderr, zh.stderr
    report = json.loads(zh.stdout)
    assert report["summary"]["groups"] == 1
    empty = next(d for d in report["documents"] if d["path"].endswith("empty.txt"))
    assert empty["message"] == "The file is empty."  # the JSON contract stays English

    en = _cli(["groups", "--db", db, "--format", "csv"], "C", tmp_path)
    assert en.returncode == 0, en.stderr
    assert "1 group" in en.stderr and not HAN.search(en.stderr), en.stderr
    assert en.stdout.startswith("group,representative,path")

    usage = _cli(["groups", "--db", str(tmp_path / "nothing.db")], "zh_CN.UTF-8", tmp_path)
    assert usage.returncode == 2 and "没有数据库" in usage.stderr, usage.stderr
    usage = _cli(["groups", "--db", str(tmp_path / "nothing.db")], "C", tmp_path)
    assert usage.returncode == 2 and "No database at" in usage.stderr, usage.stderr

    helped = _cli(["scan", "--help"], "zh_CN.UTF-8", tmp_path)
    assert helped.returncode == 0 and "要扫描的文件夹" in helped.stdout
    assert helped.stdout.startswith("用法：") and "显示此帮助信息并退出" in helped.stdout  # argparse's own words
    wrong = _cli(["scan", "--hamming", "99", str(tmp_path)], "zh_CN.UTF-8", tmp_path)
    assert wrong.returncode == 2 and "错误：参数 --hamming" in wrong.stderr, wrong.stderr


def _report(folder: Path, tmp_path: Path) -> tuple[str, str]:
    with Store(tmp_path / "r.db") as store:
        summary = scan(store, ScanOptions(roots=(str(folder),), workers=2))
        result = Matcher(store).match(Thresholds())
        loader = TextLoader(store.contents.hashes(d.content_id for d in result.documents if d.content_id))
        context = ReportContext(roots=summary.roots, scan={"seconds": summary.seconds})
        return to_html(result, context, loader), to_json(result, context, PairPassages(loader, {}))


@pytest.mark.e2e
def test_the_html_report_speaks_chinese(two_near_copies, tmp_path, chinese):
    page, as_json = _report(two_near_copies, tmp_path)
    assert re.search(r"<html lang=['\"]zh-CN['\"]", page)
    assert "<h1>重复文档</h1>" in page and "<h2>重复组（1）</h2>" in page and "<h2>问题（1）</h2>" in page
    assert "文件是空的。" in page  # the stored problem, translated where shown
    assert "Duplicate documents" not in page and "Problems (" not in page
    assert '"message": "The file is empty."' in as_json and "重复" not in as_json  # the contract stays English


@pytest.mark.e2e
def test_the_html_report_in_english(two_near_copies, tmp_path, english):
    page, _ = _report(two_near_copies, tmp_path)
    assert re.search(r"<html lang=['\"]en['\"]", page)
    assert "<h1>Duplicate documents</h1>" in page and "The file is empty." in page and not HAN.search(page)
