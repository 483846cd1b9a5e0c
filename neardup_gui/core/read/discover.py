"""Walk the roots and list the files to read, with their size and mtime_ns.

Symbolic links are never followed: a linked folder inside the roots is walked under its real place,
and one outside them must not pull the scan out of what the user chose; loops cannot happen. Each
directory is walked once even when roots overlap.
"""

from __future__ import annotations

import fnmatch
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ..errors import read_failure
from ..i18n import QT_TRANSLATE_NOOP, translate
from ..jobs import NEVER_CANCELLED, CancelToken, Progress, ProgressEvent, no_progress
from ..models import FileEntry
from .extract import READ_WITHOUT_OCR, kind_of

# Why a folder or file could not be looked at: stored in English, translated where shown (i18n.localize)
_PERMISSION_DENIED = QT_TRANSLATE_NOOP("Problem", "Permission denied: neardup may not read this.")
_DISAPPEARED = QT_TRANSLATE_NOOP("Problem", "It disappeared while the folders were being walked.")
_NOT_LOOKED_AT = QT_TRANSLATE_NOOP("Problem", "It could not be looked at.")


@dataclass(frozen=True, slots=True)
class WalkProblem:
    """A folder or file that could not be listed or looked at."""

    path: str
    message: str


def resolve_roots(roots: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """Absolute, real paths of the roots, in order, without repeats. Missing roots raise ValueError."""
    present, missing = split_roots(roots)
    if missing:
        raise ValueError(translate("Errors", "No such folder or file: {path}").format(path=missing[0]))
    return present


def split_roots(roots: tuple[str, ...] | list[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the roots that exist, as absolute real paths without repeats; the absolute paths of those that
    do not: a folder removed since it was scanned, or a typo)."""
    present: list[str] = []
    missing: list[str] = []
    for root in roots:
        path = Path(root).expanduser()
        real = os.path.realpath(path)
        bucket = present if path.exists() else missing
        if real not in bucket:
            bucket.append(real)
    return tuple(present), tuple(missing)


def discover(
    roots: tuple[str, ...],
    *,
    include: tuple[str, ...] = (),
    exclude: tuple[str, ...] = (),
    hidden: bool = False,
    kinds: frozenset[str] = READ_WITHOUT_OCR,
    progress: Progress = no_progress,
    cancel: CancelToken = NEVER_CANCELLED,
) -> Iterator[FileEntry | WalkProblem]:
    """Every file of the ``kinds`` neardup reads under ``roots`` (files may be roots too).

    ``include``/``exclude`` are glob patterns matched against a file's name and its path relative to
    its root (exclude also prunes folders). Hidden names (leading dot) are skipped unless ``hidden``.
    """
    progress(ProgressEvent("discover", 0, None))  # the walk begins: its first count comes at 500 files
    seen_dirs: set[tuple[int, int]] = set()
    seen_files: set[str] = set()
    found = 0
    for root in roots:
        try:
            root_stat = os.stat(root)
        except OSError as exc:
            yield WalkProblem(root, _why(exc))
            continue
        if stat.S_ISREG(root_stat.st_mode):
            entry = _entry(root, root_stat, os.path.basename(root), include, exclude, kinds)
            if entry and root not in seen_files:
                seen_files.add(root)
                yield entry
            continue
        stack = [(root, "")]  # folders to walk, with their paths relative to the root
        while stack:
            cancel.raise_if_cancelled()
            folder, folder_rel = stack.pop()
            try:
                folder_stat = os.stat(folder)
            except OSError as exc:
                yield WalkProblem(folder, _why(exc))
                continue
            key = (folder_stat.st_dev, folder_stat.st_ino)
            if key in seen_dirs:
                continue
            seen_dirs.add(key)
            try:
                with os.scandir(folder) as it:
                    children = sorted(it, key=lambda e: e.name)
            except OSError as exc:
                yield WalkProblem(folder, _why(exc))
                continue
            subfolders: list[tuple[str, str]] = []
            for child in children:
                if not hidden and child.name.startswith("."):
                    continue
                rel = os.path.join(folder_rel, child.name) if folder_rel else child.name
                try:
                    if child.is_symlink():
                        continue
                    if child.is_dir(follow_symlinks=False):
                        if not _matches(exclude, child.name, rel):
                            subfolders.append((child.path, rel))
                        continue
                    child_stat = child.stat(follow_symlinks=False)
                except OSError as exc:
                    yield WalkProblem(child.path, _why(exc))
                    continue
                if not stat.S_ISREG(child_stat.st_mode):
                    continue
                entry = _entry(child.path, child_stat, rel, include, exclude, kinds)
                if entry is None:
                    continue
                if entry.path in seen_files:
                    continue  # a file root met again inside a folder root
                seen_files.add(entry.path)
                found += 1
                if found % 500 == 0:
                    progress(ProgressEvent("discover", found, None, current=folder))
                yield entry
            stack.extend(reversed(subfolders))
    progress(ProgressEvent("discover", found, found))


def _entry(
    path: str, st: os.stat_result, rel: str, include: tuple[str, ...], exclude: tuple[str, ...], kinds: frozenset[str]
) -> FileEntry | None:
    kind = kind_of(path)
    if kind is None or kind not in kinds:
        return None
    name = os.path.basename(path)
    if include and not _matches(include, name, rel):
        return None
    if _matches(exclude, name, rel):
        return None
    return FileEntry(path=path, size=st.st_size, mtime_ns=st.st_mtime_ns, kind=kind)


def _matches(patterns: tuple[str, ...], name: str, rel: str) -> bool:
    rel = rel.replace(os.sep, "/")
    return any(fnmatch.fnmatchcase(name, p) or fnmatch.fnmatchcase(rel, p) for p in patterns)


def _why(exc: OSError) -> str:
    if isinstance(exc, PermissionError):
        return _PERMISSION_DENIED
    if isinstance(exc, FileNotFoundError):
        return _DISAPPEARED
    return read_failure(exc, _NOT_LOOKED_AT)
