"""OCR accuracy, and whether a scan groups with its original: scans made here from known text.

    python -m tests.bench.ocr [--quick]

Each text (English licences, Chinese statutes) is printed to a one-page PDF (reportlab), rendered by PDFium
at 200 or 300 dpi with scanner grain (Gaussian noise of standard deviation 0, 4 or 8 grey levels, and as
many per 2,000 pixels of dust), and read by Tesseract in each language choice. Prints, per choice and
condition, the character error rate (1 - difflib's ratio of the texts without white space: misread, lost
and reordered characters), the exact Jaccard of the scan's shingles against the original's (what the
grouping measures; grouped at the default T when >= 0.8) and pages per second on one core; writes
bench-results/ocr.json.
"""

from __future__ import annotations

import argparse
import difflib
import json
import tempfile
import time
from pathlib import Path

import numpy as np

from neardup_gui.core.fingerprint.minhash import exact_overlap, unpack_shingles
from neardup_gui.core.fingerprint.ocr import run_tesseract
from neardup_gui.core.fingerprint.scheme import Scheme, fingerprint_text
from neardup_gui.core.models import Extracted, Status
from tests.conftest import chinese_texts, english_texts, scan_of, write_pdf

REPO = Path(__file__).resolve().parents[2]


def _pgm(pixels: np.ndarray) -> bytes:
    return b"P5\n%d %d\n255\n" % (pixels.shape[1], pixels.shape[0]) + pixels.tobytes()


def character_error(reference: str, read: str) -> float:
    a, b = "".join(reference.split()), "".join(read.split())
    return 1 - difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


def jaccard(reference: str, read: str, scheme: Scheme) -> float:
    a, b = (
        unpack_shingles(fingerprint_text(b"", "text", Extracted(Status.OK, text=t), scheme).shingles or b"")
        for t in (reference, read)
    )
    common = exact_overlap(a, b)
    return common / max(1, len(a) + len(b) - common)


def texts(quick: bool) -> dict[str, tuple[str, str]]:
    """name -> (language, a page of text)"""
    english = english_texts()
    chinese = list(chinese_texts().values())
    found = {
        "BSD": ("eng", english["BSD"]),
        "Apache-2.0": ("eng", "\n".join(english["Apache-2.0"].splitlines()[:45])),
        "statute-1": ("chi_sim", chinese[1][:900]),
        "statute-2": ("chi_sim", chinese[2][:900]),
    }
    return dict(list(found.items())[::2]) if quick else found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    scheme = Scheme.current()
    rows = []
    work = Path(tempfile.mkdtemp(prefix="neardup-ocr-bench-"))
    conditions = [(0, 200), (4, 200), (8, 200), (4, 300)] if not args.quick else [(4, 200)]
    for name, (language, text) in texts(args.quick).items():
        pdf = write_pdf(work / f"{name}.pdf", text).read_bytes()
        for noise, dpi in conditions:
            page = scan_of(pdf, dpi=dpi, noise=noise, seed=7)[0]
            for languages in (language, "chi_sim+eng"):
                started = time.perf_counter()
                read = run_tesseract(_pgm(page), languages, dpi=dpi)
                seconds = time.perf_counter() - started
                row = {
                    "text": name,
                    "noise": noise,
                    "dpi": dpi,
                    "languages": languages,
                    "cer": round(character_error(text, read), 4),
                    "jaccard": round(jaccard(text, read, scheme), 4),
                    "seconds": round(seconds, 2),
                }
                rows.append(row)
                print(
                    f"{name:<11} noise {noise} {dpi} dpi {languages:<12} CER {row['cer']:.3f}  "
                    f"J {row['jaccard']:.3f}  {seconds:.1f} s",
                    flush=True,
                )
    print("\nby language choice (mean over texts and conditions):")
    summary = {}
    for script in ("eng", "chi_sim"):
        for choice in (script, "chi_sim+eng"):
            picked = [r for r in rows if texts(args.quick)[r["text"]][0] == script and r["languages"] == choice]
            if not picked:
                continue
            key = f"{script} text, {choice}"
            summary[key] = {
                "cer": round(float(np.mean([r["cer"] for r in picked])), 4),
                "jaccard": round(float(np.mean([r["jaccard"] for r in picked])), 4),
                "grouped_at_0.8": f"{sum(r['jaccard'] >= 0.8 for r in picked)}/{len(picked)}",
                "grouped_at_0.7": f"{sum(r['jaccard'] >= 0.7 for r in picked)}/{len(picked)}",
                "pages_per_s": round(len(picked) / sum(r["seconds"] for r in picked), 2),
            }
            print(f"  {key:<28} {summary[key]}")
    name = "ocr-quick.json" if args.quick else "ocr.json"
    (REPO / "bench-results" / name).write_text(json.dumps({"summary": summary, "rows": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
