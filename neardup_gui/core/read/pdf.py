"""A PDF's text: PDFium first (pypdfium2, about ten times pypdf's pages per second), pypdf where PDFium
gives no text or cannot open the file.

PDFium reads every page's text layer in C; it also opens what pypdf calls "password-protected" when only
the attachments are encrypted (the pages' streams and strings use the Identity filter: no password is
needed to read them). pypdf stays as the second reader: it is lenient with damaged files PDFium refuses,
and it says why an encrypted file cannot be opened (a user password, or a missing 'cryptography').
Whichever reader gives more of the document wins; a PDF never loses text that either reader finds.
"""

from __future__ import annotations

import functools
import io
import logging
import re
import warnings

from ..errors import read_failure
from ..i18n import QT_TRANSLATE_NOOP
from ..models import Extracted, Status

PAGE_SEPARATOR = "\n\f\n"
"""Between a PDF's pages: a form feed on a line of its own. White space to fingerprints and to "the same
text"; the pair view finds pages by it (running headers and footers are not differences)."""

_NEEDS_CRYPTOGRAPHY = QT_TRANSLATE_NOOP("Problem", "Encrypted PDF; opening it needs the 'cryptography' package.")
_ENCRYPTION_FAILED = QT_TRANSLATE_NOOP(
    "Problem",
    "Encrypted PDF that could not be opened: remove the password (or export an unprotected copy) to compare it.",
)
_PASSWORD = QT_TRANSLATE_NOOP(
    "Problem", "Password-protected PDF: remove the password (or export an unprotected copy) to compare it."
)
_PAGES_LOCKED = QT_TRANSLATE_NOOP("Problem", "Password-protected PDF: its pages cannot be read without the password.")
_DAMAGED_PDF = QT_TRANSLATE_NOOP(
    "Problem",
    "Damaged PDF: its structure could not be read. Open it in its program and save it again (or print it to a "
    "new PDF) to compare it.",
)
_NOT_PDF = QT_TRANSLATE_NOOP("Problem", "This is not a PDF, although its name says so.")
_PAGES_FAILED = QT_TRANSLATE_NOOP("Problem", "Pages {pages} could not be read.")
_NO_PAGE_READ = QT_TRANSLATE_NOOP("Problem", "No page of this PDF could be read. Pages {pages} could not be read.")
_NO_TEXT_LAYER = QT_TRANSLATE_NOOP(
    "Problem", "This PDF has no text layer; it is probably a scan or images (OCR it to compare it)."
)
_NO_TEXT_LAYER_PAGES_FAILED = QT_TRANSLATE_NOOP(
    "Problem",
    "This PDF has no text layer; it is probably a scan or images (OCR it to compare it). "
    "Pages {pages} could not be read.",
)

# What PDFium's text holds besides the text: U+FFFE where it removed a hyphen that broke a word at a line's
# end (the word is joined again), U+0002 likewise in older PDFium, and control characters standing for
# glyphs without Unicode (math fonts) or a stray form feed (which would look like a page break to us).
_PDFIUM_HYPHEN = re.compile("[\ufffe\x02]")
_PDFIUM_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")
_RIGHT_TO_LEFT = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]")  # Hebrew, Arabic and their forms


def extract_pdf(data: bytes) -> Extracted:
    """Text of every page of a PDF (pages joined by PAGE_SEPARATOR). Encrypted: opened with the empty
    password. No text layer: ``empty``. PDFium reads first; pypdf only when PDFium's answer is not a full
    text (no text, pages failed, or the file refused), and the fuller of the two answers is kept. Arabic
    and Hebrew are pypdf's when it reads them: PDFium gives right-to-left words in visual order, reversed."""
    first = _by_pdfium(data)
    right_to_left = first is not None and _mostly_right_to_left(first.text)
    if first is not None and first.status is Status.OK and not first.message and not right_to_left:
        return first
    second = _by_pypdf(data)
    if first is None:
        return second
    if right_to_left and _fullness(second)[:2] >= _fullness(first)[:2]:
        return second  # as much of the document, in reading order
    return first if _fullness(first) >= _fullness(second) else second


def _mostly_right_to_left(text: str) -> bool:
    """Whether a tenth or more of a text's letters are Hebrew or Arabic (a name or a quotation is not)."""
    letters = sum(1 for ch in text if ch.isalpha())
    return letters > 0 and len(_RIGHT_TO_LEFT.findall(text)) >= 0.1 * letters


def _fullness(found: Extracted) -> tuple[int, int, int]:
    """How much of a document an answer holds: text beats none; then no failed pages; then more text. Two
    answers without text tie, and PDFium's stands: it opened the file (so "no text layer" is true, where
    pypdf may call a file whose attachments alone are encrypted password-protected)."""
    has_text = found.status is Status.OK
    return has_text, not found.message, len(found.text) if has_text else 0


def _by_pdfium(data: bytes) -> Extracted | None:
    """PDFium's text of every page, or None when PDFium cannot open the file (damaged, a user password:
    pypdf says which)."""
    import pypdfium2 as pdfium

    try:
        document = pdfium.PdfDocument(data)
    except pdfium.PdfiumError:
        return None
    try:
        page_count = len(document)
        texts: list[str] = []
        failed: list[int] = []
        for number in range(page_count):
            try:
                page = document[number]
                try:
                    text_page = page.get_textpage()
                    try:
                        texts.append(_clean_pdfium_text(text_page.get_text_range()))
                    finally:
                        text_page.close()
                finally:
                    page.close()
            except (pdfium.PdfiumError, AssertionError):  # pypdfium2 asserts on odd character counts
                failed.append(number + 1)
    finally:
        document.close()
    return _outcome(texts, failed, page_count)


def _clean_pdfium_text(text: str) -> str:
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return _PDFIUM_CONTROL.sub(" ", _PDFIUM_HYPHEN.sub("", text))


def _by_pypdf(data: bytes) -> Extracted:
    """pypdf's text of every page; the reason when there is none."""
    quiet_pypdf()
    from pypdf import PdfReader
    from pypdf.errors import DependencyError, FileNotDecryptedError, PyPdfError

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            reader = PdfReader(io.BytesIO(data), strict=False)
            if reader.is_encrypted:
                try:
                    opened = reader.decrypt("")
                except DependencyError:
                    return Extracted(Status.ENCRYPTED, message=_NEEDS_CRYPTOGRAPHY)
                except MemoryError:
                    raise  # the reader's memory cap, not a property of the file: the pool says so
                except Exception as exc:  # pypdf raises many kinds on odd encryption dictionaries
                    return Extracted(Status.ENCRYPTED, message=read_failure(exc, _ENCRYPTION_FAILED))
                if not opened:
                    return Extracted(Status.ENCRYPTED, message=_PASSWORD)
            pages = reader.pages
            page_count = len(pages)
            texts: list[str] = []
            failed: list[int] = []
            for number, page in enumerate(pages, start=1):
                try:
                    texts.append(page.extract_text() or "")
                except FileNotDecryptedError:
                    return Extracted(Status.ENCRYPTED, message=_PAGES_LOCKED)
                except MemoryError:
                    raise
                except Exception:
                    failed.append(number)
        except FileNotDecryptedError:
            return Extracted(Status.ENCRYPTED, message=_PAGES_LOCKED)
        except (PyPdfError, *_PYPDF_FAILURES) as exc:
            if b"%PDF" not in data[:1024]:  # where PDF readers look for the header
                return Extracted(Status.UNSUPPORTED, message=_NOT_PDF)
            return Extracted(Status.ERROR, message=read_failure(exc, _DAMAGED_PDF))
    return _outcome(texts, failed, page_count)


# What pypdf raises on a damaged file besides its own errors (an unknown filter's name garbled, a loop...)
_PYPDF_FAILURES = (
    ValueError,
    KeyError,
    TypeError,
    IndexError,
    AttributeError,
    OSError,
    NotImplementedError,
    AssertionError,
    RecursionError,
)


def _outcome(texts: list[str], failed: list[int], page_count: int) -> Extracted:
    text = PAGE_SEPARATOR.join(texts)
    pages_failed = _ranges(failed)
    if not text.strip():
        if failed and len(failed) == page_count:
            return Extracted(Status.ERROR, message=_NO_PAGE_READ.format(pages=pages_failed), pages=page_count)
        message = _NO_TEXT_LAYER_PAGES_FAILED.format(pages=pages_failed) if failed else _NO_TEXT_LAYER
        return Extracted(Status.EMPTY, message=message, pages=page_count)
    message = _PAGES_FAILED.format(pages=pages_failed) if failed else ""
    return Extracted(Status.OK, text=text, message=message, pages=page_count)


def _ranges(numbers: list[int]) -> str:
    return ", ".join(str(n) for n in numbers[:10]) + (" …" if len(numbers) > 10 else "")


_pypdf_quieted = False


def quiet_pypdf() -> None:
    """pypdf logs every oddity of a real-world PDF; none of it is the user's business on a terminal."""
    global _pypdf_quieted
    if not _pypdf_quieted:
        logger = logging.getLogger("pypdf")
        logger.setLevel(logging.CRITICAL)
        logger.propagate = False
        logger.addHandler(logging.NullHandler())
        _pypdf_quieted = True


@functools.cache
def reader_versions() -> str:
    """The versions of the libraries that read documents (PDFium and its binding, pypdf, striprtf): a
    document's text, so its fingerprints, may change with any of them (the stdlib readers change with
    neardup's SCHEME_VERSION). pypdf's version comes from its metadata: importing it takes 0.06 s, a
    twentieth of an unchanged rescan."""
    from importlib.metadata import version

    import pypdfium2

    return (
        f"pypdf {version('pypdf')}; pypdfium2 {version('pypdfium2')}; pdfium {pypdfium2.PDFIUM_INFO.build}; "
        f"striprtf {version('striprtf')}"
    )
