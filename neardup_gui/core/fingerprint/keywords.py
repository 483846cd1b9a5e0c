"""A document's keywords: the words that say what its opening is about, weighted by TF-IDF, kept with its
fingerprints so that a group can be named by the words its members share (review/topics.py).

Han text has no spaces: its words are the two- to four-character runs found in jieba's dictionary, weighted
by jieba's own IDF table (what ``jieba.analyse.extract_tags`` weighs by). They are looked up as 64-bit span
hashes in a sorted array, all at once with numpy: 7 MB shared by the workers, where jieba's tokenizer and
its tables are 220 MB a process. Other scripts' words are letters only, three or more, less the common
function words; the collection's own IDF sorts them out when a group is named.
"""

from __future__ import annotations

import importlib.util
import math
import os
import re
import threading
from collections import Counter
from dataclasses import dataclass

import numpy as np

from .chars import HAN, _classes, _codepoints, han_character_class, span_hashes

OPENING = 2_000
"""Characters read for keywords: what a text is about is said at its start (and a huge text costs no more)."""
TITLE = 200
"""Characters that hold a text's title (and its first sentence): their words weigh TITLE_WEIGHT times."""
TITLE_WEIGHT = 2.0
LIMIT = 16
"""Keywords kept per document."""
_HAN_WORD_LENGTHS = (2, 3, 4)  # 94 % of jieba's dictionary; single characters say little
_SIEVE_MASK = np.uint64((1 << 22) - 1)
_OTHER_IDF = 11.95  # the median of jieba's table: a word it does not know is weighed as a typical word

_LONGEST = 30  # letters in a word: longer runs are not words (base64, a page of one letter)
_KEPT_WORD = re.compile(rf"[^\W\d_]{{2,{_LONGEST}}}")  # what a stored keyword may be (letters only: no markup)
_WORD = re.compile(rf"[^\W\d_{han_character_class()}]{{3,}}")  # Han runs are read by the dictionary
_FUNCTION_WORDS = frozenset(
    """
    the and for are but not you all any can had her was one our out has have him his how its may new now
    see who did get let she too use that with this from they will would there their what about which when
    make like time just know take into year your some could them than then look only come over also back
    after other these give most very been were more such much must many well each does here those upon
    shall being under should where while because between through without within against before during
    whether either neither hereby thereof herein therein whereas including however therefore
    http https www com org net html htm

    und der die das den dem des ein eine einer eines einem nicht sich mit auf für ist von dass auch als
    oder werden wird sind war wurde bei nach aus wie wenn über zum zur sie ihr ihre sein seine
    les des une dans pour par sur est pas qui que aux avec sont mais ces cette leur leurs nous vous elle
    ils elles comme plus tout être avoir fait ont été
    los las del una por con para como más pero sus este esta estos entre sobre sin ser son fue han
    della delle degli nel nella che non per sono gli con una questo
    dos das uma com não para pelo pela mais como seu sua são
    een het van dat niet met voor zijn aan ook als bij door maar
    """.split()  # noqa: SIM905 - a list literal of 250 words is harder to read
)


@dataclass(frozen=True, slots=True)
class _Dictionary:
    hashes: np.ndarray  # sorted span hashes of jieba's words
    idf: np.ndarray  # float32, in the same order
    sieve: np.ndarray  # bool by a hash's low bits: most spans that are no word are told so here, not searched

    def words(self, hashes: np.ndarray) -> np.ndarray:
        """Where the hashes are the dictionary's, and each one's row (-1 for none)."""
        rows = np.full(len(hashes), -1, dtype=np.int64)
        maybe = np.flatnonzero(self.sieve[hashes & _SIEVE_MASK])
        at = np.minimum(np.searchsorted(self.hashes, hashes[maybe]), len(self.hashes) - 1)
        found = self.hashes[at] == hashes[maybe]
        rows[maybe[found]] = at[found]
        return rows


_lock = threading.Lock()
_dictionary: _Dictionary | None = None


def _jieba_idf_path() -> str:
    """jieba's IDF table, found without importing jieba.analyse (whose import loads the table as a dict)."""
    spec = importlib.util.find_spec("jieba")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("jieba")
    return os.path.join(next(iter(spec.submodule_search_locations)), "analyse", "idf.txt")


def dictionary() -> _Dictionary:
    """jieba's words of two to four Han characters and their IDF, as sorted hashes; built once per process
    (~0.3 s; the fork server builds it before the workers fork)."""
    global _dictionary
    with _lock:
        if _dictionary is None:
            words, idf = [], []
            with open(_jieba_idf_path(), encoding="utf-8") as table:
                for line in table:
                    word, _, value = line.rstrip("\n").partition(" ")
                    if len(word) in _HAN_WORD_LENGTHS:
                        words.append(word)
                        idf.append(float(value))
            joined = _codepoints("".join(words))
            ends = np.cumsum([len(w) for w in words])
            hashes = span_hashes(joined, ends - np.array([len(w) for w in words]), ends)
            order = np.argsort(hashes, kind="stable")
            sieve = np.zeros(int(_SIEVE_MASK) + 1, dtype=bool)
            sieve[hashes & _SIEVE_MASK] = True
            _dictionary = _Dictionary(hashes[order], np.asarray(idf, dtype=np.float32)[order], sieve)
        return _dictionary


def keywords(text: str, limit: int = LIMIT) -> tuple[tuple[str, float], ...]:
    """The opening's ``limit`` best keywords with their TF-IDF weights, best first: 1 + the log of a word's
    count in the opening (said twenty times, it is not twenty times the topic), times its IDF; a word of the
    title (the first TITLE characters) weighs TITLE_WEIGHT times that. Words of letters are lower-cased."""
    found = _weighed(text[:OPENING], 2 * limit)
    for word, weight in _weighed(text[:TITLE], limit).items():
        found[word] = TITLE_WEIGHT * found.get(word, weight)
    total = sum(found.values())
    if not total:
        return ()
    best = sorted(found.items(), key=lambda item: (-item[1], item[0]))[:limit]
    return tuple((word, round(weight / total * 100, 3)) for word, weight in best)


def _weighed(text: str, limit: int) -> dict[str, float]:
    """The text's words with their TF-IDF weights: its ``limit`` best Han words and every other word."""
    found = _han_words(text, limit)
    for word, count in Counter(w.lower() for w in _WORD.findall(text)).items():
        if len(word) <= _LONGEST and word not in _FUNCTION_WORDS:  # a run of letters with no break is no word
            found[word] = (1 + math.log(count)) * _OTHER_IDF
    return found


def _han_words(opening: str, limit: int) -> dict[str, float]:
    """The ``limit`` best of the dictionary's words among the Han runs' spans of two to four characters,
    by tf x idf; only those are made into strings."""
    points = _codepoints(opening)
    han = _classes()[points] == HAN
    if han.sum() < 2:
        return {}
    starts_of_runs = np.flatnonzero(han & ~np.concatenate(([False], han[:-1])))
    ends_of_runs = np.flatnonzero(han & ~np.concatenate((han[1:], [False]))) + 1
    # each Han position's run end: how long a word may start there
    run_end = np.repeat(ends_of_runs, ends_of_runs - starts_of_runs)
    positions = np.flatnonzero(han)
    starts = np.concatenate([positions[positions + n <= run_end] for n in _HAN_WORD_LENGTHS])
    lengths = np.concatenate([np.full(int((positions + n <= run_end).sum()), n) for n in _HAN_WORD_LENGTHS])
    table = dictionary()
    rows = table.words(span_hashes(points, starts, starts + lengths))
    hit = np.flatnonzero(rows >= 0)
    if not len(hit):
        return {}
    hit = hit[_longest(starts[hit], lengths[hit], len(points))]
    unique, first, counts = np.unique(rows[hit], return_index=True, return_counts=True)
    scores = (1 + np.log(counts)) * table.idf[unique]
    best = np.argsort(-scores, kind="stable")[:limit]
    where, length = starts[hit[first[best]]].tolist(), lengths[hit[first[best]]].tolist()
    return {opening[s : s + n]: float(w) for s, n, w in zip(where, length, scores[best].tolist(), strict=True)}


def _longest(starts: np.ndarray, lengths: np.ndarray, size: int) -> np.ndarray:
    """Which words no longer word overlaps, as jieba's segmentation would keep them: 图书馆 in 公共图书馆,
    not 书馆 or 共图; 中华鲟, not 中华."""
    covered = np.zeros(size + 1, dtype=np.int64)  # the longest word over each character
    for length in _HAN_WORD_LENGTHS:
        at = starts[lengths == length]
        for offset in range(length):
            covered[at + offset] = length
    longest = covered[starts]
    for offset in range(1, max(_HAN_WORD_LENGTHS)):
        longest = np.maximum(longest, np.where(offset < lengths, covered[np.minimum(starts + offset, size)], 0))
    return longest <= lengths


def pack(found: tuple[tuple[str, float], ...]) -> str:
    """Keywords as the database keeps them: ``word weight`` lines (a word holds no space or line break)."""
    return "\n".join(f"{word} {weight:g}" for word, weight in found)


def unpack(packed: str | None) -> tuple[tuple[str, float], ...]:
    """What ``pack`` made; a line that is not a word of letters and a weight is passed over (the database's
    text is not trusted: a Spark result's came from elsewhere, and a topic is shown in tooltips)."""
    out = []
    for line in (packed or "").split("\n"):
        word, _, weight = line.rpartition(" ")
        try:
            value = float(weight)
        except ValueError:
            continue
        if _KEPT_WORD.fullmatch(word) and math.isfinite(value) and value > 0:
            out.append((word, value))
    return tuple(out)
