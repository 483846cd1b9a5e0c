"""`neardup scan/groups --find excerpts`: the documents inside another, however small a part of it they
are, in the JSON report beside the groups, which do not change."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import chinese_texts, english_texts, plant_edits, run_cli

pytestmark = pytest.mark.e2e  # runs the command line in a process of its own


@pytest.fixture
def uploads(tmp_path: Path) -> Path:
    """Three licences and a statute (in UTF-8 and GB18030); a chapter of one licence (2 % of its words
    edited), a passage of another after a note of our own, a part of the statute; and a near-copy of a
    licence (a group)."""
    root = tmp_path / "uploads"
    root.mkdir()
    en, zh = english_texts(), chinese_texts()
    statute = next(iter(zh.values()))
    for name in ("Apache-2.0", "GPL-2", "MPL-2.0"):
        (root / f"{name}.txt").write_text(en[name], encoding="utf-8")
    (root / "statute.txt").write_text(statute, encoding="utf-8")
    (root / "statute-gb.txt").write_bytes(statute.encode("gb18030"))  # the same text: as many shingles
    (root / "gpl-chapter.txt").write_text(plant_edits(en["GPL-2"][6000:11000], 0.02, seed=1), encoding="utf-8")
    note = " ".join(en["BSD"].split()[:40])
    (root / "apache-quoted.txt").write_text(note + "\n\n" + en["Apache-2.0"][3000:5600], encoding="utf-8")
    (root / "statute-part.txt").write_text(statute[len(statute) // 2 : len(statute) // 2 + 800], encoding="utf-8")
    (root / "MPL-2.0-copy.txt").write_text(plant_edits(en["MPL-2.0"], 0.01, seed=2), encoding="utf-8")
    return root


def _excerpts(report: dict) -> dict[tuple[str, str], dict]:
    name = {d["id"]: Path(d["path"]).name for d in report["documents"]}
    return {(name[e["inner"]], name[e["outer"]]): e for e in report["excerpts"]}


def test_excerpts_are_found_beside_groups_that_do_not_change(uploads, tmp_path):
    db = tmp_path / "n.db"
    plain = run_cli("scan", str(uploads), "--db", str(db), "--out", str(tmp_path / "plain.json"))
    assert plain.returncode == 0, plain.stderr
    asked = run_cli("groups", "--db", str(db), "--find", "excerpts", "--out", str(tmp_path / "asked.json"))
    assert asked.returncode == 0, asked.stderr
    before = json.loads((tmp_path / "plain.json").read_text(encoding="utf-8"))
    report = json.loads((tmp_path / "asked.json").read_text(encoding="utf-8"))
    assert "excerpts" not in before and "excerpt_groups" not in before and "containment" not in before["settings"]
    for key in ("documents", "pairs", "groups"):
        assert report[key] == before[key], key
    assert {k: v for k, v in report["settings"].items() if k != "containment"} == before["settings"]
    assert {k: v for k, v in report["summary"].items() if k not in ("excerpts", "scan")} == {
        k: v for k, v in before["summary"].items() if k != "scan"
    }
    found = _excerpts(report)
    # each excerpt inside its source, at a Jaccard no near-duplicate search goes down to; the near-copies
    # (inside each other too) are a group as before
    assert {
        ("gpl-chapter.txt", "GPL-2.txt"),
        ("apache-quoted.txt", "Apache-2.0.txt"),
        ("statute-part.txt", "statute.txt"),
    } <= set(found)
    assert set(found) - {("MPL-2.0-copy.txt", "MPL-2.0.txt"), ("MPL-2.0.txt", "MPL-2.0-copy.txt")} == {
        ("gpl-chapter.txt", "GPL-2.txt"),
        ("apache-quoted.txt", "Apache-2.0.txt"),
        ("statute-part.txt", "statute.txt"),
        ("statute-part.txt", "statute-gb.txt"),
        ("statute-gb.txt", "statute.txt"),  # alike in size: the first by path is inside, whichever was read first
    }
    for (inner, outer), record in found.items():
        assert 0.8 <= record["containment"] <= 1.0
        assert record["shared_shingles"] >= 0.8 * record["inner_shingles"]
        if "copy" not in inner + outer and inner != "statute-gb.txt":
            assert record["jaccard"] < 0.3, (inner, outer)
    assert report["settings"]["containment"] == 0.8 and report["summary"]["excerpts"] == len(found)
    # the same excerpts by the document they are inside: the statute holds its part and its GB18030 twin,
    # the most inside first; every excerpt under its holder, once
    name = {d["id"]: Path(d["path"]).name for d in report["documents"]}
    groups = {name[g["outer"]]: [name[i] for i in g["inner"]] for g in report["excerpt_groups"]}
    assert sorted(groups["statute.txt"]) == ["statute-gb.txt", "statute-part.txt"]
    assert report["excerpt_groups"][0]["outer"] == next(d for d, n in name.items() if n == "statute.txt")
    assert groups["statute.txt"][0] == max(
        groups["statute.txt"], key=lambda inner: found[(inner, "statute.txt")]["containment"]
    )
    assert sorted((inner, outer) for outer, inners in groups.items() for inner in inners) == sorted(found)
    # the passage after a note of our own is inside at 0.8 but not at 0.97: the note is not in the licence
    quoted = found[("apache-quoted.txt", "Apache-2.0.txt")]["containment"]
    assert quoted < 0.97
    strict = run_cli("groups", "--db", str(db), "--find", "excerpts", "--containment", "0.97", "--format", "json")
    assert strict.returncode == 0, strict.stderr
    assert ("apache-quoted.txt", "Apache-2.0.txt") not in _excerpts(json.loads(strict.stdout))
    assert ("statute-part.txt", "statute.txt") in _excerpts(json.loads(strict.stdout))


@pytest.mark.parametrize(
    "args, message",
    [
        (["--find", "excerpts", "--containment", "0.2"], "must be between 0.5 and 1"),
        (["--find", "excerpts", "--containment", "nan"], "must be between 0.5 and 1"),
        (["--find", "excerpts", "--format", "csv"], "not in CSV"),
        (["--find", "excerpt"], "invalid choice"),
        (["--containment", "0.9"], "--find excerpts"),
        (["--find", "passages", "--containment", "0.9"], "--find excerpts"),
        (["--find", "passages", "--words", "5"], "must be between 20 and 10000"),
        (["--find", "passages", "--format", "csv"], "not in CSV"),
        (["--find", "excerpts", "--words", "60"], "--find passages"),
        (["--find", "passages", "--common", "1"], "must be between 2 and 1000"),
        (["--common", "5"], "--find passages"),
    ],
)
def test_a_search_for_excerpts_or_passages_asked_wrongly_says_so(uploads, tmp_path, args, message):
    proc = run_cli("scan", str(uploads), "--db", str(tmp_path / "n.db"), *args)
    assert proc.returncode == 2 and message in proc.stderr and "Traceback" not in proc.stderr
    assert not (tmp_path / "n.db").exists()  # refused before the scan


def test_the_html_report_shows_each_excerpt_with_the_passages_it_shares(uploads, tmp_path):
    """What a teacher hands on: each document that holds others with the documents inside it, the most of
    each inside first, with the passages the two share word for word, escaped."""
    db = tmp_path / "n.db"
    page = tmp_path / "report.html"
    done = run_cli("scan", str(uploads), "--db", str(db), "--find", "excerpts", "--format", "html", "--out", str(page))
    assert done.returncode == 0, done.stderr
    html = page.read_text(encoding="utf-8")
    as_json = json.loads(run_cli("groups", "--db", str(db), "--find", "excerpts", "--format", "json").stdout)
    assert f"Excerpts ({len(as_json['excerpts'])})" in html
    section = html[html.index("Excerpts (") : html.index("Problems (")]
    # each document that holds others once, in the JSON's order, with each excerpt it holds under it
    assert section.count("<details class='group'") == len(as_json["excerpt_groups"])
    assert section.count("<details class='pair'") == len(as_json["excerpts"])
    paths = {d["id"]: d["path"] for d in as_json["documents"]}
    holders = [section.index(f"<summary><b class='path'>{paths[g['outer']]}</b>") for g in as_json["excerpt_groups"]]
    assert holders == sorted(holders)
    gpl = section[section.index("gpl-chapter.txt") :]
    gpl = gpl[: gpl.index("</details>")]
    assert "is inside" in gpl and "GPL-2.txt" in gpl
    quoted = [q.split("</blockquote>")[0] for q in gpl.split("<blockquote>")[1:]]
    assert quoted and all(len(q) >= 30 for q in quoted)
    source = " ".join(english_texts()["GPL-2"].split())
    assert any(" ".join(q.split())[:60] in source for q in quoted)  # the licence's words, as they are
