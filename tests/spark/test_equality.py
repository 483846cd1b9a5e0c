"""The Spark job gives the desktop engine's answer: on the same few hundred real documents and the same
thresholds, the same documents and statuses, the same fingerprints byte for byte, the same boilerplate,
the same verified pairs with the same numbers, and the same groups and JSON report groups. Both run
for real: a desktop scan into SQLite, and the job on Spark in local mode (local[2])."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from neardup_gui.core.fingerprint.scheme import pack_order
from neardup_gui.core.fingerprint.simhash import to_unsigned
from neardup_gui.core.match.matcher import Matcher
from neardup_gui.core.models import Method, ScanOptions, Status, Thresholds
from neardup_gui.core.scan import scan
from neardup_gui.core.session import Session
from neardup_gui.core.store.spark_result import review_lines, review_parts
from neardup_gui.core.store.store import Store
from neardup_gui.spark import job, pairing
from neardup_gui.spark.job import JobOptions, run

pytestmark = pytest.mark.e2e  # a real Spark (local[2], a JVM) and scans through the worker pool

SETTINGS = [
    Thresholds(Method.MINHASH, 8, 0.8),
    Thresholds(Method.SIMHASH, 8, 0.8),
    Thresholds(Method.BOTH, 4, 0.7, ignore_boilerplate=False),
]


@pytest.fixture(scope="module")
def desktop_db(corpus, tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("desktop") / "neardup.db"
    with Store(path) as store:
        scan(store, ScanOptions(roots=(str(corpus),), workers=2))
    return path


def _desktop(db: Path, thresholds: Thresholds) -> tuple[dict, dict[tuple[str, str], tuple], dict]:
    """The desktop's JSON report (what `neardup scan` writes: groups measured from their keepers), its
    verified pairs of distinct texts (by each text's first path, with
    their numbers) and its boilerplate summary."""
    with Session(db) as session:
        view = session.open((), thresholds)
        assert view is not None
        report = json.loads(session.report("json"))
        report["csv"], report["html"] = session.report("csv"), session.report("html")
    with Store(db) as store:
        matcher = Matcher(store)
        result = matcher.match(thresholds)
        ids = matcher.arrays.content_ids
        text_of = {int(cid): store.contents.fingerprint(int(cid))[2] for cid in ids.tolist()}
        first_path: dict[bytes, tuple[str, int]] = {}
        for doc in result.documents:
            if doc.status is Status.OK and doc.content_id in text_of:
                text = text_of[doc.content_id]
                first_path[text] = min(first_path.get(text, (doc.path, doc.content_id)), (doc.path, doc.content_id))
        pairs = {}
        i, j = matcher.verified_pairs(thresholds)
        for a, b in zip(ids[i].tolist(), ids[j].tolist(), strict=True):
            if text_of[a] == text_of[b]:
                continue
            (pa, ca), (pb, cb) = sorted((first_path[text_of[a]], first_path[text_of[b]]))
            s = matcher.similarity(ca, cb)
            pairs[(pa, pb)] = (s.hamming, s.jaccard_estimate, s.jaccard, s.containment_ab, s.containment_ba)
        return report, pairs, matcher.boilerplate.summary()


@pytest.mark.parametrize(
    ("thresholds", "on_driver"),
    [*((t, True) for t in SETTINGS), (SETTINGS[2], False)],
    ids=lambda v: f"{v.method}-K{v.hamming}-T{v.jaccard}" if isinstance(v, Thresholds) else ("" if v else "shuffles"),
)
def test_the_spark_job_gives_the_desktop_answer(
    spark, corpus, desktop_db, tmp_path, monkeypatch, thresholds, on_driver
):
    """Texts numbered and paired on the driver (up to ON_DRIVER_TEXTS), and in shuffles past it; the
    copies of a content left out by the driver's list of first files (up to ON_DRIVER_COPIES), and in a
    shuffle past it."""
    if not on_driver:
        monkeypatch.setattr(pairing, "ON_DRIVER_TEXTS", 0)
        monkeypatch.setattr(job, "ON_DRIVER_COPIES", 0)
    out = tmp_path / "result"
    link = tmp_path / "uploads-link"  # a folder named through a link is the folder itself, as for a scan
    link.symlink_to(corpus)
    summary = run(spark, JobOptions(str(link), str(out), thresholds))
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    desktop, desktop_pairs, desktop_boilerplate = _desktop(desktop_db, thresholds)

    # the same documents, statuses and messages (bad files included), numbered alike
    assert report["documents"] == desktop["documents"]
    assert sum(d["status"] != "ok" for d in report["documents"]) == summary.problems >= 4
    assert not any(Path(d["path"]).name == ".hidden.txt" for d in report["documents"])
    assert report["settings"]["roots"] == [str(corpus)]
    by_name = {Path(d["path"]).name: d for d in report["documents"]}
    assert by_name["page.txt"]["chars"] == by_name["page.html"]["chars"] < len((corpus / "page.txt").read_bytes())
    assert r"en-013~name-\xff.txt" in by_name
    # each content compared once, as the desktop's database holds it: the copies (the same bytes under
    # several names) left out
    with closing(sqlite3.connect(desktop_db)) as db:
        contents, files = db.execute(
            "SELECT COUNT(DISTINCT c.id), COUNT(*) FROM files f JOIN contents c ON f.content_id = c.id"
            " WHERE c.status = 'ok'"
        ).fetchone()
    assert summary.contents == contents < files

    # the same boilerplate analysis: the footer of the letters is found, and cores are compared
    assert report["settings"]["boilerplate"] == desktop_boilerplate
    assert not thresholds.ignore_boilerplate or desktop_boilerplate["documents_affected"] >= 30

    # the same verified pairs of distinct texts, with the same numbers
    pairs = {
        (r["a"], r["b"]): (r["hamming"], r["jaccard_estimate"], r["jaccard"], r["containment_ab"], r["containment_ba"])
        for r in spark.read.parquet(str(out / "pairs")).collect()
    }
    assert len(pairs) == summary.pairs > 50
    assert pairs == desktop_pairs

    # the same groups: each component shown as groups of mutual duplicates (core/match/chains.py), the same keepers,
    # members and numbers, numbered alike; and the same pairs of duplicates, every one (the desktop gives
    # shared passages besides)
    assert len(report["groups"]) > 40
    assert report["groups"] == desktop["groups"]
    assert report["summary"]["documents_in_groups"] == desktop["summary"]["documents_in_groups"]
    assert report["summary"]["pairs"] == desktop["summary"]["pairs"] == len(report["pairs"]) > len(pairs)
    assert report["pairs"] == [{k: v for k, v in p.items() if k != "shared_passages"} for p in desktop["pairs"]]

    # the same CSV report, byte for byte, and an HTML report of the same groups with the same differences shown
    assert (out / "report.csv").read_bytes().decode("utf-8") == desktop["csv"]
    html = (out / "report.html").read_text(encoding="utf-8")
    assert html.count("data-diff=") == desktop["html"].count("data-diff=") > 10
    title = f"neardup report — {len(report['groups'])} groups"
    assert f"<title>{title}</title>" in html and f"<title>{title}</title>" in desktop["html"]


def test_fingerprints_are_identical_byte_for_byte(corpus_result, desktop_db):
    """What the executors computed is what the desktop stored: text hash, SimHash, MinHash signature,
    shingle set and edges of every document the job hands to the app, and their cores. (The cores of all
    the letters are checked by the reports' equality: the number of documents affected, and the Jaccard
    of the verified pairs, measured on cores.)"""
    assert SETTINGS[0] == Thresholds()  # the thresholds of the corpus's result
    records = [r for r in (value for _place, value in review_lines(review_parts(corpus_result))) if r["status"] == "ok"]
    assert len(records) > 100
    with Store(desktop_db) as store:
        found = store.boilerplate.load()
        assert found is not None
        by_hash = store.contents.ids_for(bytes.fromhex(_hex(r["raw_hash"])) for r in records)
        cores = dict(found.cores.items())
        compared = 0
        for record in records:
            cid = by_hash[bytes.fromhex(_hex(record["raw_hash"]))]
            simhash, signature, text_hash, count = store.contents.fingerprint(cid)
            shingles, edges = store.contents.shingles_and_edges([cid])[cid]
            assert _hex(record["text_hash"]) == text_hash.hex()
            assert to_unsigned(record["simhash"]) == simhash
            assert _hex(record["minhash"]) == signature.astype("<u4").tobytes().hex()
            assert _hex(record["shingles"]) == shingles.astype("<u4").tobytes().hex()
            assert record["shingle_count"] == count
            if edges is None:
                assert record["edges"] is None
            else:
                assert _hex(record["edges"]) == pack_order(edges, shingles).hex()
            sequence = store.contents.sequences([cid]).get(cid)
            assert (record["sequence"] is None) == (sequence is None)
            if sequence is not None:
                assert _hex(record["sequence"]) == pack_order(sequence[0], shingles).hex()
            core = record["core"]
            assert (core is None) == (cid not in cores)
            if core is not None:
                assert (core["shingle_count"], _hex(core["minhash"]), core["head_cut"], core["tail_cut"]) == (
                    cores[cid].shingle_count,
                    cores[cid].minhash.hex(),
                    cores[cid].head_cut,
                    cores[cid].tail_cut,
                )
                compared += 1
        assert compared >= 2, "the grouped letters (a letter and its near-copy) have cores"


def _hex(b64: str) -> str:
    import base64

    return base64.b64decode(b64).hex()


@pytest.mark.parametrize("measured_on_driver", [True, False], ids=["", "joined"])
def test_a_component_too_large_to_measure_every_pair_of_is_split_as_the_desktop_splits_it(
    spark, corpus, desktop_db, tmp_path, monkeypatch, measured_on_driver
):
    """Past ALL_PAIRS_LIMIT members, the desktop splits a component around keepers along the pairs that
    joined it (chains.tree_stars), measuring each member against its part's keeper; the job does the same.
    The limit is lowered on both sides, so that the corpus's families and chain of drafts take that way.
    Those members are measured on the driver, and past ON_DRIVER_MEASURED through joins."""
    from neardup_gui.core.match import chains
    from neardup_gui.spark import result

    thresholds = Thresholds(Method.BOTH, 4, 0.7, ignore_boilerplate=False)
    monkeypatch.setattr(chains, "ALL_PAIRS_LIMIT", 4)
    monkeypatch.setattr(result, "ALL_PAIRS_LIMIT", 4)
    if not measured_on_driver:
        monkeypatch.setattr(result, "ON_DRIVER_MEASURED", 0)
    out = tmp_path / "result"
    run(spark, JobOptions(str(corpus), str(out), thresholds))
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    desktop, _pairs, _boilerplate = _desktop(desktop_db, thresholds)
    assert report["groups"] == desktop["groups"]
    assert report["pairs"] == [{k: v for k, v in p.items() if k != "shared_passages"} for p in desktop["pairs"]]
    # the lowered limit changed what is shown (the corpus's components of 5 to 57 took the other way, one of
    # them split around keepers, the others listed with the keeper's pairs)
    with monkeypatch.context() as m:
        m.setattr(chains, "ALL_PAIRS_LIMIT", 300)
        unsplit, _pairs, _boilerplate = _desktop(desktop_db, thresholds)
    assert unsplit["groups"] != desktop["groups"]
