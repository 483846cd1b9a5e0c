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

import dataclasses
import os
import shutil
import subprocess
from dataclasses import dataclass

from ..i18n import QT_TRANSLATE_NOOP, fill, with_details
from ..models import Extracted, Fingerprint, SentBetweenProcesses, Status
from ..read.regular_files import open_regular_file
from .scheme import Scheme, fingerprint_text, raw_hash

OCR_KINDS = frozenset({"pdf", "image"})
"""The kinds of file OCR reads: PDFs without a text layer, and images."""
DEFAULT_LANGUAGES = "chi_sim+eng"
"""Chinese (simplified) and English at once: Tesseract reads a page mixing both."""
DPI = 300  # a page without a scan on it (text drawn as shapes) is rendered at this resolution
MAX_PIXELS = 40_000_000  # a page rendered larger than this is rendered at a lower resolution (A4 at 300 dpi: 8.7 M)
TESSERACT_MEMORY = 2 << 30  # bytes of address space Tesseract may take on one page (its own process)

_NO_TESSERACT = QT_TRANSLATE_NOOP(
    "Problem",
    "Reading scans needs Tesseract OCR: install the packages {packages} (or run bash resources/setup.sh --ocr).",
)
_NO_LANGUAGE = QT_TRANSLATE_NOOP(
    "Problem", "Tesseract OCR has no language data for {languages}: install the packages {packages}."
)
_FROM_OCR = QT_TRANSLATE_NOOP(
    "Problem", "Text from OCR (Tesseract, {languages}): a scan's text may hold misread characters."
)
_FROM_OCR_PAGES_FAILED = QT_TRANSLATE_NOOP(
    "Problem",
    "Text from OCR (Tesseract, {languages}): a scan's text may hold misread characters. Pages {pages} "
    "could not be read: {reason}",
)
_OCR_FOUND_NOTHING = QT_TRANSLATE_NOOP("Problem", "OCR (Tesseract, {languages}) found no text in it.")
_OCR_FAILED = QT_TRANSLATE_NOOP("Problem", "OCR (Tesseract, {languages}) could not read it: {reason}")
_OCR_FAILED_FOR_NOW = QT_TRANSLATE_NOOP(
    "Problem",
    "OCR (Tesseract, {languages}) could not read it: {reason}. It is read again by a scan with a longer "
    "time limit: Try Again in the app's Problems tab, or neardup scan --timeout.",
)


class OcrFailed(Exception):
    """A page could not be read (in plain words)."""


class OcrTimedOut(OcrFailed):
    """Tesseract ran past its time on a page."""


_UNREADABLE_IMAGE = QT_TRANSLATE_NOOP("Problem", "Tesseract could not read the image (damaged, or not an image)")
_UNRENDERED_PAGE = QT_TRANSLATE_NOOP("Problem", "the page could not be drawn")
_NOT_STARTED = QT_TRANSLATE_NOOP("Problem", "Tesseract could not be started")
_TOOK_TOO_LONG = QT_TRANSLATE_NOOP("Problem", "Tesseract took longer than {seconds} s on it")


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
        return with_details(_NO_TESSERACT.format(packages=" ".join(packages_for(languages))), exc)
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
    timeout: float  # seconds Tesseract may take (less than the pool's limit, so the page is named)


@dataclass(frozen=True, slots=True)
class PageText(SentBetweenProcesses):
    """What OCR read of a page; ``failed`` says why there is nothing (``timed_out``: it may be read with a
    longer limit), or ``changed`` that the file is not the one scanned any more."""

    text: str = ""
    failed: str = ""
    changed: bool = False
    timed_out: bool = False


def read_page(task: PageTask) -> PageText:
    """Worker side: read one page of a scan with Tesseract."""
    try:
        with open_regular_file(task.path) as fh:
            data = fh.read(task.size + 1)
    except OSError as exc:
        return PageText(failed=exc.strerror or str(exc), changed=True)
    if len(data) != task.size or raw_hash(data) != task.expected_hash:
        return PageText(changed=True)
    try:
        if task.kind == "pdf":
            image, dpi = render_page(data, task.page)
            return PageText(run_tesseract(image, task.languages, dpi=dpi, timeout=task.timeout))
        return PageText(run_tesseract(data, task.languages, timeout=task.timeout))
    except OcrTimedOut as exc:
        return PageText(failed=str(exc), timed_out=True)
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
        raise OcrFailed(with_details(_UNRENDERED_PAGE, exc)) from exc
    try:
        sheet = document[page]
        if dpi is None:
            scans = [
                image.get_metadata().horizontal_dpi
                for image in sheet.get_objects(filter=(pdfium_c.FPDF_PAGEOBJ_IMAGE,), max_depth=2)
            ]
            dpi = round(min(400.0, max(150.0, max(scans)))) if scans else DPI
        width, height = sheet.get_size()  # in points, 1/72 inch
        scale = min(dpi / 72, (MAX_PIXELS / max(width * height, 1.0)) ** 0.5)
        dpi = round(scale * 72)
        pixels = sheet.render(scale=scale, grayscale=True).to_numpy()
        sheet.close()
    except (pdfium.PdfiumError, IndexError) as exc:
        raise OcrFailed(with_details(_UNRENDERED_PAGE, exc)) from exc
    finally:
        document.close()
    if pixels.ndim == 3:
        pixels = pixels[:, :, 0]
    header = b"P5\n%d %d\n255\n" % (pixels.shape[1], pixels.shape[0])
    return header + np.ascontiguousarray(pixels, dtype=np.uint8).tobytes(), dpi


def run_tesseract(image: bytes, languages: str, *, dpi: int | None = None, timeout: float = 600.0) -> str:
    """The text Tesseract reads in ``image`` (PGM, PNG, JPEG, TIFF, BMP: extract._image checked it is one),
    one thread (the pool is the parallelism), in a process that dies with the worker (the pool kills a
    worker past its time or memory, or on cancel) and may take TESSERACT_MEMORY at most."""
    program = shutil.which("tesseract")
    if program is None:
        raise OcrFailed(with_details(_NOT_STARTED, "tesseract is not installed"))
    command = [program, "stdin", "stdout", "-l", languages]
    if dpi is not None:
        command += ["--dpi", str(dpi)]
    try:
        done = subprocess.run(
            command,
            input=image,
            capture_output=True,
            timeout=timeout,
            env={**os.environ, "OMP_THREAD_LIMIT": "1"},
            preexec_fn=_bounded_child,
        )
    except subprocess.TimeoutExpired as exc:
        raise OcrTimedOut(_TOOK_TOO_LONG.format(seconds=f"{timeout:.0f}")) from exc
    except OSError as exc:
        raise OcrFailed(with_details(_NOT_STARTED, exc)) from exc
    if done.returncode != 0:
        raise OcrFailed(_UNREADABLE_IMAGE)
    return done.stdout.decode("utf-8", "replace")


def _bounded_child() -> None:
    """In Tesseract's process before it starts: killed when the worker that started it dies (Linux), and
    its memory capped."""
    import resource
    import signal
    import sys

    if sys.platform.startswith("linux"):
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    resource.setrlimit(resource.RLIMIT_AS, (TESSERACT_MEMORY, TESSERACT_MEMORY))


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
    transient: float | None = None  # a page ran out of time (its limit) or crashed its worker (0): read again


def fingerprint_scan(task: ScanText) -> Fingerprint:
    """Worker side: the fingerprint of a scan's OCR text, its encoding saying OCR and the languages."""
    from ..read.pdf import PAGE_SEPARATOR

    languages, encoding = task.languages, tag(task.languages)
    text = PAGE_SEPARATOR.join(task.pages)
    pages = len(task.pages)
    if not text.strip():
        failed_template = _OCR_FAILED if task.transient is None else _OCR_FAILED_FOR_NOW
        message = (
            fill(failed_template, languages=languages, reason=task.failed[0][1])
            if task.failed
            else _OCR_FOUND_NOTHING.format(languages=languages)
        )
        status = Status.ERROR if task.failed and len(task.failed) == pages else Status.EMPTY
        return Fingerprint(task.expected_hash, task.kind, status, message, encoding, pages, transient=task.transient)
    if task.failed:
        numbers = ", ".join(str(n) for n, _ in task.failed[:10]) + (" …" if len(task.failed) > 10 else "")
        message = fill(_FROM_OCR_PAGES_FAILED, languages=languages, pages=numbers, reason=task.failed[0][1])
    else:
        message = _FROM_OCR.format(languages=languages)
    extracted = Extracted(Status.OK, text=text, message=message, encoding=encoding, pages=pages)
    found = fingerprint_text(task.expected_hash, task.kind, extracted, task.scheme)
    return dataclasses.replace(found, transient=task.transient) if task.transient is not None else found


def awaits_ocr(fingerprint: Fingerprint, languages: str) -> bool:
    """Whether a content is a scan OCR in ``languages`` has not read yet: a PDF with pages or an image
    (extract says so: ``pages`` >= 1) without text, whose text did not come from that OCR."""
    return (
        fingerprint.kind in OCR_KINDS
        and fingerprint.status is Status.EMPTY
        and fingerprint.pages > 0
        and fingerprint.encoding != tag(languages)
    )
