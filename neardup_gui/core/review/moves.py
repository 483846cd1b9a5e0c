"""Moving one of the person's files to another folder, all or nothing: afterwards the file is either at its
destination and gone from where it was, or untouched where it was with nothing left at the destination.

On one drive a move is one rename that never replaces a file: renameat2 with RENAME_NOREPLACE (Linux), a
plain rename on Windows (which never replaces), else a hard link then an unlink. To another drive the file
is copied into a temporary file of ours beside the destination (made exclusively, never through a link),
flushed to the disk, linked into place (never replacing a file), then the original goes, then our temporary
name; whatever fails, what was made at the destination is removed again, and a file whose original cannot be
removed is not moved.

A move cut short (the app killed, the power lost) leaves at most our temporary file
(``.neardup-move-<16 hex digits>.part``, named after the destination's name) or, for an instant, the copy in
place while the original is still there, the copy still linked to our temporary name: finish_interrupted_move
recognises both, so the move can be made again (or taken back) to completion."""

from __future__ import annotations

import contextlib
import ctypes
import errno
import filecmp
import functools
import hashlib
import os
import re
import shutil
import stat
import sys
from collections.abc import Callable, Iterable

from ..i18n import translate

TEMPORARY_PREFIX = ".neardup-move-"
TEMPORARY_SUFFIX = ".part"
_TEMPORARY = re.compile(re.escape(TEMPORARY_PREFIX) + r"[0-9a-f]{16}" + re.escape(TEMPORARY_SUFFIX))
_CHUNK = 1 << 20
_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)  # Windows has none (and follows no links in open)
_O_BINARY = getattr(os, "O_BINARY", 0)  # Windows only: no newline translation
# what os.link answers on a drive without hard links (FAT, exFAT, some network shares; EINVAL on Windows)
_NO_HARD_LINKS = frozenset({errno.EPERM, errno.EMLINK, errno.ENOTSUP, errno.EOPNOTSUPP, errno.ENOSYS, errno.EINVAL})
# what renameat2 answers when the drive (or the kernel) cannot refuse to replace
_NO_NOREPLACE = frozenset({errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP})
_AT_FDCWD = -100
_RENAME_NOREPLACE = 1


class MoveError(OSError):
    """A file that was not moved, with why in plain words (``strerror``); nothing was left at the
    destination. Never a FileExistsError, whatever its cause: that one means the name is taken."""


def taken() -> str:
    return translate("Review", "a file of that name is already there")


def taken_error(target: str) -> FileExistsError:
    return FileExistsError(errno.EEXIST, taken(), target)


def plain_cause(exc: OSError) -> str:
    """What the operating system said, in a few plain words, without its number or the path."""
    words = {
        errno.ENOSPC: translate("Review", "the drive is full"),
        getattr(errno, "EDQUOT", errno.ENOSPC): translate("Review", "the drive is full"),
        errno.EFBIG: translate("Review", "the file is too large for that drive"),
        errno.EACCES: translate("Review", "permission denied"),
        errno.EPERM: translate("Review", "the system does not allow it"),
        errno.EROFS: translate("Review", "the drive is read-only"),
        errno.ENAMETOOLONG: translate("Review", "the name is too long for that drive"),
        errno.EIO: translate("Review", "the drive reported an error"),
        errno.EEXIST: taken(),
    }
    return words.get(exc.errno or 0) or exc.strerror or str(exc) or type(exc).__name__


def temporary_name(target: str) -> str:
    """Our temporary file for a copy on its way to ``target``: beside it (so that the last step is on one
    drive), hidden, and named after it, so that a retry finds it; short however long the name."""
    digest = hashlib.sha256(os.fsencode(os.path.basename(target))).hexdigest()[:16]
    return os.path.join(os.path.dirname(target), f"{TEMPORARY_PREFIX}{digest}{TEMPORARY_SUFFIX}")


def move_file(source: str, target: str) -> list[str]:
    """Move one file to ``target`` (making its folders), never replacing a file, all or nothing:
    FileExistsError when the name is taken, MoveError otherwise (nothing moved, nothing left at the
    destination, the folders this call made removed again). A move of the same file cut short before is
    finished first (finish_interrupted_move). Returns the folders it made, outermost first."""
    made = make_folders(os.path.dirname(target))
    try:
        if finish_interrupted_move(source, target):
            return made
        if os.path.lexists(target):
            raise taken_error(target)
        if not _move_on_one_drive(source, target):
            _move_across_drives(source, target)
    except BaseException:
        remove_empty_folders(made)
        raise
    return made


def finish_interrupted_move(source: str, target: str) -> bool:
    """Clear up after a move of ``source`` to ``target`` cut short, so that it can be made again; True when
    it turns out complete. Only what is provably ours is touched: our temporary file (a copy cut short or
    never put in place: the original is intact), and a copy in place still linked to it, which completes
    the move when it holds the original's very bytes. MoveError when the original cannot be removed (the
    copy then goes)."""
    temporary = temporary_name(target)
    if same_file(temporary, target):  # in place; the original perhaps not yet removed
        if os.path.lexists(source):
            if not filecmp.cmp(source, target, shallow=False):
                _discard(temporary)  # the original changed since: the copy is left alone, as anyone's file
                return False
            _remove_original(source, target, temporary)
        _discard(temporary)
        return True
    if not os.path.lexists(source):
        return False  # a temporary file may be the only copy left: it stays
    if _not_a_folder(temporary):
        _discard(temporary)
    if same_file(source, target):  # a move on one drive cut short between its link and its unlink
        _remove_original(source, target)
        return True
    return False


def same_file(a: str, b: str) -> bool:
    """Whether two names are one regular file (hard links), links never followed."""
    try:
        sa, sb = os.lstat(a), os.lstat(b)
    except OSError:
        return False
    return stat.S_ISREG(sa.st_mode) and (sa.st_dev, sa.st_ino) == (sb.st_dev, sb.st_ino)


def _not_a_folder(path: str) -> bool:
    try:
        return not stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


def _discard(path: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)


def make_folders(folder: str) -> list[str]:
    """Make ``folder`` and the missing folders above it; returns those made, outermost first (for
    remove_empty_folders). MoveError when one cannot be made."""
    missing = []
    while not os.path.isdir(folder):
        missing.append(folder)
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    made: list[str] = []
    for path in reversed(missing):
        try:
            os.mkdir(path)
        except OSError as exc:
            if isinstance(exc, FileExistsError) and os.path.isdir(path):
                continue  # made by someone else meanwhile
            remove_empty_folders(made)
            reason = translate("Review", "the folder {folder} could not be made ({cause})")
            raise MoveError(exc.errno, reason.format(folder=path, cause=plain_cause(exc))) from exc
        made.append(path)
    return made


def remove_empty_folders(made: Iterable[str]) -> None:
    """Remove those of the folders we made (and only those) that are empty now, deepest first: a move that
    failed, or was taken back, leaves no empty tree behind it."""
    for path in sorted(set(made), key=lambda p: p.count(os.sep), reverse=True):
        with contextlib.suppress(OSError):  # not empty, or gone: left as it is
            os.rmdir(path)


# -- on one drive ----------------------------------------------------------------------------
def _move_on_one_drive(source: str, target: str) -> bool:
    """Rename ``source`` to ``target`` unless the name is taken; False (nothing done) when they are on
    different drives."""
    try:
        linked = _rename_or_link(source, target)
    except FileExistsError:
        raise taken_error(target) from None
    except OSError as exc:
        if exc.errno == errno.EXDEV:
            return False
        reason = translate("Review", "it could not be moved ({cause})").format(cause=plain_cause(exc))
        raise MoveError(exc.errno, reason) from exc
    if linked:
        _remove_original(source, target)
    return True


def _rename_or_link(source: str, target: str) -> bool:
    """Give the file the name ``target`` unless it is taken (FileExistsError): atomically where the system
    can; else by a hard link, the original still to remove (True)."""
    if _rename_atomically(source, target):
        return False
    try:
        os.link(source, target, follow_symlinks=False)  # fails on a taken name: atomic
        return True
    except OSError as exc:
        if exc.errno not in _NO_HARD_LINKS:
            raise
    _rename_after_a_look(source, target)
    return False


def _rename_atomically(source: str, target: str) -> bool:
    """Rename unless the name is taken, in one step, where the system offers it (True when done)."""
    if sys.platform == "win32":
        os.rename(source, target)  # never replaces on Windows
        return True
    return _renameat2_noreplace(source, target)


def _rename_after_a_look(source: str, target: str) -> None:
    """The last resort, on drives with neither hard links nor an atomic rename (FAT on macOS): a look,
    then a rename (a moment's race no call closes there)."""
    if os.path.lexists(target):
        raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), target)
    os.rename(source, target)


@functools.cache
def _renameat2() -> Callable[..., int] | None:
    """renameat2 from the C library (glibc 2.28 and later), or None."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        function = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return None
    function.argtypes = (ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint)
    function.restype = ctypes.c_int
    return function


def _renameat2_noreplace(source: str, target: str) -> bool:
    """renameat2(RENAME_NOREPLACE): True when renamed, False when this system or drive cannot."""
    function = _renameat2()
    if function is None:
        return False
    if function(_AT_FDCWD, os.fsencode(source), _AT_FDCWD, os.fsencode(target), _RENAME_NOREPLACE) == 0:
        return True
    code = ctypes.get_errno()
    if code in _NO_NOREPLACE:
        return False
    raise OSError(code, os.strerror(code), source, None, target)


def _remove_original(source: str, target: str, temporary: str | None = None) -> None:
    """The last step of a move: the original goes. When it cannot, the copy goes instead (and our
    temporary name), so the file is not moved: MoveError."""
    try:
        os.unlink(source)
        return
    except FileNotFoundError:
        return  # gone meanwhile: the copy in place is the file now
    except OSError as exc:
        cause = exc
    try:
        os.unlink(target)
    except OSError as exc:
        reason = translate(
            "Review",
            "it could not be removed from its folder ({cause}), and its copy at {path} could not be "
            "deleted ({other}): the file is now in both places",
        ).format(cause=plain_cause(cause), path=target, other=plain_cause(exc))
        raise MoveError(cause.errno, reason) from cause
    if temporary is not None:
        _discard(temporary)
    reason = translate(
        "Review", "it could not be removed from its folder ({cause}), so it stays there; its copy was deleted again"
    ).format(cause=plain_cause(cause))
    raise MoveError(cause.errno, reason) from cause


# -- to another drive --------------------------------------------------------------------------
def _move_across_drives(source: str, target: str) -> None:
    """Copy into our temporary file, put it in place, then remove the original (see the module's notes)."""
    temporary = temporary_name(target)
    _copy_to_new_file(source, temporary)
    try:
        linked = _put_in_place(temporary, target)
    except BaseException:
        _discard(temporary)
        raise
    _sync_folder(os.path.dirname(target))  # the name on the disk before the original goes
    _remove_original(source, target, temporary if linked else None)
    if linked:
        with contextlib.suppress(OSError):  # moved all the same; a retry would clear the name (it is ours)
            _discard(temporary)


def _copy_to_new_file(source: str, temporary: str) -> None:
    """Copy ``source`` into the new file ``temporary`` (never an existing one, never through a link), with its
    times (the database knows a file by its size and time) and permissions, flushed to the disk. MoveError
    when anything fails; nothing is left then."""
    try:
        reader = os.open(source, os.O_RDONLY | _O_NOFOLLOW | _O_BINARY)
    except OSError as exc:
        raise MoveError(
            exc.errno, translate("Review", "it could not be read ({cause})").format(cause=plain_cause(exc))
        ) from exc
    try:
        writer = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O_NOFOLLOW | _O_BINARY, 0o600)
    except OSError as exc:
        os.close(reader)
        raise _copy_error(exc) from exc
    try:
        try:
            _copy_bytes(reader, writer)
            _copy_times(source, temporary, os.fstat(reader))
            os.fsync(writer)
        finally:
            os.close(writer)
    except BaseException as exc:
        _discard(temporary)
        if isinstance(exc, OSError):
            raise _copy_error(exc) from exc
        raise
    finally:
        os.close(reader)


def _copy_error(exc: OSError) -> MoveError:
    reason = translate("Review", "it could not be copied there ({cause}); nothing was left there")
    return MoveError(exc.errno, reason.format(cause=plain_cause(exc)))


def _copy_bytes(reader: int, writer: int) -> None:
    """Every byte, each write repeated until it is whole (a write may take less than it is given)."""
    expected = os.fstat(reader).st_size
    copied = 0
    while chunk := os.read(reader, _CHUNK):
        view = memoryview(chunk)
        while view:
            view = view[os.write(writer, view) :]
        copied += len(chunk)
    if copied != expected:  # the original changed while it was copied
        raise OSError(errno.EAGAIN, translate("Review", "it changed while it was being copied"))


def _copy_times(source: str, temporary: str, st: os.stat_result) -> None:
    """The original's times, and its permissions where they cannot stop us removing our copy again (on
    Windows a read-only file cannot be deleted: it is left writable there)."""
    if sys.platform == "win32":
        os.utime(temporary, ns=(st.st_atime_ns, st.st_mtime_ns))
        return
    try:
        shutil.copystat(source, temporary, follow_symlinks=False)
    except OSError:  # permissions a drive cannot keep (FAT): the times matter, and copystat sets them first
        os.utime(temporary, ns=(st.st_atime_ns, st.st_mtime_ns))


def _put_in_place(temporary: str, target: str) -> bool:
    """The copy takes the destination's name unless it is taken: by a hard link, so that our temporary name
    marks the copy as ours until the original is gone (True), or, on a drive without hard links, by a rename
    that never replaces."""
    try:
        os.link(temporary, target, follow_symlinks=False)
        return True
    except FileExistsError:
        raise taken_error(target) from None
    except OSError as exc:
        if exc.errno not in _NO_HARD_LINKS:
            raise _copy_error(exc) from exc
    try:
        if not _rename_atomically(temporary, target):
            _rename_after_a_look(temporary, target)
    except FileExistsError:
        raise taken_error(target) from None
    except OSError as exc:
        raise _copy_error(exc) from exc
    return False


def _sync_folder(folder: str) -> None:
    """Flush a folder's entries to the disk (POSIX; Windows cannot open a folder, and its file systems
    journal their names)."""
    if sys.platform == "win32":
        return
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):  # some drives cannot flush a folder: the file itself is flushed
            os.fsync(fd)
    finally:
        os.close(fd)
