"""PDF text, pages per second: PDFium (pypdfium2) against pypdf, and neardup's reader (PDFium first, pypdf
where PDFium gives no full text), on the same files in the same run.

    python -m tests.bench.pdf_readers [--folder DIR] [--rounds N]

Default folder: the repository's sample PDFs (tests/data/pdf-samples). Prints, per reader, the pages, the
best of N rounds' seconds and pages/s, and how many files yield words; then the files where neardup's
reader's text misses more than a tenth of the distinct words pypdf alone found (a file must never lose
text it had). Both texts are NFKC-normalised and case-folded (pypdf keeps ligatures: "oﬃcial"), and a
word counts as found anywhere in the other text with its white space removed (pypdf breaks a word at a
line's hyphen, "adip- iscing", where PDFium joins it); writes bench-results/pdf-readers.json.
"""

from __future__ import annotations

import argparse
import json
import re
import time
import unicodedata
from collections.abc import Callable
from pathlib import Path

from neardup_gui.core.models import Extracted, Status
from neardup_gui.core.read.pdf import _by_pdfium, _by_pypdf, extract_pdf

REPO = Path(__file__).resolve().parents[2]


def _text(found: Extracted | None) -> str:
    ok = found is not None and found.status is Status.OK
    return unicodedata.normalize("NFKC", found.text).casefold() if ok else ""


def measure(files: list[Path], read: Callable[[bytes], Extracted | None], rounds: int) -> dict:
    data = [f.read_bytes() for f in files]
    best = float("inf")
    texts: list[str] = []
    pages = 0
    for _ in range(rounds):
        started = time.perf_counter()
        found = [read(d) for d in data]
        best = min(best, time.perf_counter() - started)
        texts = [_text(f) for f in found]
        pages = sum(f.pages for f in found if f is not None)
    return {
        "seconds": round(best, 3),
        "pages": pages,
        "pages_per_s": round(pages / best, 1),
        "files_with_words": sum(1 for t in texts if re.search(r"\w", t)),
        "texts": texts,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--folder", type=Path, default=REPO / "tests" / "data" / "pdf-samples")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    files = sorted(args.folder.rglob("*.pdf"))
    extract_pdf(files[0].read_bytes())  # imports and PDFium's start-up out of the timing
    readers = {"pypdf": _by_pypdf, "pdfium": _by_pdfium, "neardup": extract_pdf}
    results = {name: measure(files, read, args.rounds) for name, read in readers.items()}
    print(f"{len(files)} PDFs in {args.folder}")
    print(f"{'reader':<10} {'pages':>6} {'seconds':>8} {'pages/s':>9} {'files with words':>17}")
    for name, r in results.items():
        print(f"{name:<10} {r['pages']:>6} {r['seconds']:>8.3f} {r['pages_per_s']:>9.1f} {r['files_with_words']:>17}")
    speedup = results["pdfium"]["pages_per_s"] / results["pypdf"]["pages_per_s"]
    ours = results["neardup"]["pages_per_s"] / results["pypdf"]["pages_per_s"]
    print(f"PDFium {speedup:.1f}x pypdf's pages/s; neardup's reader {ours:.1f}x")
    fewer = []
    for f, old, new in zip(files, results["pypdf"]["texts"], results["neardup"]["texts"], strict=True):
        words, joined = set(re.findall(r"\w+", old)), "".join(new.split())
        found = sum(1 for w in words if w in joined)
        if found < 0.9 * len(words):
            fewer.append((f.name, len(words), round(found / len(words), 3)))
    print(f"files where neardup's reader misses > 10 % of pypdf's distinct words: {len(fewer)}")
    for name, count, share in fewer:
        print(f"  {name}: {share:.0%} of pypdf's {count} distinct words found")
    out = REPO / "bench-results" / "pdf-readers.json"
    summary = {
        "folder": str(args.folder),
        "files": len(files),
        "pdfium_vs_pypdf": round(speedup, 2),
        "neardup_vs_pypdf": round(ours, 2),
        "missing_pypdf_words": fewer,
        **{name: {k: v for k, v in r.items() if k != "texts"} for name, r in results.items()},
    }
    out.write_text(json.dumps(summary, indent=1) + "\n")


if __name__ == "__main__":
    main()
