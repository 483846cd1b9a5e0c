"""`python -m neardup_gui` / `neardup-gui [--db FILE] [FOLDER...]`: the desktop app."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    """Start the app, or say in one line why it cannot start here (before Qt is loaded, so that a missing
    system library is a sentence to act on instead of Qt's abort)."""
    from .gui.system_check import startup_problem

    problem = startup_problem()
    if problem is not None:
        print(f"neardup-gui: {problem}", file=sys.stderr)
        return 1
    from .gui.app import run

    return run(sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    sys.exit(main())
