"""Text of scans, read by OCR: the pages of a PDF without a text layer, and images.

Tesseract does the reading: the distribution's ``tesseract`` program (Apache-2.0) with its language data
(``tesseract-ocr-chi-sim``, ``tesseract-ocr-eng``), run once a page, one thread each, in the scan's worker
pool (a page is a task, so a long scan spreads over every core and the progress counts pages). A PDF
page is rendered by PDFium in grey at the resolution of the scan it holds (at most MAX_PIXELS, so a
poster-sized page cannot take gigabytes) and handed to Tesseract as a PGM image on its standard input;
an image file goes as it is.
OCR is slow (seconds a page) and never on unless asked: ``ScanOptions.ocr`` names the languages.
What it read is kept in the database page by page (``ocr_pages``), so a cancelled or killed scan goes on
from the next page, and the pair view and reports read the text from there.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass

from .fingerprint import Scheme, fingerprint_text, raw_hash
from .i18n import QT_TRANSLATE_NOOP
from .models import Extracted, Fingerprint, SentBetweenProcesses, Status

OCR_KINDS = frozenset({"pdf", "image"})
"""The kinds of file OCR reads: PDFs without a text layer, and images."""
DEFAULT_LANGUAGES = "chi_sim+eng"
"""Chinese (simplified) and English at once: Tesseract reads a page mixing both."""
DPI = 300  # a page without a scan on it (text drawn as shapes) is rendered at this resolution
MAX_PIXELS = 40_000_000  # a page rendered larger than this is rendered at a lower resolution (A4 at 300 dpi: 8.7 M)
PAGE_TIMEOUT = 600.0  # seconds Tesseract may take on one page before it is stopped

_NO_TESSERACT = QT_TRANSLATE_NOOP(
    "Problem", "Reading scans needs Tesseract OCR: install the packages {packages} (or run "
               "bash resources/setup.sh --ocr).")
_NO_LANGUAGE = QT_TRANSLATE_NOOP(
    "Problem", "Tesseract OCR has no language data for {languages}: install the packages {packages}.")
_FROM_OCR = QT_TRANSLATE_NOOP(
    "Problem", "Text from OCR (Tesseract, {languages}): a scan's text may hold misread characters.")
_FROM_OCR_PAGES_FAILED = QT_TRANSLATE_NOOP(
    "Problem", "Text from OCR (Tesseract, {languages}): a scan's text may hold misread characters. Pages {pages} "
               "could not be read: {reason}")
_OCR_FOUND_NOTHING = QT_TRANSLATE_NOOP("Problem", "OCR (Tesseract, {languages}) found no text in it.")
_OCR_FAILED = QT_TRANSLATE_NOOP("Problem", "OCR (Tesseract, {languages}) could not read it: {reason}")


class OcrFailed(Exception):
    """Tesseract could not read a page (its own words)."""


def packages_for(languages: str) -> list[str]:
    """The Debian/Ubuntu packages that give Tesseract these languages ("chi_sim+eng")."""
    return ["tesseract-ocr", *(f"tesseract-ocr-{code.replace('_', '-').lower()}" for code in languages.split("+"))]


def tag(languages: str) -> str:
    """What a content's ``encoding`` says of text read by OCR in ``languages``."""
    return f"ocr {languages}"


def unavailable(languages: str) -> str | None:
    """Why OCR in ``languages`` cannot run on this machine (a plain message naming the packages to
    install; stored in English, translated where shown), or None when it can."""
    program = shutil.which("tesseract")
    if program is None:
        return _NO_TESSERACT.format(packages=" ".join(packages_for(languages)))
    try:
        listed = subprocess.run([program, "--list-langs"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError) as exc:
        return _NO_TESSERACT.format(packages=" ".join(packages_for(languages))) + f" ({exc})"
    have = {line.strip() for line in (listed.stdout + listed.stderr).splitlines()[1:]}
    lacking = [code for code in languages.split("+") if code not in have]
    if lacking:
        return _NO_LANGUAGE.format(languages="+".join(lacking), packages=" ".join(packages_for("+".join(lacking))[1:]))
    return None


@dataclass(frozen=True, slots=True)
class PageTask(SentBetweenProcesses):
    """One page to read: the file, the bytes the scan saw, the page (0 for an image) and the languages."""

    path: str
    kind: str
    expected_hash: bytes
    size: int
    page: int
    languages: str


@dataclass(frozen=True, slots=True)
class PageText(SentBetweenProcesses):
    """What OCR read of a page; ``failed`` says why there is nothing (Tesseract's words), or ``changed``
    that the file is not the one scanned any more."""

    text: str = ""
    failed: str = ""
    changed: bool = False


def read_page(task: PageTask) -> PageText:
    """Worker side: read one page of a scan with Tesseract."""
    try:
        with open(task.path, "rb") as fh:
            data = fh.read(task.size + 1)
    except OSError as exc:
        return PageText(failed=exc.strerror or str(exc), changed=True)
    if len(data) != task.size or raw_hash(data) != task.expected_hash:
        return PageText(changed=True)
    try:
        if task.kind == "pdf":
            image, dpi = render_page(data, task.page)
            return PageText(run_tesseract(image, task.languages, dpi=dpi))
        return PageText(run_tesseract(data, task.languages))
    except OcrFailed as exc:
        return PageText(failed=str(exc))


def render_page(data: bytes, page: int, dpi: int | None = None) -> tuple[bytes, int]:
    """Page ``page`` of a PDF as a grey PGM image, and its resolution: ``dpi``, else that of the scan on
    the page (a scan's own pixels; resampling them to another resolution blurs its grain into the letters:
    a 200 dpi scan read at 300 dpi had 7 times the misread characters), within 150-400, else DPI; lower
    for a page larger than MAX_PIXELS."""
    import numpy as np
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    try:
        document = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        raise OcrFailed(str(exc)) from exc
    try:
        sheet = document[page]
        if dpi is None:
            scans = [image.get_metadata().horizontal_dpi
                     for image in sheet.get_objects(filter=(pdfium_c.FPDF_PAGEOBJ_IMAGE,), max_depth=2)]
            dpi = round(min(400.0, max(150.0, max(scans)))) if scans else DPI
        width, height = sheet.get_size()  # in points, 1/72 inch
        scale = min(dpi / 72, (MAX_PIXELS / max(width * height, 1.0)) ** 0.5)
        dpi = round(scale * 72)
        pixels = sheet.render(scale=scale, grayscale=True).to_numpy()
        sheet.close()
    except pdfium.PdfiumError as exc:
        raise OcrFailed(str(exc)) from exc
    finally:
        document.close()
    if pixels.ndim == 3:
        pixels = pixels[:, :, 0]
    header = b"P5\n%d %d\n255\n" % (pixels.shape[1], pixels.shape[0])
    return header + np.ascontiguousarray(pixels, dtype=np.uint8).tobytes(), dpi


def run_tesseract(image: bytes, languages: str, *, dpi: int | None = None) -> str:
    """The text Tesseract reads in ``image`` (any format Leptonica reads: PGM, PNG, JPEG, TIFF, BMP),
    one thread (the pool is the parallelism)."""
    program = shutil.which("tesseract")
    if program is None:
        raise OcrFailed("tesseract is not installed")
    command = [program, "stdin", "stdout", "-l", languages]
    if dpi is not None:
        command += ["--dpi", str(dpi)]
    try:
        done = subprocess.run(command, input=image, capture_output=True, timeout=PAGE_TIMEOUT,
                              env={**os.environ, "OMP_THREAD_LIMIT": "1"})
    except subprocess.TimeoutExpired as exc:
        raise OcrFailed(f"Tesseract took longer than {PAGE_TIMEOUT:.0f} s") from exc
    except OSError as exc:
        raise OcrFailed(str(exc)) from exc
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise OcrFailed(said[-1] if said else f"exit code {done.returncode}")
    return done.stdout.decode("utf-8", "replace")


@dataclass(frozen=True, slots=True)
class ScanText(SentBetweenProcesses):
    """A scan's pages as OCR read them, to be fingerprinted: ``failed`` holds (page number, reason) of the
    pages it could not read."""

    expected_hash: bytes
    kind: str
    pages: tuple[str, ...]
    failed: tuple[tuple[int, str], ...]
    languages: str
    scheme: Scheme


def fingerprint_scan(task: ScanText) -> Fingerprint:
    """Worker side: the fingerprint of a scan's OCR text, its encoding saying OCR and the languages."""
    from .extract_pdf import PAGE_SEPARATOR

    languages, encoding = task.languages, tag(task.languages)
    text = PAGE_SEPARATOR.join(task.pages)
    pages = len(task.pages)
    if not text.strip():
        message = (_OCR_FAILED.format(languages=languages, reason=task.failed[0][1]) if task.failed
                   else _OCR_FOUND_NOTHING.format(languages=languages))
        status = Status.ERROR if task.failed and len(task.failed) == pages else Status.EMPTY
        return Fingerprint(task.expected_hash, task.kind, status, message, encoding, pages)
    if task.failed:
        numbers = ", ".join(str(n) for n, _ in task.failed[:10]) + (" …" if len(task.failed) > 10 else "")
        message = _FROM_OCR_PAGES_FAILED.format(languages=languages, pages=numbers, reason=task.failed[0][1])
    else:
        message = _FROM_OCR.format(languages=languages)
    extracted = Extracted(Status.OK, text=text, message=message, encoding=encoding, pages=pages)
    return fingerprint_text(task.expected_hash, task.kind, extracted, task.scheme)


def awaits_ocr(fingerprint: Fingerprint, languages: str) -> bool:
    """Whether a content is a scan OCR in ``languages`` has not read yet: a PDF or image without text
    whose text did not come from that OCR."""
    return (fingerprint.kind in OCR_KINDS and fingerprint.status is Status.EMPTY
            and fingerprint.encoding != tag(languages))
