"""A text file's bytes to text, by detection, never by blind UTF-8-with-replacement: byte-order marks, then
UTF-16 without a mark, then strict UTF-8, then charset-normalizer over a fixed list of encodings (GB18030,
Big5, cp1252... which strict decoding cannot tell apart); damaged bytes replaced and counted. Used for text
files (extract.py) and for web pages that declare no encoding (extract_web.py)."""

from __future__ import annotations

import codecs
import re
import threading

from ..i18n import QT_TRANSLATE_NOOP
from ..models import Extracted, Status

# What our users' legacy files are in. Each extra candidate (Shift-JIS, EUC-KR...) measurably steals
# short Chinese texts from GB18030, so the list stays closed.
_DETECTABLE = ["gb18030", "big5", "cp1252", "cp1251"]
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1a\x1c-\x1f]")  # control characters text never has


_WHITE_SPACE = QT_TRANSLATE_NOOP("Problem", "The file holds only white space.")
_BINARY = QT_TRANSLATE_NOOP("Problem", "This looks like a binary file, not text, although its name says text.")
_DAMAGED_BYTE = QT_TRANSLATE_NOOP(
    "Problem",
    "Read as {encoding}: 1 damaged byte (a zero byte, or a byte not valid in that encoding) could not be "
    "read and was replaced with �; the rest of the text is compared as usual.",
)
_DAMAGED_BYTES = QT_TRANSLATE_NOOP(
    "Problem",
    "Read as {encoding}: {count} damaged bytes (zero bytes, or bytes not valid in that encoding) could "
    "not be read and were replaced with �; the rest of the text is compared as usual.",
)
_EMPTY = QT_TRANSLATE_NOOP("Problem", "The file is empty.")


def extract_text(data: bytes) -> Extracted:
    """Decode a text file. Binary content is ``unsupported``; an empty file is ``empty``."""
    if not data.strip():
        return Extracted(Status.EMPTY, message=_EMPTY if not data else _WHITE_SPACE)
    binary = Extracted(Status.UNSUPPORTED, message=_BINARY)
    encoding = detect_encoding(data)
    damaged = 0
    if encoding is not None:
        text = data.decode(encoding)
    else:
        repaired = _decode_damaged(data)
        if repaired is None:
            return binary
        text, encoding, damaged = repaired
    if text.startswith("\ufeff"):
        text = text[1:]
    if _looks_binary(text):
        return binary
    if not text.strip():
        return Extracted(Status.EMPTY, message=_WHITE_SPACE, encoding=encoding)
    if damaged:
        message = (
            _DAMAGED_BYTE.format(encoding=encoding)
            if damaged == 1
            else _DAMAGED_BYTES.format(encoding=encoding, count=damaged)
        )
        return Extracted(Status.OK, text=text, encoding=encoding, message=message)
    return Extracted(Status.OK, text=text, encoding=encoding)


# Text with up to this share of damaged bytes (zero bytes, bytes invalid in its encoding) is read with
# them replaced; above it the file is taken for binary. One stray byte must not lose a whole document.
DAMAGED_SHARE = 0.01
# CJK encodings tried on text that no encoding reads cleanly; single-byte ones read every byte, so they
# are left to the detector once the damaged bytes are out of the way.
_REPAIRABLE = ("utf-8", "gb18030", "big5")


class _TooDamaged(Exception):
    """More damaged bytes than the limit: stop decoding."""


_spans_found = threading.local()


def _record_damage(exc: UnicodeError) -> tuple[str, int]:
    """Codec error handler: note where the bytes are not the encoding, and go on after them."""
    assert isinstance(exc, UnicodeDecodeError)
    found = _spans_found.spans
    found.append((exc.start, exc.end))
    _spans_found.bad += exc.end - exc.start
    if _spans_found.bad > _spans_found.limit:
        raise _TooDamaged()
    return "", exc.end


codecs.register_error("neardup-record-damage", _record_damage)


def _bad_spans(data: bytes, encoding: str, limit: int) -> list[tuple[int, int]] | None:
    """Where ``data`` is not ``encoding`` (start, end), or None when there are more than ``limit``
    damaged bytes: one decoding pass whose error handler notes each damaged run."""
    _spans_found.spans, _spans_found.bad, _spans_found.limit = [], 0, limit
    try:
        data.decode(encoding, errors="neardup-record-damage")
    except _TooDamaged:
        return None
    return _spans_found.spans


def _decode_damaged(data: bytes) -> tuple[str, str, int] | None:
    """Text with a few damaged bytes: (text with each replaced by U+FFFD, encoding, how many bytes),
    or None when the damage is more than DAMAGED_SHARE of the bytes (binary). The encoding is decided
    by the detector on the bytes without the damage, and the share is checked again in it."""
    limit = int(len(data) * DAMAGED_SHARE)
    zeros = data.count(0)
    if zeros > limit:
        return None
    clean = data.replace(b"\x00", b"")
    for candidate in _REPAIRABLE:
        spans = _bad_spans(clean, candidate, limit - zeros)
        if spans is None:
            continue
        ends, starts = [0, *(end for _, end in spans)], [*(start for start, _ in spans), len(clean)]
        undamaged = b"".join(clean[a:b] for a, b in zip(ends, starts, strict=True))
        encoding = detect_encoding(undamaged) or candidate
        if encoding != candidate:
            spans = _bad_spans(clean, encoding, limit - zeros)
            if spans is None:
                continue
        text = data.decode(encoding, errors="replace").replace("\x00", "\ufffd")
        return text, encoding, zeros + sum(end - start for start, end in spans)
    return None


def detect_encoding(data: bytes) -> str | None:
    """The encoding that decodes ``data`` as text, or None when it is not text in any we know."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                data.decode(encoding)
                return "utf-8-sig" if encoding == "utf-8" else encoding
            except UnicodeDecodeError:
                break
    utf16 = _utf16_with_zero_bytes(data)
    if utf16:
        return utf16
    if b"\x00" not in data:
        try:
            data.decode("utf-8")  # long CJK UTF-16 is practically never valid UTF-8
            return "utf-8"
        except UnicodeDecodeError:
            pass
    utf16 = _cjk_utf16_without_bom(data)
    if utf16:
        return utf16
    if b"\x00" in data:
        return None
    from charset_normalizer import from_bytes

    # Strict first; texts mixing scripts (Markdown, code, CJK) can look "chaotic" to it, so a
    # second pass accepts more noise before giving up on the file as binary.
    for chaos in (0.2, 1.0):
        best = from_bytes(data, cp_isolation=_DETECTABLE, threshold=chaos).best()
        if best is not None:
            return codecs.lookup(best.encoding).name
    return None


def _utf16_with_zero_bytes(data: bytes) -> str | None:
    """UTF-16 without a byte-order mark whose text is mostly Latin: a zero in every other byte."""
    usable = len(data) - len(data) % 2
    sample = data[: min(usable, 4096)]
    if len(sample) < 4:
        return None
    half = len(sample) // 2
    even_zero = sample[0::2].count(0) / half
    odd_zero = sample[1::2].count(0) / half
    for encoding, share_zero, other_zero in (("utf-16-le", odd_zero, even_zero), ("utf-16-be", even_zero, odd_zero)):
        if share_zero > 0.4 and other_zero < 0.05:
            return encoding if _decodes(data, encoding) else None
    return None


def _cjk_utf16_without_bom(data: bytes) -> str | None:
    """UTF-16 without a byte-order mark holding CJK text: it has no zero bytes, but decoded as UTF-16
    it is nearly all Han, CJK punctuation and ASCII, while GB18030 or Big5 bytes read as UTF-16
    scatter over Hangul and private-use code points. Texts under 16 characters are left to the other
    detectors."""
    sample = data[: min(len(data) - len(data) % 2, 4096)]
    if len(data) % 2 or len(sample) < 32:
        return None
    for encoding in ("utf-16-le", "utf-16-be"):
        try:
            decoded = sample.decode(encoding)
        except UnicodeDecodeError:
            continue
        implausible = len(_CJK_IMPLAUSIBLE.findall(decoded))
        if implausible <= 0.1 * len(decoded) and _decodes(data, encoding):
            return encoding
    return None


_CJK_IMPLAUSIBLE = re.compile(r"[^\u4e00-\u9fff\u3000-\u303f\uff00-\uffef\u0020-\u007e\s]")


def _decodes(data: bytes, encoding: str) -> bool:
    try:
        data.decode(encoding)
        return True
    except UnicodeDecodeError:
        return False


def _looks_binary(text: str) -> bool:
    sample = text[:8192]
    return len(_CONTROL.findall(sample)) > max(2, len(sample) // 100)
