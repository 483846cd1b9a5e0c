"""Every office format through the dispatcher (extract.extract), damaged: real files made by LibreOffice (a
text as .doc, .docx and .odt; the workbook of test_sheets as .xls, .xlsx and .ods; the deck of test_slides
as .ppt, .pptx and .odp), bytes changed or cut, or a zip's part changed and zipped again, read under their own
kind and under another office kind: a status and a message, quickly, never an exception."""

from __future__ import annotations

import io
import time
import zipfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from neardup_gui.core.models import Extracted, Status
from neardup_gui.core.read.extract import OFFICE_FORMATS, extract
from tests.conftest import chinese_texts, libreoffice_convert, licence_paragraphs, write_flat_odt
from tests.core.test_sheets import SHEETS, write_fods
from tests.core.test_slides import DECK, write_flat_odp

_MADE_AS = {  # each format: which source LibreOffice writes it from, and how
    "doc": ("text", "doc:MS Word 97"),
    "docx": ("text", "docx"),
    "odt": ("text", "odt"),
    "xls": ("sheet", "xls:MS Excel 97"),
    "xlsx": ("sheet", "xlsx:Calc MS Excel 2007 XML"),
    "ods": ("sheet", "ods"),
    "ppt": ("deck", "ppt:MS PowerPoint 97"),
    "pptx": ("deck", "pptx:Impress MS PowerPoint 2007 XML"),
    "odp": ("deck", "odp"),
}


@pytest.fixture(scope="module")
def office_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """One file of each office format, written by LibreOffice."""
    root = tmp_path_factory.mktemp("office")
    chinese = next(iter(chinese_texts().values())).split("\n")
    paragraphs = licence_paragraphs("BSD", 20, 80) + [line for line in chinese if line.strip()][:4]
    sources = {
        "text": write_flat_odt(root / "source" / "letter.fodt", paragraphs, footnote="A footnote.", text_box="Boxed"),
        "sheet": write_fods(root / "source" / "orders.fods", SHEETS),
        "deck": write_flat_odp(root / "source" / "deck.fodp", DECK),
    }
    out, profile = root / "made", root / "profile"
    return {
        fmt: libreoffice_convert(sources[source], target, out, profile).read_bytes()
        for fmt, (source, target) in _MADE_AS.items()
    }


def _changed(data: bytes, edits: list[tuple[float, int]], cut: float | None) -> bytes:
    out = bytearray(data)
    for where, byte in edits:
        out[int(where * len(out))] = byte
    return bytes(out[: max(1, int(cut * len(out)))] if cut is not None else out)


def _part_changed(data: bytes, part: int, edits: list[tuple[float, int]], cut: float | None) -> bytes:
    """The zip with one part's bytes changed, zipped again: the zip's checksums hold, what reads the part
    meets the damage."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as old, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as new:
        infos = old.infolist()
        chosen = infos[part % len(infos)].filename
        for info in infos:
            member = old.read(info)
            new.writestr(info, _changed(member, edits, cut) if info.filename == chosen and member else member)
    return out.getvalue()


_EDITS = st.lists(st.tuples(st.floats(0, 1, exclude_max=True), st.integers(0, 255)), max_size=12)


@pytest.mark.e2e
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    fmt=st.sampled_from(sorted(_MADE_AS)),
    edits=_EDITS,
    cut=st.none() | st.floats(0, 1),
    in_part=st.booleans(),
    part=st.integers(0, 1000),
    data=st.data(),
)
def test_a_damaged_office_file_under_its_own_or_another_kind_gets_a_status_quickly(
    office_files, capfd, fmt, edits, cut, in_part, part, data
):
    original = office_files[fmt]
    if in_part and original.startswith(b"PK"):
        damaged = _part_changed(original, part, edits, cut)
    else:
        damaged = _changed(original, edits, cut)
    # another office kind, whose name does not promise this format: the bytes of an .xls as .wps, .doc, .pptx...
    other = data.draw(st.sampled_from([kind for kind in sorted(OFFICE_FORMATS) if fmt not in OFFICE_FORMATS[kind]]))
    for kind in (fmt, other):
        started = time.monotonic()
        found = extract(kind, damaged)
        assert isinstance(found, Extracted) and isinstance(found.status, Status), (kind, found)
        assert found.status is Status.OK or found.message, (kind, found)
        assert time.monotonic() - started < 3, kind
    assert capfd.readouterr() == ("", ""), "nothing on stdout or stderr: a worker's stdout carries its results"
