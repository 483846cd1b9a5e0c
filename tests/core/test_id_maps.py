"""The maps kept for every document of a collection: the answers of a dict, in a fraction of its memory, and
made once for all who ask."""

from __future__ import annotations

import numpy as np
import pytest

from neardup_gui.core.store.id_maps import BytesById, RowsById


def test_rows_by_id_answers_as_the_dict_it_replaces():
    ids = np.array([40, 7, 19, 3, 1_000_000_007], dtype=np.int64)
    rows = RowsById(ids)
    expected = {int(cid): row for row, cid in enumerate(ids.tolist())}
    assert dict(rows) == expected
    assert len(rows) == 5 and rows[19] == 2 and rows[np.int64(40)] == 0
    assert 8 not in rows and rows.get(8) is None and "7" not in rows and True not in rows
    with pytest.raises(KeyError):
        rows[4]
    assert rows.rows(np.array([3, 40, 40, 1_000_000_007])).tolist() == [3, 0, 0, 4]
    with pytest.raises(KeyError, match="41"):
        rows.rows(np.array([3, 41]))
    with pytest.raises(KeyError):
        rows.rows(np.array([1_000_000_008]))  # past the largest id
    assert rows.find(np.array([19, 8, 1_000_000_008, 3, 0])).tolist() == [2, -1, -1, 3, -1]
    assert RowsById(np.empty(0, dtype=np.int64)).find(np.array([1, 2])).tolist() == [-1, -1]


def test_an_empty_map_has_nothing_and_refuses_every_id():
    rows = RowsById(np.empty(0, dtype=np.int64))
    assert len(rows) == 0 and 0 not in rows and list(rows) == []
    assert rows.rows(np.empty(0, dtype=np.int64)).tolist() == []
    with pytest.raises(KeyError):
        rows.rows(np.array([0]))
    assert dict(BytesById.of([])) == {}


def test_ids_given_twice_are_refused():
    with pytest.raises(ValueError, match="distinct"):
        RowsById(np.array([1, 2, 1]))
    with pytest.raises(ValueError, match="values"):
        BytesById(np.array([1, 2]), [b"x"])


def test_bytes_by_id_gives_back_each_value_whatever_its_length():
    pairs = [(9, b"\x00" * 16), (2, b""), (5, b"abc\x00"), (11, bytes(range(256)))]
    found = BytesById.of(pairs)
    assert dict(found) == dict(pairs)  # trailing NULs and empty values kept (a numpy "S" array drops them)
    assert found[5] == b"abc\x00" and found.get(6) is None and 2 in found
    with pytest.raises(KeyError):
        found[3]


def test_a_collections_documents_are_indexed_by_id_once_for_every_result_made_of_them():
    import dataclasses

    from neardup_gui.core.match.matcher import MatchResult
    from neardup_gui.core.models import Document, Documents, Status, Thresholds, documents_by_id

    docs = Documents(Document(n, f"/d/{n}.txt", 10, 0, "txt", Status.OK, "", 10, n) for n in (5, 3, 9))
    result = MatchResult(Thresholds(), docs, (), ())
    index = result.documents_by_id
    assert dict(index) == {5: docs[0], 3: docs[1], 9: docs[2]}
    assert dataclasses.replace(result, groups=()).documents_by_id is index  # made once, shared
    assert documents_by_id(tuple(docs)) == index and documents_by_id(tuple(docs)) is not index  # a plain tuple
