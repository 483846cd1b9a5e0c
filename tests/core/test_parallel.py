"""Collection-wide steps spread over worker processes give exactly the answers of one process."""

import json
import os
import sqlite3
import time
from pathlib import Path

import pytest

from neardup_gui.core import session as session_module
from neardup_gui.core.jobs import CancelToken, JobCancelled
from neardup_gui.core.match import boilerplate as boilerplate_module
from neardup_gui.core.match import index as index_module
from neardup_gui.core.match import matcher as match_module
from neardup_gui.core.models import Method, ScanOptions, Status, Thresholds
from neardup_gui.core.review import report as report_module
from neardup_gui.core.scan import hash_file, hash_files
from neardup_gui.core.session import Session
from neardup_gui.core.store.store import Store
from neardup_gui.core.workers.parallel import Workers
from neardup_gui.core.workers.pool import WorkerPool
from tests.conftest import english_texts, plant_edits, write_footed_letters

pytestmark = pytest.mark.e2e  # the worker pool itself: what runs in worker processes


def whose(task: int) -> tuple[int, int]:
    """Top-level so workers can import it: the task and the process that ran it."""
    return task, os.getpid()


def test_a_pool_keeps_its_workers_between_runs_and_a_run_left_early_leaks_nothing():
    with WorkerPool(2) as pool:
        first = dict(pool.run(whose, range(8), timeout=30))
        assert {t for t, _ in first.values()} == set(range(8))
        workers = {pid for _, pid in first.values()}
        assert os.getpid() not in workers and len(workers) == 2
        second = dict(pool.run(whose, range(8, 16), timeout=30))
        assert {pid for _, pid in second.values()} == workers  # the same processes served both runs
        left = pool.run(whose, range(100, 140), timeout=30)
        next(left)
        left.close()  # left early: the answers still on their way must not reach the next run
        third = dict(pool.run(whose, range(200, 210), timeout=30))
        assert sorted(third) == list(range(200, 210)) and all(t == k for k, (t, _) in third.items())


def _corpus(root: Path) -> Path:
    """Letters with a shared footer (boilerplate: their near-copy pair is compared by its cores) beside
    families of licence variants at many edit rates (pairs on both sides of every threshold), each
    family too small a share of the collection to look like boilerplate, and one exact copy."""
    root.mkdir()
    write_footed_letters(root)
    for name, text in english_texts().items():
        (root / f"{name}.txt").write_text(text, encoding="utf-8")
        if not (root / "a copy.txt").exists():
            (root / "a copy.txt").write_text(text, encoding="utf-8")
        for n, rate in enumerate((0.002, 0.01, 0.03, 0.08, 0.2)):
            (root / f"{name}~{n}.txt").write_text(plant_edits(text, rate, seed=n), encoding="utf-8")
    return root


def _outcome(db: Path, root: Path, workers: int) -> tuple[dict, dict, list]:
    with Session(db, workers=workers) as session:
        session.scan(ScanOptions(roots=(str(root),), workers=workers), Thresholds())
        report = json.loads(session.report("json"))
        found = session.store.boilerplate.load()
        assert found is not None
        names = {d.content_id: Path(d.path).name for d in session.store.files.documents()}  # ids differ between runs
        boilerplate = {
            "shingles": found.shingles.tolist(),
            "cores": {names[cid]: core for cid, core in found.cores.items()},
        }
        views = []
        for thresholds in (
            Thresholds(Method.MINHASH, 3, 0.5),
            Thresholds(Method.MINHASH, 3, 0.8, False),
            Thresholds(Method.BOTH, 6, 0.7),
        ):
            result = session.regroup(thresholds).result
            docs = {d.id: Path(d.path).name for d in result.documents}
            views.append(sorted(sorted(docs[m.document_id] for m in g.members) for g in result.groups))
    for volatile in ("generated", "settings"):
        report.pop(volatile)
    report["summary"].pop("scan")
    return report, boilerplate, views


def _record_pools_in_small_batches(monkeypatch) -> dict[str, set[int]]:
    """Batches small enough that a small collection makes several tasks of every step; returns, as the
    steps run, which pools (by id) ran each task function."""
    pools: dict[str, set[int]] = {}
    real_run = WorkerPool.run

    def recorded(self, fn, tasks, **kwargs):
        pools.setdefault(fn.__name__, set()).add(id(self))
        return real_run(self, fn, tasks, **kwargs)

    monkeypatch.setattr(WorkerPool, "run", recorded)
    monkeypatch.setattr(match_module, "POOL_PAIRS", 20)
    monkeypatch.setattr(match_module, "_PAIRS_PER_TASK", 8)
    monkeypatch.setattr(boilerplate_module, "_SAMPLE_BATCH", 16)
    monkeypatch.setattr(boilerplate_module, "_BATCH", 16)
    monkeypatch.setattr(report_module, "_PAIRS_PER_TASK", 4)
    monkeypatch.setattr(index_module, "_POOL_ESTIMATES", 10)
    monkeypatch.setattr(index_module, "_COLD_POOL_ESTIMATES", 10)
    return pools


def test_boilerplate_forests_and_passages_in_workers_equal_those_of_one_process(tmp_path, monkeypatch):
    root = _corpus(tmp_path / "docs")
    here = _outcome(tmp_path / "one.db", root, workers=1)
    pools = _record_pools_in_small_batches(monkeypatch)
    spread = _outcome(tmp_path / "two.db", root, workers=2)
    # every step went to the workers: hashing, reading (in batches), boilerplate's three passes, the band
    # search's estimates, a forest, passages
    assert {
        "hash_files",
        "_each",
        "_common_in_batch",
        "_count_in_batch",
        "_cores_in_batch",
        "estimate_task",
        "measure_overlaps",
        "find_passages",
    } <= set(pools), pools
    report, boilerplate, views = here
    assert len(boilerplate["cores"]) >= 30, "the footer must be found as boilerplate"
    assert any(p.get("shared_passages") for p in report["pairs"])
    assert any(p["matched_by"] == "exact" for p in report["pairs"]), "pairs that need no passages too"
    assert len({json.dumps(v) for v in views}) == 3, "the thresholds must change the groups"
    assert spread == here


def test_hashing_in_workers_says_why_a_file_could_not_be_read(tmp_path):
    from neardup_gui.core.models import FileEntry

    present = tmp_path / "here.txt"
    present.write_text("some text")
    entries = (
        FileEntry(str(present), 9, 0, "text"),
        FileEntry(str(tmp_path / "gone.txt"), 9, 0, "text"),
        FileEntry(str(tmp_path), 0, 0, "text"),
    )
    [(_task, answers)] = list(Workers(2).map(hash_files, [entries], min_tasks=1))
    assert answers[0] == hash_file(str(present))
    assert answers[1] == "The file was deleted during the scan."
    assert isinstance(answers[2], str) and "folder" in answers[2]


@pytest.mark.parametrize("at_once", [None, 1])
def test_the_query_index_is_built_by_the_first_query_and_kept_up_to_date(tmp_path, monkeypatch, at_once):
    """A scan writes no LSH band keys or SimHash blocks (they serve queries alone); the first query adds
    them for every content, and a later one for the contents scanned since: in slices of contents (of one
    content each, ``at_once`` 1), as of a million."""
    from neardup_gui.core.query import query
    from neardup_gui.core.store import query_index

    if at_once is not None:
        monkeypatch.setattr(query_index, "_CONTENTS_AT_ONCE", at_once)

    root = tmp_path / "docs"
    root.mkdir()
    texts = english_texts()
    for name in ("MPL-2.0", "BSD", "Apache-2.0"):
        (root / f"{name}.txt").write_text(texts[name], encoding="utf-8")
    db = tmp_path / "q.db"
    strict = Thresholds(Method.MINHASH, 3, 0.8)

    def banded() -> tuple[int, int]:
        """(contents, contents in the band index); the SimHash block index always holds the same ones."""
        with sqlite3.connect(db) as c:
            contents = c.execute("SELECT count(*) FROM contents WHERE minhash IS NOT NULL").fetchone()[0]
            in_bands = c.execute("SELECT count(DISTINCT content_id) FROM bands").fetchone()[0]
            blocks = c.execute(
                "SELECT count(*), count(DISTINCT content_id), count(DISTINCT block) FROM simhash_blocks"
            ).fetchone()
            assert blocks == ((4 * in_bands, in_bands, 4) if in_bands else (0, 0, 0))
            return contents, in_bands

    with Session(db) as session:
        session.scan(ScanOptions(roots=(str(root),), workers=1), Thresholds())
    assert banded() == (3, 0)
    probe = tmp_path / "probe.txt"
    probe.write_text(plant_edits(texts["MPL-2.0"], 0.01, seed=3), encoding="utf-8")
    with Store(db) as store:
        assert [Path(h.document.path).name for h in query(store, str(probe), strict)] == ["MPL-2.0.txt"]
    assert banded() == (3, 3)
    (root / "MPL-2.0~copy.txt").write_text(plant_edits(texts["MPL-2.0"], 0.005, seed=4), encoding="utf-8")
    with Session(db) as session:
        session.scan(ScanOptions(roots=(str(root),), workers=1), Thresholds())
    with Store(db) as store:
        hits = query(store, str(probe), strict)
        assert sorted(Path(h.document.path).name for h in hits) == ["MPL-2.0.txt", "MPL-2.0~copy.txt"]
        assert all(h.document.status is Status.OK for h in hits)
        by_simhash = query(store, str(probe), Thresholds(Method.SIMHASH, 12, 0.8))
        assert sorted(Path(h.document.path).name for h in by_simhash) == ["MPL-2.0.txt", "MPL-2.0~copy.txt"]
    assert banded() == (4, 4)


def test_a_scan_and_its_report_share_one_pool_of_workers(tmp_path, monkeypatch):
    # each step had started its own workers (about 0.1 s a start: what a report on 16 cores waits for);
    # a scan keeps one pool for its boilerplate and its grouping, and `neardup scan` for its report too
    root = _corpus(tmp_path / "docs")
    pools = _record_pools_in_small_batches(monkeypatch)
    with Session(tmp_path / "db.sqlite") as session, session.workers_kept(2) as kept:
        assert kept.count == 2 and session.workers is kept
        session.scan(ScanOptions(roots=(str(root),), workers=2), Thresholds())
        report = json.loads(session.report("json"))
        try:
            session.scan(ScanOptions(roots=(str(root),), workers=3), Thresholds())
        except ValueError as exc:
            assert "2 workers kept" in str(exc)
        else:
            raise AssertionError("a scan asking for other workers than those kept must say so")
    steps = ("_common_in_batch", "_count_in_batch", "_cores_in_batch", "measure_overlaps", "find_passages")
    assert all(step in pools for step in steps), pools
    assert len(set().union(*(pools[step] for step in steps))) == 1, pools
    assert pools["hash_files"].isdisjoint(pools["find_passages"])  # hashing runs before the fingerprints' own pool
    assert any(p.get("shared_passages") for p in report["pairs"])
    assert any(p["matched_by"] == "exact" for p in report["pairs"]), "pairs that need no passages too"
    pools.clear()
    with Session(tmp_path / "app.sqlite", workers=2) as session:  # as the app scans: no block around it
        session.scan(ScanOptions(roots=(str(root),), workers=2), Thresholds())
    assert len(set().union(*(pools[step] for step in steps[:-1]))) == 1, pools


def test_a_cancelled_json_report_does_not_wait_for_its_documents_to_be_written(tmp_path, monkeypatch):
    # with workers, the report's other members are made in a thread while the workers find the passages; a
    # cancel must come back at once, not when that ends
    root = _corpus(tmp_path / "docs")
    _record_pools_in_small_batches(monkeypatch)
    real_members = session_module.json_members

    def slow_members(*args):
        time.sleep(5)
        return real_members(*args)

    monkeypatch.setattr(session_module, "json_members", slow_members)
    with Session(tmp_path / "db.sqlite", workers=2) as session:
        session.scan(ScanOptions(roots=(str(root),), workers=2), Thresholds())
        cancel = CancelToken()
        cancel.cancel()
        started = time.monotonic()
        with pytest.raises(JobCancelled):
            session.report("json", cancel=cancel)
        assert time.monotonic() - started < 2.5
        assert not session.store.overlaps.passages(report_module.PASSAGES_VERSION)  # nothing kept of a cancelled report


@pytest.mark.parametrize("workers", [1, 2])
def test_an_unchanged_rescan_measures_no_pair_again(tmp_path, monkeypatch, workers):
    # the first grouping's forest measures pairs in memory only; the pairs its groups are made of and
    # measured against must still be kept in the database, or the next scan's matcher measures them again
    root = _corpus(tmp_path / "docs")
    _record_pools_in_small_batches(monkeypatch)
    measured: list[int] = []
    real_here, real_pool = match_module.Matcher._measure_here, match_module.Matcher._measure_in_pool

    def here(self, lo, hi, cancel=match_module.NEVER_CANCELLED):
        measured.append(len(lo))
        return real_here(self, lo, hi, cancel)

    def in_pool(self, lo, hi, cancel):
        measured.append(len(lo))
        return real_pool(self, lo, hi, cancel)

    monkeypatch.setattr(match_module.Matcher, "_measure_here", here)
    monkeypatch.setattr(match_module.Matcher, "_measure_in_pool", in_pool)
    options = ScanOptions(roots=(str(root),), workers=workers)
    with Session(tmp_path / "db.sqlite", workers=workers) as session:
        session.scan(options, Thresholds())
        first = session.report("json")
    assert sum(measured) > 0  # the first grouping measured pairs
    measured.clear()
    with Session(tmp_path / "db.sqlite", workers=workers) as session:  # a new matcher, as `neardup scan` again
        summary = session.scan(options, Thresholds()).scan
        again = session.report("json")
    assert summary is not None and summary.unchanged == summary.files_found > 0
    assert measured == []
    assert json.loads(again)["pairs"] == json.loads(first)["pairs"]


def test_what_a_threshold_move_measured_is_saved_once_the_session_is_done_with_it(tmp_path, monkeypatch):
    # a threshold move writes nothing (the person waits for it); what it measured is kept when the session
    # closes, so that the next session's grouping at that threshold measures none of it again
    root = _corpus(tmp_path / "docs")
    measured: list[int] = []
    real_here = match_module.Matcher._measure_here

    def here(self, lo, hi, cancel=match_module.NEVER_CANCELLED):
        measured.append(len(lo))
        return real_here(self, lo, hi, cancel)

    monkeypatch.setattr(match_module.Matcher, "_measure_here", here)
    low = Thresholds(jaccard=0.5)
    with Session(tmp_path / "db.sqlite", workers=1) as session:
        session.scan(ScanOptions(roots=(str(root),), workers=1), Thresholds(jaccard=0.9))
        kept = len(session.store.overlaps.all(cores=False)) + len(session.store.overlaps.all(cores=True))
        measured.clear()
        view = session.regroup(low)
        session.pairs()
        assert sum(measured) > 0, "the move measured pairs"
        assert len(session.store.overlaps.all(cores=False)) + len(session.store.overlaps.all(cores=True)) == kept
    measured.clear()
    with Session(tmp_path / "db.sqlite", workers=1) as session:
        again = session.open((), low)
        session.pairs()
    assert measured == []
    assert again is not None and len(again.duplicates) == len(view.duplicates)
