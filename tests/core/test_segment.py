"""segment.han_word_bounds gives exactly jieba's words (lcut(run, HMM=False), the repository's own
tokenizer) for Han runs: real Chinese texts, random mixes of the Han characters jieba segments and
those it yields one by one, runs of every length, texts of many runs, and the ties of jieba's route."""

from __future__ import annotations

import random
import re
from math import log

import numpy as np
import pytest

from neardup_gui.core.fingerprint import segment, text
from tests.conftest import _HAN_FILLER, ZH_TEXTS

# Han characters (text.py's HAN class) that jieba's re_han_default leaves out: each is a word of its own
EXOTIC = ("\u3400", "\u4dbf", "\u9fd6", "\u9fea", "\u9fff", "\uf900", "\ufa6a", "\ufaff",
          "\U00020000", "\U0002a6d6", "\U0002ebef", "\U00030000", "\U0003134f")
# repeated characters: jieba's route has exact ties here, which go to the longer word
REPEATS = ("哈哈哈哈哈哈", "谢谢谢谢", "啊啊啊啊啊", "一一一一一", "天天天天天", "看看看看看", "呵呵呵呵呵", "嘻嘻嘻嘻")


def jieba_words(norm: str, starts: list[int], ends: list[int]) -> list[str]:
    tokenizer = text._jieba()
    return [w for s, e in zip(starts, ends, strict=True) for w in tokenizer.lcut(norm[s:e], HMM=False)]


def segment_words(norm: str, starts: list[int], ends: list[int]) -> list[str]:
    word_starts, word_ends = segment.han_word_bounds(norm, np.array(starts, dtype=np.int64),
                                                     np.array(ends, dtype=np.int64))
    assert word_starts.dtype == word_ends.dtype == np.int64
    return [norm[s:e] for s, e in zip(word_starts.tolist(), word_ends.tolist(), strict=True)]


def han_runs(norm: str) -> tuple[list[int], list[int]]:
    """The Han runs as text._han_word_hashes finds them."""
    cls = text._classes()[text._codepoints(norm)] if norm else np.empty(0, np.uint8)
    edges = np.flatnonzero(np.diff(np.concatenate(([False], cls == text.HAN, [False])).astype(np.int8)))
    return edges[0::2].tolist(), edges[1::2].tolist()


def joined(runs: list[str], rng: random.Random) -> tuple[str, list[int], list[int]]:
    """The runs in one text, apart (punctuation, space, Latin) or touching (two runs side by side)."""
    norm, starts, ends = "", [], []
    for run in runs:
        norm += rng.choice(["，", " ", "a1", "。", ""]) if norm else ""
        starts.append(len(norm))
        norm += run
        ends.append(len(norm))
    return norm, starts, ends


def corpus_han() -> list[str]:
    chars = "".join(p.read_text(encoding="utf-8") for p in sorted(ZH_TEXTS.glob("*.txt")))
    return [c for c in chars if "\u4e00" <= c <= "\u9fd5"]


def random_run(rng: random.Random, han: list[str], length: int) -> str:
    """Stretches of real text (words to find), common characters, repeats, and exotic Han characters."""
    out: list[str] = []
    while len(out) < length:
        r = rng.random()
        if r < 0.55:
            i = rng.randrange(len(han) - 20)
            out.extend(han[i : i + rng.randint(1, 20)])
        elif r < 0.75:
            out.append(rng.choice(_HAN_FILLER))
        elif r < 0.85:
            out.extend(rng.choice(REPEATS))
        else:
            out.append(rng.choice(EXOTIC))
    return "".join(out[:length])


def route_ties(block: str) -> int:
    """How many positions of a block (U+4E00-U+9FD5 only) have two candidates of the same route
    value in jieba's calc: where the tie rule decides."""
    tokenizer = text._jieba()
    dag = tokenizer.get_DAG(block)
    route: dict[int, tuple[float, int]] = {len(block): (0, 0)}
    logtotal = log(tokenizer.total)
    ties = 0
    for idx in range(len(block) - 1, -1, -1):
        values = [(log(tokenizer.FREQ.get(block[idx : x + 1]) or 1) - logtotal + route[x + 1][0], x) for x in dag[idx]]
        route[idx] = max(values)
        ties += sum(1 for v, _ in values if v == route[idx][0]) > 1
    return ties


@pytest.fixture(params=["numpy", "numpy, Python loops", "defaults"])
def mode(request, monkeypatch):
    """The numpy path even on short inputs, in lockstep as far as possible ("numpy") or with every
    route and path finished by the Python loops ("numpy, Python loops"); or the module's settings,
    which send inputs of fewer than _FEW_CHARS characters to jieba."""
    if request.param != "defaults":
        monkeypatch.setattr(segment, "_FEW_CHARS", 0)
    if request.param == "numpy":
        monkeypatch.setattr(segment, "_LOCKSTEP_MIN", 1)
    if request.param == "numpy, Python loops":
        monkeypatch.setattr(segment, "_LOCKSTEP_MIN", 10**9)
    return request.param


def test_the_chinese_test_texts_give_jiebas_words_and_hashes():
    for path in sorted(ZH_TEXTS.glob("*.txt")):
        norm = text.normalise(path.read_text(encoding="utf-8"))
        starts, ends = han_runs(norm)
        expected = jieba_words(norm, starts, ends)
        assert len(expected) > 1000
        assert segment_words(norm, starts, ends) == expected, path.name
        word_starts, word_ends = segment.han_word_bounds(norm, np.array(starts), np.array(ends))
        hashes = text.span_hashes(text._codepoints(norm), word_starts, word_ends)
        assert np.array_equal(hashes, text.hash_tokens(expected))  # what _han_word_hashes gives


def test_every_han_run_of_the_chinese_test_texts_alone(mode):
    for path in sorted(ZH_TEXTS.glob("*.txt")):
        norm = text.normalise(path.read_text(encoding="utf-8"))
        for start, end in zip(*han_runs(norm), strict=True):
            assert segment_words(norm, [start], [end]) == jieba_words(norm, [start], [end]), norm[start:end]


def test_random_mixes_with_the_characters_jieba_yields_one_by_one(mode):
    rng = random.Random(8)
    han = corpus_han()
    for _trial in range(60):
        lengths = [rng.choice([0, 0, 1, 1, 2, 2, 3, 7, 20, 60, 300]) for _ in range(rng.choice([1, 2, 5, 40]))]
        norm, starts, ends = joined([random_run(rng, han, n) for n in lengths], rng)
        assert segment_words(norm, starts, ends) == jieba_words(norm, starts, ends), norm


def test_runs_of_exotic_characters_alone_and_single_characters(mode):
    rng = random.Random(3)
    runs = ["".join(rng.choice(EXOTIC) for _ in range(n)) for n in (0, 1, 2, 5, 300)]
    runs += ["中", "国", "中国", "\u4e00", "\u9fd5", "\u9fd6", "中\U00020000国", "\u3400中国人民\u9fff"]
    norm, starts, ends = joined(runs, rng)
    assert segment_words(norm, starts, ends) == jieba_words(norm, starts, ends)
    for start, end in zip(starts, ends, strict=True):
        assert segment_words(norm, [start], [end]) == jieba_words(norm, [start], [end])


def test_ties_go_to_the_longer_word_as_in_pythons_tuple_max(mode):
    rng = random.Random(11)
    han = corpus_han()
    runs = [rng.choice(REPEATS) * rng.randint(1, 4) + random_run(rng, han, rng.randint(0, 30)) for _ in range(60)]
    blocks = [b for run in runs for b in re.findall("[\u4e00-\u9fd5]+", run)]
    assert sum(map(route_ties, blocks)) > 50  # so that this test can tell the tie rule apart
    norm, starts, ends = joined(runs, rng)
    assert segment_words(norm, starts, ends) == jieba_words(norm, starts, ends)
    long_run = "".join(runs)  # one long run: the route of its block is finished by Python loops
    assert segment_words(long_run, [0], [len(long_run)]) == jieba_words(long_run, [0], [len(long_run)])


def test_texts_of_many_runs():
    rng = random.Random(1)
    sentences = [s for p in sorted(ZH_TEXTS.glob("*.txt")) for s in re.split("(?<=[。；，])", p.read_text("utf-8"))]
    norm = text.normalise("".join(rng.choice(sentences) for _ in range(3000)))
    starts, ends = han_runs(norm)
    assert len(starts) > 5000
    assert segment_words(norm, starts, ends) == jieba_words(norm, starts, ends)


def test_runs_longer_than_a_group_and_groups_of_runs(monkeypatch):
    rng = random.Random(4)
    han = corpus_han()
    monkeypatch.setattr(segment, "_GROUP_CHARS", 100)  # groups of runs, and runs longer than one
    runs = [random_run(rng, han, rng.choice([0, 5, 50, 99, 100, 101, 250])) for _ in range(60)]
    norm, starts, ends = joined(runs, rng)
    assert segment_words(norm, starts, ends) == jieba_words(norm, starts, ends)


def test_a_run_longer_than_the_limit_goes_to_jieba_with_the_same_words():
    rng = random.Random(6)
    long_run = random_run(rng, corpus_han(), segment._GROUP_CHARS + 1000)
    norm, starts, ends = joined([random_run(rng, corpus_han(), 500), long_run, "中国人民"], rng)
    assert segment_words(norm, starts, ends) == jieba_words(norm, starts, ends)


def test_no_runs_and_empty_runs_give_no_words():
    for starts, ends in (([], []), ([0, 3, 3], [0, 3, 3])):
        bounds = segment.han_word_bounds("中国人民", np.array(starts, np.int64), np.array(ends, np.int64))
        assert len(bounds[0]) == len(bounds[1]) == 0
    assert segment_words("", [], []) == []


@pytest.mark.parametrize(("norm", "starts", "ends"), [
    ("中国 人民", [0], [5]),  # a space is not Han
    ("中国abc", [0], [5]),
    ("中国人民", [2, 0], [4, 2]),  # out of order
    ("中国人民", [0, 1], [3, 4]),  # overlapping
    ("中国人民", [0], [9]),  # past the end
    ("中国人民", [0], [1, 2]),
])
def test_runs_that_are_not_han_runs_are_refused(norm, starts, ends, monkeypatch):
    with pytest.raises(ValueError):
        segment.han_word_bounds(norm, np.array(starts), np.array(ends))
    monkeypatch.setattr(segment, "_FEW_CHARS", 0)
    with pytest.raises(ValueError):
        segment.han_word_bounds(norm, np.array(starts), np.array(ends))


def test_the_dictionary_has_every_prefix_of_every_word_once_without_collisions():
    tokenizer = text._jieba()
    words = [w for w, f in tokenizer.FREQ.items() if f > 0 and re.fullmatch("[\u4e00-\u9fd5]+", w)]
    prefixes = {w[:i] for w in words for i in range(1, len(w) + 1)}
    d = segment.load_dictionary()
    assert d is segment.load_dictionary()  # built once
    assert np.count_nonzero(~np.isnan(d.values[:-1])) == len(prefixes)  # distinct strings, distinct hashes
    assert d.max_length == max(map(len, words))


def test_polynomials_are_span_hashes_before_its_finaliser():
    rng = np.random.default_rng(2)
    cps = rng.integers(0, 0x110000, 500).astype(np.uint32)
    starts = rng.integers(0, 400, 300)
    ends = starts + rng.integers(1, 100, 300)
    assert np.array_equal(text.mix64(text.span_polynomials(cps, starts, ends)), text.span_hashes(cps, starts, ends))
