import numpy as np
import pytest

from neardup_gui.core.fingerprint import simhash, text
from neardup_gui.core.fingerprint.scheme import Scheme, text_simhash
from tests.conftest import chinese_texts, english_texts, plant_edits


def test_identical_features_give_identical_fingerprints_and_order_does_not_matter():
    feats = text.hash_tokens(["alpha", "beta", "gamma", "delta"])
    assert simhash.simhash(feats) == simhash.simhash(feats[::-1])


def test_each_bit_is_the_sign_of_the_weighted_vote():
    feats = np.array([0b1011, 0b0110, 0b0001], dtype=np.uint64)
    weights = np.array([1.0, 3.0, 1.0])
    value = simhash.simhash(feats, weights)
    for bit in range(64):
        vote = sum(w if (int(f) >> bit) & 1 else -w for f, w in zip(feats, weights, strict=True))
        assert ((value >> bit) & 1) == (vote > 0)


def test_hamming_is_popcount_of_xor():
    a = np.array([0, 0xFF, 2**64 - 1], dtype=np.uint64)
    b = np.array([0, 0x0F, 0], dtype=np.uint64)
    assert simhash.hamming(a, b).tolist() == [0, 4, 64]


def test_signed_round_trip_for_sqlite():
    for value in (0, 1, 2**63 - 1, 2**63, 2**64 - 1):
        assert simhash.to_unsigned(simhash.to_signed(value)) == value
        assert -(2**63) <= simhash.to_signed(value) < 2**63


def test_near_duplicates_are_closer_than_unrelated_documents():
    scheme = Scheme()
    docs = english_texts()
    base = docs["Apache-2.0"]
    near = text_simhash(text.normalise(plant_edits(base, 0.01, seed=1)), scheme)
    own = text_simhash(text.normalise(base), scheme)
    unrelated = [text_simhash(text.normalise(t), scheme) for name, t in docs.items() if name != "Apache-2.0"]
    nearest_unrelated = min(int(simhash.hamming(own, u)) for u in unrelated)
    assert int(simhash.hamming(own, near)) <= 10 < nearest_unrelated


@pytest.mark.parametrize("features", ["word-3grams+han-3grams", "word-3grams+jieba-words"])
def test_chinese_near_copies_are_closer_than_other_statutes(features):
    """Chinese statutes share their formulaic vocabulary: a copy with 2 % of its characters edited
    must still be nearer its original than any other statute is, with runs of Han characters (the
    default) as with jieba's words."""
    scheme = Scheme(simhash_features=features)
    docs = chinese_texts()
    for name, body in docs.items():
        own = text_simhash(text.normalise(body), scheme)
        near = text_simhash(text.normalise(plant_edits(body, 0.02, seed=3)), scheme)
        others = [text_simhash(text.normalise(t), scheme) for other, t in docs.items() if other != name]
        assert int(simhash.hamming(own, near)) < min(int(simhash.hamming(own, o)) for o in others), name


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError):
        simhash.simhash(np.zeros((2, 2), dtype=np.uint64))
    with pytest.raises(ValueError):
        simhash.simhash(np.zeros(3, dtype=np.uint64), np.ones(2))
    assert simhash.simhash(np.zeros(0, dtype=np.uint64)) == 0
