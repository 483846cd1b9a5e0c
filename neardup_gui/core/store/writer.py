"""The scan's database writes, done by a process of their own so that the scan's parent never waits on
SQLite: writing the fingerprints (each content's ~9 KB shingle set, its row and index entries) was
three quarters of the parent's CPU while fingerprinting, and the parent is what a 16-core scan waits
on (issue #15). It stays one writer: the parent hands batches over in order, and each is written as
one transaction (``Store.write_batch``), so a scan killed at any moment leaves a consistent database.

The writer is spawned (not forked from the worker server: it needs no jieba, and a fork would count
the server's memory again) and its start-up overlaps the first batches, which wait here until it is
ready. A failed write is raised here as the ``sqlite3.Error`` it was, at the next hand-over or wait, so
the front ends say what they say of any database error.
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
import signal
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from typing import Any

from .. import i18n
from ..errors import DatabaseError
from ..i18n import translate
from ..models import Fingerprint
from .files import FileRecord
from .store import Store

_MAX_WAITING_ITEMS = 20_000  # files and contents held here while the writer starts; past that, wait for it


class WriterProcess:
    """Writes batches of (contents, files) to the database at ``db_path`` from another process, in the
    order handed over. One caller, one thread; ``close`` (or leaving the ``with`` block) stops it."""

    def __init__(self, db_path: str | os.PathLike[str]) -> None:
        ctx = mp.get_context("spawn")
        self._conn, child = ctx.Pipe(duplex=True)
        self._process = ctx.Process(
            target=_serve, args=(child, os.fspath(db_path), i18n.language()), daemon=True, name="neardup-writer"
        )
        with _ctrl_c_ignored():  # until the writer can ignore it itself, a Ctrl-C would kill it mid-start
            self._process.start()
        child.close()
        self._ready = False
        self._waiting: list[tuple[Sequence[Fingerprint], Sequence[FileRecord]]] = []
        self._waiting_items = 0

    def __enter__(self) -> WriterProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def write(self, fingerprints: Sequence[Fingerprint], files: Sequence[FileRecord]) -> None:
        """Hand a batch over, to be written as one transaction; returns at once (unless the writer is
        still starting with a great many batches waiting). Raises a write that failed before."""
        self._read_replies()
        self._waiting.append((fingerprints, files))
        self._waiting_items += len(fingerprints) + len(files)
        if not self._ready and self._waiting_items > _MAX_WAITING_ITEMS:
            self._until("ready")
        if self._ready:
            self._send_waiting()

    def wait(self) -> None:
        """Return once every batch handed over is written (raising the first write that failed)."""
        self._until("ready")
        self._send_waiting()
        self._send(("sync",))
        self._until("synced")

    def close(self) -> None:
        """Stop the writer after what it was handed (``wait`` first to know it was all written)."""
        if self._process.is_alive():
            with contextlib.suppress(OSError):
                self._conn.send(None)
            self._process.join(timeout=60)
        if self._process.is_alive():
            self._process.kill()
            self._process.join(timeout=5)
        self._conn.close()

    def _send_waiting(self) -> None:
        for fingerprints, files in self._waiting:
            self._send(("write", fingerprints, files))
        self._waiting, self._waiting_items = [], 0

    def _send(self, message: tuple[Any, ...]) -> None:
        try:
            self._conn.send(message)
        except OSError:
            self._raise_stopped()

    def _read_replies(self) -> None:
        while self._conn.poll():
            self._handle(self._recv())

    def _until(self, wanted: str) -> None:
        if wanted == "ready" and self._ready:
            return
        while self._handle(self._recv()) != wanted:
            pass

    def _recv(self) -> tuple[Any, ...]:
        try:
            reply: tuple[Any, ...] = self._conn.recv()
        except (EOFError, OSError):
            self._raise_stopped()
        return reply

    def _handle(self, reply: tuple[Any, ...]) -> str:
        if reply[0] == "ready":
            self._ready = True
        elif reply[0] == "failed":
            _kind, class_name, text, error_name, error_code = reply
            error = getattr(sqlite3, class_name, sqlite3.Error)(text)
            error.sqlite_errorname, error.sqlite_errorcode = error_name, error_code
            raise error
        elif reply[0] == "refused":
            raise DatabaseError(reply[1])
        return str(reply[0])

    def _raise_stopped(self) -> Any:
        self._process.join(timeout=5)
        raise DatabaseError(
            translate(
                "Errors",
                "The process writing the database stopped unexpectedly (exit code "
                "{code}); what was saved before is kept. Scan again to go on.",
            ).format(code=self._process.exitcode)
        )


@contextlib.contextmanager
def _ctrl_c_ignored() -> Iterator[None]:
    """SIGINT ignored in this process while the block runs (a process started then inherits that);
    only the main thread may change it, and only there does Python handle it."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


def _failure(exc: sqlite3.Error) -> tuple[str, str, str, str, int]:
    """A reply saying how a write failed, from which the parent raises the same sqlite3 error."""
    return (
        "failed",
        type(exc).__name__,
        str(exc),
        getattr(exc, "sqlite_errorname", ""),
        getattr(exc, "sqlite_errorcode", 0),
    )


def _serve(conn: Any, db_path: str, language: str) -> None:
    """The writer: write each batch received, in order, until told to stop or the parent is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle; it stops us
    i18n.set_language(language)  # what it says, it says in the parent's language
    try:
        store = Store(db_path)
    except DatabaseError as exc:  # the parent opened this file a moment ago: unlikely, but said
        cause = exc.__cause__
        conn.send(_failure(cause) if isinstance(cause, sqlite3.Error) else ("refused", str(exc)))
        return
    conn.send(("ready",))
    failed = False
    with store:
        while True:
            try:
                message = conn.recv()
            except (EOFError, OSError):
                return  # the parent is gone: every batch written is whole, the rest is not there at all
            if message is None:
                return
            if message[0] == "sync":
                conn.send(("synced",))
            elif not failed:  # after a failure, nothing more: the parent raises it and stops the scan
                try:
                    store.write_batch(message[1], message[2])
                except sqlite3.Error as exc:
                    failed = True
                    conn.send(_failure(exc))
