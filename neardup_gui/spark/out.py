"""Where the job's result goes: a new folder on the driver's file system, or a URI of any file system the
cluster's Hadoop layer writes (``hdfs://``, ``s3a://``, ``file://``), written through Spark's own JVM, so
that a driver on a cluster node needs no disk shared with the person who reads the result; and Spark work
begun in a thread of its own, there and before the read."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..core.i18n import translate
from ..core.models import display_path

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

_CHUNK = 1 << 20  # bytes handed to the JVM at once (py4j copies each through its socket)


def is_uri(place: str) -> bool:
    """Whether ``place`` (a source or a result folder) is a URI Spark reads or writes, not a path here."""
    return "://" in place


def _not_empty(out: str) -> ValueError:
    return ValueError(
        translate("Errors", "{path}: the result folder is not empty (or is a file); name a new one").format(
            path=display_path(out)
        )
    )


def check_local(out: str) -> None:
    """Refuse a result folder on this machine that is a link, a file, or a folder holding something
    (ValueError); a URI is checked once Spark runs (``ResultFolder.check``)."""
    if is_uri(out):
        return
    if os.path.islink(out):  # the result would land wherever the link points
        raise ValueError(
            translate("Errors", "{path}: the result folder is a symbolic link; name a new folder").format(
                path=display_path(out)
            )
        )
    if os.path.exists(out) and (not os.path.isdir(out) or os.listdir(out)):
        raise _not_empty(out)


class ResultFolder:
    """The result's folder: its files' names for Spark's writers, and the job's own files written in it."""

    def __init__(self, spark: SparkSession, out: str) -> None:
        self.out = out.rstrip("/") if is_uri(out) else out
        self._spark = spark

    def _fs_path(self, name: str | None = None) -> tuple[Any, Any]:
        jvm = self._spark.sparkContext._jvm
        assert jvm is not None
        path = jvm.org.apache.hadoop.fs.Path(self.child(name) if name else self.out)
        fs = path.getFileSystem(self._spark.sparkContext._jsc.hadoopConfiguration())
        fs.setWriteChecksum(False)  # no .crc file beside each one a local file system writes
        return fs, path

    def check(self) -> None:
        """Refuse a folder that is a link, a file, or holds something (ValueError)."""
        if not is_uri(self.out):
            check_local(self.out)
            return
        fs, path = self._fs_path()
        if fs.exists(path) and (not fs.getFileStatus(path).isDirectory() or len(fs.listStatus(path))):
            raise _not_empty(self.out)

    def child(self, name: str) -> str:
        """Where ``name`` goes in the folder, as Spark's writers take it."""
        return f"{self.out}/{name}" if is_uri(self.out) else os.path.join(self.out, name)

    def make(self) -> None:
        if is_uri(self.out):
            fs, path = self._fs_path()
            fs.mkdirs(path)
        else:
            os.makedirs(self.out, exist_ok=True)

    def read_text(self, name: str) -> str:
        """A file of the folder, as UTF-8 text (OSError where it cannot be read)."""
        if not is_uri(self.out):
            with open(self.child(name), encoding="utf-8") as fh:
                return fh.read()
        jvm = self._spark.sparkContext._jvm
        assert jvm is not None
        fs, path = self._fs_path(name)
        try:
            stream = fs.open(path)
        except Exception as exc:  # py4j's error for a file that is not there
            raise OSError(str(exc).splitlines()[0] if str(exc) else type(exc).__name__) from None
        try:
            return str(jvm.org.apache.commons.io.IOUtils.toString(stream, "UTF-8"))
        finally:
            stream.close()

    def write_text(self, name: str, text: str, *, newline: str | None = None) -> None:
        """A new file of the folder holding ``text`` in UTF-8 (``newline`` as ``open`` takes it)."""
        if not is_uri(self.out):
            with open(self.child(name), "x", encoding="utf-8", newline=newline) as fh:
                fh.write(text)
            return
        if newline is None and os.linesep != "\n":
            text = text.replace("\n", os.linesep)
        data = text.encode("utf-8")
        fs, path = self._fs_path(name)
        stream = fs.create(path, False)  # never over a file that is there
        try:
            for start in range(0, len(data), _CHUNK):
                stream.write(bytearray(data[start : start + _CHUNK]))
        finally:
            stream.close()


def in_background(work: Callable[[], None]) -> Callable[[], None]:
    """``work`` started in a thread of its own, whose Spark jobs run beside the caller's; the function
    returned waits for it and raises what it raised."""
    from pyspark import InheritableThread  # the JVM thread of a pinned Python thread inherits the job's

    failed: list[BaseException] = []

    def run() -> None:
        try:
            work()
        except BaseException as exc:  # handed to the caller
            failed.append(exc)

    thread = InheritableThread(run, daemon=True)
    thread.start()

    def wait() -> None:
        thread.join()
        if failed:
            raise failed[0]

    return wait


def warm_up(spark: SparkSession) -> Callable[[], None]:
    """The JVM's SQL engine and its conversion of Python rows loaded and compiled in the background (a table
    of one row, of the tables' types, written nowhere): the first table written took 3.7 s of one core more
    than the next, late in the job when every core is busy; begun before the read, it takes a core the readers
    leave idle. The function returned waits for it (a failure is only a lost head start, not reported here)."""

    def write() -> None:
        spark.createDataFrame(
            [("a", 1, b"a", True, 0.5)], "text string, number long, hash binary, flag boolean, share double"
        ).write.format("noop").mode("overwrite").save()

    wait = in_background(write)

    def waited() -> None:
        # only a head start: the tables' own writes say what is wrong, in their context
        with contextlib.suppress(Exception):
            wait()

    return waited
