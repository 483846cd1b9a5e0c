"""The numbers shown for a pair decide as the exact ratios do: a pair shown as reaching a threshold reaches
it exactly, and one that reaches it is shown reaching it (Jaccard, containment, excerpts alike)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from neardup_gui.core.match.matcher import _shown, similarity_of
from neardup_gui.core.models import Excerpt, Method, Thresholds, matched_by, shown_ratio

# a threshold the slider, the command line or a saved setting can hold: whole per cents, and any 4 places
thresholds = st.one_of(st.integers(30, 100).map(lambda p: p / 100), st.integers(3000, 10000).map(lambda p: p / 10000))


@st.composite
def overlaps(draw):
    """(shared, size of a, size of b) of two sets of shingles."""
    shared = draw(st.integers(0, 20_000))
    return shared, shared + draw(st.integers(0, 20_000)), shared + draw(st.integers(0, 20_000))


def test_a_pair_just_below_the_threshold_is_shown_below_it():
    # measured on the benchmark's corpus: 3,535 of 4,419 shingles in common, 0.79995; shown as 0.8 it was
    # grouped at 0.8
    sim = similarity_of(3535, 3551, 4403, 12, 0.68)
    assert sim.jaccard == 0.7999
    assert matched_by(sim, Thresholds(jaccard=0.8)) is None
    assert matched_by(sim, Thresholds(jaccard=0.79)) == "minhash"


@given(overlaps(), thresholds)
@settings(max_examples=2000, deadline=None)
def test_what_is_shown_reaches_a_threshold_exactly_when_the_ratio_does(sizes, t):
    shared, size_a, size_b = sizes
    union = size_a + size_b - shared
    sim = similarity_of(shared, size_a, size_b, 64, 0.0)
    exact = Fraction(shared, union) if union else Fraction(1)
    at = Fraction(t).limit_denominator(10_000)  # the threshold as written: 0.8, not the float nearest it
    assert (matched_by(sim, Thresholds(method=Method.MINHASH, jaccard=t)) is not None) == (exact >= at)
    if size_a:
        assert (sim.containment_ab >= t - 1e-9) == (Fraction(shared, size_a) >= at)
    if size_a and size_b:
        inner, outer = (size_a, size_b) if size_a <= size_b else (size_b, size_a)
        excerpt = Excerpt(1, 2, shared, inner, outer)
        assert (excerpt.containment >= t - 1e-9) == (Fraction(shared, inner) >= at)
    assert 0 <= exact - Fraction(sim.jaccard).limit_denominator(10_000) < Fraction(1, 10_000)


@given(st.lists(overlaps(), min_size=1, max_size=50))
def test_many_pairs_are_shown_as_one_is(pairs):
    shared, size_a, _ = (np.array(column) for column in zip(*pairs, strict=True))
    whole = np.where(np.arange(len(pairs)) % 7 == 0, 0, size_a)  # some with nothing to divide by
    assert _shown(shared, whole, 1.0).tolist() == [
        shown_ratio(int(p), int(w)) if w else 1.0 for p, w in zip(shared, whole, strict=True)
    ]
    assert shown_ratio(2, 3) == 0.6666 and shown_ratio(4, 5) == 0.8 and shown_ratio(7, 10) == 0.7
