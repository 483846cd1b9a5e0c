"""A saved e-mail (.eml, RFC 5322 with MIME) as the person reads it: its subject, then its text body (the
plain part; else the HTML part as a browser shows it), each part decoded by its own charset. Attachments are
named in the message, not read."""

from __future__ import annotations

import codecs
import email
import email.policy
from email.message import EmailMessage

from ..i18n import QT_TRANSLATE_NOOP, said
from ..models import Extracted, Status
from .decode import extract_text
from .web import visible_text

_PARTS = 1_000  # parts looked at: a message of more is not a letter but a crafted one
_NOT_MAIL = QT_TRANSLATE_NOOP(
    "Problem", "This is not an e-mail message (it has no headers), although its name says so."
)
_NO_BODY = QT_TRANSLATE_NOOP("Problem", "An e-mail with no text: no subject, and no text or HTML part.")
_ATTACHED = QT_TRANSLATE_NOOP("Problem", "Attachments not compared: {names}.")
# a Chinese mail declares GB2312 and writes GBK's characters: read by the encoding that holds them all
_WIDER = {"gb2312": "gb18030", "gbk": "gb18030", "x-gbk": "gb18030", "big5": "big5hkscs"}


def extract_email(data: bytes) -> Extracted:
    message = email.message_from_bytes(data, policy=email.policy.default)
    if not message.keys():
        return Extracted(Status.UNSUPPORTED, message=_NOT_MAIL)
    plain: list[str] = []
    html: list[str] = []
    attached: list[str] = []
    for n, part in enumerate(message.walk()):
        if n >= _PARTS:
            break
        if part.is_multipart():
            continue
        if part.is_attachment():
            attached.append(part.get_filename() or part.get_content_type())
            continue
        kind = part.get_content_type()
        if kind == "text/plain":
            plain.append(_decoded(part))
        elif kind == "text/html":
            html.append(visible_text(_decoded(part)))
    subject = str(message.get("subject", "") or "").strip()
    body = "\n\n".join(t for t in (plain or html) if t.strip())  # the plain text, or what the HTML shows
    text = "\n\n".join(t for t in (subject, body) if t)
    # names as a mail program wrote them: any characters, any number (said: one line, kept short)
    names = said(", ".join(attached))
    attachments = _ATTACHED.format(names=names) if attached else ""
    if not text.strip():
        return Extracted(Status.EMPTY, message=_NO_BODY)
    return Extracted(Status.OK, text=text, message=attachments)


def _decoded(part: EmailMessage) -> str:
    """A text part's words: its transfer encoding undone, then its declared charset (widened where mail
    programs write more than they declare); a charset Python does not know, none, or one the bytes are not
    in, is detected as a text file's is (decode.py)."""
    payload = part.get_payload(decode=True)
    data = payload if isinstance(payload, bytes) else b""
    charset = (part.get_content_charset() or "").lower()
    charset = _WIDER.get(charset, charset)
    if charset:
        try:
            codecs.lookup(charset)
        except (LookupError, ValueError):  # unknown, or not a name at all (a damaged header's NUL)
            charset = ""
    if charset:
        try:
            return data.decode(charset)
        except UnicodeDecodeError:  # not what it says it is: found out as a text file's would be
            pass
    found = extract_text(data)
    return found.text if found.status is Status.OK else ""
