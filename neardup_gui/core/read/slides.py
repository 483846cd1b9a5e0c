"""Text of presentations: PowerPoint 97–2003 (.ppt, read from the format's own records, [MS-PPT], in a compound
file) and PowerPoint (.pptx, read from its XML directly, as office.py reads a .docx).

What is read is what the audience and the speaker read: each slide's text in slide order (every text shape,
placeholders included; a table's row on a line, its cells apart by tabs; a line a paragraph; slides apart by
a blank line), then, after all slides, the speaker notes of each slide in slide order (the notes' text, not
the notes page's slide number, date, header, footer or slide picture). Not the masters' and layouts' own text
("Click to edit the title text format"), comments or alternative text.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator

from ..i18n import QT_TRANSLATE_NOOP
from ..models import Extracted, Status
from .containers import PASSWORD_PROTECTED, Package, Unreadable, damaged, parse_xml
from .office import MARKUP_COMPATIBILITY, RELATIONSHIP_IDS, end_cell, finish, main_part, read_package, relationships
from .ole import Compound

_NOT_PRESENTATION = QT_TRANSLATE_NOOP(
    "Problem", "This Office file holds no PowerPoint presentation; it cannot be compared."
)
_POWERPOINT_95 = QT_TRANSLATE_NOOP(
    "Problem",
    "A PowerPoint presentation older than PowerPoint 97 (PowerPoint 95 or 4), which neardup does not read; open "
    "it in PowerPoint, WPS or LibreOffice and save it as .pptx to compare it.",
)

# --- PowerPoint 97-2003 -------------------------------------------------------------------------------

# Record types ([MS-PPT] 2.13.24 RecordType, [MS-ODRAW] for the OfficeArt ones)
_DOCUMENT = 0x03E8
_SLIDE = 0x03EE
_SLIDE_ATOM = 0x03EF
_NOTES = 0x03F0
_SLIDE_PERSIST = 0x03F3
_DRAWING = 0x040C
_OUTLINE_TEXT_REF = 0x0F9E
_TEXT_HEADER = 0x0F9F
_TEXT_CHARS = 0x0FA0
_TEXT_BYTES = 0x0FA8
_SLIDE_LIST = 0x0FF0
_USER_EDIT = 0x0FF5
_CURRENT_USER = 0x0FF6
_PERSIST_DIRECTORY = 0x1772
_PLACEHOLDER = 0x0BC3
_GROUP = 0xF003
_SHAPE = 0xF004
_PROPERTIES = (0xF00B, 0xF122)  # OfficeArtFOPT and OfficeArtTertiaryFOPT
_SHAPE_ATOM = 0xF00A
_CHILD_ANCHOR = 0xF00F
_CLIENT_DATA = 0xF011
_CLIENT_TEXTBOX = 0xF00D
# The other fields whose "*" stands for what the program fills in when it shows the slide: a date, the
# header, the footer; there is nothing of theirs to read in the file's text.
_FIELDS = frozenset({0x0FD8, 0x0FF7, 0x0FF8, 0x0FF9, 0x0FFA, 0x1015})

_CONTAINER = 0xF  # recVer of a record that holds records
_ENCRYPTED_TOKEN = 0xF3D1C4DF  # CurrentUserAtom.headerToken of an encrypted presentation
_SLIDES, _NOTES_LIST = 0, 2  # SlideListWithTextContainer's recInstance: slides, notes (1 is the masters)
_TABLE_PROPERTIES = 0x039F  # an OfficeArt property whose bit 0 makes a group a table
_LINE = 20  # msosptLine: a table's border, drawn in its group among the cells
# OEPlaceholderAtom.placementId of a page's furniture ([MS-PPT] 2.13.21 PlaceholderEnum): the date, slide
# number, footer and header a slide or notes page repeats from its master (the same on every page, and a number
# that changes when slides move: neither is what a page says), and the notes page's picture of its slide
_SLIDE_FURNITURE = frozenset({0x07, 0x08, 0x09, 0x0A})
_NOTES_FURNITURE = _SLIDE_FURNITURE | {0x05, 0x0B}
_DEPTH = 32  # shapes nested in groups at most: PowerPoint's own files nest a few deep

# A paragraph's end (\r) and a line break (\x0b) end a line; PowerPoint's other control characters (a field's
# placeholder aside, handled before) are nothing a reader sees
_MARKS = str.maketrans(
    {"\r": "\n", "\x0b": "\n", **dict.fromkeys((c for c in map(chr, range(0x20)) if c not in "\t\n\r\x0b"), None)}
)


def extract_ppt(data: bytes) -> Extracted:
    """A PowerPoint 97–2003 presentation's slides, then its speaker notes."""
    try:
        document = Compound(data)
        # a PowerPoint 95 file saved "for 95 and 97" keeps the 97 presentation in a storage of its own
        folder = "PP97_DUALSTORAGE/" if document.has("PP97_DUALSTORAGE/PowerPoint Document") else ""
        if not document.has(f"{folder}PowerPoint Document"):
            raise Unreadable(Status.UNSUPPORTED, _POWERPOINT_95 if document.has("PP40") else _NOT_PRESENTATION)
        current = document.read(f"{folder}Current User") if document.has(f"{folder}Current User") else b""
        slides, notes = _Presentation(document.read(f"{folder}PowerPoint Document")).text(_current_edit(current))
    except Unreadable as problem:
        return problem.outcome
    return finish([*slides, "\n", *notes])


def _current_edit(current: bytes) -> int | None:
    """Where the last edit's UserEditAtom is, from the Current User stream's CurrentUserAtom; None when the
    stream is missing or is not one. Unreadable when the presentation is encrypted."""
    if len(current) < 20 or struct.unpack_from("<H", current, 2)[0] != _CURRENT_USER:
        return None
    token, offset = struct.unpack_from("<II", current, 12)
    if token == _ENCRYPTED_TOKEN:
        raise Unreadable(Status.ENCRYPTED, PASSWORD_PROTECTED)
    return offset


class _Presentation:
    """The PowerPoint Document stream, walked as PowerPoint reads it: the chain of edits gives the persist
    directory (each object's offset, the newest edit's), which gives the document, its lists of slides and
    notes, and each slide's and notes page's drawing. A hostile stream costs no more than its size: every
    record lies inside its parent, the records read are at most a quarter of the stream's bytes in number,
    and the text given at most twice its bytes (a text referred to many times is given many times)."""

    def __init__(self, stream: bytes) -> None:
        self.data = stream
        self.records = len(stream) // 4 + 64
        self.characters = 2 * len(stream) + 1024

    def text(self, current_edit: int | None) -> tuple[list[str], list[str]]:
        """The slides' pieces and the notes' pieces."""
        directory, document = self._directory(current_edit)
        kind, _, _, body, end = self._object(directory, document)
        if kind != _DOCUMENT:
            raise damaged("no document where the last edit says")
        lists: dict[int, list[tuple[int, int, list[str]]]] = {_SLIDES: [], _NOTES_LIST: []}
        for kind, instance, _, start, stop in self._children(body, end):
            if kind == _SLIDE_LIST and instance in lists:
                lists[instance] = self._slide_list(start, stop)
        notes_pages = {notes_id: (persist, texts) for persist, notes_id, texts in lists[_NOTES_LIST]}
        slides: list[str] = []
        notes: list[str] = []
        for persist, _slide_id, texts in lists[_SLIDES]:
            notes_id = self._page(directory, persist, _SLIDE, _Page(texts, _SLIDE_FURNITURE), slides)
            slides.append("\n")
            if notes_id and notes_id in notes_pages:
                persist, texts = notes_pages[notes_id]
                self._page(directory, persist, _NOTES, _Page(texts, _NOTES_FURNITURE), notes)
                notes.append("\n")
        return slides, notes

    def _page(self, directory: dict[int, int], persist: int, kind: int, page: _Page, pieces: list[str]) -> int:
        """Append the text of a slide's or notes page's drawing; return the slide's notes id (its SlideAtom's
        notesIdRef: the notes page's entry in the list of notes), 0 for none."""
        found, _, _, body, end = self._object(directory, persist)
        if found != kind:
            raise damaged(f"object {persist} is no {'slide' if kind == _SLIDE else 'notes page'}, though listed as one")
        notes_id = 0
        for record, _, _, start, stop in self._children(body, end):
            if record == _SLIDE_ATOM:
                notes_id = self._number(start, stop, 16)
            elif record == _DRAWING:
                self._shapes(start, stop, 0, page, pieces)
        return notes_id

    # records

    def _header(self, at: int, end: int) -> tuple[int, int, int, int, int]:
        """(type, instance, version, body's start, body's end) of the record at ``at``, which must lie within
        ``end``."""
        self.records -= 1
        if self.records < 0:
            raise damaged("more records than the stream can hold (a loop?)")
        if at < 0 or at + 8 > end:
            raise damaged(f"a record at {at} lies outside its part")
        version_instance, kind, length = struct.unpack_from("<HHI", self.data, at)
        if at + 8 + length > end:
            raise damaged(f"the record at {at} runs {at + 8 + length - end} bytes past its part")
        return kind, version_instance >> 4, version_instance & 0xF, at + 8, at + 8 + length

    def _children(self, start: int, end: int) -> Iterator[tuple[int, int, int, int, int]]:
        """The records inside a container's body (a few bytes too few for a record at its end are padding)."""
        at = start
        while end - at >= 8:
            record = self._header(at, end)
            yield record
            at = record[4]

    def _object(self, directory: dict[int, int], persist: int) -> tuple[int, int, int, int, int]:
        if persist not in directory:
            raise damaged(f"object {persist} is not in the persist directory")
        return self._header(directory[persist], len(self.data))

    def _number(self, start: int, stop: int, at: int, form: str = "<I") -> int:
        """A number in a record's body, or damaged when the body is too short for it."""
        if start + at + struct.calcsize(form) > stop:
            raise damaged(f"a record at {start - 8} too short")
        return int(struct.unpack_from(form, self.data, start + at)[0])

    # the chain of edits

    def _directory(self, current_edit: int | None) -> tuple[dict[int, int], int]:
        """The persist directory (each object's offset; a newer edit's entry wins over an older one's) and the
        document's persist id, from the newest edit back along offsetLastEdit ([MS-PPT] 2.3.3)."""
        if current_edit is None or not self._is_edit(current_edit):
            # Current User is missing, or points at no edit (some converters write it wrong): the newest
            # edit is the last one in the stream, as PowerPoint appends every save's edit at the end
            current_edit = self._last_edit()
        directory: dict[int, int] = {}
        document: int | None = None
        seen: set[int] = set()
        at = current_edit
        while at:  # 0: the first save, with no edit before it
            if at in seen:
                raise damaged("the chain of the presentation's edits loops")
            seen.add(at)
            kind, _, _, start, stop = self._header(at, len(self.data))
            if kind != _USER_EDIT:
                raise damaged(f"no edit at {at}, where the chain of edits points")
            last_edit, persist_directory, document_ref = (self._number(start, stop, i) for i in (8, 12, 16))
            if document is None:
                document = document_ref
                if stop - start >= 32 and self._number(start, stop, 28):  # encryptSessionPersistIdRef
                    raise Unreadable(Status.ENCRYPTED, PASSWORD_PROTECTED)
            self._persist_entries(persist_directory, directory)
            at = last_edit
        if document is None:
            raise damaged("no edit in the presentation")
        return directory, document

    def _is_edit(self, at: int) -> bool:
        return 0 < at <= len(self.data) - 8 and struct.unpack_from("<H", self.data, at + 2)[0] == _USER_EDIT

    def _last_edit(self) -> int:
        """The offset of the last UserEditAtom among the stream's top-level records."""
        at, found = 0, 0
        while len(self.data) - at >= 8:  # each step moves on by 8 bytes at least
            _, kind, length = struct.unpack_from("<HHI", self.data, at)
            if kind == _USER_EDIT:
                found = at
            at += 8 + length
        if not found:
            raise damaged("no edit in the presentation")
        return found

    def _persist_entries(self, at: int, directory: dict[int, int]) -> None:
        """Add a PersistDirectoryAtom's entries to ``directory`` (runs of consecutive persist ids: the first
        id and the count in one 32-bit word, then an offset for each)."""
        kind, _, _, start, stop = self._header(at, len(self.data))
        if kind != _PERSIST_DIRECTORY:
            raise damaged(f"no persist directory at {at}, where an edit points")
        while stop - start >= 4:
            (word,) = struct.unpack_from("<I", self.data, start)
            first, count = word & 0xFFFFF, word >> 20
            start += 4
            if start + 4 * count > stop:
                raise damaged("a persist directory runs past its record")
            for persist, offset in enumerate(struct.unpack_from(f"<{count}I", self.data, start), first):
                directory.setdefault(persist, offset)
            start += 4 * count

    # slides and their text

    def _slide_list(self, start: int, end: int) -> list[tuple[int, int, list[str]]]:
        """A SlideListWithTextContainer's entries, in its order: (persist id, slide or notes id, the texts
        that follow its SlidePersistAtom, which the slide's OutlineTextRefAtoms point at by their index)."""
        entries: list[tuple[int, int, list[str]]] = []
        group: list[tuple[int, int, int, int, int]] = []
        for record in self._children(start, end):
            kind, _, _, body, stop = record
            if kind == _SLIDE_PERSIST:
                if entries:
                    entries[-1][2].extend(self._texts(group, []))
                group = []
                entries.append((self._number(body, stop, 0), self._number(body, stop, 12), []))
            else:
                group.append(record)
        if entries:
            entries[-1][2].extend(self._texts(group, []))
        return entries

    def _shapes(self, start: int, end: int, depth: int, page: _Page, pieces: list[str]) -> None:
        """Append the text of the shapes in a drawing's records (PPDrawing, OfficeArt's containers and groups)
        in their order, which is the order they are drawn in, back to front."""
        if depth > _DEPTH:
            raise damaged("shapes nested too deep")
        for kind, _, version, body, stop in self._children(start, end):
            if kind == _SHAPE:
                text = self._shape_text(body, stop, page)
                if text:
                    pieces.append(text + "\n")
            elif kind == _GROUP and self._is_table(body, stop):
                self._table(body, stop, page, pieces)
            elif version == _CONTAINER:
                self._shapes(body, stop, depth + 1, page, pieces)

    def _shape_text(self, start: int, end: int, page: _Page) -> str:
        """A shape's text (its ClientTextbox's); "" for a notes page's furniture (its placeholder says so)."""
        text = ""
        for kind, _, _, body, stop in self._children(start, end):
            if kind == _CLIENT_DATA:
                for inner, _, _, at, inner_stop in self._children(body, stop):
                    if inner == _PLACEHOLDER and self._number(at, inner_stop, 4, "<B") in page.furniture:
                        return ""
            elif kind == _CLIENT_TEXTBOX:
                text = "\n".join(self._texts(list(self._children(body, stop)), page.texts))
        return text

    def _texts(self, records: list[tuple[int, int, int, int, int]], referred: list[str]) -> list[str]:
        """The texts in a run of records: each TextHeaderAtom begins one, a TextCharsAtom (UTF-16) or
        TextBytesAtom (8-bit: the low bytes of UTF-16, so Latin-1) holds its characters, field atoms mark
        characters that stand for a field; an OutlineTextRefAtom is the ``referred`` text of its index."""
        texts: list[tuple[str, list[int]]] = []
        for kind, _, _, body, stop in records:
            if kind == _TEXT_HEADER:
                texts.append(("", []))
            elif kind in (_TEXT_CHARS, _TEXT_BYTES):
                raw = self.data[body:stop]
                self.characters -= len(raw)
                characters = raw.decode("utf-16-le", "replace") if kind == _TEXT_CHARS else raw.decode("latin-1")
                texts[-1:] = [(characters, texts[-1][1] if texts else [])]
            elif kind in _FIELDS and texts:
                texts[-1][1].append(self._number(body, stop, 0))
            elif kind == _OUTLINE_TEXT_REF:
                index = self._number(body, stop, 0, "<i")
                if 0 <= index < len(referred):
                    self.characters -= len(referred[index])
                    texts.append((referred[index], []))
            if self.characters < 0:
                raise damaged("more text than the stream can hold (a loop?)")
        return [_shown(characters, fields) for characters, fields in texts]

    def _is_table(self, start: int, end: int) -> bool:
        """Whether a group is a table: its own shape (the group's first) has tableProperties with bit 0 set."""
        for kind, _, _, body, stop in self._children(start, end):
            if kind != _SHAPE:
                return False
            for inner, count, _, at, inner_stop in self._children(body, stop):
                if inner in _PROPERTIES:
                    for i in range(min(count, (inner_stop - at) // 6)):
                        identifier, value = struct.unpack_from("<HI", self.data, at + 6 * i)
                        if identifier & 0x3FFF == _TABLE_PROPERTIES and value & 1:
                            return True
            return False
        return False

    def _table(self, start: int, end: int, page: _Page, pieces: list[str]) -> None:
        """Append a table: its cells are the group's text shapes, row by row; a new row begins where a cell's
        top (its anchor in the group) differs from the cell's before it."""
        top: int | None = None
        for kind, _, _, body, stop in list(self._children(start, end))[1:]:
            if kind != _SHAPE:
                continue
            cell_top, shape_type = None, 0
            for inner, instance, _, at, inner_stop in self._children(body, stop):
                if inner == _SHAPE_ATOM:
                    shape_type = instance
                elif inner == _CHILD_ANCHOR:
                    cell_top = self._number(at, inner_stop, 4, "<i")
            if shape_type == _LINE:
                continue
            if top is not None and cell_top != top:
                pieces.append("\n")
            top = cell_top
            pieces.append(self._shape_text(body, stop, page))
            end_cell(pieces)
        pieces.append("\n")


class _Page:
    """What reading one slide's or notes page's drawing needs: the texts its OutlineTextRefAtoms point at, and
    the placeholders not read."""

    __slots__ = ("furniture", "texts")

    def __init__(self, texts: list[str], furniture: frozenset[int]) -> None:
        self.texts, self.furniture = texts, furniture


def _shown(characters: str, fields: list[int]) -> str:
    """A text atom's characters as the page's text: a field's character (a slide number, a date: what the
    program fills in as it shows the page, not what the page says) nothing, line ends as _MARKS says."""
    if fields:
        shown = list(characters)
        for at in fields:
            if 0 <= at < len(shown):
                shown[at] = ""
        characters = "".join(shown)
    return characters.translate(_MARKS)


# --- PowerPoint (.pptx) -------------------------------------------------------------------------------

_PRESENTATION_ML = frozenset(
    {"http://schemas.openxmlformats.org/presentationml/2006/main", "http://purl.oclc.org/ooxml/presentationml/main"}
)  # transitional and strict
_DRAWING_ML = frozenset(
    {"http://schemas.openxmlformats.org/drawingml/2006/main", "http://purl.oclc.org/ooxml/drawingml/main"}
)

_SHAPES = frozenset({"sp", "pic", "graphicFrame", "cxnSp"})  # the elements a placeholder (p:ph) can be
_SLIDE_PAGE_FURNITURE = frozenset({"sldNum", "dt", "hdr", "ftr"})  # what a page repeats from its master
_NOTES_PAGE_FURNITURE = _SLIDE_PAGE_FURNITURE | {"sldImg"}


def extract_pptx(data: bytes) -> Extracted:
    """A PowerPoint presentation's slides in the order of its list of slides, then its speaker notes."""
    try:
        package = read_package(data)
        main = main_part(package, "ppt/presentation.xml")
        slides: list[str] = []
        notes: list[str] = []
        for slide in _slide_parts(package, main):
            _drawing_text(package.read(slide), slide, slides, _SLIDE_PAGE_FURNITURE)
            slides.append("\n")
            page = next((target for kind, target in relationships(package, slide).values() if kind == "notesSlide"), "")
            if package.has(page):
                _drawing_text(package.read(page), page, notes, _NOTES_PAGE_FURNITURE)
                notes.append("\n")
    except Unreadable as problem:
        return problem.outcome
    return finish([*slides, "\n", *notes])


def _slide_parts(package: Package, main: str) -> list[str]:
    """The slides' parts in the presentation's order (p:sldIdLst; each p:sldId's r:id names its relationship)."""
    ids: list[str] = []

    def start(tag: str, attrs: dict[str, str]) -> None:
        namespace, _, local = tag.rpartition(" ")
        if namespace in _PRESENTATION_ML and local == "sldId":
            ids.extend(value for name, value in attrs.items() if name.rpartition(" ")[0] in RELATIONSHIP_IDS)

    parse_xml(package.read(main), main, start)
    related = relationships(package, main)
    return [related[i][1] for i in ids if i in related]


def _drawing_text(xml: bytes, part: str, pieces: list[str], furniture: frozenset[str]) -> None:
    """Append the text of a slide's or notes page's shapes (PresentationML shapes, groups and graphic frames,
    DrawingML text): a:t of runs (not of fields: a slide number, a date), a line a paragraph, a:br a line end,
    a table's row on a line, its cells apart by tabs; a copy for older programs (mc:Fallback) skipped, and
    shapes that are placeholders of a ``furniture`` type."""
    state = {"skip": 0, "hidden": 0, "field": 0, "text": False}
    shapes: list[bool] = []  # for each open shape, whether it is furniture

    def start(tag: str, attrs: dict[str, str]) -> None:
        namespace, _, local = tag.rpartition(" ")
        if state["skip"]:
            state["skip"] += 1
        elif namespace == MARKUP_COMPATIBILITY and local == "Fallback":
            state["skip"] = 1
        elif namespace in _PRESENTATION_ML:
            if local in _SHAPES:
                shapes.append(False)
            elif local == "ph" and shapes and not shapes[-1] and attrs.get("type", "obj") in furniture:
                shapes[-1] = True
                state["hidden"] += 1
        elif namespace in _DRAWING_ML and not state["hidden"]:
            if local == "t" and not state["field"]:
                state["text"] = True
            elif local == "fld":  # a slide number or date the program fills in as it shows the page
                state["field"] += 1
            elif local == "br":
                pieces.append("\n")

    def end(tag: str) -> None:
        if state["skip"]:
            state["skip"] -= 1
            return
        namespace, _, local = tag.rpartition(" ")
        if namespace in _PRESENTATION_ML and local in _SHAPES and shapes and shapes.pop():
            state["hidden"] -= 1
        elif namespace in _DRAWING_ML and not state["hidden"]:
            if local == "t":
                state["text"] = False
            elif local == "fld":
                state["field"] -= 1
            elif local in ("p", "tr"):
                pieces.append("\n")
            elif local == "tc":
                end_cell(pieces)

    def text(data: str) -> None:
        if state["text"] and not state["skip"]:
            pieces.append(data)

    parse_xml(xml, part, start, end, text)
