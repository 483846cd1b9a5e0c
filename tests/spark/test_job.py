"""The Spark job as a user runs it: its inputs (a folder, a URI Spark reads, a table of texts), skewed
buckets, the connected components, the command line and spark-submit, and the result loaded into a
database the app reviews (import-spark)."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from neardup_gui.core.match.unionfind import UnionFind
from neardup_gui.core.models import ScanOptions, Status, Thresholds
from neardup_gui.core.session import Session
from neardup_gui.spark import keys, pairing
from neardup_gui.spark.components import ComponentsError, connected_components
from neardup_gui.spark.job import JobOptions, run
from tests.conftest import (
    REPO,
    english_texts,
    plant_edits,
    run_cli,
    scan_of,
    write_image_pdf,
    write_pdf,
    write_png,
)

pytestmark = pytest.mark.e2e  # a real Spark (local[2], a JVM), spark-submit and scans through the worker pool


def _groups(report: dict, strip: str = "") -> list[tuple[str, list[str]]]:
    """Each group of a JSON report as (representative's path, member paths in order)."""
    path_of = {
        d["id"]: d["path"][len(strip) :] if strip and d["path"].startswith(strip) else d["path"]
        for d in report["documents"]
    }
    return [
        (path_of[g["representative"]], [m["path"][len(strip) :] if strip else m["path"] for m in g["members"]])
        for g in report["groups"]
    ]


def _member_sets(report: dict) -> set[frozenset[str]]:
    return {frozenset(Path(m["path"]).name for m in g["members"]) for g in report["groups"]}


def test_connected_components_of_a_long_chain_and_a_random_graph(spark):
    """A path of 3,000 nodes (the worst case for label propagation) and a random sparse graph: the
    labels are the smallest node of each component, as union-find says, whether joined in distributed
    rounds or on the driver; too few rounds fail loudly."""
    rng = random.Random(1)
    chain = [(n, n + 1) for n in range(3000)]
    rng.shuffle(chain)
    sparse = [(rng.randrange(3001, 9000), rng.randrange(3001, 9000)) for _ in range(4000)]
    edges = chain + sparse
    uf = UnionFind(9000)
    for a, b in edges:
        uf.union(a, b)
    expected = uf.labels()
    nodes = {n for e in edges for n in e}
    rdd = spark.sparkContext.parallelize(edges, 4)
    for on_driver in (0, len(edges)):
        labels = connected_components(rdd, on_driver=on_driver).collect()
        assert len(labels) == len({n for a, b in edges if a != b for n in (a, b)}), on_driver  # each node once
        labelled = dict(labels)
        assert {n: labelled.get(n, n) for n in nodes} == {n: int(expected[n]) for n in nodes}, on_driver
    assert len(set(labelled.values())) > 100
    assert connected_components(spark.sparkContext.parallelize([(1, 1)], 2)).collect() == []  # loops only
    with pytest.raises(ComponentsError):
        connected_components(spark.sparkContext.parallelize(chain, 4), on_driver=0, max_rounds=2)


def test_a_table_of_texts_and_a_uri_give_the_groups_of_the_folder(spark, corpus, corpus_result, tmp_path):
    """The same documents as a JSON-lines table of (path, text), as a Parquet table, and read by Spark
    itself from a file:// URI: the groups of the folder's text files (a URI's listing leaves out what
    Hadoop's does)."""
    from_folder = json.loads((corpus_result / "report.json").read_text(encoding="utf-8"))
    texts = sorted(p for p in corpus.rglob("*.txt") if not p.name.startswith((".", "_")))
    rows = []
    for path in texts:
        try:
            str(path).encode("utf-8")
            rows.append({"path": str(path), "text": path.read_bytes().decode("utf-8")})
        except UnicodeError:
            continue  # GB18030 and binary files, and a name that is not UTF-8: a table holds text
    table = tmp_path / "texts.jsonl"
    odd = [{"path": None, "text": "a row without a path"}, {"path": rows[0]["path"], "text": "the same path again"}]
    table.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows + odd), encoding="utf-8")
    spark.createDataFrame(rows).write.parquet(str(tmp_path / "texts.parquet"))
    in_table = {str(p) for p in texts} & {r["path"] for r in rows}
    expected = {g & {Path(p).name for p in in_table} for g in _member_sets(from_folder)}
    expected = {g for g in expected if len(g) > 1}
    for source in (table, tmp_path / "texts.parquet"):
        out = tmp_path / f"from-{source.suffix[1:]}"
        summary = run(spark, JobOptions(str(source), str(out), Thresholds()))
        report = json.loads((out / "report.json").read_text(encoding="utf-8"))
        assert summary.documents == len(rows)
        assert _member_sets(report) == expected, source
        described = json.loads((out / "job.json").read_text(encoding="utf-8"))
        assert described["source_kind"] == "table"
        dropped = (described["table_rows_without_path"], described["table_repeated_paths"])
        assert dropped == ((1, 1) if source == table else (0, 0))
    # a table loaded into the app (a table names no folder: --map says where its files are) opens on its
    # documents' folder
    done = run_cli(
        "import-spark", str(tmp_path / "from-jsonl"), "--db", str(tmp_path / "table.db"), "--map", f"{corpus}={corpus}"
    )
    assert done.returncode == 0, done.stderr
    with Session(tmp_path / "table.db") as session:
        assert session.last_scan_roots() == (str(corpus),)
        view = session.open((), Thresholds())
        # the job's components, which the app shows as groups of mutual duplicates: as many or more
        assert view is not None and len(view.result.groups) >= len(expected)
        grouped = {Path(view.documents[d].path).name for d in view.result.grouped}
        assert grouped == set().union(*expected)
    # a column of bytes is no text: each row says so, and the job goes on
    spark.createDataFrame([("/t/a.txt", bytearray(b"abc"))], "path string, text binary").write.parquet(
        str(tmp_path / "bytes.parquet")
    )
    run(spark, JobOptions(str(tmp_path / "bytes.parquet"), str(tmp_path / "from-bytes"), Thresholds()))
    [doc] = json.loads((tmp_path / "from-bytes" / "report.json").read_text(encoding="utf-8"))["documents"]
    assert doc["status"] == "error" and "not text" in doc["message"]
    uri_out = tmp_path / "from-uri"
    run(spark, JobOptions(corpus.as_uri(), str(uri_out), Thresholds()))
    from_uri = json.loads((uri_out / "report.json").read_text(encoding="utf-8"))
    # Hadoop's listing leaves out names starting with '_', empty files and names that are not UTF-8
    left_out = {"_notes.txt", "empty.txt", r"en-013~name-\xff.txt"}
    names = {Path(d["path"]).name for d in from_uri["documents"]}
    assert {Path(d["path"]).name for d in from_folder["documents"]} - names == left_out
    assert all(d["path"].startswith("file:") for d in from_uri["documents"])
    assert {g - left_out for g in _member_sets(from_folder)} - {frozenset({"en-010.txt"})} == _member_sets(from_uri)
    # files over the size limit are listed, not read
    sized = tmp_path / "sized"
    sized.mkdir()
    for path in sorted(corpus.glob("en-00*.txt")):
        shutil.copy2(path, sized / path.name)
    limit = sorted(p.stat().st_size for p in sized.iterdir())[len(list(sized.iterdir())) // 2]
    capped = run(spark, JobOptions(sized.as_uri(), str(tmp_path / "capped"), Thresholds(), max_file_size=limit))
    documents = json.loads((tmp_path / "capped" / "report.json").read_text(encoding="utf-8"))["documents"]
    assert capped.documents == len(documents) == len(list(sized.iterdir()))
    assert {d["status"] for d in documents} == {"ok", "too_large"}
    for doc in documents:
        assert (doc["status"] == "too_large") == (doc["size"] > limit), doc


def test_no_row_of_a_table_vanishes(spark, tmp_path):
    """A text longer than the JSON parser's default 20 M characters is a document (or, past the size
    limit, a problem saying so), a line that is not JSON is counted, not taken for a row without a path, and
    a path given twice, once without a text, keeps its text."""
    texts = english_texts()
    long_text = " ".join([texts["GPL-2"]] * (21_000_000 // len(texts["GPL-2"]) + 1))
    rows = [
        {"path": "/c/a.txt", "text": texts["MPL-2.0"]},
        {"path": "/c/b.txt", "text": plant_edits(texts["MPL-2.0"], 0.01, seed=1)},
        {"path": "/c/long.txt", "text": long_text},
        {"path": "/c/z.txt", "text": None},
        {"path": "/c/z.txt", "text": "Zoning notice: " + texts["BSD"]},
    ]
    table = tmp_path / "texts.jsonl"
    table.write_text(
        "".join(json.dumps(r) + "\n" for r in rows) + '{"path": "/c/cut.txt", "text": "cut sh\n', encoding="utf-8"
    )
    for limit, status in ((256 << 20, "ok"), (20 << 20, "too_large")):
        out = tmp_path / f"out-{limit}"
        summary = run(spark, JobOptions(str(table), str(out), Thresholds(), max_file_size=limit))
        documents = {d["path"]: d for d in json.loads((out / "report.json").read_text(encoding="utf-8"))["documents"]}
        assert sorted(documents) == ["/c/a.txt", "/c/b.txt", "/c/long.txt", "/c/z.txt"]
        assert documents["/c/long.txt"]["status"] == status and documents["/c/long.txt"]["size"] > 21_000_000
        assert documents["/c/z.txt"]["status"] == "ok"  # its text, not the row without one
        described = json.loads((out / "job.json").read_text(encoding="utf-8"))
        assert (described["table_rows_unreadable"], described["table_rows_without_path"]) == (1, 0)
        assert described["table_repeated_paths"] == 1
        assert summary.rows_left_out == 1


def test_a_skewed_bucket_is_split_and_the_answer_does_not_change(spark, tmp_path, monkeypatch):
    """A family of 150 near-copies of one text fills every band bucket it falls in: its component of
    candidates cut into blocks of 30 for the verification, and then paired in shuffles rather than on the
    driver with its buckets cut into blocks of 20 members, the job still finds each pair once and gives
    the desktop's groups and pairs."""
    root = tmp_path / "family"
    root.mkdir()
    gpl = english_texts()["GPL-2"][:6000]
    for n in range(150):
        (root / f"copy-{n:03d}.txt").write_text(plant_edits(gpl, 0.002 + 0.0004 * n, seed=n), encoding="utf-8")
    for name, text in english_texts().items():
        (root / f"{name}.txt").write_text(text, encoding="utf-8")
    thresholds = Thresholds(jaccard=0.9)
    whole = run(spark, JobOptions(str(root), str(tmp_path / "whole"), thresholds))
    monkeypatch.setattr(pairing, "VERIFY_TASK", 30)  # the family's component of candidates, cut into blocks
    split = run(spark, JobOptions(str(root), str(tmp_path / "split"), thresholds))
    monkeypatch.setattr(pairing, "ON_DRIVER_TEXTS", 0)  # numbered and paired in shuffles
    monkeypatch.setattr(keys, "SPLIT", 20)
    spread = run(spark, JobOptions(str(root), str(tmp_path / "spread"), thresholds))
    assert whole.pairs == split.pairs == spread.pairs > 300
    assert whole.candidates == split.candidates == spread.candidates
    names = ("whole", "split", "spread")
    reports = [json.loads((tmp_path / name / "report.json").read_text(encoding="utf-8")) for name in names]
    assert reports[0]["groups"] == reports[1]["groups"] == reports[2]["groups"]
    pairs = [sorted(tuple(r) for r in spark.read.parquet(str(tmp_path / name / "pairs")).collect()) for name in names]
    assert pairs[0] == pairs[1] == pairs[2]
    with Session(tmp_path / "desktop.db") as session:  # the groups `neardup scan` reports
        session.scan(ScanOptions(roots=(str(root),), workers=2), thresholds)
        desktop = json.loads(session.report("json"))
    assert _groups(desktop) == _groups(reports[1])


def test_import_spark_loads_a_result_the_app_reviews_with_paths_mapped(corpus, corpus_result, tmp_path):
    """The job ran where the files sat under one folder; here they are under another (--map FROM=TO).
    The database holds the grouped documents and the problems; `neardup groups` on it gives the job's
    groups, at its paths mapped; the pair view reads a grouped file's text from its mapped path; a
    second import into it is refused, and a folder that is no result says so."""
    out = corpus_result
    job_report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    here = tmp_path / "here" / "uploads"
    shutil.copytree(corpus, here)  # copy2: sizes and times kept
    db = tmp_path / "review.db"
    done = run_cli("import-spark", str(out), "--db", str(db), "--map", f"{corpus}={here}")
    assert done.returncode == 0, done.stderr
    assert "loaded" in done.stderr
    grouped = run_cli("groups", "--db", str(db), "--format", "json")
    assert grouped.returncode == 0, grouped.stderr
    report = json.loads(grouped.stdout)
    # the app shows the job's groups: the same groups of mutual duplicates, keepers and members, in order
    assert _groups(report, str(here)) == _groups(job_report, str(corpus))
    problems = {Path(d["path"]).name: d["status"] for d in report["documents"] if d["status"] != "ok"}
    assert {"empty.txt", "binary.txt", "broken.pdf"} <= set(problems)
    with Session(db) as session:
        view = session.open((), Thresholds())
        assert view is not None and len(view.result.groups) == len(report["groups"]) == len(job_report["groups"])
        first = view.result.groups[0]
        doc = view.documents[first.members[1].document_id]
        assert doc.path.startswith(str(here))
        loaded = view.text_loader()(doc)  # as the pair view loads it: the file's bytes checked against the job's
        assert loaded.problem == "" and loaded.text is not None and len(loaded.text) > 100
    again = run_cli("import-spark", str(out), "--db", str(db))
    assert again.returncode == 2 and "new database" in again.stderr
    wrong = run_cli("import-spark", str(corpus), "--db", str(tmp_path / "other.db"))
    assert wrong.returncode == 2 and "job.json" in wrong.stderr


def test_the_result_goes_to_a_file_system_uri(spark, corpus, corpus_result, tmp_path):
    """--out as a URI of a file system Spark's Hadoop layer writes (file:// here; hdfs:// and s3a:// go the
    same way), so that a driver on a cluster node needs no disk shared with the reader: the corpus's result
    is written so (conftest.corpus_result, which the other tests read: the same as the desktop's), with no
    checksum files beside its own, and import-spark loads it; a URI that holds something is refused."""
    out = corpus_result
    assert {"report.json", "report.csv", "report.html", "job.json"} <= {p.name for p in out.iterdir()}
    assert not [p for p in out.iterdir() if p.name.endswith(".crc")]
    # the review records are gzipped at the fastest level, a setting of the session's that is put back after
    assert [p.name for p in (out / "review").glob("part-*")] and all(
        p.name.endswith(".gz") for p in (out / "review").glob("part-*")
    )
    assert spark.sparkContext._jsc.hadoopConfiguration().get("zlib.compress.level") is None
    done = run_cli("import-spark", str(out), "--db", str(tmp_path / "review.db"))
    assert done.returncode == 0 and "loaded" in done.stderr, done.stderr
    before = (out / "report.json").read_bytes()
    with pytest.raises(ValueError, match="not empty"):
        run(spark, JobOptions(str(corpus), out.as_uri() + "/", Thresholds()))
    assert (out / "report.json").read_bytes() == before  # nothing of it written over


def test_scans_are_read_by_ocr_in_the_executors_as_the_desktop_reads_them(spark, tmp_path):
    """With ``ocr`` (off by default, as on the desktop), the executors read scans with Tesseract, a page at a
    time in a child process: a licence as an image PDF and another as a photo (PNG) group with their
    originals, with the desktop's fingerprints and messages; a URI's files are not read by OCR, and the job
    says so. (English only, for CI's time: Chinese scans are read alike, tests/core/test_ocr.py.)"""
    docs = tmp_path / "docs"
    made = tmp_path / "made"
    docs.mkdir()
    made.mkdir()
    bsd, cc0 = english_texts()["BSD"], english_texts()["CC0-1.0"][:1500]
    (docs / "bsd.txt").write_text(bsd, encoding="utf-8")
    (docs / "cc0.txt").write_text(cc0, encoding="utf-8")
    write_image_pdf(docs / "bsd-scan.pdf", scan_of(write_pdf(made / "bsd.pdf", bsd).read_bytes(), noise=4))
    [page] = scan_of(write_pdf(made / "cc0.pdf", cc0).read_bytes(), noise=4, seed=1)
    write_png(docs / "cc0-photo.png", page)

    run(spark, JobOptions(str(docs), str(tmp_path / "ocr"), Thresholds(), ocr="eng"))
    report = json.loads((tmp_path / "ocr" / "report.json").read_text(encoding="utf-8"))
    with Session(tmp_path / "desktop.db") as session:
        session.scan(ScanOptions(roots=(str(docs),), workers=2, ocr="eng"), Thresholds())
        desktop = json.loads(session.report("json"))
    path = {d["id"]: Path(d["path"]).name for d in report["documents"]}
    names = [sorted(path[m["id"]] for m in g["members"]) for g in report["groups"]]
    assert sorted(names) == [["bsd-scan.pdf", "bsd.txt"], ["cc0-photo.png", "cc0.txt"]]
    assert report["groups"] == desktop["groups"] and report["documents"] == desktop["documents"]
    scanned = next(d for d in report["documents"] if d["path"].endswith("cc0-photo.png"))
    assert scanned["status"] == "ok" and "Text from OCR (Tesseract, eng)" in scanned["message"]

    with pytest.raises(ValueError, match="OCR reads the scans of a folder"):
        run(spark, JobOptions(docs.as_uri(), str(tmp_path / "uri"), Thresholds(), ocr="eng"))


def test_spark_submit_and_the_command_line_run_the_job(corpus, tmp_path):
    """As docs/spark.md says: spark-submit of the package's submit.py, and `neardup spark scan`, each
    starting its own Spark (local[2]); both write the same groups and say what they found."""
    small = tmp_path / "small"
    small.mkdir()
    for path in sorted(corpus.glob("en-00*.txt")):
        shutil.copy2(path, small / path.name)
    env = {**os.environ, "PYSPARK_PYTHON": sys.executable}
    submit = Path(sys.executable).with_name("spark-submit")
    done = subprocess.run(
        [
            str(submit),
            "--master",
            "local[2]",
            str(REPO / "neardup_gui" / "spark" / "submit.py"),
            str(small),
            "--out",
            str(tmp_path / "submitted"),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "groups holding" in done.stdout + done.stderr  # spark-submit passes the job's standard error on as output
    # as typed: no PYSPARK_PYTHON, and no python3 on the PATH that has neardup (its workers run this Python)
    bare = {k: v for k, v in os.environ.items() if k != "PYSPARK_PYTHON"}
    bare["PATH"] = "/usr/bin:/bin"
    by_cli = run_cli(
        "spark",
        "scan",
        str(small),
        "--out",
        str(tmp_path / "cli"),
        "--master",
        "local[2]",
        "--jaccard",
        "0.8",
        "--reports",
        "csv,JSON",
        "--quiet",
        env=bare,
        timeout=600,
    )
    assert by_cli.returncode == 0, by_cli.stderr[-3000:]
    assert "[Stage" not in by_cli.stderr and "groups holding" not in by_cli.stderr  # quiet: no progress bars
    reports = [
        json.loads((tmp_path / name / "report.json").read_text(encoding="utf-8")) for name in ("submitted", "cli")
    ]
    assert reports[0]["groups"] == reports[1]["groups"] and reports[0]["groups"]
    # every report by default; --reports names those written (the tables and what the app loads always are)
    assert {"report.json", "report.csv", "report.html"} <= {p.name for p in (tmp_path / "submitted").iterdir()}
    written = {p.name for p in (tmp_path / "cli").iterdir()}
    assert {"report.json", "report.csv", "review", "groups", "job.json"} <= written and "report.html" not in written
    job = json.loads((tmp_path / "cli" / "job.json").read_text(encoding="utf-8"))
    assert job["options"]["reports"] == ["json", "csv"]
    stages = ["read", "boilerplate", "candidates", "verify", "components", "write"]  # each stage's seconds
    assert list(job["seconds"]) == stages and job["seconds"]["write"] > 0
    unknown = run_cli("spark", "scan", str(small), "--out", str(tmp_path / "none"), "--reports", "json,pdf")
    assert unknown.returncode == 2 and "pdf: name one or more of json, csv, html" in unknown.stderr
    assert not (tmp_path / "none").exists()
    assert all(d["status"] == Status.OK for d in reports[0]["documents"])
    for taken in (tmp_path / "cli", small / "en-000.txt"):
        refused = run_cli("spark", "scan", str(small), "--out", str(taken), env=env, timeout=600)
        assert refused.returncode == 2 and "not empty" in refused.stderr


def test_a_local_jvm_compiles_once_and_keeps_the_users_own_options(tmp_path):
    """On a local master the driver's JVM runs with LOCAL_JAVA_OPTIONS (C1 only: C2's compiler threads cost
    a 2-core machine 26 CPU seconds of a 20,000-document job) and the serial collector, after which a user's
    own options still apply; where they choose a collector, the serial one is not added."""
    probe = (
        "from neardup_gui.spark.cli import start_session\n"
        "spark = start_session('local[1]', True)\n"
        "bean = spark.sparkContext._jvm.java.lang.management.ManagementFactory.getRuntimeMXBean()\n"
        "print('ARGS', ' '.join(bean.getInputArguments()))\n"
        "spark.stop()\n"
    )
    conf = tmp_path / "conf"
    conf.mkdir()

    def started_with(options: str) -> list[str]:
        (conf / "spark-defaults.conf").write_text(f"spark.driver.extraJavaOptions {options}\n")
        env = {**os.environ, "SPARK_CONF_DIR": str(conf), "PYTHONPATH": str(REPO)}
        env.pop("JAVA_TOOL_OPTIONS", None)
        done = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, timeout=300)
        return next(x for x in done.stdout.splitlines() if x.startswith("ARGS ")).split()[1:]

    args = started_with("-Dneardup.probe=kept")
    assert "-XX:TieredStopAtLevel=1" in args and "-XX:+UseSerialGC" in args and "-Dneardup.probe=kept" in args
    assert args.index("-XX:TieredStopAtLevel=1") < args.index("-Dneardup.probe=kept")
    # a collector of the user's own: the JVM refuses two, so none is added
    args = started_with("-XX:+UseParallelGC -Dneardup.probe=kept")
    assert "-XX:+UseParallelGC" in args and "-XX:+UseSerialGC" not in args and "-XX:TieredStopAtLevel=1" in args


def test_a_job_run_in_the_background_hands_its_failure_to_the_caller(spark):
    """The result's tables are written in a thread of their own while the HTML report is rendered: what
    fails there is raised where the result waits for it, and what succeeds has run."""
    from neardup_gui.spark.out import in_background

    done: list[int] = []
    wait = in_background(lambda: done.append(spark.sparkContext.parallelize(range(10), 2).sum()))
    wait()
    assert done == [45]
    wait = in_background(lambda: spark.sparkContext.parallelize([0], 1).map(lambda x: 1 // x).collect())
    with pytest.raises(Exception, match="ZeroDivisionError"):
        wait()
