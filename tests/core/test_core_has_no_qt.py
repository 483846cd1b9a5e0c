import pkgutil
import subprocess
import sys

import pytest

import neardup_gui.core

pytestmark = pytest.mark.e2e  # imports the engine in a fresh Python


def test_core_never_imports_qt_checked_in_a_fresh_interpreter():
    modules = [m.name for m in pkgutil.walk_packages(neardup_gui.core.__path__, "neardup_gui.core.")]
    assert len(modules) >= 40 and "neardup_gui.core.match.matcher" in modules
    script = (
        "import importlib, sys\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        "import neardup_gui.cli\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6', 'PyQt5', 'PyQt6')]\n"
        "print(bad)\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
