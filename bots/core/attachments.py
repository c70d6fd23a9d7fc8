"""Reading the files people attach to a question, the same way for every platform.

An adapter describes each file (:class:`Offered`) and says how to download it; this
module decides what is read, reads it, and turns everything it could not read into a
one-line reason the asker sees. Nothing is ever dropped in silence.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath

from bots.settings.sections import AttachmentSettings
from pipeline.errors import one_line
from pipeline.question import Attachment

log = logging.getLogger("citebot.attachments")

#: file name suffix → how it is read
KINDS = {
    ".txt": "text",
    ".text": "text",
    ".md": "text",
    ".markdown": "text",
    ".log": "text",
    ".csv": "text",
    ".tsv": "text",
    ".json": "text",
    ".jsonl": "text",
    ".yaml": "text",
    ".yml": "text",
    ".pdf": "pdf",
}
#: content types read as text when the name has no known suffix
TEXT_TYPES = ("text/plain", "text/markdown", "text/csv", "application/json")
READABLE = "text, Markdown, log, CSV, JSON, YAML and PDF files"

Download = Callable[[], Awaitable[bytes]]


class Unreadable(Exception):
    """A file that was downloaded but holds no text citebot can use; the message says why."""


@dataclass(frozen=True, slots=True)
class Offered:
    """A file as the platform describes it, before anything is downloaded.

    ``url`` is where the asker's colleagues can open it (a permalink), taken from the
    platform's metadata: it is what the footnote will point at.
    """

    name: str
    url: str
    size: int
    content_type: str | None
    download: Download


def kind_of(name: str, content_type: str | None) -> str | None:
    """ "text", "pdf", or None for a file citebot does not read."""
    suffix = PurePosixPath(name.lower()).suffix
    if suffix in KINDS:
        return KINDS[suffix]
    mime = (content_type or "").split(";")[0].strip().lower()
    if mime == "application/pdf":
        return "pdf"
    return "text" if mime in TEXT_TYPES else None


def _size(n: int) -> str:
    for unit, scale in (("MB", 1_000_000), ("kB", 1_000)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n} bytes"


def decode_text(data: bytes) -> str:
    """UTF-8 text (a BOM dropped); binary data is refused rather than shown as noise."""
    if b"\x00" in data[:8192]:
        raise Unreadable("it does not look like text")
    return data.decode("utf-8-sig", errors="replace")


def pdf_text(data: bytes) -> str:
    """The text of each page, pages separated by form feeds (the pipeline cites pages)."""
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            raise Unreadable("it is encrypted")
        pages = [page.extract_text() or "" for page in reader.pages]
    except (PdfReadError, ValueError, KeyError, TypeError) as exc:
        raise Unreadable(f"it could not be read as a PDF ({one_line(exc)})") from exc
    if not any(p.strip() for p in pages):
        raise Unreadable("it has no text layer (a scan?)")
    return "\f".join(pages)


async def read_one(offered: Offered, settings: AttachmentSettings) -> Attachment:
    name = offered.name

    def skipped(why: str) -> Attachment:
        return Attachment(name, offered.url, skipped=f"The attachment {name} was not read: {why}.")

    kind = kind_of(name, offered.content_type)
    if kind is None:
        return skipped(f"only {READABLE} are read")
    if offered.size > settings.max_bytes:
        return skipped(f"it is {_size(offered.size)}, over the {_size(settings.max_bytes)} limit")
    try:
        data = await offered.download()
        if len(data) > settings.max_bytes:
            raise Unreadable(f"it is over the {_size(settings.max_bytes)} limit")
        text = decode_text(data) if kind == "text" else await asyncio.to_thread(pdf_text, data)
    except Unreadable as exc:
        return skipped(str(exc))
    except Exception as exc:
        log.warning("could not download the attachment %s: %s", name, one_line(exc, named=True))
        return skipped("it could not be downloaded")
    if len(text) > settings.max_chars:
        log.info("attachment %s cut to %d characters", name, settings.max_chars)
        text = text[: settings.max_chars]
    return Attachment(name, offered.url, text=text)


async def read_attachments(
    offered: Sequence[Offered], settings: AttachmentSettings
) -> tuple[Attachment, ...]:
    """Every offered file, read or with the reason it was not; at most ``max_files`` read."""
    if not offered:
        return ()
    if not settings.read:
        return tuple(
            Attachment(
                o.name,
                o.url,
                skipped=f"The attachment {o.name} was not read: attachments are not read here.",
            )
            for o in offered
        )
    first, rest = offered[: settings.max_files], offered[settings.max_files :]
    read = await asyncio.gather(*(read_one(o, settings) for o in first))
    extra = tuple(
        Attachment(
            o.name,
            o.url,
            skipped=f"The attachment {o.name} was not read: only the first "
            f"{settings.max_files} attachments of a question are.",
        )
        for o in rest
    )
    return (*read, *extra)
