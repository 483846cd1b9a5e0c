"""A batch "move marked files into a folder" in a process of its own, for tests/core/test_moves.py: one the
test kills with SIGKILL, limits in the size of the files it may write (RLIMIT_FSIZE), or gives a small drive
of its own (a tmpfs mounted in its own mount namespace, under ``unshare --mount``: it goes with the process).

Run as ``python -m tests.core.move_child SPEC`` (SPEC: JSON with db, roots, destination and optionally
file_size_limit, tmpfs_size); prints the outcome and every file left at the destination as JSON. Exits 77
when the small drive cannot be mounted here."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys

NO_MOUNT = 77


def leftovers(destination: str) -> list[str]:
    """Every file under ``destination``, relative to it."""
    return sorted(
        os.path.relpath(os.path.join(folder, name), destination)
        for folder, _dirs, names in os.walk(destination)
        for name in names
    )


def main(spec: dict) -> int:
    destination = spec["destination"]
    if spec.get("tmpfs_size"):
        mounted = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={spec['tmpfs_size']}", "neardup-test", destination],
            capture_output=True,
        )
        if mounted.returncode:
            return NO_MOUNT
    if spec.get("file_size_limit"):
        limit = int(spec["file_size_limit"])
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))  # Python ignores SIGXFSZ: writes fail EFBIG

    from neardup_gui.core.review.rules import in_folders, move_into_folder
    from neardup_gui.core.store.store import Store

    with Store(spec["db"]) as store:
        documents = [d for d in store.files.documents() if in_folders(d.path, spec["roots"])]
        outcome = move_into_folder(store, documents, destination, spec["roots"])
    print(
        json.dumps(
            {
                "done": list(outcome.done),
                "moved_to": list(outcome.moved_to),
                "failed": [list(f) for f in outcome.failed],
                "missing": list(outcome.missing),
                "left": leftovers(destination),
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(json.loads(sys.argv[1])))
