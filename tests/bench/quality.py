"""Matching quality against the exact answer: `python -m tests.bench.quality [--quick]`.

The exact answer is computed by brute force: the exact Jaccard of the shingle sets of every pair.
The engine (MinHash mode at several T, SimHash mode at several K) is scored by precision, recall and
F1 against it, beside datasketch's MinHashLSH and the simhash package measured in the same run on the
same documents. Corpora are real text that ships on this machine, plus copies with planted edits:
- english: the distinct Debian copyright files (licence-heavy prose) + licences with planted edits;
- chinese: the Chinese "Rust by Example" manual pages shipped with the Rust toolchain + the five
  Chinese statutes of tests/data/zh, with planted character edits;
- articles: the articles (第…条) of those five statutes, each a document, + copies of 40 of them with
  planted edits: short formulaic Chinese that shares its vocabulary (where SimHash goes wrong);
- short: the one-line package descriptions of dpkg, with planted one-word changes;
- boilerplate: the extended package descriptions of dpkg, about a third of them ending in each of
  three real licence notices, with near-copies at planted edit rates; the truth is the Jaccard of the
  descriptions alone, so a pair joined only by a shared notice is a false positive.
The default (boilerplate ignored) is scored against the Jaccard of whole texts (none of these corpora has
real boilerplate: what it takes out is the text families share), by verified pair and by group, and
against the Jaccard of its own cores; the whole-text mode against the Jaccard of whole texts. A group
"chains" when a member's Jaccard to its keeper is below T - 0.2.
Prints tables and writes bench-results/quality.json.
"""

from __future__ import annotations

import argparse
import glob
import html
import json
import math
import random
import re
import tempfile
import time
from itertools import combinations
from pathlib import Path

import numpy as np

from neardup_gui.core.fingerprint import text
from neardup_gui.core.fingerprint.scheme import (
    Scheme,
    fingerprint_bytes,
    simhash_feature_counts,
    text_shingles,
    text_simhash,
)
from neardup_gui.core.fingerprint.simhash import hamming, simhash
from neardup_gui.core.match.matcher import Matcher
from neardup_gui.core.models import HAMMING_MAX, SIMHASH_MIN_JACCARD, Method, Thresholds
from neardup_gui.core.scan import refresh_boilerplate
from neardup_gui.core.store.files import FileRecord
from neardup_gui.core.store.store import Store
from tests.bench import peers
from tests.conftest import LICENSES, UNRELATED_LICENSES, ZH_TEXTS, licence_paragraphs, plant_edits

RESULTS = Path(__file__).resolve().parents[2] / "bench-results"
RATES = (0.005, 0.01, 0.02, 0.05, 0.1, 0.2)


# -- corpora ----------------------------------------------------------------------------------
def english_corpus(quick: bool) -> list[tuple[str, str]]:
    docs, seen = [], set()
    for path in sorted(glob.glob("/usr/share/doc/*/copyright")):
        body = Path(path).read_text(encoding="utf-8", errors="replace")
        if len(body) >= 300 and body not in seen:
            seen.add(body)
            docs.append((path.split("/")[4], body))
    docs = docs[:150] if quick else docs
    bases = [(name, (LICENSES / name).read_text()) for name in UNRELATED_LICENSES]
    bases += sorted(docs, key=lambda d: -len(d[1]))[: 12 if quick else 32]
    for name, body in bases:
        if name in UNRELATED_LICENSES:
            docs.append((name, body))
        for n, rate in enumerate(RATES):
            docs.append((f"{name}~{rate}", plant_edits(body, rate, seed=n)))
    return docs


_TAG = re.compile(r"<script.*?</script>|<style.*?</style>|<[^>]+>", re.S)


def chinese_corpus(quick: bool) -> list[tuple[str, str]]:
    pattern = "/root/.rustup/toolchains/*/share/doc/rust/html/rust-by-example/zh/**/*.html"
    pages = sorted(glob.glob(pattern, recursive=True))
    docs, seen = [], set()
    for path in pages:
        raw = Path(path).read_text(encoding="utf-8", errors="replace")
        main = raw.split("<main>", 1)[-1].split("</main>", 1)[0]
        body = html.unescape(_TAG.sub(" ", main))
        body = "\n".join(line.strip() for line in body.splitlines() if line.strip())
        if len(body) >= 800 and body not in seen and sum("\u4e00" <= c <= "\u9fff" for c in body) > 100:
            seen.add(body)
            docs.append((path.split("/zh/", 1)[1], body))
    if not docs:
        raise RuntimeError("no Chinese Rust-by-Example pages on this machine")
    docs = docs[:60] if quick else docs
    bases = [(p.stem, p.read_text(encoding="utf-8")) for p in sorted(ZH_TEXTS.glob("*.txt"))]
    docs += bases
    bases += sorted(docs, key=lambda d: -len(d[1]))[: 8 if quick else 25]
    for name, body in bases:
        for n, rate in enumerate(RATES):
            docs.append((f"{name}~{rate}", plant_edits(body, rate, seed=n)))
    return docs


def articles_corpus(quick: bool) -> list[tuple[str, str]]:
    """Each article of the five statutes a document, and copies of 40 of them at the planted rates."""
    docs = []
    for path in sorted(ZH_TEXTS.glob("*.txt")):
        parts = re.split(r"\n(?=第[一二三四五六七八九十百零]+条)", path.read_text(encoding="utf-8"))
        docs += [(f"{path.stem}#{n}", part.strip()) for n, part in enumerate(parts[1:])]
    docs = docs[:120] if quick else docs
    for name, body in random.Random(5).sample(docs, 20 if quick else 40):
        for n, rate in enumerate(RATES):
            docs.append((f"{name}~{rate}", plant_edits(body, rate, seed=n)))
    return docs


def short_corpus(quick: bool) -> tuple[list[tuple[str, str]], set[tuple[int, int]]]:
    """Package descriptions + one variant each of 200 of them (a word changed, dropped, or moved)."""
    with open("/var/lib/dpkg/status", encoding="utf-8") as status:
        lines = sorted({line[len("Description: ") :].strip() for line in status if line.startswith("Description: ")})
    rng = random.Random(3)
    docs = [(f"d{n}", line) for n, line in enumerate(lines)]
    planted = set()
    words = ["fast", "small", "new", "legacy", "common", "extra", "core", "basic"]
    for n in rng.sample(range(len(lines)), 100 if quick else 200):
        tokens = lines[n].split()
        if len(tokens) < 4:
            continue
        op, k = rng.randrange(3), rng.randrange(len(tokens))
        if op == 0:
            tokens[k] = rng.choice(words)
        elif op == 1:
            del tokens[k]
        else:
            tokens.insert(k, tokens.pop(rng.randrange(len(tokens))))
        docs.append((f"d{n}~", " ".join(tokens)))
        planted.add((n, len(docs) - 1))
    return docs, planted


def boilerplate_corpus(quick: bool) -> tuple[list[tuple[str, str]], list[str]]:
    """(documents, their bodies without notices): dpkg's extended descriptions, each notice added to
    about a third of them at random, and near-copies of 40 of them at the planted edit rates (the copy
    gets its own notices: the same passage joins or separates it from its original by chance)."""
    descriptions = []
    for block in Path("/var/lib/dpkg/status").read_text(encoding="utf-8").split("\n\n"):
        found = re.search(r"^Description: .*\n((?: .*\n?)*)", block, re.M)
        if found:
            words = " ".join(line.strip() for line in found.group(1).splitlines() if line.strip() != ".").split()
            if len(words) >= 40:
                descriptions.append(" ".join(words[:120]))
    descriptions = sorted(set(descriptions))[: 150 if quick else 500]
    notices = [max(licence_paragraphs(name, 60, 110), key=len) for name in ("Apache-2.0", "GPL-3", "MPL-2.0")]
    rng = random.Random(11)

    def with_notices(body: str) -> str:
        return "\n\n".join([body] + [n for n in notices if rng.random() < 0.35])

    docs = [(f"p{n}", with_notices(body)) for n, body in enumerate(descriptions)]
    bodies = list(descriptions)
    for n in rng.sample(range(len(descriptions)), 40):
        for k, rate in enumerate(RATES):
            copy = plant_edits(descriptions[n], rate, seed=100 * n + k)
            docs.append((f"p{n}~{rate}", with_notices(copy)))
            bodies.append(copy)
    return docs, bodies


def boilerplate_table(quick: bool) -> dict:
    """Precision, recall and F1 against the Jaccard of the descriptions alone, boilerplate ignored
    (the default) and kept, beside datasketch on the whole texts."""
    docs, bodies = boilerplate_corpus(quick)
    scheme = Scheme.current()
    body_jac = exact_jaccard([text_shingles(text.normalise(b), scheme) for b in bodies])
    whole = [text_shingles(text.normalise(body), scheme) for _n, body in docs]
    out: dict = {"documents": len(docs)}
    with tempfile.TemporaryDirectory() as tmp:
        engine = Engine(docs, scheme, Path(tmp))
        out["analysis"] = engine.matcher.boilerplate.summary()
        for t in (0.5, 0.6, 0.7, 0.8, 0.9):
            truth = {p for p, j in body_jac.items() if j >= t - 1e-9}
            out[t] = {
                "ignored": score(engine.pairs(Thresholds(Method.MINHASH, 3, t)), truth),
                "kept": score(engine.pairs(Thresholds(Method.MINHASH, 3, t, ignore_boilerplate=False)), truth),
                "datasketch": score(datasketch_pairs(whole, t), truth),
            }
        engine.close()
    return out


# -- the exact answer -------------------------------------------------------------------------
def exact_jaccard(shingles: list[np.ndarray]) -> dict[tuple[int, int], float]:
    out = {}
    for a, b in combinations(range(len(shingles)), 2):
        shared = np.intersect1d(shingles[a], shingles[b], assume_unique=True).size
        if shared:
            out[(a, b)] = shared / (len(shingles[a]) + len(shingles[b]) - shared)
    return out


def score(predicted: set[tuple[int, int]], truth: set[tuple[int, int]]) -> dict:
    tp = len(predicted & truth)
    precision = tp / len(predicted) if predicted else 1.0
    recall = tp / len(truth) if truth else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        "precision": round(precision, 4),
        "recall": round(recall, 4),
        "f1": round(f1, 4),
        "predicted": len(predicted),
        "true": len(truth),
    }


# -- the engine and the peers -----------------------------------------------------------------
class Engine:
    """neardup's own pair decisions over a corpus, through a real database."""

    def __init__(self, docs: list[tuple[str, str]], scheme: Scheme, tmp: Path) -> None:
        self.store = Store(tmp / "quality.db")
        self.store.ensure_scheme(scheme)
        fps, files = [], []
        for n, (_name, body) in enumerate(docs):
            fp = fingerprint_bytes("text", body.encode("utf-8"), scheme)
            fps.append(fp)
            files.append(FileRecord(f"/corpus/{n:06d}.txt", len(body), n, "text", content_hash=fp.raw_hash))
        self.store.write_batch(fps, files)
        refresh_boilerplate(self.store, scheme)  # as a scan does
        self.matcher = Matcher(self.store, scheme=scheme)  # the harness also measures other schemes
        self.row_of_doc = {}
        by_content = {int(c): r for r, c in enumerate(self.matcher.arrays.content_ids.tolist())}
        for doc in self.matcher.documents:
            if doc.content_id in by_content:
                self.row_of_doc[int(Path(doc.path).stem)] = by_content[doc.content_id]
        self.docs_of_row: dict[int, list[int]] = {}
        for d, r in self.row_of_doc.items():
            self.docs_of_row.setdefault(r, []).append(d)

    def pairs(self, thresholds: Thresholds) -> set[tuple[int, int]]:
        i, j = self.matcher.verified_pairs(thresholds)
        out = set()
        for a, b in zip(i.tolist(), j.tolist(), strict=True):
            for x in self.docs_of_row[a]:
                for y in self.docs_of_row[b]:
                    out.add((min(x, y), max(x, y)))
        for docs in self.docs_of_row.values():  # identical bytes
            out.update((min(x, y), max(x, y)) for x, y in combinations(docs, 2))
        return out

    def grouped(self, thresholds: Thresholds) -> tuple[set[tuple[int, int]], int, int]:
        """(every pair of documents in one group, the groups, those that chain: a member's exact Jaccard
        to its keeper below T - 0.2)."""
        result = self.matcher.match(thresholds)
        index_of = {d.id: int(Path(d.path).stem) for d in result.documents}
        out: set[tuple[int, int]] = set()
        chained = 0
        for group in result.groups:
            members = sorted(index_of[m.document_id] for m in group.members)
            out.update(combinations(members, 2))
            chained += min(m.similarity.jaccard for m in group.members) < thresholds.jaccard - 0.2
        return out, len(result.groups), chained

    def compared_shingles(self, shingles: list[np.ndarray]) -> list[np.ndarray]:
        """What the default compares: each document's core where it has boilerplate."""
        content_of = {int(Path(d.path).stem): d.content_id for d in self.matcher.documents}
        compared = self.matcher.boilerplate.compared(self.store, set(content_of.values()))
        return [compared[content_of[n]] for n in range(len(shingles))]

    def close(self) -> None:
        self.store.close()


def datasketch_pairs(shingles: list[np.ndarray], threshold: float) -> set[tuple[int, int]]:
    """datasketch as documented: MinHash(128) of the same shingles, MinHashLSH(threshold), query,
    keep candidates whose estimated Jaccard reaches the threshold."""
    from datasketch import MinHash, MinHashLSH

    lsh = MinHashLSH(threshold=threshold, num_perm=128)
    sketches = []
    for n, sh in enumerate(shingles):
        m = MinHash(num_perm=128)
        m.update_batch([int(x).to_bytes(4, "little") for x in sh.tolist()])
        sketches.append(m)
        lsh.insert(str(n), m)
    out = set()
    for n, m in enumerate(sketches):
        for key in lsh.query(m):
            other = int(key)
            if other != n and m.jaccard(sketches[other]) >= threshold:
                out.add((min(n, other), max(n, other)))
    return out


def simhash_package_distances(docs: list[tuple[str, str]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    klass = peers.simhash_class()
    return all_distances(np.array([klass(body).value for _n, body in docs], dtype=np.uint64))


def all_distances(values: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    i, j = np.triu_indices(len(values), 1)
    return i, j, hamming(values[i], values[j])


# -- experiments -----------------------------------------------------------------------------
def corpus_table(name: str, docs: list[tuple[str, str]], truth_t: float, quick: bool) -> dict:
    scheme = Scheme.current()
    t0 = time.perf_counter()
    shingles = [text_shingles(text.normalise(body), scheme) for _n, body in docs]
    jac = exact_jaccard(shingles)
    out: dict = {
        "documents": len(docs),
        "pairs": len(docs) * (len(docs) - 1) // 2,
        "exact_answer_seconds": round(time.perf_counter() - t0, 1),
    }
    with tempfile.TemporaryDirectory() as tmp:
        engine = Engine(docs, scheme, Path(tmp))
        core_jac = exact_jaccard(engine.compared_shingles(shingles))
        out["boilerplate"] = engine.matcher.boilerplate.summary()
        minhash_rows = {}
        for t in (0.5, 0.6, 0.7, 0.8, 0.9):
            truth = {p for p, j in jac.items() if j >= t - 1e-9}
            core_truth = {p for p, j in core_jac.items() if j >= t - 1e-9}
            default = Thresholds(Method.MINHASH, 3, t)
            grouped, groups, chained = engine.grouped(default)
            minhash_rows[t] = {
                "neardup": score(engine.pairs(Thresholds(Method.MINHASH, 3, t, ignore_boilerplate=False)), truth),
                "neardup_default_whole_truth": score(engine.pairs(default), truth),
                "neardup_default_by_group": score(grouped, truth),
                "groups": groups,
                "chained_groups": chained,
                "neardup_default": score(engine.pairs(default), core_truth),
                "pairs_only_through_boilerplate": len(truth - core_truth),
                "datasketch": score(datasketch_pairs(shingles, t), truth),
            }
        out["minhash"] = minhash_rows
        truth = {p for p, j in jac.items() if j >= truth_t - 1e-9}
        unrelated = {p for p, j in jac.items() if j < SIMHASH_MIN_JACCARD}
        unrelated |= set(combinations(range(len(docs)), 2)) - jac.keys()  # no shingle in common
        ours, unverified = {}, {}
        best_k: dict[str, dict] = {}  # the K with the best F1 against each truth: per language, per T
        truths = {t: {p for p, j in jac.items() if j >= t - 1e-9} for t in (0.6, 0.8)}
        oi, oj, od = all_distances(
            np.array([text_simhash(text.normalise(b), scheme) for _n, b in docs], dtype=np.uint64)
        )
        for k in range(0, HAMMING_MAX + 1):
            found = engine.pairs(Thresholds(Method.SIMHASH, k, truth_t, ignore_boilerplate=False))
            ours[k] = {**score(found, truth), "unrelated": len(found & unrelated)}
            for t, true_pairs in truths.items():
                f1 = score(found, true_pairs)["f1"]
                if f1 > best_k.get(f"J >= {t}", {"f1": -1.0})["f1"]:
                    best_k[f"J >= {t}"] = {"k": k, "f1": f1}
            sel = od <= k
            raw = set(zip(oi[sel].tolist(), oj[sel].tolist(), strict=True)) | {
                p for p in combinations(range(len(docs)), 2) if docs[p[0]][1] == docs[p[1]][1]
            }
            unverified[k] = {**score(raw, truth), "unrelated": len(raw & unrelated)}
        pi, pj, pd = simhash_package_distances(docs)
        package = {}
        for k in range(0, HAMMING_MAX + 1):
            sel = pd <= k
            package[k] = score(set(zip(pi[sel].tolist(), pj[sel].tolist(), strict=True)), truth)
        out["simhash"] = {
            "truth": f"J >= {truth_t}",
            "neardup": ours,
            "neardup_unverified": unverified,
            "best_k": best_k,
            "simhash_package": package,
            "ceiling": simhash_ceiling(docs, jac, truth_t, [len(x) for x in shingles]),
        }
        engine.close()
    return out


def simhash_ceiling(
    docs: list[tuple[str, str]], jac: dict[tuple[int, int], float], truth_t: float, sizes: list[int]
) -> dict:
    """The best F1 against J >= truth_t that any 64-bit SimHash can expect: with our features and
    weights, with jieba's words for Han text instead (the features before 2026-11-23), and with the
    shingle sets themselves as features (whose angle follows Jaccard as closely as any can:
    cos = |A∩B| / sqrt(|A||B|)).

    Charikar's SimHash differs in a bit with probability angle/pi, the angle being that between the
    two documents' feature vectors; so the distance of a pair is Binomial(64, angle/pi), and the
    expected true and false positives at each K follow from the exact cosines. Pairs that share no
    shingle (cosine ~0) are within 12 bits with probability < 1e-6 and are left out."""
    from math import comb

    scheme = Scheme.current()
    assert scheme.simhash_weights == "log-tf"
    schemes = {"ours": scheme, "jieba words": Scheme(simhash_features="word-3grams+jieba-words")}
    vectors: dict[str, list[tuple[np.ndarray, np.ndarray, float]]] = {name: [] for name in schemes}
    for _n, body in docs:
        norm = text.normalise(body)
        for name, features_scheme in schemes.items():
            features, counts = simhash_feature_counts(norm, features_scheme)
            weights = 1.0 + np.log(counts)
            vectors[name].append((features, weights, float(np.sqrt(np.sum(weights * weights)))))
    ks = np.arange(0, 13)
    names = [*schemes, "shingle sets"]
    tp = {name: np.zeros(len(ks)) for name in names}
    fp = {name: np.zeros(len(ks)) for name in names}
    truth = 0

    def within(cosine: float) -> np.ndarray:
        p = math.acos(max(-1.0, min(1.0, cosine))) / math.pi
        return np.cumsum([comb(64, d) * p**d * (1 - p) ** (64 - d) for d in range(13)])

    def cosine(name: str, a: int, b: int) -> float:
        fa, wa, na = vectors[name][a]
        fb, wb, nb = vectors[name][b]
        _, ia, ib = np.intersect1d(fa, fb, assume_unique=True, return_indices=True)
        return float(np.dot(wa[ia], wb[ib])) / (na * nb) if na and nb else 0.0

    for (a, b), j in jac.items():
        cosines = {name: cosine(name, a, b) for name in schemes}
        cosines["shingle sets"] = j * (sizes[a] + sizes[b]) / (1 + j) / math.sqrt(sizes[a] * sizes[b])
        true = j >= truth_t - 1e-9
        truth += true
        for name, value in cosines.items():
            (tp if true else fp)[name] += within(value)
    out = {}
    for name in tp:
        f1 = 2 * tp[name] / (2 * tp[name] + fp[name] + (truth - tp[name]))
        best = int(np.argmax(f1))
        out[name] = {
            "best_k": best,
            "best_expected_f1": round(float(f1[best]), 3),
            "expected_f1_by_k": {int(k): round(float(v), 3) for k, v in zip(ks, f1, strict=True)},
        }
    return out


def chinese_noise(docs: list[tuple[str, str]]) -> dict:
    """Share of unrelated Chinese pairs (exact J < 0.1) within 3 bits: our features vs raw jieba tokens."""
    import jieba

    scheme = Scheme.current()
    bases = [(n, b) for n, b in docs if "~" not in n]
    shingles = [text_shingles(text.normalise(b), scheme) for _n, b in bases]
    jac = exact_jaccard(shingles)
    ours = np.array([text_simhash(text.normalise(b), scheme) for _n, b in bases], dtype=np.uint64)
    raw = []
    for _n, b in bases:
        tokens = jieba.lcut(b)  # as it comes: whitespace, punctuation and all
        features, counts = np.unique(text.hash_tokens(tokens), return_counts=True)
        raw.append(simhash(features, counts.astype(np.float64)))
    raw = np.array(raw, dtype=np.uint64)
    unrelated = [(a, b) for a, b in combinations(range(len(bases)), 2) if jac.get((a, b), 0.0) < 0.1]
    a = np.array([p[0] for p in unrelated])
    b = np.array([p[1] for p in unrelated])
    return {
        "unrelated_pairs": len(unrelated),
        "within_3_bits_neardup": round(float(np.mean(hamming(ours[a], ours[b]) <= 3)), 4),
        "within_3_bits_raw_jieba_tokens": round(float(np.mean(hamming(raw[a], raw[b]) <= 3)), 4),
    }


def short_table(quick: bool) -> dict:
    docs, planted = short_corpus(quick)
    out = {"documents": len(docs), "planted_pairs": len(planted)}
    from difflib import SequenceMatcher

    with tempfile.TemporaryDirectory() as tmp:
        for label, scheme in (
            ("char 3-grams (default for < 30 units)", Scheme.current()),
            (
                "word 3-shingles (no short-text path)",
                Scheme(short_text_units=0, jieba=Scheme.current().jieba, pypdf=Scheme.current().pypdf),
            ),
        ):
            (Path(tmp) / label[:4]).mkdir()
            engine = Engine(docs, scheme, Path(tmp) / label[:4])
            rows = {}
            for t in (0.5, 0.6, 0.7):
                found = engine.pairs(Thresholds(Method.MINHASH, 3, t))
                hits = len(found & planted)
                # a found pair that is not planted counts against precision only when the two lines are
                # clearly different (character similarity below 0.5): real descriptions do repeat
                wrong = sum(
                    1
                    for a, b in found - planted
                    if SequenceMatcher(None, docs[a][1].lower(), docs[b][1].lower()).ratio() < 0.5
                )
                rows[t] = {
                    "recall_planted": round(hits / len(planted), 4),
                    "clearly_different_pairs_found": wrong,
                    "pairs_found": len(found),
                }
            for k in (3, 6):
                found = engine.pairs(Thresholds(Method.SIMHASH, k, 0.8))
                rows[f"simhash K={k}"] = {
                    "recall_planted": round(len(found & planted) / len(planted), 4),
                    "pairs_found": len(found),
                }
            out[label] = rows
            engine.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    results = {"date": time.strftime("%Y-%m-%d"), "quick": args.quick}
    t = time.perf_counter()
    print("[english]", flush=True)
    results["english"] = corpus_table("english", english_corpus(args.quick), 0.8, args.quick)
    print("[chinese]", flush=True)
    zh = chinese_corpus(args.quick)
    results["chinese"] = corpus_table("chinese", zh, 0.6, args.quick)
    results["chinese_simhash_noise"] = chinese_noise(zh)
    print("[articles]", flush=True)
    results["articles"] = corpus_table("articles", articles_corpus(args.quick), 0.6, args.quick)
    print("[short]", flush=True)
    results["short"] = short_table(args.quick)
    print("[boilerplate]", flush=True)
    results["boilerplate"] = boilerplate_table(args.quick)
    results["seconds"] = round(time.perf_counter() - t)
    RESULTS.mkdir(exist_ok=True)
    out = RESULTS / ("quality-quick.json" if args.quick else "quality.json")
    out.write_text(json.dumps(results, indent=2))
    print_tables(results)
    print(f"written {out}")


def print_tables(r: dict) -> None:
    def prf(cell: dict, bold: bool = False) -> str:
        f1 = f"**{cell['f1']:.3f}**" if bold else f"{cell['f1']:.3f}"
        return f"{cell['precision']:.3f} / {cell['recall']:.3f} / {f1}"

    for corpus in ("english", "chinese", "articles"):
        c = r[corpus]
        print(f"\n{corpus}: {c['documents']} documents, {c['pairs']} pairs")
        print("boilerplate:", c["boilerplate"])
        print(
            "| T | neardup, whole texts P / R / F1 | datasketch MinHashLSH P / R / F1 | neardup default "
            "(boilerplate ignored) vs whole-text Jaccard: pairs | by group | groups (chained) | default vs "
            "its core Jaccard | pairs similar only through boilerplate |"
        )
        print("|---|---|---|---|---|---|---|---|")
        for t, row in c["minhash"].items():
            print(
                f"| {t} | {prf(row['neardup'], True)} | {prf(row['datasketch'])} | "
                f"{prf(row['neardup_default_whole_truth'], True)} | {prf(row['neardup_default_by_group'])} | "
                f"{row['groups']} ({row['chained_groups']}) | {prf(row['neardup_default'])} | "
                f"{row['pairs_only_through_boilerplate']} |"
            )
        s = c["simhash"]
        ceiling = ", ".join(
            f"{name}: F1 {c['best_expected_f1']} at K = {c['best_k']}" for name, c in s["ceiling"].items()
        )
        print(
            f"SimHash against {s['truth']} (the best a 64-bit SimHash can expect, features {ceiling}); our best K: "
            + ", ".join(f"{truth}: K = {b['k']} (F1 {b['f1']:.3f})" for truth, b in s.get("best_k", {}).items())
        )
        print(
            f"| K | neardup P / R / F1 | unrelated (J < {SIMHASH_MIN_JACCARD}) | candidates unverified P / R / "
            "F1 | unrelated | simhash package P / R / F1 |"
        )
        print("|---|---|---|---|---|---|")
        for k in s["neardup"]:
            n, u, p = s["neardup"][k], s["neardup_unverified"][k], s["simhash_package"][k]
            print(f"| {k} | {prf(n)} | {n['unrelated']} | {prf(u)} | {u['unrelated']} | {prf(p)} |")
    print("\nchinese SimHash noise:", r["chinese_simhash_noise"])
    print("\nshort texts:", json.dumps(r["short"], indent=1))
    b = r["boilerplate"]
    print(f"\nboilerplate: {b['documents']} documents, analysis {b['analysis']}")
    print("| T | ignored (default) P / R / F1 | kept P / R / F1 | datasketch, whole texts P / R / F1 |")
    print("|---|---|---|---|")
    for t in (0.5, 0.6, 0.7, 0.8, 0.9):
        row = b[t]
        cells = [
            f"{row[k]['precision']:.3f} / {row[k]['recall']:.3f} / {row[k]['f1']:.3f}"
            for k in ("ignored", "kept", "datasketch")
        ]
        print(f"| {t} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
