"""Can the desktop app start on this machine? Checked before Qt is loaded, so that a missing system
library or a known-broken Qt release is one plain sentence instead of Qt's abort (or a crash minutes
later). Imports nothing of Qt: the check must work where Qt cannot load.

The system libraries Qt's platform plugins link against are named here once, by the Debian/Ubuntu
package that provides each; README.md lists the same packages, and a test compares both with what
``ldd`` says the installed plugins need, so the list cannot go stale."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import shutil
import subprocess
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

from ..core import i18n
from ..core.i18n import QT_TRANSLATE_NOOP, translate

# shiboken6 releases that break the app under Python < 3.12, where None is not immortal. Also excluded in
# pyproject.toml; checked here too for environments installed another way. What each does is said in the
# person's language (translated where shown).
BROKEN_ON_PYTHON_3_11 = {
    "6.12.0": QT_TRANSLATE_NOOP(
        "SystemCheck",
        "drops a reference to None on every QPainter.save/restore/setPen/"
        "setFont, so the app aborts after some minutes of use",
    ),
}

# soname -> the Debian/Ubuntu package that provides it, for every library outside a minimal Debian
# system that the Qt modules and plugins of ``qt_binaries()`` link against (directly or through another).
LIBRARY_PACKAGES: dict[str, str] = {
    "libEGL.so.1": "libegl1",
    "libGL.so.1": "libgl1",
    "libGLX.so.0": "libglx0",
    "libGLdispatch.so.0": "libglvnd0",
    "libfontconfig.so.1": "libfontconfig1",
    "libfreetype.so.6": "libfreetype6",
    "libpng16.so.16": "libpng16-16",
    "libbrotlicommon.so.1": "libbrotli1",
    "libbrotlidec.so.1": "libbrotli1",
    "libexpat.so.1": "libexpat1",
    "libglib-2.0.so.0": "libglib2.0-0",
    "libgthread-2.0.so.0": "libglib2.0-0",
    "libdbus-1.so.3": "libdbus-1-3",
    "libxkbcommon.so.0": "libxkbcommon0",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libX11.so.6": "libx11-6",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libXau.so.6": "libxau6",
    "libXdmcp.so.6": "libxdmcp6",
    "libbsd.so.0": "libbsd0",
    "libxcb.so.1": "libxcb1",
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-glx.so.0": "libxcb-glx0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-render.so.0": "libxcb-render0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-shm.so.0": "libxcb-shm0",
    "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-util.so.1": "libxcb-util1",
    "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libwayland-client.so.0": "libwayland-client0",
    "libwayland-cursor.so.0": "libwayland-cursor0",
    "libwayland-egl.so.1": "libwayland-egl1",
}
# Not linked, but needed: Qt finds fonts through fontconfig, and without a font with Chinese characters
# every Chinese name and text is drawn as boxes.
FONT_PACKAGES = ("fonts-noto-cjk",)


def debian_packages() -> list[str]:
    """Every Debian/Ubuntu package the desktop app needs beyond a minimal system, sorted: what README.md
    lists and what the set-up scripts install."""
    return sorted(set(LIBRARY_PACKAGES.values()) | set(FONT_PACKAGES))


def qt_directory() -> Path | None:
    """Where the installed PySide6 package lives, found without importing it (importing loads Qt)."""
    spec = importlib.util.find_spec("PySide6")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def qt_binaries(platforms: Iterable[str], pyside: Path) -> list[Path]:
    """The shared objects the app loads on the given Qt platforms: the three Qt modules it imports, the
    platform plugins, and the plugins those load (OpenGL integration, SVG icons, Wayland shells)."""
    plugins = pyside / "Qt" / "plugins"
    files = [pyside / f"{module}.abi3.so" for module in ("QtCore", "QtGui", "QtWidgets")]
    files += [plugins / "imageformats" / "libqsvg.so", plugins / "iconengines" / "libqsvgicon.so"]
    for platform in platforms:
        files.append(plugins / "platforms" / f"libq{platform}.so")
        if platform == "xcb":
            files += sorted((plugins / "xcbglintegrations").glob("*.so"))
        elif platform == "wayland":
            for kind in ("shell-integration", "decoration-client", "graphics-integration-client"):
                files += sorted((plugins / f"wayland-{kind}").glob("*.so"))
    return [f for f in files if f.exists()]


def missing_libraries(files: Iterable[Path]) -> list[str]:
    """The sonames ``ldd`` cannot find for any of ``files``, sorted; empty where ldd is not available
    (not glibc), since then nothing can be said."""
    ldd = shutil.which("ldd")
    if ldd is None:
        return []
    missing: set[str] = set()
    for file in files:
        try:
            proc = subprocess.run([ldd, str(file)], capture_output=True, text=True, check=False, timeout=20)
        except (OSError, subprocess.TimeoutExpired):
            continue  # ldd itself failed: nothing can be said, Qt will speak for itself
        for line in proc.stdout.splitlines():
            name, arrow, target = line.strip().partition("=>")
            if arrow and target.strip() == "not found":
                missing.add(name.strip())
    return sorted(missing)


def install_hint(missing: Iterable[str]) -> str:
    """What to install for these missing sonames, as one apt-get command (and any soname we cannot
    name a package for)."""
    missing = sorted(missing)
    packages = sorted({LIBRARY_PACKAGES[name] for name in missing if name in LIBRARY_PACKAGES})
    unknown = [name for name in missing if name not in LIBRARY_PACKAGES]
    command = "sudo apt-get install " + " ".join(packages)
    if not unknown:
        return command if packages else ""
    libraries = ", ".join(unknown)
    if not packages:
        return translate("SystemCheck", "the packages that provide {libraries}").format(libraries=libraries)
    return translate("SystemCheck", "{command} and the packages that provide {libraries}").format(
        command=command, libraries=libraries
    )


def _platforms(environ: Mapping[str, str]) -> list[str]:
    """The platform plugins Qt will try, in order, as Qt chooses them on Linux."""
    chosen = environ.get("QT_QPA_PLATFORM", "")
    if chosen:
        return [p.split(":")[0] for p in chosen.split(";") if p]
    if environ.get("WAYLAND_DISPLAY") or environ.get("XDG_SESSION_TYPE") == "wayland":
        return ["wayland", "xcb"]
    return ["xcb"]


def _platform_problem(platform: str, pyside: Path, environ: Mapping[str, str]) -> str | None:
    """Why Qt's ``platform`` plugin cannot open a window here, or None."""
    missing = missing_libraries(qt_binaries([platform], pyside))
    if missing:
        return translate(
            "SystemCheck",
            "Qt cannot open a window: its {platform} platform plugin needs {libraries}. Install them with: {hint}",
        ).format(platform=platform, libraries=", ".join(missing), hint=install_hint(missing))
    display = {"xcb": "DISPLAY", "wayland": "WAYLAND_DISPLAY"}.get(platform)
    if display and not environ.get(display):
        return translate(
            "SystemCheck",
            "neardup-gui needs a graphical desktop, and there is none here ({variable} "
            "is not set). On a server, use the command line, neardup, or run the app "
            "under Xvfb.",
        ).format(variable=display)
    return None


def startup_problem(environ: Mapping[str, str] | None = None) -> str | None:
    """Why the desktop app cannot start here, in one plain sentence, or None when nothing is known to
    stop it. Qt tries its platform plugins in order: the first one's reason is the one reported. Said in
    the system's language: Qt, and so the app's chosen language, is not loaded yet."""
    environ = os.environ if environ is None else environ
    i18n.set_language(i18n.system_language())
    try:
        shiboken = importlib.metadata.version("shiboken6")
    except importlib.metadata.PackageNotFoundError:
        return translate(
            "SystemCheck",
            "neardup-gui needs PySide6, which is not installed: run bash resources/setup.sh (see README.md).",
        )
    if sys.version_info < (3, 12) and shiboken in BROKEN_ON_PYTHON_3_11:
        return translate(
            "SystemCheck",
            "PySide6 {version} {problem} on Python {python}; run bash resources/setup.sh "
            "again to install another release (or: .venv/bin/pip install "
            "'PySide6-Essentials!={version}').",
        ).format(
            version=shiboken,
            problem=translate("SystemCheck", BROKEN_ON_PYTHON_3_11[shiboken]),
            python=f"{sys.version_info.major}.{sys.version_info.minor}",
        )
    if not sys.platform.startswith("linux"):
        return None
    pyside = qt_directory()
    if pyside is None:
        return None
    platforms = _platforms(environ)
    if not any(p in ("xcb", "wayland") for p in platforms):
        return None  # offscreen, vnc, eglfs…: not a desktop session, nothing of ours to check
    core_missing = missing_libraries(qt_binaries([], pyside))
    if core_missing:
        return translate("SystemCheck", "Qt cannot load: {libraries} missing. Install them with: {hint}").format(
            libraries=", ".join(core_missing), hint=install_hint(core_missing)
        )
    problems = [_platform_problem(p, pyside, environ) for p in platforms if p in ("xcb", "wayland")]
    return None if any(problem is None for problem in problems) else problems[0]
