"""Moving files into a folder is all or nothing per file, whatever fails: a full drive, an original that cannot
be removed, a kill -9 in the middle of a copy to another drive; a retry finishes the batch, and the database
records exactly the files that moved.

Everything is real: two drives are two file systems found here (tmp_path's and /dev/shm, say); a full drive
is a small tmpfs mounted in a mount namespace of the moving process's own (as root), or a limit on the size of
the files that process may write (RLIMIT_FSIZE: writes past it fail with EFBIG, as on a drive that has no more
room for the file); a folder whose files cannot be removed is ``chattr +i`` as root (permission bits do not
stop root), read-only permissions otherwise."""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

from neardup_gui.core.models import Status
from neardup_gui.core.review import moves
from neardup_gui.core.review.moves import MoveError, move_file, same_file, temporary_name
from neardup_gui.core.review.rules import move_back, move_into_folder, move_target_problem
from neardup_gui.core.store.files import FileRecord
from neardup_gui.core.store.store import Store
from tests.conftest import REPO
from tests.core.move_child import NO_MOUNT


def is_temporary_name(name: str) -> bool:
    """Whether a file name is one of the moves' temporary files (temporary_name)."""
    return moves._TEMPORARY.fullmatch(name) is not None


posix_only = pytest.mark.skipif(sys.platform == "win32", reason="POSIX file systems and signals")
WAYS = ("renameat2", "link then unlink", "two drives")
FILE_SIZE = 8 << 20  # the kill test's files: a copy and its flush take long enough to be cut short


# -- helpers ------------------------------------------------------------------------------------
@pytest.fixture
def other_drive(tmp_path: Path) -> Iterator[Path]:
    """A temporary folder on another file system than tmp_path's, removed afterwards."""
    home = os.stat(tmp_path).st_dev
    bases = ("/dev/shm", f"/run/user/{os.getuid()}" if hasattr(os, "getuid") else "", "/var/tmp", tempfile.gettempdir())
    for base in bases:
        if base and os.path.isdir(base) and os.access(base, os.W_OK) and os.stat(base).st_dev != home:
            folder = Path(tempfile.mkdtemp(prefix="neardup-test-", dir=base))
            break
    else:
        pytest.skip("no second file system to move across here")
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def aside(way: str, tmp_path: Path, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The destination folder (not made yet) for one way of moving: on tmp_path's drive by renameat2 or by
    the portable link-then-unlink (renameat2 switched off), or on another drive."""
    if way == "two drives":
        return request.getfixturevalue("other_drive") / "aside"
    if way == "renameat2" and moves._renameat2() is None:
        pytest.skip("no renameat2 here")
    if way == "link then unlink":
        monkeypatch.setattr(moves, "_renameat2", lambda: None)
    return tmp_path / "aside"


def write(path: Path, size: int, seed: int) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(random.Random(seed).randbytes(size))
    return digest(path)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def files_under(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*") if not p.is_dir()} if folder.exists() else set()


def record(db: Path, paths: Iterable[Path]) -> None:
    """The files as a scan would have recorded them (as files it could not compare: no fingerprints needed)."""
    with Store(db) as store:
        store.write_batch(
            [],
            [
                FileRecord(str(p), p.stat().st_size, p.stat().st_mtime_ns, "txt", status=Status.UNSUPPORTED)
                for p in paths
            ],
        )


def recorded(db: Path) -> set[str]:
    with Store(db) as store:
        return {d.path for d in store.files.documents()}


@contextlib.contextmanager
def locked(folder: Path) -> Iterator[None]:
    """No entry of ``folder`` can be added or removed while inside, for root too: ``chattr +i`` as root
    (permission bits do not stop root), read-only permissions otherwise."""
    if os.geteuid() != 0:
        mode = folder.stat().st_mode
        folder.chmod(0o555)
        try:
            yield
        finally:
            folder.chmod(mode)
        return
    if shutil.which("chattr") is None or subprocess.run(["chattr", "+i", str(folder)], capture_output=True).returncode:
        pytest.skip(f"chattr +i does not work on {folder} here")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(folder)], check=True)


def child(spec: dict, *, unshare: bool = False) -> list[str]:
    """The command that moves a recorded batch in a process of its own (tests/core/move_child.py)."""
    command = [sys.executable, "-m", "tests.core.move_child", json.dumps(spec)]
    return ["unshare", "--mount", "--propagation", "private", *command] if unshare else command


def run_child(spec: dict, *, unshare: bool = False) -> dict:
    result = subprocess.run(child(spec, unshare=unshare), cwd=REPO, capture_output=True, text=True, timeout=300)
    if result.returncode == NO_MOUNT:
        pytest.skip("a small tmpfs cannot be mounted here")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)  # type: ignore[no-any-return]


# -- one file ---------------------------------------------------------------------------------
@pytest.mark.e2e
@posix_only
@pytest.mark.parametrize("way", WAYS)
def test_an_original_that_cannot_be_removed_is_not_moved_and_nothing_is_left(way, tmp_path, request, monkeypatch):
    """Before: a hard link (one drive) or a whole copy (two drives) stayed at the destination, the original
    too, and every retry failed with "a file of that name is already there"."""
    root = tmp_path / "uploads"
    source = root / "a.txt"
    before = write(source, 300_000, 1)
    destination = aside(way, tmp_path, request, monkeypatch)
    target = destination / "uploads" / "a.txt"
    with locked(root), pytest.raises(MoveError) as caught:
        move_file(str(source), str(target))
    assert digest(source) == before
    assert not destination.exists()  # no copy, no link, no temporary file, and not the folders it made
    assert caught.value.strerror.startswith(
        "it could not be moved (" if way == "renameat2" else "it could not be removed from its folder ("
    )
    assert "[Errno" not in caught.value.strerror and str(tmp_path) not in caught.value.strerror
    move_file(str(source), str(target))  # the retry, the folder writable again
    assert not source.exists() and digest(target) == before and files_under(destination) == {"uploads/a.txt"}


@pytest.mark.parametrize("way", WAYS)
def test_a_move_never_replaces_a_file(way, tmp_path, request, monkeypatch):
    root = tmp_path / "uploads"
    source = root / "a.txt"
    before = write(source, 50_000, 2)
    destination = aside(way, tmp_path, request, monkeypatch)
    target = destination / "uploads" / "a.txt"
    theirs = write(target, 10, 3)
    with pytest.raises(FileExistsError, match="a file of that name is already there"):
        move_file(str(source), str(target))
    assert digest(source) == before and digest(target) == theirs
    assert files_under(destination) == {"uploads/a.txt"}  # no temporary file either


def test_a_copy_cut_short_is_ours_and_goes_before_the_move_is_made_again(tmp_path, other_drive):
    source = tmp_path / "uploads" / "a.txt"
    before = write(source, 200_000, 4)
    target = other_drive / "aside" / "a.txt"
    target.parent.mkdir()
    partial = Path(temporary_name(str(target)))
    partial.write_bytes(source.read_bytes()[:70_000])  # what a kill in the middle of the copy leaves
    assert is_temporary_name(partial.name) and partial.name.startswith(".neardup-move-")
    move_file(str(source), str(target))
    assert not source.exists() and digest(target) == before and files_under(target.parent) == {"a.txt"}


def test_a_copy_in_place_while_the_original_is_still_there_is_recognised_as_ours(tmp_path, other_drive):
    """A kill between the copy taking its name and the original going: the copy is still linked to our
    temporary name. Identical in bytes, it completes the move; otherwise it is left alone as anyone's file."""
    source = tmp_path / "uploads" / "a.txt"
    before = write(source, 200_000, 5)
    target = other_drive / "aside" / "a.txt"
    target.parent.mkdir()
    shutil.copy2(source, target)
    os.link(target, temporary_name(str(target)))
    move_file(str(source), str(target))
    assert not source.exists() and digest(target) == before and files_under(target.parent) == {"a.txt"}

    other = tmp_path / "uploads" / "b.txt"
    write(other, 1_000, 6)
    changed = target.with_name("b.txt")
    theirs = write(changed, 1_000, 7)  # not the original's bytes
    os.link(changed, temporary_name(str(changed)))
    with pytest.raises(FileExistsError):
        move_file(str(other), str(changed))
    assert other.exists() and digest(changed) == theirs and files_under(target.parent) == {"a.txt", "b.txt"}


def test_an_identical_file_that_is_not_ours_is_never_taken_for_a_finished_move(tmp_path, other_drive):
    source = tmp_path / "uploads" / "a.txt"
    write(source, 20_000, 8)
    target = other_drive / "aside" / "a.txt"
    target.parent.mkdir()
    shutil.copy2(source, target)  # the person's own copy: same bytes, no temporary name of ours
    with pytest.raises(FileExistsError):
        move_file(str(source), str(target))
    assert source.exists() and target.exists()


def test_a_move_on_one_drive_cut_short_between_its_link_and_its_unlink_is_finished(tmp_path, monkeypatch):
    monkeypatch.setattr(moves, "_renameat2", lambda: None)
    source = tmp_path / "uploads" / "a.txt"
    before = write(source, 20_000, 9)
    target = tmp_path / "aside" / "a.txt"
    target.parent.mkdir()
    os.link(source, target)
    move_file(str(source), str(target))
    assert not source.exists() and digest(target) == before


# -- batches ----------------------------------------------------------------------------------
@pytest.mark.e2e
@posix_only
@pytest.mark.parametrize("full", ["small drive", "file size limit"])
def test_a_full_destination_leaves_every_file_whole_in_one_place_and_a_retry_completes(full, tmp_path, request):
    """Before: each file that did not fit left a partial (or empty) file at the destination, and the retry
    failed on it. After: the files that fit move, the others stay whole where they were with the reason in
    words, nothing else is left at the destination, and the database records exactly the files that moved."""
    root = tmp_path / "uploads"
    sizes = {"a-small.txt": 100_000, "b-large.txt": 3_000_000, "sub/c-small.txt": 100_000, "sub/d-large.txt": 2_500_000}
    before = {name: write(root / name, size, seed) for seed, (name, size) in enumerate(sizes.items())}
    small = {"a-small.txt", "sub/c-small.txt"}
    large = set(sizes) - small
    db = tmp_path / "db.sqlite"
    record(db, (root / name for name in sizes))
    if full == "small drive":
        if os.geteuid() != 0 or shutil.which("unshare") is None:
            pytest.skip("mounting a small tmpfs needs root and unshare")
        destination = tmp_path / "small drive"  # a 1 MB tmpfs, in the child's own mount namespace
        destination.mkdir()
        spec = {"db": str(db), "roots": [str(root)], "destination": str(destination), "tmpfs_size": "1m"}
        cause = "the drive is full"
    else:
        destination = request.getfixturevalue("other_drive") / "aside"
        spec = {"db": str(db), "roots": [str(root)], "destination": str(destination), "file_size_limit": 1_000_000}
        cause = "the file is too large for that drive"
    outcome = run_child(spec, unshare=full == "small drive")
    assert {str(Path(p).relative_to(root)) for p in outcome["done"]} == small
    failed = {str(Path(p).relative_to(root)): why for p, why in outcome["failed"]}
    assert failed == {name: f"it could not be copied there ({cause}); nothing was left there" for name in large}
    assert outcome["left"] == sorted(f"uploads/{name}" for name in small)  # no partial, empty or temporary file
    assert all(digest(root / name) == before[name] for name in large)
    assert files_under(root) == large
    assert recorded(db) == {str(root / n) for n in large} | {str(destination / "uploads" / n) for n in small}
    if full == "small drive":
        return  # the small drive went with the process
    retry = run_child({k: v for k, v in spec.items() if k != "file_size_limit"})
    assert {str(Path(p).relative_to(root)) for p in retry["done"]} == large and not retry["failed"]
    assert files_under(root) == set() and retry["left"] == sorted(f"uploads/{name}" for name in sizes)
    assert all(digest(destination / "uploads" / name) == before[name] for name in sizes)
    assert recorded(db) == {str(destination / "uploads" / n) for n in sizes}


@pytest.mark.e2e
@posix_only
def test_a_batch_records_exactly_the_files_that_moved_and_says_why_the_others_did_not(tmp_path, other_drive):
    root = tmp_path / "uploads"
    names = ["a.txt", "b.txt", "stuck/c.txt", "stuck/d.txt"]
    before = {name: write(root / name, 10_000, seed) for seed, name in enumerate(names)}
    db = tmp_path / "db.sqlite"
    record(db, (root / name for name in names))
    destination = other_drive / "aside"
    with Store(db) as store, locked(root / "stuck"):
        outcome = move_into_folder(store, store.files.documents(), str(destination), [str(root)])
    assert set(outcome.done) == {str(root / "a.txt"), str(root / "b.txt")}
    assert set(outcome.moved_to) == {str(destination / "uploads" / "a.txt"), str(destination / "uploads" / "b.txt")}
    reasons = dict(outcome.failed)
    assert set(reasons) == {str(root / "stuck" / "c.txt"), str(root / "stuck" / "d.txt")}
    assert all(
        why.startswith("it could not be removed from its folder (") and "[Errno" not in why for why in reasons.values()
    )
    assert files_under(destination) == {"uploads/a.txt", "uploads/b.txt"}
    assert files_under(root) == {"stuck/c.txt", "stuck/d.txt"}
    assert recorded(db) == {
        str(destination / "uploads" / "a.txt"),
        str(destination / "uploads" / "b.txt"),
        str(root / "stuck" / "c.txt"),
        str(root / "stuck" / "d.txt"),
    }
    with Store(db) as store:  # the retry moves the rest; the undo takes everything back
        rest = [d for d in store.files.documents() if d.path.startswith(str(root))]
        retry = move_into_folder(store, rest, str(destination), [str(root)])
        assert len(retry.done) == 2 and not retry.failed
        back = move_back(store, list(zip(outcome.done + retry.done, outcome.moved_to + retry.moved_to, strict=True)))
        assert len(back.done) == 4 and not back.failed and not back.skipped
    assert {name: digest(root / name) for name in names} == before and files_under(destination) == set()
    assert recorded(db) == {str(root / name) for name in names}


def test_a_file_moved_before_the_database_followed_it_is_counted_as_moved(tmp_path, other_drive):
    """A kill after a file moved and before the database was told: the retry finds it at its destination,
    as it was, and records it there (not as gone)."""
    root = tmp_path / "uploads"
    write(root / "a.txt", 10_000, 1)
    write(root / "b.txt", 10_000, 2)
    db = tmp_path / "db.sqlite"
    record(db, [root / "a.txt", root / "b.txt"])
    destination = other_drive / "aside"
    move_file(str(root / "a.txt"), str(destination / "uploads" / "a.txt"))
    with Store(db) as store:
        outcome = move_into_folder(store, store.files.documents(), str(destination), [str(root)])
    assert set(outcome.done) == {str(root / "a.txt"), str(root / "b.txt")} and not outcome.missing
    assert recorded(db) == {str(destination / "uploads" / "a.txt"), str(destination / "uploads" / "b.txt")}


def wait_for_a_copy(destination: Path, process: subprocess.Popen, size: int, timeout: float = 60.0) -> bool:
    """Wait until a copy holds at least ``size`` bytes (1: a copy under way, in our temporary file or, as
    before this was fixed, under the file's own name; the whole file: our temporary file being flushed or put
    in place); False when the process ended first."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if process.poll() is not None:
            return False
        for folder, _dirs, names in os.walk(destination):
            for name in names:
                with contextlib.suppress(OSError):
                    path = os.path.join(folder, name)
                    if os.path.getsize(path) >= size and (is_temporary_name(name) or size < FILE_SIZE):
                        if size >= FILE_SIZE:
                            return True
                        # a copy under way: the child is stopped to see it as it is; one still partial is
                        # killed so (the kill lands mid-copy for sure), one already whole is let go on
                        process.send_signal(signal.SIGSTOP)
                        try:
                            partial = 0 < os.path.getsize(path) < FILE_SIZE
                        except OSError:  # put in place meanwhile
                            partial = False
                        if partial:
                            return True
                        process.send_signal(signal.SIGCONT)
        time.sleep(0.0002)
    raise AssertionError("no copy started")


def assert_each_file_once(root: Path, destination: Path, before: dict[str, str], db: Path) -> set[str]:
    """Every file whole, at its place or at its destination; nothing else but our temporary files; the
    database never says a file moved that did not. Returns what the kill left: "partial copy" (a
    temporary file cut short), "whole copy" (a temporary file complete), "in place, original still there"."""
    seen = set()
    for name, expected in before.items():
        source, target = root / name, destination / "uploads" / name
        here, there = source.exists(), target.exists()
        assert here or there, f"{name} is nowhere"
        if here and there:  # the instant between the copy taking its name and the original going: still ours
            assert same_file(temporary_name(str(target)), str(target)), f"{name} is in two places"
            seen.add("in place, original still there")
        assert all(digest(p) == expected for p in [source] * here + [target] * there), name
        if str(target) in recorded(db):
            assert there and not here
    strays = files_under(destination) - {f"uploads/{name}" for name in before}
    assert all(is_temporary_name(Path(s).name) for s in strays), strays
    assert files_under(root) <= set(before)
    for stray in strays:
        path = destination / stray
        if not any(same_file(str(path), str(destination / "uploads" / name)) for name in before):
            seen.add("partial copy" if path.stat().st_size < FILE_SIZE else "whole copy")
    return seen


@pytest.mark.e2e
@posix_only
def test_a_batch_killed_in_the_middle_of_copies_again_and_again_loses_nothing_and_a_retry_completes_it(
    tmp_path, other_drive
):
    """kill -9 at several moments of a batch moved to another drive (files of 8 MB, flushed to tmp_path's
    disk): after each kill every file is whole in one place (or, for an instant, in place and still ours),
    and nothing but our own temporary files is left; each run is a retry of the last, and the last one
    completes the batch, with the database following every file."""
    root = other_drive / "uploads"
    names = ["a.bin", "b.bin", "sub/c.bin", "sub/d.bin", "sub/e.bin"]
    before = {name: write(root / name, FILE_SIZE, seed) for seed, name in enumerate(names)}
    db = tmp_path / "db.sqlite"
    record(db, (root / name for name in names))
    destination = tmp_path / "aside"
    spec = {"db": str(db), "roots": [str(root)], "destination": str(destination)}
    kills, seen = 0, set()
    # (bytes our temporary file must hold, then how long to wait): mid-copy, or once the copy is whole
    moments = [
        (1, 0.0),
        (FILE_SIZE, 0.0),
        (1, 0.004),
        (FILE_SIZE, 0.0005),
        (1, 0.0),
        (FILE_SIZE, 0.002),
        (1, 0.015),
        (FILE_SIZE, 0.0),
        (1, 0.04),
        (FILE_SIZE, 0.001),
    ]
    for size, delay in moments:
        process = subprocess.Popen(child(spec), cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if not wait_for_a_copy(destination, process, size):
            assert process.wait() == 0, process.stderr.read() if process.stderr else ""
            break
        if size >= FILE_SIZE:
            time.sleep(delay)
        process.send_signal(signal.SIGKILL)  # a stopped process dies too
        kills += process.wait() == -signal.SIGKILL
        if process.stderr:
            process.stderr.close()
        seen |= assert_each_file_once(root, destination, before, db)
    assert kills >= 3 and "partial copy" in seen, (kills, seen)
    outcome = run_child(spec)
    assert not outcome["failed"] and not outcome["missing"]
    assert outcome["left"] == sorted(f"uploads/{name}" for name in names)  # our temporary files went too
    assert files_under(root) == set()
    assert all(digest(destination / "uploads" / name) == before[name] for name in names)
    assert recorded(db) == {str(destination / "uploads" / name) for name in names}


# -- where files may go -----------------------------------------------------------------------
@posix_only
def test_a_link_into_a_scanned_folder_is_refused_like_the_folder_itself(tmp_path):
    root = tmp_path / "uploads"
    (root / "sub").mkdir(parents=True)
    link = tmp_path / "looks elsewhere"
    link.symlink_to(root / "sub")
    refused = move_target_problem(str(root / "sub"), [str(root)])
    assert refused and move_target_problem(str(link), [str(root)]) == refused.replace(str(root / "sub"), str(link))
    assert move_target_problem(str(tmp_path / "elsewhere"), [str(root)]) == ""


@posix_only
def test_a_link_below_the_destination_into_a_scanned_folder_is_refused_for_each_file(tmp_path):
    root = tmp_path / "uploads"
    write(root / "a" / "x.txt", 1_000, 1)
    (root / "b").mkdir()
    db = tmp_path / "db.sqlite"
    record(db, [root / "a" / "x.txt"])
    destination = tmp_path / "aside"
    (destination / "uploads").mkdir(parents=True)
    (destination / "uploads" / "a").symlink_to(root / "b")  # dest/uploads/a/x.txt would be uploads/b/x.txt
    assert move_target_problem(str(destination), [str(root)]) == ""
    with Store(db) as store:
        outcome = move_into_folder(store, store.files.documents(), str(destination), [str(root)])
    assert (
        not outcome.done
        and "leads into a scanned folder through a link" in dict(outcome.failed)[str(root / "a" / "x.txt")]
    )
    assert files_under(root) == {"a/x.txt"} and recorded(db) == {str(root / "a" / "x.txt")}


def test_a_failure_is_told_in_words_never_a_bytes_value_or_a_number():
    """send2trash words its errors with the paths as bytes (b'/…/.Trash-1001') and numbers: the person
    reads plain words, the path shown as display_path shows it."""
    from send2trash.exceptions import TrashPermissionError

    from neardup_gui.core.review.rules import failure_reason

    trash = failure_reason(TrashPermissionError(b"/mnt/usb/.Trash-1001"))
    assert "/mnt/usb/.Trash-1001" in trash and "b'" not in trash
    assert failure_reason(OSError(errno.EACCES, "Permission denied: b'/x'")) == "permission denied"
    said = failure_reason(OSError("Couldn't find mount point for b'/mnt/\\xff/x'"))
    assert said == "Couldn't find mount point for /mnt/\\xff/x"


def test_only_the_empty_folders_a_move_made_are_removed(tmp_path):
    """Taking a move back: the folders it made go when empty, deepest first; one holding a file stays, and
    an empty folder it did not make is not touched."""
    made = moves.make_folders(str(tmp_path / "aside" / "uploads" / "drafts"))
    (tmp_path / "aside" / "uploads" / "kept.txt").write_text("someone's file")
    (tmp_path / "aside" / "theirs").mkdir()
    moves.remove_empty_folders(made)
    assert sorted(p.name for p in (tmp_path / "aside").iterdir()) == ["theirs", "uploads"]
    assert [p.name for p in (tmp_path / "aside" / "uploads").iterdir()] == ["kept.txt"]
    (tmp_path / "aside" / "uploads" / "kept.txt").unlink()
    moves.remove_empty_folders(made)
    assert [p.name for p in (tmp_path / "aside").iterdir()] == ["theirs"], (
        "aside holds a folder it did not make: it stays"
    )
