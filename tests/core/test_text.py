import subprocess
import sys

import numpy as np

from neardup_gui.core import text
from neardup_gui.core.fingerprint import Scheme, text_shingles


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


def test_hashes_do_not_depend_on_the_process_or_its_hash_seed():
    script = (
        "from neardup_gui.core import text, fingerprint as f;"
        "s=f.Scheme();n=text.normalise('Near-duplicate 文档 detection with SimHash');"
        "print(f.text_simhash(n, s), text.shingle_hashes(text.hash_tokens(text.units(n)), 3).tolist())"
    )
    outputs = {
        subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                       env={"PYTHONHASHSEED": seed, "PATH": "/usr/bin:/bin"}).stdout
        for seed in ("1", "2", "12345")
    }
    assert len(outputs) == 1


def test_latin_text_never_loads_jieba():
    script = (
        "import sys; from neardup_gui.core import text, fingerprint as f;"
        "f.text_simhash(text.normalise('plain English text only, no Han at all'), f.Scheme());"
        "print('jieba' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
