"""`neardup scan/groups --find passages`: the pairs of documents that share a passage of N words (Chinese:
characters) word for word, with where each passage sits in both texts, in the JSON report beside the groups,
which do not change."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from neardup_gui.core.fingerprint.text import normalise, units
from tests.conftest import chinese_texts, english_texts, plant_edits, run_cli

pytestmark = pytest.mark.e2e  # runs the command line in a process of its own


@pytest.fixture
def uploads(tmp_path: Path) -> Path:
    """Three licences and a statute (the statute in GB18030); an essay of our own words quoting 80 words of
    one licence and 120 characters of the statute; a note quoting 40 words (too short); a near copy of a
    licence (a group)."""
    root = tmp_path / "uploads"
    root.mkdir()
    en, zh = english_texts(), chinese_texts()
    statute = next(iter(zh.values()))
    for name in ("Apache-2.0", "GPL-2", "MPL-2.0"):
        (root / f"{name}.txt").write_text(en[name], encoding="utf-8")
    (root / "statute.txt").write_bytes(statute.encode("gb18030"))
    own = plant_edits(" ".join(en["BSD"].split()[:150]), 0.05, seed=3)
    apache = " ".join(en["Apache-2.0"].split()[400:480])
    (root / "essay.txt").write_text(
        own[:400] + "\n\n" + apache + "\n\n" + own[400:] + "\n" + statute[2000:2120], encoding="utf-8"
    )
    (root / "note.txt").write_text("As they say: " + " ".join(en["GPL-2"].split()[300:340]), encoding="utf-8")
    (root / "MPL-2.0-copy.txt").write_text(plant_edits(en["MPL-2.0"], 0.01, seed=2), encoding="utf-8")
    return root


def test_shared_passages_are_found_and_placed_in_both_texts(uploads, tmp_path):
    db = tmp_path / "n.db"
    plain = run_cli("scan", str(uploads), "--db", str(db), "--out", str(tmp_path / "plain.json"))
    assert plain.returncode == 0, plain.stderr
    asked = run_cli("groups", "--db", str(db), "--find", "passages", "--out", str(tmp_path / "asked.json"))
    assert asked.returncode == 0, asked.stderr
    before = json.loads((tmp_path / "plain.json").read_text(encoding="utf-8"))
    report = json.loads((tmp_path / "asked.json").read_text(encoding="utf-8"))
    assert "passages" not in before and "passage_words" not in before["settings"]
    for key in ("documents", "pairs", "groups"):
        assert report[key] == before[key], key
    assert report["settings"]["passage_words"] == 50 and report["settings"]["passage_common"] == 10
    assert report["summary"]["passages"] == len(report["passages"])

    name = {d["id"]: Path(d["path"]).name for d in report["documents"]}
    found = {(name[p["a"]], name[p["b"]]): p for p in report["passages"]}
    assert {("Apache-2.0.txt", "essay.txt"), ("essay.txt", "statute.txt")} <= set(found)
    assert set(found) - {("MPL-2.0-copy.txt", "MPL-2.0.txt")} == {
        ("Apache-2.0.txt", "essay.txt"),
        ("essay.txt", "statute.txt"),
    }  # the note's 40 words are no passage of 50
    texts = {n: (uploads / n).read_bytes().decode("gb18030" if n == "statute.txt" else "utf-8") for n in name.values()}
    for (a, b), record in found.items():
        assert record["a"] < record["b"] and record["longest_words"] == max(p["words"] for p in record["passages"])
        for passage in record["passages"]:
            assert passage["words"] >= 50
            in_a = texts[a][passage["a_start"] : passage["a_end"]]
            in_b = texts[b][passage["b_start"] : passage["b_end"]]
            assert normalise(in_a) == normalise(in_b), (a, b)  # the same words, wherever the lines break
            assert normalise(passage["text"].rstrip("…"))[:100] == normalise(in_a)[:100]
    quoted = found[("Apache-2.0.txt", "essay.txt")]["passages"]
    apache = " ".join(english_texts()["Apache-2.0"].split()[400:480])
    assert [p["words"] for p in quoted] == [len(units(normalise(apache)))]  # the whole quotation, no more
    statute = found[("essay.txt", "statute.txt")]["passages"]
    assert len(statute) == 1 and 90 <= statute[0]["words"] <= 120  # characters, punctuation not counted

    longer = run_cli("groups", "--db", str(db), "--find", "passages", "--words", "100", "--format", "json")
    assert longer.returncode == 0, longer.stderr
    assert {(name[p["a"]], name[p["b"]]) for p in json.loads(longer.stdout)["passages"]} <= {
        ("MPL-2.0-copy.txt", "MPL-2.0.txt"),
        ("essay.txt", "statute.txt"),
    }


def test_the_html_report_shows_each_pair_with_its_passages(uploads, tmp_path):
    """What an editor hands on: each pair that shares passages, the longest first, with each passage's words
    (escaped) and how far into each document it sits; beside the excerpts when both are asked for."""
    db = tmp_path / "n.db"
    page = tmp_path / "report.html"
    done = run_cli(
        "scan", str(uploads), "--db", str(db), "--find", "passages", "--find", "excerpts", "--format", "html",
        "--out", str(page),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    html = page.read_text(encoding="utf-8")
    as_json = json.loads(run_cli("groups", "--db", str(db), "--find", "passages", "--format", "json").stdout)
    assert "Excerpts (" in html and f"Shared passages ({len(as_json['passages'])})" in html
    section = html[html.index("Shared passages (") : html.index("Problems (")]
    assert section.count("<details class='group'") == len(as_json["passages"]) == 3
    longest = sorted((p["longest_words"] for p in as_json["passages"]), reverse=True)
    shown = [int(s.split("the longest ")[1].split(" ")[0].replace(",", "")) for s in section.split("<summary>")[1:]]
    assert shown == longest
    essay = section[section.index("Apache-2.0.txt") :]
    essay = essay[: essay.index("</details>")]
    assert "essay.txt" in essay and "into the first document" in essay
    quoted = " ".join(essay.split("<blockquote>")[1].split("</blockquote>")[0].split())
    assert quoted.rstrip("…")[:80] in " ".join(english_texts()["Apache-2.0"].split())
