"""Groups named by what they are about, as a scan makes them: the View, the three reports, a database from
before keywords were kept."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from pathlib import Path

import pytest

from neardup_gui.core.models import ScanOptions, Thresholds
from neardup_gui.core.session import Session
from tests.conftest import chinese_texts, english_texts, plant_edits

pytestmark = pytest.mark.e2e  # each test scans through the worker pool


def _collection(root: Path) -> Path:
    """Two licence families and a statute family, and unrelated documents beside them."""
    root.mkdir()
    licences, statutes = english_texts(), chinese_texts()
    for seed in range(3):
        (root / f"gpl-{seed}.txt").write_text(plant_edits(licences["GPL-2"], 0.01, seed=seed))
        (root / f"apache-{seed}.txt").write_text(plant_edits(licences["Apache-2.0"], 0.01, seed=seed))
        (root / f"fireworks-{seed}.txt").write_text(plant_edits(statutes["02_fireworks_safety"], 0.01, seed=seed))
    for name in ("BSD", "Artistic", "CC0-1.0", "MPL-2.0"):
        (root / f"{name}.txt").write_text(licences[name])
    (root / "taxi.txt").write_text(statutes["05_taxi_management"])
    return root


def _topics_by_file(view) -> dict[str, tuple[str, ...]]:
    docs = view.documents
    return {
        Path(docs[view.keepers[g.id]].path).stem.split("-")[0]: view.topics.get(g.id, ()) for g in view.result.groups
    }


def test_each_group_is_named_by_its_own_words_in_the_views_and_the_reports(tmp_path):
    root = _collection(tmp_path / "docs")
    with Session(tmp_path / "db.sqlite") as session:
        view = session.scan(ScanOptions(roots=(str(root),), workers=1), Thresholds(jaccard=0.7))
        named = _topics_by_file(view)
        assert set(named) == {"gpl", "apache", "fireworks"}
        assert {"gnu", "general", "public", "free"} & set(named["gpl"])
        assert "apache" in named["apache"] and "烟花爆竹" in named["fireworks"]
        assert all(1 <= len(words) <= 3 for words in named.values())

        by_id = {g.id: view.topics[g.id] for g in view.result.groups}
        report = json.loads(session.report("json"))
        assert {g["id"]: tuple(g["topic"]) for g in report["groups"]} == by_id
        rows = list(csv.DictReader(io.StringIO(session.report("csv").lstrip("\ufeff"))))
        assert {int(r["group"]): tuple(r["topic"].split()) for r in rows} == by_id
        page = session.report("html")
        for group_id, words in by_id.items():
            assert f"Group {group_id}: {', '.join(words)}" in page

        # a threshold move names its groups again, the same way
        again = session.regroup(Thresholds(jaccard=0.5))
        assert _topics_by_file(again)["gpl"] == named["gpl"]


def test_a_database_from_before_keywords_names_its_groups_once_the_files_are_read_again(tmp_path):
    root = _collection(tmp_path / "docs")
    db = tmp_path / "db.sqlite"
    with Session(db) as session:
        session.scan(ScanOptions(roots=(str(root),), workers=1), Thresholds(jaccard=0.7))
    with sqlite3.connect(db) as old:  # as a version that kept no keywords left it
        old.execute("UPDATE contents SET keywords = NULL")
    with Session(db) as session:
        view = session.open((str(root),), Thresholds(jaccard=0.7))
        assert view is not None and len(view.result.groups) == 3
        assert view.topics == {}  # the window and the reports name these groups by a file
        for path in root.glob("gpl-*.txt"):  # changed files are read again
            path.write_text(path.read_text() + "\nA last line.")
        view = session.scan(ScanOptions(roots=(str(root),), workers=1), Thresholds(jaccard=0.7))
        assert {"gnu", "general", "public", "free"} & set(_topics_by_file(view)["gpl"])
        assert _topics_by_file(view)["apache"] == ()  # not read again: still named by a file
