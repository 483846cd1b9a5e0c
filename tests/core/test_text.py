import ast
import subprocess
import sys
import unicodedata
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import neardup_gui
from neardup_gui.core.fingerprint import text
from neardup_gui.core.fingerprint.scheme import Scheme, simhash_feature_counts, text_shingles
from tests.conftest import ZH_TEXTS


def jaccard(a: str, b: str) -> float:
    sa = text_shingles(text.normalise(a), Scheme())
    sb = text_shingles(text.normalise(b), Scheme())
    inter = len(np.intersect1d(sa, sb))
    return inter / (len(sa) + len(sb) - inter)


def test_normalise_folds_width_case_and_space():
    assert text.normalise("  ＡＢＣ\u3000Straße\n\n\tＴｅｘｔ ") == "abc strasse text"


def test_units_split_han_by_character_and_other_text_by_word():
    assert text.units(text.normalise("Hello, 世界！ it's 2024年")) == ["hello", "世", "界", "it", "s", "2024", "年"]


def test_words_segment_han_with_jieba_and_drop_punctuation():
    words = text.words(text.normalise("我们今天讨论近似重复文档，and then SimHash!"))
    assert "讨论" in words and "文档" in words
    assert "and" in words and "simhash" in words
    assert all(w.strip() and w not in "，!," for w in words)


def test_hotel_example_holds_with_token_jaccard():
    """上海浦东四季酒店 is closer to 浦东四季酒店 than to 上海浦东全季酒店 (a different hotel chain)."""
    same_hotel = jaccard("上海浦东四季酒店", "浦东四季酒店")
    other_chain = jaccard("上海浦东四季酒店", "上海浦东全季酒店")
    assert same_hotel > other_chain


def test_shingles_of_a_short_text_are_not_empty_and_empty_text_has_none():
    assert text.shingle_hashes(text.hash_tokens(["one"]), 3).size == 1
    assert text.shingle_hashes(text.hash_tokens([]), 3).size == 0


@pytest.mark.e2e
def test_hashes_do_not_depend_on_the_process_or_its_hash_seed():
    script = (
        "from neardup_gui.core.fingerprint import text, scheme as f;"
        "s=f.Scheme();n=text.normalise('Near-duplicate 文档 detection with SimHash');"
        "print(f.text_simhash(n, s), text.shingle_hashes(text.hash_tokens(text.units(n)), 3).tolist())"
    )
    outputs = {
        subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            text=True,
            check=True,
            env={"PYTHONHASHSEED": seed, "PATH": "/usr/bin:/bin"},
        ).stdout
        for seed in ("1", "2", "12345")
    }
    assert len(outputs) == 1


@pytest.mark.e2e
def test_chinese_text_loads_jieba_only_for_the_scheme_that_uses_its_words():
    """The default SimHash features of Han text are runs of its characters: fingerprinting Chinese
    needs no segmentation (twice as fast, and nearer the exact Jaccard: docs/how-it-decides.md, defaults)."""
    script = (
        "import sys; from neardup_gui.core.fingerprint import text, scheme as f;"
        "norm = text.normalise('我们今天讨论近似重复文档的查找方法。');"
        "default = f.text_simhash(norm, f.Scheme()); print('jieba' in sys.modules);"
        "words = f.text_simhash(norm, f.Scheme(simhash_features='word-3grams+jieba-words'));"
        "print('jieba' in sys.modules, default != words, f.Scheme.current().jieba == '')"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "True", "True", "True"]


@pytest.mark.e2e
def test_latin_text_never_loads_jieba():
    script = (
        "import sys; from neardup_gui.core.fingerprint import text, scheme as f;"
        "f.text_simhash(text.normalise('plain English text only, no Han at all'), f.Scheme());"
        "print('jieba' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


# Texts full of what normalisation can trip over at a cut: combining marks (also stacked, and after a
# space), compatibility forms that expand or turn into spaces, Hangul jamo that compose, Han, kana,
# characters outside the BMP, and every kind of white space.
_TRICKY = [
    "a",
    "Z",
    "ß",
    "İ",
    "e\u0301",
    "\u0301",
    "\u0323\u0301",
    " ",
    "  ",
    "\t",
    "\n",
    "\u3000",
    "\u00a0",
    "\u2028",
    "ﬁ",
    "Ａ",
    "①",
    "\u1100",
    "\u1161",
    "\u11a8",
    "한",
    "世",
    "界",
    "カ",
    "\u309a",
    "\U00020000",
    "\U0001d400",
    ".",
    "，",
    "ǰ",
    "ﾊﾟ",
]
_tricky_texts = st.lists(st.sampled_from(_TRICKY), max_size=120).map("".join)


@settings(max_examples=300, deadline=None)
@given(_tricky_texts, st.integers(min_value=1, max_value=17))
def test_normalising_in_pieces_gives_the_whole_texts_normal_form(raw, piece_chars):
    whole = " ".join(unicodedata.normalize("NFKC", raw).casefold().split())
    assert "".join(text.normalised_pieces(raw, piece_chars)) == whole


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([*_TRICKY, "word", "四季酒店", "x", "12"]), max_size=80).map("".join))
def test_unit_hashes_are_each_units_own_hash_whatever_the_mix(raw):
    # Han-heavy text hashes one-character units from a table and the rest over their own characters;
    # word-heavy text over the whole text: every path must give each unit's own span hash
    norm = text.normalise(raw)
    assert text.unit_hashes(norm).tolist() == text.hash_tokens(text.units(norm)).tolist()


# every BMP character NFKC changes by itself, beside what composes with it or reorders around it:
# combining marks, Hangul jamo (half-width ones compose after their own NFKC), Han and ASCII
_CHANGED_ALONE = [chr(c) for c in range(0x10000) if unicodedata.normalize("NFKC", chr(c)) != chr(c)]
_AROUND = _TRICKY + ["\u0300", "\u0308", "\u0327", "\u05b0", "\u3099", "\uffa1", "\uffc2", "\uffd2", "o", "A"]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(_CHANGED_ALONE), st.sampled_from(_AROUND)), max_size=60).map("".join))
def test_the_fast_nfkc_is_nfkc(raw):
    assert text.nfkc(raw) == unicodedata.normalize("NFKC", raw)


@settings(max_examples=200, deadline=None)
@given(
    _tricky_texts,
    st.lists(st.integers(min_value=0, max_value=120), max_size=6),
    st.integers(min_value=2, max_value=25),
    st.booleans(),
)
def test_tokens_do_not_depend_on_how_the_normalised_text_arrives(raw, cuts, piece_chars, segment_han):
    norm = text.normalise(raw)
    bounds = sorted({0, len(norm), *(c for c in cuts if c < len(norm))})
    arrived = [norm[a:b] for a, b in zip(bounds, bounds[1:], strict=False)]
    whole = list(text.token_pieces([norm], piece_chars, segment_han=segment_han))
    split = list(text.token_pieces(arrived, piece_chars, segment_han=segment_han))
    assert [p for p, _t in split] == [p for p, _t in whole]
    assert "".join(p for p, _t in whole) == norm
    for (_p, a), (_q, b) in zip(whole, split, strict=True):
        assert a.units.tolist() == b.units.tolist() and a.words.tolist() == b.words.tolist()


# Latin words between spaces, so that a piece (cut at its last space, or anywhere when it has none)
# never cuts one; Han runs are cut anywhere
_MIXED = [
    "世",
    "界",
    "和",
    "平",
    "中",
    "国",
    "法",
    "律",
    "，",
    "。",
    " ",
    "\n",
    " word ",
    " text ",
    " a ",
    " Ｆｉｎｅ ",
    "\U00020000",
    "カ",
    "한",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_MIXED), max_size=200).map("".join), st.integers(min_value=6, max_value=30))
def test_simhash_features_counted_piece_by_piece_are_those_of_the_whole_text(raw, piece_chars):
    """fingerprint_text counts SimHash's features a piece at a time: the runs of three Han characters
    and of three words that straddle two pieces (Han runs cut anywhere) must be counted as in the
    whole text, each as often."""
    from neardup_gui.core.fingerprint.scheme import _PieceFeatures, simhash_feature_counts

    scheme = Scheme()
    norm = text.normalise(raw)
    features = _PieceFeatures(scheme)
    for _piece, tokens in text.token_pieces([norm], piece_chars):
        features.add(tokens)
    counted = list(features.in_order())
    got = ([int(v) for d, _c in counted for v in d], [int(v) for _d, c in counted for v in c])
    expected, counts = simhash_feature_counts(norm, scheme)
    assert got == (expected.tolist(), counts.tolist())


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.lists(st.integers(min_value=0, max_value=50), max_size=40), max_size=8),
    st.integers(min_value=1, max_value=30),
)
def test_the_edges_of_a_sequence_that_arrives_in_pieces(pieces, window):
    """fingerprint keeps the shingle ids at a text's two ends as they arrive: the whole sequence when it
    is at most two windows long, else its first window then its last."""
    from neardup_gui.core.fingerprint.scheme import _Edges

    edges = _Edges(window)
    for piece in pieces:
        edges.add(np.array(piece, dtype=np.uint32))
    whole = [v for piece in pieces for v in piece]
    expected = whole if len(whole) <= 2 * window else whole[:window] + whole[-window:]
    assert edges.sequence().tolist() == expected


def test_edges_are_stored_as_positions_in_the_shingle_set():
    from neardup_gui.core.fingerprint.minhash import unpack_shingles
    from neardup_gui.core.fingerprint.scheme import fingerprint_text, unpack_order
    from neardup_gui.core.models import Status
    from neardup_gui.core.read.extract import Extracted

    scheme = Scheme()
    body = " ".join(f"w{n % 700}" for n in range(3000))
    fp = fingerprint_text(b"", "text", Extracted(Status.OK, text=body), scheme)
    shingles = unpack_shingles(fp.shingles)
    ids = text.shingle_id_sequence(text.gram_hashes(text.unit_hashes(text.normalise(body)), 3))
    window = scheme.edge_window
    assert unpack_order(fp.edges, shingles).tolist() == ids[:window].tolist() + ids[-window:].tolist()
    assert len(fp.edges) == 2 * 2 * window  # two bytes a position: the set has far fewer than 65,536
    short = fingerprint_text(b"", "text", Extracted(Status.OK, text="a short title"), scheme)
    assert short.short_text and short.edges is None


def test_every_shingle_is_kept_in_order_even_of_a_text_read_in_pieces():
    """The sequence (for shared passages) is the whole text's shingles in order, repeats kept, also across
    the million-character pieces a huge text is read in."""
    from neardup_gui.core.fingerprint.minhash import unpack_shingles
    from neardup_gui.core.fingerprint.scheme import fingerprint_text, unpack_order
    from neardup_gui.core.models import Status
    from neardup_gui.core.read.extract import Extracted

    body = " ".join(f"w{n % 70_000}" for n in range(420_000))  # 2.9 M characters: three pieces
    fp = fingerprint_text(b"", "text", Extracted(Status.OK, text=body), Scheme())
    shingles = unpack_shingles(fp.shingles)
    ids = text.shingle_id_sequence(text.gram_hashes(text.unit_hashes(text.normalise(body)), 3))
    assert len(shingles) > 1 << 16  # four bytes a position
    assert unpack_order(fp.sequence, shingles).tolist() == ids.tolist()


def test_units_are_placed_in_the_text_as_read():
    """Each unit's characters in the text itself: full-width and capital letters, Han characters between
    punctuation, line breaks; a text whose characters compose under NFKC is told apart by its shingles."""
    from neardup_gui.core.review.passages import UnitPlaces

    raw = "Ｔｈｅ  Quick\nbrown-fox，跳过了“懒狗”。 ﬁne Straße ＡＢＣ\tend " * 3
    hashes, starts, ends = text.unit_places(raw)
    assert hashes.tolist() == text.unit_hashes(text.normalise(raw)).tolist()
    assert [text.normalise(raw[s:e]) for s, e in zip(starts, ends, strict=True)] == text.units(text.normalise(raw))
    sequence = text.shingle_id_sequence(text.gram_hashes(hashes, 3))
    places = UnitPlaces(raw, sequence, 3)
    span = places.span(2, 5)  # brown, fox, 跳, 过, 了
    assert span is not None and raw[span.start : span.end] == "brown-fox，跳过了" and span.text == "brown-fox，跳过了"
    assert places.span(len(hashes) - 1, 2) is None  # past the end
    composed = "cafe\u0301 " * 20  # NFKC composes é: the units read character by character differ
    assert (
        UnitPlaces(
            composed, text.shingle_id_sequence(text.gram_hashes(text.unit_hashes(text.normalise(composed)), 3)), 3
        ).span(0, 3)
        is None
    )


def test_the_simhash_features_of_han_text_are_its_runs_of_three_characters():
    norm = text.normalise("中华人民共和国中华人民")
    features, counts = simhash_feature_counts(norm, Scheme())
    runs = text.gram_hashes(text.unit_hashes(norm), 3)  # 9 runs, 中华人 and 华人民 twice
    assert len(runs) == 9
    expected, expected_counts = np.unique(runs, return_counts=True)
    assert features.tolist() == expected.tolist() and counts.tolist() == expected_counts.tolist()
    assert sorted(counts.tolist()) == [1, 1, 1, 1, 1, 2, 2]


@pytest.mark.parametrize("features", ["word-3grams+han-3grams", "word-3grams+jieba-words"])
def test_a_text_of_several_pieces_gets_the_fingerprints_of_the_whole_text(features):
    """fingerprint_text reads a long text a million characters at a time; what it finds must be what
    the whole-text functions find: shingles, SimHash and the normalised text's hash (the runs of
    three Han characters, or of three Latin words, that straddle two pieces included)."""
    import hashlib

    from neardup_gui.core.fingerprint.minhash import unpack_shingles
    from neardup_gui.core.fingerprint.scheme import fingerprint_text, text_simhash
    from neardup_gui.core.models import Extracted, Status

    rng = np.random.default_rng(5)
    zh = "".join(
        (Path(__file__).parents[1] / "data" / "zh").joinpath(name).read_text(encoding="utf-8")
        for name in sorted(p.name for p in (Path(__file__).parents[1] / "data" / "zh").glob("*.txt"))
    )
    latin = [f"w{int(n)}" for n in rng.integers(0, 40_000, 330_000)]
    parts = []
    for i in range(0, len(latin), 500):  # long runs of Latin and of Han, cut at no fixed place
        parts.append(" ".join(latin[i : i + 500]))
        start = int(rng.integers(0, len(zh) - 8000))
        parts.append(zh[start : start + int(rng.integers(1, 600))])
    raw = "\n".join(parts) + " Ｆｉｎｅ Straße e\u0301"
    assert len(raw) > 2_100_000  # three pieces at least
    scheme = Scheme(simhash_features=features)
    fp = fingerprint_text(b"d" * 16, "text", Extracted(Status.OK, raw), scheme)
    norm = text.normalise(raw)
    assert fp.text_hash == hashlib.blake2b(norm.encode("utf-8", "surrogatepass"), digest_size=16).digest()
    assert unpack_shingles(fp.shingles).tolist() == text_shingles(norm, scheme).tolist()
    assert fp.simhash == text_simhash(norm, scheme)
    assert not fp.short_text


def test_a_long_text_with_few_words_is_shingled_by_characters_like_a_short_one():
    from neardup_gui.core.fingerprint.minhash import unpack_shingles
    from neardup_gui.core.fingerprint.scheme import fingerprint_text
    from neardup_gui.core.models import Extracted, Status

    raw = "... !!! ,,, " * 200_000 + " one two three "
    fp = fingerprint_text(b"d" * 16, "text", Extracted(Status.OK, raw), Scheme())
    assert fp.short_text
    assert unpack_shingles(fp.shingles).tolist() == text_shingles(text.normalise(raw), Scheme()).tolist()


def test_han_words_are_jiebas_words_hashed_like_any_other_token():
    """A scheme whose SimHash features are jieba's words gets, for each Han run, jieba's own segmentation
    (its dictionary, without HMM) after the non-Han words, each hashed as a token of its own."""
    import jieba

    for path in sorted(ZH_TEXTS.glob("*.txt")):
        norm = text.normalise(path.read_text(encoding="utf-8"))
        tokens = text.tokenize(norm, segment_han=True)
        is_han = np.concatenate(([False], text._classes()[text._codepoints(norm)] == text.HAN, [False]))
        edges = np.flatnonzero(np.diff(is_han.astype(np.int8))).tolist()
        runs = [norm[start:end] for start, end in zip(edges[0::2], edges[1::2], strict=True)]
        expected = [word for run in runs for word in jieba.lcut(run, HMM=False)]
        assert len(expected) > 1000 and tokens.han_words == len(expected)
        assert np.array_equal(tokens.words[len(tokens.words) - tokens.han_words :], text.hash_tokens(expected))


def test_sorted_unique_is_numpys_unique_and_the_package_calls_only_it():
    """numpy 2.3+ takes a hash-table path for a plain np.unique of integers (numpy#31969, open): 20-80x
    slower than a sort on a million distinct codes here. sorted_unique is the sort, with np.unique's answer;
    a call to np.unique in the package asks for counts, indices or an inverse (the sorting path) or is a bug."""
    rng = np.random.default_rng(2)
    for values in (rng.integers(0, 50, 1000), rng.integers(0, 1 << 62, 5000), np.empty(0, np.int64), np.ones(1)):
        values = values if len(values) < 1000 else values.reshape(-1, 2)  # flattened, as np.unique does
        assert np.array_equal(text.sorted_unique(values), np.unique(values))
    plain = []
    for path in Path(neardup_gui.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "unique"
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "np"
                and not any((k.arg or "").startswith("return_") for k in node.keywords)
            ):
                plain.append(f"{path.name}:{node.lineno}")
    assert plain == []
