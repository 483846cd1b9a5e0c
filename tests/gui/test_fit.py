"""The window and every dialog fit a 1024×700 screen in English and in Chinese, before and after a scan,
on each tab; a first start opens inside the screen."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys

import pytest
from PySide6.QtCore import QSize
from PySide6.QtWidgets import QApplication, QDialog, QPushButton

from neardup_gui.gui.actions import shortcut_rows
from neardup_gui.gui.app import create_app
from neardup_gui.gui.decisions_dialog import DecisionsDialog
from neardup_gui.gui.help import ShortcutList, UserGuide
from neardup_gui.gui.main_window import MainWindow
from neardup_gui.gui.mark_dialog import MarkRuleDialog
from neardup_gui.gui.overflow_bar import OverflowBar
from neardup_gui.gui.preferences import PreferencesDialog
from tests.gui.conftest import scan, select_member

SCREEN = QSize(1024, 700)


@pytest.fixture
def english_again():
    yield
    create_app([], language="en")


def _fits(size: QSize) -> bool:
    return size.width() <= SCREEN.width() and size.height() <= SCREEN.height()


@pytest.mark.e2e
@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_the_window_and_every_dialog_fit_1024_by_700(qtbot, make_settings, uploads, english_again, language):
    create_app([], language=language)
    w = MainWindow(make_settings(), folders=[str(uploads)])
    qtbot.addWidget(w)
    w.resize(SCREEN)
    w.show()
    seen: dict[str, QSize] = {"before a scan": w.minimumSizeHint()}
    scan(qtbot, w)
    # the note of what waits for a scan, at its longest: common text not analysed, and settings changed since
    w.review.show(dataclasses.replace(w.view, boilerplate_available=False))
    w.folders.type_boxes["pdf"].setChecked(False)
    w.folders.ocr.setChecked(True)
    assert w.rescan_note.isVisible() and w.rescan_note.text.text().count("\n") == 1
    select_member(qtbot, w, "bsd-copy.txt")  # the pair view below the groups
    qtbot.waitUntil(lambda: w.groups.diff.model.rowCount() > 0, timeout=20_000)
    for index in range(w.tabs.count()):
        w.tabs.setCurrentIndex(index)
        QApplication.processEvents()
        seen[w.tabs.tabText(index)] = w.minimumSizeHint()
    w.resize(SCREEN)
    QApplication.processEvents()
    assert w.size() == SCREEN, "the window cannot be made as small as the screen"
    # at that size every control of the tabs' bars is shown, or offered in its » menu
    w.tabs.setCurrentWidget(w.groups)
    QApplication.processEvents()
    for bar in w.groups.findChildren(OverflowBar):
        assert not bar.hidden() or bar.more.isVisible(), bar.accessibleName()
        bar.more.menu().aboutToShow.emit()
        offered = {a.text() for a in bar.more.menu().actions()}
        assert {b.text() for b in bar.hidden() if isinstance(b, QPushButton)} <= offered
    dialogs: list[QDialog] = [
        PreferencesDialog(w.preferences(), w),
        MarkRuleDialog(w.review, w.dialogs, w),
        DecisionsDialog(w.review, w),
        ShortcutList(shortcut_rows(), w),
        UserGuide(w),
    ]
    for dialog in dialogs:
        dialog.show()
        QApplication.processEvents()
        seen[type(dialog).__name__] = dialog.minimumSizeHint()
        seen[f"{type(dialog).__name__} as opened"] = dialog.size()
        dialog.close()
    too_big = {where: (s.width(), s.height()) for where, s in seen.items() if not _fits(s)}
    assert not too_big, too_big


FIRST_START = """
import sys
from PySide6.QtCore import QSettings
from neardup_gui.gui.app import create_app
from neardup_gui.gui.main_window import MainWindow

app = create_app([], language=sys.argv[2])
settings = QSettings(sys.argv[1] + "/settings.ini", QSettings.Format.IniFormat)
settings.setValue("database", sys.argv[1] + "/neardup.db")
w = MainWindow(settings)
w.show()
app.processEvents()
screen, frame = w.screen().availableGeometry(), w.frameGeometry()
print(screen.contains(frame), frame.width(), frame.height(), screen.width(), screen.height())
"""


@pytest.mark.e2e
@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_a_first_start_opens_inside_a_1024_by_700_screen(tmp_path, language):
    """A fresh profile on a small screen: the window opens inside it, Scan and all (Qt's offscreen platform
    with a screen of that size, in a process of its own)."""
    config = tmp_path / "screen.json"
    config.write_text(json.dumps({"screens": [{"name": "laptop", "x": 0, "y": 0, "width": 1024, "height": 700}]}))
    env = {**os.environ, "QT_QPA_PLATFORM": f"offscreen:configfile={config}"}
    done = subprocess.run(
        [sys.executable, "-c", FIRST_START, str(tmp_path), language],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    inside, *sizes = done.stdout.split()
    assert inside == "True", sizes
