"""What moving a threshold costs the person in the app: the session's whole regrouping (the matcher's cut of
its forest, keepers chosen, each group rebased on its keeper, components shown as groups of mutual
duplicates: core/match/chains.py) beside the same without that last step (what a threshold move did before
2026-11-26), and the Pairs tab's table (every pair's numbers), on the benchmark's database of real-text
documents (tests.bench.run's regroup corpus). Round 1 visits each threshold first; round 2 again (the session
keeps its last groupings by threshold); round 3 again without those (each component's groups kept).

    python -m tests.bench.regroup [--docs 100000]

Writes bench-results/regroup.json.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from neardup_gui.core.models import Method, Thresholds
from neardup_gui.core.review.rules import choose_keepers
from neardup_gui.core.session import RebaseCache, Session, rebased_on_keepers
from tests.bench.run import RESULTS, _regroup_db, log

MOVES = (0.9, 0.85, 0.83, 0.95, 0.7, 0.75, 0.72, 0.8)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--docs", type=int, default=100_000)
    args = parser.parse_args()
    db = _regroup_db(args.docs)
    out: dict = {"documents": args.docs, "moves": {}}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "regroup.db"
        shutil.copy(db, work)
        with Session(work) as session:
            t = time.perf_counter()
            view = session.open((), Thresholds(Method.MINHASH, 3, 0.8))
            assert view is not None
            out["first grouping at T 0.8 (forest built) s"] = round(time.perf_counter() - t, 2)
            log(f"first grouping {out['first grouping at T 0.8 (forest built) s']} s")
            docs = view.documents
            cache: RebaseCache = {}
            # what naming the groups costs a regroup: their documents' keywords read (topics.py)
            reading = [0.0]
            topics = session._topics
            assert topics is not None
            read = topics.read

            def timed_read(contents) -> None:
                t = time.perf_counter()
                read(contents)
                reading[0] += time.perf_counter() - t

            topics.read = timed_read  # type: ignore[method-assign]
            for rounds in range(3):  # the first round builds nothing more: the forest serves T >= 0.7
                for jaccard in MOVES:
                    if rounds == 2:  # the groupings kept by threshold forgotten: each component's groups found again
                        session._views.clear()
                    thresholds = Thresholds(Method.MINHASH, 3, jaccard)
                    t = time.perf_counter()
                    result = session.matcher.match(thresholds)
                    keepers = choose_keepers(result.groups, docs, (), session.keeper_rule, session.store.kept.paths())
                    before = rebased_on_keepers(result, keepers, docs, session.matcher, cache)
                    old = time.perf_counter() - t
                    reading[0] = 0.0
                    t = time.perf_counter()
                    now = session.regroup(thresholds)
                    new = time.perf_counter() - t
                    read_s = reading[0]
                    t = time.perf_counter()
                    named = dict(now.topics)  # every group named: what a report or the filter asks for
                    naming = time.perf_counter() - t  # not a part of new: a group is named when asked
                    listed = sum(len(g.members) for g in now.result.groups)
                    distinct = len({m.document_id for g in now.result.groups for m in g.members})
                    row = {
                        "components": len(before.groups),
                        "groups": len(now.result.groups),
                        "documents_in_groups": distinct,
                        "listings": listed,
                        "pairs": len(now.duplicates),
                        "without_mutual_groups_s": round(old, 3),
                        "session_regroup_s": round(new, 3),
                        "groups_named": len(named),
                        "keywords_read_in_regroup_s": round(read_s, 4),
                        "naming_every_group_s": round(naming, 4),
                    }
                    out["moves"][f"round {rounds + 1} T {jaccard}"] = row
                    log(f"round {rounds + 1} T {jaccard}: {row}")
            # the Pairs tab's table at the default setting: every pair's numbers, measured once a grouping
            session.regroup(Thresholds(Method.MINHASH, 3, 0.8))
            t = time.perf_counter()
            table = session.pairs()
            out["pairs at T 0.8"] = len(table)
            out["pairs at T 0.8: their numbers measured s"] = round(time.perf_counter() - t, 2)
            log(f"pairs at T 0.8: {len(table)}, measured in {out['pairs at T 0.8: their numbers measured s']} s")
    for round_ in ("round 1", "round 3"):
        share = [
            r["keywords_read_in_regroup_s"] / r["session_regroup_s"]
            for k, r in out["moves"].items()
            if k.startswith(round_) and r["session_regroup_s"]  # 0: the grouping kept from the first
        ]
        out[f"median_keywords_share_of_regroup_{round_}"] = round(statistics.median(share), 4)
        log(f"naming's part of a regroup ({round_}): {statistics.median(share):.1%} (median)")
    naming = [r["naming_every_group_s"] for k, r in out["moves"].items() if k.startswith("round 1")]
    out["median_naming_every_group_first_visit_s"] = round(statistics.median(naming), 4)
    log(f"naming every group on a first visit: {statistics.median(naming):.3f} s (median, round 1)")
    for name, round_ in (("", "round 2"), ("_not_kept", "round 3")):
        new = [r["session_regroup_s"] for k, r in out["moves"].items() if k.startswith(round_)]
        old = [r["without_mutual_groups_s"] for k, r in out["moves"].items() if k.startswith(round_)]
        out[f"median_session_regroup{name}_s"] = round(statistics.median(new), 3)
        out[f"median_without_mutual_groups{name}_s"] = round(statistics.median(old), 3)
        log(
            f"median move ({round_}): {statistics.median(new):.3f} s now, {statistics.median(old):.3f} s "
            "without the groups of mutual duplicates"
        )
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "regroup.json").write_text(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
