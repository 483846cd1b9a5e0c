"""`neardup import-spark` against a damaged or crafted Spark result: every record is checked (one line
naming its file, line and field; exit 1; nothing stored), every path stays inside the folders mapped,
and the import is one transaction (killed at any moment, it leaves nothing or the whole result).

The results are written here by hand, in the job's own format (spark/result.py ``_record``, spark/job.py
``job_json``), so no Spark is needed."""

from __future__ import annotations

import base64
import gzip
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from neardup_gui.cli import EXIT_FAILURE, EXIT_OK, EXIT_USAGE, main
from neardup_gui.core.errors import DamagedResult, UsageError
from neardup_gui.core.fingerprint.scheme import Scheme, fingerprint_bytes
from neardup_gui.core.jobs import CancelToken, JobCancelled
from neardup_gui.core.match.boilerplate import Core
from neardup_gui.core.models import Fingerprint, Status, Thresholds
from neardup_gui.core.session import Session
from neardup_gui.core.store.files import FileRecord
from neardup_gui.core.store.spark_records import Place, local_path, parse_record
from neardup_gui.core.store.spark_result import import_result
from neardup_gui.core.store.store import Store
from neardup_gui.spark.records import FoundFile, JobOptions, Source, job_json
from neardup_gui.spark.result import _record
from tests.conftest import REPO, english_texts, plant_edits

SOURCE = "/c1/uploads"
PART = "part-00000.gz"


def _fingerprints() -> list[Fingerprint]:
    text = english_texts()["BSD"]
    scheme = Scheme.current()
    return [fingerprint_bytes("text", t.encode("utf-8"), scheme) for t in (text, plant_edits(text, 0.02, seed=3))]


FPS = _fingerprints()


def records(root: str = SOURCE) -> list[dict[str, Any]]:
    """Three records as the job writes them: two near copies (the first with a core) and a problem."""
    core = Core(FPS[0].shingle_count - 5, FPS[0].minhash or b"", 3, 0)
    made = [
        _record(FoundFile(f"{root}/a.txt", 1000, 1_700_000_000_000_000_000, "text", FPS[0]), core),
        _record(FoundFile(f"{root}/b.txt", 1001, 1_700_000_001_000_000_000, "text", FPS[1]), None),
        _record(
            FoundFile(
                f"{root}/big.pdf",
                1 << 30,
                1_700_000_002_000_000_000,
                "pdf",
                Fingerprint(b"", "pdf", Status.TOO_LARGE, "larger than 256 MiB"),
            ),
            None,
        ),
    ]
    return [json.loads(r) for r in made]


def write_result(
    folder: Path,
    lines: list[Any],
    *,
    source: str = SOURCE,
    documents: int | None = None,
    problems: int | None = None,
    raw: bytes | None = None,
) -> Path:
    """A result folder: job.json and one gzip part of ``lines`` (dicts as JSON, str as they are), or ``raw``
    bytes as the part; the counts are those of the dict lines unless given."""
    folder.mkdir(parents=True)
    dicts = [line for line in lines if isinstance(line, dict)]
    ok = sum(1 for d in dicts if d.get("status") == "ok")
    extra = {
        "counts": {
            "documents": len(dicts),
            "problems": len(dicts) - ok if problems is None else problems,
            "documents_in_groups": ok if documents is None else documents,
            "groups": 1,
        },
        "boilerplate": {
            "min_share": 0.1,
            "min_documents": 10,
            "passages": 1,
            "family_passages": 0,
            "shingles": [5, 7, 11],
        },
    }
    (folder / "job.json").write_text(
        job_json(JobOptions(source, str(folder)), Source("folder", source), Scheme.current(), extra) + "\n",
        encoding="utf-8",
    )
    (folder / "review").mkdir()
    data = "".join((json.dumps(line) if isinstance(line, dict) else line) + "\n" for line in lines).encode()
    (folder / "review" / PART).write_bytes(gzip.compress(data) if raw is None else raw)
    return folder


def documents_in(db: Path) -> int:
    """How many files the database at ``db`` holds (0 when there is none, or no schema yet)."""
    if not db.exists():
        return 0
    with sqlite3.connect(db) as connection:
        has = connection.execute("SELECT count(*) FROM sqlite_master WHERE name = 'files'").fetchone()[0]
        return connection.execute("SELECT count(*) FROM files").fetchone()[0] if has else 0


def import_cli(capsys: pytest.CaptureFixture[str], result: Path, db: Path, *maps: str) -> tuple[int, list[str]]:
    """`neardup import-spark` in this process: its exit code and the lines it wrote to standard error."""
    code = main(["import-spark", str(result), "--db", str(db), *[a for m in maps for a in ("--map", m)]])
    captured = capsys.readouterr()
    return code, captured.err.splitlines()


def refused(capsys: pytest.CaptureFixture[str], result: Path, db: Path, *maps: str) -> str:
    """The one line an import that fails writes, checked: exit 1, no traceback, nothing stored."""
    code, err = import_cli(capsys, result, db, *maps)
    assert code == EXIT_FAILURE, err
    assert len(err) == 1 and err[0].startswith("neardup: "), err
    assert "Traceback" not in err[0] and "nothing was loaded" in err[0]
    assert documents_in(db) == 0
    return err[0]


# -- a sound result ------------------------------------------------------------------------------------
def test_a_sound_result_loads_with_its_paths_mapped_and_normalised(tmp_path, capsys):
    result = write_result(tmp_path / "result", records())
    db = tmp_path / "review.db"
    code, err = import_cli(capsys, result, db, "/c1/uploads=/here/uploads/")  # a target's slash dropped
    assert code == EXIT_OK, err
    with Session(db) as session:
        assert [d.path for d in session.store.files.documents()] == [
            "/here/uploads/a.txt",
            "/here/uploads/b.txt",
            "/here/uploads/big.pdf",
        ]
        assert session.last_scan_roots() == ("/here/uploads",)
        found = session.store.boilerplate.load()
        assert found is not None and len(found.cores) == 1 and found.shingles.tolist() == [5, 7, 11]
        view = session.open((), Thresholds())  # the app groups what was loaded
        assert view is not None and len(view.result.groups) == 1 and len(view.result.groups[0].members) == 2
        assert view.topics[view.result.groups[0].id]  # named by the keywords the cluster found
    # with no mapping: the cluster's absolute paths, under the folder the job read
    code, err = import_cli(capsys, write_result(tmp_path / "same", records()), tmp_path / "same.db")
    assert code == EXIT_OK, err
    with Store(tmp_path / "same.db") as store:
        assert [d.path for d in store.files.documents()][0] == "/c1/uploads/a.txt"
    # file: URIs, as Spark lists a URI, are placed by a mapping
    uri = [dict(r, path="file:" + r["path"]) for r in records()]
    code, err = import_cli(capsys, write_result(tmp_path / "uri", uri), tmp_path / "uri.db", "file:/c1=/c1")
    assert code == EXIT_OK, err
    with Store(tmp_path / "uri.db") as store:
        assert [d.path for d in store.files.documents()][0] == "/c1/uploads/a.txt"


def test_a_result_from_a_job_that_kept_no_keywords_loads_with_its_groups_named_by_a_file(tmp_path, capsys):
    lines = [{k: v for k, v in r.items() if k != "keywords"} for r in records()]
    code, err = import_cli(capsys, write_result(tmp_path / "result", lines), tmp_path / "db")
    assert code == EXIT_OK, err
    with Session(tmp_path / "db") as session:
        view = session.open((), Thresholds())
        assert view is not None and len(view.result.groups) == 1 and dict(view.topics) == {}


def test_without_a_mapping_no_path_outside_the_folder_the_job_read_is_loaded(tmp_path, capsys):
    """A crafted result cannot name a file elsewhere on this machine (a key, a system file) when loaded
    without --map: every path must be under the job's own folder."""
    lines = records()
    lines[1]["path"] = "/home/person/.ssh/id_ed25519"
    said = refused(capsys, write_result(tmp_path / "result", lines), tmp_path / "db")
    assert "id_ed25519" in said and "under no --map FROM" in said


def test_a_name_that_is_not_utf8_loads(tmp_path, capsys):
    """The job writes a name's bytes that are not UTF-8 as surrogate escapes; they are a path like any."""
    lines = records()
    lines[2]["path"] = os.fsdecode(b"/c1/uploads/caf\xe9.pdf")
    code, err = import_cli(capsys, write_result(tmp_path / "result", lines), tmp_path / "db")
    assert code == EXIT_OK, err
    with Store(tmp_path / "db") as store:
        assert os.fsdecode(b"/c1/uploads/caf\xe9.pdf") in {d.path for d in store.files.documents()}


# -- paths ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("path", "maps", "why"),
    [
        ("/c1/../victim/secret.txt", ("/c1=/mapped",), "leads outside /mapped"),
        ("/c1/uploads/../../../etc/passwd", ("/c1=/mapped",), "leads outside /mapped"),
        ("/c1/x/../y.txt", ("/c1=/mapped",), "leads outside /mapped"),  # climbs back in: still refused
        ("/elsewhere/secret.txt", ("/c1=/mapped",), "under no --map FROM"),
        ("/c10/secret.txt", ("/c1=/mapped",), "under no --map FROM"),  # a prefix of a name is no folder
        # without a mapping, the folder the job read (/c1) is the only place a path may be
        ("../../etc/passwd", (), "under no --map FROM"),
        ("secret.txt", (), "under no --map FROM"),
        ("hdfs://cluster/uploads/a.txt", (), "under no --map FROM"),
        ("/c1/uploads/../../etc/passwd", (), "leads outside /c1"),
        ("file:/c1/../etc/passwd", (), "under no --map FROM"),
    ],
)
def test_a_path_that_escapes_is_refused_and_nothing_is_stored(tmp_path, capsys, path, maps, why):
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me", encoding="utf-8")
    lines = records("/c1")
    lines[1]["path"] = path
    result = write_result(tmp_path / "result", lines, source="/c1")
    line = refused(capsys, result, tmp_path / "db", *maps)
    assert f"{PART}, line 2" in line and "field path" in line and why in line, line
    assert victim.read_text(encoding="utf-8") == "keep me"


def test_a_relative_map_target_is_refused_in_one_line(tmp_path, capsys):
    result = write_result(tmp_path / "result", records())
    code, err = import_cli(capsys, result, tmp_path / "db", "/c1=mapped")
    assert code == EXIT_USAGE and len(err) == 1 and "TO must be an absolute folder" in err[0], err
    assert documents_in(tmp_path / "db") == 0
    with Session(tmp_path / "db2") as session, pytest.raises(UsageError, match="absolute folder"):
        session.import_spark(result, [("/c1", "rel/ative")])  # the library refuses it too (UsageError)


def test_the_job_source_is_a_root_only_where_it_stays_in_the_map(tmp_path, capsys):
    """job.json's source becomes the database's folder only if it maps inside a target."""
    result = write_result(tmp_path / "result", records(), source="/c1/uploads/../../../etc")
    code, err = import_cli(capsys, result, tmp_path / "db", "/c1=/mapped")
    assert code == EXIT_OK, err
    with Session(tmp_path / "db") as session:
        assert session.last_scan_roots() == ("/mapped/uploads",)  # the documents' folder, not /etc


@pytest.mark.parametrize(
    ("path", "mapping", "local"),
    [
        ("/c1/a.txt", (("/c1", "/m"),), "/m/a.txt"),
        ("/c1", (("/c1", "/m"),), "/m"),
        ("/c1/a/./b.txt", (("/c1/", "/m"),), "/m/a/b.txt"),  # normalised inside the target
        ("hdfs://h/u/a.txt", (("hdfs://h/u", "/m"), ("hdfs://h", "/n")), "/m/a.txt"),  # the longest FROM
        ("/x/a.txt", (("/", "/m"),), "/m/x/a.txt"),
        ("/a.txt", (), "/a.txt"),
        ("file:///a.txt", (), "/a.txt"),
    ],
)
def test_local_path(path, mapping, local):
    assert local_path(path, mapping) == local


# -- malformed records -----------------------------------------------------------------------------------
WRONG_TYPES: dict[str, Any] = {"string": "text", "number": 12345, "list": [1, 2], "null": None, "object": {"a": 1}}
VALID_ANYWAY = {  # a wrong type that is a right value for the field in the first record (near copy, with a core)
    ("kind", "string"),
    ("message", "string"),
    ("encoding", "string"),
    ("size", "number"),
    ("mtime_ns", "number"),
    ("pages", "number"),
    ("chars", "number"),
    ("simhash", "number"),
    ("edges", "null"),
    ("sequence", "null"),
    ("transient", "number"),
    ("transient", "null"),
    ("keywords", "string"),
    ("core", "null"),
    ("core.shingle_count", "number"),
    ("core.head_cut", "number"),
    ("core.tail_cut", "number"),
}
ABSURD: dict[str, list[Any]] = {
    "path": ["/c1/uploads/\0x.txt", "/c1/uploads/" + "x" * 100_000, "\ud800/x.txt"],
    "size": [1e30, 10**30, -1, True],
    "mtime_ns": ["yesterday", 2**63, 1.5],
    "kind": ["k" * 10_000],
    "status": ["pwned", "OK"],
    "message": ["m" * 1_000_000],
    "encoding": ["e" * 10_000],
    "pages": [-1, 2**64],
    "chars": [2**64, float("nan")],
    "raw_hash": [base64.b64encode(b"x" * 17).decode(), "!!!not base64!!!", "é"],
    "text_hash": [base64.b64encode(b"x" * 15).decode()],
    "simhash": [2**80, -(2**63) - 1, 1.0],
    "minhash": [base64.b64encode(b"x" * 100).decode(), list(range(128)), base64.b64encode(b"x" * 513).decode()],
    "shingle_count": [10**30, 1e30, 5],
    "shingles": [base64.b64encode(b"x" * 7).decode(), base64.b64encode(b"x" * 8).decode()],
    "short_text": [1, "false"],
    "edges": [base64.b64encode(b"\xff\xff" * 4).decode(), base64.b64encode(b"x" * 3).decode()],
    "sequence": [base64.b64encode(b"\xff\xff" * 4).decode(), base64.b64encode(b"x" * 3).decode()],
    "transient": [float("inf"), -1, "120"],
    "keywords": ["k" * 5_000],
    "core": [[1, 2]],
    "core.shingle_count": [10**30, -1],
    "core.minhash": [base64.b64encode(b"x" * 4).decode(), [1, 2, 3]],
    "core.head_cut": [2**63, 1.5],
    "core.tail_cut": ["0"],
}
FIELDS = [*records()[0], *(f"core.{k}" for k in records()[0]["core"])]


OPTIONAL = {"keywords"}  # a result from a job that kept none: its groups are named by a file


def _cases() -> list[Any]:
    cases = []
    for field in FIELDS:
        if field not in OPTIONAL:
            cases.append(pytest.param(field, "drop", None, id=f"{field}-dropped"))
        for kind, value in WRONG_TYPES.items():
            if (field, kind) not in VALID_ANYWAY:
                cases.append(pytest.param(field, "set", value, id=f"{field}-{kind}"))
        for n, value in enumerate(ABSURD.get(field, [])):
            cases.append(pytest.param(field, "set", value, id=f"{field}-absurd{n}"))
    return cases


def test_the_fuzz_covers_every_field_of_a_record():
    assert set(FIELDS) == set(ABSURD) | {"path"} and len(FIELDS) == 25


@pytest.mark.parametrize(("field", "how", "value"), _cases())
def test_a_malformed_record_is_refused_in_one_line_naming_it_and_its_field(tmp_path, capsys, field, how, value):
    lines = records()
    lines = [lines[2], lines[0], lines[1]]  # the record at fault on line 2, after a sound one
    target = lines[1]
    *parents, name = field.split(".")
    for parent in parents:
        target = target[parent]
    if how == "drop":
        del target[name]
    else:
        target[name] = value
    line = refused(capsys, write_result(tmp_path / "result", lines), tmp_path / "db")
    assert f"{PART}, line 2" in line and field in line, line
    assert "is not a valid" not in line and "broadcast" not in line and "Error" not in line


@pytest.mark.parametrize(
    ("what", "lines", "raw", "where"),
    [
        ("a JSON array", ["[1, 2, 3]"], None, "line 2: the line is not a JSON object"),
        ("a JSON null", ["null"], None, "line 2: the line is not a JSON object"),
        ("not JSON", ["{'path': 'x'}"], None, "line 2: the line is not JSON"),
        ("cut in the middle", ['{"path": "/c1/uploads/x.txt", "size"'], None, "line 2: the line is not JSON"),
        ("nested too deep", ["[" * 200_000], None, "line 2: the line is not JSON"),
        ("a number of 5,000 digits", ['{"size": ' + "9" * 5000 + "}"], None, "line 2: the line is not JSON"),
        ("not UTF-8", [b'{"path": "\xff"}'.decode("latin-1")], None, "line 2: the line is not UTF-8"),
        ("an empty gzip file", [], b"", "line 1: the file is cut short, or is not gzip"),
        ("a truncated gzip file", [], "half", "the file is cut short, or is not gzip"),
        ("not gzip", [], b'{"path": 1}\n', "line 1: the file is cut short, or is not gzip"),
    ],
)
def test_a_damaged_line_or_file_is_refused_in_one_line(tmp_path, capsys, what, lines, raw, where):
    sound = records()
    body = [sound[2], *lines, sound[0], sound[1]]
    if isinstance(body[1], str) and not body[1].isascii():  # bytes that are not UTF-8, as they are
        data = b"".join((json.dumps(x).encode() if isinstance(x, dict) else x.encode("latin-1")) + b"\n" for x in body)
        raw = gzip.compress(data)
    if raw == "half":
        many = [dict(sound[n % 3], path=f"/c1/uploads/{n}.txt") for n in range(900)]
        whole = gzip.compress("".join(json.dumps(r) + "\n" for r in many).encode())
        raw = whole[: len(whole) // 2]
    result = write_result(tmp_path / "result", body if raw is None else sound, raw=raw)
    line = refused(capsys, result, tmp_path / "db")
    assert PART in line and where in line, (what, line)


def test_a_record_lost_between_parts_is_found_by_the_count(tmp_path, capsys):
    lines = records()
    result = write_result(tmp_path / "result", lines[:2], documents=2, problems=1)  # job.json: 3 records
    line = refused(capsys, result, tmp_path / "db")
    assert "holds 2 records, but job.json counts 3" in line


def test_a_bad_record_after_whole_batches_leaves_nothing(tmp_path, capsys):
    """2,500 sound records (two batches written) and then one at fault: the batches are undone too."""
    problem = records()[2]
    lines: list[Any] = [dict(problem, path=f"/c1/uploads/{n:05d}.pdf") for n in range(2500)]
    lines.append(dict(problem, path="/c1/uploads/last.pdf", status="pwned"))
    line = refused(capsys, write_result(tmp_path / "result", lines), tmp_path / "db")
    assert f"{PART}, line 2501" in line and "status" in line


def test_two_records_of_one_file_are_refused(tmp_path, capsys):
    lines = records()
    lines[1]["path"] = lines[0]["path"]
    line = refused(capsys, write_result(tmp_path / "result", lines), tmp_path / "db")
    assert "line 2" in line and "same file as an earlier record" in line


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda job: job.pop("scheme"), "scheme"),
        (lambda job: job.__setitem__("scheme", {"version": 1, "evil": 2}), "scheme"),
        (lambda job: job["thresholds"].pop("method"), "thresholds.method"),
        (lambda job: job["thresholds"].__setitem__("hamming", "x"), "thresholds.hamming"),
        (lambda job: job["counts"].__setitem__("problems", -1), "counts.problems"),
        (lambda job: job["counts"].pop("documents_in_groups"), "counts.documents_in_groups"),
        (lambda job: job["boilerplate"].__setitem__("shingles", [2**40]), "boilerplate.shingles"),
        (lambda job: job["boilerplate"].__setitem__("min_share", "lots"), "boilerplate.min_share"),
        (lambda job: job.__setitem__("source", None), "source"),
    ],
)
def test_a_damaged_job_json_is_refused_naming_its_field(tmp_path, capsys, change: Callable[[dict], Any], field):
    result = write_result(tmp_path / "result", records())
    job = json.loads((result / "job.json").read_text(encoding="utf-8"))
    change(job)
    (result / "job.json").write_text(json.dumps(job), encoding="utf-8")
    line = refused(capsys, result, tmp_path / "db")
    assert "job.json" in line and f"field {field} " in line, line


def test_a_job_json_that_is_no_object_is_no_result(tmp_path, capsys):
    result = write_result(tmp_path / "result", records())
    (result / "job.json").write_text("[1, 2]", encoding="utf-8")
    code, err = import_cli(capsys, result, tmp_path / "db")
    assert code == EXIT_USAGE and len(err) == 1 and "is not a result" in err[0], err


def test_parse_record_names_the_place_and_field():
    with pytest.raises(DamagedResult, match=r"p\.gz, line 7: the field simhash must be"):
        parse_record(dict(records()[0], simhash=2**80), Place("p.gz", 7), 128)


def test_a_cancelled_import_leaves_nothing(tmp_path):
    problem = records()[2]
    lines: list[Any] = [dict(problem, path=f"/c1/uploads/{n:05d}.pdf") for n in range(3000)]
    result = write_result(tmp_path / "result", lines)
    token = CancelToken()
    seen = []

    def progress(event):
        seen.append(event.done)
        if event.done >= 2000:
            token.cancel()

    with Store(tmp_path / "db") as store, pytest.raises(JobCancelled):
        import_result(store, result, progress=progress, cancel=token)
    assert documents_in(tmp_path / "db") == 0 and max(seen) >= 2000


# -- a killed import ---------------------------------------------------------------------------------------
KILLED_RECORDS = 40_000


@pytest.fixture(scope="module")
def large_result(tmp_path_factory) -> Path:
    """40,000 records (a few contents, many copies, and problems), written in a second or so."""
    folder = tmp_path_factory.mktemp("large") / "result"
    sound = records()
    lines = [dict(sound[n % 3], path=f"/c1/uploads/{n // 1000:02d}/{n:06d}.txt") for n in range(KILLED_RECORDS)]
    return write_result(folder, lines)


def _import_process(result: Path, db: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "neardup_gui.cli", "import-spark", str(result), "--db", str(db), "--quiet"],
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def _kill_when(process: subprocess.Popen[bytes], ready: Callable[[], bool], limit: float = 30.0) -> bool:
    """SIGKILL ``process`` once ``ready()``; True if it was still running then (not finished already)."""
    deadline = time.monotonic() + limit
    while process.poll() is None and not ready() and time.monotonic() < deadline:
        time.sleep(0.005)
    running = process.poll() is None
    process.send_signal(signal.SIGKILL)
    process.wait()
    return running


def _file_size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


@pytest.mark.e2e
def test_a_killed_import_leaves_nothing_or_everything_and_runs_again(tmp_path, large_result):
    """kill -9 at several moments of an import of 40,000 records: the database then holds none of them or
    all of them, never a part; after none, the same import runs again and loads them all."""
    moments: list[tuple[str, Callable[[Path], Callable[[], bool]]]] = [
        ("at once", lambda db: lambda: True),
        ("as the database is made", lambda db: lambda: db.exists()),
        ("64 KiB written", lambda db: lambda: _file_size(Path(f"{db}-wal")) >= 64 << 10),
        ("1 MiB written", lambda db: lambda: _file_size(Path(f"{db}-wal")) >= 1 << 20),
        ("2 MiB written", lambda db: lambda: _file_size(Path(f"{db}-wal")) >= 2 << 20),
    ]
    midway = 0
    for n, (name, when) in enumerate(moments):
        db = tmp_path / f"killed-{n}.db"
        process = _import_process(large_result, db)
        running = _kill_when(process, when(db))
        held = documents_in(db)
        assert held in (0, KILLED_RECORDS), (name, held)
        if held == KILLED_RECORDS:
            continue  # killed after it committed
        midway += running and _file_size(Path(f"{db}-wal")) > 0
        again = _import_process(large_result, db)
        _out, err = again.communicate(timeout=120)
        assert again.returncode == 0, (name, err.decode())
        assert documents_in(db) == KILLED_RECORDS, name
    assert midway >= 1  # a kill did land in the middle of writing


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_a_part_that_is_no_regular_file_is_refused_without_reading_it(tmp_path, capsys, kind):
    """A pipe would block the import for ever and /dev/zero would fill the memory: neither is read."""
    result = write_result(tmp_path / "result", records())
    part = result / "review" / PART
    part.unlink()
    if kind == "fifo":
        os.mkfifo(part)
    else:
        part.symlink_to("/dev/zero")
    line = refused(capsys, result, tmp_path / "db")
    assert f"{PART}: not a regular file" in line


def test_a_transaction_inside_another_is_a_savepoint(tmp_path):
    """What an import relies on: batches written inside one transaction are undone with it, and a batch
    that fails inside it is undone alone."""
    with Store(tmp_path / "db") as store:
        with pytest.raises(RuntimeError), store.transaction():
            store.write_batch([], [FileRecord("/a.txt", 1, 1, "text", status=Status.EMPTY)])
            raise RuntimeError
        assert store.files.documents() == []
        with store.transaction():
            store.write_batch([], [FileRecord("/b.txt", 1, 1, "text", status=Status.EMPTY)])
            with pytest.raises(RuntimeError), store.transaction():
                store.write_batch([], [FileRecord("/c.txt", 1, 1, "text", status=Status.EMPTY)])
                raise RuntimeError
        assert [d.path for d in store.files.documents()] == ["/b.txt"]
