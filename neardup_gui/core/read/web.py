"""Text of web pages (.html, .htm, .xhtml) and EPUB e-books: what a browser shows of the body.

Scripts, styles, templates, the head and inline SVG are dropped; block elements end lines, table cells
are separated by tabs, white space is collapsed as a browser does (runs of spaces kept inside <pre>). The parser is the
standard library's (html.parser: tolerant of real-world markup, and it expands no entity it does not
know, so there is nothing to bomb). An EPUB is its spine's documents in reading order (the OPF package
file says which), read from the zip through containers.Package; a DRM-encrypted book is said to be one.
"""

from __future__ import annotations

import codecs
import re
from html.parser import HTMLParser

from ..i18n import QT_TRANSLATE_NOOP
from ..models import Extracted, Status
from .containers import READ_ERRORS, Package, Unreadable, damaged, parse_xml, resolve
from .decode import extract_text
from .office import finish

_DRM = QT_TRANSLATE_NOOP("Problem", "This e-book is protected by DRM (its chapters are encrypted); it cannot be read.")
_NO_CHAPTERS = QT_TRANSLATE_NOOP("Problem", "Damaged e-book: its package file lists no chapters to read.")
_CHAPTERS_MISSING = QT_TRANSLATE_NOOP("Problem", "Damaged e-book: the chapters its package file lists are missing.")

_DROPPED = frozenset({"script", "style", "template", "noscript", "head", "title", "svg", "iframe", "object"})
_BLOCKS = frozenset(
    {
        "address",
        "article",
        "aside",
        "blockquote",
        "br",
        "caption",
        "dd",
        "details",
        "div",
        "dl",
        "dt",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "hr",
        "li",
        "main",
        "nav",
        "ol",
        "p",
        "pre",
        "section",
        "summary",
        "table",
        "tr",
        "ul",
    }
)
_CELLS = frozenset({"td", "th"})
_HEAD_ONLY = frozenset({"base", "link", "meta", "noscript", "script", "style", "template", "title"})
_SPACES = re.compile(r"\s+")


class _VisibleText(HTMLParser):
    """Collects the text a browser shows of a page's body (see the module's docstring)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.pieces: list[str] = []
        self._dropping: list[str] = []  # the dropped element we are inside, once per nesting of its name
        self._pre = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self._dropping[:1] == ["head"] and (tag == "body" or tag not in _HEAD_ONLY):
            self._dropping.clear()  # a head left open by careless markup ends where the body starts
        if self._dropping:
            if tag == self._dropping[-1]:
                self._dropping.append(tag)
            return
        if tag in _DROPPED:
            self._dropping.append(tag)
        elif tag in _BLOCKS:
            self.pieces.append("\n")
            if tag == "pre":
                self._pre += 1
        elif tag in _CELLS and self.pieces[-1:] != ["\t"]:  # after a cell whose end tag was left out
            self.pieces.append("\t")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if not self._dropping and tag in _BLOCKS:  # <br/>, <hr/>, and an empty <p/> in XHTML
            self.pieces.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if self._dropping:
            if tag == self._dropping[-1]:
                self._dropping.pop()
            return
        if tag in _BLOCKS:
            self.pieces.append("\n")
            if tag == "pre" and self._pre:
                self._pre -= 1
        elif tag in _CELLS:
            self.pieces.append("\t")

    def handle_data(self, data: str) -> None:
        if not self._dropping:
            self.pieces.append(data if self._pre else _SPACES.sub(" ", data))


def visible_text(markup: str) -> str:
    """The text a browser shows of ``markup``'s body, lines ending at block elements."""
    parser = _VisibleText()
    parser.feed(markup)
    parser.close()
    return "\n".join(line.strip(" \t") for line in "".join(parser.pieces).split("\n"))  # linear, not a regex


# --- decoding -----------------------------------------------------------------------------------------

_META_CHARSET = re.compile(rb"""<meta[^>]+?charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.IGNORECASE)
_XML_ENCODING = re.compile(rb"""^\s*<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9_.:-]+)""")
# What browsers decode a declared label as (the WHATWG Encoding Standard): supersets, not the label.
_WEB_ENCODINGS = frozenset(
    codecs.lookup(label).name
    for label in (  # the WHATWG Encoding Standard's, less UTF-16
        "utf-8",
        "ibm866",
        "iso-8859-2",
        "iso-8859-3",
        "iso-8859-4",
        "iso-8859-5",
        "iso-8859-6",
        "iso-8859-7",
        "iso-8859-8",
        "iso-8859-10",
        "iso-8859-13",
        "iso-8859-14",
        "iso-8859-15",
        "iso-8859-16",
        "koi8-r",
        "koi8-u",
        "mac-roman",
        "cp874",
        "cp1250",
        "cp1251",
        "cp1252",
        "cp1253",
        "cp1254",
        "cp1255",
        "cp1256",
        "cp1257",
        "cp1258",
        "mac-cyrillic",
        "gbk",
        "gb2312",
        "gb18030",
        "big5",
        "big5hkscs",
        "euc-jp",
        "iso-2022-jp",
        "shift_jis",
        "euc-kr",
        "latin-1",
        "ascii",
    )
)
_BROWSERS_READ = {
    "gb2312": "gb18030",
    "gbk": "gb18030",
    "latin-1": "cp1252",
    "iso8859-1": "cp1252",
    "ascii": "cp1252",
    "big5": "big5hkscs",
}


def decode_markup(data: bytes) -> Extracted:
    """A page's characters: by its byte-order mark, then the encoding it declares (<meta charset>, the XML
    declaration) when its bytes are that encoding, else detected as a text file is."""
    if not data.startswith((codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        head = data[:4096]
        declared = _XML_ENCODING.match(head) or _META_CHARSET.search(head)
        if declared is not None:
            try:
                name = codecs.lookup(declared.group(1).decode("ascii")).name
                if name in _WEB_ENCODINGS:  # a label of a web page's encoding, not "unicode_escape" or "rot13"
                    encoding = _BROWSERS_READ.get(name, name)
                    return Extracted(Status.OK, text=data.decode(encoding), encoding=encoding)
            except (LookupError, UnicodeError):
                pass  # a wrong label: detect instead, as for a text file
    return extract_text(data)


def extract_html(data: bytes) -> Extracted:
    """A web page's visible text."""
    decoded = decode_markup(data)
    if decoded.status is not Status.OK:
        return decoded
    try:
        text = visible_text(decoded.text)
    except (AssertionError, ValueError, RecursionError) as exc:  # html.parser's own complaints
        return damaged(exc).outcome
    found = finish([text], encoding=decoded.encoding)
    if found.status is Status.OK and decoded.message:
        return Extracted(Status.OK, text=found.text, encoding=found.encoding, message=decoded.message)
    return found


# --- EPUB ---------------------------------------------------------------------------------------------

_CONTAINER = "urn:oasis:names:tc:opendocument:xmlns:container"
_OPF = "http://www.idpf.org/2007/opf"
_XML_ENCRYPTION = "http://www.w3.org/2001/04/xmlenc#"
_CHAPTER_TYPES = frozenset({"application/xhtml+xml", "text/html"})


def extract_epub(data: bytes) -> Extracted:
    """An e-book's chapters in reading order."""
    try:
        package = Package(data)
        opf = _package_file(package)
        chapters = _spine(package, opf)
        if not chapters:
            raise Unreadable(Status.ERROR, _NO_CHAPTERS)
        if _encrypted(package) & set(chapters):
            raise Unreadable(Status.ENCRYPTED, _DRM)
        if not any(package.has(chapter) for chapter in chapters):
            raise Unreadable(Status.ERROR, _CHAPTERS_MISSING)
        pieces: list[str] = []
        for chapter in chapters:
            if package.has(chapter):
                decoded = decode_markup(package.read(chapter))
                if decoded.status is Status.OK:
                    pieces += [visible_text(decoded.text), "\n"]
    except Unreadable as problem:
        return problem.outcome
    except READ_ERRORS + (AssertionError,) as exc:
        return damaged(exc).outcome
    return finish(pieces)


def _package_file(package: Package) -> str:
    found: list[str] = []

    def start(tag: str, attrs: dict[str, str]) -> None:
        if tag == f"{_CONTAINER} rootfile" and not found:
            found.append(attrs.get("full-path", ""))

    parse_xml(package.read("META-INF/container.xml"), "META-INF/container.xml", start)
    if not found or not found[0]:
        raise damaged("META-INF/container.xml names no package file")
    return resolve("", found[0])


def _spine(package: Package, opf: str) -> list[str]:
    """The parts of the spine's chapters (XHTML or HTML), in reading order."""
    manifest: dict[str, tuple[str, str]] = {}
    order: list[str] = []

    def start(tag: str, attrs: dict[str, str]) -> None:
        if tag == f"{_OPF} item":
            manifest[attrs.get("id", "")] = (attrs.get("href", ""), attrs.get("media-type", ""))
        elif tag == f"{_OPF} itemref":
            order.append(attrs.get("idref", ""))

    parse_xml(package.read(opf), opf, start)
    return [
        resolve(opf, manifest[idref][0])
        for idref in order
        if idref in manifest and manifest[idref][1] in _CHAPTER_TYPES
    ]


def _encrypted(package: Package) -> set[str]:
    """The parts META-INF/encryption.xml lists (fonts obfuscated by the book's maker are listed too: only
    chapters matter)."""
    if not package.has("META-INF/encryption.xml"):
        return set()
    found: set[str] = set()

    def start(tag: str, attrs: dict[str, str]) -> None:
        if tag == f"{_XML_ENCRYPTION} CipherReference":
            found.add(resolve("", attrs.get("URI", "")))

    parse_xml(package.read("META-INF/encryption.xml"), "META-INF/encryption.xml", start)
    return found
