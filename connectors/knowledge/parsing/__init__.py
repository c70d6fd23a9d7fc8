"""Turn file contents (Markdown, MDX, reST, text, HTML, PDF) into addressable ``Document`` sections."""

from __future__ import annotations

from collections.abc import Mapping

from connectors.knowledge.documents import Document, Section

from .html import parse_html
from .markdown import parse_markdown
from .mdx import looks_like_mdx, read_mdx
from .pdf import UnreadablePDF, parse_pdf
from .rst import parse_rst, section_labels
from .slugs import Slugger, plain_heading, slugify

__all__ = [
    "KINDS",
    "Slugger",
    "UnreadableFile",
    "kind_of",
    "parse_bytes",
    "parse_html",
    "parse_markdown",
    "parse_pdf",
    "parse_rst",
    "plain_heading",
    "section_labels",
    "slugify",
]

#: File suffix → document kind.
KINDS: dict[str, str] = {
    ".md": "markdown",
    ".markdown": "markdown",
    ".mdx": "mdx",
    ".txt": "text",
    ".rst": "rst",
    ".html": "html",
    ".htm": "html",
    ".pdf": "pdf",
}


class UnreadableFile(ValueError):
    """Corrupt or not what its name says; the message says why in a few words."""


def kind_of(name: str) -> str | None:
    dot = name.rfind(".")
    return KINDS.get(name[dot:].lower()) if dot >= 0 else None


def _decode(data: bytes) -> str:
    if b"\x00" in data[:8192]:
        raise UnreadableFile("binary content, not text")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UnreadableFile(f"not UTF-8 text (byte {exc.start})") from None


def parse_text(text: str) -> tuple[Section, ...]:
    end = len(text.rstrip())
    start = len(text) - len(text.lstrip())
    if start >= end:
        return ()
    return (Section(text=text[start:end], start=start, end=end),)


def parse_bytes(
    data: bytes,
    *,
    kind: str,
    key: str,
    url: str,
    fallback_title: str,
    collection: str = "default",
    labels: Mapping[str, str] | None = None,
) -> Document:
    """A document from raw bytes; ``UnreadableFile`` if they cannot be read as ``kind``.
    ``labels``: the section titles the other reST pages of its folder label, for the
    ``:ref:`` roles of a reST page (:func:`section_labels`)."""
    sections: tuple[Section, ...]
    if kind == "pdf":
        try:
            title, sections = parse_pdf(data, fallback_title)
        except UnreadablePDF as exc:
            raise UnreadableFile(str(exc)) from None
    elif kind in ("markdown", "mdx"):
        text = _decode(data)
        if kind == "mdx" or looks_like_mdx(text):
            text = read_mdx(text)  # a Markdown page of an MDX site reads as one
        title, sections = parse_markdown(text, fallback_title)
    elif kind == "rst":
        title, sections = parse_rst(_decode(data), fallback_title, labels)
    elif kind == "html":
        title, sections = parse_html(_decode(data), fallback_title)
    elif kind == "text":
        title, sections = fallback_title, parse_text(_decode(data))
    else:
        raise UnreadableFile(f"unsupported kind {kind!r}")
    return Document(
        key=key,
        url=url,
        title=title,
        sections=sections,
        kind=kind,
        collection=collection,
        content_hash=Document.hash_of(data),
    )
