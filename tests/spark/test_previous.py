"""A rerun of the Spark job (``--previous DIR``): the files found unchanged are not read again, and the result is
the one a fresh run gives, byte for byte."""

from __future__ import annotations

import gzip
import json
import os
import shutil
from pathlib import Path

import pytest

from neardup_gui.core.models import Fingerprint, Status, Thresholds
from neardup_gui.spark.job import JobOptions, run
from neardup_gui.spark.previous import from_row, kept, to_row
from neardup_gui.spark.records import FoundFile

pytestmark = pytest.mark.e2e  # a real Spark (local[2], a JVM)

# what the rerun is shown on: near-copies, exact copies, a PDF, GB18030, a name that is not UTF-8, files that
# cannot be compared, and a letter of the boilerplate family
CHOSEN = ("en-00", "en-01", "zh-00", "empty.txt", "broken.pdf", "binary.txt", "page.", "title-")


def _folder(corpus: Path, root: Path) -> Path:
    root.mkdir()
    for path in sorted(corpus.iterdir()):
        if path.is_file() and os.fsencode(path.name).startswith(tuple(c.encode() for c in CHOSEN)):
            shutil.copy2(path, root / path.name)  # with its modification time
    return root


def _result(out: Path, spark) -> dict[str, object]:
    """What a result says, but for the times it took: the reports, the review records, the tables."""
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    report.pop("generated")
    report["summary"]["scan"].pop("spark_seconds")
    html = (out / "report.html").read_text(encoding="utf-8")
    records = []
    for part in sorted((out / "review").glob("part-*")):
        with gzip.open(part, "rt") as lines:
            records.extend(lines)
    tables = {
        name: sorted(map(str, spark.read.parquet(str(out / name)).collect()))
        for name in ("documents", "groups", "pairs", "fingerprints")
    }
    return {
        "report": report,
        "csv": (out / "report.csv").read_text(encoding="utf-8"),
        "html": html[html.index("</h1>") + 60 :],  # after the time it was made
        "records": sorted(records),
        **tables,
    }


def test_a_rerun_reads_only_what_changed_and_gives_a_fresh_runs_answer(spark, corpus, tmp_path):
    root = _folder(corpus, tmp_path / "uploads")
    first = run(spark, JobOptions(str(root), str(tmp_path / "first"), Thresholds()))
    assert json.loads((tmp_path / "first" / "job.json").read_text(encoding="utf-8"))["fingerprints"] == "fingerprints"
    # a week later: one file edited, one added (a copy of another under a new name), one gone, one touched
    edited, touched, gone = root / "en-001.txt", root / "zh-002.txt", root / "en-012.txt"
    edited.write_text(edited.read_text(encoding="utf-8") + "\nA sentence added a week later.\n", encoding="utf-8")
    shutil.copyfile(root / "en-003.txt", root / "en-003 (copy).txt")
    gone.unlink()
    os.utime(touched)
    files = sum(1 for p in root.iterdir())
    again = run(spark, JobOptions(str(root), str(tmp_path / "again"), Thresholds(), previous=str(tmp_path / "first")))
    fresh = run(spark, JobOptions(str(root), str(tmp_path / "fresh"), Thresholds()))
    assert first.documents - 1 + 1 == again.documents == fresh.documents == files
    assert again.reused == files - 3 and not again.previous_problem  # edited, added and touched are read
    assert fresh.reused == 0
    described = json.loads((tmp_path / "again" / "job.json").read_text(encoding="utf-8"))
    assert described["previous"] == {
        "folder": str(tmp_path / "first"),
        "reused": files - 3,
        "read_again": 3,
        "problem": "",
    }
    assert _result(tmp_path / "again", spark) == _result(tmp_path / "fresh", spark)
    # a result made by a rerun serves the next one
    third = run(spark, JobOptions(str(root), str(tmp_path / "third"), Thresholds(), previous=str(tmp_path / "again")))
    assert third.reused == files
    # one made with other reading settings serves none: every file is read again, and the job says why
    other = run(
        spark,
        JobOptions(
            str(root), str(tmp_path / "other"), Thresholds(), max_file_size=1 << 20, previous=str(tmp_path / "first")
        ),
    )
    assert other.reused == 0 and "size limit" in other.previous_problem and "read again" in other.previous_problem


def test_a_folder_that_is_no_result_is_refused_before_anything_is_written(spark, tmp_path):
    (tmp_path / "nothing").mkdir()
    (tmp_path / "uploads").mkdir()
    with pytest.raises(ValueError, match="not a result of neardup spark scan"):
        run(
            spark,
            JobOptions(
                str(tmp_path / "uploads"), str(tmp_path / "out"), Thresholds(), previous=str(tmp_path / "nothing")
            ),
        )
    assert not (tmp_path / "out").exists()


def test_a_kept_fingerprint_comes_back_as_it_was_written(spark):
    """Every field through the table, a path that is not UTF-8 included; a failure that may not happen again
    is not kept."""
    fp = Fingerprint(
        b"\x01" * 16,
        "pdf",
        Status.OK,
        "text from OCR",
        "utf-8",
        3,
        1234,
        b"\x02" * 16,
        (1 << 64) - 5,
        b"\x03" * 512,
        7,
        b"\x04" * 28,
        True,
        b"\x05" * 8,
        b"\x06" * 40,
        "licence 0.5",
    )
    found = FoundFile(os.fsdecode(b"/u/name-\xff.pdf"), 99, 1_700_000_000_123_456_789, "pdf", fp)
    from neardup_gui.spark.previous import SCHEMA

    [row] = spark.createDataFrame([to_row(found)], SCHEMA).collect()
    assert from_row(row) == found
    assert kept(found) and not kept(
        FoundFile("/u/a.pdf", 1, 1, "pdf", Fingerprint(b"\x01", "pdf", Status.ERROR, transient=120.0))
    )
