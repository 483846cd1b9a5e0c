"""Reports over real scanned files, including names and texts that carry HTML/script and formulas."""

import csv
import html
import io
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from neardup_gui.core.match.matcher import Matcher
from neardup_gui.core.models import ScanOptions, Thresholds
from neardup_gui.core.review import html_report
from neardup_gui.core.review.html_report import to_html
from neardup_gui.core.review.report import ReportContext, neutralise_cell, to_csv, to_json
from neardup_gui.core.scan import scan
from neardup_gui.core.session import Session
from neardup_gui.core.store.store import Store
from neardup_gui.core.store.stored_text import TextLoader
from tests.conftest import PDF_SAMPLES, chinese_texts, english_texts, plant_edits

pytestmark = pytest.mark.e2e  # a scan through the worker pool; Chromium and LibreOffice read the reports

SCRIPT_PAYLOAD = "<script>document.title='PWNED-BY-TEXT'</script>"
IMG_PAYLOAD = "<img src=x onerror=\"document.title='PWNED-BY-IMG'\">"
NAME_PAYLOAD = "<img src=x onerror=document.title=7>.txt"


@pytest.fixture(scope="module")
def scanned(tmp_path_factory):
    root = tmp_path_factory.mktemp("uploads")
    base = english_texts()["BSD"]
    hostile = base.replace("Redistribution", SCRIPT_PAYLOAD + " Redistribution", 1)
    (root / NAME_PAYLOAD).write_text(hostile)
    (root / '=HYPERLINK("x").txt').write_text(plant_edits(hostile, 0.01, seed=1).replace("copyright", IMG_PAYLOAD, 1))
    zh = list(chinese_texts().values())[1]
    (root / "中文 原稿.txt").write_text(zh)
    (root / "中文 修改稿.txt").write_text(plant_edits(zh, 0.01, seed=2))
    (root / "+cmd.txt").write_text(english_texts()["MPL-2.0"])
    (root / "@sum.txt").write_text(english_texts()["MPL-2.0"])
    shutil.copy(PDF_SAMPLES / "005-libreoffice-writer-password_libreoffice-writer-password.pdf", root / "-locked.pdf")
    db = tmp_path_factory.mktemp("db") / "n.db"
    with Store(db) as store:
        summary = scan(store, ScanOptions(roots=(str(root),), workers=2))
        result = Matcher(store).match(Thresholds())
        loader = TextLoader(store.contents.hashes(d.content_id for d in result.documents if d.content_id))
        html_text = to_html(result, ReportContext(roots=summary.roots, scan={"seconds": summary.seconds}), loader)
    return root, result, html_text


def test_html_escapes_every_name_and_text(scanned):
    _, result, page = scanned
    assert len(result.groups) == 3
    executable = [m for m in re.finditer(r"<script(?![^>]*application/json)", page)]
    assert len(executable) == 1  # ours, allowed by hash in the CSP; the rest are JSON data blocks
    for block in re.findall(r"<script type='application/json' id='[^']+'>(.*?)</script>", page, re.S):
        assert "<" not in block  # nothing can end a data block early
        json.loads(block)
    assert "<img" not in page
    assert "&lt;img src=x onerror=document.title=7&gt;.txt" in page
    assert re.search(
        r"Content-Security-Policy' content=\"default-src 'none'; style-src 'unsafe-inline'; "
        r"script-src 'sha256-",
        page,
    )


def test_html_is_self_contained(scanned):
    _, _, page = scanned
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    assert "@import" not in page and "url(" not in page


def test_a_group_of_copies_says_the_same_text_and_a_near_group_at_least_its_share(scanned):
    """The exact pair (+cmd.txt, @sum.txt) is "the same text", never "at least 100 %"."""
    _, _, page = scanned
    assert "2 documents · the same text" in page and "at least 100 %" not in page
    assert re.search(r"2 documents · at least \d\d % of the text the same", page)


def test_html_carries_side_by_side_diffs_with_marked_words_and_problems(scanned):
    _, _, page = scanned
    assert page.count("<details class='pair' data-diff=") == 2  # the two near pairs (the exact pair needs none)
    data_block = r"<script type='application/json' id='[^']+'>(.*?)</script>"
    blocks = [json.loads(b) for b in re.findall(data_block, page, re.S)]
    changed = [
        seg
        for rows in blocks
        for row in rows
        if row[0] == "replace"
        for side in (row[1], row[2])
        for _number, text, _quiet in side
        if isinstance(text, list)
        for seg in text
        if seg[1]
    ]
    assert changed, "changed words are marked"
    numbers = [
        number
        for rows in blocks
        for row in rows
        if row[0] != "g"
        for side in (row[1], row[2])
        for number, _text, _quiet in side
    ]
    assert numbers and all(isinstance(n, int) and n >= 1 for n in numbers), "each line with the file's number"
    assert any(SCRIPT_PAYLOAD in str(rows) for rows in blocks), "the hostile text is data, shown as text"
    assert "中文 修改稿.txt" in page
    assert "Problems (1)" in page and "Password-protected" in page


def test_the_workers_render_the_differences_as_the_report_does_here_in_its_language(scanned, tmp_path, chinese):
    """The HTML report's differences are read and compared in the worker pool: the same page, byte for byte, as
    when rendered in this process, the workers' words in the report's language."""
    root, _result, _page = scanned
    with Session(tmp_path / "r.db", workers=1) as session:
        session.scan(ScanOptions(roots=(str(root),), workers=1), Thresholds())
    pages = {}
    for workers in (1, 2):
        with Session(tmp_path / "r.db", workers=workers) as session:
            assert session.workers.pooled is (workers > 1)
            session.open([str(root)], Thresholds())
            pages[workers] = re.sub(r"\d{4}-\d\d-\d\d \d\d:\d\d", "", session.report("html"))
    assert pages[1] == pages[2]
    assert pages[2].count("<details class='pair' data-diff=") == 2 and pages[2].count("差异：保留项 ↔") == 2


def test_past_the_first_groups_the_html_lists_documents_and_numbers_without_differences(scanned, tmp_path, monkeypatch):
    """A report of thousands of groups would be tens of MB of differences: the first MAX_GROUPS_WITH_DIFFS
    (the largest) show theirs, the rest their members and numbers, and the page says so."""
    root, result, _page = scanned
    with Session(tmp_path / "r.db", workers=1) as session:
        session.scan(ScanOptions(roots=(str(root),), workers=1), Thresholds())
        whole = session.report("html")
        monkeypatch.setattr(html_report, "MAX_GROUPS_WITH_DIFFS", 1)
        capped = session.report("html")

    def sections(page: str) -> dict[str, str]:
        return dict(re.findall(r"<details class='group' id='(g\d+)'>(.*?)</div></details>", page, re.S))

    assert whole.count("data-diff=") == 2 and "Differences are shown for the first" not in whole
    assert 0 < len(result.groups) - 1 == len(sections(capped)) - 1
    assert capped.count("data-diff=") < whole.count("data-diff=")
    assert all("data-diff=" not in text for group, text in sections(capped).items() if group != "g1")
    assert f"Differences are shown for the first 1 groups, the largest; the other {len(result.groups) - 1}" in capped
    for group, text in sections(whole).items():  # every member and its numbers still listed
        members = re.findall(r"<td class='path'>(.*?)</td>", text)
        assert members == re.findall(r"<td class='path'>(.*?)</td>", sections(capped)[group])


def test_html_says_so_when_a_file_changed_or_vanished_since_the_scan(scanned):
    root, result, _ = scanned
    victim = root / "中文 修改稿.txt"
    original = victim.read_bytes()
    try:
        victim.write_text("rewritten after the scan")
        docs = {d.path: d for d in result.documents}
        hashes = {d.content_id: b"" for d in result.documents if d.content_id}
        loader = TextLoader(hashes)
        assert "changed since the scan" in loader(docs[str(victim)]).problem
        victim.unlink()
        assert "no longer there" in TextLoader(hashes)(docs[str(victim)]).problem
    finally:
        victim.write_bytes(original)


def test_json_report_round_trips_chinese_and_payloads(scanned):
    _, result, _ = scanned
    report = json.loads(to_json(result, ReportContext()))
    names = {Path(d["path"]).name for d in report["documents"]}
    assert NAME_PAYLOAD in names and "中文 修改稿.txt" in names


def test_csv_neutralises_formula_cells_and_keeps_chinese(scanned):
    _, result, _ = scanned
    text = to_csv(result)
    assert text.startswith("\ufeff")
    rows = list(csv.DictReader(io.StringIO(text.lstrip("\ufeff"))))
    assert len(rows) == 6
    for row in rows:
        for value in row.values():
            assert not value.startswith(("=", "+", "-", "@", "\t", "\r")), value
    assert any("中文 修改稿.txt" in r["path"] for r in rows)
    assert neutralise_cell("=1+1") == "'=1+1"
    assert neutralise_cell("\t=x") == "'\t=x"
    assert neutralise_cell("plain") == "plain"
    assert neutralise_cell(-3) == -3  # numbers stay numbers


def test_no_script_from_document_content_runs_in_a_real_browser(scanned, tmp_path):
    _, _, page = scanned
    chromium = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    assert chromium, "this test needs Chromium: apt-get install -y chromium (.ci/run installs it)"
    # the same payloads, unescaped, prove the browser would run them if they got through
    control = tmp_path / "control.html"
    control.write_text("<html><head><title>clean</title></head><body>" + IMG_PAYLOAD + "</body></html>")
    report = tmp_path / "report.html"
    report.write_text(page, encoding="utf-8")

    def title_after_load(path: Path) -> str:
        dom = subprocess.run(
            [
                chromium,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--no-first-run",
                f"--user-data-dir={tmp_path / 'profile'}",
                "--virtual-time-budget=3000",
                "--dump-dom",
                path.as_uri(),
            ],
            capture_output=True,
            text=True,
            timeout=120,
        ).stdout
        match = re.search(r"<title>(.*?)</title>", dom, re.S)
        return match.group(1) if match else ""

    assert "PWNED" in title_after_load(control)
    title = title_after_load(report)
    assert title.startswith("neardup report") and "PWNED" not in title
    # every section opened (#all): the diff tables are built, the payloads shown as text, nothing run
    dom = subprocess.run(
        [
            chromium,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--no-first-run",
            f"--user-data-dir={tmp_path / 'profile2'}",
            "--virtual-time-budget=3000",
            "--dump-dom",
            report.as_uri() + "#all",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout
    assert "PWNED" not in re.search(r"<title>(.*?)</title>", dom, re.S).group(1)
    assert dom.count('<table class="diff">') == 2 and "<mark>" in dom
    assert "&lt;script&gt;document.title='PWNED-BY-TEXT'&lt;/script&gt;" in dom


def test_a_spreadsheet_program_evaluates_no_formula_from_the_csv(scanned, tmp_path):
    """LibreOffice itself: our CSV opens with its Chinese paths, and a neutralised cell stays text
    where the same cell raw would have been computed."""
    _, result, _ = scanned
    soffice = shutil.which("libreoffice") or shutil.which("soffice")
    assert soffice and shutil.which("pdftotext"), "needs LibreOffice and pdftotext (tests/run.sh installs them)"
    report = tmp_path / "report.csv"
    report.write_text(to_csv(result), encoding="utf-8", newline="")
    control = tmp_path / "control.csv"
    with open(control, "w", newline="", encoding="utf-8-sig") as fh:
        w = csv.writer(fh)
        w.writerow(["raw", "=40+2"])
        w.writerow(["neutralised", neutralise_cell("=40+2")])
        w.writerow(["neutralised", neutralise_cell("@SUM(40,2)")])

    def as_text(path: Path) -> str:
        subprocess.run(
            [
                soffice,
                "--headless",
                f"-env:UserInstallation=file://{tmp_path}/lo",
                "--infilter=CSV:44,34,76,1",
                "--convert-to",
                "pdf",
                "--outdir",
                str(tmp_path),
                str(path),
            ],
            capture_output=True,
            timeout=180,
            check=True,
        )
        return subprocess.run(
            ["pdftotext", "-layout", str(path.with_suffix(".pdf")), "-"], capture_output=True, text=True, check=True
        ).stdout

    rows = as_text(control)
    assert re.search(r"raw\s+42", rows), "the control proves LibreOffice evaluates a raw formula"
    assert "'=40+2" in rows and "'@SUM(40,2)" in rows and "42" not in rows.split("neutralised", 1)[1]
    page = as_text(report)
    assert "中文 修改稿.txt" in page and "=HYPERLINK" in page


def test_the_report_and_the_pair_view_say_the_same_about_a_pair(scanned):
    """One comparison (core.review.compare.compare) behind both: the summary the app shows is the report's."""
    from neardup_gui.core.review.compare import compare, describe

    root, _, page = scanned
    original = (root / "中文 原稿.txt").read_text()
    edited = (root / "中文 修改稿.txt").read_text()
    said = {describe(compare(original, edited)), describe(compare(edited, original))}
    assert any(html.escape(sentence) in page for sentence in said)


def test_a_file_is_read_again_the_way_its_bytes_were_compared(tmp_path):
    """The same bytes saved as .html and as .txt are one content, read once (as the first file's kind);
    shown again (pair view, reports), both files give the text that was compared, not the .txt's tags."""
    root = tmp_path / "docs"
    root.mkdir()
    page = (
        "<html><head><title>Notice</title><style>p { color: red }</style></head><body><p>"
        + english_texts()["MPL-2.0"][:3000]
        + "</p></body></html>"
    )
    (root / "a page.html").write_text(page, encoding="utf-8")
    (root / "b page.txt").write_text(page, encoding="utf-8")
    db = tmp_path / "kinds.db"
    with Store(db) as store:
        scan(store, ScanOptions(roots=(str(root),), workers=1))
        docs = {Path(d.path).name: d for d in store.files.documents()}
        assert docs["a page.html"].content_id == docs["b page.txt"].content_id
        assert (docs["a page.html"].kind, docs["b page.txt"].kind) == ("html", "text")  # the files' own types
        assert {docs["a page.html"].read_as, docs["b page.txt"].read_as} == {"", "html"}  # html, as it was read
        loader = TextLoader(store.contents.hashes([docs["a page.html"].content_id]))
        html_text, txt_text = loader(docs["a page.html"]).text, loader(docs["b page.txt"]).text
    assert html_text is not None and "Mozilla Public License" in html_text and "<p>" not in html_text
    assert txt_text == html_text
