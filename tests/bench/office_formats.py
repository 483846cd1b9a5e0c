"""Office formats, read by neardup against LibreOffice's own conversion to text, file by file, in the same run.

    python -m tests.bench.office_formats [--rounds N] [--keep DIR]

Makes real files with LibreOffice (headless) from the repository's texts (licences in English, statutes in
Chinese): word-processor documents of 1 to about 40 pages as .doc, .docx, .odt and .rtf; workbooks of 50 to
10,000 rows (300 to 60,000 cells) as .xls, .xlsx and .ods; decks of 10 to 60 slides as .ppt, .pptx and .odp.
Then, for every file:
- neardup's time to read it (``extract``, the best of N rounds, in this process);
- the peer's time, what a person would run to get the text: ``soffice --headless --convert-to`` one file at
  a time with a warm profile (text for documents, CSV of every sheet for workbooks, PDF then ``pdftotext
  -raw`` for decks: Impress writes no text; the page's number the PDF prints on every slide is left out of
  its text, as both readers leave out a slide's number);
- the Jaccard similarity of the two texts' shingle sets, as neardup compares documents (its normalisation and
  shingles), so "the same words" means the same to the matcher.
Prints a table per format (files, MB, median ms per file, MB/s, the peer's, the smallest speed-up over a file,
the smallest Jaccard) and writes bench-results/office-formats.json.

The workbooks hold no TRUE/FALSE cells: LibreOffice's CSV of an .xls writes them as 1 and 0, where Excel, and
LibreOffice's own CSV of the same workbook saved as .xlsx or .ods, show TRUE and FALSE, as neardup reads them.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from neardup_gui.core.fingerprint.minhash import unpack_shingles
from neardup_gui.core.fingerprint.scheme import Scheme, fingerprint_text
from neardup_gui.core.models import Extracted, Status
from neardup_gui.core.read.extract import extract
from tests.conftest import chinese_texts, english_texts, write_flat_odt
from tests.core.test_sheets import write_fods
from tests.core.test_slides import Slide, write_flat_odp

REPO = Path(__file__).resolve().parents[2]
WRITER = ("doc", "docx", "odt", "rtf")
CALC = ("xls", "xlsx", "ods")
IMPRESS = ("ppt", "pptx", "odp")
_FILTERS = {
    "doc": "doc:MS Word 97",
    "docx": "docx:MS Word 2007 XML",
    "odt": "odt",
    "rtf": "rtf",
    "xls": "xls:MS Excel 97",
    "xlsx": "xlsx:Calc MS Excel 2007 XML",
    "ods": "ods",
    "ppt": "ppt:MS PowerPoint 97",
    "pptx": "pptx:Impress MS PowerPoint 2007 XML",
    "odp": "odp",
}
# every sheet (the last option, -1), UTF-8 (76), cells as shown
_CSV = "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1"


@dataclass(frozen=True)
class Made:
    kind: str
    path: Path
    peer_kind: str  # "text", "csv" or "pdf"


def _soffice(profile: Path, target: str, out: Path, source: Path) -> float:
    """Seconds LibreOffice takes to convert ``source`` (one process, as a person runs it)."""
    started = time.perf_counter()
    subprocess.run(
        ["soffice", "--headless", f"-env:UserInstallation=file://{profile}", "--convert-to", target]
        + ["--outdir", str(out), str(source)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    return time.perf_counter() - started


def _paragraphs(text: str) -> list[str]:
    return [" ".join(p.split()) for p in re.split(r"\n\s*\n|\n(?=第)", text) if p.strip()]


def _sources(root: Path) -> list[tuple[str, Path]]:
    """(kind of application, source file): documents, workbooks and decks of several sizes."""
    english = [_paragraphs(t) for t in english_texts().values()]
    chinese = [_paragraphs(t) for t in chinese_texts().values()]
    made: list[tuple[str, Path]] = []
    for i, paragraphs in enumerate(english[:4] + chinese[:4]):
        made.append(("writer", write_flat_odt(root / f"doc{i}.fodt", paragraphs + ["", ""])))
    long = [p for ps in english + chinese for p in ps]  # some 40 pages
    made.append(("writer", write_flat_odt(root / "long.fodt", long)))
    words = [w for ps in english for p in ps for w in p.split()]
    han = [p for ps in chinese for p in ps]
    for sheets, rows in ((1, 50), (3, 500), (2, 2500), (5, 2000)):
        book = [
            (
                f"Sheet{s}",
                False,
                [
                    [" ".join(words[(r * 7 + s) % len(words) : (r * 7 + s) % len(words) + 5]), r, r * 0.25]
                    + [han[(r + s) % len(han)][:12], f"item-{s}-{r}", r * 1.5 + 0.125]
                    for r in range(rows)
                ],
            )
            for s in range(sheets)
        ]
        made.append(("calc", write_fods(root / f"book{sheets}x{rows}.fods", book)))
    for count in (10, 30, 60):
        deck = [
            Slide(
                title=f"{english[n % len(english)][0][:60]} {n}",
                bullets=tuple(p[:160] for p in (english + chinese)[n % 8][1:4]),
                box=han[n % len(han)][:40],
            )
            for n in range(count)
        ]
        made.append(("impress", write_flat_odp(root / f"deck{count}.fodp", deck)))
    return made


def _shingles(text: str, scheme: Scheme) -> set[int]:
    found = fingerprint_text(b"", "text", Extracted(Status.OK, text=text), scheme)
    return set(unpack_shingles(found.shingles).tolist()) if found.shingles else set()


def _jaccard(a: set[int], b: set[int]) -> float:
    return len(a & b) / len(a | b) if a | b else 1.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--keep", type=Path, help="make the files here and keep them (a new empty folder)")
    args = parser.parse_args()
    assert shutil.which("soffice") and shutil.which("pdftotext"), "needs LibreOffice and poppler-utils"
    root = args.keep or Path(tempfile.mkdtemp(prefix="neardup-office-bench-"))
    root.mkdir(parents=True, exist_ok=True)
    profile, files, peer_out = root / "profile", root / "files", root / "peer"
    scheme = Scheme.current()
    made: list[Made] = []
    for app, source in _sources(root / "sources"):
        kinds = {"writer": WRITER, "calc": CALC, "impress": IMPRESS}[app]
        peer = {"writer": "text", "calc": "csv", "impress": "pdf"}[app]
        for kind in kinds:
            _soffice(profile, _FILTERS[kind], files / kind, source)
            made.append(Made(kind, files / kind / f"{source.stem}.{kind}", peer))
    print(f"{len(made)} files made by LibreOffice in {files}", flush=True)
    # neardup's times first, all of them: a LibreOffice that has just converted a file is still ending its
    # processes for a while, and would share the machine with the reading timed after it
    ours: list[tuple[Extracted, float]] = []
    for item in made:
        data = item.path.read_bytes()
        found = extract(item.kind, data)
        assert found.status is Status.OK, (item.path, found.message)
        best = float("inf")
        for _ in range(args.rounds):
            started = time.perf_counter()
            extract(item.kind, data)
            best = min(best, time.perf_counter() - started)
        ours.append((found, best))
    rows: list[dict] = []
    for item, (found, best) in zip(made, ours, strict=True):
        data = item.path.read_bytes()
        out = peer_out / item.kind / item.path.stem
        if item.peer_kind == "text":
            peer_seconds = _soffice(profile, "txt:Text (encoded):UTF8", out, item.path)
            peer_text = (out / f"{item.path.stem}.txt").read_text("utf-8-sig")
        elif item.peer_kind == "csv":
            peer_seconds = _soffice(profile, _CSV, out, item.path)
            peer_text = "\n".join(p.read_text("utf-8") for p in sorted(out.glob("*.csv")))
        else:
            peer_seconds = _soffice(profile, "pdf", out, item.path)
            started = time.perf_counter()
            subprocess.run(["pdftotext", "-raw", "-enc", "UTF-8", str(out / f"{item.path.stem}.pdf")], check=True)
            peer_seconds += time.perf_counter() - started
            peer_text = re.sub(r"(?m)^\s*\d+\s*$", "", (out / f"{item.path.stem}.txt").read_text("utf-8"))
        jaccard = _jaccard(_shingles(found.text, scheme), _shingles(peer_text, scheme))
        rows.append(
            {
                "kind": item.kind,
                "file": item.path.name,
                "bytes": len(data),
                "seconds": best,
                "peer_seconds": peer_seconds,
                "speedup": peer_seconds / best,
                "jaccard": jaccard,
            }
        )
        print(
            f"  {item.path.name:<22} {len(data) / 1e3:>8.0f} KB {best * 1e3:>8.1f} ms  LibreOffice "
            f"{peer_seconds:>5.2f} s  x{peer_seconds / best:>6.0f}  Jaccard {jaccard:.3f}",
            flush=True,
        )
    print(
        f"\n{'format':<6} {'files':>5} {'MB':>6} {'ms/file':>8} {'MB/s':>7} {'LO s/file':>9} {'LO MB/s':>8}"
        f" {'min x':>6} {'median x':>8} {'min J':>6}"
    )
    summary = {}
    for kind in (*WRITER, *CALC, *IMPRESS):
        of = [r for r in rows if r["kind"] == kind]
        megabytes = sum(r["bytes"] for r in of) / 1e6
        ours, peer = sum(r["seconds"] for r in of), sum(r["peer_seconds"] for r in of)
        summary[kind] = {
            "files": len(of),
            "megabytes": round(megabytes, 2),
            "median_ms": round(statistics.median(r["seconds"] for r in of) * 1e3, 2),
            "mb_per_s": round(megabytes / ours, 2),
            "peer_median_s": round(statistics.median(r["peer_seconds"] for r in of), 2),
            "peer_mb_per_s": round(megabytes / peer, 2),
            "min_speedup": round(min(r["speedup"] for r in of), 1),
            "median_speedup": round(statistics.median(r["speedup"] for r in of), 1),
            "min_jaccard": round(min(r["jaccard"] for r in of), 4),
        }
        s = summary[kind]
        print(
            f"{kind:<6} {s['files']:>5} {s['megabytes']:>6.2f} {s['median_ms']:>8.1f} {s['mb_per_s']:>7.1f}"
            f" {s['peer_median_s']:>9.2f} {s['peer_mb_per_s']:>8.2f} {s['min_speedup']:>6.0f}"
            f" {s['median_speedup']:>8.0f} {s['min_jaccard']:>6.3f}"
        )
    results = REPO / "bench-results"
    results.mkdir(exist_ok=True)
    (results / "office-formats.json").write_text(json.dumps({"summary": summary, "files": rows}, indent=1) + "\n")
    if not args.keep:
        shutil.rmtree(root)


if __name__ == "__main__":
    main()
