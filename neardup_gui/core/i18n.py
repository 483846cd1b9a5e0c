"""The app's words in the person's language: one catalogue for the window, the command line and the reports.

Every user-visible string is written in English in the source and goes through ``translate`` (the
engine, the controller, the CLI) or Qt's ``tr()`` (widgets). The catalogues are Qt Linguist files,
``resources/translations/neardup_<language>.ts`` (made by ``pyside6-lupdate``, compiled to ``.qm`` by
``pyside6-lrelease``; ``resources/translations/update.sh`` does both). The desktop app loads the
``.qm`` into a ``QTranslator`` and hands Qt's ``translate`` to this module (``use_translator``), so
widgets and engine speak one language; without Qt (the CLI, worker processes) this module reads the
``.ts`` itself.

Messages that are stored (a file's problem, written by a worker process and shown later, perhaps in
another language) are stored in English and translated when shown: ``localize`` recognises a stored
message by its template (``message_template`` marks one) and translates the template and its values.

A stored message may end with its details (``with_details``): what a library or the system said, in its
own words (English), kept for whoever wants it but never in place of the message: ``localize`` shows it on
a line of its own after the translated message; the Problems tab shows it only in the row's tooltip.

Templates use Python's named fields (``{path}``); plurals use Qt's ``%n`` with ``n`` given.
"""

from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping
from functools import cache, lru_cache
from importlib import resources

LANGUAGES: dict[str, str] = {"en": "English", "zh_CN": "简体中文"}
"""The languages neardup speaks, each named in itself (as a language menu shows them)."""

SOURCE_LANGUAGE = "en"

Translator = Callable[[str, str, "str | None", int], str]
"""Qt's signature: (context, source text, disambiguation, n) -> text."""

_PLURAL_FORM: dict[str, Callable[[int], int]] = {
    "en": lambda n: 0 if n == 1 else 1,
    "zh_CN": lambda n: 0,
}


class _State:
    language: str = SOURCE_LANGUAGE
    translator: Translator | None = None


def language_of_locale(name: str | None) -> str:
    """The language neardup speaks to someone whose locale is ``name`` ("zh_CN.UTF-8", "zh-Hans-CN",
    "en_US"): Chinese of any region gets the simplified Chinese interface (closer to them than English),
    anything else English."""
    if not name:
        return SOURCE_LANGUAGE
    base = re.split(r"[._@-]", name.strip(), maxsplit=1)[0].lower()
    return "zh_CN" if base == "zh" else SOURCE_LANGUAGE


def system_language(environ: Mapping[str, str] | None = None) -> str:
    """The language of the POSIX locale (``LANGUAGE``, then ``LC_ALL``, ``LC_MESSAGES``, ``LANG``): the
    command line's, so ``LANG=zh_CN.UTF-8 neardup …`` speaks Chinese."""
    env = os.environ if environ is None else environ
    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(key, "")
        if key == "LANGUAGE":
            value = value.split(":")[0]
        if value and value not in ("C", "POSIX") and not value.startswith("C."):
            return language_of_locale(value)
    return SOURCE_LANGUAGE


def set_language(language: str) -> None:
    """Speak ``language`` (a key of LANGUAGES) from now on, where no Qt translator is installed."""
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}; neardup speaks {', '.join(LANGUAGES)}")
    _State.language = language
    localize.cache_clear()


def language() -> str:
    """The language set by ``set_language`` (the app sets the same one it gives Qt)."""
    return _State.language


def sentences(*parts: str) -> str:
    """Sentences one after another, as the language writes them: a space between them, none in Chinese
    (whose full stop holds its own)."""
    return ("" if _State.language.startswith("zh") else " ").join(part for part in parts if part)


def use_translator(translator: Translator | None) -> None:
    """Translate through ``translator`` (the app passes ``QCoreApplication.translate``, so the engine's
    words come from the same ``.qm`` as the widgets'); None goes back to this module's catalogues."""
    _State.translator = translator
    localize.cache_clear()


def translator_installed() -> bool:
    """Whether a front end's translator (Qt's) speaks for this module."""
    return _State.translator is not None


def translate(context: str, source: str, disambiguation: str | None = None, n: int = -1) -> str:
    """``source`` in the current language; ``%n`` becomes ``n`` and ``%Ln`` ``n`` with thousands separators
    (Qt's rules, so both paths agree), and
    an English "(s)" or "(es)" agrees with ``n`` (lupdate reads plural forms only from a widget's
    ``self.tr``, so text outside widgets relies on this)."""
    if _State.translator is not None:
        text = _State.translator(context, source, disambiguation, n)
    else:
        forms = _catalogue(_State.language).get((context, source, disambiguation or ""))
        text = source
        if forms:
            text = forms[min(_PLURAL_FORM[_State.language](n), len(forms) - 1)] if n >= 0 else forms[0]
        text = text.replace("%Ln", f"{n:,}").replace("%n", str(n)) if n >= 0 else text
    return english_plural(text, n) if n >= 0 else text


_PLURAL_SUFFIX = re.compile(r"\((e?s)\)")


def english_plural(text: str, n: int) -> str:
    """ "%n file(s)" written for ``n``: "1 file", "2 files" (also "box(es)")."""
    return _PLURAL_SUFFIX.sub("" if n == 1 else r"\1", text)


_TEMPLATES: dict[str, list[str]] = {}


def message_template(context: str, source: str) -> str:
    """Mark a stored message's template for translation (lupdate reads it as QT_TRANSLATE_NOOP) and for
    ``localize``, which recognises messages made from it; returns the template unchanged."""
    templates = _TEMPLATES.setdefault(context, [])
    templates.append(source)
    # the most literal first: "Pages {pages} could not be read." before "{reason}", which would match it too
    templates.sort(key=lambda t: len(re.sub(r"\{\w+\}", "", t)), reverse=True)
    localize.cache_clear()  # a message seen before its template was known
    return source


QT_TRANSLATE_NOOP = message_template  # the name lupdate looks for

_DETAILS = "\nDetails: "
"""Between a stored message and its details: the details are one line, so the last of these starts them."""


_SAID_LONGEST = 500  # characters of what a library said that are kept: a reason, not a dump
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def said(details: BaseException | str) -> str:
    """What a library or the system said, on one line: an exception as "Type: text" (an OSError as its
    number and the system's words, without the path), or a text; control characters escaped (a terminal
    prints it), at most _SAID_LONGEST characters."""
    if isinstance(details, OSError) and details.strerror:
        details = f"{type(details).__name__}: [Errno {details.errno}] {details.strerror}"
    elif isinstance(details, BaseException):
        details = f"{type(details).__name__}: {details}".removesuffix(": ")
    text = _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", " ".join(details.split()))
    return text if len(text) <= _SAID_LONGEST else text[: _SAID_LONGEST - 1] + "…"


def with_details(message: str, details: BaseException | str) -> str:
    """``message`` (stored English) followed by ``details`` (``said``), where there are any."""
    text = said(details)
    return f"{message}{_DETAILS}{text}" if text else message


def split_details(stored: str) -> tuple[str, str]:
    """A stored message's (message, details); details "" when it has none."""
    message, found, details = stored.rpartition(_DETAILS)
    return (message, details) if found else (stored, "")


def shown_details(details: str) -> str:
    """Details as shown on their line after a message, in the current language."""
    return translate("Problem", "Details: {details}").format(details=details)


def fill(template: str, **values: str) -> str:
    """``template.format(**values)`` for a stored message whose values may be stored messages with details:
    each value's details go to the end of the whole message (where ``split_details`` finds them)."""
    plain: dict[str, str] = {}
    details: list[str] = []
    for name, value in values.items():
        plain[name], text = split_details(value)
        if text:
            details.append(text)
    return with_details(template.format(**plain), "; ".join(details))


@lru_cache(maxsize=4096)
def localize(context: str, stored: str) -> str:
    """A stored English message in the current language: an exact source text, or one made from a
    template of ``context`` with its values (which may be messages themselves) translated too; its
    details (``with_details``) as they are, on a line of their own. A message from no known template is
    shown as it is."""
    message, details = split_details(stored)
    if details:
        return f"{localize(context, message)}\n{shown_details(details)}"
    exact = translate(context, stored)
    if exact != stored or not stored:
        return exact
    for template in _TEMPLATES.get(context, ()):
        match = _pattern(template).fullmatch(stored)
        if match:
            values = {name: localize(context, value) for name, value in match.groupdict().items()}
            return translate(context, template).format(**values)
    return stored


@cache
def _pattern(template: str) -> re.Pattern[str]:
    """The template as a regular expression: each field a lazy group, a repeated field the same text."""
    parts = re.split(r"\{(\w+)\}", template)
    regex, named = [], set()
    for i, part in enumerate(parts):
        if i % 2 == 0:
            regex.append(re.escape(part))
        elif part in named:
            regex.append(f"(?P={part})")
        else:
            named.add(part)
            regex.append(f"(?P<{part}>.*?)")
    return re.compile("".join(regex), re.DOTALL)


@cache
def _catalogue(language: str) -> dict[tuple[str, str, str], list[str]]:
    """(context, source, disambiguation) -> the translation's forms, from the language's ``.ts``."""
    try:
        source = resources.files("neardup_gui.resources") / "translations" / f"neardup_{language}.ts"
        root = ET.fromstring(source.read_bytes())
    except (FileNotFoundError, ET.ParseError):
        return {}
    entries: dict[tuple[str, str, str], list[str]] = {}
    for context in root.iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            translation = message.find("translation")
            if translation is None or translation.get("type") in ("unfinished", "obsolete", "vanished"):
                continue
            forms = [form.text or "" for form in translation.iter("numerusform")] or [translation.text or ""]
            if any(forms):
                entries[(name, message.findtext("source") or "", message.findtext("comment") or "")] = forms
    return entries
