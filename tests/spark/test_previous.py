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
from neardup_gui.spark import boilerplate, job, pairing, result
from neardup_gui.spark.job import JobOptions, run
from neardup_gui.spark.previous import from_row, kept, to_row
from neardup_gui.spark.records import FoundFile
from tests.conftest import licence_paragraphs

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
        # what the next rerun takes: the same whether worked out afresh or brought up to date (but the counts,
        # whose bound grows with what was added)
        for name in (
            "documents",
            "groups",
            "pairs",
            "fingerprints",
            "rerun/verified",
            "rerun/runs",
            "rerun/cores",
            "rerun/words",
        )
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
    # edited, added and touched are read; and page.txt, whose bytes were read as page.html's (the first of them by
    # path, of another kind), in case that file is gone
    assert again.reused == files - 4 and not again.previous_problem
    assert fresh.reused == 0
    described = json.loads((tmp_path / "again" / "job.json").read_text(encoding="utf-8"))
    assert described["previous"] == {
        "folder": str(tmp_path / "first"),
        "reused": files - 4,
        "read_again": 4,
        "problem": "",
        "boilerplate": "updated",  # the counts brought up to date, and the runs of most contents kept
        "runs_found_again": described["previous"]["runs_found_again"],
        "candidates_measured": described["previous"]["candidates_measured"],
    }
    assert _result(tmp_path / "again", spark) == _result(tmp_path / "fresh", spark)
    # one made with other reading settings serves none: every file is read again, and the job says why
    other = run(
        spark,
        JobOptions(
            str(root), str(tmp_path / "other"), Thresholds(), max_file_size=1 << 20, previous=str(tmp_path / "first")
        ),
    )
    assert other.reused == 0 and "size limit" in other.previous_problem and "read again" in other.previous_problem


def _previous(out: Path) -> dict[str, object]:
    return json.loads((out / "job.json").read_text(encoding="utf-8"))["previous"]


def _counts_hold(updated: Path, fresh: Path, spark) -> None:
    """The shingle counts a rerun brought up to date are exact: each shingle both list has the same count, and
    every shingle a fresh count finds in at least the rerun's bound is listed by it."""
    below = json.loads((updated / "job.json").read_text(encoding="utf-8"))["rerun"]["boilerplate"]["below"]
    updated_counts, fresh_counts = (
        {r.shingle: r.contents for r in spark.read.parquet(str(out / "rerun" / "counts")).collect()}
        for out in (updated, fresh)
    )
    assert fresh_counts and all(updated_counts[s] == c for s, c in fresh_counts.items() if s in updated_counts)
    assert all(s in updated_counts for s, c in fresh_counts.items() if c >= below)


def test_a_rerun_measures_only_pairs_with_a_new_text_and_brings_the_boilerplate_up_to_date(
    spark, corpus, tmp_path, monkeypatch
):
    """The whole corpus, whose 56 letters end in one footer (boilerplate, cut from each): a letter edited, one
    added, a document gone, a near-copy added, and the html file gone whose bytes page.txt was read as (with
    the texts numbered and paired in shuffles, as past the driver's bounds, against a fresh run on the driver).
    Then letters added, so that the frequent shingles change; then so many that a shingle the counts do not
    list could reach the bar, and other thresholds."""
    root = tmp_path / "uploads"
    shutil.copytree(corpus, root)
    run(spark, JobOptions(str(root), str(tmp_path / "first"), Thresholds()))
    letters = sorted((root / "letters").glob("letter*.txt"))
    footer = letters[1].read_text(encoding="utf-8").split("\n\n", 1)[1]
    letters[0].write_text(letters[0].read_text(encoding="utf-8").replace("the", "a", 3), encoding="utf-8")
    (root / "letters" / "new.txt").write_text(f"{(root / 'en-020.txt').read_text(encoding='utf-8')}\n\n{footer}")
    (root / "en-030.txt").unlink()
    (root / "page.html").unlink()
    text = (root / "en-040.txt").read_text(encoding="utf-8")
    (root / "en-040~new.txt").write_text(text.replace("the", "a", 2), encoding="utf-8")

    with monkeypatch.context() as shuffled:  # as past the driver's bounds
        shuffled.setattr(pairing, "ON_DRIVER_TEXTS", 0)
        shuffled.setattr(job, "ON_DRIVER_COPIES", 0)
        shuffled.setattr(boilerplate, "ON_DRIVER_CUTS", 0)
        shuffled.setattr(result, "ON_DRIVER_CORES", 0)
        again = run(
            spark, JobOptions(str(root), str(tmp_path / "again"), Thresholds(), previous=str(tmp_path / "first"))
        )
    fresh = run(spark, JobOptions(str(root), str(tmp_path / "fresh"), Thresholds()))  # on the driver: the same
    kept = _previous(tmp_path / "again")
    assert kept["boilerplate"] == "updated"
    # the letter edited, the letter added, the near-copy added, and page.txt (its bytes read as text now)
    assert kept["runs_found_again"] == 4
    assert 0 < kept["candidates_measured"] < again.candidates == fresh.candidates  # those with a new text
    found = json.loads((tmp_path / "fresh" / "job.json").read_text(encoding="utf-8"))["boilerplate"]
    assert found["passages"] >= 1  # the footer: the cores are at stake
    assert _result(tmp_path / "again", spark) == _result(tmp_path / "fresh", spark)
    _counts_hold(tmp_path / "again", tmp_path / "fresh", spark)

    bodies = [p for name in ("Apache-2.0", "MPL-2.0", "GFDL-1.3") for p in licence_paragraphs(name, 30, 60)]

    def letters_added(first: int, count: int) -> None:
        for n, body in enumerate(bodies[first : first + count]):  # new texts
            (root / "letters" / f"later{first + n:02d}.txt").write_text(f"Later.\n{body}\n\n{footer}", encoding="utf-8")

    letters_added(0, 15)  # the bar moves up: the frequent shingles are others, and the runs of those holding them
    more = run(spark, JobOptions(str(root), str(tmp_path / "more"), Thresholds(), previous=str(tmp_path / "again")))
    kept = _previous(tmp_path / "more")
    assert kept["reused"] == more.documents - 15  # a result made by a rerun serves the next one
    assert kept["boilerplate"] == "updated" and 15 < kept["runs_found_again"] < more.contents
    assert 0 < kept["candidates_measured"] < more.candidates
    run(spark, JobOptions(str(root), str(tmp_path / "more-fresh"), Thresholds()))
    assert _result(tmp_path / "more", spark) == _result(tmp_path / "more-fresh", spark)
    _counts_hold(tmp_path / "more", tmp_path / "more-fresh", spark)

    letters_added(15, 45)  # more than the counts' margin: counted afresh; and other thresholds, so no verdict holds
    looser = Thresholds(jaccard=0.7)
    other = run(spark, JobOptions(str(root), str(tmp_path / "looser"), looser, previous=str(tmp_path / "more")))
    assert _previous(tmp_path / "looser")["boilerplate"] == "afresh"
    assert _previous(tmp_path / "looser")["candidates_measured"] == other.candidates
    run(spark, JobOptions(str(root), str(tmp_path / "looser-fresh"), looser))
    assert _result(tmp_path / "looser", spark) == _result(tmp_path / "looser-fresh", spark)


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


def test_earlier_verdicts_hold_only_under_the_same_thresholds_and_rules(spark, tmp_path):
    from neardup_gui.spark.pairing import VERDICTS
    from neardup_gui.spark.previous import TEXTS, TEXTS_SCHEMA, VERIFIED_SCHEMA, Previous
    from neardup_gui.spark.records import thresholds_json

    spark.createDataFrame([(b"\x01" * 16, b"\x02" * 16)], TEXTS_SCHEMA).write.parquet(str(tmp_path / TEXTS))
    verified = spark.createDataFrame([], VERIFIED_SCHEMA)

    def earlier(thresholds: Thresholds, verdicts: int) -> Previous:
        job = {"thresholds": thresholds_json(thresholds), "rerun": {"verdicts": verdicts}}
        return Previous(str(tmp_path), None, job=job, verified=verified)

    held = earlier(Thresholds(), VERDICTS).new_texts(Thresholds(), {b"\x01" * 16: b"\x02" * 16, b"\x03" * 16: b"x"})
    assert held == {b"\x03" * 16}  # a text compared alike keeps its verdicts; a new one is measured
    assert earlier(Thresholds(), VERDICTS).new_texts(Thresholds(), {b"\x01" * 16: b"other"}) == {b"\x01" * 16}
    assert earlier(Thresholds(jaccard=0.7), VERDICTS).compared(Thresholds()) is None
    assert earlier(Thresholds(ignore_boilerplate=False), VERDICTS).compared(Thresholds()) is None
    assert earlier(Thresholds(), VERDICTS + 1).compared(Thresholds()) is None  # judged by other rules
