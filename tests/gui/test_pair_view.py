"""The pair view as a person uses it: the file's line numbers at any window size, only real changes
marked, nothing hidden, the first difference in sight, and the two switches remembered."""

from __future__ import annotations

from pathlib import Path

import pytest

from neardup_gui.core.review.layout import wrap_points
from tests.conftest import _HAN_FILLER, chinese_texts, english_texts
from tests.gui.conftest import scan, select_member

LONG_LINE = "".join(list(chinese_texts().values())[0].split())[:1200]  # Chinese as uploaded: one long line


def _rows_by_side(w, side: str):
    model = w.groups.diff.model
    return [getattr(model.row(i), side) for i in range(model.rowCount())]


def _marked(w, side: str) -> str:
    return "".join(s.text for part in _rows_by_side(w, side) if part for s in part.segments if s.changed)


def _numbers(w, side: str) -> list[int]:
    return [part.number for part in _rows_by_side(w, side) if part is not None and not part.continued]


def _open_pair(qtbot, w, name: str) -> None:
    select_member(qtbot, w, name)
    qtbot.waitUntil(lambda: w.groups.diff.model.rowCount() > 0 and w.groups.diff.comparison is not None, timeout=20_000)


@pytest.mark.e2e
def test_a_character_inserted_in_a_long_chinese_line_is_the_only_change_at_any_width(window, tmp_path, qtbot):
    root = tmp_path / "zh"
    root.mkdir()
    head = "第一章 总则\n\n"
    (root / "原稿.txt").write_text(head + LONG_LINE + "\n结尾。\n")
    edited = LONG_LINE[:500] + "新" + LONG_LINE[500:]
    (root / "修改稿.txt").write_text(head + edited + "\n结尾。\n")
    w = window(folders=[str(root)])
    scan(qtbot, w)
    _open_pair(qtbot, w, "修改稿.txt")
    diff = w.groups.diff
    assert _marked(w, "left") == "" and _marked(w, "right") == "新"
    assert _numbers(w, "right") == [1, 2, 3, 4] and _numbers(w, "left") == [1, 2, 3, 4]
    assert any(part is not None and part.continued for part in _rows_by_side(w, "right")), "the long line wraps"
    assert "1 of 1" in diff.position.text() and "less than 1 %" in diff.position.text()
    first = diff.model.row(diff.current_change_row)
    assert first.right.continued and [seg.text for seg in first.right.segments if seg.changed] == ["新"], (
        "the view opens on the row of the changed character, deep inside the wrapped line"
    )
    assert diff.ruler.spans == [(diff.current_change_row, diff.current_change_row + 1, "replace")]


def test_the_same_marks_and_numbers_at_every_pane_width(qtbot):
    """The pair view alone, narrowed as a laptop or a split screen would: laid out again, compared once."""
    edited = LONG_LINE[:500] + "新" + LONG_LINE[500:]
    head = "第一章 总则\n\n"
    view = _standalone_view(qtbot, head + LONG_LINE + "\n结尾。\n", head + edited + "\n结尾。\n")
    comparison = view.comparison
    for width in (1400, 900, 600, 420):
        view.resize(width, 600)
        qtbot.waitUntil(lambda: view.model.layout.columns == view.layout_request().columns, timeout=5_000)
        columns = view.model.layout.columns
        assert view.comparison is comparison, "a new width lays out again; it does not compare again"
        right = [view.model.row(i).right for i in range(view.model.rowCount())]
        assert "".join(s.text for p in right if p for s in p.segments if s.changed) == "新"
        assert [p.number for p in right if p and not p.continued] == [1, 2, 3, 4]
        wide = view.model.layout.wide  # the font's Han width, in columns
        for part in right:
            if part is not None:
                assert wrap_points("".join(s.text for s in part.segments), columns, wide) == [], "no row is cut off"
        line = "".join("".join(s.text for s in p.segments) for p in right if p and p.number == 3)
        assert line == edited, "every character of the line is on screen, in order"
    view.close()


def _standalone_view(qtbot, left: str, right: str, before_compare=None):
    from neardup_gui.core.models import Document, Similarity, Status
    from neardup_gui.core.store.stored_text import DocumentText
    from neardup_gui.gui.diff_view import DiffView
    from neardup_gui.gui.worker import JobRunner

    view = DiffView()
    qtbot.addWidget(view)
    view.runner = JobRunner(view)
    view.resize(1400, 600)
    view.show()
    docs = [Document(n, f"/tmp/{n}.txt", 1, 0, "txt", Status.OK, "", 1, n) for n in (1, 2)]
    texts = {1: left, 2: right}
    view.show_pending(docs[0], docs[1], Similarity(0, 1.0, 1.0, 1.0, 1.0))
    if before_compare is not None:
        before_compare(view)
    view.compare_documents(docs[0], docs[1], lambda doc: DocumentText(texts[doc.id]))
    qtbot.waitUntil(lambda: view.comparison is not None, timeout=10_000)
    return view


@pytest.mark.e2e
def test_the_pair_opens_at_its_first_difference_and_f3_walks_them(window, tmp_path, qtbot):
    root = tmp_path / "en"
    root.mkdir()
    text = english_texts()["GPL-2"]
    lines = text.split("\n")
    edited = list(lines)
    edited[250] = edited[250] + " INSERTED WORDS"
    edited[300] = "A new line nobody had before."
    (root / "gpl.txt").write_text(text)
    (root / "gpl-edited.txt").write_text("\n".join(edited))
    w = window(folders=[str(root)])
    scan(qtbot, w)
    _open_pair(qtbot, w, "gpl-edited.txt")
    diff = w.groups.diff
    first = diff.current_change_row
    assert first is not None and first > 200
    qtbot.waitUntil(lambda: diff._row_visible(first), timeout=5_000)  # in sight without pressing F3
    assert diff.model.row(first).right.number == 251
    assert diff.position.text().startswith("Difference 1 of 2")
    diff.next_button.click()
    second = diff.current_change_row
    assert second is not None and second > first and diff._row_visible(second)
    assert diff.position.text().startswith("Difference 2 of 2") and not diff.next_button.isEnabled()
    spans = diff.ruler.spans
    assert [start for start, _end, _kind in spans] == [first, second], "the overview marks both changes"
    diff.ruler.clicked.emit(0.0)
    assert diff.table.rowAt(0) == 0


@pytest.mark.e2e
def test_a_difference_on_the_last_line_opens_in_full_on_both_tabs(window, tmp_path, qtbot):
    """At 1024×700 the pane rewraps the pair once it has its width: the difference on the last line, in
    sight, moved below the pane and was cut in half, on the Groups tab as on the Pairs tab."""
    root = tmp_path / "end"
    root.mkdir()
    words = english_texts()["GPL-2"].split()
    lines = [" ".join(words[k * 8 : k * 8 + 8]) for k in range(200)]
    (root / "a.txt").write_text("\n".join(lines) + "\n")
    (root / "b.txt").write_text("\n".join([*lines[:-1], lines[-1] + " CHANGED AT THE END"]) + "\n")
    w = window(folders=[str(root)])
    w.resize(1024, 700)
    scan(qtbot, w)

    def in_full(diff) -> bool:
        row = diff.current_change_row
        cell = diff.table.visualRect(diff.model.index(row, 3))
        return diff.model.row(row).right.number == 200 and diff.table.viewport().rect().contains(cell)

    _open_pair(qtbot, w, "b.txt")
    qtbot.wait(200)  # the pane's final width, and the layout at it
    assert w.groups.diff.current_change_row == w.groups.diff.model.rowCount() - 1
    assert in_full(w.groups.diff), "the last line's difference is on screen whole"
    w.tabs.setCurrentWidget(w.pairs)
    qtbot.waitUntil(lambda: w.pairs.model.rowCount() == 1, timeout=10_000)
    w.pairs.table.setCurrentIndex(w.pairs.model.index(0, 0))
    qtbot.waitUntil(lambda: w.pairs.diff.comparison is not None, timeout=10_000)
    qtbot.wait(200)
    assert in_full(w.pairs.diff), "and on the Pairs tab"


@pytest.mark.e2e
def test_without_wrapping_both_sides_scroll_sideways_together_to_the_change(window, tmp_path, qtbot):
    root = tmp_path / "wide"
    root.mkdir()
    words = english_texts()["BSD"].split()
    long_line = " ".join(words * 3)
    changed = long_line[: len(long_line) - 40] + " CHANGED " + long_line[len(long_line) - 40 :]
    (root / "a.txt").write_text(f"Title\n{long_line}\nEnd\n")
    (root / "b.txt").write_text(f"Title\n{changed}\nEnd\n")
    w = window(folders=[str(root)])
    scan(qtbot, w)
    _open_pair(qtbot, w, "b.txt")
    diff = w.groups.diff
    diff.wrap_lines.setChecked(False)
    qtbot.waitUntil(lambda: diff.model.layout.columns == 0, timeout=5_000)
    assert diff.model.rowCount() == 3 and diff.sideways.isVisible()
    diff.go(1)
    assert diff.sideways.value() > 0 and diff.delegate.x_offset == diff.sideways.value()
    assert not any(part.continued for part in _rows_by_side(w, "left") if part)
    w.close()  # remembered
    again = window(folders=[str(root)])
    assert not again.groups.diff.wrap_lines.isChecked()


def test_f3_steps_through_the_differences_inside_one_long_line(qtbot):
    """Chinese without line breaks, three insertions far apart: three differences, each outlined in turn;
    wrapped, each on its own row; not wrapped, the one line scrolls sideways to each."""
    line = "".join(_HAN_FILLER * 4)[:2400]
    edited = line[:300] + "新" + line[300:1200] + "新" + line[1200:2100] + "新" + line[2100:]
    view = _standalone_view(qtbot, f"标题\n{line}\n", f"标题\n{edited}\n")
    assert view.comparison.regions == 3 and "Difference 1 of 3" in view.position.text()
    rows = []
    for step in range(3):
        if step:
            view.go(1)
        assert f"Difference {step + 1} of 3" in view.position.text()
        region = view.current_region
        assert region is not None and view.delegate.current == {(False, 2): [region.right[0][1:]]}
        row = view.current_change_row
        side = view.model.row(row).right
        shown = "".join(seg.text for seg in side.segments)
        assert "新" in shown and side.start <= region.right[0][1] < side.start + len(shown)
        rows.append(row)
    assert rows == sorted(set(rows)), "wrapped: each difference on a row of its own"
    view.wrap_lines.setChecked(False)
    qtbot.waitUntil(lambda: view.model.layout.columns == 0, timeout=5_000)
    offsets = []
    for step in (-1, -1, 1, 1):
        view.go(step)
        offsets.append(view.sideways.value())
    assert view.current_change_row == 1 and offsets[1] < offsets[2] < offsets[3], "sideways to each in turn"
    assert view.delegate.x_offset == view.sideways.value()


def test_a_large_pair_shows_its_first_screen_first_then_the_whole_in_the_same_place(qtbot):
    from neardup_gui.gui.diff_view import _LARGE
    from tests.conftest import plant_edits

    text = "\n\n".join(english_texts().values())
    text = "\n".join([text] * (_LARGE // len(text) + 1))
    edited = plant_edits(text, 0.002, seed=3)
    shown = []
    view = _standalone_view(qtbot, text, edited, before_compare=lambda v: v.laid_out.connect(shown.append))
    qtbot.waitUntil(lambda: view.comparison.complete, timeout=20_000)
    first, whole = shown[0], shown[-1]
    assert not first.comparison.complete and whole.comparison.complete
    assert first.comparison.regions < whole.comparison.regions
    one, other = first.comparison.changed_regions[0], whole.comparison.changed_regions[0]
    assert (one.left, one.right) == (other.left, other.right), "the first difference is the first"
    assert view.current_region == whole.comparison.changed_regions[0] and view._row_visible(view.current_change_row)
    assert f"Difference 1 of {whole.comparison.regions}" in view.position.text()


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_4_mb_pair_opens_on_its_first_difference_the_first_time_and_again(qtbot, language):
    """A printout and its text file, 4 MB: the lines break elsewhere long before the first real change
    (no difference while layout is ignored). The first open shows the first real difference, highlighted
    and on screen, as a second open does."""
    from neardup_gui.core.models import Document, Similarity, Status
    from neardup_gui.core.store.stored_text import DocumentText
    from neardup_gui.gui.app import create_app
    from neardup_gui.gui.diff_view import DiffView
    from neardup_gui.gui.worker import JobRunner

    base = "\n\n".join((english_texts() if language == "en" else chinese_texts()).values())
    text = "\n".join([base] * (4_000_000 // len(base.encode()) + 1))
    quarter, three_quarters = len(text) // 4, 3 * len(text) // 4
    cut = text.index("\n", quarter)
    rewrapped = text[:cut] + " " + text[cut + 1 :]  # one line break less: layout only
    word = rewrapped.index(" ", three_quarters) if language == "en" else three_quarters
    edited = rewrapped[:word] + " zebra" + rewrapped[word:]  # the first real change, far below
    texts = {1: text, 2: edited}
    left, right = (Document(n, f"/tmp/{n}.txt", 1, 0, "txt", Status.OK, "", 1, n) for n in (1, 2))
    create_app([], language="en")  # the app's style and fonts: the rows' heights are the app's
    for attempt in ("first", "again"):  # a pair view opened just now, as the window's first pair
        view = DiffView()
        qtbot.addWidget(view)
        view.runner = JobRunner(view)
        view.resize(1200, 700)
        view.show()
        view.show_pair(
            left, right, Similarity(0, 0.99, 0.99, 1.0, 1.0), lambda d: DocumentText(texts[d.id]), frozenset()
        )
        qtbot.waitUntil(lambda v=view: v.comparison is not None and v.comparison.complete, timeout=60_000)
        qtbot.wait(50)  # what was queued for once the table has its size
        whole = view.comparison
        first = whole.changed_regions[0]
        assert (first.right or first.left)[0][0] > text.count("\n", 0, quarter) + 100, "layout is no difference"
        assert view.current_region == first, attempt
        assert view._row_visible(view.current_change_row), f"{attempt}: the first difference is on screen"
        assert f"Difference 1 of {whole.regions}" in view.position.text(), attempt


@pytest.mark.e2e
def test_ignoring_layout_is_on_by_default_and_can_be_turned_off(window, tmp_path, qtbot):
    root = tmp_path / "layout"
    root.mkdir()
    paragraphs = [p for p in english_texts()["BSD"].split("\n\n") if p.strip()]
    one_line_each = "\n\n".join(" ".join(p.split()) for p in paragraphs)
    rewrapped = "\n".join(
        "\n".join(" ".join(p.split()[k : k + 7]) for k in range(0, len(p.split()), 7)) for p in paragraphs
    )
    (root / "paragraphs.txt").write_text(one_line_each)
    (root / "rewrapped.txt").write_text(rewrapped)
    w = window(folders=[str(root)])
    scan(qtbot, w)
    _open_pair(qtbot, w, "rewrapped.txt")
    diff = w.groups.diff
    assert diff.ignore_layout.isChecked()
    assert diff.comparison.regions == 0 and "The same text" in diff.position.text()
    assert "spacing or line breaks" in diff.position.text()
    diff.ignore_layout.setChecked(False)
    qtbot.waitUntil(lambda: diff.comparison is not None and not diff.comparison.ignore_layout, timeout=5_000)
    assert diff.comparison.regions > 0 and "difference" in diff.position.text().lower()
    diff.ignore_layout.setChecked(True)
    qtbot.waitUntil(lambda: diff.comparison is not None and diff.comparison.ignore_layout, timeout=5_000)
    assert diff.comparison.regions == 0


@pytest.mark.e2e
def test_resizing_keeps_the_line_at_the_top(window, tmp_path, qtbot):
    root = tmp_path / "place"
    root.mkdir()
    text = english_texts()["GPL-2"]
    (root / "a.txt").write_text(text)
    (root / "b.txt").write_text(text.replace("Foundation", "Fundament", 1))
    w = window(folders=[str(root)])
    scan(qtbot, w)
    _open_pair(qtbot, w, "b.txt")
    diff = w.groups.diff
    w.resize(1400, 800)
    qtbot.wait(200)
    diff.table.scrollTo(diff.model.index(150, 1), diff.table.ScrollHint.PositionAtTop)
    line = diff.model.row(diff.table.rowAt(0)).left.number
    w.resize(800, 800)
    columns = diff.layout_request().columns
    qtbot.waitUntil(lambda: diff.model.layout.columns == columns, timeout=5_000)
    top = diff.model.row(diff.table.rowAt(0)).left
    assert top is not None and abs(top.number - line) <= 1


@pytest.mark.e2e
def test_a_damaged_pair_file_says_why(window, tmp_path, qtbot):
    root = tmp_path / "gone"
    root.mkdir()
    text = english_texts()["BSD"]
    (root / "a.txt").write_text(text)
    (root / "b.txt").write_text(text + "\nOne more line.")
    w = window(folders=[str(root)])
    scan(qtbot, w)
    Path(root / "b.txt").unlink()
    select_member(qtbot, w, "b.txt")
    qtbot.waitUntil(lambda: "no longer there" in w.groups.diff.title.text(), timeout=10_000)
    assert w.groups.diff.model.rowCount() == 0


def test_a_pair_shown_again_is_compared_again_only_when_its_files_changed(qtbot):
    """A new grouping shows the same pair again: only its numbers change, unless a file is not what was
    read (edited and scanned again, or moved: the same document, another path, size or time)."""
    import dataclasses

    from neardup_gui.core.models import Document, Similarity, Status
    from neardup_gui.core.store.stored_text import DocumentText
    from neardup_gui.gui.diff_view import DiffView
    from neardup_gui.gui.worker import JobRunner

    view = DiffView()
    qtbot.addWidget(view)
    view.runner = JobRunner(view)
    left, right = (Document(n, f"/tmp/{n}.txt", 1, 0, "txt", Status.OK, "", 1, n) for n in (1, 2))
    texts = {"/tmp/1.txt": "one two three\n", "/tmp/2.txt": "one two four\n", "/moved/2.txt": "one two five\n"}
    loaded: list[str] = []

    def load(doc: Document) -> DocumentText:
        loaded.append(doc.path)
        return DocumentText(texts[doc.path])

    def show(a: Document, b: Document, jaccard: float) -> None:
        view.show_pair(a, b, Similarity(0, jaccard, jaccard, 1.0, 1.0), load, frozenset())
        qtbot.waitUntil(lambda: view.comparison is not None and "Comparing" not in view.position.text(), timeout=10_000)

    show(left, right, 0.5)
    assert len(loaded) == 2 and "/tmp/2.txt" in view.title.text()
    show(left, right, 0.6)  # another keeper's numbers, the same files
    assert len(loaded) == 2 and "60 %" in view.numbers.text()
    moved = dataclasses.replace(right, path="/moved/2.txt")
    show(left, moved, 0.6)
    assert loaded[2:] == ["/tmp/1.txt", "/moved/2.txt"] and "/moved/2.txt" in view.title.text()
