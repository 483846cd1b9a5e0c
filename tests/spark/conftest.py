"""A real Spark in local mode (local[2]) for the Spark job's tests, and a corpus of a few hundred real
documents with planted near-copies (English licences, Chinese statutes), boilerplate, a chain,
short texts, other encodings and formats, and files that cannot be compared."""

from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path

import pytest

from neardup_gui.spark.cli import LOCAL_JAVA_OPTIONS
from tests.conftest import (
    chinese_texts,
    licence_paragraphs,
    plant_edits,
    write_drafts,
    write_footed_letters,
    write_pdf,
)

ENGLISH_LICENCES = ("GPL-2", "Apache-2.0", "LGPL-2.1", "MPL-2.0", "GFDL-1.3", "Artistic")
TITLES = (
    "Annual report of the board for 2024",
    "Annual report of the board for 2025",
    "Minutes of the spring meeting",
    "Minutes of the autumn meeting",
    "河流治理年度报告",
    "河流治理年度总结",
)


@pytest.fixture(scope="session")
def spark():
    """One Spark session for every test: local[2], no UI, few shuffle partitions."""
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    session = (
        SparkSession.builder.master("local[2]")
        .appName("neardup-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.driver.memory", "1g")
        .config("spark.driver.defaultJavaOptions", LOCAL_JAVA_OPTIONS)  # as `neardup spark scan` runs locally
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def _articles(text: str) -> list[str]:
    """A Chinese statute cut into pieces of a few articles each (第…条)."""
    parts = [p.strip() for p in re.split(r"(?=第[一二三四五六七八九十百]+条)", text) if p.strip()]
    return ["\n".join(parts[n : n + 3]) for n in range(0, len(parts), 3)]


def write_corpus(root: Path) -> Path:
    """About 400 files: distinct real passages, near-copies at edit rates either side of T 0.8, exact
    copies (the same bytes, and the same text in GB18030 and as a PDF), 31 letters ending in one footer
    (boilerplate), a chain of drafts, short titles, and files that cannot be compared."""
    root.mkdir(parents=True, exist_ok=True)
    english = [p for name in ENGLISH_LICENCES for p in licence_paragraphs(name, 40, 220)]
    chinese = [a for text in chinese_texts().values() for a in _articles(text) if len(a) > 60]
    docs = {f"en-{n:03d}.txt": p for n, p in enumerate(english)} | {f"zh-{n:03d}.txt": a for n, a in enumerate(chinese)}
    rates = (0.01, 0.03, 0.05, 0.08, 0.12)
    for n, (name, text) in enumerate(sorted(docs.items())):
        (root / name).write_text(text, encoding="utf-8")
        stem = name[:-4]
        if n % 3 == 0:
            (root / f"{stem}~{n % 5}.txt").write_text(plant_edits(text, rates[n % 5], seed=n), encoding="utf-8")
        if n % 11 == 0:
            (root / f"{stem}~more.txt").write_text(plant_edits(text, rates[(n + 2) % 5], seed=n + 1), encoding="utf-8")
        if n % 13 == 0:
            shutil.copyfile(root / name, root / f"{stem}~copy.txt")
    (root / "zh-000~gb.txt").write_bytes(docs["zh-000.txt"].encode("gb18030"))
    write_pdf(root / "en-004~pdf.pdf", docs["en-004.txt"])
    write_pdf(root / "zh-001~pdf.pdf", docs["zh-001.txt"])
    (root / "letters").mkdir()
    write_footed_letters(root / "letters")  # 31 letters ending in one footer; 25 more here: over 10 % of the corpus
    footer = (root / "letters" / "letter00.txt").read_text(encoding="utf-8").split("\n\n", 1)[1]
    for n, body in enumerate(licence_paragraphs("GPL-3", 30, 50)[50:75]):
        (root / "letters" / f"more{n:02d}.txt").write_text(f"{body}\n\n{footer}", encoding="utf-8")
    write_drafts(root / "drafts", 6)
    for n, title in enumerate(TITLES):
        (root / f"title-{n}.txt").write_text(title, encoding="utf-8")
    (root / "_notes.txt").write_text(docs["en-010.txt"], encoding="utf-8")
    (root / ".hidden.txt").write_text(docs["en-011.txt"], encoding="utf-8")
    page = f"<html><body><h1>Notice</h1><p>{docs['en-012.txt']}</p></body></html>".encode()
    (root / "page.html").write_bytes(page)  # the same bytes under two kinds: read once, as the first by path
    (root / "page.txt").write_bytes(page)
    (root / os.fsdecode(b"en-013~name-\xff.txt")).write_bytes((root / "en-013.txt").read_bytes())  # not UTF-8
    (root / "empty.txt").write_bytes(b"")
    (root / "punctuation.txt").write_text("... --- !!! ???", encoding="utf-8")
    (root / "binary.txt").write_bytes(bytes(range(256)) * 40)
    (root / "broken.pdf").write_bytes((root / "en-004~pdf.pdf").read_bytes()[:600])
    for n, path in enumerate(sorted(p for p in root.rglob("*") if p.is_file())):
        os.utime(path, ns=(1_700_000_000_000_000_000 + n * 1_000_000_000,) * 2)  # whole seconds, in name order
    return root


@pytest.fixture(scope="session")
def corpus(tmp_path_factory) -> Path:
    return write_corpus(tmp_path_factory.mktemp("spark-corpus") / "uploads")


@pytest.fixture(scope="session")
def corpus_result(spark, corpus, tmp_path_factory) -> Path:
    """The job's result folder for the corpus at the default thresholds: read, never written, by the
    tests that take it. Written through a file:// URI, as to a cluster's file system (hdfs://, s3a://)."""
    from neardup_gui.core.models import Thresholds
    from neardup_gui.spark.job import JobOptions, run

    out = tmp_path_factory.mktemp("spark-result") / "result"
    run(spark, JobOptions(str(corpus), out.as_uri(), Thresholds()))
    return out
