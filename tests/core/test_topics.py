"""What a group is about: each document's keywords (fingerprint/keywords.py) and the words a group's members
share (review/topics.py), on real statutes and licences."""

from __future__ import annotations

import re

from neardup_gui.core.fingerprint.keywords import keywords, pack, unpack
from neardup_gui.core.models import IDENTICAL, Document, Group, Member, Status
from neardup_gui.core.review.topics import GroupTopics, Topics
from neardup_gui.core.review.words import listed
from tests.conftest import chinese_texts, english_texts


def _words(text: str) -> list[str]:
    return [word for word, _weight in keywords(text)]


def test_a_chinese_statute_is_about_the_words_of_its_title():
    texts = chinese_texts()
    assert "中华鲟" in _words(texts["01_chinese_sturgeon"])[:3]
    assert "烟花爆竹" in _words(texts["02_fireworks_safety"])[:3]
    assert "图书馆" in _words(texts["04_public_libraries"])[:3]
    assert "出租汽车" in _words(texts["05_taxi_management"])[:3]


def test_chinese_keywords_are_whole_words_not_the_pieces_of_longer_ones():
    """As jieba's segmentation keeps them: 图书馆 of 公共图书馆, never 书馆 or 共图; 烟花爆竹, not 爆竹."""
    libraries = _words(chinese_texts()["04_public_libraries"])
    fireworks = _words(chinese_texts()["02_fireworks_safety"])
    assert "书馆" not in libraries and "共图" not in libraries
    assert "爆竹" not in fireworks and "烟花" not in fireworks


def test_english_keywords_leave_out_function_words_and_name_the_licence():
    words = _words(english_texts()["GPL-2"])
    assert {"the", "and", "this", "that", "with"}.isdisjoint(words)
    assert {"gnu", "general", "public"} <= set(words)
    assert "apache" in _words(english_texts()["Apache-2.0"])


def test_the_title_weighs_more_than_the_body():
    body = "apple banana cherry. " * 5
    assert _words("Zebra\n" + body)[0] != "zebra"  # once, not in the title: below the body's words
    assert _words("Zebra\n" * 3 + "x " * 200 + body)[0] == "zebra"


def test_a_text_without_words_has_no_keywords():
    assert keywords("") == ()
    assert keywords("123 456 !!! ... 7.5 %") == ()
    assert keywords("x" * 100_000) == ()  # one run of letters is no word


def test_keywords_are_kept_and_read_back_and_damaged_lines_are_passed_over():
    found = keywords(chinese_texts()["03_archives"])
    assert unpack(pack(found)) == found
    assert unpack(None) == () and unpack("") == ()
    assert unpack("word 1.5\nno-weight\nbad nan\nzero 0\nneg -2\ninf inf\nother 2") == (("word", 1.5), ("other", 2.0))
    assert unpack("<img src=x onerror=alert(1)> 3\n" + "x" * 31 + " 2\n中文 1") == (("中文", 1.0),)


def _document(doc_id: int, content: int | None) -> Document:
    return Document(doc_id, f"/c/{doc_id}.txt", 1, 0, "text", Status.OK, "", 10, content)


def _group(group_id: int, *documents: int) -> Group:
    return Group(group_id, documents[0], tuple(Member(d, IDENTICAL) for d in documents), False)


class _Named:
    """Topics over rows of keywords, as a session reads them for a grouping first."""

    def __init__(self, rows: dict[int, tuple[tuple[str, float], ...]]) -> None:
        packed = {content: pack(words) for content, words in rows.items()}
        self.topics = Topics(lambda ids: [(i, packed[i]) for i in ids if i in packed], list(packed.items()))

    def of(self, groups: list[Group], docs: dict[int, Document]) -> dict[int, tuple[str, ...]]:
        self.topics.read(c for g in groups for m in g.members if (c := docs[m.document_id].content_id) is not None)
        return dict(self.topics.of(groups, docs))


def _topics(rows: dict[int, tuple[tuple[str, float], ...]]) -> _Named:
    return _Named(rows)


def test_a_group_is_named_by_the_words_most_of_its_members_share():
    topics = _topics(
        {
            1: (("apache", 5.0), ("license", 4.0), ("patent", 3.0), ("alpha", 9.0)),
            2: (("apache", 5.0), ("license", 4.0), ("patent", 3.0), ("beta", 9.0)),
            3: (("apache", 5.0), ("license", 4.0), ("gamma", 9.0)),
            4: (("gnu", 5.0), ("license", 4.0)),
        }
    )
    docs = {d: _document(d, d) for d in (1, 2, 3, 4)}
    named = topics.of([_group(7, 1, 2, 3)], docs)
    # alpha, beta and gamma weigh most, but each is one member's of three; what more members share comes first
    assert named == {7: ("apache", "license", "patent")}


def test_a_word_every_content_has_comes_after_rarer_ones():
    common = {c: (("license", 9.0), (f"w{c}", 1.0)) for c in range(10, 30)}
    rows = {1: (("license", 9.0), ("expat", 1.0)), 2: (("license", 9.0), ("expat", 1.0)), **common}
    named = _topics(rows).of([_group(1, 1, 2)], {d: _document(d, d) for d in (1, 2)})
    assert named == {1: ("expat", "license")}


def test_a_word_and_its_parts_or_plural_are_named_once():
    words = (("劳动合同", 5.0), ("合同", 4.0), ("copies", 3.0), ("copy", 2.9), ("用人单位", 2.0))
    named = _topics({1: words, 2: words}).of([_group(1, 1, 2)], {d: _document(d, d) for d in (1, 2)})
    assert named == {1: ("劳动合同", "copies", "用人单位")}


def test_members_read_before_keywords_were_kept_leave_their_group_unnamed():
    topics = _topics({1: (("apache", 1.0),), 2: ()})
    docs = {1: _document(1, 1), 2: _document(2, 2), 3: _document(3, None), 4: _document(4, 99)}
    assert topics.of([_group(1, 2, 3, 4)], docs) == {}
    assert topics.of([], docs) == {}
    # one member of two has it: half the members share it
    assert topics.of([_group(2, 1, 2)], docs) == {2: ("apache",)}


def test_keywords_are_read_once_per_content_and_a_group_named_when_asked():
    asked: list[list[int]] = []
    rows = {1: pack((("apache", 1.0),)), 2: pack((("apache", 1.0),))}
    topics = Topics(lambda ids: asked.append(list(ids)) or [(i, rows[i]) for i in ids if i in rows], [])
    docs = {d: _document(d, d) for d in (1, 2, 3)}
    topics.read([1, 2])
    topics.read([2, 1, 3])
    assert asked == [[1, 2], [3]]
    named = topics.of([_group(1, 1, 2), _group(2, 3)], docs)
    assert named[1] == ("apache",) and named.get(2) is None and 2 not in named
    assert dict(named) == {1: ("apache",)} and len(named) == 1


def test_a_topic_reads_as_a_list_in_the_language_shown():
    assert listed(("apache", "license")) == "apache, license"
    assert re.fullmatch(r"劳动合同.{1,2}用人单位", listed(("劳动合同", "用人单位")))


def test_a_group_is_found_by_any_word_its_documents_are_about_not_only_its_three():
    rows = {
        1: (("mean", 9.0), ("entity", 8.0), ("form", 7.0), ("work", 6.0), ("Apache", 1.0)),
        2: (("mean", 9.0), ("entity", 8.0), ("form", 7.0), ("work", 6.0)),
    }
    named = _Named(rows)
    docs = {d: _document(d, d) for d in (1, 2)}
    named.of([_group(1, 1, 2)], docs)
    topics = named.topics.of([_group(1, 1, 2)], docs)
    assert topics[1] == ("mean", "entity", "form")
    assert topics.mentions(1, "apache")  # one document's keyword, in any case
    assert topics.mentions(1, "mean, entity") and topics.mentions(1, "mean,")  # the topic as its row reads
    assert not topics.mentions(1, "gnu") and not topics.mentions(1, "apache, mean")
    assert not topics.mentions(1, "9")  # a weight is not a word
    assert not GroupTopics.none() and dict(GroupTopics.none()) == {}
