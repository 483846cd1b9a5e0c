"""Can the app be set up and started as README.md says? The system packages the desktop app needs are
named completely, in one place, and README.md agrees: checked against what ``ldd`` says the installed Qt
modules and platform plugins link against, and against what a minimal Debian/Ubuntu system has (its
required and essential packages with their dependencies). Outside tests/gui on purpose: these tests
import no Qt, so they run (and explain) where Qt itself cannot load."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from neardup_gui.gui.system_check import (
    BROKEN_ON_PYTHON_3_11,
    LIBRARY_PACKAGES,
    debian_packages,
    install_hint,
    missing_libraries,
    qt_binaries,
    qt_directory,
    startup_problem,
)
from tests.conftest import REPO

pytestmark = pytest.mark.e2e  # runs resources/setup.sh's pieces, ldd, dpkg, the app and the desktop-file validators


def _dpkg_fields() -> dict[str, tuple[bool, str, str]]:
    """Installed package -> (in the base system by itself, Depends, Pre-Depends)."""
    out = subprocess.run(
        [
            "dpkg-query",
            "-W",
            "-f",
            "${Package}\t${db:Status-Abbrev}\t${Essential}\t${Priority}\t${Depends}\t${Pre-Depends}\n",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    fields = {}
    for line in out.splitlines():
        name, status, essential, priority, depends, pre_depends = line.split("\t")
        if status.startswith("ii"):
            fields[name] = (essential == "yes" or priority == "required", depends, pre_depends)
    return fields


def _closure(roots: set[str], fields: dict[str, tuple[bool, str, str]]) -> set[str]:
    """``roots`` and everything installed they depend on, as apt would bring it along."""
    seen, todo = set(), list(roots)
    while todo:
        name = todo.pop()
        if name in seen or name not in fields:
            continue
        seen.add(name)
        _, depends, pre_depends = fields[name]
        for clause in f"{depends},{pre_depends}".split(","):
            for alternative in clause.split("|"):
                dep = re.sub(r"\(.*?\)|:\w+", "", alternative).strip()
                if dep:
                    todo.append(dep)
    return seen


def _owner(path: str) -> str | None:
    for candidate in (os.path.realpath(path), path):
        proc = subprocess.run(["dpkg", "-S", candidate], capture_output=True, text=True)
        if proc.returncode == 0:
            return proc.stdout.split(":")[0].strip()
    return None


def _linked_libraries(files: list[Path], pyside: Path) -> dict[str, str | None]:
    """soname -> resolved path (None: not found), for every library outside PySide6's own."""
    linked: dict[str, str | None] = {}
    for file in files:
        out = subprocess.run(["ldd", str(file)], capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            name, arrow, target = line.strip().partition("=>")
            if not arrow:
                continue
            path = target.strip().split(" (")[0]
            if path.startswith(str(pyside)):
                continue
            linked[name.strip()] = None if path == "not found" else path
    return linked


def test_every_library_qt_needs_is_in_the_base_system_or_named_by_its_package():
    pyside = qt_directory()
    assert pyside is not None
    files = qt_binaries(["xcb", "wayland"], pyside)
    assert any(f.name == "libqxcb.so" for f in files) and any(f.name == "libqwayland.so" for f in files)
    fields = _dpkg_fields()
    base = _closure({name for name, (by_itself, _, _) in fields.items() if by_itself}, fields)
    assert {"libc6", "libstdc++6", "zlib1g"} <= base
    linked = _linked_libraries(files, pyside)
    assert "libxcb-cursor.so.0" in linked and "libEGL.so.1" in linked
    unnamed = []
    for soname, path in sorted(linked.items()):
        owner = _owner(path) if path else None
        if owner in base:
            continue
        if soname not in LIBRARY_PACKAGES:
            unnamed.append(f"{soname} ({owner or path or 'not found'})")
        elif owner is not None:  # Ubuntu renamed some for 64-bit time: libglib2.0-0t64 provides libglib2.0-0
            assert owner in (LIBRARY_PACKAGES[soname], f"{LIBRARY_PACKAGES[soname]}t64"), (soname, owner)
    assert not unnamed, f"add these to LIBRARY_PACKAGES in neardup_gui/gui/system_check.py: {unnamed}"
    stale = sorted(set(LIBRARY_PACKAGES) - set(linked))
    assert not stale, f"no Qt binary links against these any more; remove them from LIBRARY_PACKAGES: {stale}"


def test_readme_names_exactly_the_packages_the_app_needs():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    lines = [line for line in readme.splitlines() if "apt-get install" in line and "libxcb-cursor0" in line]
    assert len(lines) == 1, "README.md has one apt-get line with the app's system packages"
    listed = lines[0].split("apt-get install", 1)[1].split()
    assert sorted(listed) == debian_packages()


def test_ldd_reports_a_library_that_is_not_there(tmp_path):
    """A copy of the real xcb plugin whose dependency on libxcb-cursor.so.0 names a version no machine has."""
    pyside = qt_directory()
    assert pyside is not None
    plugin = pyside / "Qt" / "plugins" / "platforms" / "libqxcb.so"
    data = plugin.read_bytes()
    assert data.count(b"libxcb-cursor.so.0\x00") == 1
    # beside a link to Qt's own libraries, as its run path ($ORIGIN/../../lib) expects
    (tmp_path / "Qt" / "plugins" / "platforms").mkdir(parents=True)
    (tmp_path / "Qt" / "lib").symlink_to(pyside / "Qt" / "lib")
    patched = tmp_path / "Qt" / "plugins" / "platforms" / "libqxcb.so"
    patched.write_bytes(data.replace(b"libxcb-cursor.so.0\x00", b"libxcb-cursor.so.9\x00"))
    before, after = set(missing_libraries([plugin])), set(missing_libraries([patched]))
    assert after - before == {"libxcb-cursor.so.9"}
    assert install_hint(["libxcb-icccm.so.4", "libxcb-keysyms.so.1", "libxcb-cursor.so.9"]) == (
        "sudo apt-get install libxcb-icccm4 libxcb-keysyms1 and the packages that provide libxcb-cursor.so.9"
    )


def test_each_platform_is_judged_by_its_own_display_and_libraries():
    """tests/run.sh installs the README's packages first: every library is there, only displays differ."""
    pyside = qt_directory()
    assert pyside is not None and missing_libraries(qt_binaries(["xcb", "wayland"], pyside)) == []
    assert startup_problem({"DISPLAY": ":0"}) is None
    assert "(DISPLAY is not set)" in (startup_problem({}) or "")
    assert "(WAYLAND_DISPLAY is not set)" in (startup_problem({"QT_QPA_PLATFORM": "wayland", "DISPLAY": ":0"}) or "")
    assert startup_problem({"WAYLAND_DISPLAY": "wayland-0"}) is None  # a Wayland session without X
    assert startup_problem({"XDG_SESSION_TYPE": "wayland", "DISPLAY": ":0"}) is None  # X through XWayland
    assert startup_problem({"QT_QPA_PLATFORM": "offscreen"}) is None


def test_every_qt_release_known_to_break_the_app_is_excluded_in_pyproject():
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    pyside = next(d for d in project["dependencies"] if d.startswith("PySide6-Essentials"))
    for version in BROKEN_ON_PYTHON_3_11:
        assert f"!={version}" in pyside, (version, pyside)


def test_without_a_display_the_app_says_so_in_one_line_instead_of_aborting(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env["HOME"] = str(tmp_path)
    proc = subprocess.run([sys.executable, "-m", "neardup_gui"], capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 1
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("neardup-gui: "), proc.stderr
    assert "qt.qpa" not in proc.stderr and "Aborted" not in proc.stderr
    assert "needs a graphical desktop" in lines[0] and "DISPLAY is not set" in lines[0]


def test_the_setup_script_reads_the_package_list_from_the_same_place():
    script = (REPO / "resources" / "setup.sh").read_text(encoding="utf-8")
    command = next(line for line in script.splitlines() if line.startswith("packages=$(python3 -c"))
    python_code = command.split("'")[1]
    system_python = shutil.which("python3") or sys.executable  # as the script runs it: before any virtualenv
    out = subprocess.run(
        [system_python, "-c", python_code], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout
    assert out.split() == debian_packages()


def test_the_desktop_entry_is_installed_for_the_user_and_valid(tmp_path):
    """What resources/setup.sh puts in the desktop's menu (install-desktop-entry.sh): the .desktop file
    starting the virtualenv's own neardup-gui, the icon and the AppStream metainfo, only under
    $XDG_DATA_HOME, each valid by the freedesktop tools."""
    venv = tmp_path / "the venv"  # a path with a space: the Exec line quotes it
    (venv / "bin").mkdir(parents=True)
    data = tmp_path / "share"
    env = {**os.environ, "XDG_DATA_HOME": str(data), "HOME": str(tmp_path / "home")}
    subprocess.run(
        ["bash", str(REPO / "resources" / "install-desktop-entry.sh"), str(venv)],
        env=env,
        check=True,
        capture_output=True,
    )
    entry = data / "applications" / "neardup.desktop"
    assert f'Exec="{venv}/bin/neardup-gui" %F' in entry.read_text(encoding="utf-8")
    assert (data / "icons" / "hicolor" / "scalable" / "apps" / "neardup.svg").read_bytes() == (
        REPO / "resources" / "neardup.svg"
    ).read_bytes()
    metainfo = data / "metainfo" / "neardup.metainfo.xml"
    assert not (tmp_path / "home").exists(), "nothing written outside XDG_DATA_HOME"
    desktop = subprocess.run(["desktop-file-validate", str(entry)], capture_output=True, text=True)
    assert desktop.returncode == 0 and "error" not in desktop.stdout, desktop.stdout
    # the id is the desktop file's name, as the window's (no domain to make it reverse-DNS: said, not failed)
    appstream = subprocess.run(
        ["appstreamcli", "validate", "--no-net", "--override=cid-desktopapp-is-not-rdns=info", str(metainfo)],
        capture_output=True,
        text=True,
    )
    assert appstream.returncode == 0, appstream.stdout + appstream.stderr
    version = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    assert "version" not in version and version["dynamic"] == ["version"]  # one source: neardup_gui.__version__
    from neardup_gui import __version__

    assert f'<release version="{__version__}"' in metainfo.read_text(encoding="utf-8")
