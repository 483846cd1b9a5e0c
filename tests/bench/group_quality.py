"""Quality of the groups a person sees: `python -m tests.bench.group_quality [--quick]`.

The groups are what a person acts on, so they are scored as a whole, against the exact answer (the
exact Jaccard of every pair's shingle sets, computed by brute force):
- precision by group: of every two members of one group, the share that are near-duplicates, allowing
  0.1 below the setting (J >= T - 0.1);
- recall by group: of the pairs at the setting (J >= T), the share whose two documents share a group;
- document recall: of the documents that have a duplicate at the setting, the share that share a group
  with at least one of them;
- keeper guarantee: the share of members that are duplicates of their group's keeper at the setting
  (by the exact Jaccard of what is compared), which the product promises is 1.
Each is given against the Jaccard of whole texts and against that of what the default compares (each
document's core where the collection's boilerplate is left out).

Corpora are families of real texts, made the way they grow:
- licences: the licence texts of /usr/share/common-licenses (GPL 1-3, LGPL 2-3, GFDL 1.2-1.3, MPL 1.1
  and 2.0, ...) and the distinct Debian copyright files of this machine (real uploads, many quoting those
  licences whole or in part), plus revision chains of a few of them (each version edits the last);
- statutes: the five Chinese statutes of tests/data/zh in versions as statutes change (articles
  amended, dropped, added from another statute, renumbered), and revision chains of each;
- mixed: both, with exact copies and first-half excerpts.
Writes bench-results/group-quality.json and prints one table per corpus.
"""

from __future__ import annotations

import argparse
import glob
import json
import random
import re
import tempfile
import time
from itertools import combinations
from pathlib import Path

from neardup_gui.core.fingerprint import text
from neardup_gui.core.fingerprint.scheme import Scheme, text_shingles
from neardup_gui.core.models import Method, Thresholds, within_thresholds
from neardup_gui.core.session import Session
from tests.bench.quality import Engine, exact_jaccard
from tests.conftest import LICENSES, ZH_TEXTS, plant_edits

RESULTS = Path(__file__).resolve().parents[2] / "bench-results"
SETTINGS = (0.5, 0.6, 0.7, 0.8, 0.9)
TOLERANCE = 0.1


# -- corpora ----------------------------------------------------------------------------------
def revision_chain(name: str, body: str, versions: int, rate: float, seed: int) -> list[tuple[str, str]]:
    """``versions`` drafts, each made from the one before by editing about ``rate`` of its words."""
    out = []
    for v in range(versions):
        body = plant_edits(body, rate, seed=seed * 100 + v)
        out.append((f"{name}@v{v + 1}", body))
    return out


def licence_corpus(quick: bool) -> list[tuple[str, str]]:
    docs: list[tuple[str, str]] = []
    seen: set[str] = set()
    for path in sorted(LICENSES.iterdir()):
        body = path.read_text(encoding="utf-8", errors="replace")
        if body not in seen:
            seen.add(body)
            docs.append((path.name, body))
    copyrights = []
    for path in sorted(glob.glob("/usr/share/doc/*/copyright")):
        body = Path(path).read_text(encoding="utf-8", errors="replace")
        if len(body) >= 300 and body not in seen:
            seen.add(body)
            copyrights.append((path.split("/")[4] + "-copyright", body))
    docs += copyrights[:200] if quick else copyrights
    rng = random.Random(7)
    for n, (name, body) in enumerate(rng.sample(docs, 6 if quick else 16)):
        docs += revision_chain(name, body, 6, rng.choice((0.03, 0.05, 0.08)), seed=n)
    return docs


_ARTICLE = re.compile(r"\n(?=第[一二三四五六七八九十百零]+条)")


def statute_versions(name: str, body: str, rng: random.Random, others: list[str]) -> list[tuple[str, str]]:
    """Versions of a statute as statutes change: articles amended, dropped, added from another statute."""
    head, *articles = _ARTICLE.split(body)
    out = []
    for v in range(4):
        arts = list(articles)
        for _ in range(rng.randrange(1, 4)):  # amendments
            k = rng.randrange(len(arts))
            arts[k] = plant_edits(arts[k], 0.15, seed=rng.randrange(10**6))
        for _ in range(rng.randrange(0, 3)):  # repealed
            if len(arts) > 3:
                del arts[rng.randrange(len(arts))]
        for _ in range(rng.randrange(0, 3)):  # added
            arts.insert(rng.randrange(len(arts) + 1), rng.choice(others))
        out.append((f"{name}#rev{v + 1}", "\n".join([head, *arts])))
    return out


def statute_corpus(quick: bool) -> list[tuple[str, str]]:
    rng = random.Random(13)
    bases = [(p.stem, p.read_text(encoding="utf-8")) for p in sorted(ZH_TEXTS.glob("*.txt"))]
    pool = [a for _n, b in bases for a in _ARTICLE.split(b)[1:]]
    docs = list(bases)
    for n, (name, body) in enumerate(bases):
        docs += statute_versions(name, body, rng, pool)
        docs += revision_chain(name, body, 4 if quick else 8, 0.04, seed=50 + n)
    # each article of the statutes a document too: short formulaic text sharing its vocabulary
    articles = [(f"article{k}", a.strip()) for k, a in enumerate(pool)]
    docs += articles[:80] if quick else articles
    return docs


def mixed_corpus(quick: bool) -> list[tuple[str, str]]:
    docs = licence_corpus(True)[: 120 if quick else 300] + statute_corpus(True)
    rng = random.Random(21)
    for name, body in rng.sample(docs, 20):
        docs.append((f"{name}(copy)", body))
    for name, body in rng.sample(docs, 20):
        words = body.split(" ") if len(body.split(" ")) > 40 else list(body)
        half = (" " if len(body.split(" ")) > 40 else "").join(words[: len(words) // 2])
        docs.append((f"{name}(excerpt)", half))
    return docs


# -- scoring ----------------------------------------------------------------------------------
def score_groups(groups: list[list[int]], jac: dict[tuple[int, int], float], t: float) -> dict:
    """Precision and recall by group (every two members of a group count as a pair), and document recall."""
    predicted: set[tuple[int, int]] = set()
    for members in groups:
        predicted.update(combinations(sorted(set(members)), 2))
    truth = {p for p, j in jac.items() if j >= t - 1e-9}
    correct = sum(1 for p in predicted if jac.get(p, 0.0) >= t - TOLERANCE - 1e-9)
    found = len(truth & predicted)
    with_duplicate: dict[int, set[int]] = {}
    for a, b in truth:
        with_duplicate.setdefault(a, set()).add(b)
        with_duplicate.setdefault(b, set()).add(a)
    together: dict[int, set[int]] = {}
    for members in groups:
        for d in members:
            together.setdefault(d, set()).update(members)
    docs_found = sum(1 for d, dups in with_duplicate.items() if dups & together.get(d, set()))
    return {
        "precision": round(correct / len(predicted), 4) if predicted else 1.0,
        "recall": round(found / len(truth), 4) if truth else 1.0,
        "document_recall": round(docs_found / len(with_duplicate), 4) if with_duplicate else 1.0,
        "pairs_in_groups": len(predicted),
        "true_pairs": len(truth),
        "documents_with_a_duplicate": len(with_duplicate),
    }


def corpus_rows(docs: list[tuple[str, str]]) -> dict:
    scheme = Scheme.current()
    shingles = [text_shingles(text.normalise(body), scheme) for _n, body in docs]
    whole = exact_jaccard(shingles)
    out: dict = {"documents": len(docs)}
    with tempfile.TemporaryDirectory() as tmp:
        engine = Engine(docs, scheme, Path(tmp))
        compared = exact_jaccard(engine.compared_shingles(shingles))
        engine.close()
        with Session(Path(tmp) / "quality.db") as session:
            for t in SETTINGS:
                start = time.perf_counter()
                view = session.open(("/corpus",), Thresholds(Method.MINHASH, 8, t))
                assert view is not None
                seconds = time.perf_counter() - start
                index_of = {d.id: int(Path(d.path).stem) for d in view.result.documents}
                groups = [[index_of[m.document_id] for m in g.members] for g in view.result.groups]
                members = sum(len(g) for g in groups)
                off = sum(
                    1
                    for g in view.result.groups
                    for m in g.members
                    if m.document_id != view.keepers.get(g.id, g.representative)
                    and not within_thresholds(m.similarity, view.result.thresholds)
                )
                listed = [d for g in groups for d in g]
                out[str(t)] = {
                    "whole": score_groups(groups, whole, t),
                    "compared": score_groups(groups, compared, t),
                    "groups": len(groups),
                    "members_not_duplicates_of_keeper": off,
                    "listed_twice": len(listed) - len(set(listed)),
                    "members": members,
                    "seconds": round(seconds, 2),
                }
    return out


def print_table(name: str, rows: dict) -> None:
    print(f"\n{name}: {rows['documents']} documents")
    print(
        "| T | precision by group (whole / compared) | recall by group | document recall | groups | "
        "members not dups of keeper | listed twice |"
    )
    print("|---|---|---|---|---|---|---|")
    for t in SETTINGS:
        r = rows[str(t)]
        w, c = r["whole"], r["compared"]
        print(
            f"| {t} | {w['precision']:.3f} / {c['precision']:.3f} | {w['recall']:.3f} / {c['recall']:.3f} | "
            f"{w['document_recall']:.3f} / {c['document_recall']:.3f} | {r['groups']} | "
            f"{r['members_not_duplicates_of_keeper']} | {r['listed_twice']} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--corpus", choices=("licences", "statutes", "mixed"), action="append")
    args = parser.parse_args()
    corpora = {"licences": licence_corpus, "statutes": statute_corpus, "mixed": mixed_corpus}
    results: dict = {"date": time.strftime("%Y-%m-%d"), "quick": args.quick}
    for name in args.corpus or list(corpora):
        start = time.perf_counter()
        results[name] = corpus_rows(corpora[name](args.quick))
        results[name]["seconds"] = round(time.perf_counter() - start)
        print_table(name, results[name])
    RESULTS.mkdir(exist_ok=True)
    out = RESULTS / ("group-quality-quick.json" if args.quick else "group-quality.json")
    out.write_text(json.dumps(results, indent=2))
    print(f"written {out}")


if __name__ == "__main__":
    main()
