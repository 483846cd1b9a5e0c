"""`neardup`: the headless front end. scan, groups, query; a thin layer over core.

Exit codes: 0 success (even when some files could not be read: they are listed as problems),
1 failure, 2 bad usage, 130 interrupted (what was finished is kept; run again to resume).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import signal
import sqlite3
import sys
import time
from pathlib import Path
from typing import TextIO

from . import __version__
from .core import i18n
from .core.errors import NeardupError, UsageError, database_error_message
from .core.fingerprint.ocr import DEFAULT_LANGUAGES
from .core.forecast import MemoryForecast, MemoryShort
from .core.i18n import QT_TRANSLATE_NOOP, translate
from .core.jobs import CancelToken, JobCancelled, PaceMeter, ProgressEvent
from .core.models import (
    CONTAINMENT_DEFAULT,
    CONTAINMENT_MIN,
    HAMMING_MAX,
    JACCARD_MIN,
    PASSAGE_COMMON_DEFAULT,
    PASSAGE_COMMON_MAX,
    PASSAGE_DEFAULT_WORDS,
    PASSAGE_MAX_WORDS,
    PASSAGE_MIN_WORDS,
    Method,
    PassageSearch,
    ScanOptions,
    Thresholds,
    display_path,
    printable,
)
from .core.review.report import check_report_target
from .core.review.words import endings, kind_endings, listed
from .core.scan import summary_text
from .core.session import Session, View
from .core.store.store import default_db_path

EXIT_OK, EXIT_FAILURE, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


def _hamming(value: str) -> int:
    k = int(value)
    if not 0 <= k <= HAMMING_MAX:
        raise argparse.ArgumentTypeError(translate("Cli", "must be between 0 and {max}").format(max=HAMMING_MAX))
    return k


def _jaccard(value: str) -> float:
    t = float(value)
    if not JACCARD_MIN <= t <= 1.0:
        raise argparse.ArgumentTypeError(translate("Cli", "must be between {min} and 1").format(min=JACCARD_MIN))
    return t


def _containment(value: str) -> float:
    c = float(value)
    if not CONTAINMENT_MIN <= c <= 1.0:
        raise argparse.ArgumentTypeError(translate("Cli", "must be between {min} and 1").format(min=CONTAINMENT_MIN))
    return c


def _passage_words(value: str) -> int:
    n = int(value)
    if not PASSAGE_MIN_WORDS <= n <= PASSAGE_MAX_WORDS:
        raise argparse.ArgumentTypeError(
            translate("Cli", "must be between {min} and {max}").format(min=PASSAGE_MIN_WORDS, max=PASSAGE_MAX_WORDS)
        )
    return n


def _common(value: str) -> int:
    n = int(value)
    if not 2 <= n <= PASSAGE_COMMON_MAX:
        raise argparse.ArgumentTypeError(
            translate("Cli", "must be between {min} and {max}").format(min=2, max=PASSAGE_COMMON_MAX)
        )
    return n


def _seconds(value: str) -> float:
    seconds = float(value)
    if not math.isfinite(seconds) or seconds <= 0:  # nan would compare false with every limit: no limit
        raise argparse.ArgumentTypeError(translate("Cli", "must be a number of seconds greater than 0"))
    return seconds


def _positive_int(value: str) -> int:
    n = int(value)
    if n < 1:
        raise argparse.ArgumentTypeError(translate("Cli", "must be at least 1"))
    return n


def _spark_reports(value: str) -> tuple[str, ...]:
    from .spark.cli import reports_list  # the job's own names; its modules load only for a Spark command

    return reports_list(value)


def files_read(ocr: bool) -> str:
    """What ``scan --help`` says last: the endings read, each kind with the ``type`` the report gives it, and with
    ``ocr`` the images that --ocr reads too."""
    kinds = listed([f"{kind} ({' '.join(suffixes)})" for kind, suffixes in kind_endings().items() if kind != "image"])
    said = translate(
        "Cli",
        "Files are read by their name's ending; other files are skipped, and --include and --exclude choose among "
        "these. The types in the report, and the endings read as each: {kinds}.",
    ).format(kinds=kinds)
    if ocr:
        said += " " + translate("Cli", "With --ocr also: image ({endings}).").format(endings=endings({"image"}))
    return said


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="neardup",
        description=translate(
            "Cli",
            "Find exact and near-duplicate documents: text, PDF, Word, WPS Office, Excel, PowerPoint, OpenDocument, "
            "RTF, e-books, web pages and saved e-mail.",
        ),
    )
    parser.add_argument("--version", action="version", version=f"neardup {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    def reader_limits(p: argparse.ArgumentParser) -> None:
        """The limits of a reader, the same for a scan's files and a query's file."""
        p.add_argument(
            "--max-size",
            type=_positive_int,
            default=256,
            metavar="MIB",
            help=translate("Cli", "leave out a larger file (default 256 MiB)"),
        )
        p.add_argument(
            "--timeout",
            type=_seconds,
            default=120.0,
            metavar="S",
            help=translate("Cli", "give up on one file after S seconds (default 120)"),
        )
        p.add_argument(
            "--max-memory",
            type=_positive_int,
            default=None,
            metavar="MIB",
            help=translate("Cli", "memory each reader may use (default: a quarter of this machine's, 1-8 GiB)"),
        )

    def thresholds(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--method",
            choices=[m.value for m in Method],
            default=Method.MINHASH.value,
            help=translate("Cli", "minhash (Jaccard, default), simhash (Hamming), or both (either one matches)"),
        )
        p.add_argument(
            "--hamming",
            type=_hamming,
            default=8,
            metavar="K",
            help=translate("Cli", "SimHash: at most K differing bits of 64 (0-{max}; default 8)").format(
                max=HAMMING_MAX
            ),
        )
        p.add_argument(
            "--jaccard",
            type=_jaccard,
            default=0.8,
            metavar="T",
            help=translate("Cli", "MinHash: shingle-set Jaccard similarity at least T (0-1; default 0.8)"),
        )

    def boilerplate(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--boilerplate",
            choices=["ignore", "keep"],
            default="ignore",
            help=translate(
                "Cli",
                "passages that open or close 10%% or more of the collection's "
                "documents, whose other text is unrelated (letterheads, notices, "
                "footers): ignore them when measuring Jaccard (default) or keep "
                "them; families of similar documents always keep what they share",
            ),
        )

    def quiet(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--quiet", "-q", action="store_true", help=translate("Cli", "no progress or summary on standard error")
        )

    def database(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--db", type=Path, help=translate("Cli", "database file (default: {path})").format(path=default_db_path())
        )

    def common(p: argparse.ArgumentParser, with_report: bool = True) -> None:
        database(p)
        thresholds(p)
        if with_report:
            boilerplate(p)
            # every member of a group is a duplicate of its keeper now, always; the old switch is still accepted
            p.add_argument("--split-chains", action="store_true", help=argparse.SUPPRESS)
            p.add_argument(
                "--format",
                choices=["json", "csv", "html"],
                default="json",
                help=translate("Cli", "report format (default json)"),
            )
            p.add_argument(
                "--out", type=Path, help=translate("Cli", "write the report here (default: standard output)")
            )
            p.add_argument(
                "--find",
                action="append",
                choices=["excerpts", "passages"],
                default=[],
                help=translate(
                    "Cli",
                    "also look for excerpts (documents inside another, however small a part of it they are) or "
                    "passages (pairs of documents that share a passage word for word); may be given twice "
                    "(JSON and HTML reports)",
                ),
            )
            p.add_argument(
                "--containment",
                type=_containment,
                default=None,
                metavar="C",
                help=translate(
                    "Cli",
                    "excerpts: at least C of the smaller document's shingles are in the larger "
                    "({min}-1; default {default})",
                ).format(min=CONTAINMENT_MIN, default=CONTAINMENT_DEFAULT),
            )
            p.add_argument(
                "--words",
                type=_passage_words,
                default=None,
                metavar="N",
                help=translate(
                    "Cli",
                    "passages: at least N words in a row, word for word (Chinese: N characters; "
                    "{min}-{max}; default {default})",
                ).format(min=PASSAGE_MIN_WORDS, max=PASSAGE_MAX_WORDS, default=PASSAGE_DEFAULT_WORDS),
            )
            p.add_argument(
                "--common",
                type=_common,
                default=None,
                metavar="M",
                help=translate(
                    "Cli",
                    "passages: one every part of which more than M documents hold is common wording (a standard "
                    "clause, a well-known quotation) and not listed ({min}-{max}; default {default})",
                ).format(min=2, max=PASSAGE_COMMON_MAX, default=PASSAGE_COMMON_DEFAULT),
            )
        quiet(p)

    def which_files(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--include",
            action="append",
            default=[],
            metavar="GLOB",
            help=translate("Cli", "only files matching, of the types listed below (repeatable)"),
        )
        p.add_argument(
            "--exclude",
            action="append",
            default=[],
            metavar="GLOB",
            help=translate("Cli", "skip files/folders matching (repeatable)"),
        )
        p.add_argument("--hidden", action="store_true", help=translate("Cli", "also scan hidden files and folders"))

    def ocr_options(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--ocr",
            action="store_true",
            help=translate(
                "Cli", "read scanned PDFs and images (.png .jpg .tif .bmp) with Tesseract OCR; slow: seconds a page"
            ),
        )
        p.add_argument(
            "--ocr-languages",
            default=DEFAULT_LANGUAGES,
            metavar="LANGUAGES",
            help=translate("Cli", "the scans' languages, as Tesseract names them (default {languages})").format(
                languages=DEFAULT_LANGUAGES
            ),
        )

    p_scan = sub.add_parser(
        "scan",
        help=translate("Cli", "scan folders (incrementally) and report duplicate groups"),
        epilog=files_read(ocr=True),
    )
    p_scan.add_argument("paths", nargs="+", metavar="PATH", help=translate("Cli", "folders (or files) to scan"))
    common(p_scan)
    p_scan.add_argument(
        "--workers",
        type=_positive_int,
        default=os.cpu_count() or 1,
        help=translate("Cli", "reader processes (default: cores)"),
    )
    which_files(p_scan)
    ocr_options(p_scan)
    reader_limits(p_scan)
    p_scan.add_argument(
        "--retry-failed",
        action="store_true",
        help=translate("Cli", "read again the files whose reader crashed, ran out of memory or of time"),
    )
    p_scan.add_argument(
        "--memory-budget",
        type=_positive_int,
        default=None,
        metavar="MIB",
        help=translate(
            "Cli",
            "the most memory the scan may need, all processes together; a scan that would need more does not "
            "start, and says so (default: the memory this computer has free)",
        ),
    )
    p_scan.add_argument(
        "--no-memory-check",
        action="store_true",
        help=translate("Cli", "start the scan even when it may need more memory than the budget"),
    )

    p_groups = sub.add_parser(
        "groups", help=translate("Cli", "re-group the database at other thresholds, without rescanning")
    )
    common(p_groups)
    p_groups.add_argument(
        "--root",
        action="append",
        default=[],
        metavar="PATH",
        help=translate("Cli", "only files under PATH (repeatable; default: the folders of the last scan)"),
    )

    p_query = sub.add_parser("query", help=translate("Cli", "list stored near-duplicates of one file"))
    p_query.add_argument("file", metavar="FILE")
    common(p_query, with_report=False)
    p_query.add_argument("--format", choices=["text", "json"], default="text")
    p_query.add_argument(
        "--root",
        action="append",
        default=[],
        metavar="PATH",
        help=translate("Cli", "only matches under PATH (repeatable; default: the folders of the last scan)"),
    )
    reader_limits(p_query)

    p_spark = sub.add_parser(
        "spark",
        help=translate(
            "Cli",
            "the same job on Apache Spark, for collections larger than one machine (needs neardup[spark] and Java)",
        ),
    )
    spark_sub = p_spark.add_subparsers(dest="spark_command", required=True)
    p_spark_scan = spark_sub.add_parser(
        "scan",
        help=translate(
            "Cli",
            "fingerprint, compare and group a collection on Spark; write groups, pairs and a JSON report to a folder",
        ),
        epilog=files_read(ocr=True),  # a folder's files; a table's texts are read as they are
    )
    p_spark_scan.add_argument(
        "input",
        metavar="INPUT",
        help=translate(
            "Cli",
            "a folder, a URI Spark reads (hdfs://, s3a://), or a Parquet or "
            "JSON-lines table with the columns path and text",
        ),
    )
    p_spark_scan.add_argument(
        "--out",
        required=True,
        metavar="DIR",
        help=translate(
            "Cli",
            "a new folder for the result (Parquet tables, report.json, report.csv, report.html, and what "
            "import-spark loads)",
        ),
    )
    p_spark_scan.add_argument(
        "--previous",
        metavar="DIR",
        help=translate(
            "Cli",
            "an earlier result of this job over the same folder: files found there unchanged (same path, size and "
            "modification time) are not read again",
        ),
    )
    p_spark_scan.add_argument(
        "--reports",
        type=_spark_reports,
        metavar="LIST",
        help=translate(
            "Cli",
            "which reports to write beside the tables, separated by commas, of json, csv and html; by default all "
            "three (the HTML report is the slowest, as it shows the differences)",
        ),
    )
    p_spark_scan.add_argument(
        "--master", metavar="URL", help=translate("Cli", "Spark master (default: spark-submit's, or local[*])")
    )
    p_spark_scan.add_argument(
        "--partitions",
        type=_positive_int,
        metavar="N",
        help=translate("Cli", "partitions of the work (default: one per 2,000 documents, at least twice the cores)"),
    )
    thresholds(p_spark_scan)
    boilerplate(p_spark_scan)
    which_files(p_spark_scan)
    ocr_options(p_spark_scan)
    reader_limits(p_spark_scan)
    quiet(p_spark_scan)

    p_import = sub.add_parser(
        "import-spark", help=translate("Cli", "load a Spark result into a new database, to review it in the app")
    )
    p_import.add_argument("result", metavar="DIR", help=translate("Cli", "the folder neardup spark scan wrote (--out)"))
    database(p_import)
    p_import.add_argument(
        "--map",
        action="append",
        default=[],
        metavar="FROM=TO",
        help=translate(
            "Cli",
            "where the files the cluster read under FROM are on this machine "
            "(repeatable), e.g. hdfs://cluster/uploads=/mnt/uploads",
        ),
    )
    quiet(p_import)
    return parser


_PHASES = {
    "discover": QT_TRANSLATE_NOOP("Cli", "discover"),
    "read": QT_TRANSLATE_NOOP("Cli", "read"),
    "fingerprint": QT_TRANSLATE_NOOP("Cli", "fingerprint"),
    "ocr": QT_TRANSLATE_NOOP("Cli", "OCR pages"),
    "save": QT_TRANSLATE_NOOP("Cli", "save"),
    "index": QT_TRANSLATE_NOOP("Cli", "index"),
    "boilerplate": QT_TRANSLATE_NOOP("Cli", "boilerplate"),
    "match": QT_TRANSLATE_NOOP("Cli", "match"),
    "report": QT_TRANSLATE_NOOP("Cli", "report"),
    "excerpts": QT_TRANSLATE_NOOP("Cli", "excerpts"),
    "passages": QT_TRANSLATE_NOOP("Cli", "shared passages"),
    "import": QT_TRANSLATE_NOOP("Cli", "import"),
}
"""The progress line's name of each phase of a job (ProgressEvent.phase); a phase not listed shows its key."""


class _ProgressLine:
    """One self-rewriting line on a terminal: phase, done/total, rate, ETA, current file."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.pace = PaceMeter()
        self.last_draw = 0.0

    def __call__(self, event: ProgressEvent) -> None:
        now = time.monotonic()
        pace = self.pace(event)
        finished = event.total is not None and event.done >= event.total
        if now - self.last_draw < 0.1 and not finished:
            return
        self.last_draw = now
        phase = _PHASES.get(event.phase)
        name = translate("Cli", phase) if phase else event.phase
        parts = [f"{name:<11}"]
        if event.total:
            parts.append(f"{event.done}/{event.total} {100 * event.done / event.total:5.1f}%")
            if pace.left_text:
                parts.append(translate("Cli", "ETA {time}").format(time=pace.left_text))
        else:
            parts.append(f"{event.done}")
        parts.append(translate("Cli", "{rate}/s").format(rate=f"{pace.rate:.0f}"))
        if event.bytes_done:
            parts.append(f"{pace.bytes_rate / 1e6:.1f} MB/s")
        line = "  ".join(parts)
        width = 100
        current = display_path(event.current)
        if current and len(line) + 2 < width:
            room = width - len(line) - 2
            current = current if len(current) <= room else "…" + current[-(room - 1) :]
            line += "  " + current
        self.stream.write("\r\x1b[2K" + line)
        self.stream.flush()

    def close(self) -> None:
        self.stream.write("\r\x1b[2K")
        self.stream.flush()


def _emit(session: Session, args: argparse.Namespace) -> None:
    """The report to a file (atomically; a CSV keeps its byte-order mark) or to standard output (without it),
    with the excerpts and passages when asked."""
    containment = passages = None
    if "excerpts" in args.find:
        containment = CONTAINMENT_DEFAULT if args.containment is None else args.containment
    if "passages" in args.find:
        passages = PassageSearch(
            PASSAGE_DEFAULT_WORDS if args.words is None else args.words,
            PASSAGE_COMMON_DEFAULT if args.common is None else args.common,
        )
    if args.out is not None:
        session.write_report(args.out, args.format, containment=containment, passages=passages)
        return
    sys.stdout.write(session.report(args.format, containment=containment, passages=passages).lstrip("\ufeff"))
    sys.stdout.flush()


def _check_find(args: argparse.Namespace) -> None:
    if args.find and args.format == "csv":
        raise UsageError(
            translate("Cli", "Excerpts and passages are written in the JSON and HTML reports, not in CSV.")
        )
    if args.containment is not None and "excerpts" not in args.find:
        raise UsageError(translate("Cli", "--containment is the setting of --find excerpts: add it."))
    if (args.words is not None or args.common is not None) and "passages" not in args.find:
        raise UsageError(translate("Cli", "--words and --common are settings of --find passages: add it."))


def _thresholds(args: argparse.Namespace) -> Thresholds:
    return Thresholds(
        method=Method(args.method),
        hamming=args.hamming,
        jaccard=args.jaccard,
        ignore_boilerplate=getattr(args, "boilerplate", "ignore") == "ignore",
    )


def _mebibytes(value: int | None) -> int | None:
    return None if value is None else value << 20


def cmd_scan(args: argparse.Namespace, session: Session) -> int:
    _check_find(args)
    options = ScanOptions(
        roots=tuple(args.paths),
        include=tuple(args.include),
        exclude=tuple(args.exclude),
        hidden=args.hidden,
        workers=args.workers,
        max_file_size=args.max_size * (1 << 20),
        file_timeout=args.timeout,
        reader_memory=_mebibytes(args.max_memory),
        retry_failed=args.retry_failed,
        ocr=args.ocr_languages if args.ocr else "",
        check_memory=not args.no_memory_check,
        memory_budget=_mebibytes(args.memory_budget),
    )
    session.check_report_target(args.out, args.paths)
    cancel = CancelToken()
    previous = signal.signal(signal.SIGINT, lambda *_: cancel.cancel())
    show = sys.stderr.isatty() and not args.quiet
    line = _ProgressLine(sys.stderr) if show else None
    with session.workers_kept(args.workers):  # the scan's workers write its report too
        try:
            view = session.scan(options, _thresholds(args), progress=line or (lambda e: None), cancel=cancel)
        except JobCancelled:
            if line:
                line.close()
            print(
                "neardup: "
                + translate(
                    "Cli", "scan interrupted; everything finished so far is saved — run the same command to resume."
                ),
                file=sys.stderr,
            )
            return EXIT_INTERRUPTED
        except MemoryShort as short:
            if line:
                line.close()
            _say(i18n.sentences(str(short), _ways_on(short.forecast)))
            return EXIT_FAILURE
        finally:
            signal.signal(signal.SIGINT, previous)
        if line:
            line.close()
        _emit(session, args)
    if not args.quiet and view.scan is not None:
        _say(translate("Cli", "{summary}; {found}").format(summary=summary_text(view.scan), found=_found(view)))
    return EXIT_OK


def _ways_on(forecast: MemoryForecast) -> str:
    """What a person can do about a scan that would need more memory than there is, as options."""
    fewer = forecast.fewer_workers()
    ways = [translate("Cli", "fewer workers (--workers {count})").format(count=fewer.workers)] if fewer else []
    ways.append(translate("Cli", "the Spark job, which spreads the work over several computers (neardup spark scan)"))
    ways.append(translate("Cli", "closing other programs"))
    return translate("Cli", "Nothing was read. Ways on: {ways}; or scan anyway with --no-memory-check.").format(
        ways="; ".join(ways)
    )


def _say(message: str) -> None:
    """A line to standard error; no file name it quotes can drive the terminal (models.printable)."""
    print(printable(f"neardup: {message}"), file=sys.stderr)


def _found(view: View) -> str:
    """The groups and the pairs of duplicates in them, counted as the app and the reports count them."""
    groups, pairs = len(view.result.groups), len(view.duplicates)  # names: lupdate drops a count that is an expression
    return translate("Cli", "{groups}, {pairs}").format(
        groups=translate("Cli", "%n group(s)", None, groups),
        pairs=translate("Cli", "%n pair(s) of duplicates", None, pairs),
    )


def _roots(args: argparse.Namespace) -> tuple[str, ...]:
    return tuple(str(Path(r).resolve()) for r in args.root)


def cmd_groups(args: argparse.Namespace, session: Session) -> int:
    _check_find(args)
    # the folders it answers for are scanned folders: a report there would be read as a document next time
    session.check_report_target(args.out, _roots(args) or session.last_scan_roots())
    view = session.open(_roots(args), _thresholds(args))
    if view is None:
        if _roots(args):
            raise UsageError(
                translate(
                    "Cli", "The database holds no documents under {folders}; scan them first (`neardup scan FOLDER`)."
                ).format(folders=", ".join(_roots(args)))
            )
        raise UsageError(
            translate(
                "Cli",
                "The database holds no documents under the last scan's folders; scan them "
                "first (`neardup scan FOLDER`).",
            )
        )
    _emit(session, args)
    if not args.quiet:
        said = (
            translate("Cli", "Documents under {folders}: {documents}; {found}").format(
                documents=len(view.result.documents), folders=", ".join(view.roots), found=_found(view)
            )
            if view.roots
            else translate("Cli", "Documents in every folder: {documents}; {found}").format(
                documents=len(view.result.documents), found=_found(view)
            )
        )
        _say(said)
    return EXIT_OK


def cmd_query(args: argparse.Namespace, session: Session) -> int:
    path = Path(args.file)
    shown = display_path(args.file)
    if path.is_dir():
        raise UsageError(
            translate(
                "Cli", "{path} is a folder; name one file (to compare a folder, scan it: `neardup scan FOLDER`)."
            ).format(path=shown)
        )
    if path.exists() and not path.is_file():
        raise UsageError(
            translate("Cli", "{path} is not a file (a pipe, a device or a socket); name a regular file.").format(
                path=shown
            )
        )
    if not path.is_file():
        raise UsageError(translate("Cli", "No such file: {path}").format(path=shown))
    hits = session.query(
        str(path.resolve()),
        _thresholds(args),
        max_file_size=args.max_size * (1 << 20),
        file_timeout=args.timeout,
        reader_memory=_mebibytes(args.max_memory),
        roots=_roots(args),
    )
    if args.format == "json":
        print(
            json.dumps(
                {
                    "file": display_path(str(path.resolve())),
                    "matches": [
                        {
                            "id": h.document.id,
                            "path": display_path(h.document.path),
                            "matched_by": h.matched_by,
                            "hamming": h.similarity.hamming,
                            "jaccard_estimate": h.similarity.jaccard_estimate,
                            "jaccard": h.similarity.jaccard,
                            "containment": h.similarity.containment,
                        }
                        for h in hits
                    ],
                },
                ensure_ascii=False,
                indent=2,
            )
        )
    else:
        if not hits:
            print(translate("Cli", "no stored near-duplicates"))
        for h in hits:
            s = h.similarity
            print(
                translate("Cli", "{jaccard}  {hamming} bits  {matched_by}  {path}").format(
                    jaccard=f"{s.jaccard:6.3f}",
                    hamming=f"{s.hamming:2d}",
                    matched_by=f"{h.matched_by:<7}",
                    path=display_path(h.document.path),
                )
            )
    return EXIT_OK


def cmd_import_spark(args: argparse.Namespace, session: Session) -> int:
    from .core.store.spark_result import parse_mapping

    summary = session.import_spark(args.result, [parse_mapping(m) for m in args.map])
    if not args.quiet:
        t = summary.thresholds
        _say(
            translate(
                "Cli",
                "loaded {documents} documents ({problems} not compared) of the Spark result into {db} (the job "
                "grouped them at {method}, Hamming {hamming}, Jaccard {jaccard}). Review them: neardup groups "
                "--db {db}, or in the app: neardup-gui --db {db}",
            ).format(
                documents=summary.documents,
                problems=summary.problems,
                db=args.db_path,
                method=t["method"],
                hamming=t["hamming"],
                jaccard=t["jaccard"],
            )
        )
    return EXIT_OK


def cmd_spark(args: argparse.Namespace) -> int:
    from .spark.cli import scan

    return scan(args)


ARGPARSE_WORDS = (  # argparse's own words a person meets, for the catalogue (argparse asks its `_` for them)
    QT_TRANSLATE_NOOP("argparse", "usage: "),
    QT_TRANSLATE_NOOP("argparse", "positional arguments"),
    QT_TRANSLATE_NOOP("argparse", "options"),
    QT_TRANSLATE_NOOP("argparse", "show this help message and exit"),
    QT_TRANSLATE_NOOP("argparse", "show program's version number and exit"),
    QT_TRANSLATE_NOOP("argparse", "%(prog)s: error: %(message)s\n"),
    QT_TRANSLATE_NOOP("argparse", "argument %(argument_name)s: %(message)s"),
    QT_TRANSLATE_NOOP("argparse", "invalid choice: %(value)r (choose from %(choices)s)"),
    QT_TRANSLATE_NOOP("argparse", "invalid %(type)s value: %(value)r"),
    QT_TRANSLATE_NOOP("argparse", "the following arguments are required: %s"),
    QT_TRANSLATE_NOOP("argparse", "unrecognized arguments: %s"),
    QT_TRANSLATE_NOOP("argparse", "expected one argument"),
    QT_TRANSLATE_NOOP("argparse", "ambiguous option: %(option)s could match %(matches)s"),
)


def speak_argparse() -> None:
    """argparse's own words ("usage:", "options", its errors) in the current language: argparse looks
    them up through its module's gettext function `_` when it prints, which is its hook for translation."""
    setattr(argparse, "_", lambda text: translate("argparse", text))  # noqa: B010 - the name argparse looks up


def main(argv: list[str] | None = None) -> int:
    if not i18n.translator_installed():  # a Qt translator (the app's, in the same process) keeps its language
        i18n.set_language(i18n.system_language())
    speak_argparse()
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "spark":  # no database: the result goes to a folder
        try:
            return cmd_spark(args)
        except (UsageError, ValueError) as exc:
            _say(str(exc))
            return EXIT_USAGE
    db_path = args.db_path = args.db or default_db_path()
    try:
        if args.command not in ("scan", "import-spark") and not Path(db_path).exists():
            raise UsageError(
                translate("Cli", "No database at {path}; run `neardup scan FOLDER` first (or pass --db).").format(
                    path=db_path
                )
            )
        if args.command in ("scan", "groups"):  # before the database is opened (or made) and before any scan
            check_report_target(args.out, Path(db_path), None, getattr(args, "paths", ()))
        with Session(db_path) as session:
            return {"scan": cmd_scan, "groups": cmd_groups, "query": cmd_query, "import-spark": cmd_import_spark}[
                args.command
            ](args, session)
    except KeyboardInterrupt:  # a half-done step is not kept: a database change is one transaction
        _say(translate("Cli", "interrupted; what was finished is kept, what was under way is not."))
        return EXIT_INTERRUPTED
    except UsageError as exc:
        _say(str(exc))
        return EXIT_USAGE
    except ValueError as exc:
        _say(str(exc))
        return EXIT_USAGE
    except NeardupError as exc:
        _say(str(exc))
        return EXIT_FAILURE
    except sqlite3.Error as exc:
        _say(database_error_message(exc, db_path))
        return EXIT_FAILURE
    except OSError as exc:
        _say(f"{exc.strerror or exc}: {display_path(os.fsdecode(exc.filename)) if exc.filename else ''}".rstrip(": "))
        return EXIT_FAILURE


if __name__ == "__main__":
    sys.exit(main())
