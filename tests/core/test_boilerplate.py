from pathlib import Path

import numpy as np
import pytest

from neardup_gui.core import boilerplate
from neardup_gui.core.jobs import CancelToken, JobCancelled
from neardup_gui.core.match import Matcher
from neardup_gui.core.models import Method, ScanOptions, Thresholds
from neardup_gui.core.scan import scan
from neardup_gui.core.store import Store
from tests.conftest import write_footed_letters

AT_HALF = Thresholds(Method.MINHASH, 8, 0.5)
KEEPING = Thresholds(Method.MINHASH, 8, 0.5, ignore_boilerplate=False)


@pytest.fixture(scope="module")
def footed(tmp_path_factory) -> Path:
    return write_footed_letters(tmp_path_factory.mktemp("footed"))


def names(result) -> list[set[str]]:
    docs = {d.id: d for d in result.documents}
    return [{Path(docs[m.document_id].path).name for m in g.members} for g in result.groups]


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
    # with the footer counted, unrelated letters are "near-duplicates" of each other
    assert max(len(g) for g in groups_kept) >= 25
    # without it, only the real near-copy remains
    assert groups_ignored == [{"letter00.txt", "letter00~copy.txt"}]
    assert summary["ignored"] is True and summary["documents_affected"] == 31
    assert summary["frequent_shingles"] >= 100
    assert kept_summary == {"ignored": False}
    # switching back and forth on one matcher gives what a matcher made for each way gives
    assert again == groups_ignored
    assert sorted(map(sorted, groups_kept)) == sorted(map(sorted, fresh_kept))


def test_boilerplate_is_found_again_only_when_the_collection_changes(footed, tmp_path):
    def boilerplate_events(store):
        seen = []
        scan(store, ScanOptions(roots=(str(footed),), workers=1),
             progress=lambda e: seen.append((e.done, e.total)) if e.phase == "boilerplate" else None)
        return seen

    with Store(tmp_path / "n.db") as store:
        first = boilerplate_events(store)
        assert first[-1][0] == first[-1][1] > 1
        assert boilerplate_events(store) == [(1, 1)]  # unchanged: nothing analysed
        (footed / "extra.txt").write_text("A new letter with nothing in common with the others at all.",
                                          encoding="utf-8")
        try:
            assert boilerplate_events(store)[-1][1] > 1
        finally:
            (footed / "extra.txt").unlink()


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
    sets[0] = np.array([everywhere], dtype=np.uint32)  # nothing but boilerplate: compared whole

    found = boilerplate.analyse(np.arange(n), lambda ids: {c: sets[c] for c in ids}, "digest")
    assert found.shingles.tolist() == [7, 9]
    assert 0 not in found.cores and len(found.cores) == n - 1
    core = found.cores[1]
    assert core.shingle_count == len(sets[1]) - int(np.isin(sets[1], [7, 9]).sum())


def test_core_of_a_document():
    frequent = np.array([5, 10, 20], dtype=np.uint32)
    assert boilerplate.core_of(np.array([1, 5, 7, 20], dtype=np.uint32), frequent).tolist() == [1, 7]
    assert boilerplate.core_of(np.array([1, 2, 3], dtype=np.uint32), frequent) is None
    assert boilerplate.core_of(np.array([5, 10], dtype=np.uint32), frequent) is None


def test_arguments_are_checked():
    with pytest.raises(ValueError):
        boilerplate.analyse(np.arange(3), lambda ids: {}, "d", min_share=0)
    with pytest.raises(ValueError):
        boilerplate.analyse(np.arange(3), lambda ids: {}, "d", min_documents=1)


def test_the_cores_read_back_are_the_ones_stored_as_a_table_and_applied_to_their_rows(footed, tmp_path):
    """store.boilerplate() reads the cores into arrays (a CoreTable, not 100,000 objects): the same
    mapping as the rows stored, and the matcher's signatures by cores take exactly those rows."""
    with Store(tmp_path / "n.db") as store:
        scan(store, ScanOptions(roots=(str(footed),), workers=1))
        found = store.boilerplate()
        stored = {cid: boilerplate.Core(count, blob) for cid, count, blob in
                  store._db.execute("SELECT content_id, shingle_count, minhash FROM cores")}
        matcher = Matcher(store)
        whole, applied = matcher._whole, matcher.arrays
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
