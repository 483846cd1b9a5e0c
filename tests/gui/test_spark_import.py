"""File ▸ Import Spark Result: the dialog's checks (without a window), and the journey: a result made on a
cluster whose files sit elsewhere here, mapped in the dialog, loaded into a new database in the background
and opened in a window of its own with its groups. The results are written by hand in the job's format
(tests/core/test_import_spark.py), so no Spark is needed."""

from __future__ import annotations

from pathlib import Path

import pytest

from neardup_gui.core.session import ResultSource
from neardup_gui.gui.spark_import import (
    ImportPlan,
    describe_result,
    local_folder,
    new_database,
    plan_problem,
    seen_prefix,
)
from tests.conftest import english_texts, plant_edits
from tests.core.test_import_spark import SOURCE, records, write_result

from .conftest import group_names


def _plan(tmp_path: Path, **changed: str) -> ImportPlan:
    here = tmp_path / "here"
    here.mkdir(exist_ok=True)
    fields = {"result": str(tmp_path / "result"), "seen": SOURCE, "here": str(here), "database": str(tmp_path / "n.db")}
    return ImportPlan(**{**fields, **changed})


def test_the_dialog_says_what_is_missing_in_plain_words(tmp_path):
    result = write_result(tmp_path / "result", records())
    source, why = describe_result(str(result))
    assert source == ResultSource(SOURCE, "folder", 3) and why == ""
    assert plan_problem(_plan(tmp_path), source) == ""
    assert "--out" in describe_result("")[1]
    assert "not a folder" in describe_result(str(tmp_path / "nowhere"))[1]
    (tmp_path / "other").mkdir()
    assert "job.json" in describe_result(str(tmp_path / "other"))[1]  # a folder that is no result says so
    assert (
        plan_problem(_plan(tmp_path, result=str(tmp_path / "other")), None)
        == describe_result(str(tmp_path / "other"))[1]
    )
    assert "cluster" in plan_problem(_plan(tmp_path, seen=" "), source)
    assert "this computer" in plan_problem(_plan(tmp_path, here="relative/folder"), source)
    assert "this computer" in plan_problem(_plan(tmp_path, here=str(tmp_path / "gone")), source)
    (tmp_path / "n.db").write_bytes(b"")
    assert "new database" in plan_problem(_plan(tmp_path), source)  # never loaded into a file that is there
    assert plan_problem(_plan(tmp_path, database=str(tmp_path / "new" / "n.db")), source) == ""  # a folder made
    assert "new database" in plan_problem(_plan(tmp_path, database=""), source)


def test_the_new_database_is_named_after_the_result_and_replaces_nothing(tmp_path):
    assert new_database(str(tmp_path), "/out/run-7/") == str(tmp_path / "spark-run-7.db")
    (tmp_path / "spark-run-7.db").write_bytes(b"")
    assert new_database(str(tmp_path), "/out/run-7") == str(tmp_path / "spark-run-7-2.db")
    assert local_folder(ResultSource(str(tmp_path), "folder", 1)) == str(tmp_path)  # this computer has it
    assert local_folder(ResultSource("/c1/uploads", "folder", 1)) == ""
    assert local_folder(ResultSource(str(tmp_path), "table", 1)) == ""
    assert seen_prefix(ResultSource("hdfs://c1/uploads", "uri", 1)) == "hdfs://c1/uploads"  # the prefix mapped
    assert seen_prefix(ResultSource("/c1/texts.parquet", "table", 1)) == ""  # a table's paths are its own


@pytest.mark.e2e
def test_a_result_is_mapped_loaded_and_opened_in_its_own_window(qtbot, window, tmp_path):
    """The cluster read /c1/uploads; here the files are in another folder: said in the dialog, the result is
    loaded into a new database beside the app's and opened with its group, its paths under the folder here."""
    here = tmp_path / "mounted"
    here.mkdir()
    text = english_texts()["BSD"]
    (here / "a.txt").write_text(text, encoding="utf-8")
    (here / "b.txt").write_text(plant_edits(text, 0.02, seed=3), encoding="utf-8")
    result = write_result(tmp_path / "run-7", records())
    w = window()
    dialog = w.import_spark()
    dialog.set_result(str(result))
    assert dialog.seen_edit.text() == SOURCE and dialog.here_edit.text() == ""
    assert not dialog.import_button.isEnabled() and "this computer" in dialog.problem.text()
    dialog.here_edit.setText(str(here))
    database = Path(dialog.database_edit.text())
    assert database == Path(w.db_path).parent / "spark-run-7.db" and not database.exists()
    assert dialog.import_button.isEnabled() and dialog.problem.text() == ""
    dialog.import_button.click()
    qtbot.waitUntil(lambda: len(w._windows) == 1 and w._windows[0].result is not None, timeout=60_000)
    opened = w._windows[0]
    try:
        assert group_names(opened) == [{"a.txt", "b.txt"}]
        assert all(str(here) in d.path for d in opened.groups.group_model.docs.values())
        assert "spark-run-7.db" in opened.windowTitle() and w.db_path != opened.db_path
        assert "loaded into" in w.statusBar().currentMessage()
        again = w.import_spark()  # the same file again: refused in the dialog, before anything is written
        again.set_result(str(result))
        again.here_edit.setText(str(here))
        again.database_edit.setText(str(database))
        assert not again.import_button.isEnabled() and "exists" in again.problem.text()
        again.reject()
    finally:
        opened.close()
