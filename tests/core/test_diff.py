"""The comparison behind the pair view and the HTML report: the file's lines, only real changes marked,
nothing lost when laid out at any width."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from neardup_gui.core.read.pdf import PAGE_SEPARATOR
from neardup_gui.core.review.compare import REGION_GAP, Comparison, compare, describe, file_lines, first_screen, hunks
from neardup_gui.core.review.layout import DisplayRow, Layout, display_width, wrap_points
from neardup_gui.core.review.passages import common_runs, shared_passages, shared_passages_between
from tests.conftest import _HAN_FILLER

WIDTHS = (0, 13, 37, 80)  # 0: not wrapped


def lay_out(comparison: Comparison, columns: int, wide: float = 2.0) -> list[DisplayRow]:
    """Every row of ``Layout(comparison, columns, wide)``."""
    layout = Layout(comparison, columns, wide)
    return [layout[i] for i in range(len(layout))]


def marked(comparison: Comparison, side: str) -> str:
    """The characters (white space aside) marked as changed on one side."""
    out = []
    for chunk in comparison.chunks:
        for line in chunk.left if side == "left" else chunk.right:
            out.extend(seg.text for seg in line.segments() if seg.changed)
    return "".join("".join(out).split())


def unmarked(comparison: Comparison, side: str) -> str:
    out = []
    for chunk in comparison.chunks:
        for line in chunk.left if side == "left" else chunk.right:
            if not line.quiet:
                out.extend(seg.text for seg in line.segments() if not seg.changed)
    return "".join("".join(out).split())


def laid_out_lines(comparison: Comparison, columns: int, side: str) -> dict[int, str]:
    """Each file line as the rows of the view show it, continuation rows joined to their line."""
    lines: dict[int, str] = {}
    previous = None
    for row in lay_out(comparison, columns):
        part = row.left if side == "left" else row.right
        if part is None:
            continue
        text = "".join(seg.text for seg in part.segments)
        if part.continued:
            assert part.number == previous, "a continuation row belongs to the line above it"
            lines[part.number] += text
        else:
            assert part.number not in lines, "a line's number is shown once"
            lines[part.number] = text
        previous = part.number
        if columns:
            assert display_width(text) <= columns, "every row fits the pane: nothing is cut off"
    return lines


def test_changed_words_are_marked_inside_changed_lines():
    comparison = compare("the quick brown fox\njumps over\n", "the quick red fox\njumps over\n")
    assert [c.kind for c in comparison.chunks][:2] == ["replace", "equal"]
    left, right = comparison.chunks[0].left[0], comparison.chunks[0].right[0]
    assert [s.text for s in left.segments() if s.changed] == ["brown"]
    assert [s.text for s in right.segments() if s.changed] == ["red"]
    assert comparison.regions == 1


def test_han_changes_are_marked_per_character():
    comparison = compare("上海浦东四季酒店", "上海浦东全季酒店")
    assert marked(comparison, "left") == "四" and marked(comparison, "right") == "全"


def test_one_character_inserted_in_a_long_chinese_line_marks_that_character_at_every_width():
    """The screenshots that opened #13: wrapping before comparing marked 据 and 软件开 as changed."""
    line = "我们的团队负责数据处理软件开发和数据分析工作，需要仔细地规划和测试每一个版本。" * 12
    edited = line[:200] + "新" + line[200:]
    comparison = compare(f"标题\n{line}\n结尾", f"标题\n{edited}\n结尾")
    assert marked(comparison, "left") == "" and marked(comparison, "right") == "新"
    for columns in WIDTHS:
        assert laid_out_lines(comparison, columns, "left") == {1: "标题", 2: line, 3: "结尾"}
        assert laid_out_lines(comparison, columns, "right") == {1: "标题", 2: edited, 3: "结尾"}


def test_line_numbers_are_the_files_whatever_the_width():
    text = "\n".join(f"line {n} " + "word " * (n % 40) for n in range(1, 300))
    edited = text.replace("line 138 ", "line 138 changed ")
    comparison = compare(text, edited)
    for columns in WIDTHS:
        rows = lay_out(comparison, columns)
        changed = [r for r in rows if r.kind == "replace" and r.right is not None and not r.right.continued]
        assert [r.right.number for r in changed] == [138]
        assert [r.left.number for r in changed if r.left is not None] == [138]
        wrapped = [r for r in rows if r.left is not None and r.left.continued]
        assert (len(wrapped) > 0) == (0 < columns < 200)


def test_wrapping_breaks_after_spaces_and_counts_han_as_two_columns():
    english = "word " * 200
    starts = [0, *wrap_points(english, 60)]
    rows = [english[a:b] for a, b in zip(starts, [*starts[1:], len(english)], strict=True)]
    assert all(display_width(r) <= 60 and r.endswith(" ") for r in rows[:-1])
    chinese = "近似重复文档的检测方法。" * 40
    starts = [0, *wrap_points(chinese, 60)]
    rows = [chinese[a:b] for a, b in zip(starts, [*starts[1:], len(chinese)], strict=True)]
    assert "".join(rows) == chinese and all(display_width(r) <= 60 for r in rows)
    assert max(display_width(r) for r in rows) >= 59
    assert wrap_points("short", 0) == [] and wrap_points("short", 80) == []


# -- no false change: property-based ----------------------------------------------------------------

ENGLISH_WORDS = (
    "the of and to a in is it that for on was with as I his they be at one have this from word document review "
    "copy near duplicate licence version software"
)
ENGLISH = st.sampled_from(ENGLISH_WORDS.split(" "))
HAN = st.sampled_from(sorted(set(_HAN_FILLER)))
EDITS = st.sampled_from(["insert", "delete", "replace"])


def _edit(units: list[str], kind: str, at: int, new: str, joiner: str) -> tuple[str, str, str, str]:
    """The text before and after one edit of one unit, and what was taken out and put in."""
    at = at % (len(units) + (1 if kind == "insert" else 0))
    if kind == "insert":
        after = [*units[:at], new, *units[at:]]
        return joiner.join(units), joiner.join(after), "", new
    if kind == "delete":
        after = units[:at] + units[at + 1 :]
        return joiner.join(units), joiner.join(after), units[at], ""
    if units[at] == new:  # a real replacement (doubling it would be an insertion, marked as one)
        new = "龘" if joiner == "" else "different"  # in neither alphabet
    after = [*units[:at], new, *units[at + 1 :]]
    return joiner.join(units), joiner.join(after), units[at], new


def _check_exactly_the_edit(before: str, after: str, taken: str, put: str, ignore_layout: bool) -> None:
    comparison = compare(before, after, ignore_layout=ignore_layout)
    assert marked(comparison, "left") == "".join(taken.split())
    assert marked(comparison, "right") == "".join(put.split())
    assert unmarked(comparison, "left") == unmarked(comparison, "right"), "what is not marked is the same"
    assert comparison.regions == 1
    for columns in WIDTHS:
        assert laid_out_lines(comparison, columns, "left") == dict(enumerate(file_lines(before), start=1))
        assert laid_out_lines(comparison, columns, "right") == dict(enumerate(file_lines(after), start=1))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    units=st.lists(HAN, min_size=30, max_size=400),
    kind=EDITS,
    at=st.integers(min_value=0, max_value=10_000),
    new=HAN,
    ignore_layout=st.booleans(),
)
def test_one_han_character_edited_anywhere_marks_exactly_that_character(units, kind, at, new, ignore_layout):
    before, after, taken, put = _edit(units, kind, at, new, "")
    _check_exactly_the_edit(before, after, taken, put, ignore_layout)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    units=st.lists(ENGLISH, min_size=20, max_size=300),
    kind=EDITS,
    at=st.integers(min_value=0, max_value=10_000),
    new=ENGLISH,
    ignore_layout=st.booleans(),
)
def test_one_word_edited_anywhere_marks_exactly_that_word(units, kind, at, new, ignore_layout):
    before, after, taken, put = _edit(units, kind, at, new, " ")
    _check_exactly_the_edit(before, after, taken, put, ignore_layout)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    paragraphs=st.lists(st.lists(ENGLISH | HAN, min_size=5, max_size=60), min_size=3, max_size=12),
    which=st.integers(min_value=0, max_value=100),
    kind=EDITS,
    at=st.integers(min_value=0, max_value=10_000),
    new=ENGLISH,
)
def test_an_edit_in_one_of_many_lines_is_found_in_that_line_only(paragraphs, which, kind, at, new):
    which %= len(paragraphs)
    lines = [" ".join(p) for p in paragraphs]
    _before_line, after_line, taken, put = _edit(paragraphs[which], kind, at, new, " ")
    after_lines = [*lines[:which], after_line, *lines[which + 1 :]]
    before, after = "\n".join(lines), "\n".join(after_lines)
    if before == after:
        return
    _check_exactly_the_edit(before, after, taken, put, True)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    units=st.lists(HAN, min_size=300, max_size=1500),
    positions=st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=8),
    reverse=st.booleans(),
)
def test_edits_far_apart_in_one_long_line_are_a_difference_each_stepped_to_in_order(units, positions, reverse):
    """A Chinese text without line breaks: each edit is a difference of its own (F3 steps to each), the
    same counted either way round, and each is on the row the view goes to, at every width."""
    kept: list[int] = []
    for at in sorted({p % len(units) for p in positions}):
        if not kept or at - kept[-1] > REGION_GAP + 1:
            kept.append(at)
    after = list(units)
    for at in reversed(kept):
        after.insert(at, "龘")  # in neither text before
    before_text, after_text = "".join(units), "".join(after)
    left, right = (after_text, before_text) if reverse else (before_text, after_text)
    comparison = compare(left, right)
    assert comparison.regions == len(kept)
    assert marked(comparison, "right" if not reverse else "left") == "龘" * len(kept)
    assert marked(comparison, "left" if not reverse else "right") == ""
    for columns in WIDTHS:
        layout = Layout(comparison, columns)
        rows = layout.change_rows()
        assert rows == sorted(rows) and (columns or len(set(rows)) == 1)
        for region, row in zip(comparison.changed_regions, rows, strict=True):
            on_left, (number, start, _end) = region.first()
            side = layout[row].left if on_left else layout[row].right
            shown = "".join(seg.text for seg in side.segments)
            assert side.number == number and side.start <= start <= side.start + len(shown)


def test_the_same_pair_either_way_round_gives_the_same_differences():
    from tests.conftest import english_texts, plant_edits

    text = english_texts()["GPL-2"]
    edited = plant_edits(text, 0.02, seed=11)
    one, other = compare(text, edited), compare(edited, text)
    assert one.regions == other.regions > 10
    assert marked(one, "left") == marked(other, "right") and marked(one, "right") == marked(other, "left")
    assert one.changed_chars == other.changed_chars


def test_comparing_exactly_blank_lines_added_or_removed_are_differences():
    before, after = "first line\nsecond line\n", "first line\n\n\nsecond line\n"
    exact = compare(before, after, ignore_layout=False)
    assert [c.kind for c in exact.chunks] == ["equal", "insert", "equal"]
    assert [line.number for line in exact.chunks[1].right] == [2, 3] and exact.regions == 1
    assert compare(after, before, ignore_layout=False).chunks[1].kind == "delete"
    loose = compare(before, after)
    assert loose.regions == 0 and describe(loose) == "The same text; only spacing or line breaks differ."


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_the_first_screen_of_a_large_pair_has_the_files_numbers_and_its_first_difference(newline):
    lines = [f"line {n} " + "word " * (n % 30) for n in range(3000)]
    edited = list(lines)
    edited[1800] = edited[1800].replace("line", "LINE")
    edited[2500] = "a new line"
    left, right = newline.join(lines), newline.join(edited)
    screen, whole = first_screen(left, right), compare(left, right)
    assert not screen.complete and whole.complete and whole.regions == 2
    first, also_first = screen.changed_regions[0], whole.changed_regions[0]
    assert (first.left, first.right) == (also_first.left, also_first.right) and first.left[0][0] == 1801
    numbers = [line.number for chunk in screen.chunks for line in chunk.left]
    assert numbers == list(range(numbers[0], numbers[0] + len(numbers))) and numbers[0] < 1801 < numbers[-1]
    assert all(line.text == lines[line.number - 1] for chunk in screen.chunks for line in chunk.left)


def test_the_first_screen_skips_what_only_layout_changes_before_the_first_difference():
    """Two lines joined into one (a printout's wrapping) long before the first real change: ignoring
    layout, the first screen opens at the change, with each file's own line numbers."""
    lines = [f"line {n} " + "word " * (n % 30) for n in range(3000)]
    edited = list(lines)
    edited[1800] = edited[1800].replace("line", "LINE")
    rewrapped = edited[:300] + [edited[300] + " " + edited[301]] + edited[302:]  # one line fewer from here on
    left, right = "\n".join(lines), "\n".join(rewrapped)
    screen, whole = first_screen(left, right), compare(left, right)
    assert whole.regions == 1 and screen.regions == 1
    first, also_first = screen.changed_regions[0], whole.changed_regions[0]
    assert (first.left, first.right) == (also_first.left, also_first.right)
    assert first.left[0][0] == 1801 and first.right[0][0] == 1800
    exact = first_screen(left, right, ignore_layout=False)  # layout counts: the joined line is the first
    assert exact.changed_regions[0].left[0][0] == 301


# -- differences a person does not care about ------------------------------------------------------


def _pdf_and_its_text() -> tuple[str, str]:
    paragraphs = [
        "The licensee may copy and distribute verbatim copies of the program source code as received, in any medium.",
        "You may modify your copy or copies of the program or any portion of it, thus forming a work based on it.",
        "These requirements apply to the modified work as a whole, and to identifiable sections of that work.",
    ]
    text = "\n\n".join(paragraphs) + "\n"
    pages = []
    for number, paragraph in enumerate(paragraphs, start=1):
        words = paragraph.split()
        lines = [" ".join(words[k : k + 6]) for k in range(0, len(words), 6)]
        long_word = next(w for w in lines[0].split() if len(w) >= 6)
        lines[0] = lines[0].replace(long_word, f"{long_word[:3]}-\n{long_word[3:]}", 1)  # hyphenated at a line's end
        pages.append(f"Software Licence Agreement\n{chr(10).join(lines)}\n\nPage {number} of 3")
    return PAGE_SEPARATOR.join(pages), text


def test_a_pdf_against_its_text_file_differs_only_in_layout():
    pdf, text = _pdf_and_its_text()
    comparison = compare(pdf, text)
    assert comparison.regions == 0 and comparison.changed_chars == 0
    assert comparison.layout_differs
    assert describe(comparison) == "The same text; only spacing or line breaks differ."
    quiet = {line.text for chunk in comparison.chunks for line in chunk.left if line.quiet}
    assert {"Software Licence Agreement", "Page 2 of 3", "\f"} <= quiet
    exact = compare(pdf, text, ignore_layout=False)
    assert exact.regions > 0, "the switch off: every layout difference counts"


def test_a_real_change_in_a_pdf_is_still_found_when_layout_is_ignored():
    pdf, text = _pdf_and_its_text()
    comparison = compare(pdf, text.replace("verbatim copies", "exact copies"))
    assert comparison.regions == 1
    assert marked(comparison, "left") == "verbatim" and marked(comparison, "right") == "exact"


def test_blank_lines_and_spacing_are_quiet_but_a_new_line_of_text_is_not():
    left = "alpha beta\n\n\ngamma   delta\nepsilon"
    right = "alpha  beta\ngamma delta\n\nepsilon\nzeta"
    comparison = compare(left, right)
    assert comparison.regions == 1 and marked(comparison, "right") == "zeta"
    exact = compare(left, right, ignore_layout=False)
    assert exact.regions == 1, "the changes are close together: one place to look at"
    changed = {
        (side, line.number)
        for c in exact.chunks
        for side, lines in (("left", c.left), ("right", c.right))
        for line in lines
        if line.changes
    }
    assert {("left", 1), ("left", 2), ("left", 3), ("right", 1), ("right", 2), ("right", 3)} <= changed, (
        "comparing exactly, the double space, the two blank lines gone and the blank line added are marked"
    )


def test_summary_in_words():
    left = "\n".join(f"line {n}" for n in range(100))
    right = left.replace("line 10", "line ten").replace("line 80", "line eighty")
    comparison = compare(left, right)
    assert comparison.regions == 2
    assert describe(comparison) == "2 changed regions · about 1 % of the text differs."
    assert hunks(comparison.chunks, context=2) == [(8, 13), (78, 83)]
    same = compare("a\nb\n", "a\nb\n")
    assert same.regions == 0 and hunks(same.chunks) == [] and describe(same) == "The same text."


def test_shared_passages_are_the_longest_unchanged_runs():
    common_long = "This paragraph is shared word for word by both documents and it is long."
    common_short = "A shorter shared line of text here."
    left = f"intro one\n{common_long}\n{common_long}\nmiddle left\n{common_short}\nend"
    right = f"intro two\n{common_long}\n{common_long}\nmiddle right\n{common_short}\nend"
    passages = shared_passages(compare(left, right))
    assert passages[0] == f"{common_long} {common_long} middle"
    assert passages[1] == f"{common_short} end"
    assert shared_passages(compare("abc", "xyz")) == []


def test_report_passages_name_text_both_documents_share():
    from tests.conftest import english_texts, plant_edits

    left = english_texts()["GPL-2"]
    right = plant_edits(left, 0.01, seed=4)
    passages = shared_passages_between(left, right)
    assert passages and all(p.rstrip("…")[:200] in " ".join(right.split()) for p in passages)


@pytest.mark.parametrize("ignore_layout", [True, False])
def test_identical_texts_are_the_same(ignore_layout):
    text = "第一行\n\nsecond line\n\fthird"
    comparison = compare(text, text, ignore_layout=ignore_layout)
    assert comparison.regions == 0 and not comparison.layout_differs
    assert all(c.kind in ("equal", "layout") for c in comparison.chunks)


def _runs_by_brute_force(a: list[int], b: list[int]) -> set[tuple[int, int, int]]:
    runs = set()
    for i in range(len(a)):
        for j in range(len(b)):
            if a[i] == b[j] and not (i and j and a[i - 1] == b[j - 1]):
                size = 0
                while i + size < len(a) and j + size < len(b) and a[i + size] == b[j + size]:
                    size += 1
                runs.add((i, j, size))
    return runs


@pytest.mark.parametrize("seed", range(30))
def test_common_runs_are_every_maximal_diagonal(seed):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 6, int(rng.integers(0, 40))).tolist()
    b = (
        (a[5:25] + rng.integers(0, 6, int(rng.integers(0, 20))).tolist() + a[:10])
        if seed % 2
        else rng.integers(0, 6, int(rng.integers(0, 40))).tolist()
    )
    starts_a, starts_b, sizes = common_runs(np.array(a, dtype=np.int64), np.array(b, dtype=np.int64))
    found = set(zip(starts_a.tolist(), starts_b.tolist(), sizes.tolist(), strict=True))
    assert len(found) == len(sizes)
    assert found == _runs_by_brute_force(a, b)


def test_report_passages_find_moved_paragraphs_once_and_skip_blank_lines():
    first = "The first paragraph that both documents share, word for word, at the start."
    second = "A second paragraph that the other document moved to its end, also unchanged."
    left = f"{first}\n\n{second}\nonly left\n"
    right = f"{first}\n\n\nonly right\n   \n{second}\n"
    assert shared_passages_between(left, right) == [second, first]
    twice = f"{first}\n{first}\n"
    assert shared_passages_between(twice, twice) == [f"{first} {first}"]  # not once per diagonal
    often = np.zeros(40, dtype=np.int64)  # a line more than 16 times in the other text matches nowhere
    assert all(len(found) == 0 for found in common_runs(often, often))


def test_a_long_passage_is_cut_without_joining_the_whole_text():
    from tests.conftest import english_texts

    text = english_texts()["GPL-2"]
    [passage] = shared_passages_between(text, text, top=1, max_chars=300)
    assert len(passage) == 300 and passage.endswith("…")
    assert passage[:-1] == " ".join(text.split())[:299]


def test_report_passages_of_texts_laid_out_differently_ignore_line_breaks():
    from tests.conftest import english_texts

    text = english_texts()["GPL-2"]
    flowed = " ".join(text.split())  # a PDF's text against the file it was made from: no line in common
    reflowed = "\n".join(flowed[k : k + 57] for k in range(0, len(flowed), 57))
    passages = shared_passages_between(text, reflowed)
    assert len(passages) == 3 and all(len(p) >= 100 for p in passages)
    assert all(p.rstrip("…") in flowed for p in passages)
    assert shared_passages_between(text, english_texts()["Apache-2.0"]) == []


def test_a_share_of_differences_is_never_none_where_something_differs():
    """Said only where regions differ: differences that change no character once normalised (a comma's
    width, a letter's case) are still "less than 1 %", never "none"."""
    from neardup_gui.core.review.compare import share_in_words

    assert share_in_words(0.0) == share_in_words(0.004) == "less than 1 %"
    assert share_in_words(0.5) == "about 50 %" and share_in_words(0.995) == "more than 99 %"


_SPACES_AND_TEXT = st.text(alphabet=st.sampled_from(list(" \t\n\r\x0b\x0c\x1c\x1f\x85\xa0\u3000ab中-.")), max_size=60)


@given(_SPACES_AND_TEXT)
def test_lines_and_visible_characters_are_counted_as_str_split_counts_them(text):
    """The quick paths (``str.split`` where there is no CR; bytes for ASCII) count as the slow ones do."""
    from neardup_gui.core.review.compare import _LINE_BREAK, _visible_chars

    lines = _LINE_BREAK.split(text)
    if len(lines) > 1 and not lines[-1]:
        lines.pop()
    assert file_lines(text) == lines
    assert _visible_chars(text) == len("".join(text.split()))
