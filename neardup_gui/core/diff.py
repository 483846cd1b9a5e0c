"""Side-by-side alignment of two texts for review: rows of left/right lines, changed words marked.

Lines longer than a screen (Chinese text often has no line breaks at all) are cut at sentence ends
first, so that the alignment stays useful. Inside a changed pair of lines, the changed words (Han:
characters) are marked. Long documents are shown as hunks: changed rows with a few rows of context.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Literal

from .jobs import NEVER_CANCELLED, CancelToken

RowKind = Literal["equal", "replace", "delete", "insert"]
_LONG_LINE = 240
_SENTENCE_END = re.compile(r"(?<=[。！？；!?;])|(?<=[.:])(?=\s)")
_WIDE = re.compile(
    r"[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\U00020000-\U0003fffd]"
)
_TOKEN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]|\w+|\s+|[^\w\s]", re.UNICODE)


@dataclass(frozen=True, slots=True)
class Segment:
    text: str
    changed: bool


@dataclass(frozen=True, slots=True)
class DiffRow:
    """One row of the side-by-side view; a side is None where the other text has no line."""

    kind: RowKind
    left_no: int | None
    left: tuple[Segment, ...] | None
    right_no: int | None
    right: tuple[Segment, ...] | None


@dataclass(frozen=True, slots=True)
class DiffStats:
    equal: int
    changed: int
    deleted: int
    inserted: int


def display_width(text: str) -> int:
    """Columns a text takes in a fixed-width font: Han, kana, Hangul and full-width forms take two."""
    return len(text) + len(_WIDE.findall(text))


def split_lines(text: str, width: int = _LONG_LINE) -> list[str]:
    """Lines of a text, those wider than ``width`` columns cut at sentence ends, else at a space,
    else where the width runs out."""
    lines: list[str] = []
    for line in text.splitlines():
        if 2 * len(line) <= width or display_width(line) <= width:  # no character is wider than 2
            lines.append(line)
            continue
        piece = ""
        for sentence in _SENTENCE_END.split(line):
            if piece and display_width(piece) + display_width(sentence) > width:
                lines.append(piece)
                piece = ""
            piece += sentence
            while display_width(piece) > width:
                cut = _cut_at(piece, width)
                lines.append(piece[:cut])
                piece = piece[cut:]
        if piece:
            lines.append(piece)
    return lines


def _cut_at(piece: str, width: int) -> int:
    """Where to cut ``piece`` so the first part fits ``width`` columns: after a space if one is in the
    last third, else at the last character that fits."""
    columns, fit = 0, 0
    for index, ch in enumerate(piece):
        columns += 2 if _WIDE.match(ch) else 1
        if columns > width:
            break
        fit = index + 1
    space = piece.rfind(" ", 0, fit)
    return space + 1 if space >= fit * 2 // 3 else max(fit, 1)


def side_by_side(
    left: str, right: str, *, width: int = _LONG_LINE, cancel: CancelToken = NEVER_CANCELLED
) -> list[DiffRow]:
    """Every row of the alignment of ``left`` and ``right`` (equal rows included); lines longer than
    ``width`` are cut first."""
    a, b = split_lines(left, width), split_lines(right, width)
    rows: list[DiffRow] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, a, b).get_opcodes():
        cancel.raise_if_cancelled()
        if tag == "equal":
            rows.extend(
                DiffRow("equal", i + 1, (Segment(a[i], False),), j + 1, (Segment(b[j], False),))
                for i, j in zip(range(i1, i2), range(j1, j2), strict=True)
            )
        elif tag == "delete":
            rows.extend(DiffRow("delete", i + 1, (Segment(a[i], True),), None, None) for i in range(i1, i2))
        elif tag == "insert":
            rows.extend(DiffRow("insert", None, None, j + 1, (Segment(b[j], True),)) for j in range(j1, j2))
        else:
            common = min(i2 - i1, j2 - j1)
            for k in range(common):
                left_segs, right_segs = mark_changes(a[i1 + k], b[j1 + k])
                rows.append(DiffRow("replace", i1 + k + 1, left_segs, j1 + k + 1, right_segs))
            rows.extend(DiffRow("delete", i + 1, (Segment(a[i], True),), None, None) for i in range(i1 + common, i2))
            rows.extend(DiffRow("insert", None, None, j + 1, (Segment(b[j], True),)) for j in range(j1 + common, j2))
    return rows


def mark_changes(left: str, right: str) -> tuple[tuple[Segment, ...], tuple[Segment, ...]]:
    """The two lines as segments, the words (Han: characters) that differ marked as changed."""
    ta, tb = _TOKEN.findall(left), _TOKEN.findall(right)
    out_a: list[Segment] = []
    out_b: list[Segment] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, ta, tb, autojunk=False).get_opcodes():
        changed = tag != "equal"
        if i2 > i1:
            _append(out_a, "".join(ta[i1:i2]), changed)
        if j2 > j1:
            _append(out_b, "".join(tb[j1:j2]), changed)
    return tuple(out_a), tuple(out_b)


def _append(out: list[Segment], text: str, changed: bool) -> None:
    if out and out[-1].changed == changed:
        out[-1] = Segment(out[-1].text + text, changed)
    else:
        out.append(Segment(text, changed))


def stats(rows: list[DiffRow]) -> DiffStats:
    counts = {"equal": 0, "replace": 0, "delete": 0, "insert": 0}
    for row in rows:
        counts[row.kind] += 1
    return DiffStats(counts["equal"], counts["replace"], counts["delete"], counts["insert"])


def hunks(rows: list[DiffRow], context: int = 3) -> list[tuple[int, int]]:
    """[start, end) ranges of rows to show: every changed row with ``context`` rows around it."""
    ranges: list[tuple[int, int]] = []
    for index, row in enumerate(rows):
        if row.kind == "equal":
            continue
        start, end = max(0, index - context), min(len(rows), index + context + 1)
        if ranges and start <= ranges[-1][1]:
            ranges[-1] = (ranges[-1][0], max(ranges[-1][1], end))
        else:
            ranges.append((start, end))
    return ranges


def change_rows(rows: list[DiffRow]) -> list[int]:
    """Indexes of the first row of each run of changed rows (for next/previous difference)."""
    starts = []
    for index, row in enumerate(rows):
        if row.kind != "equal" and (index == 0 or rows[index - 1].kind == "equal"):
            starts.append(index)
    return starts


def shared_passages(rows: list[DiffRow], top: int = 3, min_chars: int = 30, max_chars: int = 300) -> list[str]:
    """The longest passages both texts share word for word (runs of equal lines), longest first:
    the plainest answer to "why do these two match?". From an alignment already made for review."""
    runs: list[list[str]] = [[]]
    for row in rows:
        if row.kind == "equal" and row.left:
            runs[-1].append("".join(s.text for s in row.left))
        elif runs[-1]:
            runs.append([])
    return _best_passages(runs, top, min_chars, max_chars)


def shared_passages_between(
    left: str, right: str, top: int = 3, min_chars: int = 30, max_chars: int = 300
) -> list[str]:
    """shared_passages of two texts, without aligning the lines that differ (for reports)."""
    a, b = split_lines(left), split_lines(right)
    runs = [a[i : i + size] for i, _j, size in SequenceMatcher(None, a, b).get_matching_blocks() if size]
    return _best_passages(runs, top, min_chars, max_chars)


def _best_passages(runs: list[list[str]], top: int, min_chars: int, max_chars: int) -> list[str]:
    passages = [" ".join(" ".join(run).split()) for run in runs]
    passages = sorted((p for p in passages if len(p) >= min_chars), key=len, reverse=True)
    return [p if len(p) <= max_chars else p[: max_chars - 1] + "…" for p in passages[:top]]
