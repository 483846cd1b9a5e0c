import shutil
from pathlib import Path

import numpy as np
import pytest

from neardup_gui.core.jobs import CancelToken, JobCancelled
from neardup_gui.core.match import boilerplate
from neardup_gui.core.match.matcher import Matcher
from neardup_gui.core.models import Method, ScanOptions, Thresholds
from neardup_gui.core.scan import scan
from neardup_gui.core.store.store import Store
from tests.conftest import LICENSES, write_footed_letters

AT_HALF = Thresholds(Method.MINHASH, 8, 0.5)
KEEPING = Thresholds(Method.MINHASH, 8, 0.5, ignore_boilerplate=False)


@pytest.fixture(scope="module")
def footed(tmp_path_factory) -> Path:
    return write_footed_letters(tmp_path_factory.mktemp("footed"))


def names(result) -> list[set[str]]:
    docs = {d.id: d for d in result.documents}
    return [{Path(docs[m.document_id].path).name for m in g.members} for g in result.groups]


@pytest.mark.e2e
def test_a_shared_footer_no_longer_makes_unrelated_letters_duplicates(footed, tmp_path):
    with Store(tmp_path / "n.db") as store:
        scan(store, ScanOptions(roots=(str(footed),), workers=1))
        matcher = Matcher(store)
        groups_ignored = names(matcher.match(AT_HALF))
        summary = matcher.boilerplate.summary()
        groups_kept = names(matcher.match(KEEPING))
        kept_summary = matcher.boilerplate.summary()
        again = names(matcher.match(AT_HALF))
        fresh_kept = names(Matcher(store, ignore_boilerplate=False).match(KEEPING))
        by_simhash = Thresholds(Method.SIMHASH, 8, 0.5)
        simhash_result = matcher.match(by_simhash)
    # with the footer counted, unrelated letters are "near-duplicates" of each other
    assert max(len(g) for g in groups_kept) >= 25
    # without it, only the real near-copy remains
    assert groups_ignored == [{"letter00.txt", "letter00~copy.txt"}]
    assert summary["ignored"] is True and summary["documents_affected"] == 31
    assert summary["frequent_shingles"] >= 100 and summary["passages"] == 1 and summary["family_passages"] == 0
    assert kept_summary == {"ignored": False}
    # switching back and forth on one matcher gives what a matcher made for each way gives
    assert again == groups_ignored
    assert sorted(map(sorted, groups_kept)) == sorted(map(sorted, fresh_kept))
    # SimHash fingerprints whole texts, footer and all, but its pairs are verified by what is compared: with
    # the footer left out, unrelated letters are not grouped however close their fingerprints
    assert names(simhash_result) == [{"letter00.txt", "letter00~copy.txt"}]
    assert not any(g.chained(by_simhash) for g in simhash_result.groups)


@pytest.mark.e2e
def test_boilerplate_is_found_again_only_when_the_collection_changes(footed, tmp_path):
    def boilerplate_events(store):
        seen = []
        scan(
            store,
            ScanOptions(roots=(str(footed),), workers=1),
            progress=lambda e: seen.append((e.done, e.total)) if e.phase == "boilerplate" else None,
        )
        return seen

    with Store(tmp_path / "n.db") as store:
        first = boilerplate_events(store)
        assert first[-1][0] == first[-1][1] > 1
        assert boilerplate_events(store) == [(0, None), (1, 1)]  # unchanged: the phase starts and analyses nothing
        (footed / "extra.txt").write_text(
            "A new letter with nothing in common with the others at all.", encoding="utf-8"
        )
        try:
            assert boilerplate_events(store)[-1][1] > 1
        finally:
            (footed / "extra.txt").unlink()


@pytest.mark.e2e
def test_a_scan_cancelled_while_finding_boilerplate_leaves_it_stale_and_the_next_scan_finishes(footed, tmp_path):
    cancel = CancelToken()

    def stop_in_boilerplate(event):
        if event.phase == "boilerplate":
            cancel.cancel()

    with Store(tmp_path / "n.db") as store:
        with pytest.raises(JobCancelled):
            scan(store, ScanOptions(roots=(str(footed),), workers=1), progress=stop_in_boilerplate, cancel=cancel)
        stale = Matcher(store)
        assert stale.boilerplate.summary()["ignored"] is False
        assert "scan again" in stale.boilerplate.summary()["note"]
        assert max(len(g) for g in names(stale.match(AT_HALF))) >= 25  # compared whole, as it says
        scan(store, ScanOptions(roots=(str(footed),), workers=1))
        assert names(Matcher(store).match(AT_HALF)) == [{"letter00.txt", "letter00~copy.txt"}]


@pytest.mark.e2e
def test_short_texts_take_no_part(tmp_path):
    """Titles and one-liners are shingled by characters; the trigrams they share are spelling."""
    root = tmp_path / "titles"
    root.mkdir()
    for n in range(30):
        (root / f"t{n}.txt").write_text(f"The annual report of the committee, part {n}", encoding="utf-8")
    (root / "x.txt").write_text("The annual report of the committee, part 3.", encoding="utf-8")
    with Store(tmp_path / "n.db") as store:
        scan(store, ScanOptions(roots=(str(root),), workers=1))
        matcher = Matcher(store)
        summary = matcher.boilerplate.summary()
        ignored = names(matcher.match(AT_HALF))
        kept = names(matcher.match(KEEPING))
    assert summary["ignored"] is True and summary["frequent_shingles"] == 0 and summary["documents_affected"] == 0
    assert ignored == kept and any({"t3.txt", "x.txt"} <= g for g in ignored)


def test_frequent_shingles_are_exactly_those_in_the_share_of_the_collection():
    """3,000 contents: the sample of 2,000 proposes, the full pass decides."""
    rng = np.random.default_rng(3)
    n = 3000
    sets = {cid: rng.integers(1 << 20, 1 << 32, size=40, dtype=np.uint64).astype(np.uint32) for cid in range(n)}
    in_share, just_below, everywhere = np.uint32(7), np.uint32(8), np.uint32(9)
    for cid in rng.choice(n, 300, replace=False):  # 10 %: frequent
        sets[cid] = np.append(sets[cid], in_share)
    for cid in rng.choice(n, 299, replace=False):  # one short of 10 %: not
        sets[cid] = np.append(sets[cid], just_below)
    for cid in range(n):
        sets[cid] = np.sort(np.append(sets[cid], everywhere))

    found = boilerplate.analyse(np.arange(n), lambda ids: {c: (sets[c], None) for c in ids}, "digest")
    assert found.shingles.tolist() == [7, 9]
    assert len(found.cores) == 0 and found.passages == 0, "frequent shingles alone are no passage"


def _passages_collection() -> dict[int, np.ndarray]:
    """Shingle sequences (ids in text order): 40 letters that open with one letterhead and close with a
    notice (half of them with a second notice before it, the two joined by shingles of their own), with
    a common phrase amid their own text; 30 members of a family (one 150-shingle text with 3 phrases of
    three words changed in each: 5 shingles a phrase); 30 unrelated texts, 20 of which open with the same 5 shingles."""
    rng = np.random.default_rng(5)

    def fresh(k: int) -> np.ndarray:
        return rng.integers(1 << 20, 1 << 32, size=k, dtype=np.uint64).astype(np.uint32)

    letterhead, first_notice, notice, phrase = fresh(12), fresh(25), fresh(40), fresh(9)
    opening, family = fresh(5), fresh(150)
    docs = {}
    for cid in range(40):
        own = fresh(60)
        closing = np.concatenate((first_notice, fresh(2), notice)) if cid % 2 else notice
        docs[cid] = np.concatenate((letterhead, own[:30], phrase, own[30:], closing))
    for cid in range(40, 70):
        member = family.copy()
        for at in rng.choice(np.arange(10, 140, 10), 3, replace=False):  # three words changed: 5 shingles
            member[at : at + 5] = fresh(5)
        docs[cid] = member
    for cid in range(70, 100):
        docs[cid] = np.concatenate((opening, fresh(75))) if cid < 90 else fresh(80)
    return docs


def test_a_passage_at_the_edges_of_unrelated_documents_is_boilerplate_and_a_family_keeps_its_text():
    docs = _passages_collection()
    found = boilerplate.analyse(
        np.arange(len(docs)), lambda ids: {c: (np.unique(docs[c]), docs[c]) for c in ids}, "digest"
    )
    assert found.passages == 2  # the letterhead, and the notice(s) the letters close with
    assert set(found.cores) == set(range(40)), "letters only: not the family, not a short common opening"
    for cid in range(40):
        core, sequence = found.cores[cid], docs[cid]
        closing = 40 + (27 if cid % 2 else 0)  # the two notices and what joins them are one passage
        assert (core.head_cut, core.tail_cut) == (12 + 2, closing + 2)  # with the shingles that straddle
        kept = boilerplate.core_set(np.unique(sequence), sequence, core.head_cut, core.tail_cut)
        assert kept.tolist() == np.unique(sequence[14 : len(sequence) - closing - 2]).tolist()
        assert core.shingle_count == len(kept) == 69 - 4  # own text and the phrase, less the straddlers
    assert found.family_passages >= 1


def _fresh(rng: np.random.Generator, k: int) -> np.ndarray:
    return rng.integers(1 << 20, 1 << 32, size=k, dtype=np.uint64).astype(np.uint32)


def _analysed(docs: dict[int, np.ndarray], **kw) -> boilerplate.Boilerplate:
    """The analysis of shingle sequences, with the edges fingerprint keeps (``edge_window`` a side)."""
    window = kw.get("edge_window", 400)

    def edges(seq: np.ndarray) -> np.ndarray:
        return seq if len(seq) <= 2 * window else np.concatenate((seq[:window], seq[-window:]))

    return boilerplate.analyse(
        np.array(sorted(docs)), lambda ids: {c: (np.unique(docs[c]), edges(docs[c])) for c in ids}, "digest", **kw
    )


def test_a_name_or_date_inside_a_letterhead_does_not_split_it():
    """Half of 200 documents open with one 20-shingle letterhead whose fourth shingle differs in each
    (a date): it is one passage, and those documents are compared without it."""
    rng = np.random.default_rng(9)
    letterhead = _fresh(rng, 20)
    docs = {}
    for cid in range(200):
        own = _fresh(rng, 80)
        if cid % 2:
            head = letterhead.copy()
            head[3] = _fresh(rng, 1)[0]
            own = np.concatenate((head, own))
        docs[cid] = own
    found = _analysed(docs)
    assert found.passages == 1 and set(found.cores) == set(range(1, 200, 2))


def test_a_passage_must_open_or_close_the_share_of_the_collection():
    """A notice in 30 of 150 documents is frequent, but it closes only 12 of them (it stands in the middle
    of the others): 12 documents are not 10 % of 150, so it is not boilerplate."""
    rng = np.random.default_rng(4)
    notice = _fresh(rng, 30)
    docs = {cid: _fresh(rng, 80) for cid in range(150)}
    for cid in range(12):
        docs[cid] = np.concatenate((docs[cid], notice))
    for cid in range(12, 30):
        docs[cid] = np.concatenate((docs[cid][:40], notice, docs[cid][40:]))
    found = _analysed(docs)
    assert len(found.shingles) >= 30 and found.passages == 0 and len(found.cores) == 0


def test_a_passage_longer_than_the_window_is_cut_at_the_window():
    """A long text keeps its first and last ``edge_window`` positions, which do not meet: a letterhead
    that fills the whole first window is cut there, and never takes positions of the last window."""
    rng = np.random.default_rng(6)
    letterhead = _fresh(rng, 25)
    docs = {cid: np.concatenate((letterhead, _fresh(rng, 60))) for cid in range(20)}
    docs.update({cid: _fresh(rng, 85) for cid in range(20, 40)})
    found = _analysed(docs, edge_window=20)
    assert set(found.cores) == set(range(20))
    for cid in range(20):
        core, seq = found.cores[cid], docs[cid]
        assert (core.head_cut, core.tail_cut) == (20, 0)
        kept = boilerplate.core_set(np.unique(seq), np.concatenate((seq[:20], seq[-20:])), 20, 0)
        assert np.isin(seq[20:], kept).all() and not np.isin(seq[:20], kept).any()


@pytest.mark.e2e
def test_the_cores_a_database_gives_are_those_the_analysis_measured(footed, tmp_path):
    """store.contents.shingles(cores=digest) rebuilds each core from the stored edges and cuts: the same size and
    MinHash signature as the analysis stored; under another analysis's digest it refuses."""
    from neardup_gui.core.errors import StaleFingerprints
    from neardup_gui.core.fingerprint import minhash

    with Store(tmp_path / "n.db") as store:
        scan(store, ScanOptions(roots=(str(footed),), workers=2))
        found = store.boilerplate.load()
        assert found is not None and len(found.cores) == 31
        sets = store.contents.shingles(list(found.cores), cores=found.digest)
        whole = store.contents.shingles(list(found.cores))
        for cid, core in found.cores.items():
            assert len(sets[cid]) == core.shingle_count < len(whole[cid])
            assert minhash.signature(sets[cid]).astype("<u4").tobytes() == core.minhash
        with pytest.raises(StaleFingerprints):
            store.contents.shingles(list(found.cores), cores="another analysis")


def test_edge_runs_bridge_only_the_gaps_where_passages_meet():
    frequent = np.array([1, 2, 3], dtype=np.uint32)
    edges = np.array([1, 2, 9, 9, 3, 1, 7, 7, 7, 2, 3], dtype=np.uint32)
    assert boilerplate.edge_runs(np.isin(edges, frequent), 11, 2) == (6, 2)  # a gap of 3 ends the run
    assert boilerplate.edge_runs(np.isin(edges, frequent), 11, 3) == (11, 11)
    assert boilerplate.edge_runs(np.isin(edges, frequent), 3, 2) == (2, 2), "a trailing gap is not taken"
    assert boilerplate.edge_runs(np.isin(np.array([9, 1], dtype=np.uint32), frequent), 2, 2) == (0, 1)


@pytest.mark.e2e
def test_a_family_of_licence_variants_keeps_its_shared_text_beside_letters_with_a_footer(footed, tmp_path):
    """Twelve copies of the BSD licence under different copyright holders (a family, 28 % of the
    collection, whose text closes each of them) are grouped as whole texts, while the letters' footer
    is still boilerplate."""
    bsd = (LICENSES / "BSD").read_text(encoding="utf-8").split("\n", 2)[2]
    root = tmp_path / "mixed"
    shutil.copytree(footed, root)
    holders = [
        "Ada Lovelace",
        "Alan Turing",
        "Grace Hopper",
        "Edsger Dijkstra",
        "Barbara Liskov",
        "Donald Knuth",
        "Frances Allen",
        "John Backus",
        "Margaret Hamilton",
        "Niklaus Wirth",
        "Radia Perlman",
        "Ken Thompson",
    ]
    for n, holder in enumerate(holders):
        (root / f"bsd{n:02d}.txt").write_text(
            f"Copyright (c) {1990 + n} {holder}.\nAll rights reserved.\n{bsd}", encoding="utf-8"
        )
    with Store(tmp_path / "n.db") as store:
        scan(store, ScanOptions(roots=(str(root),), workers=1))
        groups = names(Matcher(store).match(Thresholds(Method.MINHASH, 8, 0.8)))
        letters = names(Matcher(store).match(AT_HALF))
    assert {f"bsd{n:02d}.txt" for n in range(12)} in groups
    assert {"letter00.txt", "letter00~copy.txt"} in letters
    assert not any("letter01.txt" in g for g in letters), "the footer is still left out"


def test_the_core_of_a_document():
    shingles = np.array([1, 2, 3, 4, 5, 6], dtype=np.uint32)
    edges = np.array([5, 1, 2, 3, 4, 5, 6], dtype=np.uint32)  # 5 opens and closes it
    assert boilerplate.core_set(shingles, edges, 2, 0).tolist() == [2, 3, 4, 5, 6], "5 is also kept text"
    assert boilerplate.core_set(shingles, edges, 2, 2).tolist() == [2, 3, 4]
    assert boilerplate.core_set(shingles, edges, 0, 0) is shingles
    assert boilerplate.core_set(shingles, None, 3, 3) is shingles


def test_arguments_are_checked():
    with pytest.raises(ValueError):
        boilerplate.analyse(np.arange(3), lambda ids: {}, "d", min_share=0)
    with pytest.raises(ValueError):
        boilerplate.analyse(np.arange(3), lambda ids: {}, "d", min_documents=1)
    with pytest.raises(ValueError):
        boilerplate.analyse(np.arange(3), lambda ids: {}, "d", edge_window=boilerplate.MIN_RUN - 1)


@pytest.mark.e2e
def test_the_cores_read_back_are_the_ones_stored_as_a_table_and_applied_to_their_rows(footed, tmp_path):
    """store.boilerplate.load() reads the cores into arrays (a CoreTable, not 100,000 objects): the same
    mapping as the rows stored, and the matcher's signatures by cores take exactly those rows."""
    with Store(tmp_path / "n.db") as store:
        scan(store, ScanOptions(roots=(str(footed),), workers=1))
        found = store.boilerplate.load()
        stored = {
            cid: boilerplate.Core(count, blob, head_cut, tail_cut)
            for cid, count, blob, head_cut, tail_cut in store._db.execute(
                "SELECT content_id, shingle_count, minhash, head_cut, tail_cut FROM cores"
            )
        }
        whole = store.contents.fingerprint_arrays()
        matcher = Matcher(store)
        applied = matcher.arrays
        assert not np.array_equal(applied.minhash, whole.minhash)  # the cores' rows differ
        # the whole texts' arrays were changed in place, and are made again when the other way is asked for
        matcher.set_ignore_boilerplate(False)
        restored = matcher.arrays
        matcher.set_ignore_boilerplate(True)
        assert matcher.arrays is applied
    assert np.array_equal(restored.minhash, whole.minhash) and np.array_equal(restored.content_ids, whole.content_ids)
    assert np.array_equal(restored.shingle_count, whole.shingle_count) and restored.minhash is not applied.minhash
    assert found is not None and isinstance(found.cores, boilerplate.CoreTable)
    assert len(found.cores) == len(stored) == 31
    assert dict(found.cores.items()) == stored and list(found.cores) == sorted(stored)
    assert boilerplate.CoreTable.of(stored) == found.cores
    absent = max(stored) + 1
    assert absent not in found.cores and "1" not in found.cores
    with pytest.raises(KeyError):
        found.cores[absent]
    for row, cid in enumerate(whole.content_ids.tolist()):
        core = stored.get(cid)
        expected = np.frombuffer(core.minhash, dtype="<u4") if core else whole.minhash[row]
        assert applied.minhash[row].tolist() == expected.tolist()
        assert applied.shingle_count[row] == (core.shingle_count if core else whole.shingle_count[row])
    with pytest.raises(ValueError):
        boilerplate.CoreTable(np.array([2, 1]), np.zeros(2, np.int64), np.zeros((2, 4), np.uint32))
