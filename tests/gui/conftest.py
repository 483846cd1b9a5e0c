"""GUI tests: real widgets on Qt's offscreen platform, a temporary XDG home for settings and the trash."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest

_HOME = Path(tempfile.mkdtemp(prefix="neardup-gui-home-"))
atexit.register(shutil.rmtree, _HOME, ignore_errors=True)  # each run's own: none left behind in the temp folder
# send2trash reads XDG_DATA_HOME once, when imported: set it before anything can import it
os.environ["XDG_DATA_HOME"] = str(_HOME / "data")
os.environ["XDG_CONFIG_HOME"] = str(_HOME / "config")
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
(_HOME / "data").mkdir(parents=True, exist_ok=True)

from PySide6.QtCore import QSettings, Qt  # noqa: E402

from neardup_gui.gui.app import create_app  # noqa: E402
from neardup_gui.gui.main_window import MainWindow  # noqa: E402
from tests.conftest import PDF_SAMPLES, chinese_texts, english_texts, plant_edits  # noqa: E402


@pytest.fixture
def xdg_home() -> Path:
    return _HOME


@pytest.fixture
def settings_file(tmp_path: Path) -> Path:
    return tmp_path / "settings" / "neardup.ini"


@pytest.fixture
def make_settings(settings_file: Path, tmp_path: Path):
    def make() -> QSettings:
        s = QSettings(str(settings_file), QSettings.Format.IniFormat)
        if not s.value("database"):
            s.setValue("database", str(tmp_path / "db" / "neardup.db"))
        return s

    return make


PLANTED = "zebra-marker-word"


@pytest.fixture
def uploads(tmp_path: Path) -> Path:
    root = tmp_path / "uploads"
    root.mkdir()
    en = english_texts()
    (root / "bsd.txt").write_text(en["BSD"])
    (root / "bsd-copy.txt").write_text(en["BSD"].replace("Redistribution", f"Redistribution {PLANTED}", 1))
    zh = list(chinese_texts().values())[1]
    (root / "中文原稿.txt").write_text(zh)
    (root / "中文修改稿.txt").write_text(plant_edits(zh, 0.01, seed=5))
    (root / "mpl.txt").write_text(en["MPL-2.0"])
    (root / "mpl-edited.txt").write_text(plant_edits(en["MPL-2.0"], 0.02, seed=8))
    (root / "apache.txt").write_text(en["Apache-2.0"])
    shutil.copy(PDF_SAMPLES / "005-libreoffice-writer-password_libreoffice-writer-password.pdf", root / "locked.pdf")
    return root


@pytest.fixture
def window(qtbot, make_settings):
    create_app([], language="en")
    windows = []

    def open_window(**kw) -> MainWindow:
        w = MainWindow(make_settings(), **kw)
        qtbot.addWidget(w)
        w.resize(1400, 880)  # a desktop's window (the offscreen screen is 800×800: a first start fits that)
        w.show()
        windows.append(w)
        return w

    yield open_window
    for w in windows:
        w.close()  # as the person closes it: jobs cancelled and waited for, then the session closed


def scan(qtbot, w: MainWindow) -> None:
    w.start_scan()
    assert w.scan_job is not None
    qtbot.waitUntil(lambda: w.scan_job is None and w.result is not None, timeout=120_000)


def group_names(w: MainWindow) -> list[set[str]]:
    return [
        {Path(w.groups.group_model.docs[m.document_id].path).name for m in s.group.members}
        for s in w.groups.group_model.summaries
    ]


def select_member(qtbot, w: MainWindow, name: str) -> None:
    model = w.groups.group_model
    for row in range(model.rowCount()):
        parent = model.index(row, 0)
        for child in range(model.rowCount(parent)):
            index = model.index(child, 0, parent)
            if Path(model.document(index).path).name == name:
                w.groups.tree.setCurrentIndex(index)
                return
    raise AssertionError(f"{name} is in no group")


def answer_dialog(qtbot, kind, act) -> list:
    """Act on the next visible top-level widget of ``kind`` (a dialog run by exec()); returns what was seen."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    seen: list = []

    def poll() -> None:
        box = next((b for b in QApplication.topLevelWidgets() if isinstance(b, kind) and b.isVisible()), None)
        if box is None:
            QTimer.singleShot(50, poll)
            return
        seen.append(act(box))

    QTimer.singleShot(50, poll)
    return seen


def press(label: str):
    def act(box):
        text = box.text() + "\n" + box.informativeText()
        next(b for b in box.buttons() if b.text() == label).click()
        return text

    return act


def tick_reference(w: MainWindow, folder: str) -> None:
    """Tick a folder's box in the folders list, as a click does: it becomes a reference folder."""
    items = w.folders.list.findItems(folder, Qt.MatchFlag.MatchExactly)
    assert len(items) == 1, folder
    items[0].setCheckState(Qt.CheckState.Checked)
