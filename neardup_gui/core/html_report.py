"""A self-contained HTML report: summary, groups with members and side-by-side diffs, problems.

One file, inline CSS and one tiny inline script (open every section before printing); no network
request; a Content-Security-Policy that allows only that script, so even a mistake in escaping could
not run a document's content. Every document text and file name is escaped.
"""

from __future__ import annotations

import base64
import hashlib
import html
import time
from collections.abc import Callable

from .. import __version__
from .diff import DiffRow, Segment, hunks, side_by_side, stats
from .jobs import NEVER_CANCELLED, CancelToken, Progress, ProgressEvent, no_progress
from .match import MatchResult
from .models import Document, Group, display_path
from .report import ReportContext
from .texts import DocumentText

MAX_ROWS_PER_PAIR = 400
CONTEXT_ROWS = 2

_SCRIPT = (
    "window.addEventListener('beforeprint',function(){"
    "document.querySelectorAll('details').forEach(function(d){d.open=true;});});"
)
_SCRIPT_HASH = base64.b64encode(hashlib.sha256(_SCRIPT.encode()).digest()).decode()

_CSS = """
:root{--fg:#1d2330;--muted:#5b6475;--line:#d9dee7;--bg:#fff;--soft:#f5f7fa;--del:#fde7e9;--delw:#f7b9c0;
--ins:#e3f6e8;--insw:#a8e2b8;--accent:#2f5bd3}
@media (prefers-color-scheme:dark){:root{--fg:#e6e9ef;--muted:#9aa3b5;--line:#363c49;--bg:#16191f;--soft:#1e222a;
--del:#4a1f26;--delw:#7d2d38;--ins:#1c3b27;--insw:#2c6640;--accent:#8fb0ff}}
*{box-sizing:border-box}body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI","Noto Sans","Noto Sans CJK SC",sans-serif;
color:var(--fg);background:var(--bg)}main{max-width:1280px;margin:0 auto;padding:24px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 10px;border-bottom:1px solid var(--line);padding-bottom:4px}
.muted{color:var(--muted)}.cards{display:flex;flex-wrap:wrap;gap:10px;margin:14px 0}
.card{background:var(--soft);border:1px solid var(--line);border-radius:8px;padding:8px 14px;min-width:120px}
.card b{display:block;font-size:20px}table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:4px 8px;border-bottom:1px solid var(--line);vertical-align:top}
th{font-weight:600;color:var(--muted);font-size:12px;text-transform:uppercase;letter-spacing:.03em}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.path{word-break:break-all;font-family:ui-monospace,"SFMono-Regular",Menlo,Consolas,"Noto Sans Mono CJK SC",monospace;font-size:12.5px}
details.group{border:1px solid var(--line);border-radius:8px;margin:10px 0;background:var(--bg)}
details.group>summary{cursor:pointer;padding:8px 12px;background:var(--soft);border-radius:8px;list-style-position:inside}
details.group[open]>summary{border-bottom:1px solid var(--line);border-radius:8px 8px 0 0}
.inner{padding:8px 12px}.badge{display:inline-block;font-size:11px;padding:1px 7px;border-radius:10px;background:var(--line);margin-left:6px}
.badge.exact{background:var(--insw)}details.pair{margin:8px 0}details.pair>summary{cursor:pointer;color:var(--accent)}
table.diff{table-layout:fixed;font-family:ui-monospace,Menlo,Consolas,"Noto Sans Mono CJK SC",monospace;font-size:12px;margin-top:6px}
table.diff td{border:none;padding:1px 6px;white-space:pre-wrap;word-break:break-all}
table.diff td.no{color:var(--muted);text-align:right;user-select:none}
table.diff col.nocol{width:3.2em}table.diff col.text{width:auto}
tr.delete td.l,tr.replace td.l{background:var(--del)}tr.insert td.r,tr.replace td.r{background:var(--ins)}
td.l mark{background:var(--delw);color:inherit}td.r mark{background:var(--insw);color:inherit}
tr.gap td{color:var(--muted);background:var(--soft);text-align:center;font-style:italic}
.note{color:var(--muted);font-style:italic}
@media print{details>summary{list-style:none}main{max-width:none;padding:0}}
"""


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def to_html(
    result: MatchResult,
    context: ReportContext,
    load_text: Callable[[Document], DocumentText] | None = None,
    *,
    progress: Progress = no_progress,
    cancel: CancelToken = NEVER_CANCELLED,
) -> str:
    """The whole report as one HTML string. ``load_text`` gives documents' text for the diffs
    (None: no diffs, only numbers)."""
    docs = {d.id: d for d in result.documents}
    t = result.thresholds
    parts: list[str] = []
    add = parts.append
    add("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>")
    add(f"<meta http-equiv='Content-Security-Policy' content=\"default-src 'none'; style-src 'unsafe-inline'; "
        f"script-src 'sha256-{_SCRIPT_HASH}'; img-src data:\">")
    add("<meta name='viewport' content='width=device-width,initial-scale=1'>")
    add(f"<title>neardup report — {len(result.groups)} groups</title><style>{_CSS}</style></head><body><main>")
    generated = time.strftime("%Y-%m-%d %H:%M", time.localtime(context.generated))
    add(f"<h1>Duplicate documents</h1><div class='muted'>neardup {_e(__version__)} · {_e(generated)}</div>")
    in_groups = sum(len(g.members) for g in result.groups)
    cards = [
        ("documents", len(result.documents)),
        ("groups", len(result.groups)),
        ("exact groups", sum(1 for g in result.groups if g.exact)),
        ("redundant copies", in_groups - len(result.groups)),
        ("problems", len(result.problems)),
    ]
    seconds = context.scan.get("seconds") if context.scan else None
    if seconds is not None:
        cards.append(("scan time", f"{seconds:.1f} s"))
    add("<div class='cards'>" + "".join(f"<div class='card'><b>{_e(v)}</b><span class='muted'>{_e(k)}</span></div>" for k, v in cards) + "</div>")
    add("<table><tbody>")
    add(f"<tr><th>Folders</th><td class='path'>{'<br>'.join(_e(display_path(r)) for r in context.roots) or '—'}</td></tr>")
    method = {"minhash": "MinHash (Jaccard)", "simhash": "SimHash (Hamming)", "both": "SimHash or MinHash"}[str(t.method)]
    add(f"<tr><th>Method</th><td>{_e(method)}; Jaccard ≥ {_e(t.jaccard)} of 3-unit shingles; Hamming ≤ {_e(t.hamming)} of 64 bits</td></tr>")
    add("</tbody></table>")

    add(f"<h2>Groups ({len(result.groups)})</h2>")
    if not result.groups:
        add("<p class='note'>No duplicates at these thresholds.</p>")
    for number, group in enumerate(result.groups, start=1):
        cancel.raise_if_cancelled()
        progress(ProgressEvent("report", number - 1, len(result.groups)))
        add(_group_html(group, docs, load_text, cancel))
    progress(ProgressEvent("report", len(result.groups), len(result.groups)))

    problems = result.problems
    add(f"<h2>Problems ({len(problems)})</h2>")
    if problems:
        add("<p class='muted'>These files were not compared.</p><table><thead><tr><th>File</th><th>Status</th><th>What to do</th></tr></thead><tbody>")
        for d in problems:
            add(f"<tr><td class='path'>{_e(d.display_path)}</td><td>{_e(d.status)}</td><td>{_e(d.message)}</td></tr>")
        add("</tbody></table>")
    else:
        add("<p class='note'>Every file was read.</p>")
    add(f"</main><script>{_SCRIPT}</script></body></html>\n")
    return "".join(parts)


def _group_html(group: Group, docs: dict[int, Document], load_text, cancel: CancelToken) -> str:
    rep = docs[group.representative]
    worst = min(m.similarity.jaccard for m in group.members)
    badge = "<span class='badge exact'>exact</span>" if group.exact else "<span class='badge'>near</span>"
    out = [f"<details class='group' id='g{group.id}'><summary><b>Group {group.id}</b>{badge} · {len(group.members)} documents · "
           f"lowest Jaccard {worst:.3f} · <span class='path'>{_e(rep.display_path)}</span></summary><div class='inner'>"]
    out.append("<table><thead><tr><th>Document</th><th>Size</th><th>Type</th><th title='differing bits of 64'>Hamming</th>"
               "<th title='MinHash estimate'>J est.</th><th title='exact Jaccard of the shingle sets'>Jaccard</th>"
               "<th title='share of the smaller text found in the other'>Containment</th></tr></thead><tbody>")
    for m in group.members:
        d = docs[m.document_id]
        s = m.similarity
        who = " <span class='badge'>representative</span>" if d.id == group.representative else ""
        out.append(f"<tr><td class='path'>{_e(d.display_path)}{who}</td><td class='num'>{_size(d.size)}</td><td>{_e(d.kind)}</td>"
                   f"<td class='num'>{s.hamming}</td><td class='num'>{s.jaccard_estimate:.3f}</td>"
                   f"<td class='num'>{s.jaccard:.3f}</td><td class='num'>{s.containment:.3f}</td></tr>")
    out.append("</tbody></table>")
    if load_text is not None:
        rep_text = load_text(rep)
        for m in group.members:
            if m.document_id == group.representative:
                continue
            other = docs[m.document_id]
            if other.content_id == rep.content_id:
                out.append(f"<p class='note'>{_e(other.display_path)}: the same bytes as the representative.</p>")
            else:
                out.append(_pair_html(rep, rep_text, other, load_text(other), cancel))
    out.append("</div></details>")
    return "".join(out)


def _pair_html(left: Document, left_text: DocumentText, right: Document, right_text: DocumentText, cancel: CancelToken) -> str:
    head = f"<details class='pair'><summary>Differences: representative ↔ <span class='path'>{_e(right.display_path)}</span>"
    for doc, loaded in ((left, left_text), (right, right_text)):
        if loaded.text is None:
            return head + f"</summary><p class='note'>{_e(doc.display_path)}: {_e(loaded.problem)}</p></details>"
    rows = side_by_side(left_text.text, right_text.text, cancel=cancel)
    st = stats(rows)
    summary = f" — {st.changed} changed, {st.deleted} removed, {st.inserted} added lines</summary>"
    if st.changed + st.deleted + st.inserted == 0:
        return head + " — the texts differ only in spacing, case or width</summary></details>"
    body = ["<table class='diff'><colgroup><col class='nocol'><col class='text'><col class='nocol'><col class='text'></colgroup><tbody>"]
    shown = 0
    previous_end = 0
    for start, end in hunks(rows, CONTEXT_ROWS):
        if start > previous_end:
            body.append(_gap(start - previous_end))
        for row in rows[start:end]:
            body.append(_row_html(row))
            shown += 1
        previous_end = end
        if shown >= MAX_ROWS_PER_PAIR:
            body.append("<tr class='gap'><td colspan='4'>… more differences; open the pair in the app to see them all</td></tr>")
            break
    else:
        if previous_end < len(rows):
            body.append(_gap(len(rows) - previous_end))
    body.append("</tbody></table>")
    return head + summary + "".join(body) + "</details>"


def _gap(count: int) -> str:
    return f"<tr class='gap'><td colspan='4'>{count} unchanged line{'s' if count != 1 else ''}</td></tr>"


def _row_html(row: DiffRow) -> str:
    return (f"<tr class='{row.kind}'><td class='no'>{row.left_no or ''}</td><td class='l'>{_segments(row.left)}</td>"
            f"<td class='no'>{row.right_no or ''}</td><td class='r'>{_segments(row.right)}</td></tr>")


def _segments(segments: tuple[Segment, ...] | None) -> str:
    if not segments:
        return ""
    if len(segments) == 1:
        return _e(segments[0].text)
    return "".join(f"<mark>{_e(s.text)}</mark>" if s.changed else _e(s.text) for s in segments)


def _size(size: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return str(size)
