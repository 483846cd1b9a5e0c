"""What a group is about: the keywords its members share (each document's are found when it is read:
fingerprint/keywords.py), ranked by how many members have them, then by their weight in those members times
their rarity in the collection (a word every licence has does not tell one licence family from another).

A grouping reads the keywords of its documents from the database once each (``Topics.read``, where the
session works); a group is named when its name is first asked for (``GroupTopics``), from memory: a
threshold move names nothing, the window names the groups it shows, a report or a filter the rest."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence

from ..fingerprint.keywords import unpack
from ..models import Document, Group
from .words import listed

WORDS = 3
"""Keywords in a group's topic."""
SAMPLE = 5_000
"""Contents whose keywords measure how rare each word is in the collection."""
_COMMON = 0.05  # the rarity of a word (nearly) every content has: a group of such words is still named
_WEIGHT = re.compile(r" [^ \n]*$", re.MULTILINE)  # a keyword's weight, at the end of its line (keywords.pack)

Rows = Iterable[tuple[int, str | None]]
"""(content id, keywords as the database keeps them)."""


class Topics:
    """The keywords of a collection's contents, read as groupings need them (``load``), and each word's
    rarity in a sample of the collection."""

    def __init__(self, load: Callable[[Sequence[int]], Rows], sample: Rows) -> None:
        self._load = load
        # content id -> its keywords as the database keeps them: unpacked when a group is named (unpacked
        # and held, they took 2.4 KB a content, a quarter of a GB for a million documents' groups)
        self._of: dict[int, str] = {}
        having: dict[str, int] = {}
        sampled = 0
        for _content, packed in sample:
            sampled += 1
            for word, _weight in unpack(packed):
                having[word] = having.get(word, 0) + 1
        self._rarity = {word: math.log((sampled + 1) / (count + 1)) for word, count in having.items()}
        self._unseen = math.log(sampled + 1)  # a word the sample lacks is as rare as can be
        self._named: dict[tuple[int, ...], tuple[str, ...]] = {}  # a group's contents -> its topic
        self._keyword_text: dict[tuple[int, ...], str] = {}  # a group's contents -> all their keywords

    def read(self, contents: Iterable[int]) -> None:
        """Have the keywords of these contents in memory (read from the database once each)."""
        missing = sorted({c for c in contents if c not in self._of})
        found = dict(self._load(missing)) if missing else {}
        for content in missing:
            self._of[content] = found.get(content) or ""

    def of(self, groups: Sequence[Group], documents: Mapping[int, Document]) -> GroupTopics:
        """The topics of a grouping's groups, each found when first asked for; read() its contents first."""
        return GroupTopics(self, groups, documents)

    def keyword_text(self, contents: tuple[int, ...]) -> str:
        """Every keyword of these contents (sorted), read() before, lower-case, a line each: what a filter
        looks for a text in. Made by one pass of a pattern over the database's text, not by unpacking it
        (a filter of a million documents' groups is asked of every group at once); a malformed line only
        makes a filter find a little more. Kept, as the filter asks again on every key typed."""
        found = self._keyword_text.get(contents)
        if found is None:
            packed = "\n".join(self._of.get(content) or "" for content in contents)
            found = self._keyword_text[contents] = _WEIGHT.sub("", packed).lower()
        return found

    def topic(self, contents: tuple[int, ...]) -> tuple[str, ...]:
        """Up to WORDS keywords that at least half of these contents (sorted) have, best first; none when
        they share none (or were read before keywords were kept)."""
        known = self._named.get(contents)
        if known is not None:
            return known
        having: dict[str, int] = {}
        weight: dict[str, float] = {}
        for content in contents:
            for word, value in unpack(self._of.get(content)):
                having[word] = having.get(word, 0) + 1
                weight[word] = weight.get(word, 0.0) + value
        rarity, unseen = self._rarity, self._unseen
        ranked = sorted(
            (word for word, count in having.items() if count * 2 >= len(contents)),
            key=lambda word: (-having[word], -weight[word] * max(rarity.get(word, unseen), _COMMON), word),
        )
        chosen: tuple[str, ...] = ()
        for word in ranked:
            if len(chosen) == WORDS:
                break
            if not any(_same_word(word, other) for other in chosen):
                chosen = (*chosen, word)
        self._named[contents] = chosen
        return chosen


class GroupTopics(Mapping[int, tuple[str, ...]]):
    """Group id -> what the group is about, for the groups that have a topic; each found when first asked."""

    def __init__(self, topics: Topics, groups: Sequence[Group], documents: Mapping[int, Document]) -> None:
        self._topics, self._documents = topics, documents
        self._groups = {g.id: g for g in groups}

    @classmethod
    def none(cls) -> GroupTopics:
        """No group named: a grouping not made yet."""
        return cls(Topics(lambda _contents: (), ()), (), {})

    def _contents(self, group_id: int) -> tuple[int, ...]:
        documents = self._documents
        contents = (documents[m.document_id].content_id for m in self._groups[group_id].members)
        return tuple(sorted(-1 if c is None else c for c in contents))

    def __getitem__(self, group_id: int) -> tuple[str, ...]:
        topic = self._topics.topic(self._contents(group_id))
        if not topic:
            raise KeyError(group_id)
        return topic

    def keywords(self, group_id: int) -> str:
        """Every keyword of the group's documents, lower-case, a line each (Topics.keyword_text); "" for a
        grouping without topics (GroupTopics.none)."""
        return self._topics.keyword_text(self._contents(group_id)) if group_id in self._groups else ""

    @staticmethod
    def names_topics(text: str) -> bool:
        """Whether ``text`` holds the list's comma: only such a text is looked for in a topic as it reads."""
        return _comma() in text

    def mentions(self, group_id: int, text: str) -> bool:
        """Whether the group is about ``text`` (lower-case): a keyword of one of its documents holds it (an
        Apache licence's group is found by "apache" whatever its three words), or its topic as it reads
        does ("mean, entity"); only a text with the list's comma is looked for in the topic (naming a group
        costs a hundred times more than looking in its keywords)."""
        keywords = self.keywords(group_id)
        if not self.names_topics(text):
            return text in keywords
        comma = _comma()
        if not all(part.strip() in keywords for part in text.split(comma)):
            return False  # each word of a topic is a keyword
        return text in listed(self.get(group_id, ())).lower()

    def __iter__(self) -> Iterator[int]:
        return (group_id for group_id in self._groups if self.get(group_id))

    def __len__(self) -> int:
        return sum(1 for _ in self)  # names every group: as iterating does

    def __bool__(self) -> bool:
        """Whether there are groups to name (names none: ``if topics``, ``topics or {}`` stay cheap)."""
        return bool(self._groups)


def _comma() -> str:
    """What separates the words of a topic as it reads, in the language shown ("," or "、")."""
    return listed(("", "")).strip()


def _same_word(a: str, b: str) -> bool:
    """Whether one word holds the other (劳动合同, 合同) or they differ by an English plural (copy, copies)."""
    return a in b or b in a or _singular(a) == _singular(b)


def _singular(word: str) -> str:
    if word.endswith("ies"):
        return word[:-3] + "y"
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word
