"""The README's screenshots can be made again: docs/screenshots/make.py writes the collection it promises, and run
as its README says (offscreen here, instead of under Xvfb) it makes three small screenshots of the real app and
leaves nothing behind."""

from __future__ import annotations

import importlib.util
import os
import struct
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.conftest import REPO

SCRIPT = REPO / "docs" / "screenshots" / "make.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_screenshots", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def test_the_collection_holds_near_copies_an_exact_copy_and_the_files_the_screenshots_show(tmp_path):
    corpus = _script().write_corpus(tmp_path / "Documents")
    files = set(corpus.files)
    assert all(f.is_file() and f.is_relative_to(tmp_path / "Documents") for f in files)
    assert {corpus.revised, corpus.draft, corpus.chinese} <= files
    texts = {f.relative_to(corpus.root).as_posix(): f.read_text(encoding="utf-8") for f in files}
    assert texts["Backup/Legal/MPL-2.0.txt"] == texts["Legal/MPL-2.0.txt"]  # the exact copy
    for copy, original, added in (
        (corpus.revised, "Legal/Apache-2.0.txt", "Revised for the 2025 contracts."),
        (corpus.draft, "Legal/GPL-3.txt", "DRAFT: not for distribution."),
        (corpus.chinese, "法规/上海市烟花爆竹安全管理条例.txt", "（本修订稿供征求意见，请于2025年3月31日前反馈。）"),
    ):
        text = copy.read_text(encoding="utf-8")
        assert added in text and added not in texts[original]  # a line added
        changed = [line for line in text.splitlines() if line not in texts[original].splitlines()]
        assert len(changed) == 2, changed  # and a paragraph changed: nothing else
    # each of the five statutes once, and two of them twice more
    assert sum("法规" in p or "下载" in p for p in texts) == 7


def _png_header(path: Path) -> tuple[int, int, int]:
    """(width, height, colour type) from a PNG's IHDR."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height, _depth, colour_type = struct.unpack(">IIBB", data[16:26])
    return width, height, colour_type


@pytest.mark.e2e  # scans through the worker pool
def test_the_script_makes_three_small_screenshots_and_leaves_nothing_behind(tmp_path, tmp_path_factory):
    out = tmp_path / "shots"
    # a short temporary folder: the worker pool's socket is named under it, in at most 107 bytes
    temporary = tmp_path_factory.mktemp("t")
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "TMPDIR": str(temporary)}
    run = subprocess.run(
        [sys.executable, str(SCRIPT), "--out", str(out)], capture_output=True, text=True, env=env, timeout=600
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert sorted(p.name for p in out.iterdir()) == ["groups.png", "pairs.png", "zh-dark.png"]
    for png in out.iterdir():
        assert _png_header(png) == (1280, 800, 3), png.name  # 1280 × 800, 256 colours (a palette)
        assert 20_000 < png.stat().st_size < 250_000, png.name  # a window's worth of text, yet small
    assert list(temporary.iterdir()) == []  # its folder (collection, settings, database) removed at its end
    assert "Traceback" not in run.stderr, run.stderr
