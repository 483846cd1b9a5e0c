"""Similarities and kinds in words a person reads, for the window and the HTML report alike: one number
("93 %", "same text", "62 % · inside the keeper") with the exact measures one tooltip away."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from ..i18n import QT_TRANSLATE_NOOP, translate
from ..models import Similarity, Status
from ..read.extract import KIND_OF_SUFFIX

CONTAINED = 0.95
"""A member with at least this share of its text inside the keeper (or the keeper's inside it) is said to
be inside it (to hold it) when the two are otherwise not alike: an excerpt, or a longer version."""
HOLDS_MORE = 3.0
"""...and the other has at least this many times as much text of its own: an edited copy (its edits cost both
texts alike) is not inside its original, nor does it hold it."""


def _whole(share: float) -> str:
    return f"{math.floor(share * 100 + 1e-9):.0f}"  # never rounded up to 100 (0.996: not the same text)


def listed(items: Sequence[str]) -> str:
    """Items as a list reads in the person's language: "apache, license, patent", "劳动合同、用人单位"."""
    return translate("Words", ", ").join(items)


def percent(share: float) -> str:
    """A share as a whole percentage in the person's language ("93 %", "93%"), never rounded up to 100 %."""
    return translate("Similarity", "{value} %").format(value=_whole(share))


def percent_range(low: float, high: float) -> str:
    """From ``low`` to ``high`` as percentages ("78–96 %"); one value when they round the same."""
    if _whole(low) == _whole(high):
        return percent(low)
    return translate("Similarity", "{low}–{high} %").format(low=_whole(low), high=_whole(high))


def inside(sim: Similarity) -> str:
    """ "a" when the first document (a member) is inside the other (its keeper) though the two are not
    otherwise alike, "b" for the other way round, "" for neither. Inside means nearly all of it is in the
    other, which has several times as much text of its own (an excerpt, a longer version), not an edited copy
    that differs alike both ways."""
    if sim.jaccard >= 0.9:
        return ""
    own_a, own_b = 1 - sim.containment_ab, 1 - sim.containment_ba  # the share of each not in the other
    if sim.containment_ab >= CONTAINED and own_b >= HOLDS_MORE * own_a:
        return "a"
    return "b" if sim.containment_ba >= CONTAINED and own_a >= HOLDS_MORE * own_b else ""


def similarity_words(sim: Similarity) -> str:
    """One similarity a person reads: how much of the text is the same as the keeper's, or that one holds
    the other. The exact measures are in the tooltip (``similarity_details``)."""
    if sim.same_text:
        return translate("Similarity", "same text")
    where = inside(sim)
    if where == "a":
        return translate("Similarity", "{percent} · inside the keeper").format(percent=percent(sim.jaccard))
    if where == "b":
        return translate("Similarity", "{percent} · holds the keeper").format(percent=percent(sim.jaccard))
    return percent(sim.jaccard)


def similarity_details(sim: Similarity) -> str:
    """The exact measures behind ``similarity_words``, in one line each."""
    return translate(
        "Similarity",
        "{share} of the phrases are shared (Jaccard {jaccard}; estimated {estimate})\n"
        "{inside} of this text is inside the keeper; {keeper_inside} of the keeper is inside this\n"
        "{bits} of 64 fingerprint bits differ (SimHash Hamming distance)",
    ).format(
        share=percent(sim.jaccard),
        jaccard=f"{sim.jaccard:.3f}",
        estimate=f"{sim.jaccard_estimate:.3f}",
        inside=percent(sim.containment_ab),
        keeper_inside=percent(sim.containment_ba),
        bits=sim.hamming,
    )


_KIND_WORDS = {
    "text": QT_TRANSLATE_NOOP("FileKind", "text"),
    "image": QT_TRANSLATE_NOOP("FileKind", "image"),
    "email": QT_TRANSLATE_NOOP("FileKind", "e-mail"),
    # WPS Office's endings say little to a person: its apps' names, as WPS shows them in each language
    "wps": QT_TRANSLATE_NOOP("FileKind", "WPS Writer"),
    "et": QT_TRANSLATE_NOOP("FileKind", "WPS Spreadsheets"),
    "dps": QT_TRANSLATE_NOOP("FileKind", "WPS Presentation"),
}


def kind_label(kind: str) -> str:
    """A file's kind as the Type columns show it: "text", "image", "e-mail" and WPS Office's files ("WPS
    Writer") in the person's language, a format by its name ("PDF", "DOCX", "XLS"...), the same in every
    language."""
    return translate("FileKind", _KIND_WORDS[kind]) if kind in _KIND_WORDS else kind.upper()


_FIRST_ENDING = {"text": ".txt", "email": ".eml", "image": ".png"}
"""A kind's best-known ending where it is not the kind's name (.doc for doc, .pdf for pdf)."""


def kind_endings() -> dict[str, tuple[str, ...]]:
    """Each kind neardup reads and the file name endings read as it (extract.KIND_OF_SUFFIX), as the type
    boxes and ``neardup scan --help`` list them: kinds in the table's order, each one's best-known ending
    first, then the others alphabetically (doc: .doc .dot; docx: .docx .docm .dotm .dotx)."""
    found: dict[str, list[str]] = {}
    for suffix, kind in KIND_OF_SUFFIX.items():
        found.setdefault(kind, []).append(suffix)
    return {
        kind: tuple(sorted(suffixes, key=lambda suffix: (suffix != _FIRST_ENDING.get(kind, f".{kind}"), suffix)))
        for kind, suffixes in found.items()
    }


def endings(kinds: Iterable[str]) -> str:
    """The endings read as ``kinds``, in kind_endings' order: ".doc .dot .docx .docm ..."."""
    chosen = set(kinds)
    return " ".join(suffix for kind, suffixes in kind_endings().items() if kind in chosen for suffix in suffixes)


STATUS_LABELS = {
    Status.OK: QT_TRANSLATE_NOOP("Status", "read"),
    Status.EMPTY: QT_TRANSLATE_NOOP("Status", "empty"),
    Status.ENCRYPTED: QT_TRANSLATE_NOOP("Status", "encrypted"),
    Status.UNREADABLE: QT_TRANSLATE_NOOP("Status", "unreadable"),
    Status.TOO_LARGE: QT_TRANSLATE_NOOP("Status", "too large"),
    Status.UNSUPPORTED: QT_TRANSLATE_NOOP("Status", "unsupported"),
    Status.ERROR: QT_TRANSLATE_NOOP("Status", "error"),
}
"""A file's status in words (the stored value stays the JSON report's)."""


def status_label(status: str) -> str:
    """``status`` (a Status or its stored value) as the problems table, the report and the CLI name it."""
    try:
        return translate("Status", STATUS_LABELS[Status(status)])
    except (ValueError, KeyError):
        return str(status)


def human_size(size: float) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{size:.1f} TB"
