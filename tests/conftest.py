"""Shared helpers: real texts (the repository's tests/data, and the licences every Debian/Ubuntu machine ships
in /usr/share/common-licenses), planted edits, real PDFs, CLI runs; and the guard of the fast tier.

Two tiers: a test that starts a process (the CLI, a scan through the worker pool, Spark, LibreOffice,
Chromium, Tesseract, a child to kill) is marked ``e2e``; every other test is the fast tier
(``pytest -m "not e2e"``), and fails if it starts a process all the same."""

from __future__ import annotations

import contextlib
import multiprocessing.process
import multiprocessing.util
import os
import random
import re
import struct
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data"  # everything the tests read lives in the repository (see each folder's README)
PDF_SAMPLES = DATA / "pdf-samples"
ZH_TEXTS = DATA / "zh"
LICENSES = Path("/usr/share/common-licenses")
# pairwise shingle Jaccard < 0.1: unrelated documents
UNRELATED_LICENSES = ("Apache-2.0", "Artistic", "BSD", "CC0-1.0", "GFDL-1.3", "GPL-2", "LGPL-3", "MPL-2.0")

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def english_texts() -> dict[str, str]:
    return {name: (LICENSES / name).read_text(encoding="utf-8") for name in UNRELATED_LICENSES}


def chinese_texts() -> dict[str, str]:
    return {p.stem: p.read_text(encoding="utf-8") for p in sorted(ZH_TEXTS.glob("*.txt"))}


_HAN_FILLER = (
    "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种"
    "面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本"
    "去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比"
    "或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总"
    "次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做"
    "必战先回则任取据处队南给色光门即保治北造百规热领七海口东导器压志世金增争济阶油思术极交受联什认六共权"
    "收证改清己美再采转更单风切打白教速花带安场身车例真务具万每目至达走积示议声报斗完类八离华名确才科张信"
    "马节话米整空元况今集温传土许步群广石记需段研界拉林律叫且究观越织装影算低持音众书布复容儿须际商非验连"
    "断深难近矿千周委素技备半办青省列习响约支般史感劳便团往酸历市克何除消构府称太准精值号率族维划选标写存"
    "候毛亲快效斯院查江型眼王按格养易置派层片始却专状育厂京识适属圆包火住调满县局照参红细引听该铁价严"
)


def plant_edits(text: str, rate: float, seed: int) -> str:
    """A near-duplicate of ``text``: about ``rate`` of its words (Han characters, for Chinese) replaced,
    deleted or duplicated, at random positions."""
    rng = random.Random(seed)
    han = sum(1 for ch in text if "\u4e00" <= ch <= "\u9fff")
    if han > len(text) / 4:
        out = []
        for ch in text:
            if "\u4e00" <= ch <= "\u9fff" and rng.random() < rate:
                op = rng.random()
                if op < 0.5:
                    out.append(rng.choice(_HAN_FILLER))
                elif op < 0.75:
                    continue
                else:
                    out.append(ch + rng.choice(_HAN_FILLER))
            else:
                out.append(ch)
        return "".join(out)
    words = text.split(" ")
    out = []
    vocabulary = ["amber", "quartz", "lantern", "meadow", "copper", "harbor", "velvet", "orbit", "cinder", "willow"]
    for w in words:
        if rng.random() < rate:
            op = rng.random()
            if op < 0.5:
                out.append(rng.choice(vocabulary))
            elif op < 0.75:
                continue
            else:
                out.extend([w, rng.choice(vocabulary)])
        else:
            out.append(w)
    return " ".join(out)


def licence_paragraphs(licence: str, min_words: int, max_words: int) -> list[str]:
    """The paragraphs of a licence text with at least ``min_words``, cut to ``max_words``."""
    text = (LICENSES / licence).read_text(encoding="utf-8")
    out = []
    for block in re.split(r"\n\s*\n", text):
        words = block.split()
        if len(words) >= min_words:
            out.append(" ".join(words[:max_words]))
    return out


def write_footed_letters(root: Path) -> Path:
    """30 unrelated short letters (distinct GPL-3 paragraphs) that all end in the same long footer (an
    Apache-2.0 paragraph), and one near-copy of the first letter: the footer alone puts unrelated
    letters at Jaccard ~0.6 (boilerplate)."""
    footer = max(licence_paragraphs("Apache-2.0", 100, 150), key=len)
    bodies = licence_paragraphs("GPL-3", 45, 50)[:30]
    assert len(bodies) == 30
    for n, body in enumerate(bodies):
        (root / f"letter{n:02d}.txt").write_text(f"{body}\n\n{footer}\n", encoding="utf-8")
    (root / "letter00~copy.txt").write_text(f"{plant_edits(bodies[0], 0.03, seed=1)}\n\n{footer}\n", encoding="utf-8")
    return root


def write_drafts(root: Path, count: int) -> Path:
    """``count`` successive drafts of the GPL-2 text, draft-00.txt, draft-01.txt…, each with 3 % of the words
    of the one before edited: each close to the next, the last far from the first (a chain)."""
    root.mkdir(parents=True, exist_ok=True)
    text = english_texts()["GPL-2"]
    for n in range(count):
        (root / f"draft-{n:02d}.txt").write_text(text)
        text = plant_edits(text, 0.03, seed=n)
    return root


def write_pdf(path: Path, text: str, *, user_password: str | None = None, owner_password: str | None = None) -> Path:
    """A real PDF (reportlab) holding ``text``; Chinese through the built-in STSong-Light CID font."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    if "STSong-Light" not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    encrypt = None
    if user_password is not None or owner_password is not None:
        from reportlab.lib import pdfencrypt

        encrypt = pdfencrypt.StandardEncryption(
            user_password or "", ownerPassword=owner_password or "owner", strength=128
        )
    c = canvas.Canvas(str(path), pagesize=A4, encrypt=encrypt)
    c.setFont("STSong-Light", 10)
    y = 800
    for paragraph in text.splitlines():
        if any("\u4e00" <= ch <= "\u9fff" for ch in paragraph):
            lines = [paragraph[i : i + 44] for i in range(0, len(paragraph), 44)]
        else:
            lines = textwrap.wrap(paragraph, 95) or [""]
        for chunk in lines:
            if y < 40:
                c.showPage()
                c.setFont("STSong-Light", 10)
                y = 800
            c.drawString(40, y, chunk)
            y -= 14
    c.showPage()
    c.save()
    return path


def write_slow_docx(path: Path, paragraphs: int = 600_000) -> Path:
    """A valid .docx that takes seconds to read (~5 s here at the default size: 74 MB of WordprocessingML,
    1.8 million runs, packed into 250 KB): what the tests of reading time limits use."""
    import zipfile

    word = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
    package = "http://schemas.openxmlformats.org/package/2006"
    paragraph = (
        '<w:p><w:r><w:t>lorem</w:t></w:r><w:r><w:t xml:space="preserve"> ipsum </w:t></w:r>'
        "<w:r><w:tab/><w:t>dolor</w:t></w:r></w:p>"
    )
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as docx:
        docx.writestr(
            "[Content_Types].xml",
            (
                f'<?xml version="1.0" encoding="UTF-8"?><Types xmlns="{package}/content-types">'
                '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
                '<Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" '
                'ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>'
                "</Types>"
            ),
        )
        docx.writestr(
            "_rels/.rels",
            (
                f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{package}/relationships">'
                '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
                'officeDocument" Target="word/document.xml"/></Relationships>'
            ),
        )
        docx.writestr(
            "word/document.xml",
            f'<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="{word}">'
            f"<w:body>{paragraph * paragraphs}</w:body></w:document>",
        )
    return path


def write_flat_odt(
    path: Path,
    paragraphs: list[str],
    *,
    footnote: str = "",
    comment: str = "",
    title: str = "",
    text_box: str = "",
    alt_text: str = "",
    link: str = "",
) -> Path:
    """A flat OpenDocument text (LibreOffice's own .fodt): a heading, ``paragraphs`` (a footnote on the first, a
    comment on the second), a text box, a paragraph with a web link whose words are ``link``, a two-cell table
    and a metadata title; what libreoffice_convert makes the other formats from."""
    from xml.sax.saxutils import escape

    note = (
        (
            f'<text:note text:id="ftn1" text:note-class="footnote"><text:note-citation>1</text:note-citation>'
            f"<text:note-body><text:p>{escape(footnote)}</text:p></text:note-body></text:note>"
        )
        if footnote
        else ""
    )
    remark = (
        (f"<office:annotation><dc:creator>Reviewer</dc:creator><text:p>{escape(comment)}</text:p></office:annotation>")
        if comment
        else ""
    )
    box = (
        (
            f'<text:p><draw:frame draw:name="Box" text:anchor-type="paragraph" svg:width="8cm" svg:height="2cm">'
            f"<draw:text-box><text:p>{escape(text_box)}</text:p></draw:text-box>"
            f"{f'<svg:desc>{escape(alt_text)}</svg:desc>' if alt_text else ''}</draw:frame></text:p>"
        )
        if text_box
        else ""
    )
    linked = (
        f'<text:p>See <text:a xlink:type="simple" xlink:href="https://example.org/licence">{escape(link)}</text:a>.'
        "</text:p>"
        if link
        else ""
    )
    first, second, *rest = [escape(p) for p in paragraphs]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        f"""<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
 xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
 xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/"
 xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"
 xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"
 xmlns:xlink="http://www.w3.org/1999/xlink"
 office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.text">
 <office:meta><dc:title>{escape(title)}</dc:title></office:meta>
 <office:body><office:text>
  <text:h text:outline-level="1">Licence of the near-duplicate finder</text:h>
  <text:p>{first}{note}</text:p>
  <text:p>{remark}{second}</text:p>
  {box}
  {linked}
  {"".join(f"<text:p>{p}</text:p>" for p in rest)}
  <table:table table:name="Terms"><table:table-column table:number-columns-repeated="2"/>
   <table:table-row><table:table-cell office:value-type="string"><text:p>cell one</text:p></table:table-cell>
   <table:table-cell office:value-type="string"><text:p>cell two</text:p></table:table-cell></table:table-row>
  </table:table>
 </office:text></office:body>
</office:document>
""",
        encoding="utf-8",
    )
    return path


COMPOUND_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"


def compound_file(streams: dict[str, bytes]) -> bytes:
    """A minimal OLE compound file (version 3, 512-byte sectors) with ``streams`` at its root, each padded with
    zeros to 4,096 bytes at least, so that none is kept in the mini stream."""
    end_of_chain, fat_mark, free, none = 0xFFFFFFFE, 0xFFFFFFFD, 0xFFFFFFFF, 0xFFFFFFFF
    names = sorted(streams, key=lambda name: (len(name), name.upper()))
    body = b""
    fat: list[int] = []
    placed: list[tuple[int, int]] = []
    for name in names:
        data = streams[name].ljust(4096, b"\0")
        data += b"\0" * (-len(data) % 512)
        first, count = len(fat), len(data) // 512
        fat += [*range(first + 1, first + count), end_of_chain]
        placed.append((first, len(data)))
        body += data

    def entry(name: str, kind: int, *, right: int = none, child: int = none, start: int = 0, size: int = 0) -> bytes:
        encoded = name.encode("utf-16-le") + b"\0\0"
        return struct.pack(
            "<64sHBBIII16sIQQIQ", encoded, len(encoded), kind, 1, none, right, child, b"", 0, 0, 0, start, size
        )

    directory = entry("Root Entry", 5, child=1 if names else none, start=end_of_chain)
    for i, (first, size) in enumerate(placed):
        directory += entry(names[i], 2, right=i + 2 if i + 1 < len(names) else none, start=first, size=size)
    directory += b"\0" * (-len(directory) % 512)
    directory_first = len(fat)
    count = len(directory) // 512
    fat += [*range(directory_first + 1, directory_first + count), end_of_chain]
    fat_sectors = 1
    while len(fat) + fat_sectors > 128 * fat_sectors:
        fat_sectors += 1
    first_fat = len(fat)
    fat += [fat_mark] * fat_sectors
    fat += [free] * (128 * fat_sectors - len(fat))
    header = struct.pack(
        "<8s16sHHHHH6sIIIIIIIII",
        COMPOUND_MAGIC, b"", 0x3E, 3, 0xFFFE, 9, 6, b"", 0, fat_sectors, directory_first, 0, 4096, end_of_chain, 0,
        end_of_chain, 0,
    )  # fmt: skip
    header += struct.pack("<109I", *range(first_fat, first_fat + fat_sectors), *[free] * (109 - fat_sectors))
    return header + body + directory + struct.pack(f"<{len(fat)}I", *fat)


def scan_beside_unrelated(files: dict[str, Path], tmp_path: Path) -> dict:
    """The JSON report of a scan through the real CLI (two workers) of ``files`` (name -> file copied under that
    name) beside three unrelated licences, in a new folder under ``tmp_path``."""
    import json
    import shutil

    root = tmp_path / "uploads"
    root.mkdir()
    for name, source in files.items():
        shutil.copy(source, root / name)
    for name in ("GPL-2", "Apache-2.0", "MPL-2.0"):
        (root / f"{name}.txt").write_text(english_texts()[name], encoding="utf-8")
    proc = run_cli("scan", str(root), "--db", str(tmp_path / "n.db"), "--format", "json", "--workers", "2")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def libreoffice_convert(source: Path, target: str, out: Path, profile: Path) -> Path:
    """``source`` converted by a real LibreOffice, headless (``soffice --convert-to TARGET``), into ``out``."""
    import shutil

    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    assert soffice, "needs LibreOffice Writer (tests/run.sh installs libreoffice-writer-nogui)"
    subprocess.run(
        [
            soffice,
            "--headless",
            f"-env:UserInstallation=file://{profile}",
            "--convert-to",
            target,
            "--outdir",
            str(out),
            str(source),
        ],
        check=True,
        capture_output=True,
        timeout=180,
    )
    made = out / f"{source.stem}.{target.split(':')[0]}"
    assert made.exists(), f"LibreOffice did not write {made.name}"
    return made


def libreoffice_password(source: Path, target: Path, filter_name: str, password: str, profile: Path) -> Path:
    """``source`` saved by a real LibreOffice as ``target`` (its export filter ``filter_name``, "MS Word 97",
    "Calc MS Excel 2007 XML"...) with a password: through LibreOffice's own API, run by the system's python3
    (tests/run.sh installs python3-uno), as its command line takes no password. LibreOffice 7.4 writes a .ppt
    given a password in the clear: check that what it wrote is encrypted."""
    python = "/usr/bin/python3"
    assert Path(python).exists(), "needs the system's python3 with LibreOffice's uno module (python3-uno)"
    subprocess.run(
        [python, str(Path(__file__).with_name("libreoffice_password.py"))]
        + [str(source), str(target), filter_name, password, str(profile)],
        check=True,
        capture_output=True,
        timeout=180,
    )
    assert target.exists(), f"LibreOffice did not write {target.name}"
    return target


def venv_borrowing_dependencies(venv: Path) -> tuple[Path, str]:
    """A new virtualenv at ``venv`` whose Python finds the test environment's packages (numpy, jieba, pyspark…)
    through a .pth line, but not neardup (installed there in development mode, by a .pth file that a borrowed
    folder does not run): its Python and its own site-packages."""
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    numpy_at = "import numpy, os; print(os.path.dirname(os.path.dirname(numpy.__file__)))"
    deps = subprocess.run([sys.executable, "-c", numpy_at], capture_output=True, text=True, check=True).stdout.strip()
    Path(site, "borrowed.pth").write_text(deps + "\n")
    return python, site


def scan_of(pdf: bytes, *, dpi: int = 200, noise: float = 0.0, seed: int = 0) -> list:
    """The pages of a PDF as a scanner sees them: grey pixel arrays (numpy) rendered by PDFium at ``dpi``,
    with ``noise``: the standard deviation of Gaussian grain (0-255) plus as many per mille of pixels
    flipped to black or white (dust)."""
    import numpy as np
    import pypdfium2 as pdfium

    rng = np.random.default_rng(seed)
    pages = []
    document = pdfium.PdfDocument(pdf)
    for number in range(len(document)):
        pixels = document[number].render(scale=dpi / 72, grayscale=True).to_numpy()
        pixels = (pixels[:, :, 0] if pixels.ndim == 3 else pixels).astype(np.float32)
        if noise:
            pixels += rng.normal(0, noise, pixels.shape)
            dust = rng.random(pixels.shape)
            pixels[dust < noise / 2000] = 0
            pixels[dust > 1 - noise / 2000] = 255
        pages.append(np.clip(pixels, 0, 255).astype(np.uint8))
    document.close()
    return pages


def write_image_pdf(path: Path, pages: list, *, dpi: int = 200) -> Path:
    """A PDF whose pages are only images (what a scanner writes): each grey array of ``pages`` a page of
    its size at ``dpi``, no text layer."""
    import zlib

    objects: list[bytes] = [b"<< /Type /Catalog /Pages 2 0 R >>", b""]
    kids = []
    for pixels in pages:
        height, width = pixels.shape
        points = (width * 72 / dpi, height * 72 / dpi)
        image = zlib.compress(pixels.tobytes())
        objects.append(
            b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray "
            b"/BitsPerComponent 8 /Filter /FlateDecode /Length %d >>\nstream\n"
            % (width, height, len(image))
            + image
            + b"\nendstream"
        )
        image_ref = len(objects)
        draw = b"q %.2f 0 0 %.2f 0 0 cm /Im0 Do Q" % points
        objects.append(b"<< /Length %d >>\nstream\n" % len(draw) + draw + b"\nendstream")
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.2f %.2f] /Contents %d 0 R "
            b"/Resources << /XObject << /Im0 %d 0 R >> >> >>" % (*points, len(objects), image_ref)
        )
        kids.append(b"%d 0 R" % len(objects))
    objects[1] = b"<< /Type /Pages /Kids [" + b" ".join(kids) + b"] /Count %d >>" % len(kids)
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    path.write_bytes(bytes(out))
    return path


def write_png(path: Path, pixels) -> Path:
    """A grey PNG of a pixel array (numpy uint8), written with zlib alone."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    height, width = pixels.shape
    rows = b"".join(b"\x00" + pixels[y].tobytes() for y in range(height))  # filter type 0 on every row
    path.write_bytes(
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )
    return path


def run_cli(
    *args: str, cwd: Path | None = None, timeout: float = 300, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "neardup_gui.cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=timeout,
        env=env,
    )


@contextlib.contextmanager
def speaking(language: str) -> Iterator[None]:
    """The engine speaks ``language`` through the catalogues (no Qt translator), and English again afterwards."""
    from neardup_gui.core import i18n

    translator = i18n._State.translator
    i18n.use_translator(None)
    i18n.set_language(language)
    try:
        yield
    finally:
        i18n.set_language("en")
        i18n.use_translator(translator)


@pytest.fixture
def chinese() -> Iterator[None]:
    with speaking("zh_CN"):
        yield


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "state" / "neardup.db"


_FAST_TIER = "a fast-tier test started a process: mark it e2e (pytest.mark.e2e)"
_CALL_FAILED = pytest.StashKey[bool]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):
    report = yield
    if report.when == "call":
        item.stash[_CALL_FAILED] = report.failed  # the guard's AssertionError is reported once, not again at teardown
    return report


@pytest.fixture(autouse=True)
def _no_process_in_the_fast_tier(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch):
    """A test not marked e2e may start no process: subprocess (run, Popen), multiprocessing (a Process, the
    worker pool, the fork server), os.fork, os.system, os.posix_spawn all raise AssertionError. One the
    code under test catches and carries on after fails the test at its end all the same."""
    if request.node.get_closest_marker("e2e") is not None:
        yield
        return
    # ctypes finds the C library by running ldconfig -p, once a process (memory._trim is cached): looked up
    # before the guard, as it is no part of what a test does
    from neardup_gui.core.workers import memory

    memory._trim()
    started: list[str] = []

    def refuse(what: str):
        def refused(*args, **kwargs):
            started.append(what)
            raise AssertionError(f"{_FAST_TIER}: {what}")

        return refused

    monkeypatch.setattr(subprocess.Popen, "_execute_child", refuse("subprocess"))
    monkeypatch.setattr(multiprocessing.process.BaseProcess, "start", refuse("multiprocessing.Process.start"))
    monkeypatch.setattr(multiprocessing.util, "spawnv_passfds", refuse("multiprocessing's fork server"))
    for name in ("fork", "forkpty", "system", "posix_spawn", "posix_spawnp"):
        if hasattr(os, name):
            monkeypatch.setattr(os, name, refuse(f"os.{name}"))
    yield
    if started and not request.node.stash.get(_CALL_FAILED, False):
        pytest.fail(f"{_FAST_TIER}: {', '.join(dict.fromkeys(started))}", pytrace=False)
