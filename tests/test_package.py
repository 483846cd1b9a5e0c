"""The package ships like one: the sdist holds what the tests and the set-up need, builds the same wheel as
the repository does, and the wheel installed in a fresh virtualenv gives both commands with their
translations and help."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from tests.conftest import REPO, venv_borrowing_dependencies

pytestmark = pytest.mark.e2e  # builds the sdist and wheels and installs them into a new virtualenv


def _build(source: Path, out: Path, *what: str) -> None:
    subprocess.run(
        [sys.executable, "-m", "build", *what, "--outdir", str(out), str(source)],
        check=True,
        capture_output=True,
        timeout=600,
    )


def _contents(wheel: Path) -> dict[str, str]:
    """Each file of a wheel and its hash, but the RECORD (which lists the hashes again)."""
    with zipfile.ZipFile(wheel) as z:
        return {n: hashlib.sha256(z.read(n)).hexdigest() for n in z.namelist() if not n.endswith("/RECORD")}


def test_the_sdist_builds_the_same_wheel_and_the_wheel_installs_both_commands(tmp_path):
    dist = tmp_path / "dist"
    _build(REPO, dist, "--sdist", "--wheel")
    [sdist] = dist.glob("*.tar.gz")
    [wheel] = dist.glob("*.whl")
    with tarfile.open(sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
        tar.extractall(tmp_path / "unpacked", filter="data")
    for needed in (
        "LICENSE",
        "resources/setup.sh",
        "resources/install-desktop-entry.sh",
        "tests/run.sh",
        "tests/data/zh/README.md",
        "tests/data/zh/01_chinese_sturgeon.txt",
        "resources/translations/neardup_zh_CN.qm",
    ):
        assert needed in names, needed
    again = tmp_path / "again"
    _build(next((tmp_path / "unpacked").iterdir()), again, "--wheel")
    [rebuilt] = again.glob("*.whl")
    assert _contents(rebuilt) == _contents(wheel)
    licences = [n for n in _contents(wheel) if n.endswith("LICENSE")]
    assert licences, "the licence travels in the wheel"
    # a fresh virtualenv that borrows the test environment's dependencies, with the wheel alone installed in it
    venv = tmp_path / "venv"
    python, site = venv_borrowing_dependencies(venv)
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)],
        check=True,
        capture_output=True,
    )
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH",)}
    env.update(LANGUAGE="zh_CN", LANG="zh_CN.UTF-8", QT_QPA_PLATFORM="offscreen")
    outside = tmp_path / "elsewhere"  # not the repository: the installed package answers
    outside.mkdir()
    cli = subprocess.run(
        [str(venv / "bin" / "neardup"), "--help"], capture_output=True, text=True, env=env, cwd=outside
    )
    assert cli.returncode == 0 and "扫描" in cli.stdout, cli.stdout + cli.stderr
    where = subprocess.run(
        [str(python), "-c", "import neardup_gui, sys; print(neardup_gui.__file__)"],
        capture_output=True,
        text=True,
        env=env,
        cwd=outside,
    ).stdout
    assert where.startswith(site), where
    gui = subprocess.run(
        [str(venv / "bin" / "neardup-gui"), "--help"], capture_output=True, text=True, env=env, cwd=outside
    )
    assert gui.returncode == 0 and "--db" in gui.stdout and "用法" in gui.stdout, gui.stdout + gui.stderr
