"""Moving to the trash looks at the disk again: the keeper must still be the file that was compared, and a
member changed or replaced since the scan is skipped with the reason. Real files, a real scan, the real
system trash (in the temporary XDG home the GUI tests use)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from neardup_gui.core.match.matcher import match
from neardup_gui.core.models import ScanOptions, Thresholds
from neardup_gui.core.review.rules import move_to_trash
from neardup_gui.core.scan import hash_file, scan
from neardup_gui.core.store.store import Store
from tests.conftest import english_texts


@pytest.fixture
def copies(tmp_path: Path, db_path: Path):
    """Four identical copies of a licence, scanned: the store, and the documents by file name."""
    root = tmp_path / "copies"
    root.mkdir()
    text = english_texts()["BSD"]
    for name in ("keep.txt", "a.txt", "b.txt", "c.txt"):
        (root / name).write_text(text, encoding="utf-8")
    with Store(db_path) as store:
        scan(store, ScanOptions(roots=(str(root),), workers=1))
        groups = match(store, Thresholds()).groups
        assert len(groups) == 1 and len(groups[0].members) == 4
        docs = {Path(d.path).name: d for d in store.files.documents()}
    return root, docs


def _trashed_copy(path: Path) -> Path:
    import send2trash.plat_other as trash_impl

    return Path(trash_impl.HOMETRASH) / "files" / path.name


@pytest.mark.e2e
def test_nothing_moves_when_the_keeper_was_deleted_after_the_scan(copies, db_path):
    root, docs = copies
    (root / "keep.txt").unlink()
    with Store(db_path) as store:
        outcome = move_to_trash(store, [docs["a.txt"], docs["b.txt"]], keeper=docs["keep.txt"])
    assert outcome.done == ()
    assert "keep.txt" in outcome.keeper_problem and "no longer there" in outcome.keeper_problem
    assert (root / "a.txt").exists() and (root / "b.txt").exists()


@pytest.mark.e2e
def test_nothing_moves_when_the_keeper_was_rewritten(copies, db_path):
    root, docs = copies
    (root / "keep.txt").write_text("something else entirely, written after the scan", encoding="utf-8")
    with Store(db_path) as store:
        outcome = move_to_trash(store, [docs["a.txt"]], keeper=docs["keep.txt"])
    assert outcome.done == () and "changed after the scan" in outcome.keeper_problem
    assert (root / "a.txt").exists()


@pytest.mark.e2e
def test_a_member_changed_or_replaced_since_the_scan_is_skipped_with_the_reason(copies, db_path, tmp_path):
    root, docs = copies
    original = (root / "a.txt").read_bytes()
    (root / "a.txt").write_bytes(original.replace(b"Redistribution", b"Redistributions", 1))  # new text, new size
    os.unlink(root / "b.txt")
    (root / "b.txt").mkdir()  # a folder now stands where the file was
    (root / "b.txt" / "precious.txt").write_text("not a duplicate of anything")
    # c.txt is touched: a new modification time, the same bytes, so it is still the file that was compared
    os.utime(root / "c.txt", ns=(docs["c.txt"].mtime_ns + 5_000_000_000,) * 2)
    with Store(db_path) as store:
        outcome = move_to_trash(store, [docs["a.txt"], docs["b.txt"], docs["c.txt"]], keeper=docs["keep.txt"])
        remaining = {Path(d.path).name for d in store.files.documents()}
    skipped = dict(outcome.skipped)
    assert "changed after the scan" in skipped[str(root / "a.txt")]
    assert "no longer a regular file" in skipped[str(root / "b.txt")]
    assert outcome.done == (str(root / "c.txt"),) and outcome.keeper_problem == ""
    assert (root / "a.txt").exists() and (root / "b.txt" / "precious.txt").exists()
    assert not (root / "c.txt").exists() and _trashed_copy(root / "c.txt").exists()
    assert {"a.txt", "b.txt", "keep.txt"} <= remaining and "c.txt" not in remaining


@pytest.mark.e2e
def test_a_member_rewritten_to_the_same_size_is_recognised_by_its_bytes(copies, db_path):
    """Same size, new modification time, one letter changed: only hashing the bytes again tells."""
    root, docs = copies
    data = (root / "a.txt").read_bytes()
    (root / "a.txt").write_bytes(data.replace(b"Redistribution", b"Redistributiom", 1))
    assert (root / "a.txt").stat().st_size == docs["a.txt"].size
    os.utime(root / "a.txt", ns=(docs["a.txt"].mtime_ns + 3_000_000_000,) * 2)
    with Store(db_path) as store:
        outcome = move_to_trash(store, [docs["a.txt"]], keeper=docs["keep.txt"])
    assert outcome.done == () and "changed after the scan" in dict(outcome.skipped)[str(root / "a.txt")]
    assert (root / "a.txt").read_bytes() != data


@pytest.mark.e2e
def test_a_member_replaced_by_a_link_is_not_followed(copies, db_path, tmp_path):
    root, docs = copies
    elsewhere = tmp_path / "elsewhere.txt"
    shutil.copy(root / "a.txt", elsewhere)
    (root / "a.txt").unlink()
    (root / "a.txt").symlink_to(elsewhere)
    with Store(db_path) as store:
        outcome = move_to_trash(store, [docs["a.txt"]], keeper=docs["keep.txt"])
    assert outcome.done == () and "no longer a regular file" in dict(outcome.skipped)[str(root / "a.txt")]
    assert elsewhere.exists() and (root / "a.txt").is_symlink()


def test_hashing_refuses_a_pipe_instead_of_waiting_for_it_forever(tmp_path):
    fifo = tmp_path / "swapped.txt"
    os.mkfifo(fifo)
    with pytest.raises(OSError, match="not a regular file"):
        hash_file(str(fifo))
    link = tmp_path / "zero.txt"
    link.symlink_to("/dev/zero")
    with pytest.raises(OSError, match="symbolic link"):
        hash_file(str(link))


@pytest.mark.e2e
def test_the_app_moves_nothing_and_says_why_when_the_keeper_is_gone(window, uploads, qtbot):
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QMessageBox

    from tests.gui.conftest import scan as scan_in_app
    from tests.gui.conftest import select_member

    w = window(folders=[str(uploads)])
    scan_in_app(qtbot, w)
    select_member(qtbot, w, "bsd.txt")
    summary, _doc = w.groups.current()
    keeper = Path(w.groups.group_model.docs[w.groups.group_model.keepers[summary.group.id]].path)
    other = next(p for p in (uploads / "bsd.txt", uploads / "bsd-copy.txt") if p != keeper)
    keeper.unlink()
    seen: list[str] = []

    def answer() -> None:
        box = next((b for b in QApplication.topLevelWidgets() if isinstance(b, QMessageBox) and b.isVisible()), None)
        if box is None:
            QTimer.singleShot(100, answer)
            return
        seen.append(box.text())
        move = next((b for b in box.buttons() if b.text() == "Move to Trash"), None)
        if move is not None:
            move.click()
            QTimer.singleShot(100, answer)  # then the warning that follows
        else:
            box.accept()

    QTimer.singleShot(200, answer)
    w.files.trash_others()
    qtbot.waitUntil(lambda: len(seen) == 2, timeout=10_000)  # the move runs in the background: its warning follows
    assert "Keeping: " in seen[0]
    assert "not the one that was compared" in seen[1] and keeper.name in seen[1] and "Nothing was moved" in seen[1]
    assert other.exists()
