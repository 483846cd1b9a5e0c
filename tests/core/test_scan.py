import errno
import json
import os
import random
import re
import shutil
from pathlib import Path

import numpy as np
import pytest

from neardup_gui.core import i18n
from neardup_gui.core.fingerprint.scheme import Scheme
from neardup_gui.core.jobs import CancelToken, JobCancelled
from neardup_gui.core.match.matcher import NOT_DUPLICATE, Matcher, match
from neardup_gui.core.models import FileEntry, Method, ScanOptions, Status, Thresholds
from neardup_gui.core.query import query
from neardup_gui.core.scan import scan, summary_text
from neardup_gui.core.store.store import Store
from tests.conftest import PDF_SAMPLES, chinese_texts, english_texts, plant_edits, write_pdf, write_slow_docx


def mark_not_duplicate(store: Store, matcher: Matcher, a, b) -> None:
    """The ruling as the session records it, on a bare store and matcher."""
    hashes = store.contents.hashes([a.content_id, b.content_id])
    store.verdicts.set(hashes[a.content_id], hashes[b.content_id], NOT_DUPLICATE)
    matcher.refresh_verdicts()


EDIT_RATES = (0.0, 0.005, 0.01, 0.02)


def group_names(result) -> list[set[str]]:
    docs = {d.id: d for d in result.documents}
    return [{Path(docs[m.document_id].path).name for m in g.members} for g in result.groups]


@pytest.fixture(scope="module")
def planted_corpus(tmp_path_factory) -> Path:
    """Unrelated real documents (licences, Chinese articles) each with near-copies at known edit rates."""
    root = tmp_path_factory.mktemp("planted")
    for name, content in {**english_texts(), **chinese_texts()}.items():
        (root / f"{name}.txt").write_text(content, encoding="utf-8")
        for n, rate in enumerate(EDIT_RATES[1:], start=1):
            (root / f"{name}~{n}.txt").write_text(plant_edits(content, rate, seed=n), encoding="utf-8")
    # a Chinese near-copy stored as GB18030 and a PDF of an English one: same documents, other forms
    seed = next(iter(chinese_texts()))
    (root / f"{seed}~gb.txt").write_bytes(chinese_texts()[seed].encode("gb18030"))
    write_pdf(root / "BSD~pdf.pdf", english_texts()["BSD"])
    return root


@pytest.fixture(scope="module")
def planted_db(planted_corpus, tmp_path_factory):
    path = tmp_path_factory.mktemp("db") / "n.db"
    with Store(path) as store:
        summary = scan(store, ScanOptions(roots=(str(planted_corpus),), workers=2))
    return path, summary


@pytest.mark.e2e
@pytest.mark.parametrize("method", list(Method))
def test_planted_near_duplicates_all_found_and_nothing_unrelated_grouped(planted_corpus, planted_db, method):
    path, _ = planted_db
    with Store(path) as store:
        # planted copies (<= 2% edits) lie within 10 bits, unrelated documents 15+ bits apart (measured)
        result = match(store, Thresholds(method=method, hamming=12))
    groups = group_names(result)
    bases = {**english_texts(), **chinese_texts()}
    expected_copies = len(EDIT_RATES) - 1
    for base in bases:
        mine = [g for g in groups if f"{base}.txt" in g]
        assert len(mine) == 1, f"{base} not grouped with {method}"
        members = mine[0]
        assert all(name.split("~")[0].removesuffix(".txt").removesuffix(".pdf") == base for name in members), members
        copies = {n for n in members if "~" in n and not n.endswith(("~gb.txt", "~pdf.pdf"))}
        assert len(copies) == expected_copies, (base, members)
    assert len(groups) == len(bases)


@pytest.mark.e2e
def test_each_member_carries_its_similarity_to_the_representative(planted_db):
    path, _ = planted_db
    with Store(path) as store:
        result = match(store, Thresholds())
    docs = {d.id: d for d in result.documents}
    for g in result.groups:
        assert g.members[0].document_id == g.representative
        assert g.members[0].similarity.jaccard == 1.0
        for m in g.members[1:]:
            s = m.similarity
            assert 0.0 < s.jaccard <= 1.0 and 0 <= s.hamming <= 64
            assert s.containment >= s.jaccard
            assert docs[m.document_id].status is Status.OK


@pytest.mark.e2e
def test_gb18030_copy_and_pdf_copy_are_exact_text_duplicates(planted_db):
    path, _ = planted_db
    with Store(path) as store:
        result = match(store, Thresholds())
    by_name = {Path(d.path).name: d for d in result.documents}
    seed = next(iter(chinese_texts()))
    pairs = {(p.a, p.b): p for p in result.pairs}
    gb, utf8 = by_name[f"{seed}~gb.txt"].id, by_name[f"{seed}.txt"].id
    pair = pairs.get((min(gb, utf8), max(gb, utf8)))
    assert pair is not None and pair.matched_by == "exact"
    pdf = by_name["BSD~pdf.pdf"]
    assert pdf.status is Status.OK
    assert any({"BSD.txt", "BSD~pdf.pdf"} <= g for g in group_names(result))


@pytest.mark.e2e
def test_rescan_of_an_unchanged_tree_opens_nothing(planted_corpus, planted_db, tmp_path):
    path, first = planted_db
    db = tmp_path / "copy.db"
    shutil.copy(path, db)
    victim = planted_corpus / "BSD.txt"
    stat = victim.stat()
    original = victim.read_bytes()
    try:
        # same size and mtime, other bytes: if the scan opened the file it would notice
        victim.write_bytes(original.swapcase())
        os.utime(victim, ns=(stat.st_atime_ns, stat.st_mtime_ns))
        with Store(db) as store:
            before = store.files.document_by_path(str(victim)).content_id
            again = scan(store, ScanOptions(roots=(str(planted_corpus),), workers=1))
            assert store.files.document_by_path(str(victim)).content_id == before
        assert again.unchanged == first.files_found and again.extracted == 0 and again.reused == 0
    finally:
        victim.write_bytes(original)
        os.utime(victim, ns=(stat.st_atime_ns, stat.st_mtime_ns))


def _scan(db: Path, root: Path, **kw):
    with Store(db) as store:
        return scan(store, ScanOptions(roots=(str(root),), workers=1, **kw))


@pytest.mark.e2e
def test_changed_moved_copied_and_deleted_files(tmp_path, db_path):
    root = tmp_path / "docs"
    root.mkdir()
    texts = english_texts()
    (root / "a.txt").write_text(texts["BSD"])
    (root / "b.txt").write_text(texts["MPL-2.0"])
    (root / "c.txt").write_text(texts["Apache-2.0"])
    first = _scan(db_path, root)
    assert first.extracted == 3

    (root / "sub").mkdir()
    os.rename(root / "a.txt", root / "sub" / "moved.txt")  # moved: same bytes, not read again
    shutil.copy(root / "b.txt", root / "b-copy.txt")  # copied: linked, not read again
    (root / "c.txt").write_text(texts["Apache-2.0"] + "\nAmended.")  # changed: read again
    second = _scan(db_path, root)
    assert (second.extracted, second.reused, second.removed) == (1, 2, 1)

    with Store(db_path) as store:
        paths = {Path(d.path).name for d in store.files.documents()}
        assert paths == {"moved.txt", "b.txt", "b-copy.txt", "c.txt"}
        result = match(store, Thresholds())
        assert group_names(result) == [{"b.txt", "b-copy.txt"}]
    (root / "b-copy.txt").unlink()
    third = _scan(db_path, root)
    assert third.removed == 1
    with Store(db_path) as store:
        assert match(store, Thresholds()).groups == ()


@pytest.mark.e2e
def test_the_same_bytes_in_two_places_are_extracted_once(tmp_path, db_path):
    root = tmp_path / "docs"
    root.mkdir()
    for name in ("one.txt", "two.txt", "three.txt"):
        (root / name).write_text(english_texts()["GPL-2"])
    summary = _scan(db_path, root)
    assert summary.extracted == 1 and summary.files_found == 3 and summary.copies == 2
    assert summary_text(summary).endswith("; 2 files the same bytes as one read, read with it")


@pytest.mark.e2e
def test_a_new_scheme_refingerprints_a_new_threshold_never(tmp_path, db_path):
    root = tmp_path / "docs"
    root.mkdir()
    (root / "a.txt").write_text(english_texts()["BSD"])
    _scan(db_path, root)
    with Store(db_path) as store:
        for k in (0, 5, 12):
            match(store, Thresholds(hamming=k, jaccard=0.3))
        assert _scan(db_path, root).extracted == 0
        store.set_meta("scheme", Scheme(shingle_size=9).to_json())
    again = _scan(db_path, root)
    assert again.fingerprints_reset and again.extracted == 1
    assert "every file was read again" in summary_text(again)


@pytest.mark.e2e
def test_bad_files_each_get_a_status_and_never_stop_the_scan(tmp_path, db_path):
    root = tmp_path / "bad"
    root.mkdir()
    (root / "empty.txt").write_bytes(b"")
    (root / "binary.txt").write_bytes(os.urandom(5000))
    (root / "truncated.pdf").write_bytes(write_pdf(tmp_path / "x.pdf", english_texts()["BSD"]).read_bytes()[:700])
    shutil.copy(PDF_SAMPLES / "005-libreoffice-writer-password_libreoffice-writer-password.pdf", root / "locked.pdf")
    shutil.copy(PDF_SAMPLES / "019-grayscale-image_grayscale-image.pdf", root / "scan.pdf")
    (root / "huge.txt").write_text("word " * 300_000)
    (root / "fine.txt").write_text(english_texts()["BSD"])
    (root / "dangling.txt").symlink_to(root / "nowhere.txt")
    (root / "<img src=x onerror=alert(1)>.txt").write_text("<script>alert(1)</script> text")
    with Store(db_path) as store:
        scan(store, ScanOptions(roots=(str(root),), workers=2, max_file_size=1 << 20))
        status = {Path(d.path).name: d for d in store.files.documents()}
    assert status["empty.txt"].status is Status.EMPTY
    assert status["binary.txt"].status is Status.UNSUPPORTED
    assert status["truncated.pdf"].status in (Status.ERROR, Status.EMPTY)
    assert status["locked.pdf"].status is Status.ENCRYPTED
    assert status["scan.pdf"].status is Status.EMPTY and "scan" in status["scan.pdf"].message
    assert status["huge.txt"].status is Status.TOO_LARGE and "MiB" in status["huge.txt"].message
    assert status["fine.txt"].status is Status.OK
    assert status["<img src=x onerror=alert(1)>.txt"].status is Status.OK
    assert all(d.message for d in status.values() if d.status is not Status.OK)


@pytest.mark.e2e
def test_a_file_that_takes_too_long_costs_that_file_only(tmp_path, db_path):
    root = tmp_path / "slow"
    root.mkdir()
    write_slow_docx(root / "slow.docx")  # ~5 s to read
    (root / "fast.txt").write_text(english_texts()["BSD"])
    with Store(db_path) as store:
        scan(store, ScanOptions(roots=(str(root),), workers=1, file_timeout=1.0))
        status = {Path(d.path).name: d for d in store.files.documents()}
    assert status["slow.docx"].status is Status.ERROR and "longer than 1 s" in status["slow.docx"].message
    assert "longer time limit" in status["slow.docx"].message
    assert status["fast.txt"].status is Status.OK


@pytest.mark.e2e
def test_a_file_that_ran_out_of_time_is_read_again_with_a_longer_limit_or_when_asked(tmp_path, db_path):
    root = tmp_path / "slow"
    root.mkdir()
    write_slow_docx(root / "slow.docx")  # ~5 s to read
    tried: list[int] = []

    def scan_with(**options) -> Status:
        tried.clear()
        with Store(db_path) as store:
            scan(
                store,
                ScanOptions(roots=(str(root),), workers=1, **options),
                progress=lambda e: tried.append(e.total) if e.phase == "fingerprint" else None,
            )
            return store.files.document_by_path(str(root / "slow.docx")).status

    assert scan_with(file_timeout=1.0) is Status.ERROR
    assert scan_with(file_timeout=1.0) is Status.ERROR and max(tried) == 0  # the same limit: not tried again
    assert scan_with(file_timeout=1.0, retry_failed=True) is Status.ERROR and max(tried) == 1  # asked: tried
    assert scan_with(file_timeout=120.0) is Status.OK and max(tried) == 1  # a longer limit: read, and it fits
    assert scan_with(file_timeout=120.0, retry_failed=True) is Status.OK and max(tried) == 0  # nothing failed


@pytest.mark.e2e
def test_a_text_too_large_for_a_readers_memory_costs_that_file_only_and_says_so(tmp_path, db_path):
    """A reader may use a fixed amount of memory: a one-line text that needs more is stopped, reported
    with the figure and a remedy, and read on request once more is allowed; the rest of the scan is
    untouched."""
    root = tmp_path / "big"
    root.mkdir()
    words = np.random.default_rng(3).integers(0, 50_000, 1_500_000)
    (root / "huge.txt").write_text(" ".join(f"w{n}" for n in words.tolist()))  # ~10 MB on one line
    (root / "a.txt").write_text(english_texts()["BSD"])
    shutil.copy(root / "a.txt", root / "b.txt")
    with Store(db_path) as store:
        scan(store, ScanOptions(roots=(str(root),), workers=1, reader_memory=30 << 20))
        huge = store.files.document_by_path(str(root / "huge.txt"))
        assert huge.status is Status.ERROR
        assert huge.message.startswith("Too large to compare") and "30 MB" in huge.message
        assert "--max-memory" in huge.message
        groups = match(store, Thresholds()).groups
        assert [sorted(Path(store.files.document(m.document_id).path).name for m in g.members) for g in groups] == [
            ["a.txt", "b.txt"]
        ]
        scan(store, ScanOptions(roots=(str(root),), workers=1, retry_failed=True))
        assert store.files.document_by_path(str(root / "huge.txt")).status is Status.OK


@pytest.mark.e2e
def test_cancel_keeps_what_is_done_and_the_next_scan_completes(tmp_path, db_path, planted_corpus):
    cancel = CancelToken()
    seen = []

    def progress(event):
        seen.append(event)
        if event.phase == "fingerprint" and event.done >= 5:
            cancel.cancel()

    with Store(db_path) as store:
        with pytest.raises(JobCancelled):
            scan(store, ScanOptions(roots=(str(planted_corpus),), workers=2), progress=progress, cancel=cancel)
        kept = sum(1 for d in store.files.documents() if d.content_id is not None)
        assert kept >= 5
        resumed = scan(store, ScanOptions(roots=(str(planted_corpus),), workers=2))
        assert resumed.unchanged == kept
        assert {e.phase for e in seen} >= {"discover", "read", "fingerprint"}
        complete = match(store, Thresholds())
    assert len(complete.groups) == len(english_texts()) + len(chinese_texts())


@pytest.mark.e2e
def test_query_one_file_against_the_database(planted_corpus, planted_db, tmp_path):
    path, _ = planted_db
    outsider = tmp_path / "new.txt"
    outsider.write_text(plant_edits(english_texts()["MPL-2.0"], 0.01, seed=99))
    with Store(path) as store:
        for method in Method:
            hits = query(store, str(outsider), Thresholds(method=method, hamming=12))
            names = {Path(h.document.path).name for h in hits}
            assert "MPL-2.0.txt" in names, method
            assert all(n.startswith("MPL-2.0") for n in names), names
        stored_hits = query(store, str(planted_corpus / "GPL-2.txt"), Thresholds(method=Method.MINHASH, jaccard=0.5))
        assert {Path(h.document.path).name for h in stored_hits} >= {"GPL-2~1.txt", "GPL-2~2.txt", "GPL-2~3.txt"}


@pytest.mark.e2e
def test_regrouping_at_other_thresholds_reuses_memory(planted_db):
    path, _ = planted_db
    with Store(path) as store:
        matcher = Matcher(store)
        strict = matcher.match(Thresholds(method=Method.SIMHASH, hamming=0))
        loose = matcher.match(Thresholds(method=Method.SIMHASH, hamming=8))
    assert sum(len(g.members) for g in strict.groups) < sum(len(g.members) for g in loose.groups)


@pytest.mark.e2e
def test_a_not_duplicate_decision_splits_the_pair_and_withdrawing_it_joins_them_again(planted_db, tmp_path):
    """The decision reaches a matcher that already holds its forests: the pair leaves the groups at
    once, at this threshold and others, and comes back when the decision is withdrawn."""

    path, _ = planted_db
    work = tmp_path / "verdict.db"
    shutil.copy(path, work)
    with Store(work) as store:
        matcher = Matcher(store)
        for method in (Method.MINHASH, Method.SIMHASH):
            thresholds = Thresholds(method=method, hamming=8, jaccard=0.8)
            result = matcher.match(thresholds)
            pair = next(p for p in result.pairs if p.matched_by != "exact")
            a, b = matcher.document(pair.a), matcher.document(pair.b)

            def together(result, a=a, b=b) -> bool:
                return any({a.id, b.id} <= {m.document_id for m in g.members} for g in result.groups)

            assert together(result)
            mark_not_duplicate(store, matcher, a, b)
            split = matcher.match(thresholds)
            assert not any({p.a, p.b} == {a.id, b.id} for p in split.pairs)
            looser = matcher.match(Thresholds(method=method, hamming=6, jaccard=0.85))
            assert not any({p.a, p.b} == {a.id, b.id} for p in looser.pairs)
            hashes = store.contents.hashes([a.content_id, b.content_id])
            store.verdicts.set(hashes[a.content_id], hashes[b.content_id], None)
            assert store.verdicts.pairs(NOT_DUPLICATE) == set()
            matcher.refresh_verdicts()
            assert together(matcher.match(thresholds))


@pytest.mark.e2e
def test_the_next_matcher_cuts_the_kept_forest_until_a_decision_changes_the_state(planted_db, tmp_path):
    """A restart or an unchanged rescan reuses the forests kept in the database; a "not a duplicate"
    decision (or new contents) makes them another state's, and they are built again."""
    import sqlite3

    path, _ = planted_db
    work = tmp_path / "kept.db"
    shutil.copy(path, work)
    strict = Thresholds(method=Method.MINHASH, jaccard=0.95)
    with Store(work) as store:
        first = Matcher(store)
        expected = group_names_of(first.match(Thresholds()))
        before = group_names_of(first.match(strict))
        assert group_names_of(Matcher(store).match(Thresholds())) == expected
    # the kept forest is what the next matcher cuts: every edge made to look identical joins more at 0.95
    with sqlite3.connect(work) as db:
        rows = db.execute("SELECT name, length(weight) FROM forests WHERE name LIKE 'minhash%'").fetchall()
        assert rows
        for name, size in rows:
            db.execute("UPDATE forests SET weight = ? WHERE name = ?", (np.ones(size // 8, "<f8").tobytes(), name))
    with Store(work) as store:
        tampered = Matcher(store).match(strict)
        assert sum(map(len, group_names_of(tampered))) > sum(map(len, before))
        pair = next(p for p in tampered.pairs if p.matched_by != "exact")
        matcher = Matcher(store)
        mark_not_duplicate(store, matcher, matcher.document(pair.a), matcher.document(pair.b))
        rebuilt = Matcher(store).match(strict)  # another state: built again, from the measurements
        assert sum(map(len, group_names_of(rebuilt))) <= sum(map(len, before))


def group_names_of(result) -> list[set[str]]:
    return sorted(sorted(s) for s in group_names(result))


def test_groups_at_every_threshold_equal_the_components_of_all_verified_pairs(tmp_path):
    """A family larger than the dense-bucket limit (members edited at many rates, so pairs straddle
    every threshold): one matcher, thresholds moved down and up again (the spanning forest is cut,
    not rebuilt), must give at each threshold the components of every verified pair."""
    from neardup_gui.core.fingerprint import minhash
    from neardup_gui.core.fingerprint.scheme import fingerprint_bytes
    from neardup_gui.core.match import index
    from neardup_gui.core.match.candidates import DENSE_BUCKET
    from neardup_gui.core.match.unionfind import UnionFind
    from neardup_gui.core.store.files import FileRecord

    texts = english_texts()
    family = [
        plant_edits(texts["GPL-2"], rate, seed=n)
        for n, rate in enumerate([0.002] * 30 + [0.01] * 20 + [0.03] * 10 + [0.05] * 10 + [0.15] * 10 + [0.3] * 5)
    ]
    others = [plant_edits(t, 0.01, seed=n) for n, t in enumerate(texts.values())]
    docs = family + others
    scheme = Scheme.current()
    with Store(tmp_path / "dense.db") as store:
        store.ensure_scheme(scheme)
        fps = [fingerprint_bytes("text", d.encode(), scheme) for d in docs]
        store.write_batch(
            fps,
            [
                FileRecord(f"/d/{n:03d}.txt", len(d), n, "text", content_hash=fp.raw_hash)
                for n, (d, fp) in enumerate(zip(docs, fps, strict=True))
            ],
        )
        matcher = Matcher(store)
        bands, rows = minhash.optimal_bands(0.8)
        *_, buckets = index.band_pairs(matcher.arrays.minhash, bands, rows, dense=DENSE_BUCKET)
        assert buckets, "the family must form at least one dense bucket"
        seen = set()
        for method, t, k in [
            (Method.MINHASH, 0.9, 3),
            (Method.MINHASH, 0.8, 3),
            (Method.MINHASH, 0.83, 3),
            (Method.MINHASH, 0.95, 3),
            (Method.MINHASH, 0.6, 3),
            (Method.MINHASH, 0.71, 3),
            (Method.SIMHASH, 0.8, 6),
            (Method.SIMHASH, 0.8, 2),
            (Method.BOTH, 0.85, 4),
        ]:
            thresholds = Thresholds(method, k, t)
            grouped = {frozenset(m.document_id for m in g.members) for g in matcher.match(thresholds).groups}
            every = Matcher(store)
            i, j = every.verified_pairs(thresholds)
            uf = UnionFind(len(every.arrays))
            for a, b in zip(i.tolist(), j.tolist(), strict=True):
                uf.union(a, b)
            labels = uf.labels()
            doc_of_row = {every._row_of[d.content_id]: d.id for d in every.documents}
            components: dict[int, set[int]] = {}
            for row, label in enumerate(labels.tolist()):
                components.setdefault(label, set()).add(doc_of_row[row])
            assert grouped == {frozenset(c) for c in components.values() if len(c) > 1}, thresholds
            seen.add(frozenset(grouped))
        assert len(seen) >= 5, "the thresholds must actually change the groups"


def _form(own_words: int, seed: int) -> str:
    """A form letter: one sentence repeated 60 times, then a few words of its own."""
    rng = random.Random(seed)
    names = [
        "river",
        "stone",
        "lamp",
        "cloud",
        "maple",
        "orbit",
        "velvet",
        "harbor",
        "copper",
        "meadow",
        "signal",
        "pepper",
        "quartz",
        "tunnel",
        "willow",
        "zenith",
        "ember",
        "falcon",
        "glacier",
        "hollow",
    ]
    return "the annual report of the board " * 60 + " ".join(
        f"{rng.choice(names)}{rng.randrange(1000)}" for _ in range(own_words)
    )


def test_simhash_never_groups_texts_that_share_little_of_their_wording(tmp_path):
    """Two form letters whose repeated sentence outweighs their own words land within a few bits of
    each other while sharing under a fifth of their shingles: SimHash's candidates are verified, so
    they are not grouped at any K, while a near copy (one word changed) still is."""
    from neardup_gui.core.fingerprint.scheme import fingerprint_bytes, text_shingles
    from neardup_gui.core.fingerprint.simhash import hamming
    from neardup_gui.core.fingerprint.text import normalise
    from neardup_gui.core.models import HAMMING_MAX, SIMHASH_MIN_JACCARD
    from neardup_gui.core.store.files import FileRecord

    scheme = Scheme.current()
    first, second = _form(14, 4), _form(14, 5)
    near = first.rsplit(" ", 1)[0] + " changed"
    fps = [fingerprint_bytes("text", d.encode(), scheme) for d in (first, second, near)]
    sets = [text_shingles(normalise(d), scheme) for d in (first, second)]
    shared = np.intersect1d(*sets).size
    assert shared / (len(sets[0]) + len(sets[1]) - shared) < SIMHASH_MIN_JACCARD
    assert hamming(fps[0].simhash, fps[1].simhash) <= Thresholds().hamming, "the pair SimHash alone would group"
    with Store(tmp_path / "forms.db") as store:
        store.ensure_scheme(scheme)
        store.write_batch(
            fps,
            [
                FileRecord(f"/d/{name}.txt", 1, n, "text", content_hash=fp.raw_hash)
                for n, (name, fp) in enumerate(zip(("first", "second", "near"), fps, strict=True))
            ],
        )
        matcher = Matcher(store)
        for k in (Thresholds().hamming, HAMMING_MAX):
            for ignore in (True, False):
                thresholds = Thresholds(Method.SIMHASH, k, ignore_boilerplate=ignore)
                assert group_names(matcher.match(thresholds)) == [{"first.txt", "near.txt"}], (k, ignore)
                i, j = matcher.verified_pairs(thresholds)
                assert len(i) == 1, (k, ignore)
        asked = tmp_path / "second.txt"
        asked.write_text(second)
        hits = query(store, str(asked), Thresholds(Method.SIMHASH, HAMMING_MAX))
        assert [Path(h.document.path).name for h in hits] == ["second.txt"], "itself (stored) only"


def test_a_group_that_chains_documents_far_apart_says_so(tmp_path):
    """Ten successive revisions of one licence, each a few words from the one before: single linkage
    joins them all at T = 0.7 though the last shares far less than half of its text with the first;
    that group says it is chained (in the summary and the JSON report), a pair of close copies does not."""
    from neardup_gui.core.fingerprint.scheme import fingerprint_bytes
    from neardup_gui.core.review.report import ReportContext, to_json
    from neardup_gui.core.review.rules import summarise
    from neardup_gui.core.store.files import FileRecord

    texts = english_texts()
    revisions = [texts["GPL-2"]]
    for n in range(9):
        revisions.append(plant_edits(revisions[-1], 0.03, seed=n))
    docs = [*revisions, texts["MPL-2.0"], plant_edits(texts["MPL-2.0"], 0.005, seed=1)]
    scheme = Scheme.current()
    thresholds = Thresholds(Method.MINHASH, 8, 0.7)
    with Store(tmp_path / "chain.db") as store:
        store.ensure_scheme(scheme)
        fps = [fingerprint_bytes("text", d.encode(), scheme) for d in docs]
        store.write_batch(
            fps, [FileRecord(f"/d/{n:02d}.txt", 1, n, "text", content_hash=fp.raw_hash) for n, fp in enumerate(fps)]
        )
        result = Matcher(store).match(thresholds)
    by_name = {frozenset(g): g for g in map(frozenset, group_names(result))}
    chain = frozenset(f"{n:02d}.txt" for n in range(10))
    assert set(by_name) == {chain, frozenset({"10.txt", "11.txt"})}
    summaries = {
        frozenset(
            Path(next(d.path for d in result.documents if d.id == m.document_id)).name for m in s.group.members
        ): s
        for s in summarise(result)
    }
    assert summaries[chain].worst_jaccard < thresholds.jaccard - 0.2, "the chain's ends are far apart"
    assert summaries[chain].group.chained(thresholds)
    assert not summaries[frozenset({"10.txt", "11.txt"})].group.chained(thresholds)
    report = json.loads(to_json(result, ReportContext()))
    assert sorted(g["chained"] for g in report["groups"]) == [False, True]
    for method in (Method.SIMHASH, Method.BOTH):  # a pair is joined directly: never a chain
        other = Thresholds(method, 8, 0.7)
        assert not any(g.chained(other) for g in result.groups if len(g.members) == 2)


def test_a_file_changed_or_deleted_between_hashing_and_reading(tmp_path):
    """The scan hashes a file, then a worker reads it: if it changed or vanished in between, the status says so."""
    from neardup_gui.core.jobs import NEVER_CANCELLED
    from neardup_gui.core.scan import ExtractTask, FileFailure, extract_task, hash_file

    path = tmp_path / "moving.txt"
    path.write_text(english_texts()["BSD"])
    size = path.stat().st_size
    digest = hash_file(str(path), NEVER_CANCELLED)
    path.write_text(english_texts()["BSD"] + " appended while the scan ran")
    outcome = extract_task(ExtractTask(str(path), "text", digest, Scheme.current(), size))
    assert isinstance(outcome, FileFailure) and outcome.status is Status.ERROR
    assert "changed while it was being scanned" in outcome.message
    path.unlink()
    outcome = extract_task(ExtractTask(str(path), "text", digest, Scheme.current(), size))
    assert isinstance(outcome, FileFailure) and outcome.status is Status.UNREADABLE
    assert "deleted during the scan" in outcome.message
    # swapped for a pipe (an open would wait for a writer forever) or a link to an endless device
    os.mkfifo(path)
    outcome = extract_task(ExtractTask(str(path), "text", digest, Scheme.current(), size))
    assert isinstance(outcome, FileFailure) and "replaced by a folder, a link, a pipe or a device" in outcome.message
    path.unlink()
    path.symlink_to("/dev/zero")
    outcome = extract_task(ExtractTask(str(path), "text", digest, Scheme.current(), size))
    assert isinstance(outcome, FileFailure) and "replaced by a folder, a link, a pipe or a device" in outcome.message


def test_a_file_the_system_cannot_open_is_said_in_plain_words_with_the_system_s_own_as_details(tmp_path, chinese):
    from neardup_gui.core.scan import hash_files

    too_long = FileEntry(str(tmp_path / ("a long name " * 30 + ".txt")), 1, 0, "text")
    [said] = hash_files((too_long,))
    message, details = i18n.split_details(said)
    assert message == "Its path is too long to open. Move it to a shorter path (or shorten its name) and scan again."
    assert details == f"OSError: [Errno {errno.ENAMETOOLONG}] {os.strerror(errno.ENAMETOOLONG)}"
    shown = i18n.localize("Problem", message)
    assert re.search(r"[\u4e00-\u9fff]", shown) and not re.search(r"[A-Za-z]", shown), shown


@pytest.mark.e2e
def test_a_file_the_user_may_not_read_is_unreadable_with_a_message():
    """Root reads everything, so under root the scan drops to an unprivileged user after start-up."""
    import json
    import subprocess
    import sys
    import tempfile

    base = Path(tempfile.mkdtemp(prefix="neardup-perm-"))
    try:
        os.chmod(base, 0o777)
        root = base / "docs"
        root.mkdir()
        os.chmod(root, 0o777)
        secret = root / "secret.txt"
        secret.write_text(english_texts()["MPL-2.0"])
        os.chmod(secret, 0)
        script = (
            "import json, os; from neardup_gui.core.scan import scan; from neardup_gui.core.store.store import Store;"
            "from neardup_gui.core.models import ScanOptions; from neardup_gui.core.fingerprint.scheme import Scheme;"
            # imports done while the interpreter's files are readable
            "Scheme.current(); import multiprocessing.forkserver;"
            "os.getuid() == 0 and (os.setgid(65534), os.setuid(65534));"
            f"s = Store({str(base / 'n.db')!r}); scan(s, ScanOptions(roots=({str(root)!r},), workers=1));"
            "print(json.dumps({os.path.basename(d.path): [d.status, d.message] for d in s.files.documents()}))"
        )
        out = subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            text=True,
            timeout=120,
            env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
        )
        assert out.returncode == 0, out.stderr
        status, message = json.loads(out.stdout)["secret.txt"]
        assert status == "unreadable" and "Permission denied" in message
    finally:
        shutil.rmtree(base, ignore_errors=True)


@pytest.mark.e2e
def test_similarity_histogram_shows_the_planted_pairs(planted_db):
    from neardup_gui.core.review.rules import similarity_histogram

    path, _ = planted_db
    with Store(path) as store:
        matcher = Matcher(store)
        jaccard = similarity_histogram(matcher, Method.MINHASH)
        hamming = similarity_histogram(matcher, Method.SIMHASH)
    assert len(jaccard.counts) == len(jaccard.edges) - 1 == 14
    high = sum(c for c, lo in zip(jaccard.counts, jaccard.edges[:-1], strict=True) if lo >= 0.8)
    assert high >= len(english_texts()) + len(chinese_texts())  # every base has near-copies above 0.8
    assert len(hamming.counts) == 13 and sum(hamming.counts[:11]) > 0
