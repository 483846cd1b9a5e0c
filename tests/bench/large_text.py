"""A reader's memory on one huge one-line text: `python -m tests.bench.large_text [--sizes 50,200]`.

Each file is read and fingerprinted in a fresh process (as a scan's worker does: read the bytes,
extract, fingerprint), and that process's peak resident memory above its idle size is reported as a
multiple of the file's size. English: words drawn from a vocabulary of 50,000, so nearly every run of
three words is new (the worst case for SimHash's feature counts); Chinese: passages of the statutes in
tests/data/zh without line breaks.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

RESULTS = Path(__file__).resolve().parents[2] / "bench-results"
ZH = Path(__file__).resolve().parents[1] / "data" / "zh"

_READ = """
import json, resource, sys, time
from neardup_gui.core import text
from neardup_gui.core.fingerprint import Scheme, fingerprint_bytes
text._classes(); text._jieba()
idle = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
started = time.perf_counter()
with open(sys.argv[1], "rb") as fh:
    fp = fingerprint_bytes("text", fh.read(), Scheme.current())
print(json.dumps({"seconds": time.perf_counter() - started, "status": str(fp.status),
                  "extra_rss_mb": (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - idle) / 1024}))
"""


def write_english(path: Path, size: int) -> None:
    rng = random.Random(1)
    vocabulary = [
        "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(2, 9))) for _ in range(50_000)
    ]
    with path.open("w") as out:
        written = 0
        while written < size:
            line = " ".join(rng.choices(vocabulary, k=10_000)) + " "
            out.write(line)
            written += len(line)


def write_chinese(path: Path, size: int) -> None:
    source = "".join(p.read_text(encoding="utf-8") for p in sorted(ZH.glob("*.txt"))).replace("\n", "")
    rng = random.Random(1)
    with path.open("w", encoding="utf-8") as out:
        written = 0
        while written < size:
            start = rng.randrange(len(source) - 200)
            piece = source[start : start + 200]
            out.write(piece)
            written += len(piece.encode())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="50,200", help="English sizes in MB (Chinese: the first only)")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        cases = [("english", size, write_english) for size in sizes] + [("chinese", sizes[0], write_chinese)]
        for language, size, write in cases:
            path = Path(tmp) / f"{language}-{size}.txt"
            write(path, size << 20)
            proc = subprocess.run([sys.executable, "-c", _READ, str(path)], capture_output=True, text=True, check=True)
            measured = json.loads(proc.stdout)
            file_mb = path.stat().st_size / (1 << 20)
            rows.append(
                {
                    "text": language,
                    "file_mb": round(file_mb),
                    "seconds": round(measured["seconds"], 1),
                    "extra_rss_mb": round(measured["extra_rss_mb"]),
                    "multiple": round(measured["extra_rss_mb"] / file_mb, 1),
                    "status": measured["status"],
                }
            )
            path.unlink()
            print(json.dumps(rows[-1]), flush=True)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "large-text.json").write_text(json.dumps(rows, indent=2) + "\n")


if __name__ == "__main__":
    main()
