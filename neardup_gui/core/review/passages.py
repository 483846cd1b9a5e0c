"""The passages two texts share word for word, the plainest answer to "why do these two match?": read
from a comparison already made (the pair view), or, for reports, without comparing what differs: the
longest runs of lines (or of clauses) two texts share, found with numpy, each text cut once for all its
pairs. And the passages the search for shared passages found (match/passage_search.py), placed in the texts
as read, to show them (``UnitPlaces``; a report's by ``report.place_passages``, the pair view's by
``passages_in_texts``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from itertools import filterfalse

import numpy as np

from ..fingerprint.scheme import Scheme
from ..fingerprint.text import gram_hashes, shingle_id_sequence, unit_places
from ..jobs import NEVER_CANCELLED, CancelToken
from ..models import Document, SharedPassages
from ..store.store import Store
from ..store.stored_text import DocumentText
from .compare import Comparison

_SENTENCE_END = re.compile(r"(?<=[。！？；!?;])|(?<=[.:])(?=\s)")


def shared_passages(comparison: Comparison, top: int = 3, min_chars: int = 30, max_chars: int = 300) -> list[str]:
    """The longest passages both texts share word for word, longest first: the plainest answer to
    "why do these two match?". Read from the left side of a comparison already made."""
    runs: list[list[str]] = [[]]

    def cut() -> None:
        if runs[-1]:
            runs.append([])

    for chunk in comparison.chunks:
        if not chunk.is_change:
            runs[-1].extend(line.text for line in chunk.left if not line.quiet)
            continue
        if not any(line.changes for line in chunk.left):
            cut()
        for line in chunk.left:
            for segment in line.segments():
                if segment.changed:
                    cut()
                else:
                    runs[-1].append(segment.text)
        cut()
    return _best_passages(runs, top, min_chars, max_chars)


def shared_passages_between(
    left: str, right: str, top: int = 3, min_chars: int = 30, max_chars: int = 300
) -> list[str]:
    """Shared passages of two texts without comparing what differs (for reports): see ``PassageText``."""
    vocabulary = LineVocabulary()
    return PassageText(left, vocabulary).shared_passages(PassageText(right, vocabulary), top, min_chars, max_chars)


class PassageText:
    """A text as the report's passage finder reads it: by its lines, and, when two texts have no line in
    common worth naming (a PDF and the text it was made from, laid out differently), by its clauses
    with the line breaks ignored (cut only then)."""

    def __init__(self, text: str, vocabulary: LineVocabulary) -> None:
        self.text = text
        self._vocabulary = vocabulary
        self.lines = vocabulary.cut(_sentences(text))
        self._clauses: PassageLines | None = None

    def clauses(self) -> PassageLines:
        if self._clauses is None:
            self._clauses = self._vocabulary.cut(_clauses(self.text))
        return self._clauses

    def shared_passages(self, other: PassageText, top: int = 3, min_chars: int = 30, max_chars: int = 300) -> list[str]:
        """The longest passages both texts hold word for word (see ``PassageLines.shared_passages``)."""
        found = self.lines.shared_passages(other.lines, top, min_chars, max_chars)
        return found or self.clauses().shared_passages(other.clauses(), top, min_chars, max_chars)


@dataclass(frozen=True, slots=True)
class PassageLines:
    """A text cut for finding the passages it shares with others: its lines (blank ones skipped, long
    ones cut at sentence ends), each line's number in the vocabulary of the texts it is compared with,
    and where each line ends when the lines are joined (``ends[k]``: the characters of ``lines[:k]``).

    A text is cut once for all the pairs it belongs to, and the runs of a pair are found at once with
    numpy, so a pair costs a fraction of a millisecond (issue #15: a line diff of the whole texts cost
    the JSON report 8 ms a pair)."""

    lines: list[str]
    ids: np.ndarray
    ends: np.ndarray

    def shared_passages(
        self, other: PassageLines, top: int = 3, min_chars: int = 30, max_chars: int = 300
    ) -> list[str]:
        """The ``top`` longest runs of lines both texts hold in a row, wherever each holds them, no two
        overlapping in either text, with their spaces evened out and cut at ``max_chars``."""
        starts, other_starts, sizes = common_runs(self.ids, other.ids)
        lengths = self.ends[starts + sizes] - self.ends[starts] + sizes - 1  # joined with spaces
        chosen: list[tuple[int, int, int]] = []
        passages: list[str] = []
        for k in np.argsort(-lengths, kind="stable").tolist():
            if len(passages) == top or lengths[k] < min_chars:
                break
            i, j, size = int(starts[k]), int(other_starts[k]), int(sizes[k])
            if any(i < ci + cs and ci < i + size or j < cj + cs and cj < j + size for ci, cj, cs in chosen):
                continue
            chosen.append((i, j, size))
            passage = _evened(self.lines[i : i + size], max_chars)
            if len(passage) >= min_chars:
                passages.append(passage if len(passage) <= max_chars else passage[: max_chars - 1] + "…")
        return passages


def _evened(lines: list[str], enough: int) -> str:
    """The lines joined with their runs of spaces made one: of a long passage only its first lines, as
    many as give more than ``enough`` characters (a near copy's passage may be the whole text)."""
    taken = 8
    while True:
        passage = " ".join(" ".join(lines[:taken]).split())
        if len(passage) > enough or taken >= len(lines):
            return passage
        taken *= 4


class LineVocabulary:
    """Numbers the distinct lines of the texts it cuts, so that texts cut by one vocabulary can be
    compared by number."""

    def __init__(self) -> None:
        self._numbers: dict[str, int] = {}

    def cut(self, lines: list[str]) -> PassageLines:
        numbers = self._numbers
        new = list(filterfalse(numbers.__contains__, dict.fromkeys(lines)))
        numbers.update(zip(new, range(len(numbers), len(numbers) + len(new)), strict=True))
        ids = np.fromiter(map(numbers.__getitem__, lines), dtype=np.int64, count=len(lines))
        ends = np.zeros(len(lines) + 1, dtype=np.int64)
        np.cumsum(np.fromiter(map(len, lines), dtype=np.int64, count=len(lines)), out=ends[1:])
        return PassageLines(lines, ids, ends)


_POPULAR = 16
"""A line that occurs more often than this in the second text (a rule, a recurring heading) starts and
continues no run: matching it everywhere would cost the product of its counts."""


def common_runs(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every maximal run of equal numbers, crossing or not, as arrays ``(starts in a, starts in b,
    sizes)`` with ``a[i + k] == b[j + k]`` for ``k < size``: the diagonals of the two sequences' dot
    plot. A number more than ``_POPULAR`` times in ``b`` matches nowhere."""
    by_number = np.argsort(b, kind="stable")
    sorted_b = b[by_number]
    first = np.searchsorted(sorted_b, a, side="left")
    each = np.searchsorted(sorted_b, a, side="right") - first  # how many places in b each item of a has
    in_a = np.flatnonzero((each > 0) & (each <= _POPULAR))
    first, each = first[in_a], each[in_a]
    i = np.repeat(in_a, each)
    nth = np.arange(len(i)) - np.repeat(np.cumsum(each) - each, each)
    diagonal = by_number[np.repeat(first, each) + nth] - i
    order = np.lexsort((i, diagonal))
    i, diagonal = i[order], diagonal[order]
    new_run = np.ones(len(i), dtype=bool)
    new_run[1:] = (diagonal[1:] != diagonal[:-1]) | (i[1:] != i[:-1] + 1)
    starts = np.flatnonzero(new_run)
    sizes = np.diff(np.append(starts, len(i)))
    return i[starts], i[starts] + diagonal[starts], sizes


_CLAUSE_END = re.compile(r"(?<=[,;:.!?，。！？；：、])")


def _clauses(text: str, width: int = 240) -> list[str]:
    """The text's clauses with its line breaks and runs of spaces ignored: cut after every comma or
    sentence end (where an edit's effect stops), a clause longer than ``width`` cut every ``width``."""
    pieces = [piece.strip() for piece in _CLAUSE_END.split(" ".join(text.split()))]
    if max(map(len, pieces), default=0) > width:
        pieces = [piece[start : start + width] for piece in pieces for start in range(0, len(piece), width)]
    return list(filter(None, pieces))


def _sentences(text: str, width: int = 240) -> list[str]:
    """The text's lines without blank ones, a line longer than ``width`` cut at sentence ends."""
    lines = list(filter(str.strip, text.splitlines()))
    lengths = np.fromiter(map(len, lines), dtype=np.int64, count=len(lines))
    long_lines = np.flatnonzero(lengths > width).tolist()
    if not long_lines:
        return lines
    pieces: list[str] = []
    done = 0
    for k in long_lines:
        pieces.extend(lines[done:k])
        done = k + 1
        piece = ""
        for sentence in _SENTENCE_END.split(lines[k]):
            if piece and len(piece) + len(sentence) > width:
                pieces.append(piece)
                piece = ""
            piece += sentence
            while len(piece) > width:
                pieces.append(piece[:width])
                piece = piece[width:]
        if piece:
            pieces.append(piece)
    pieces.extend(lines[done:])
    return pieces


def _best_passages(runs: list[list[str]], top: int, min_chars: int, max_chars: int) -> list[str]:
    passages = [" ".join(" ".join(run).split()) for run in runs]
    passages = sorted((p for p in passages if len(p) >= min_chars), key=len, reverse=True)
    return [p if len(p) <= max_chars else p[: max_chars - 1] + "…" for p in passages[:top]]


@dataclass(frozen=True, slots=True)
class PassageSpan:
    """Where a passage sits in a document's text as read (character offsets), and its words there."""

    start: int
    end: int
    text: str


class UnitPlaces:
    """Where each unit (a word; a Han character) of a document's text sits in the text as read: what turns
    a shared passage's words into characters to show. Trusted only when the text read now gives the
    shingles its fingerprint was made of (``sequence``): else every span is None."""

    def __init__(self, raw: str, sequence: np.ndarray | None, shingle_size: int) -> None:
        hashes, starts, ends = unit_places(raw)
        same = sequence is not None and np.array_equal(shingle_id_sequence(gram_hashes(hashes, shingle_size)), sequence)
        self._raw = raw if same else None
        self._starts = starts.astype(np.int32) if same else None  # a text is far below 2^31 characters
        self._ends = ends.astype(np.int32) if same else None

    def span(self, start: int, words: int, max_chars: int = 300) -> PassageSpan | None:
        """The passage of ``words`` units from unit ``start``: its characters, and its words with their
        spaces evened out (cut at ``max_chars``)."""
        if self._raw is None or self._starts is None or self._ends is None:
            return None
        if not 0 <= start < start + words <= len(self._starts):
            return None
        begin, end = int(self._starts[start]), int(self._ends[start + words - 1])
        shown = " ".join(self._raw[begin : min(end, begin + 2 * max_chars)].split())
        return PassageSpan(begin, end, shown if len(shown) <= max_chars else shown[: max_chars - 1] + "…")


@dataclass(frozen=True, slots=True)
class PlacedPassages:
    """Two documents' shared passages (``found``) with where each sits in each text (None where a text
    cannot be read now, or no longer reads as it was fingerprinted, or was not asked to be placed)."""

    found: SharedPassages
    spans: tuple[tuple[PassageSpan | None, PassageSpan | None], ...]


@dataclass(frozen=True, slots=True)
class PassagesInTexts:
    """A pair's two texts as read now (``a``'s, ``b``'s) and where each shared passage sits in them: what the
    pair view shows. ``problem``: why there are no texts (a file gone or changed), in words."""

    texts: tuple[str, str] | None
    placed: PlacedPassages
    problem: str = ""


def passages_in_texts(
    found: SharedPassages,
    documents: tuple[Document, Document],
    load: Callable[[Document], DocumentText],
    database: str,
    *,
    cancel: CancelToken = NEVER_CANCELLED,
) -> PassagesInTexts:
    """Both documents of ``found`` (``a``'s, ``b``'s) read, and its passages placed in them; the shingles each
    text was fingerprinted with read from ``database`` by a connection of this call's own (it runs beside
    the session, in a thread of the window's)."""
    read = [load(doc) for doc in documents]
    cancel.raise_if_cancelled()
    for doc, got in zip(documents, read, strict=True):
        if got.text is None:
            empty = PlacedPassages(found, tuple((None, None) for _ in found.passages))
            return PassagesInTexts(None, empty, f"{doc.display_path}: {got.problem}")
    texts = (read[0].text or "", read[1].text or "")
    store = Store.reader(database)
    try:
        shingle_size = (store.scheme() or Scheme.current()).shingle_size
        places = [
            UnitPlaces(
                text, store.contents.sequence(doc.content_id) if doc.content_id is not None else None, shingle_size
            )
            for text, doc in zip(texts, documents, strict=True)
        ]
    finally:
        store.close()
    spans = tuple((places[0].span(p.start_a, p.words), places[1].span(p.start_b, p.words)) for p in found.passages)
    return PassagesInTexts(texts, PlacedPassages(found, spans))
