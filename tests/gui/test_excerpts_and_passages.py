"""Looking for excerpts and shared passages in the app, as a person does: a chapter copied out of a report is
found inside it, its passages are highlighted in both texts and F3 steps through them; a paragraph quoted in
another document is found as a shared passage. Real files, a real scan, real widgets."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest

from neardup_gui.core.models import Find, PassageSearch, Search, Thresholds
from neardup_gui.gui import settings as app_settings
from neardup_gui.gui.app import create_app
from neardup_gui.gui.excerpt_groups import INSIDE
from neardup_gui.gui.pairs_page import CONTAINMENT, LONGEST, PASSAGES
from neardup_gui.gui.thresholds import ThresholdsPanel
from tests.conftest import chinese_texts, english_texts, plant_edits

from .conftest import scan


def _words(text: str) -> list[str]:
    return text.split()


def _collection(root: Path) -> tuple[str, str, str]:
    """A report of five chapters, its third chapter copied out with 1 % of its words edited, a statute with a
    paragraph quoted in a letter, and unrelated files. Returns the chapter's text, the report's and the quote."""
    en = english_texts()
    chapters = [en[name] for name in ("Apache-2.0", "Artistic", "MPL-2.0", "LGPL-3", "BSD")]
    report = "\n\n".join(f"Chapter {n}\n\n{text}" for n, text in enumerate(chapters, 1))
    chapter = plant_edits(chapters[2], 0.01, seed=3)
    (root / "report.txt").write_text(report, encoding="utf-8")
    (root / "chapter-3.txt").write_text(chapter, encoding="utf-8")
    zh = list(chinese_texts().values())
    statute, other = zh[2], zh[3]
    middle = len(statute) // 2
    quote = statute[middle : middle + 160]
    (root / "statute.txt").write_text(statute, encoding="utf-8")
    (root / "letter.txt").write_text(other[:1500] + "\n引用如下：" + quote + "\n" + other[1500:3000], encoding="utf-8")
    (root / "gfdl.txt").write_text(en["GFDL-1.3"], encoding="utf-8")
    return chapter, report, quote


def _names(w, row: int) -> tuple[str, str]:
    left, right, _similarity = w.pairs.model.pair_at(row)
    return Path(left.path).name, Path(right.path).name


def _look_for(qtbot, w, find: Find) -> None:
    w.thresholds.look_for.setCurrentIndex(w.thresholds.look_for.findData(find))
    qtbot.waitUntil(lambda: w.pairs.listed is find and not w.session_jobs.busy and w.pairs.model.table is not None)


@pytest.mark.e2e
def test_a_chapter_is_found_inside_its_report_and_its_passages_are_stepped_through(window, tmp_path, qtbot):
    root = tmp_path / "uploads"
    root.mkdir()
    chapter, report, quote = _collection(root)
    w = window()
    w.folders.add_folder(str(root))
    scan(qtbot, w)
    grouped = {Path(d.path).name for d in w.result.documents if d.id in w.result.grouped}
    assert "chapter-3.txt" not in grouped  # a fifth of the report: never a near-duplicate of it

    # excerpts, on the Groups tab: the report, and under it the chapter inside it; nothing else at 80 %
    _look_for(qtbot, w, Find.EXCERPTS)
    groups = w.groups
    assert w.tabs.currentWidget() is groups and groups.excerpts_shown
    model = groups.excerpt_model
    assert model.rowCount() == 1 and model.rowCount(model.index(0, 0)) == 1
    holder, excerpt = model.index(0, 0), model.index(0, 0, model.index(0, 0))
    assert model.data(holder) == "report.txt" and model.data(excerpt) == "chapter-3.txt"
    assert model.data(holder.siblingAtColumn(INSIDE)) == "holds 1 excerpt"
    assert int(model.data(excerpt.siblingAtColumn(INSIDE)).split()[0]) >= 90
    assert groups.excerpt_tree.currentIndex() == excerpt and groups.current() == (None, model.document(excerpt))
    # the pair view: the report on the left (as a group's keeper), the chapter beside it
    title = groups.diff.title.text().splitlines()[0]
    assert title.split("↔")[0].strip().endswith("report.txt") and title.endswith("chapter-3.txt")
    # opened where the chapter sits in the report, not at the report's first chapters
    diff = groups.diff
    qtbot.waitUntil(lambda: diff.model.layout is not None and diff.model.layout.comparison.complete, timeout=20_000)
    chapter_3, chapter_4 = (report[: report.index(f"Chapter {n}")].count("\n") + 1 for n in (3, 4))
    qtbot.waitUntil(lambda: chapter_3 <= diff._top_line()[0] < chapter_4, timeout=5_000)
    # nothing to tick, keep or trash here: an excerpt is no copy, and its report has text it has not
    assert not groups.marks_bar.isVisible() and not groups.keep_button.isVisible()
    assert not any(w.action(name).isEnabled() for name in ("keep", "not_duplicate", "trash_others", "mark_selected"))
    assert w.action("open").isEnabled()
    QTest.keyClick(groups.excerpt_tree, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)  # Keep's keys: nothing
    assert not w.review.view.chosen and not w.session_jobs.busy

    # the same excerpt, as a pair on the Pairs tab
    w.tabs.setCurrentWidget(w.pairs)
    assert w.pairs.model.rowCount() == 1
    assert _names(w, 0) == ("chapter-3.txt", "report.txt")  # the excerpt on the left, where it is found on the right
    assert w.pairs.model.headerData(0, Qt.Orientation.Horizontal) == "Excerpt"
    assert w.pairs.count_label.text() == "1 excerpt"
    assert w.tabs.tabText(w.tabs.indexOf(w.pairs)) == "Pairs (1)"
    assert not w.pairs.keep_left_button.isVisible()  # an excerpt is not a copy to remove
    w.pairs.table.setCurrentIndex(w.pairs.model.index(0, 0))
    assert not any(w.action(name).isEnabled() for name in ("keep_left", "keep_right", "not_duplicate"))
    QTest.keyClick(w.pairs.table, Qt.Key.Key_Left, Qt.KeyboardModifier.AltModifier)  # Keep left's keys: nothing
    assert not w.review.marks and not w.session_jobs.busy
    inside = float(w.pairs.model._keys[CONTAINMENT][0])
    assert inside >= 0.9
    assert not w.pairs.table.isColumnHidden(CONTAINMENT) and w.pairs.table.isColumnHidden(LONGEST)

    # shared passages: the chapter's runs between its edits, and the quotation
    _look_for(qtbot, w, Find.PASSAGES)
    assert not w.pairs.table.isColumnHidden(LONGEST) and not w.pairs.table.isColumnHidden(PASSAGES)
    pairs = {frozenset(_names(w, row)) for row in range(w.pairs.model.rowCount())}
    assert pairs == {frozenset({"chapter-3.txt", "report.txt"}), frozenset({"letter.txt", "statute.txt"})}
    row = next(r for r in range(w.pairs.model.rowCount()) if "report.txt" in _names(w, r))
    w.pairs.table.setFocus()
    w.pairs.table.setCurrentIndex(w.pairs.model.index(row, 0))
    view = w.pairs.passages
    assert w.pairs.detail.currentWidget() is view
    found = w.pairs.current_passages()
    assert found is not None and len(found.passages) >= 5  # 1 % of the words edited: runs between the edits
    qtbot.waitUntil(lambda: view.passages_shown == len(found.passages), timeout=20_000)
    left_name, _right_name = _names(w, row)
    texts = {"chapter-3.txt": chapter, "report.txt": report}
    left_text, right_text = (view.panes[k].toPlainText() for k in (0, 1))
    assert left_text == texts[left_name] and right_text == texts[_right_name]
    chapter_at = report.index("Chapter 3")
    for step in range(len(found.passages)):
        assert view.current == step
        a, b = view.current_spans()
        # the same words on both sides, as long as the search said, and in the report inside its third chapter
        assert _words(left_text[a.start : a.end]) == _words(right_text[b.start : b.end])
        report_span = a if left_name == "report.txt" else b
        assert chapter_at < report_span.start < report.index("Chapter 4")
        assert view.panes[0].textCursor().position() == a.start and view.panes[1].textCursor().position() == b.start
        assert view.panes[0].extraSelections()[step].format.fontUnderline()  # the one stepped to
        QTest.keyClick(w, Qt.Key.Key_F3)
    assert view.current == len(found.passages) - 1  # the last: F3 stays there
    QTest.keyClick(w, Qt.Key.Key_F3, Qt.KeyboardModifier.ShiftModifier)
    assert view.current == len(found.passages) - 2
    assert "Passage" in view.position.text() and str(len(found.passages)) in view.position.text()

    # a longer passage asked for: the pair shown again with the passages of that length only
    before = len(found.passages)
    w.thresholds.words_spin.setValue(150)
    qtbot.waitUntil(lambda: w.pairs.current_passages() is not None and w.pairs.current_passages() != found)
    longer = w.pairs.current_passages()
    assert all(p.words >= 150 for p in longer.passages) and len(longer.passages) < before
    qtbot.waitUntil(lambda: view.passages_shown == len(longer.passages), timeout=20_000)
    w.thresholds.words_spin.setValue(50)
    qtbot.waitUntil(lambda: w.pairs.current_passages() == found)

    # the quotation: one passage, the quoted characters on both sides
    row = next(r for r in range(w.pairs.model.rowCount()) if "letter.txt" in _names(w, r))
    w.pairs.table.setCurrentIndex(w.pairs.model.index(row, 0))
    qtbot.waitUntil(lambda: view.passages_shown == 1, timeout=20_000)
    a, b = view.current_spans()
    shown = [view.panes[0].toPlainText()[a.start : a.end], view.panes[1].toPlainText()[b.start : b.end]]
    assert shown[0] == shown[1] and shown[0] in quote and len(shown[0]) >= 150

    # the report a teacher hands on: File ▸ Export Report writes the passages looked for
    html = tmp_path / "passages.html"
    w.export.write(str(html))
    qtbot.waitUntil(lambda: html.exists() and not w.session_jobs.busy, timeout=60_000)
    page = html.read_text(encoding="utf-8")
    section = page[page.index(">Shared passages (2)<") :]
    assert all(name in section for name in ("chapter-3.txt", "report.txt", "letter.txt", "statute.txt"))
    assert " ".join(quote[40:60].split()) in section or quote[40:60] in section

    # what is looked for is remembered, and found again at once after a restart (kept in the database)
    w.close()
    again = window()
    qtbot.waitUntil(lambda: again.result is not None, timeout=60_000)
    assert again.thresholds.search().find is Find.PASSAGES
    again.tabs.setCurrentWidget(again.pairs)
    qtbot.waitUntil(lambda: again.pairs.model.rowCount() == 2, timeout=60_000)
    assert again.pairs.listed is Find.PASSAGES and not again.pairs.table.isColumnHidden(LONGEST)
    # the Groups tab holds duplicates or excerpts: looking at it with shared passages looks for duplicates,
    # their settings shown, and the groups of duplicates with their marks are back
    again.tabs.setCurrentWidget(again.groups)
    assert again.thresholds.search().find is Find.DUPLICATES and again.thresholds.similarity_spin.isVisible()
    assert not again.groups.excerpts_shown and again.groups.marks_bar.isVisible()


@pytest.mark.parametrize(
    ("saved", "expected"),
    [
        (
            {"find": "passages", "containment": "0.9", "passage_words": "120", "passage_common": "25"},
            Search(Find.PASSAGES, 0.9, PassageSearch(120, 25)),
        ),
        ({"find": "copies", "containment": "0.9"}, Search()),  # a value no release wrote: the defaults
        ({"find": "excerpts", "containment": "0.2"}, Search()),  # below what may be asked
        ({"find": "passages", "passage_words": "ten"}, Search()),
    ],
)
def test_what_is_looked_for_is_remembered_and_a_damaged_setting_gives_the_defaults(tmp_path, saved, expected):
    ini = str(tmp_path / "s.ini")
    settings = QSettings(ini, QSettings.Format.IniFormat)
    for key, value in saved.items():
        settings.setValue(key, value)
    settings.sync()
    state = app_settings.load(QSettings(ini, QSettings.Format.IniFormat))
    assert state.search == expected
    app_settings.save(QSettings(ini, QSettings.Format.IniFormat), state)
    assert app_settings.load(QSettings(ini, QSettings.Format.IniFormat)).search == expected


def test_the_panel_shows_the_controls_of_what_is_looked_for_and_says_it_as_a_search(qtbot):
    create_app([], language="en")
    panel = ThresholdsPanel(Thresholds(), Search(Find.EXCERPTS, 0.9, PassageSearch(80, 5)))
    qtbot.addWidget(panel)
    panel.show()
    assert panel.inside_spin.isVisible() and not panel.method.isVisible() and not panel.words_spin.isVisible()
    assert panel.search() == Search(Find.EXCERPTS, 0.9, PassageSearch(80, 5))
    panel.inside_slider.setValue(85)
    assert panel.inside_spin.value() == 85 and panel.inside_value.text() == "containment ≥ 0.85"
    with qtbot.waitSignal(panel.search_changed, timeout=2000) as changed:
        panel.look_for.setCurrentIndex(panel.look_for.findData(Find.PASSAGES))
    assert changed.args[0].find is Find.PASSAGES
    assert panel.words_spin.isVisible() and panel.common_spin.isVisible() and not panel.inside_spin.isVisible()
    assert not panel.histogram.isVisible()
    with qtbot.waitSignal(panel.search_changed, timeout=2000) as changed:  # a step waits for the last one
        panel.words_spin.setValue(81)
        panel.words_spin.setValue(82)
    assert changed.args[0].passages == PassageSearch(82, 5)
    panel.look_for.setCurrentIndex(panel.look_for.findData(Find.DUPLICATES))
    assert panel.method.isVisible() and panel.similarity_spin.isVisible() and panel.histogram.isVisible()


def test_offsets_in_a_text_are_the_positions_qt_shows_them_at(qtbot):
    """Line ends of Windows files and characters beyond the BMP do not shift a highlighted passage."""
    from PySide6.QtWidgets import QPlainTextEdit

    from neardup_gui.gui.passage_view import _LINE_ENDS, qt_positions

    create_app([], language="en")
    text = "ab\r\ncd\U00020000ef\rgh😀ij\nkl"
    pane = QPlainTextEdit()
    qtbot.addWidget(pane)
    pane.setPlainText(_LINE_ENDS.sub("\n", text))
    for start, end in ((0, 2), (4, 6), (6, 9), (10, 12), (13, 15), (16, 18)):
        a, b = qt_positions(text, [start, end])
        cursor = pane.textCursor()
        cursor.setPosition(a)
        cursor.setPosition(b, cursor.MoveMode.KeepAnchor)
        shown = cursor.selectedText().replace("\u2029", "\n")
        assert shown == _LINE_ENDS.sub("\n", text[start:end]), (start, end, shown)


def test_the_passage_columns_sit_beside_the_numbers_after_a_header_saved_before_they_were(qtbot):
    """A Pairs header remembered by a release with seven columns puts the new ones back beside the numbers."""
    from PySide6.QtGui import QStandardItemModel
    from PySide6.QtWidgets import QTableView

    from neardup_gui.gui.controller import Marks
    from neardup_gui.gui.pairs_page import TOGETHER, PairsPage

    create_app([], language="en")
    old = QTableView()
    qtbot.addWidget(old)
    old.setModel(QStandardItemModel(0, 7))
    old.setColumnWidth(0, 250)
    saved = old.horizontalHeader().saveState()
    page = PairsPage(Marks())
    qtbot.addWidget(page)
    header = page.table.horizontalHeader()
    header.restoreState(saved)
    page.place_passage_columns()
    assert header.visualIndex(CONTAINMENT) < header.visualIndex(LONGEST) < header.visualIndex(TOGETHER)
    assert header.visualIndex(LONGEST) + 1 == header.visualIndex(PASSAGES)
    page.place_passage_columns()  # once there, they stay where they are
    assert header.visualIndex(LONGEST) == header.visualIndex(CONTAINMENT) + 1


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_every_pairs_heading_is_shown_whole_with_its_sort_arrow(qtbot, language):
    from neardup_gui.gui.controller import Marks
    from neardup_gui.gui.pairs_page import PairsPage

    create_app([], language=language)
    page = PairsPage(Marks())
    qtbot.addWidget(page)
    header = page.table.horizontalHeader()
    stretched = header.logicalIndex(header.count() - 1)  # the last shown stretches to the table's edge
    for column in (c for c in range(header.count()) if c != stretched):
        page.table.sortByColumn(column, Qt.SortOrder.DescendingOrder)
        assert header.sectionSize(column) >= header.sectionSizeHint(column), page.model.headerData(
            column, Qt.Orientation.Horizontal
        )
