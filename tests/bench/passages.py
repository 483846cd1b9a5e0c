"""Shared passages and excerpts beside the first grouping: `python -m tests.bench.passages [--files N]
[--corpus written|stock] [--words 50] [--common 10] [--containment 0.8]`.

Two collections of N documents of ~15 KB (10 % near-copies, 10 % Chinese):
- ``written`` (the default): documents that share what people copy and little else. Each original is
  paragraphs of Debian's licence files (or sentences of Chinese statutes) with a fifth of its words
  changed, so two of them share a passage of 50 words by chance only rarely; 5 % more quote passages of
  40-300 words from one to three others.
- ``stock``: the benchmark's tree as it is, documents made of stock paragraphs (licences, statutes): 45 %
  of all pairs share a passage. The worst case, for what common wording saves.
Each is scanned once into a database kept in the cache (one per fingerprint scheme), then, in one session
on a copy of it with its forests and measured pairs dropped: the first grouping (what a scan ends with),
the search for shared passages of ``--words`` words (twice: the second reads back what the first kept), and
the search for excerpts at ``--containment`` (0: none), and beside it datasketch's MinHashLSHEnsemble on
the same compared sets, in a process of its own (bench/excerpts.py; its recall against neardup's exact pairs;
``--no-peer``: without); the first scan that made the database (reading the
files, their fingerprints, the first grouping) is measured when it is made. For each: the wall time, the CPU
seconds of the parent and of all processes (the parent's share says how it scales on more cores), and the
peak resident memory of the parent and of all processes, and of all processes' memory that no file backs
(RSS counts the mapped files' pages in every worker that maps them; sampled every 0.2 s), and how much
that grew over the step (what the step adds). The documents are written by a process of their own, so that
the first scan's figures are the scan's. Issue #43: each search costs at most the first grouping's time and
adds half its memory at 100,000 documents. Writes
bench-results/passages.json.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import shutil
import sqlite3
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psutil

from neardup_gui.core.fingerprint.scheme import SCHEME_VERSION
from neardup_gui.core.match.matcher import _ComparedSets
from neardup_gui.core.models import PASSAGE_COMMON_DEFAULT, PassageSearch, Thresholds
from neardup_gui.core.session import Session
from tests.bench import corpus
from tests.bench.grouping import _cpu, scanned_once
from tests.bench.run import CACHE, RESULTS, log, tree_of
from tests.conftest import plant_edits


def _written(count: int, seed: int = 7) -> list[str]:
    """Documents that share what is copied: originals with a fifth of their words changed, near-copies of
    them, and quotations of 40-300 words (Han: characters) from one to three others."""
    rng = random.Random(seed)
    docs = [
        plant_edits(d, 0.2, seed=n) for n, d in enumerate(corpus.documents(count, size=15_000, near_share=0, seed=seed))
    ]
    for n in range(count // 10):  # near-copies, in place of some originals
        at = rng.randrange(count)
        docs[at] = plant_edits(docs[rng.randrange(count)], rng.choice((0.005, 0.01, 0.03, 0.1)), seed=count + n)
    for n in range(count // 20):
        host = plant_edits(rng.choice(docs)[: rng.randrange(3000, 12000)], 0.2, seed=2 * count + n)
        for _ in range(rng.choice((1, 2, 3))):
            source = rng.choice(docs)
            words = rng.choice((40, 60, 100, 300)) * (6 if source.isascii() else 1)
            start = rng.randrange(0, max(1, len(source) - words))
            cut = rng.randrange(0, len(host))
            host = host[:cut] + "\n\n" + source[start : start + words] + "\n\n" + host[cut:]
        docs.append(host)
    return docs


def _tree(files: int, kind: str) -> Path:
    if kind == "stock":
        return tree_of(files)[0]
    tree = CACHE / f"written-{files}"
    marker = tree / ".complete"
    if not marker.exists():
        shutil.rmtree(tree, ignore_errors=True)
        log(f"  writing {files} documents…")
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.write_text(str(corpus.write_tree(tree, _written(files))))
    return tree


def _scanned(files: int, kind: str, workers: int) -> tuple[Path, dict | None]:
    """The collection of ``files`` documents, scanned once under this fingerprint scheme, and what that
    first scan cost (kept beside the database; None for a database made before it was kept)."""
    db = CACHE / f"passages-{kind}-{files}-scheme{SCHEME_VERSION}.db"
    cost = db.with_suffix(".scan.json")
    if not db.exists():
        # the documents are made in a process of their own, so that the scan's figures are the scan's alone
        with multiprocessing.get_context("spawn").Pool(1) as pool:
            tree = pool.apply(_tree, (files, kind))
        figures, _ = _step("first scan", lambda: scanned_once(db, lambda: tree, workers))
        cost.write_text(json.dumps(figures))
    return db, json.loads(cost.read_text()) if cost.exists() else None


def _anonymous(process: psutil.Process) -> int:
    """A process's resident memory that no file backs (Linux's RssAnon; 0 elsewhere): the pages of mapped
    files, which RSS counts once in every process mapping them, are the system's page cache."""
    try:
        with open(f"/proc/{process.pid}/status", encoding="ascii") as status:
            return next((int(line.split()[1]) << 10 for line in status if line.startswith("RssAnon:")), 0)
    except OSError:
        return 0


class _Peaks:
    """The peak resident memory of this process and of it with its children, and of their memory no file
    backs, sampled every 0.2 s."""

    def __init__(self) -> None:
        self.me = psutil.Process()
        self.parent = self.all = self.anonymous = 0
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while not self._done.is_set():
            try:
                children = self.me.children(recursive=True)
                own = self.me.memory_info().rss
                total = own + sum(c.memory_info().rss for c in children)
                anonymous = sum(_anonymous(p) for p in (self.me, *children))
            except psutil.Error:
                continue
            self.parent, self.all = max(self.parent, own), max(self.all, total)
            self.anonymous = max(self.anonymous, anonymous)
            time.sleep(0.2)

    def __enter__(self) -> _Peaks:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        self._thread.join()


def _step(name: str, work: Callable[[], Any]) -> tuple[dict, Any]:
    """Run ``work``; what it cost."""
    me = psutil.Process()
    rss0 = me.memory_info().rss
    anonymous0 = sum(_anonymous(p) for p in (me, *me.children(recursive=True)))
    with _Peaks() as peaks:
        parent0, all0 = _cpu(me)
        started = time.perf_counter()
        result = work()
        wall = time.perf_counter() - started
        parent1, all1 = _cpu(me)
    parent_cpu, all_cpu = parent1 - parent0, all1 - all0
    log(f"  {name}: {wall:.1f} s")
    return {
        "seconds": round(wall, 1),
        "parent_cpu_s": round(parent_cpu, 1),
        "all_cpu_s": round(all_cpu, 1),
        "parent_share": round(parent_cpu / all_cpu, 3) if all_cpu else None,
        "peak_rss_mb_parent": round(peaks.parent / 1e6),
        "peak_rss_mb_all_processes": round(peaks.all / 1e6),
        "peak_anonymous_mb_all_processes": round(peaks.anonymous / 1e6),
        "anonymous_growth_mb_all_processes": round((peaks.anonymous - anonymous0) / 1e6),
        "parent_growth_mb": round((peaks.parent - rss0) / 1e6),
    }, result


def measure(
    source: Path, words: int, common: int | None, containment: float | None, workers: int, with_peer: bool
) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "p.db"
        shutil.copy(source, db)
        with sqlite3.connect(db) as connection:
            for table in ("forests", "overlaps", "core_overlaps"):  # a first grouping measures its pairs
                connection.execute(f"DELETE FROM {table}")
        with Session(db, workers=workers) as session:
            grouping, view = _step("first grouping", lambda: session.open([], Thresholds()))
            search = PassageSearch(words, common)
            passages, pairs = _step("shared passages", lambda: session.shared_passages(search))
            counted = {"pairs_sharing_passages": len(pairs), "passages": sum(len(p.passages) for p in pairs)}
            del pairs  # not held while the next steps are measured
            again, read_back = _step("shared passages again", lambda: session.shared_passages(search))
            del read_back
            if containment is not None:
                excerpt_cost, found = _step("excerpts", lambda: session.excerpts(containment))
                peer = _peer(session, containment, Path(tmp)) if with_peer else None
    return {
        "documents": len(view.result.documents),
        "workers": workers,
        "groups": len(view.result.groups),
        "first_grouping": grouping,
        "passage_words": words,
        "passage_common": common,
        **counted,
        "shared_passages": passages,
        "shared_passages_again": again,
        **(
            {}
            if containment is None
            else {
                "containment": containment,
                "excerpts_found": len(found),
                "excerpts": excerpt_cost,
                **({} if peer is None else {"datasketch_excerpts": peer}),
            }
        ),
    }


def _peer(session: Session, containment: float, tmp: Path) -> dict:
    """datasketch's MinHashLSHEnsemble (bench/excerpts.py) on the sets the excerpt search compared, in a
    process of its own: its time, what its memory grew by, and its recall against neardup's exact pairs."""
    from tests.bench import excerpts  # it measures its memory as this module does (_Peaks)

    matcher = session.matcher
    ids = matcher.arrays.content_ids.tolist()
    path = tmp / "sets.npz"
    excerpts.save_sets(path, _ComparedSets(matcher.boilerplate, matcher.store, ids)[:])
    found = matcher.excerpts(containment)  # read back, content ids
    row = {c: n for n, c in enumerate(ids)}
    exact = {frozenset((row[a], row[b])) for a, b in zip(found.inner.tolist(), found.outer.tolist(), strict=True)}
    log("  datasketch's MinHashLSHEnsemble…")
    peer = excerpts.in_child(excerpts.datasketch_search, path, containment)
    theirs = {frozenset(p) for p in peer["pairs"]}
    log(f"  datasketch: {peer['seconds']} s")
    return {
        "seconds": peer["seconds"],
        "memory_growth_mb": peer["peak_mb"],
        "recall": round(len(exact & theirs) / len(exact), 4) if exact else 1.0,
        "pairs_outside_exact": len(theirs - exact),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=lambda v: [int(x) for x in v.split(",")], default=[20_000, 100_000])
    parser.add_argument("--corpus", choices=["written", "stock"], default="written")
    parser.add_argument("--words", type=int, default=50)
    parser.add_argument("--common", type=int, default=PASSAGE_COMMON_DEFAULT, help="0: no limit")
    parser.add_argument("--containment", type=float, default=0.8, help="0: no excerpts")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--no-peer", action="store_true", help="without datasketch's excerpt search beside ours")
    args = parser.parse_args()
    results = []
    for files in args.files:
        log(f"{files} documents")
        source, scan = _scanned(files, args.corpus, args.workers)
        results.append(
            {
                "corpus": args.corpus,
                "first_scan": scan,
                **measure(
                    source,
                    args.words,
                    args.common or None,
                    args.containment or None,
                    args.workers,
                    not args.no_peer,
                ),
            }
        )
        print(json.dumps(results[-1], indent=2), flush=True)
    RESULTS.mkdir(parents=True, exist_ok=True)
    out = RESULTS / "passages.json"
    kept = json.loads(out.read_text()) if out.exists() else []
    done = {(r.get("corpus"), r["documents"]) for r in results}
    kept = [r for r in kept if (r.get("corpus"), r["documents"]) not in done]
    out.write_text(json.dumps(kept + results, indent=2))


if __name__ == "__main__":
    main()
