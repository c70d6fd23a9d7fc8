"""PDF: one section per page, linked with ``#page=N`` (what PDF viewers in browsers follow)."""

from __future__ import annotations

import io
import logging

from connectors.knowledge.documents import Section

__all__ = ["UnreadablePDF", "parse_pdf"]


class UnreadablePDF(ValueError):
    pass


def parse_pdf(data: bytes, fallback_title: str) -> tuple[str, tuple[Section, ...]]:
    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    # pypdf logs every recoverable oddity of a damaged file; the skip message says enough.
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            raise UnreadablePDF("the PDF is encrypted")
        meta_title = ""
        try:
            meta = reader.metadata
            meta_title = str(meta.title).strip() if meta and meta.title else ""
        except PyPdfError:
            pass
        pages = [page.extract_text() or "" for page in reader.pages]
    except UnreadablePDF:
        raise
    except (PyPdfError, ValueError, KeyError, TypeError, AttributeError, OSError) as exc:
        raise UnreadablePDF(f"not a readable PDF ({type(exc).__name__}: {exc})") from None
    sections: list[Section] = []
    pos = 0
    for number, raw in enumerate(pages, start=1):
        text = raw.strip()
        if not text:
            continue
        if sections:
            pos += 2
        sections.append(
            Section(
                text=text, heading=f"Page {number}", page=number, start=pos, end=pos + len(text)
            )
        )
        pos += len(text)
    if not sections:
        raise UnreadablePDF("the PDF has no extractable text (a scan?)")
    return meta_title or fallback_title, tuple(sections)
