"""Scans read by OCR (the distribution's Tesseract, which tests/run.sh installs): a PDF of page images and a
photographed page, made here from known text with scanner grain, group with their originals; what OCR
read is kept page by page, so a cancelled scan goes on from the next page, and the pair view and the
report read the text from the database."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from neardup_gui.core.fingerprint import ocr
from neardup_gui.core.fingerprint.scheme import raw_hash
from neardup_gui.core.jobs import CancelToken, JobCancelled
from neardup_gui.core.models import ScanOptions, Status, Thresholds
from neardup_gui.core.session import Session
from neardup_gui.core.store.store import Store
from tests.conftest import chinese_texts, english_texts, run_cli, scan_of, write_image_pdf, write_pdf, write_png

pytestmark = pytest.mark.e2e  # scans with Tesseract, through the worker pool and the command line


@pytest.fixture(scope="module")
def scans(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Originals and their scans: a BSD licence as a one-page image PDF, a Chinese article as a photo (PNG),
    the GPL as a three-page image PDF; grain of a standard deviation of 4 grey levels, dust."""
    root = tmp_path_factory.mktemp("scans")
    made = root / "made"
    made.mkdir()
    docs = root / "docs"
    docs.mkdir()
    bsd = english_texts()["BSD"]
    zh = list(chinese_texts().values())[1][:900]
    gpl = "\n".join(english_texts()["GPL-2"].splitlines()[:150])
    (docs / "bsd.txt").write_text(bsd)
    (docs / "条例.txt").write_text(zh)
    (docs / "gpl.txt").write_text(gpl)
    write_image_pdf(docs / "bsd-scan.pdf", scan_of(write_pdf(made / "bsd.pdf", bsd).read_bytes(), noise=4))
    pages = scan_of(write_pdf(made / "zh.pdf", zh).read_bytes(), noise=4, seed=1)
    assert len(pages) == 1
    write_png(docs / "条例-照片.png", pages[0])
    gpl_pages = scan_of(write_pdf(made / "gpl.pdf", gpl).read_bytes(), noise=4, seed=2)
    assert len(gpl_pages) == 3
    write_image_pdf(docs / "gpl-scan.pdf", gpl_pages)
    return docs


def names(view) -> list[set[str]]:
    docs = view.documents
    return [{Path(docs[m.document_id].path).name for m in g.members} for g in view.result.groups]


def test_scans_are_read_by_ocr_only_when_asked_and_then_group_with_their_originals(scans, tmp_path):
    with Session(tmp_path / "db.sqlite") as session:
        view = session.scan(ScanOptions(roots=(str(scans),), workers=2), Thresholds())
        paths = {Path(d.path).name: d for d in view.result.documents}
        assert "条例-照片.png" not in paths  # images wait for OCR
        assert paths["bsd-scan.pdf"].status is Status.EMPTY and "no text layer" in paths["bsd-scan.pdf"].message
        assert not any("bsd-scan.pdf" in g for g in names(view))

        events: list[tuple[str, int, int | None]] = []
        # T 0.7: OCR misreads a few of every hundred Han characters, and each costs three shingles (this
        # photo: J 0.79 at chi_sim+eng; python -m tests.bench.ocr measures it over noise and resolution)
        view = session.scan(
            ScanOptions(roots=(str(scans),), workers=2, ocr="chi_sim+eng"),
            Thresholds(jaccard=0.7),
            progress=lambda e: events.append((e.phase, e.done, e.total)),
        )
        assert ("ocr", 5, 5) in events  # five pages: 1 + 1 + 3, each a task, counted as they come
        groups = names(view)
        assert {"bsd.txt", "bsd-scan.pdf"} in groups and {"条例.txt", "条例-照片.png"} in groups, groups
        assert {"gpl.txt", "gpl-scan.pdf"} in groups, groups
        docs = {Path(d.path).name: d for d in view.result.documents}
        for name in ("bsd-scan.pdf", "条例-照片.png", "gpl-scan.pdf"):
            assert docs[name].status is Status.OK and "Text from OCR" in docs[name].message
        # the pair view reads what OCR read from the database (OCR is not run again)
        loaded = view.text_loader()(docs["gpl-scan.pdf"])
        assert loaded.text is not None and "GNU GENERAL PUBLIC LICENSE" in loaded.text
        assert loaded.text.count("\f") == 2  # three pages

        # a rescan reads nothing again
        events.clear()
        session.scan(
            ScanOptions(roots=(str(scans),), workers=2, ocr="chi_sim+eng"),
            Thresholds(),
            progress=lambda e: events.append((e.phase, e.done, e.total)),
        )
        assert not any(phase == "ocr" for phase, _, _ in events)


def test_a_cancelled_ocr_goes_on_from_the_next_page_and_the_report_has_the_passages(scans, tmp_path):
    db = tmp_path / "db.sqlite"
    only_gpl = ScanOptions(roots=(str(scans / "gpl.txt"), str(scans / "gpl-scan.pdf")), workers=1, ocr="chi_sim+eng")
    cancel = CancelToken()

    def stop_after_a_page(event) -> None:
        if event.phase == "ocr" and event.done >= 1:
            cancel.cancel()

    with Session(db) as session, pytest.raises(JobCancelled):
        session.scan(only_gpl, Thresholds(), progress=stop_after_a_page, cancel=cancel)
    digest = raw_hash((scans / "gpl-scan.pdf").read_bytes())
    with Store(db) as store:
        kept = store.ocr.pages(digest, "chi_sim+eng")
        assert 1 <= len(kept) < 3  # the pages read before the cancel are kept
        assert store.files.document_by_path(str(scans / "gpl-scan.pdf")).status is Status.EMPTY  # not yet read whole
    totals: list[int | None] = []
    with Session(db) as session:
        view = session.scan(
            only_gpl, Thresholds(), progress=lambda e: totals.append(e.total) if e.phase == "ocr" else None
        )
        assert totals[0] == 3 - len(kept)  # only the pages not read yet
        assert {"gpl.txt", "gpl-scan.pdf"} in names(view)
        report = json.loads(session.report("json"))
        assert "Text from OCR (Tesseract, chi_sim+eng)" in session.report("html")  # under the scan's name
    near = [p for p in report["pairs"] if p["matched_by"] != "exact"]
    assert near and near[0]["shared_passages"], "the report reads the scan's text from the database"


def test_the_command_line_reads_scans_with_ocr_and_says_when_tesseract_is_missing(scans, tmp_path):
    db = str(tmp_path / "n.db")
    proc = run_cli(
        "scan",
        str(scans / "bsd.txt"),
        str(scans / "bsd-scan.pdf"),
        "--db",
        db,
        "--ocr",
        "--ocr-languages",
        "eng",
        "--format",
        "json",
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert any(len(g["members"]) == 2 for g in report["groups"])
    scanned = next(d for d in report["documents"] if d["path"].endswith("bsd-scan.pdf"))
    assert scanned["status"] == "ok" and "Text from OCR (Tesseract, eng)" in scanned["message"]

    no_tesseract = dict(os.environ, PATH=str(tmp_path))  # a PATH without tesseract
    proc = run_cli("scan", str(scans), "--db", db, "--ocr", env=no_tesseract)
    assert proc.returncode == 2 and "tesseract-ocr tesseract-ocr-chi-sim tesseract-ocr-eng" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert ocr.unavailable("eng+fra") is not None and "tesseract-ocr-fra" in ocr.unavailable("eng+fra")
    assert ocr.unavailable("chi_sim+eng") is None


def test_what_is_no_image_is_never_handed_to_tesseract_and_other_languages_read_again(scans, tmp_path):
    """Tesseract takes bytes it cannot decode for a list of file names and reads those files: a text file
    named .jpg that names another scan must not get that scan's text."""
    root = tmp_path / "odd"
    root.mkdir()
    (root / "notes.jpg").write_text(f"{scans / '条例-照片.png'}\n")
    (root / "empty.png").write_bytes(b"")
    (root / "zero-pages.pdf").write_bytes(b"")
    db = tmp_path / "db.sqlite"
    with Session(db) as session:
        view = session.scan(
            ScanOptions(roots=(str(root), str(scans / "条例-照片.png")), workers=1, ocr="eng"), Thresholds()
        )
        docs = {Path(d.path).name: d for d in view.result.documents}
        assert docs["notes.jpg"].status is Status.UNSUPPORTED and "not a PNG, JPEG" in docs["notes.jpg"].message
        assert docs["empty.png"].status is Status.EMPTY and docs["empty.png"].message == "The file is empty."
        assert "Tesseract, eng" in docs["条例-照片.png"].message
        # the same scans, another language: read again in it
        view = session.scan(
            ScanOptions(roots=(str(root), str(scans / "条例-照片.png")), workers=1, ocr="chi_sim"), Thresholds()
        )
        docs = {Path(d.path).name: d for d in view.result.documents}
        assert "Tesseract, chi_sim)" in docs["条例-照片.png"].message
        assert "条例" in view.text_loader()(docs["条例-照片.png"]).text


def test_a_page_tesseract_cannot_finish_is_read_again_with_a_longer_limit_and_leaves_no_process(scans, tmp_path):
    """A stand-in tesseract that sleeps: the page runs out of time, Tesseract is stopped with its worker,
    and the scan is marked to be read again; the real one with a longer limit reads it."""
    fake = tmp_path / "bin"
    fake.mkdir()
    marker = f"neardup-slow-tesseract-{os.getpid()}"
    (fake / "tesseract").write_text(
        "#!/bin/bash\n"
        'if [ "$1" = "--list-langs" ]; then printf \'List of available languages (1):\\neng\\n\'; exit 0; fi\n'
        f"exec -a {marker} sleep 60\n"
    )
    (fake / "tesseract").chmod(0o755)
    db = str(tmp_path / "n.db")
    slow = dict(os.environ, PATH=f"{fake}:{os.environ['PATH']}")
    proc = run_cli(
        "scan",
        str(scans / "bsd-scan.pdf"),
        "--db",
        db,
        "--ocr",
        "--ocr-languages",
        "eng",
        "--timeout",
        "2",
        "--format",
        "json",
        env=slow,
    )
    assert proc.returncode == 0, proc.stderr
    scanned = json.loads(proc.stdout)["documents"][0]
    assert scanned["status"] == "error" and "longer than" in scanned["message"], scanned
    left = subprocess.run(["pgrep", "-f", marker], capture_output=True, text=True).stdout.split()
    assert left == [], "a stopped page's Tesseract must not run on"
    proc = run_cli(
        "scan", str(scans / "bsd-scan.pdf"), "--db", db, "--ocr", "--ocr-languages", "eng", "--format", "json"
    )  # the real tesseract, the default limit (longer): read again
    scanned = json.loads(proc.stdout)["documents"][0]
    assert scanned["status"] == "ok" and "Text from OCR" in scanned["message"], scanned
