"""The job's spanning forest of a large component (no Spark needed): edges as similar as each other are
taken in the order of their texts' first paths, the order the desktop mostly meets them in, so that both
split such a component alike (at 100,000 documents, two texts of the same shingle set tied)."""

from __future__ import annotations

from neardup_gui.core.models import Similarity
from neardup_gui.spark.result import _forest


def _edge(a: int, b: int, text_a: bytes, text_b: bytes, jaccard: float) -> tuple[object, ...]:
    """A verified pair as the job carries it: text ids, numbers, by SimHash, by MinHash, text hashes, Jaccard."""
    return (a, b, Similarity(3, jaccard, jaccard, jaccard, jaccard), False, True, text_a, text_b, jaccard)


def test_edges_as_similar_join_in_the_order_of_their_texts_first_paths():
    # x is as like a as b (a and b have the same set): the edge to the text whose first path comes first
    # joins, whichever way the texts' hashes sort
    edges = [_edge(0, 1, b"x", b"\xff", 0.9), _edge(0, 2, b"x", b"\x00", 0.9), _edge(1, 2, b"\xff", b"\x00", 1.0)]
    for first_a, first_b in (("/c/1.txt", "/c/2.txt"), ("/c/2.txt", "/c/1.txt")):
        paths = {b"x": "/c/0.txt", b"\xff": first_a, b"\x00": first_b}
        joined = {(e[1], e[2]) for e in _forest((7, edges), paths)}
        first = b"\xff" if first_a < first_b else b"\x00"
        assert joined == {(b"\xff", b"\x00"), (b"x", first)}
