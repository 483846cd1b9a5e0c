"""Deterministic benchmark corpora built from real text that ships on the machine.

English: paragraphs of the Debian copyright files (real, license-heavy prose). Chinese: sentences of
the Chinese statutes in tests/data/zh. Short texts: distinct source and documentation lines.
"""

from __future__ import annotations

import glob
import os
import random
import re
from functools import lru_cache
from pathlib import Path

from tests.conftest import ZH_TEXTS, plant_edits


@lru_cache(maxsize=1)
def english_paragraphs() -> tuple[str, ...]:
    """Distinct paragraphs: licence paragraphs repeat across hundreds of copyright files, and drawing
    from the repeats would make thousands of documents share most of their text."""
    out: dict[str, None] = {}
    for path in sorted(glob.glob("/usr/share/doc/*/copyright")):
        with open(path, encoding="utf-8", errors="replace") as fh:
            for p in fh.read().split("\n\n"):
                if len(p.strip()) > 80:
                    out.setdefault(p.strip())
    return tuple(out)


@lru_cache(maxsize=1)
def chinese_sentences() -> tuple[str, ...]:
    out: dict[str, None] = {}
    for path in sorted(ZH_TEXTS.glob("*.txt")):
        for s in re.split(r"(?<=[。！？])", path.read_text(encoding="utf-8")):
            if len(s.strip()) > 8:
                out.setdefault(s)
    return tuple(out)


def documents(
    count: int, size: int = 13_000, chinese_share: float = 0.1, near_share: float = 0.1, seed: int = 1
) -> list[str]:
    """``count`` documents of about ``size`` characters; some Chinese, some near-copies of others."""
    rng = random.Random(seed)
    english, chinese = english_paragraphs(), chinese_sentences()
    docs: list[str] = []
    for n in range(count):
        if docs and rng.random() < near_share:
            docs.append(plant_edits(rng.choice(docs), rng.choice((0.005, 0.01, 0.03, 0.1)), seed=n))
            continue
        source, glue = (chinese, "") if rng.random() < chinese_share else (english, "\n\n")
        parts, length = [], 0
        while length < size:
            part = rng.choice(source)
            parts.append(part)
            length += len(part) + len(glue)
        docs.append(glue.join(parts))
    return docs


def short_lines(count: int) -> list[str]:
    """``count`` distinct real lines (>= 24 characters) of source code and documentation, in a fixed order."""
    lib = os.path.dirname(os.__file__)
    seen: dict[str, None] = {}
    for path in sorted(glob.glob(lib + "/**/*.py", recursive=True)) + sorted(glob.glob("/usr/share/doc/*/copyright")):
        try:
            with open(path, encoding="utf-8", errors="replace") as fh:
                for line in fh:
                    line = line.strip()
                    if len(line) >= 24:
                        seen.setdefault(line)
        except OSError:
            continue
        if len(seen) >= count:
            break
    lines = list(seen)[:count]
    if len(lines) < count:
        raise RuntimeError(f"only {len(lines)} distinct lines on this machine, {count} wanted")
    return lines


def write_tree(root: Path, docs: list[str], files_per_folder: int = 500) -> int:
    """Write documents as .txt files in folders of ``files_per_folder``; returns the bytes written."""
    total = 0
    for n, doc in enumerate(docs):
        folder = root / f"batch{n // files_per_folder:03d}"
        folder.mkdir(parents=True, exist_ok=True)
        data = doc.encode("utf-8")
        (folder / f"doc{n:06d}.txt").write_bytes(data)
        total += len(data)
    return total
