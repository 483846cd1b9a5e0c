"""A self-contained HTML report: summary, groups with members and side-by-side diffs, problems.

One file, inline CSS and one tiny inline script (open every section before printing); no network
request; a Content-Security-Policy that allows only that script, so even a mistake in escaping could
not run a document's content. Every document text and file name is escaped.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from ... import __version__
from .. import i18n
from ..i18n import localize, translate
from ..jobs import NEVER_CANCELLED, CancelToken, Progress, ProgressEvent, no_progress
from ..match.matcher import MatchResult
from ..models import SIMHASH_MIN_JACCARD, Document, Group, SharedPassages, Status, display_path
from ..store.stored_text import DocumentText, TextsOf
from .compare import Chunk, Line, compare, describe, hunks
from .pairs import excerpts_by_holder
from .passages import PassageSpan
from .report import CutTexts, ReportContext, passages_of
from .words import human_size, kind_label, listed, percent, similarity_words, status_label

MAX_LINES_PER_PAIR = 80
MAX_DIFFS_PER_GROUP = 3  # the least similar members: the ones worth a second look
MAX_GROUPS_WITH_DIFFS = 500  # the largest groups: past them a page of thousands of diffs is tens of MB to open
MAX_EXCERPTS_SHOWN = 300  # with their passages: a collection of forms has thousands, each text read
CONTEXT_CHUNKS = 2

# Builds a pair's diff table from its JSON data block when the pair is opened (and every table
# before printing, or with #all in the address). Text goes in through textContent only.
_SCRIPT = (
    "(function(){"
    "function side(tr,cls,lines){var td=document.createElement('td');td.className=cls;"
    "(lines||[]).forEach(function(l){var d=document.createElement('div');d.className=l[2]?'ln quiet':'ln';"
    "var n=document.createElement('span');n.className='no';n.textContent=String(l[0]);d.appendChild(n);"
    "var t=document.createElement('span');t.className='t';"
    "if(typeof l[1]==='string'){t.textContent=l[1];}else{l[1].forEach(function(s){"
    "if(s[1]){var m=document.createElement('mark');m.textContent=s[0];t.appendChild(m);}"
    "else{t.appendChild(document.createTextNode(s[0]));}});}d.appendChild(t);td.appendChild(d);});"
    "tr.appendChild(td);}"
    "function build(d){if(d.dataset.built||!d.dataset.diff)return;d.dataset.built='1';"
    "var rows=JSON.parse(document.getElementById(d.dataset.diff).textContent);"
    "var t=document.createElement('table');t.className='diff';var tb=document.createElement('tbody');"
    "rows.forEach(function(r){var tr=document.createElement('tr');"
    "if(r[0]==='g'){tr.className='gap';var td=document.createElement('td');td.colSpan=2;td.textContent=r[1];"
    "tr.appendChild(td);}"
    "else{tr.className=r[0];side(tr,'l',r[1]);side(tr,'r',r[2]);}tb.appendChild(tr);});"
    "t.appendChild(tb);d.appendChild(t);}"
    "function all(){document.querySelectorAll('details').forEach(function(d){d.open=true;build(d);});}"
    "document.addEventListener('toggle',function(e){if(e.target.open)build(e.target);},true);"
    "window.addEventListener('beforeprint',all);if(location.hash==='#all')all();"
    "})();"
)
_SCRIPT_HASH = base64.b64encode(hashlib.sha256(_SCRIPT.encode()).digest()).decode()

_CSS = """
:root{--fg:#1d2330;--muted:#5b6475;--line:#d9dee7;--bg:#fff;--soft:#f5f7fa;--del:#fde7e9;--delw:#f7b9c0;
--ins:#e3f6e8;--insw:#a8e2b8;--accent:#2f5bd3}
@media (prefers-color-scheme:dark){:root{--fg:#e6e9ef;--muted:#9aa3b5;--line:#363c49;--bg:#16191f;--soft:#1e222a;
--del:#4a1f26;--delw:#7d2d38;--ins:#1c3b27;--insw:#2c6640;--accent:#8fb0ff}}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI","Noto Sans","Noto Sans CJK SC",sans-serif;
color:var(--fg);background:var(--bg)}main{max-width:1280px;margin:0 auto;padding:24px}
h1{font-size:22px;margin:0 0 4px}
h2{font-size:17px;margin:28px 0 10px;border-bottom:1px solid var(--line);padding-bottom:4px}
.muted{color:var(--muted)}.cards{display:flex;flex-wrap:wrap;gap:10px;margin:14px 0}
.card{background:var(--soft);border:1px solid var(--line);border-radius:8px;padding:8px 14px;min-width:120px}
.card b{display:block;font-size:20px}table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:4px 8px;border-bottom:1px solid var(--line);vertical-align:top}
th{font-weight:600;color:var(--muted);font-size:12px;text-transform:uppercase;letter-spacing:.03em}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.path{word-break:break-all;font-family:ui-monospace,"SFMono-Regular",Menlo,Consolas,"Noto Sans Mono CJK SC",monospace;
font-size:12.5px}
details.group{border:1px solid var(--line);border-radius:8px;margin:10px 0;background:var(--bg)}
details.group>summary{cursor:pointer;padding:8px 12px;background:var(--soft);border-radius:8px;
list-style-position:inside}
details.group[open]>summary{border-bottom:1px solid var(--line);border-radius:8px 8px 0 0}
.inner{padding:8px 12px}
.badge{display:inline-block;font-size:11px;padding:1px 7px;border-radius:10px;background:var(--line);margin-left:6px}
.badge.exact{background:var(--insw)}details.pair{margin:8px 0}details.pair>summary{cursor:pointer;color:var(--accent)}
table.diff{table-layout:fixed;font-family:ui-monospace,Menlo,Consolas,"Noto Sans Mono CJK SC",monospace;font-size:12px;
margin-top:6px}
table.diff td{border:none;padding:1px 6px;vertical-align:top;width:50%}
.ln{display:grid;grid-template-columns:3.2em 1fr;column-gap:6px}
.ln .no{color:var(--muted);text-align:right;user-select:none}
.ln .t{white-space:pre-wrap;word-break:break-all}.ln.quiet .t{color:var(--muted)}
tr.delete td.l,tr.replace td.l{background:var(--del)}tr.insert td.r,tr.replace td.r{background:var(--ins)}
td.l mark{background:var(--delw);color:inherit}td.r mark{background:var(--insw);color:inherit}
tr.gap td{color:var(--muted);background:var(--soft);text-align:center;font-style:italic}
.note{color:var(--muted);font-style:italic}
blockquote{margin:6px 0;padding:4px 10px;border-left:3px solid var(--insw);background:var(--soft);white-space:pre-wrap}
@media print{details>summary{list-style:none}main{max-width:none;padding:0}}
"""


def _e(value: object) -> str:
    """Text fit for the page, and for a terminal the page is printed to: control characters (not valid in
    HTML, and able to drive a terminal) shown as \\xNN, but for the line ends and page breaks a text has."""
    return html.escape(_CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", str(value)), quote=True)


_CONTROL = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f]")


def _note(text: str) -> str:
    return f"<p class='note'>{_e(text)}</p>"


def _html_language() -> str:
    """The report's ``lang`` attribute: the language its words are in."""
    return "zh-CN" if i18n.language() == "zh_CN" else "en"


@dataclass(frozen=True, slots=True)
class GroupDiffs:
    """The differences a group's section shows: its keeper's from each of ``members``."""

    group: int
    keeper: Document
    members: tuple[Document, ...]


DiffsMap = Callable[[Sequence[GroupDiffs]], Iterable[tuple[GroupDiffs, tuple[str, ...]]]]
"""Renders groups' differences (each with ``render_diffs``), in any order, where texts are read and compared
(the desktop's worker pool, Spark's executors)."""


@dataclass(frozen=True, slots=True)
class DiffsTask:
    """A group's differences rendered in another process: its texts read by a loader of ``texts``, the words
    in ``language``."""

    diffs: GroupDiffs
    texts: TextsOf
    language: str


def to_html(
    result: MatchResult,
    context: ReportContext,
    load_text: Callable[[Document], DocumentText] | None = None,
    *,
    map_diffs: DiffsMap | None = None,
    progress: Progress = no_progress,
    cancel: CancelToken = NEVER_CANCELLED,
) -> str:
    """The whole report as one HTML string. ``load_text`` gives documents' text for the diffs (None: no
    diffs, only numbers); ``map_diffs``, where given, renders the groups' differences (reading and comparing
    texts, most of a report's time), else they are rendered here, a group at a time."""
    docs = result.documents_by_id
    t = result.thresholds
    parts: list[str] = []
    add = parts.append
    add(f"<!DOCTYPE html><html lang='{_html_language()}'><head><meta charset='utf-8'>")
    add(
        f"<meta http-equiv='Content-Security-Policy' content=\"default-src 'none'; style-src 'unsafe-inline'; "
        f"script-src 'sha256-{_SCRIPT_HASH}'; img-src data:\">"
    )
    add("<meta name='viewport' content='width=device-width,initial-scale=1'>")
    groups = len(result.groups)  # counts are names: lupdate drops a message whose count is an expression
    title = translate("HtmlReport", "neardup report — %n group(s)", None, groups)
    add(f"<title>{_e(title)}</title><style>{_CSS}</style></head><body><main>")
    generated = time.strftime("%Y-%m-%d %H:%M", time.localtime(context.generated))
    heading = translate("HtmlReport", "Duplicate documents")
    add(f"<h1>{_e(heading)}</h1><div class='muted'>neardup {_e(__version__)} · {_e(generated)}</div>")
    cards: list[tuple[str, int | str]] = [
        (translate("HtmlReport", "documents"), len(result.documents)),
        (translate("HtmlReport", "groups"), len(result.groups)),
        (translate("HtmlReport", "exact groups"), sum(1 for g in result.groups if g.exact)),
        (translate("HtmlReport", "pairs of duplicates"), len(result.pairs)),
        (translate("HtmlReport", "redundant copies"), len(result.redundant)),
        (translate("HtmlReport", "problems"), len(result.problems)),
    ]
    if context.containment is not None:
        cards.append((translate("HtmlReport", "excerpts"), len(context.excerpts)))
    if context.passages is not None:
        cards.append((translate("HtmlReport", "pairs sharing passages"), len(context.shared_passages)))
    seconds = context.scan.get("seconds") if context.scan else None
    if seconds is not None:
        cards.append(
            (
                translate("HtmlReport", "scan time"),
                translate("HtmlReport", "{seconds} s").format(seconds=f"{seconds:.1f}"),
            )
        )
    add(
        "<div class='cards'>"
        + "".join(f"<div class='card'><b>{_e(v)}</b><span class='muted'>{_e(k)}</span></div>" for k, v in cards)
        + "</div>"
    )
    add("<table><tbody>")
    folders = "<br>".join(_e(display_path(r)) for r in context.roots) or "—"
    label = translate("HtmlReport", "Folders")
    add(f"<tr><th>{_e(label)}</th><td class='path'>{folders}</td></tr>")
    if str(t.method) == "minhash":
        method = translate(
            "HtmlReport",
            "MinHash: Jaccard ≥ {jaccard} of the shingle sets (3 words, or 3 characters); exact duplicates always",
        )
    elif str(t.method) == "simhash":
        method = translate(
            "HtmlReport",
            "SimHash Hamming distance ≤ {hamming} of 64 bits, checked: pairs sharing "
            "less than {floor} of their shingles left out; exact duplicates always",
        )
    else:
        method = translate(
            "HtmlReport",
            "either Jaccard ≥ {jaccard} of the shingle sets (3 words, or 3 characters), "
            "or SimHash Hamming distance ≤ {hamming} of 64 bits, checked: pairs sharing "
            "less than {floor} of their shingles left out; exact duplicates always",
        )
    method = method.format(jaccard=t.jaccard, hamming=t.hamming, floor=f"{SIMHASH_MIN_JACCARD:.0%}")
    label = translate("HtmlReport", "Method")
    add(f"<tr><th>{_e(label)}</th><td>{_e(method)}</td></tr>")
    boilerplate = context.boilerplate
    if boilerplate:  # SimHash too: its pairs are verified by what is compared
        if boilerplate.get("ignored"):
            passages = int(boilerplate.get("passages", 0))
            said = translate(
                "HtmlReport",
                "left out of Jaccard: %n passage(s) at the start or end of {share} or more "
                "of the documents, found in {documents} of them; {families} shared by "
                "families of similar documents kept",
                None,
                passages,
            ).format(
                share=f"{boilerplate.get('min_share', 0):.0%}",
                documents=boilerplate.get("documents_affected", 0),
                families=boilerplate.get("family_passages", 0),
            )
        else:
            note = boilerplate.get("note")
            said = localize("Boilerplate", note) if note else translate("HtmlReport", "counted like any other text")
        label = translate("HtmlReport", "Boilerplate")
        add(f"<tr><th>{_e(label)}</th><td>{_e(said)}</td></tr>")
    add("</tbody></table>")

    groups_heading = translate("HtmlReport", "Groups ({count})").format(count=len(result.groups))
    add(f"<h2>{_e(groups_heading)}</h2>")
    if not result.groups:
        add(_note(translate("HtmlReport", "No duplicates at these thresholds.")))
    elif load_text is not None and len(result.groups) > MAX_GROUPS_WITH_DIFFS:
        said = translate(
            "HtmlReport",
            "Differences are shown for the first {shown} groups, the largest; the other {others} list their "
            "documents and numbers: open them in the app to compare.",
        ).format(shown=MAX_GROUPS_WITH_DIFFS, others=len(result.groups) - MAX_GROUPS_WITH_DIFFS)
        add(_note(said))
    rendered = _rendered_diffs(result, docs, load_text, map_diffs, progress, cancel)
    for number, group in enumerate(result.groups):
        diffs = rendered.get(group.id, ()) if load_text is not None and number < MAX_GROUPS_WITH_DIFFS else None
        add(_group_html(group, docs, diffs, chained=group.chained(t), topic=context.topics.get(group.id, ())))
    if context.containment is not None:
        parts.extend(_excerpts_html(context, docs, load_text, cancel))
    if context.passages is not None:
        parts.extend(_passages_html(context, docs, cancel))

    problems = result.problems
    problems_heading = translate("HtmlReport", "Problems ({count})").format(count=len(problems))
    add(f"<h2>{_e(problems_heading)}</h2>")
    if problems:
        columns = (
            translate("HtmlReport", "File"),
            translate("HtmlReport", "Status"),
            translate("HtmlReport", "What to do"),
        )
        add(
            "<p class='muted'>" + _e(translate("HtmlReport", "These files were not compared.")) + "</p>"
            "<table><thead><tr>" + "".join(f"<th>{_e(c)}</th>" for c in columns) + "</tr></thead><tbody>"
        )
        for d in problems:
            add(
                f"<tr><td class='path'>{_e(d.display_path)}</td><td>{_e(status_label(d.status))}</td>"
                f"<td>{_e(localize('Problem', d.message))}</td></tr>"
            )
        add("</tbody></table>")
    else:
        add(_note(translate("HtmlReport", "Every file was read.")))
    add(f"</main><script>{_SCRIPT}</script></body></html>\n")
    return "".join(parts)


def _diffs_shown(group: Group, docs: Mapping[int, Document]) -> tuple[GroupDiffs, int, int]:
    """The differences a group's section shows (from the least similar members whose bytes are not the
    keeper's, MAX_DIFFS_PER_GROUP of them); how many members have the keeper's bytes, and how many not."""
    others = [m for m in group.members if m.document_id != group.representative]
    copies = [m for m in others if docs[m.document_id].content_id == docs[group.representative].content_id]
    differing = sorted(
        (m for m in others if m not in copies), key=lambda m: (m.similarity.jaccard, docs[m.document_id].path)
    )
    shown = tuple(docs[m.document_id] for m in differing[:MAX_DIFFS_PER_GROUP])
    return GroupDiffs(group.id, docs[group.representative], shown), len(copies), len(differing)


def render_diffs(
    diffs: GroupDiffs, load_text: Callable[[Document], DocumentText], cancel: CancelToken = NEVER_CANCELLED
) -> tuple[str, ...]:
    """A group's differences as its section shows them: the keeper's text beside each member's."""
    keeper_text = load_text(diffs.keeper)
    return tuple(
        _pair_html(diffs.keeper, keeper_text, m, load_text(m), cancel, f"diff-{diffs.group}-{m.id}")
        for m in diffs.members
    )


def render_diffs_task(task: DiffsTask) -> tuple[str, ...]:
    """``render_diffs`` in another process (a worker, an executor): the texts read there, in the report's
    language."""
    if i18n.language() != task.language:
        i18n.set_language(task.language)
    return render_diffs(task.diffs, task.texts.loader())


def _rendered_diffs(
    result: MatchResult,
    docs: Mapping[int, Document],
    load_text: Callable[[Document], DocumentText] | None,
    map_diffs: DiffsMap | None,
    progress: Progress,
    cancel: CancelToken,
) -> dict[int, tuple[str, ...]]:
    """The differences of the first MAX_GROUPS_WITH_DIFFS groups by group id, as ``map_diffs`` renders them
    (here without it; none without ``load_text``)."""
    if load_text is None:
        return {}
    shown = result.groups[:MAX_GROUPS_WITH_DIFFS]
    wanted = [diffs for diffs in (_diffs_shown(g, docs)[0] for g in shown) if diffs.members]

    def here(todo: Sequence[GroupDiffs]) -> Iterator[tuple[GroupDiffs, tuple[str, ...]]]:
        for diffs in todo:
            cancel.raise_if_cancelled()
            yield diffs, render_diffs(diffs, load_text, cancel)

    rendered: dict[int, tuple[str, ...]] = {}
    progress(ProgressEvent("report", 0, len(wanted)))
    for diffs, parts in (map_diffs or here)(wanted):
        cancel.raise_if_cancelled()
        rendered[diffs.group] = parts
        progress(ProgressEvent("report", len(rendered), len(wanted)))
    return rendered


def _group_html(
    group: Group,
    docs: Mapping[int, Document],
    diffs: tuple[str, ...] | None,
    *,
    chained: bool,
    topic: Sequence[str] = (),
) -> str:
    """A group's section, with its ``diffs`` rendered (None: the numbers only, no text read)."""
    rep = docs[group.representative]
    worst = (
        min(m.similarity.jaccard for m in group.members if m.document_id != group.representative)
        if len(group.members) > 1
        else 1.0
    )
    if group.exact:
        badge = "<span class='badge exact'>" + _e(translate("HtmlReport", "exact")) + "</span>"
    else:
        badge = "<span class='badge'>" + _e(translate("HtmlReport", "near")) + "</span>"
    if chained:
        badge += (
            "<span class='badge' title='"
            + _e(
                translate(
                    "HtmlReport",
                    "a member shares far less of its text with the keeper than the threshold: it is in the "
                    "group through other members",
                )
            )
            + "'>"
            + _e(translate("HtmlReport", "chained"))
            + "</span>"
        )
    heading = translate("HtmlReport", "Group {number}").format(number=group.id)
    if topic:  # what the group is about, in the words its members share
        heading = translate("HtmlReport", "{group}: {topic}").format(group=heading, topic=listed(topic))
    members = len(group.members)
    about = (
        translate("HtmlReport", "%n document(s) · the same text", None, members)
        if worst >= 1.0
        else translate("HtmlReport", "%n document(s) · at least {share} of the text the same", None, members).format(
            share=percent(worst)
        )
    )
    out = [
        f"<details class='group' id='g{group.id}'><summary><b>{_e(heading)}</b>{badge} · {_e(about)} · "
        f"<span class='path'>{_e(rep.display_path)}</span></summary><div class='inner'>"
    ]
    columns = (  # (heading, what it means)
        (translate("HtmlReport", "Document"), ""),
        (translate("HtmlReport", "Size"), ""),
        (translate("HtmlReport", "Type"), ""),
        (
            translate("HtmlReport", "Similarity"),
            translate("HtmlReport", "how much of the text is the same as the keeper's"),
        ),
        (translate("HtmlReport", "Hamming"), translate("HtmlReport", "differing bits of 64")),
        (translate("HtmlReport", "J est."), translate("HtmlReport", "MinHash estimate")),
        ("Jaccard", translate("HtmlReport", "exact Jaccard of the shingle sets")),
        (
            translate("HtmlReport", "Containment"),
            translate("HtmlReport", "share of the smaller text found in the other"),
        ),
    )
    out.append(
        "<table><thead><tr>"
        + "".join(
            f"<th title='{_e(title)}'>{_e(name)}</th>" if title else f"<th>{_e(name)}</th>" for name, title in columns
        )
        + "</tr></thead><tbody>"
    )
    keep = " <span class='badge'>" + _e(translate("HtmlReport", "keep")) + "</span>"
    for m in group.members:
        d = docs[m.document_id]
        s = m.similarity
        who = keep if d.id == group.representative else ""
        note = (
            f"<br><span class='muted'>{_e(localize('Problem', d.message))}</span>"  # text from OCR, damaged bytes
            if d.status is Status.OK and d.message
            else ""
        )
        out.append(
            f"<tr><td class='path'>{_e(d.display_path)}{who}{note}</td><td class='num'>{human_size(d.size)}</td>"
            f"<td>{_e(kind_label(d.kind))}</td>"
            f"<td class='num'>{'' if who else _e(similarity_words(s))}</td>"
            f"<td class='num'>{s.hamming}</td><td class='num'>{s.jaccard_estimate:.3f}</td>"
            f"<td class='num'>{s.jaccard:.3f}</td><td class='num'>{s.containment:.3f}</td></tr>"
        )
    out.append("</tbody></table>")
    if diffs is not None:
        _shown, same_bytes, differing = _diffs_shown(group, docs)
        if same_bytes:
            same = translate("HtmlReport", "Same bytes as the keeper: %n member(s).", None, same_bytes)
            out.append(_note(same))
        out.extend(diffs)
        if differing > MAX_DIFFS_PER_GROUP:
            shown = translate(
                "HtmlReport",
                "Differences shown for the {shown} least similar of {members} members; "
                "open the group in the app to compare the others.",
            ).format(shown=MAX_DIFFS_PER_GROUP, members=differing)
            out.append(_note(shown))
    out.append("</div></details>")
    return "".join(out)


def _excerpts_html(
    context: ReportContext,
    docs: Mapping[int, Document],
    load_text: Callable[[Document], DocumentText] | None,
    cancel: CancelToken,
) -> list[str]:
    """The documents inside another, by the document they are inside (the one holding the most first), the
    most of them inside first, each with the passages the two share (for MAX_EXCERPTS_SHOWN of them: the
    JSON report lists them all)."""
    excerpts = list(context.excerpts)
    held = excerpts_by_holder(excerpts, lambda doc: docs[doc].path)
    out = _section_head(
        translate("HtmlReport", "Excerpts ({count})").format(count=len(excerpts)),
        translate(
            "HtmlReport",
            "Documents inside another: at least {share} of their text is in it, however small a part of it they are "
            "(a chapter copied out of a report). Each document that holds others is listed with what it holds; "
            "near-copies are inside each other too.",
        ).format(share=percent(context.containment or 0.0)),
        None if excerpts else translate("HtmlReport", "No document is inside another at this setting."),
    )
    cut = CutTexts(load_text) if load_text is not None else None
    shown = 0
    for number, group in enumerate(held):
        if shown >= MAX_EXCERPTS_SHOWN:
            break
        outer = docs[group.outer]
        count = len(group.rows)
        holds = translate("HtmlReport", "holds %n excerpt(s)", None, count)
        out.append(
            f"<details class='group' id='x{number}'><summary><b class='path'>{_e(outer.display_path)}</b> · "
            f"{_e(holds)}</summary><div class='inner'>"
        )
        for row in group.rows[: MAX_EXCERPTS_SHOWN - shown]:
            cancel.raise_if_cancelled()
            excerpt = excerpts[row]
            inner = docs[excerpt.inner]
            said = _e(translate("HtmlReport", "{inner} is inside {outer} ({share})")).format(
                inner=f"<span class='path'>{_e(inner.display_path)}</span>",
                outer=f"<span class='path'>{_e(outer.display_path)}</span>",
                share=_e(percent(excerpt.containment)),
            )
            passages = passages_of(cut, inner, outer) if cut is not None else None
            body = ""
            if passages:
                quoted = "".join(f"<blockquote>{_e(p)}</blockquote>" for p in passages)
                lead = _e(translate("HtmlReport", "Passages both hold word for word:"))
                body = f"<p class='muted'>{lead}</p>{quoted}"
            out.append(f"<details class='pair'><summary>{said}</summary>{body}</details>")
            shown += 1
        out.append("</div></details>")
    if len(excerpts) > shown:
        out.append(_more_in_json(len(excerpts) - shown))
    return out


def _section_head(heading: str, about: str, nothing: str | None) -> list[str]:
    """A section's heading and what it lists, and ``nothing``: what to say when it lists nothing."""
    out = [f"<h2>{_e(heading)}</h2>", f"<p class='muted'>{_e(about)}</p>"]
    return out if nothing is None else [*out, _note(nothing)]


def _more_in_json(hidden: int) -> str:
    """The note under a section that shows only its first MAX_EXCERPTS_SHOWN pairs."""
    return _note(translate("HtmlReport", "… and %n more, in the JSON report", None, hidden))


def _passages_html(context: ReportContext, docs: Mapping[int, Document], cancel: CancelToken) -> list[str]:
    """The pairs of documents that share passages, those with the longest first, each with its passages in
    the order they come in the first document and where they sit in each (MAX_EXCERPTS_SHOWN pairs: the
    JSON report lists them all)."""
    pairs = sorted(context.shared_passages, key=lambda p: passages_shown_first(p.found, docs))
    out = _section_head(
        translate("HtmlReport", "Shared passages ({count})").format(count=len(pairs)),
        translate(
            "HtmlReport",
            "Pairs of documents that hold the same passage of at least {words} words (Chinese: characters) word for "
            "word, whatever else they hold.",
        ).format(words=context.passages.words if context.passages else 0),
        None if pairs else translate("HtmlReport", "No two documents share a passage this long."),
    )
    for number, placed in enumerate(pairs[:MAX_EXCERPTS_SHOWN]):
        cancel.raise_if_cancelled()
        a, b = docs[placed.found.a], docs[placed.found.b]
        count = len(placed.spans)  # a name: lupdate drops a message whose count is an expression
        said = _e(translate("HtmlReport", "{a} and {b}: %n passage(s), the longest {words} words", None, count))
        said = said.format(
            a=f"<span class='path'>{_e(a.display_path)}</span>",
            b=f"<span class='path'>{_e(b.display_path)}</span>",
            words=f"{placed.found.longest:,}",
        )
        shown = []
        for passage, (in_a, in_b) in zip(placed.found.passages, placed.spans, strict=True):
            where = translate(
                "HtmlReport", "{words} words, {in_a} into the first document and {in_b} into the second"
            ).format(words=passage.words, in_a=_share_at(in_a, a), in_b=_share_at(in_b, b))
            quoted = in_a or in_b
            text = f"<blockquote>{_e(quoted.text)}</blockquote>" if quoted is not None else ""
            shown.append(f"<p class='muted'>{_e(where)}</p>{text}")
        out.append(
            f"<details class='group' id='p{number}'><summary>{said}</summary>"
            f"<div class='inner'>{''.join(shown)}</div></details>"
        )
    if len(pairs) > MAX_EXCERPTS_SHOWN:
        out.append(_more_in_json(len(pairs) - MAX_EXCERPTS_SHOWN))
    return out


def passages_shown_first(pair: SharedPassages, docs: Mapping[int, Document]) -> tuple[int, str, str]:
    """The order the report shows pairs that share passages in: the longest passage first."""
    return -pair.longest, docs[pair.a].path, docs[pair.b].path


def _share_at(span: PassageSpan | None, doc: Document) -> str:
    """How far into its document a passage starts, as a share of the text ("?" when not known)."""
    if span is None or not doc.chars:
        return "?"
    return percent(min(span.start / doc.chars, 1.0))


def _pair_html(
    left: Document,
    left_text: DocumentText,
    right: Document,
    right_text: DocumentText,
    cancel: CancelToken,
    diff_id: str,
) -> str:
    other = f"<span class='path'>{_e(right.display_path)}</span>"
    head = f"<details class='pair' data-diff='{diff_id}'><summary>" + _e(
        translate("HtmlReport", "Differences: keeper ↔ {document}")
    ).format(document=other)
    no_diff_head = head.replace(f" data-diff='{diff_id}'", "")
    if left_text.text is None or right_text.text is None:
        doc, loaded = (left, left_text) if left_text.text is None else (right, right_text)
        return no_diff_head + f"</summary><p class='note'>{_e(doc.display_path)}: {_e(loaded.problem)}</p></details>"
    comparison = compare(left_text.text, right_text.text, cancel=cancel)  # the app's pair view, the same
    if not comparison.regions:
        return no_diff_head + f" — {_e(describe(comparison))}</summary></details>"
    summary = f" — {_e(describe(comparison))}</summary>"
    chunks = comparison.chunks
    data: list[list[object]] = []
    shown = 0
    previous_end = 0
    for start, end in hunks(chunks, CONTEXT_CHUNKS):
        if start > previous_end:
            data.append(["g", _gap_text(chunks[previous_end:start])])
        for chunk in chunks[start:end]:
            data.append([chunk.kind, _lines_data(chunk.left), _lines_data(chunk.right)])
            shown += max(len(chunk.left), len(chunk.right))
        previous_end = end
        if shown >= MAX_LINES_PER_PAIR:
            data.append(["g", translate("HtmlReport", "… more differences; open the pair in the app to see them all")])
            break
    else:
        if previous_end < len(chunks):
            data.append(["g", _gap_text(chunks[previous_end:])])
    # a data block, never executed; no raw "<" in it, so no text can end it early or open a comment
    block = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
    return head + summary + "</details>" + f"<script type='application/json' id='{diff_id}'>{block}</script>"


def _gap_text(chunks: Sequence[Chunk]) -> str:
    count = sum(len(chunk.left) for chunk in chunks)
    return translate("HtmlReport", "%n unchanged line(s)", None, count)


def _lines_data(lines: tuple[Line, ...]) -> list[list[object]]:
    """[number, text or [[segment, changed], …], quiet] for each line."""
    out: list[list[object]] = []
    for line in lines:
        text: object = line.text
        if line.changes:
            text = [[seg.text, 1 if seg.changed else 0] for seg in line.segments()]
        out.append([line.number, text, 1 if line.quiet else 0])
    return out
