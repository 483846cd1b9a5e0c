"""GUI tests: real widgets on Qt's offscreen platform, a temporary XDG home for settings and the trash."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

_HOME = Path(tempfile.mkdtemp(prefix="neardup-gui-home-"))
# send2trash reads XDG_DATA_HOME once, when imported: set it before anything can import it
os.environ["XDG_DATA_HOME"] = str(_HOME / "data")
os.environ["XDG_CONFIG_HOME"] = str(_HOME / "config")
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
(_HOME / "data").mkdir(parents=True, exist_ok=True)

from PySide6.QtCore import QSettings  # noqa: E402


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
