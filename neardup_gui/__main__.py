"""`python -m neardup_gui` / `neardup-gui [--db FILE] [FOLDER...]`: the desktop app."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    """Start the app, or say in one line why it cannot start here (before Qt is loaded, so that a missing
    system library is a sentence to act on instead of Qt's abort); --help and --version answer without Qt."""
    args = sys.argv[1:] if argv is None else argv
    if any(a in ("-h", "--help", "--version") for a in args):
        return _answer("--version" in args)
    from .gui.system_check import startup_problem

    problem = startup_problem()
    if problem is not None:
        print(f"neardup-gui: {problem}", file=sys.stderr)
        return 1
    from .gui.app import run

    return run(args)


def _answer(version: bool) -> int:
    from . import __version__
    from .core import i18n

    if version:
        print(f"neardup-gui {__version__}")
        return 0
    i18n.set_language(i18n.system_language())
    print(
        i18n.translate(
            "Cli",
            "usage: neardup-gui [--db FILE] [FOLDER...]\n\nThe desktop app: add the folders given, scan them, "
            "review the groups of duplicates.\n\n  --db FILE   open another database, for this run only\n"
            "  --version   show the version\n\nThe same engine on the command line: neardup --help",
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
