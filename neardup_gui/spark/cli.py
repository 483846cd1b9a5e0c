"""``neardup spark scan`` and ``spark-submit .../neardup_gui/spark/submit.py``: the Spark job from a command
line. Starts (or joins, under spark-submit) a Spark session, runs ``job.run`` and says what it found."""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sys

from ..core.i18n import QT_TRANSLATE_NOOP, translate
from ..core.models import Method, Thresholds, printable
from .job import JobOptions, JobSummary, run
from .out import check_local, is_uri
from .records import REPORTS

SPARK_MISSING = QT_TRANSLATE_NOOP(
    "Cli",
    "neardup spark needs PySpark and Java 17 or newer: .venv/bin/pip install -e '.[spark]' (or pip install "
    "'neardup[spark]') and sudo apt-get install default-jre-headless",
)


def options_from(args: argparse.Namespace) -> JobOptions:
    """The job's options from parsed arguments (those ``add_arguments`` declares)."""
    thresholds = Thresholds(
        method=Method(args.method),
        hamming=args.hamming,
        jaccard=args.jaccard,
        ignore_boilerplate=args.boilerplate == "ignore",
    )
    return JobOptions(
        args.input,
        args.out if is_uri(args.out) else os.path.abspath(os.path.expanduser(args.out)),
        thresholds,
        include=tuple(args.include),
        exclude=tuple(args.exclude),
        hidden=args.hidden,
        max_file_size=args.max_size << 20,
        file_timeout=args.timeout,
        reader_memory=None if args.max_memory is None else args.max_memory << 20,
        partitions=args.partitions,
        ocr=args.ocr_languages if args.ocr else "",
        previous=""
        if not args.previous
        else args.previous
        if is_uri(args.previous)
        else os.path.abspath(os.path.expanduser(args.previous)),
        reports=args.reports or REPORTS,
    )


def reports_list(value: str) -> tuple[str, ...]:
    """``--reports``: some of json, csv and html, separated by commas, in the order the job writes them."""
    named = {n.strip().lower() for n in value.split(",") if n.strip()}
    unknown = sorted(named - set(REPORTS))
    if unknown or not named:
        raise argparse.ArgumentTypeError(
            translate("Cli", "{given}: name one or more of {known}, separated by commas").format(
                given=", ".join(unknown) or repr(value), known=", ".join(REPORTS)
            )
        )
    return tuple(r for r in REPORTS if r in named)


LOCAL_JAVA_OPTIONS = "-XX:TieredStopAtLevel=1"
"""The driver's JVM options on a local master (``spark.driver.defaultJavaOptions``: a user's
``spark.driver.extraJavaOptions`` still apply after them)."""

SERIAL_COLLECTOR = "-XX:+UseSerialGC"
"""Added to them where the user's own options choose no collector (the JVM refuses two): G1 filled the heap
with the rows passing to the tables, and the job peaked at 1.9-2.2 GB over all processes at 20,000
documents, against 1.5 GB with the serial collector (for half a second more of collection)."""

_COLLECTOR = re.compile(r"-XX:\+Use\w*GC\b")


def _collector_chosen() -> bool:
    """Whether a garbage collector is named where a user gives the JVM options: the environment the JVM and
    spark-submit read, or the spark-defaults.conf spark-submit reads."""
    said = [os.environ.get(name, "") for name in ("JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS")]
    said.append(os.environ.get("PYSPARK_SUBMIT_ARGS", ""))
    home = os.environ.get("SPARK_HOME")
    if home is None:
        import pyspark

        home = os.path.dirname(pyspark.__file__)
    try:
        with open(
            os.path.join(os.environ.get("SPARK_CONF_DIR") or os.path.join(home, "conf"), "spark-defaults.conf"),
            encoding="utf-8",
            errors="replace",
        ) as fh:
            said.append(fh.read())
    except OSError:
        pass  # none
    return any(_COLLECTOR.search(text) for text in said)


def start_session(master: str | None, quiet: bool = False) -> object:
    """A Spark session: the one spark-submit configured, or a new one on ``master``. A local master's
    executors run this very Python (its packages: numpy, jieba, the PDF readers). ``quiet``: without
    Spark's progress bars."""
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        raise SystemExit("neardup: " + translate("Cli", SPARK_MISSING)) from None
    builder = SparkSession.builder.appName("neardup")
    if master:
        builder = builder.master(master)
    if quiet:
        builder = builder.config("spark.ui.showConsoleProgress", "false")
    if (master or "local").startswith("local"):  # PySpark starts its workers with PYSPARK_PYTHON, else python3
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
        # the JVM compiles its hot code once, quickly (C1), not again optimised (C2): on 2 cores C2's compiler
        # threads took 26 of the JVM's 61 CPU seconds of a 20,000-document job, beside the readers' work
        chosen = _collector_chosen()
        builder = builder.config(
            "spark.driver.defaultJavaOptions",
            LOCAL_JAVA_OPTIONS if chosen else f"{LOCAL_JAVA_OPTIONS} {SERIAL_COLLECTOR}",
        )
    try:
        spark = builder.getOrCreate()
    except Exception as exc:  # pyspark raises its own types when Java is missing or Spark fails to start
        if not (os.environ.get("JAVA_HOME") or shutil.which("java")):
            raise SystemExit("neardup: " + translate("Cli", SPARK_MISSING)) from None
        reason = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:300]
        said = translate(
            "Cli",
            "Spark did not start on {master}: {reason}. Check the --master URL, that the cluster "
            "can be reached, and Spark's own lines above.",
        )
        raise SystemExit(printable("neardup: " + said.format(master=master or "local[*]", reason=reason))) from None
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def summary_line(summary: JobSummary, out: str) -> str:
    """What a run found, in one line."""
    left_out = summary.rows_left_out  # a name: lupdate drops a count that is an expression
    if left_out:
        return translate(
            "Cli",
            "{found}; %n row(s) of the table left out (no path, or a line that is not JSON): see job.json",
            None,
            left_out,
        ).format(found=_found_line(summary, out))
    return _found_line(summary, out)


def _found_line(summary: JobSummary, out: str) -> str:
    return translate(
        "Cli",
        "{documents} documents ({problems} not compared), {groups} groups holding {grouped}; "
        "{pairs} verified pairs of {candidates} candidates; result in {out}",
    ).format(
        documents=summary.documents,
        problems=summary.problems,
        groups=summary.groups,
        grouped=summary.documents_in_groups,
        pairs=summary.pairs,
        candidates=summary.candidates,
        out=out,
    )


def scan(args: argparse.Namespace) -> int:
    """Run the job as the arguments say; 0 when it finished."""
    options = options_from(args)
    check_local(options.out)  # before Spark starts: a refused folder costs no JVM (a URI is checked once it runs)
    spark = start_session(getattr(args, "master", None), args.quiet)
    try:
        summary = run(spark, options)  # type: ignore[arg-type]
    finally:
        spark.stop()  # type: ignore[attr-defined]
    if not args.quiet:
        if summary.previous_problem:
            print("neardup: " + summary.previous_problem, file=sys.stderr)
        elif options.previous:
            reused = summary.reused  # a name: lupdate drops a count that is an expression
            said = translate("Cli", "%n file(s) unchanged since the previous result: not read again", None, reused)
            print("neardup: " + said, file=sys.stderr)
        print("neardup: " + summary_line(summary, options.out), file=sys.stderr)
    return 0
