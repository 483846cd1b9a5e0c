"""What moving a threshold costs in the app's session: grouping alone (the matcher) against the whole
view the window shows (keepers chosen, each group rebased on its keeper), on one collection.

    python -m tests.bench.regroup [--docs 3000]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from neardup_gui.core.models import ScanOptions, Thresholds
from neardup_gui.core.review import KeeperRule, choose_keepers
from neardup_gui.core.session import RebaseCache, Session, rebased_on_keepers
from tests.bench.corpus import documents, write_tree

STEPS = (0.9, 0.8, 0.7, 0.6, 0.7, 0.8, 0.9)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--docs", type=int, default=3000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "tree"
        write_tree(root, documents(args.docs, size=4_000, near_share=0.4))
        with Session(Path(tmp) / "db.sqlite") as session:
            view = session.scan(ScanOptions(roots=(str(root),)), Thresholds(jaccard=0.9))
            print(f"{args.docs:,} documents, {len(view.result.groups):,} groups at 0.9")
            docs = view.documents
            cache: RebaseCache = {}
            for rounds in range(2):  # the first round builds the forests; the second is what a slider costs
                match_s, keep_s = [], []
                for t in STEPS:
                    started = time.perf_counter()
                    result = session.matcher.match(Thresholds(jaccard=t))
                    match_s.append(time.perf_counter() - started)
                    started = time.perf_counter()
                    keepers = choose_keepers(result.groups, docs, (), KeeperRule.ORIGINAL, session.store.kept_paths())
                    rebased = rebased_on_keepers(result, keepers, docs, session.matcher, cache)
                    keep_s.append(time.perf_counter() - started)
                members = sum(len(g.members) for g in rebased.groups)
                print(f"round {rounds + 1}: grouping (matcher.match) median {statistics.median(match_s) * 1e3:.1f} ms; "
                      f"keepers and rebasing every group on its keeper median {statistics.median(keep_s) * 1e3:.1f} ms "
                      f"({len(rebased.groups):,} groups, {members:,} members at {STEPS[-1]})")


if __name__ == "__main__":
    main()
