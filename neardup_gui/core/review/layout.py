"""Laying a comparison (``compare``) out for a fixed-width pane, the pair view's rows: the two sides
side by side, long lines wrapped at the pane's width. Display only: line numbers are the file's and the
changes marked are the comparison's, whatever the width.
"""

from __future__ import annotations

import heapq
import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from typing import overload

import numpy as np

from .compare import ChunkKind, Comparison, Line, Region, Segment

# characters two columns wide in a fixed-width font: Hangul Jamo, CJK, Hangul, compatibility and full-width forms
_WIDE_RANGES = (
    (0x1100, 0x115F), (0x2E80, 0xA4CF), (0xAC00, 0xD7A3), (0xF900, 0xFAFF), (0xFE30, 0xFE4F), (0xFF00, 0xFF60),
    (0xFFE0, 0xFFE6), (0x20000, 0x3FFFD),
)  # fmt: skip
_WIDE = re.compile("[" + "".join(f"{chr(low)}-{chr(high)}" for low, high in _WIDE_RANGES) + "]")


def display_width(text: str) -> int:
    """Columns a text takes in a fixed-width font: Han, kana, Hangul and full-width forms take two."""
    return len(text) + len(_WIDE.findall(text))


@dataclass(frozen=True, slots=True)
class RowSide:
    """One side of a display row: a line's first row and its continuation rows (wrapped) carry the
    line's number; ``continued`` tells them apart."""

    number: int
    continued: bool
    start: int  # where the row begins in the line (0 for a line's first row)
    segments: tuple[Segment, ...]
    quiet: bool
    changed: bool  # the line differs (it has changed words, or the other side lacks it)


@dataclass(frozen=True, slots=True)
class DisplayRow:
    kind: ChunkKind
    left: RowSide | None  # None: the other side has more rows here
    right: RowSide | None
    chunk: int  # index of the chunk the row shows


def wrap_points(text: str, columns: int, wide: float = 2.0) -> list[int]:
    """Where a line is broken to fit ``columns`` (0: never): the start of each row after the first.
    After a space where one is in the row's last third, else at the last character that fits. ``wide``
    is the width of a Han character in columns in the font used."""
    if columns <= 0 or len(text) * max(wide, 1.0) <= columns:
        return []
    if len(text) <= columns and (text.isascii() or len(text) + len(_WIDE.findall(text)) * (wide - 1) <= columns):
        return []
    ends = _column_ends(text, wide)  # ends[i]: the columns characters 0..i take
    points: list[int] = []
    start, length = 0, len(text)
    while True:
        base = ends[start - 1] if start else 0.0
        end = max(start + 1, int(np.searchsorted(ends, base + columns + 1e-9, side="right")))
        if end >= length:
            return points
        space = text.rfind(" ", start, end)
        if space >= start + (end - start) * 2 // 3:
            end = space + 1
        points.append(end)
        start = end


def _column_ends(text: str, wide: float) -> np.ndarray:
    """Cumulative columns of a text's characters (the same ranges as ``_WIDE``), vectorised."""
    codes = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)
    is_wide = np.zeros(len(codes), dtype=bool)
    for low, high in _WIDE_RANGES:
        is_wide |= (codes >= low) & (codes <= high)
    return np.cumsum(np.where(is_wide, wide, 1.0))


class Layout(Sequence[DisplayRow]):
    """A comparison as the rows of a fixed-width view, long lines wrapped at ``columns`` (0: never).
    A chunk's two sides stand side by side, the shorter one padded. Only the row counts are worked out
    up front; rows are made when asked for, so a view of a 1 MB text costs what its screen shows."""

    _CACHED_CHUNKS = 512

    def __init__(self, comparison: Comparison, columns: int, wide: float = 2.0) -> None:
        self.comparison, self.columns, self.wide = comparison, columns, wide
        offsets = [0]
        total = 0
        count = self._count
        for chunk in comparison.chunks:
            left, right = chunk.left, chunk.right
            if len(left) == 1 == len(right) and left[0].text == right[0].text:  # the same line: most of them
                total += count(left)
            else:
                total += max(count(left), count(right))
            offsets.append(total)
        self._offsets = offsets
        self._rows: dict[int, list[DisplayRow]] = {}

    def _count(self, lines: tuple[Line, ...]) -> int:
        columns = self.columns
        if not columns:
            return len(lines)
        fits = columns / max(self.wide, 1.0)
        rows = 0
        for line in lines:
            text = line.text
            if len(text) <= fits or (len(text) <= columns and text.isascii()):
                rows += 1
            else:
                rows += 1 + len(wrap_points(text, columns, self.wide))
        return rows

    def __len__(self) -> int:
        return self._offsets[-1]

    @overload
    def __getitem__(self, index: int) -> DisplayRow: ...

    @overload
    def __getitem__(self, index: slice) -> list[DisplayRow]: ...

    def __getitem__(self, index: int | slice) -> DisplayRow | list[DisplayRow]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        chunk = bisect_right(self._offsets, index) - 1
        return self._chunk_rows(chunk)[index - self._offsets[chunk]]

    def _chunk_rows(self, index: int) -> list[DisplayRow]:
        rows = self._rows.get(index)
        if rows is None:
            if len(self._rows) >= self._CACHED_CHUNKS:
                self._rows.clear()
            chunk = self.comparison.chunks[index]
            whole = chunk.kind in ("delete", "insert")
            left, right = self._side(chunk.left, whole), self._side(chunk.right, whole)
            rows = [
                DisplayRow(chunk.kind, left[k] if k < len(left) else None, right[k] if k < len(right) else None, index)
                for k in range(max(len(left), len(right)))
            ]
            self._rows[index] = rows
        return rows

    def _side(self, lines: tuple[Line, ...], whole: bool) -> list[RowSide]:
        out: list[RowSide] = []
        for line in lines:
            changed = whole or bool(line.changes)
            starts = [0, *wrap_points(line.text, self.columns, self.wide)]
            ends = [*starts[1:], len(line.text)]
            for k, (start, end) in enumerate(zip(starts, ends, strict=True)):
                if line.changes:
                    segments = line.segments(start, end)
                else:
                    segments = (Segment(line.text[start:end], False),) if end > start else ()
                out.append(RowSide(line.number, k > 0, start, segments, line.quiet, changed and not line.quiet))
        return out

    def chunk_rows(self, chunk: int) -> range:
        """The rows a chunk takes."""
        return range(self._offsets[chunk], self._offsets[chunk + 1])

    def change_rows(self) -> list[int]:
        """The row where each changed region begins, in order (next / previous difference): in a long
        line that wrapped, the row of the region's first changed words, not the line's first row."""
        return [self.row_of_change(region) for region in self.comparison.changed_regions]

    def row_of_change(self, region: Region) -> int:
        on_left, (number, start, _end) = region.first()
        rows = self.chunk_rows(region.chunk)
        found = rows.start
        for row in rows:
            side = self[row].left if on_left else self[row].right
            if side is not None and side.number == number:
                if side.start > start:
                    break
                found = row
        return found

    def change_spans(self) -> list[tuple[int, int, ChunkKind]]:
        """[start, end) runs of rows that show a change, and the change's kind (the overview beside the
        scroll bar): only the rows with changed lines, however long the chunk."""
        spans: list[tuple[int, int, ChunkKind]] = []
        for c, chunk in enumerate(self.comparison.chunks):
            if not chunk.is_change:
                continue
            for row in self._changed_rows(c):
                if spans and spans[-1][1] == row and spans[-1][2] == chunk.kind:
                    spans[-1] = (spans[-1][0], row + 1, chunk.kind)
                else:
                    spans.append((row, row + 1, chunk.kind))
        return spans

    def _changed_rows(self, chunk: int) -> list[int]:
        """Rows of a changed chunk with changed words, or with a line the other side lacks."""
        first = self._offsets[chunk]
        rows = self._chunk_rows(chunk)
        if self.comparison.chunks[chunk].kind in ("delete", "insert"):
            return list(range(first, first + len(rows)))
        return [
            first + k
            for k, row in enumerate(rows)
            if any(side is not None and any(s.changed for s in side.segments) for side in (row.left, row.right))
        ] or [first]

    def row_of_line(self, number: int, *, left: bool = True, offset: int = 0) -> int:
        """The row showing a file line of one side at ``offset`` characters into it (a long line wraps),
        or the nearest after it: keeping one's place when the width or the comparison changes."""
        for c, chunk in enumerate(self.comparison.chunks):
            lines = chunk.left if left else chunk.right
            if lines and lines[-1].number >= number:
                found = None
                for row in self.chunk_rows(c):
                    side = self[row].left if left else self[row].right
                    if side is None or side.number < number:
                        continue
                    if side.number > number or side.start > offset:
                        return found if found is not None else row
                    found = row
                if found is not None:
                    return found
        return max(0, len(self) - 1)

    def widest(self) -> int:
        """Columns of the widest line (how far a view that does not wrap scrolls sideways)."""
        longest = heapq.nlargest(
            50, (line.text for chunk in self.comparison.chunks for line in (*chunk.left, *chunk.right)), key=len
        )
        return max((display_width(text) for text in longest), default=0)
