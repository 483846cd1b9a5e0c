"""Comparing two texts for review: the app's pair view and the HTML report share it.

Texts are compared as the file's own lines, then within lines that differ by words (Han: by
characters). Only then are they laid out (``layout``): wrapping to a pane's width is display only, so
line numbers are the file's, and moving a wrap point can never make unchanged text look changed.

Ignoring layout (the default, as in every diff tool) compares what a reader reads: spacing, blank
lines, line breaks inside a paragraph, words hyphenated at a line end and page headers or footers that
repeat on every page of a PDF are not differences. Such lines are kept, shown quietly, and not counted.
"""

from __future__ import annotations

import dataclasses
import os
import re
import unicodedata
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Literal

import numpy as np

from ..fingerprint.chars import han_character_class
from ..fingerprint.text import nfkc
from ..i18n import translate
from ..jobs import NEVER_CANCELLED, CancelToken

ChunkKind = Literal["equal", "layout", "replace", "delete", "insert"]
"""equal: the same lines; layout: the same words laid out otherwise (quiet, never a difference);
replace / delete / insert: a difference."""
CHANGE_KINDS = frozenset({"replace", "delete", "insert"})
PAGE_BREAK = "\f"  # extract_pdf.PAGE_SEPARATOR puts it on a line of its own between a PDF's pages

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_HAN = han_character_class()  # the tokeniser's Han (chars.py): one table of Han ranges
_TOKEN = re.compile(rf"[{_HAN}]|[^\W{_HAN}]+|\s+|[^\w\s]", re.UNICODE)
_DIGITS = re.compile(r"\d+")
_SMALL = 250_000  # ranges up to this product go to difflib directly; larger ones are anchored first


@dataclass(frozen=True, slots=True)
class Segment:
    text: str
    changed: bool


@dataclass(frozen=True, slots=True)
class Line:
    """A line of a file: its number (1-based, as an editor counts), its text, the character spans that
    differ from the other text, and whether the comparison left it out (blank, or a page header)."""

    number: int
    text: str
    changes: tuple[tuple[int, int], ...] = ()
    quiet: bool = False

    def segments(self, start: int = 0, end: int | None = None) -> tuple[Segment, ...]:
        """The text from ``start`` to ``end`` as segments, the changed spans marked."""
        stop = len(self.text) if end is None else end
        out: list[Segment] = []
        at = start
        for a, b in self.changes:
            a, b = max(a, start), min(b, stop)
            if a >= b:
                continue
            if a > at:
                out.append(Segment(self.text[at:a], False))
            out.append(Segment(self.text[a:b], True))
            at = b
        if at < stop:
            out.append(Segment(self.text[at:stop], False))
        return tuple(out)


@dataclass(frozen=True, slots=True)
class Chunk:
    """Lines of the left text beside the lines of the right text they correspond to."""

    kind: ChunkKind
    left: tuple[Line, ...]
    right: tuple[Line, ...]

    @property
    def is_change(self) -> bool:
        return self.kind in CHANGE_KINDS


@dataclass(frozen=True, slots=True)
class Region:
    """A place where the texts differ, as a person steps through them (next / previous difference):
    changes with fewer than ``REGION_GAP`` unchanged characters between them, on either side. The spans
    are (line number, start, end) in each file; a line only one side has is one span, the whole line."""

    chunk: int  # the chunk of its first change
    left: tuple[tuple[int, int, int], ...]
    right: tuple[tuple[int, int, int], ...]

    def first(self) -> tuple[bool, tuple[int, int, int]]:
        """The side (True: left) and span where the region begins (the left on a tie)."""
        if self.left and (not self.right or self.left[0] <= self.right[0]):
            return True, self.left[0]
        return False, self.right[0]


REGION_GAP = 40
"""Unchanged characters (white space aside) that separate two changed regions: about a clause. Closer
changes are one place to look at; farther ones are stepped to one by one, even inside one long line."""
REGION_EXTENT = 400
"""Characters a region covers at most before any unchanged text ends it (a text rewritten throughout is
still stepped through a passage at a time)."""


@dataclass(frozen=True, slots=True)
class Comparison:
    """Two texts compared. ``share`` is the part of both texts' characters (white space aside) that
    differs; ``changed_regions`` are the places a person steps through (``regions`` counts them)."""

    chunks: tuple[Chunk, ...]
    ignore_layout: bool
    changed_chars: int
    total_chars: int
    changed_regions: tuple[Region, ...]
    layout_differs: bool  # some lines differ only in layout (ignored)
    complete: bool = True  # False: only the first screen's worth (``first_screen``); the numbers are partial

    @property
    def regions(self) -> int:
        return len(self.changed_regions)

    @property
    def share(self) -> float:
        return self.changed_chars / self.total_chars if self.total_chars else 0.0

    def swapped(self) -> Comparison:
        """The same comparison seen from the other side (right against left)."""
        other: dict[ChunkKind, ChunkKind] = {"delete": "insert", "insert": "delete"}
        return Comparison(
            chunks=tuple(Chunk(other.get(c.kind, c.kind), c.right, c.left) for c in self.chunks),
            ignore_layout=self.ignore_layout,
            changed_chars=self.changed_chars,
            total_chars=self.total_chars,
            changed_regions=tuple(Region(r.chunk, r.right, r.left) for r in self.changed_regions),
            layout_differs=self.layout_differs,
            complete=self.complete,
        )


def file_lines(text: str) -> list[str]:
    """The lines of a text as a text editor numbers them: CRLF, CR and LF end a line (nothing else does),
    and a line break at the very end opens no new line."""
    lines = _LINE_BREAK.split(text) if "\r" in text else text.split("\n")  # the same lines, str's split faster
    if len(lines) > 1 and not lines[-1]:
        lines.pop()
    return lines


# -- comparing ------------------------------------------------------------------------------------


def compare(left: str, right: str, *, ignore_layout: bool = True, cancel: CancelToken = NEVER_CANCELLED) -> Comparison:
    """Compare two texts line by line, then word by word (Han: character by character) inside lines
    that differ. Independent of any width; lay it out with ``Layout``. Symmetric: the texts compared
    the other way round give the same changes, sides swapped (the alignment is always worked out in
    one order)."""
    if right < left:
        return _compare(right, left, ignore_layout, cancel).swapped()
    return _compare(left, right, ignore_layout, cancel)


FIRST_SCREEN_CHARS = 20_000
"""Characters after the first difference that ``first_screen`` compares: several screens' worth."""


def first_screen(
    left: str, right: str, *, ignore_layout: bool = True, cancel: CancelToken = NEVER_CANCELLED
) -> Comparison:
    """What a view shows first while ``compare`` works through the whole texts: the two texts compared
    from the line where they first differ (a few lines before it) to ``FIRST_SCREEN_CHARS`` after it,
    with the file's line numbers. Costs the same for a 1 MB text as for a 20 KB one. Not ``complete``:
    its counts cover the window only, and the last lines of the window may align otherwise in the whole.
    Ignoring layout, the texts first differ where their characters other than white space do (a printout's
    lines break elsewhere long before its first change)."""
    if ignore_layout:
        first_left, first_right = _first_visible_difference(left, right)
    else:
        first_left = first_right = _first_difference(left, right)
    start_left = _line_start_before(left, first_left, lines_back=20)
    start_right = _line_start_before(right, first_right, lines_back=20)
    window = compare(
        left[start_left : _line_end_after(left, first_left + FIRST_SCREEN_CHARS)],
        right[start_right : _line_end_after(right, first_right + FIRST_SCREEN_CHARS)],
        ignore_layout=ignore_layout,
        cancel=cancel,
    )
    numbers = (_lines_before(left, start_left), _lines_before(right, start_right))
    return dataclasses.replace(_renumbered(window, *numbers), complete=False)


_SPACE = np.array([chr(c).isspace() for c in range(0x3001)])
"""Which code points below U+3001 are white space (U+3000, the ideographic space, the last of them)."""


def _visible(text: str) -> tuple[np.ndarray, np.ndarray]:
    """The code points of a text other than white space, and where each is."""
    codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    low = codes < len(_SPACE)
    space = np.zeros(len(codes), dtype=bool)
    space[low] = _SPACE[codes[low]]
    at = np.flatnonzero(~space)
    return codes[at], at


def _first_visible_difference(a: str, b: str) -> tuple[int, int]:
    """Where two texts first differ in a character other than white space: an index into each (the
    text's length where one text's visible characters begin the other's)."""
    codes_a, at_a = _visible(a)
    codes_b, at_b = _visible(b)
    n = min(len(codes_a), len(codes_b))
    differ = np.flatnonzero(codes_a[:n] != codes_b[:n])
    k = int(differ[0]) if len(differ) else n
    return (int(at_a[k]) if k < len(at_a) else len(a)), (int(at_b[k]) if k < len(at_b) else len(b))


def _first_difference(a: str, b: str) -> int:
    """The first index where two texts differ (the shorter one's length if one begins the other):
    a binary search over slices compared in C, not a character loop."""
    low, high = 0, min(len(a), len(b))
    while low < high:
        middle = (low + high + 1) // 2
        if a[low:middle] == b[low:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _line_start_before(text: str, position: int, lines_back: int) -> int:
    """The start of the line ``lines_back`` lines above the one holding ``position``."""
    search_to = position
    line_start = 0
    for _ in range(lines_back + 1):
        brk = max(text.rfind("\n", 0, search_to), text.rfind("\r", 0, search_to))
        if brk < 0:
            return 0
        line_start = brk + 1
        search_to = brk - 1 if text[brk] == "\n" and brk > 0 and text[brk - 1] == "\r" else brk  # CRLF: one break
    return line_start


def _line_end_after(text: str, position: int, reach: int = 2_000) -> int:
    """Where the line holding ``position`` ends, if within ``reach``; else ``position`` (a long line is
    cut: the window is only the first screens)."""
    if position >= len(text):
        return len(text)
    found = _LINE_BREAK.search(text, position, position + reach)
    return found.start() if found else position


def _lines_before(text: str, position: int) -> int:
    """Lines that end before ``position`` (which starts a line)."""
    if "\r" not in text[:position]:
        return text.count("\n", 0, position)
    return len(_LINE_BREAK.findall(text, 0, position))


def _renumbered(comparison: Comparison, left: int, right: int) -> Comparison:
    """A comparison of two windows with the numbers of the lines in the files they were cut from (the
    windows begin after ``left`` and ``right`` lines)."""
    if not left and not right:
        return comparison

    def lines(side: tuple[Line, ...], offset: int) -> tuple[Line, ...]:
        return tuple(dataclasses.replace(line, number=line.number + offset) for line in side)

    def spans(side: tuple[tuple[int, int, int], ...], offset: int) -> tuple[tuple[int, int, int], ...]:
        return tuple((number + offset, start, end) for number, start, end in side)

    return dataclasses.replace(
        comparison,
        chunks=tuple(Chunk(c.kind, lines(c.left, left), lines(c.right, right)) for c in comparison.chunks),
        changed_regions=tuple(
            Region(r.chunk, spans(r.left, left), spans(r.right, right)) for r in comparison.changed_regions
        ),
    )


def _compare(left: str, right: str, ignore_layout: bool, cancel: CancelToken) -> Comparison:
    lines_a, lines_b = file_lines(left), file_lines(right)
    quiet_a = _quiet_lines(lines_a) if ignore_layout else frozenset()
    quiet_b = _quiet_lines(lines_b) if ignore_layout else frozenset()
    kept_a = [i for i in range(len(lines_a)) if i not in quiet_a]
    kept_b = [j for j in range(len(lines_b)) if j not in quiet_b]
    keys_a = _line_keys(left, lines_a, kept_a, ignore_layout)
    keys_b = _line_keys(right, lines_b, kept_b, ignore_layout)
    builder = _Builder(lines_a, lines_b, kept_a, kept_b, quiet_a, quiet_b)
    for tag, i1, i2, j1, j2 in _without_slivers(_opcodes(keys_a, keys_b, cancel), keys_a, _LINE_SLIVER):
        cancel.raise_if_cancelled()
        if tag == "equal":
            builder.add_equal(i1, i2, j1, j2)
        else:
            for sub in _compare_block(
                [lines_a[kept_a[i]] for i in range(i1, i2)],
                [lines_b[kept_b[j]] for j in range(j1, j2)],
                ignore_layout,
                cancel,
            ):
                builder.add(
                    sub.kind,
                    i1 + sub.a1,
                    i1 + sub.a2,
                    j1 + sub.b1,
                    j1 + sub.b2,
                    {i1 + n: spans for n, spans in sub.changes_a.items()},
                    {j1 + n: spans for n, spans in sub.changes_b.items()},
                )
                builder.changed_chars += sub.changed_chars
    chunks = builder.finish()
    total = (
        _visible_chars(left)
        + _visible_chars(right)
        - sum(_visible_chars(lines_a[i]) for i in quiet_a)
        - sum(_visible_chars(lines_b[j]) for j in quiet_b)
    )
    return Comparison(
        chunks=tuple(chunks),
        ignore_layout=ignore_layout,
        changed_chars=builder.changed_chars,
        total_chars=total,
        changed_regions=_regions(chunks),
        layout_differs=any(c.kind == "layout" for c in chunks),
    )


def _line_keys(text: str, lines: list[str], kept: list[int], ignore_layout: bool) -> list[str]:
    """What two lines must share to be the same line: their text, or ignoring layout their words
    (NFKC forms, spacing collapsed)."""
    if not ignore_layout:
        return [lines[i] for i in kept]
    if not text.isascii():
        normalised = file_lines(nfkc(text))
        # NFKC never joins or splits lines; checked all the same
        one_for_one = len(normalised) == len(lines)
        lines = normalised if one_for_one else [nfkc(line) for line in lines]
    return [" ".join(lines[i].split()) for i in kept]


_ASCII_SPACE = bytes(c for c in range(128) if chr(c).isspace())


def _visible_chars(text: str) -> int:
    """Characters that are not white space (as ``str.split`` knows it)."""
    if text.isascii():  # the same count, without a string for each word
        return len(text.encode("ascii").translate(None, _ASCII_SPACE))
    return len("".join(text.split()))


def _quiet_lines(lines: list[str]) -> frozenset[int]:
    """Lines a reader does not read as text: blank ones, and a PDF's running headers and footers (the
    first or last two lines of a page, digits aside, the same on at least half of three or more pages)."""
    blank = {i for i, line in enumerate(lines) if not line.strip()}
    pages: list[list[int]] = [[]]
    for i, line in enumerate(lines):
        if PAGE_BREAK in line and not line.strip():
            pages.append([])
        elif i not in blank:
            pages[-1].append(i)
    pages = [page for page in pages if page]
    if len(pages) < 3:
        return frozenset(blank)
    edge_keys = Counter[str]()
    edges: list[tuple[int, str]] = []
    for page in pages:
        seen: set[str] = set()
        for i in page[:2] + page[-2:]:
            line_key = _DIGITS.sub("#", " ".join(lines[i].split()))
            edges.append((i, line_key))
            if line_key not in seen:
                seen.add(line_key)
                edge_keys[line_key] += 1
    repeated = {k for k, n in edge_keys.items() if n >= max(3, (len(pages) + 1) // 2)}
    return frozenset(blank | {i for i, line_key in edges if line_key in repeated})


@dataclass(frozen=True, slots=True)
class _SubChunk:
    kind: ChunkKind
    a1: int
    a2: int
    b1: int
    b2: int
    changes_a: dict[int, list[tuple[int, int]]]  # line (relative to the block) -> changed spans
    changes_b: dict[int, list[tuple[int, int]]]
    changed_chars: int


_HYPHEN_AT_END = re.compile(r"[^\W\d_]-\s*$")
_LETTER_AT_START = re.compile(r"\s*[^\W\d_]")
_JOIN = "\x00"  # joins a word hyphenated at a line's end to its end on the next line
_UNIT_LOOSE = re.compile(r"[^。！？；，、：!?;.]*[。！？；，、：!?;.]*")  # a clause, line breaks inside it
_UNIT_EXACT = re.compile(r"[^。！？；，、：!?;.\n]*(?:[。！？；，、：!?;.]+|\n)?")  # a clause, or the rest of a line


@dataclass(frozen=True, slots=True)
class _Token:
    key: str
    start: int  # in the block's stream
    end: int
    visible: int  # characters that are not white space


class _Stream:
    """A block's lines as one text, so that sentences can run across line breaks when layout is ignored
    (a PDF's lines against a paragraph on one line). Positions map back to (line, column)."""

    def __init__(self, lines: list[str], ignore_layout: bool) -> None:
        self.lines, self.ignore_layout = lines, ignore_layout
        parts: list[str] = []
        starts: list[int] = []
        at = 0
        for k, line in enumerate(lines):
            starts.append(at)
            parts.append(line)
            at += len(line)
            if k + 1 < len(lines):
                hyphenated = ignore_layout and _HYPHEN_AT_END.search(line) and _LETTER_AT_START.match(lines[k + 1])
                parts.append(_JOIN if hyphenated else "\n")
                at += 1
        self.text = "".join(parts)
        self.starts = starts
        # where a line's text begins: its start, and its first character that is not white space
        indents = (at + len(line) - len(line.lstrip()) for at, line in zip(starts, lines, strict=True))
        self._heads = set(starts) | set(indents)

    def units(self) -> tuple[list[int], list[int], list[str]]:
        """Sentences (and, comparing exactly, the rest of each line): starts, ends and what must be the
        same for two of them to be equal."""
        starts: list[int] = []
        ends: list[int] = []
        keys: list[str] = []
        pattern = _UNIT_LOOSE if self.ignore_layout else _UNIT_EXACT
        folded = nfkc(self.text) if self.ignore_layout else self.text
        one_for_one = len(folded) == len(self.text)  # else each piece is folded by itself
        for match in pattern.finditer(self.text):
            a, b = match.span()
            if a == b:
                continue
            piece = match.group()
            if self.ignore_layout:
                piece_key = folded[a:b] if one_for_one else nfkc(piece)
                key = " ".join(piece_key.replace("-" + _JOIN, "").split())
                if not key:
                    continue
                a += len(piece) - len(piece.lstrip())
            else:
                key = piece
            starts.append(a)
            ends.append(b)
            keys.append(key)
        return starts, ends, keys

    def tokens(self, start: int, end: int) -> list[_Token]:
        """Words (Han: characters) between two positions; ignoring layout, without white space, in NFKC
        forms, a hyphenated word one token."""
        out: list[_Token] = []
        text = self.text
        keys = text
        if self.ignore_layout and not unicodedata.is_normalized("NFKC", text[start:end]):
            folded = nfkc(text[start:end])
            # one for one (full-width forms): keys read from the folded copy; else token by token
            keys = " " * start + folded if len(folded) == end - start else ""
        for match in _TOKEN.finditer(text, start, end):
            piece = match.group()
            a, b = match.span()
            if piece.isspace() or piece == _JOIN:
                if not self.ignore_layout and "\n" in piece:  # comparing exactly, a blank line is a token
                    out.extend(self._blank_lines(a, b))
                continue  # else compared apart, between words that match (``_spacing_changes``)
            if not self.ignore_layout:
                out.append(_Token(piece, a, b, len(piece)))
                continue
            key = keys[a:b] if keys else nfkc(piece)
            if (
                len(out) >= 2
                and out[-1].key == "-"
                and text.startswith(_JOIN, out[-1].end)
                and out[-2].end == out[-1].start
                and key[:1].isalpha()
            ):
                out.pop()
                word = out.pop()
                out.append(_Token(word.key + key, word.start, b, word.visible + 1 + len(piece)))
                continue
            out.append(_Token(key, a, b, len(piece)))
        return out

    def _blank_lines(self, start: int, end: int) -> Iterator[_Token]:
        """Tokens for the blank lines that lie wholly inside white space from ``start`` to ``end``."""
        line = self.line_of(start)
        if self.starts[line] < start:
            line += 1
        while line < len(self.lines) and self.starts[line] + len(self.lines[line]) <= end:
            yield _Token("\n" + self.lines[line], self.starts[line], self.starts[line] + len(self.lines[line]), 0)
            line += 1

    def line_of(self, position: int) -> int:
        return bisect_right(self.starts, position) - 1

    def starts_line(self, position: int) -> bool:
        """Nothing but white space before ``position`` on its line."""
        return position in self._heads

    def line_spans(self, start: int, end: int) -> Iterator[tuple[int, int, int]]:
        """A range of the stream as (line, start, end) pieces."""
        line = self.line_of(start)
        while start < end and line < len(self.lines):
            line_start = self.starts[line]
            stop = min(end, line_start + len(self.lines[line]))
            if stop > start:
                yield line, start - line_start, stop - line_start
            line += 1
            if line < len(self.starts):
                start = max(start, self.starts[line])


def _compare_block(
    lines_a: list[str], lines_b: list[str], ignore_layout: bool, cancel: CancelToken
) -> Iterator[_SubChunk]:
    """Lines that differ: compared sentence by sentence, then word by word inside the sentences that
    differ; then cut where both sides start a line at the same text, so that each part is shown beside
    its own counterpart."""
    stream_a, stream_b = _Stream(lines_a, ignore_layout), _Stream(lines_b, ignore_layout)
    starts_a, ends_a, keys_a = stream_a.units()
    starts_b, ends_b, keys_b = stream_b.units()
    changed_a: list[_Token] = []
    changed_b: list[_Token] = []
    cuts: list[tuple[int, int]] = [(0, 0), (len(lines_a), len(lines_b))]

    def cut_where_both_start_lines(position_a: int, position_b: int) -> None:
        if stream_a.starts_line(position_a) and stream_b.starts_line(position_b):
            cuts.append((stream_a.line_of(position_a), stream_b.line_of(position_b)))

    def boundary(stream: _Stream, position: int | None, count: int) -> int | None:
        """The line a position begins, or the block's end; None inside a line."""
        if position is None:
            return count
        return stream.line_of(position) if stream.starts_line(position) else None

    for tag, i1, i2, j1, j2 in _without_slivers(_opcodes(keys_a, keys_b, cancel), keys_a, _UNIT_SLIVER):
        if tag == "equal":
            for k in range(i2 - i1):
                cut_where_both_start_lines(starts_a[i1 + k], starts_b[j1 + k])
            continue
        range_a = (starts_a[i1], ends_a[i2 - 1]) if i2 > i1 else (0, 0)
        range_b = (starts_b[j1], ends_b[j2 - 1]) if j2 > j1 else (0, 0)
        tokens_a, tokens_b = stream_a.tokens(*range_a), stream_b.tokens(*range_b)
        for ttag, x1, x2, y1, y2 in _opcodes([t.key for t in tokens_a], [t.key for t in tokens_b], cancel):
            if ttag == "equal":
                for k in range(x2 - x1):
                    cut_where_both_start_lines(tokens_a[x1 + k].start, tokens_b[y1 + k].start)
                if not ignore_layout:
                    spaces_a, spaces_b = _spacing_changes(
                        (stream_a, tokens_a, x1, range_a), (stream_b, tokens_b, y1, range_b), x2 - x1
                    )
                    changed_a.extend(spaces_a)
                    changed_b.extend(spaces_b)
                continue
            changed_a.extend(tokens_a[x1:x2])
            changed_b.extend(tokens_b[y1:y2])
            # whole lines on one side only: a part of their own
            before_a = boundary(stream_a, tokens_a[x1].start if x1 < len(tokens_a) else None, len(lines_a))
            before_b = boundary(stream_b, tokens_b[y1].start if y1 < len(tokens_b) else None, len(lines_b))
            after_a = boundary(stream_a, tokens_a[x2].start if x2 < len(tokens_a) else None, len(lines_a))
            after_b = boundary(stream_b, tokens_b[y2].start if y2 < len(tokens_b) else None, len(lines_b))
            if None not in (before_a, before_b, after_a, after_b):
                cuts.extend([(before_a, before_b), (after_a, after_b)])  # type: ignore[list-item]
    cuts = _monotone(cuts)

    spans_a, chars_a = _changed_lines(stream_a, changed_a)
    spans_b, chars_b = _changed_lines(stream_b, changed_b)
    for (a1, b1), (a2, b2) in zip(cuts, cuts[1:], strict=False):
        part_a = {n: spans_a[n] for n in range(a1, a2) if n in spans_a}
        part_b = {n: spans_b[n] for n in range(b1, b2) if n in spans_b}
        chars = sum(chars_a.get(n, 0) for n in range(a1, a2)) + sum(chars_b.get(n, 0) for n in range(b1, b2))
        changed = chars > 0 or bool(part_a) or bool(part_b)
        if not changed and not ignore_layout and lines_a[a1:a2] != lines_b[b1:b2]:
            # comparing exactly, only white space differs here: indentation, blank lines
            part_a, part_b = _spacing_spans(lines_a[a1:a2], lines_b[b1:b2], a1, b1)
            changed = True
        if not changed and a2 - a1 == b2 - b1:
            for k in range(a2 - a1):
                same = lines_a[a1 + k] == lines_b[b1 + k]
                yield _SubChunk("equal" if same else "layout", a1 + k, a1 + k + 1, b1 + k, b1 + k + 1, {}, {}, 0)
            continue
        if not changed:
            kind: ChunkKind = "layout"
        elif a1 == a2:
            kind = "insert"
        elif b1 == b2:
            kind = "delete"
        else:
            kind = "replace"
        yield _SubChunk(kind, a1, a2, b1, b2, part_a, part_b, chars)


def _spacing_spans(
    lines_a: list[str], lines_b: list[str], first_a: int, first_b: int
) -> tuple[dict[int, list[tuple[int, int]]], dict[int, list[tuple[int, int]]]]:
    """Comparing exactly, lines whose words are the same but not their white space: a line the other
    side lacks (a blank line) is marked whole, a line beside its counterpart from its first to its last
    differing character. Keyed by line in the block (``first_*`` is the part's first line)."""
    spans_a: dict[int, list[tuple[int, int]]] = {}
    spans_b: dict[int, list[tuple[int, int]]] = {}
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, lines_a, lines_b, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        for k in range(max(i2 - i1, j2 - j1)):
            x = lines_a[i1 + k] if i1 + k < i2 else None
            y = lines_b[j1 + k] if j1 + k < j2 else None
            if x is None or y is None:
                if x is not None:
                    spans_a[first_a + i1 + k] = [(0, len(x))]
                if y is not None:
                    spans_b[first_b + j1 + k] = [(0, len(y))]
                continue
            head = len(os.path.commonprefix([x, y]))
            tail = min(len(os.path.commonprefix([x[head:][::-1], y[head:][::-1]])), len(x) - head, len(y) - head)
            spans_a[first_a + i1 + k] = [(head, len(x) - tail)]
            spans_b[first_b + j1 + k] = [(head, len(y) - tail)]
    return spans_a, spans_b


def _spacing_changes(
    a: tuple[_Stream, list[_Token], int, tuple[int, int]],
    b: tuple[_Stream, list[_Token], int, tuple[int, int]],
    count: int,
) -> tuple[list[_Token], list[_Token]]:
    """Comparing exactly: the white space after each of ``count`` matching words (stream, tokens, first
    word, range of each side), where it differs, as spans to mark on each side."""
    out_a: list[_Token] = []
    out_b: list[_Token] = []
    (stream_a, tokens_a, first_a, limits_a), (stream_b, tokens_b, first_b, limits_b) = a, b
    for k in range(count):
        gap_a = _gap_after(tokens_a, first_a + k, limits_a)
        gap_b = _gap_after(tokens_b, first_b + k, limits_b)
        if stream_a.text[gap_a[0] : gap_a[1]] != stream_b.text[gap_b[0] : gap_b[1]]:
            out_a.append(_Token("", *gap_a, 0))
            out_b.append(_Token("", *gap_b, 0))
    return out_a, out_b


def _gap_after(tokens: list[_Token], index: int, limits: tuple[int, int]) -> tuple[int, int]:
    start = tokens[index].end
    return start, tokens[index + 1].start if index + 1 < len(tokens) else max(start, limits[1])


def _monotone(cuts: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Cut points in order, each after the one before on both sides (no part runs backwards)."""
    out: list[tuple[int, int]] = []
    for a, b in sorted(set(cuts)):
        if not out or (a >= out[-1][0] and b >= out[-1][1]):
            out.append((a, b))
    return out


def _changed_lines(stream: _Stream, tokens: list[_Token]) -> tuple[dict[int, list[tuple[int, int]]], dict[int, int]]:
    """Changed spans by line, spans with only white space between them made one (a changed phrase);
    and the changed characters (white space aside) by line."""
    spans: dict[int, list[tuple[int, int]]] = {}
    chars: dict[int, int] = {}
    for token in tokens:
        if token.start == token.end and token.key.startswith("\n"):  # an empty line, marked as a whole
            spans.setdefault(stream.line_of(token.start), []).append((0, 0))
            continue
        for line, start, end in stream.line_spans(token.start, token.end):
            line_spans = spans.setdefault(line, [])
            if line_spans and not stream.lines[line][line_spans[-1][1] : start].strip():
                line_spans[-1] = (line_spans[-1][0], end)
            else:
                line_spans.append((start, end))
        if token.visible:
            line = stream.line_of(token.start)
            chars[line] = chars.get(line, 0) + token.visible
    return spans, chars


class _Builder:
    """Turns parts over the compared lines into chunks over the file's lines, the quiet lines (blank,
    page headers) put back where they stand, side by side when both texts have them at one place."""

    def __init__(
        self,
        lines_a: list[str],
        lines_b: list[str],
        kept_a: list[int],
        kept_b: list[int],
        quiet_a: frozenset[int],
        quiet_b: frozenset[int],
    ) -> None:
        self.lines_a, self.lines_b = lines_a, lines_b
        self.kept_a, self.kept_b = kept_a, kept_b
        self.quiet_a, self.quiet_b = quiet_a, quiet_b
        self.next_a = self.next_b = 0  # the next file line of each side not yet placed
        self.chunks: list[Chunk] = []
        self.changed_chars = 0

    def add_equal(self, i1: int, i2: int, j1: int, j2: int) -> None:
        """Compared lines that match one for one (the same text, or the same but for spacing)."""
        kept_a, kept_b, lines_a, lines_b = self.kept_a, self.kept_b, self.lines_a, self.lines_b
        append, line_, chunk_ = self.chunks.append, Line, Chunk
        next_a, next_b = self.next_a, self.next_b
        for fa, fb in zip(kept_a[i1:i2], kept_b[j1:j2], strict=True):
            if fa != next_a or fb != next_b:
                self.next_a, self.next_b = next_a, next_b
                self._flush_quiet(fa, fb)
            ta, tb = lines_a[fa], lines_b[fb]
            append(chunk_("equal" if ta == tb else "layout", (line_(fa + 1, ta),), (line_(fb + 1, tb),)))
            next_a, next_b = fa + 1, fb + 1
        self.next_a, self.next_b = next_a, next_b

    def _file_index(self, kept: list[int], i: int, count: int) -> int:
        return kept[i] if i < len(kept) else count

    def _flush_quiet(self, upto_a: int, upto_b: int) -> None:
        a = tuple(Line(i + 1, self.lines_a[i], quiet=True) for i in range(self.next_a, upto_a))
        b = tuple(Line(j + 1, self.lines_b[j], quiet=True) for j in range(self.next_b, upto_b))
        self.next_a, self.next_b = max(self.next_a, upto_a), max(self.next_b, upto_b)
        if a or b:
            same = [line.text for line in a] == [line.text for line in b]
            self.chunks.append(Chunk("equal" if same else "layout", a, b))

    def add(
        self,
        kind: ChunkKind,
        a1: int,
        a2: int,
        b1: int,
        b2: int,
        changes_a: dict[int, list[tuple[int, int]]] | None = None,
        changes_b: dict[int, list[tuple[int, int]]] | None = None,
    ) -> None:
        """A part over compared lines [a1, a2) and [b1, b2); ``changes`` by compared line."""
        self._flush_quiet(
            self._file_index(self.kept_a, a1, len(self.lines_a)), self._file_index(self.kept_b, b1, len(self.lines_b))
        )
        left = self._lines(self.lines_a, self.kept_a, self.quiet_a, a1, a2, changes_a or {})
        right = self._lines(self.lines_b, self.kept_b, self.quiet_b, b1, b2, changes_b or {})
        if a2 > a1:
            self.next_a = self.kept_a[a2 - 1] + 1
        if b2 > b1:
            self.next_b = self.kept_b[b2 - 1] + 1
        self.chunks.append(Chunk(kind, left, right))

    def _lines(
        self,
        lines: list[str],
        kept: list[int],
        quiet: frozenset[int],
        start: int,
        end: int,
        changes: dict[int, list[tuple[int, int]]],
    ) -> tuple[Line, ...]:
        """The file's lines from compared line ``start`` to ``end``: quiet lines between them included."""
        if end <= start:
            return ()
        out: list[Line] = []
        for index in range(kept[start], kept[end - 1] + 1):
            if index in quiet:
                out.append(Line(index + 1, lines[index], quiet=True))
                continue
            out.append(Line(index + 1, lines[index], tuple(changes.get(bisect_left(kept, index, start, end), ()))))
        return tuple(out)

    def finish(self) -> list[Chunk]:
        self._flush_quiet(len(self.lines_a), len(self.lines_b))
        return self.chunks


# -- aligning sequences ----------------------------------------------------------------------------


def _opcodes(a: Sequence[Hashable], b: Sequence[Hashable], cancel: CancelToken) -> list[tuple[str, int, int, int, int]]:
    """difflib's opcodes for two sequences, fast on long near-copies: the common ends are matched
    first, long ranges are anchored on items that occur once on each side (patience diff), and only
    what lies between anchors goes to difflib."""
    blocks: list[tuple[int, int, int]] = []
    _match(a, b, 0, len(a), 0, len(b), blocks, cancel)
    blocks.sort()
    merged: list[tuple[int, int, int]] = []
    for i, j, n in blocks:
        if merged and merged[-1][0] + merged[-1][2] == i and merged[-1][1] + merged[-1][2] == j:
            merged[-1] = (merged[-1][0], merged[-1][1], merged[-1][2] + n)
        elif n:
            merged.append((i, j, n))
    ops: list[tuple[str, int, int, int, int]] = []
    i = j = 0
    for ai, bj, n in [*merged, (len(a), len(b), 0)]:
        if i < ai and j < bj:
            ops.append(("replace", i, ai, j, bj))
        elif i < ai:
            ops.append(("delete", i, ai, j, j))
        elif j < bj:
            ops.append(("insert", i, i, j, bj))
        if n:
            ops.append(("equal", ai, ai + n, bj, bj + n))
        i, j = ai + n, bj + n
    return ops


# characters: an equal run this short between two changes is a coincidence, not an anchor
_LINE_SLIVER = 4  # blank lines, "}", "1."
_UNIT_SLIVER = 24  # a comma, a short clause


def _without_slivers(
    ops: list[tuple[str, int, int, int, int]], keys: Sequence[str], sliver: int
) -> list[tuple[str, int, int, int, int]]:
    """Opcodes with short equal runs between changes (a blank line, "1.", a comma) folded into the changes
    around them, so that the next, finer comparison sees whole passages: a line or a clause matched by
    chance far from its place would otherwise tear a moved passage into false changes."""
    out: list[tuple[str, int, int, int, int]] = []
    for index, op in enumerate(ops):
        tag, i1, i2, j1, j2 = op
        if tag == "equal" and 0 < index < len(ops) - 1 and sum(len(keys[i]) for i in range(i1, i2)) < sliver:
            tag = "replace"
        if tag != "equal" and out and out[-1][0] != "equal":
            _t, p1, _p2, q1, _q2 = out[-1]
            out[-1] = ("replace", p1, i2, q1, j2)
        else:
            out.append((tag, i1, i2, j1, j2))
    return out


def _match(
    a: Sequence[Hashable],
    b: Sequence[Hashable],
    alo: int,
    ahi: int,
    blo: int,
    bhi: int,
    out: list[tuple[int, int, int]],
    cancel: CancelToken,
) -> None:
    cancel.raise_if_cancelled()
    n = 0
    while alo + n < ahi and blo + n < bhi and a[alo + n] == b[blo + n]:
        n += 1
    if n:
        out.append((alo, blo, n))
        alo, blo = alo + n, blo + n
    m = 0
    while ahi - m > alo and bhi - m > blo and a[ahi - 1 - m] == b[bhi - 1 - m]:
        m += 1
    if m:
        out.append((ahi - m, bhi - m, m))
        ahi, bhi = ahi - m, bhi - m
    if alo >= ahi or blo >= bhi:
        return
    if (ahi - alo) * (bhi - blo) > _SMALL:
        anchors = _unique_anchors(a, b, alo, ahi, blo, bhi)
        if anchors:
            i, j = alo, blo
            for ai, bj in anchors:
                _match(a, b, i, ai, j, bj, out, cancel)
                out.append((ai, bj, 1))
                i, j = ai + 1, bj + 1
            _match(a, b, i, ahi, j, bhi, out, cancel)
            return
    matcher = SequenceMatcher(None, a[alo:ahi], b[blo:bhi], autojunk=(ahi - alo) * (bhi - blo) > _SMALL)
    out.extend((alo + i, blo + j, k) for i, j, k in matcher.get_matching_blocks() if k)


def _unique_anchors(
    a: Sequence[Hashable], b: Sequence[Hashable], alo: int, ahi: int, blo: int, bhi: int
) -> list[tuple[int, int]]:
    """The longest increasing run of items found exactly once on each side (patience sorting)."""
    count_a = Counter(a[alo:ahi])
    count_b = Counter(b[blo:bhi])
    where_b = {b[j]: j for j in range(blo, bhi) if count_b[b[j]] == 1 and count_a.get(b[j]) == 1}
    pairs = [(i, where_b[a[i]]) for i in range(alo, ahi) if a[i] in where_b]
    if not pairs:
        return []
    tails: list[int] = []  # the smallest last j of an increasing run of each length
    tail_index: list[int] = []
    previous = [-1] * len(pairs)
    for k, (_i, j) in enumerate(pairs):
        pos = bisect_left(tails, j)
        if pos == len(tails):
            tails.append(j)
            tail_index.append(k)
        else:
            tails[pos] = j
            tail_index[pos] = k
        previous[k] = tail_index[pos - 1] if pos else -1
    run: list[tuple[int, int]] = []
    k = tail_index[-1]
    while k >= 0:
        run.append(pairs[k])
        k = previous[k]
    return run[::-1]


# -- what changed, in numbers and words -----------------------------------------------------------


def _regions(chunks: Sequence[Chunk]) -> tuple[Region, ...]:
    """The places a person steps through. Each change is placed by the unchanged characters before it
    (the same count on both sides), so the two sides' changes fall into the same regions, and a long
    line with changes far apart gives as many regions as a text with them on lines of their own."""
    changes: list[tuple[int, int, bool, int, int, int]] = []  # (unchanged before, chunk, left?, line, start, end)
    # the characters of unchanged chunks, counted once: both sides have the same (layout aside)
    same = [0 if c.is_change else sum(_visible_chars(line.text) for line in c.left if not line.quiet) for c in chunks]
    for on_left in (True, False):
        unchanged = 0
        for index, chunk in enumerate(chunks):
            lines = chunk.left if on_left else chunk.right
            if not chunk.is_change:
                unchanged += same[index]
                continue
            whole = chunk.kind != "replace"
            for line in lines:
                if line.quiet:
                    continue
                if whole:
                    changes.append((unchanged, index, on_left, line.number, 0, len(line.text)))
                    continue
                at = 0
                for start, end in line.changes:
                    unchanged += _visible_chars(line.text[at:start])
                    changes.append((unchanged, index, on_left, line.number, start, end))
                    at = end
                unchanged += _visible_chars(line.text[at:])
    changes.sort(key=lambda c: (c[0], c[1], not c[2], c[3], c[4]))
    regions: list[Region] = []
    left: list[tuple[int, int, int]] = []
    right: list[tuple[int, int, int]] = []
    first_chunk = begun = last = extent = 0
    for unchanged, index, on_left, number, start, end in changes:
        gap = unchanged - last
        if (left or right) and (gap >= REGION_GAP or (gap and unchanged - begun + extent >= REGION_EXTENT)):
            regions.append(Region(first_chunk, tuple(left), tuple(right)))
            left, right = [], []
        if not left and not right:
            first_chunk, begun, extent = index, unchanged, 0
        (left if on_left else right).append((number, start, end))
        extent += end - start
        last = unchanged
    if left or right:
        regions.append(Region(first_chunk, tuple(left), tuple(right)))
    return tuple(regions)


def hunks(chunks: Sequence[Chunk], context: int = 2) -> list[tuple[int, int]]:
    """[start, end) ranges of chunks to show when not all are: every change, ``context`` chunks around it."""
    ranges: list[tuple[int, int]] = []
    for index, chunk in enumerate(chunks):
        if not chunk.is_change:
            continue
        start, end = max(0, index - context), min(len(chunks), index + context + 1)
        if ranges and start <= ranges[-1][1]:
            ranges[-1] = (ranges[-1][0], max(ranges[-1][1], end))
        else:
            ranges.append((start, end))
    return ranges


def describe(comparison: Comparison) -> str:
    """One sentence a person reads at a glance: how many changed regions and what share of the text."""
    if not comparison.regions:
        if comparison.layout_differs:
            return translate("Diff", "The same text; only spacing or line breaks differ.")
        return translate("Diff", "The same text.")
    regions = comparison.regions  # a name: lupdate drops a message whose count is an expression
    return translate("Diff", "%n changed region(s) · {share} of the text differs.", None, regions).format(
        share=share_in_words(comparison.share)
    )


def share_in_words(share: float) -> str:
    """ "about 4 %", "less than 1 %": the share of a text that differs, as a person would say it; said
    only where something differs, so never "none" (differences of punctuation's width or of letter case
    leave no character changed once normalised: less than 1 % still)."""
    if share < 0.01:
        return translate("Diff", "less than 1 %")
    if share > 0.99 and share < 1:
        return translate("Diff", "more than 99 %")
    return translate("Diff", "about {percent} %").format(percent=round(share * 100))
