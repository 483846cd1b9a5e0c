from neardup_gui.core.diff import change_rows, display_width, hunks, shared_passages, side_by_side, split_lines, stats


def test_changed_words_are_marked_inside_changed_lines():
    rows = side_by_side("the quick brown fox\njumps over\n", "the quick red fox\njumps over\n")
    assert [r.kind for r in rows] == ["replace", "equal"]
    left, right = rows[0].left, rows[0].right
    assert [s.text for s in left if s.changed] == ["brown"]
    assert [s.text for s in right if s.changed] == ["red"]
    assert "".join(s.text for s in left) == "the quick brown fox"


def test_han_changes_are_marked_per_character():
    rows = side_by_side("上海浦东四季酒店", "上海浦东全季酒店")
    assert [s.text for s in rows[0].left if s.changed] == ["四"]
    assert [s.text for s in rows[0].right if s.changed] == ["全"]


def test_long_lines_are_cut_at_sentence_ends_then_spaces_and_fit_the_width():
    english = "word " * 200
    assert all(display_width(line) <= 60 for line in split_lines(english, 60))
    assert all(line.endswith(" ") for line in split_lines(english, 60)[:-1]), "cut at spaces, never inside a word"
    chinese = "近似重复文档的检测方法。" * 40
    lines = split_lines(chinese, 60)
    assert all(display_width(line) <= 60 for line in lines)
    assert all(line.endswith("。") for line in lines[:-1])
    assert "".join(lines) == chinese


def test_hunks_and_navigation_cover_every_change():
    left = "\n".join(f"line {n}" for n in range(100))
    right = left.replace("line 10", "line ten").replace("line 80", "line eighty")
    rows = side_by_side(left, right)
    assert stats(rows).changed == 2
    assert change_rows(rows) == [10, 80]
    assert hunks(rows, context=2) == [(8, 13), (78, 83)]


def test_identical_texts_have_no_changes():
    rows = side_by_side("a\nb\n", "a\nb\n")
    assert stats(rows).changed == stats(rows).deleted == stats(rows).inserted == 0
    assert hunks(rows) == []


def test_shared_passages_are_the_longest_equal_runs():
    common_long = "This paragraph is shared word for word by both documents and it is long."
    common_short = "A shorter shared line of text here."
    left = f"intro one\n{common_long}\n{common_long}\nmiddle left\n{common_short}\nend"
    right = f"intro two\n{common_long}\n{common_long}\nmiddle right\n{common_short}\nend"
    passages = shared_passages(side_by_side(left, right))
    assert passages[0] == f"{common_long} {common_long}"
    assert passages[1] == f"{common_short} end"  # the last line is shared too
    assert shared_passages(side_by_side("abc", "xyz")) == []


def test_report_passages_agree_with_the_review_alignment():
    from neardup_gui.core.diff import shared_passages_between
    from tests.conftest import english_texts, plant_edits

    left = english_texts()["GPL-2"]
    right = plant_edits(left, 0.01, seed=4)
    assert shared_passages_between(left, right) == shared_passages(side_by_side(left, right))
