"""Make the README's screenshots again: the real app, on a small collection of real texts, under Xvfb.

    xvfb-run -a -s "-screen 0 1400x900x24" .venv/bin/python docs/screenshots/make.py [--out DIR]

It writes the collection into a new temporary folder: Chinese statutes (tests/data/zh) and licence texts
(/usr/share/common-licenses), some with near-copies (a paragraph changed, a line added) and one exact copy.
It scans them with the app, which keeps its settings file and database in that folder too, and saves
groups.png, pairs.png and zh-dark.png into DIR (this folder by default). It writes nothing anywhere else, and
removes the temporary folder at its end.
"""

from __future__ import annotations

import argparse
import itertools
import os
import re
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing import util
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
ZH_TEXTS = REPO / "tests" / "data" / "zh"  # public-domain statutes (the folder's README says where they come from)
LICENSES = Path("/usr/share/common-licenses")  # on every Debian and Ubuntu machine (base-files)
SIZE = (1280, 800)
SHOTS = ("groups.png", "pairs.png", "zh-dark.png")


@dataclass(frozen=True)
class Corpus:
    """The files written, and the near-copies each screenshot shows beside its original."""

    root: Path
    files: tuple[Path, ...]
    revised: Path  # groups.png: a member of a group of three, beside the file the group keeps
    draft: Path  # pairs.png: one side of the pair selected on the Pairs tab
    chinese: Path  # zh-dark.png: a Chinese statute's revised draft, beside the statute


def revised(text: str, *, paragraph: int, changes: tuple[tuple[str, str], ...], added: str, after: int) -> str:
    """``text`` with its ``paragraph``-th paragraph changed (blank lines part paragraphs): the first (old, new) of
    ``changes`` whose old text a paragraph from there on holds is replaced in it; then the line ``added`` goes
    after paragraph ``after``."""
    blocks = re.split(r"(\n[ \t]*\n)", text)  # paragraphs at even places, what parts them at odd ones
    paragraphs = range(0, len(blocks), 2)
    old, new, at = next(
        (old, new, i)
        for old, new in changes
        for i in paragraphs[min(paragraph, len(paragraphs) - 1) :]
        if old in blocks[i]
    )
    blocks[at] = blocks[at].replace(old, new)
    if added:
        last = paragraphs[min(after, len(paragraphs) - 1)]
        blocks[last] = f"{blocks[last]}\n\n{added}"
    return "".join(blocks)


ANY_TEXT = (" the ", " this "), (" a ", " one "), (" ", "  ")  # a change that fits any English text, the last


def english_texts() -> dict[str, str]:
    """Licence texts, or (without /usr/share/common-licenses) the repository's own documents."""
    if (LICENSES / "Apache-2.0").is_file():
        names = ("Apache-2.0", "GPL-3", "MPL-2.0", "BSD", "Artistic", "CC0-1.0")
        return {name: (LICENSES / name).read_text(encoding="utf-8") for name in names}
    names = ("how-it-decides", "user-guide", "cli", "spark", "quality", "performance")
    return {name: (REPO / "docs" / f"{name}.md").read_text(encoding="utf-8") for name in names}


def write_corpus(root: Path) -> Corpus:
    """A small collection of real documents under ``root``: three groups of near-duplicates (one of three files),
    an exact copy, and documents unlike any other, in English and in Chinese."""
    files: list[Path] = []

    def put(relative: str, text: str) -> Path:
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        files.append(path)
        return path

    en = english_texts()
    first, second, exact, *alone = en
    put(f"Legal/{first}.txt", en[first])
    revised_en = put(
        f"Legal/{first} (revised).txt",
        revised(
            en[first],
            paragraph=3,
            changes=(("shall mean", "means"), *ANY_TEXT),
            added="Revised for the 2025 contracts.",
            after=1,
        ),
    )
    put(f"Downloads/{first}.txt", revised(en[first], paragraph=30, changes=ANY_TEXT, added="", after=0))
    put(f"Legal/{second}.txt", en[second])
    draft = put(
        f"Drafts/{second} draft.txt",
        revised(
            en[second],
            paragraph=1,
            changes=(("Everyone is permitted to", "Anyone may"), *ANY_TEXT),
            added="DRAFT: not for distribution.",
            after=0,
        ),
    )
    put(f"Legal/{exact}.txt", en[exact])
    put(f"Backup/Legal/{exact}.txt", en[exact])
    for name in alone:
        put(f"Legal/{name}.txt", en[name])

    zh = {p.stem: p.read_text(encoding="utf-8") for p in sorted(ZH_TEXTS.glob("*.txt"))}
    title = {stem: text.splitlines()[0].lstrip("# ").strip() for stem, text in zh.items()}  # 上海市…条例
    fireworks, libraries = "02_fireworks_safety", "04_public_libraries"
    put(f"法规/{title[fireworks]}.txt", zh[fireworks])
    chinese = put(
        f"法规/修订/{title[fireworks]}（修订稿）.txt",
        revised(
            zh[fireworks],
            paragraph=3,
            changes=(("改善大气环境质量", "改善空气质量"), ("，", "、")),
            added="（本修订稿供征求意见，请于2025年3月31日前反馈。）",
            after=3,
        ),
    )
    put(f"法规/{title[libraries]}.txt", zh[libraries])
    put(
        f"下载/{title[libraries]}（副本）.txt",
        revised(
            zh[libraries],
            paragraph=8,
            changes=(("公共图书馆", "图书馆"), ("，", "、")),
            added="（内部学习资料）",
            after=0,
        ),
    )
    for stem in sorted(set(zh) - {fireworks, libraries}):
        put(f"法规/{title[stem]}.txt", zh[stem])
    return Corpus(root, tuple(files), revised_en, draft, chinese)


def isolate(folder: Path) -> None:
    """All the app and its worker processes write goes under ``folder`` (set before Qt is imported): its home,
    its XDG folders, and temporary files in ``folder`` itself (the worker pool's socket is named under it, in
    at most 107 bytes)."""
    for variable in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
        path = folder / variable.lower()
        path.mkdir()
        os.environ[variable] = str(path)
    (folder / "home").mkdir()
    os.environ["HOME"] = str(folder / "home")  # what writes under ~ directly writes here
    os.environ["TMPDIR"] = str(folder)
    tempfile.tempdir = None  # read from TMPDIR again


def pump(until: Callable[[], bool] = lambda: False, seconds: float = 1.0) -> None:
    """Let the app work (events, the results of its jobs) until ``until()``, or for ``seconds``."""
    from PySide6.QtWidgets import QApplication

    deadline = time.monotonic() + seconds
    while not until() and time.monotonic() < deadline:
        QApplication.processEvents()
        time.sleep(0.02)


def save(widget: Any, path: Path) -> Path:
    """A PNG of ``widget`` as shown, in its 256 most used colours: a window's few colours and most of its
    anti-aliasing, at a third of the size of all its colours (Qt maps each other colour to the nearest)."""
    import numpy as np
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage

    image = widget.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
    pixels = np.frombuffer(image.constBits(), dtype=np.uint32, count=image.width() * image.height())
    colours, counts = np.unique(pixels, return_counts=True)
    palette = colours[np.argsort(-counts, kind="stable")[:256]]
    small = image.convertToFormat(
        QImage.Format.Format_Indexed8, [int(c) for c in palette], Qt.ImageConversionFlag.ThresholdDither
    )
    if not small.save(str(path), "PNG", 0):  # quality 0: the best compression
        raise OSError(f"could not write {path}")
    return path


def main(argv: list[str] | None = None) -> list[Path]:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=HERE, help="the folder the PNGs go into (default: %(default)s)")
    out = parser.parse_args(argv).out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="neardup-"))
    # removed at exit, after the worker pool has removed its own folder in it (multiprocessing's clean-up
    # runs the finalizers of higher priority first: the pool's is -100)
    util.Finalize(None, shutil.rmtree, args=(work,), kwargs={"ignore_errors": True}, exitpriority=-101)
    isolate(work)
    corpus = write_corpus(work / "Documents")
    return shoot(corpus, work, out)


def shoot(corpus: Corpus, work: Path, out: Path) -> list[Path]:
    from PySide6.QtCore import QSettings

    from neardup_gui.gui.app import create_app
    from neardup_gui.gui.item_models import COLUMNS
    from neardup_gui.gui.main_window import MainWindow

    stages: dict[str, tuple[str, str, Callable[[Any], None]]] = {  # each shot's language, theme and what it shows
        "groups.png": ("en", "light", lambda w: select_member(w, corpus.revised)),
        "pairs.png": ("en", "light", lambda w: select_pair(w, corpus.draft)),
        "zh-dark.png": ("zh_CN", "dark", lambda w: select_member(w, corpus.chinese)),
    }
    made: list[Path] = []
    for (language, theme), names in itertools.groupby(SHOTS, key=lambda name: stages[name][:2]):
        create_app([], language=language, theme=theme)
        settings = QSettings(str(work / f"{language}.ini"), QSettings.Format.IniFormat)
        settings.setValue("database", str(work / f"{language}.db"))
        window = MainWindow(settings, folders=[str(corpus.root)])
        window.resize(*SIZE)
        # the dates of files just written say nothing: their room goes to the groups' topics
        window.groups.set_hidden_columns([*window.groups.hidden_columns(), COLUMNS.index("Modified")])
        window.show()
        scan(window)
        widen_documents(window)
        for name in names:
            stages[name][2](window)
            pump(seconds=1.5)  # the whole pair laid out after its first screen; the status bar settled
            made.append(save(window, out / name))
        window.close()
    return made


def scan(window: Any) -> None:
    """Scan the window's folders, as its Scan button does; what the app said, if the scan failed."""
    from PySide6.QtWidgets import QApplication, QMessageBox

    window.start_scan()
    finished = lambda: window.scan_job is None and window.result is not None  # noqa: E731
    pump(lambda: finished() or QApplication.activeModalWidget() is not None, 300)
    if not finished():
        message = QApplication.activeModalWidget()
        raise RuntimeError(f"the scan failed: {message.text() if isinstance(message, QMessageBox) else 'no result'}")
    pump(seconds=1)


def widen_documents(window: Any) -> None:
    """Give the Document column the room the last column (Type, stretched to the tree's edge) does not need, as a
    person would drag it: the groups' rows name their topics there."""
    from neardup_gui.gui.item_models import TYPE_COLUMN

    tree = window.groups.tree
    needed = max(tree.sizeHintForColumn(TYPE_COLUMN), tree.header().sectionSizeHint(TYPE_COLUMN)) + 12
    spare = tree.columnWidth(TYPE_COLUMN) - needed
    if spare > 0:
        tree.setColumnWidth(0, tree.columnWidth(0) + spare)


def select_member(window: Any, path: Path) -> None:
    """The Groups tab, with the member ``path`` selected: the pair view shows it beside the file its group keeps."""
    groups = window.groups
    window.tabs.setCurrentWidget(groups)
    groups.split.setSizes([220, sum(groups.split.sizes()) - 220])  # every group in sight, and the pair below
    groups.tree.collapseAll()
    model = groups.group_model
    for row in range(model.rowCount()):
        group = model.index(row, 0)
        for child in range(model.rowCount(group)):
            index = model.index(child, 0, group)
            if model.document(index).path == str(path):
                groups.tree.expand(group)
                groups.tree.setCurrentIndex(index)
                pump(lambda: groups.diff.model.rowCount() > 0, 60)
                return
    raise LookupError(f"{path} is in no group")


def select_pair(window: Any, path: Path) -> None:
    """The Pairs tab, with the first pair of ``path`` selected."""
    pairs = window.pairs
    window.tabs.setCurrentWidget(pairs)
    pump(lambda: pairs.model.rowCount() > 0, 60)
    for row in range(pairs.model.rowCount()):
        left, right, _similarity = pairs.model.pair_at(row)
        if str(path) in (left.path, right.path):
            pairs.table.setCurrentIndex(pairs.model.index(row, 0))
            pump(lambda: pairs.diff.model.rowCount() > 0, 60)
            return
    raise LookupError(f"{path} is in no pair")


if __name__ == "__main__":
    main()
