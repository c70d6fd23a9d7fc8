"""Links to the exact place a quote was found: a PDF page or a web text fragment."""

from __future__ import annotations

import re
from urllib.parse import quote as urlquote
from urllib.parse import urlsplit

from citations.model import Source
from citations.words import is_cjk_heavy

#: what a page's Markdown shows as something else: an image or a link shows its text,
#: code its characters, emphasis its words, a tag nothing
_IMAGE_OR_LINK = re.compile(r"!?\[([^\]\n]*)\]\([^()\n]*\)")
_TAG = re.compile(r"</?[A-Za-z][^<>\n]*>")
_EMPHASIS = re.compile(r"\*+|`+|(?<!\w)_+(?=\S)|(?<=\S)_+(?!\w)")


def _fragment_text(text: str) -> str:
    return urlquote(text, safe="").replace("-", "%2D")


def _as_shown(text: str) -> str:
    """``text`` as the published page shows it: a text fragment matches the page's text,
    not its Markdown (``**rotation**`` is "rotation" there)."""
    return _EMPHASIS.sub("", _TAG.sub("", _IMAGE_OR_LINK.sub(r"\1", text)))


def deep_link(source: Source, start: int, end: int) -> str | None:
    """A link to the exact place: ``#page=N`` for PDFs, a ``#:~:text=`` text
    fragment for web pages, nothing for other URLs."""
    url = source.url
    parts = urlsplit(url)
    base, _, fragment = url.partition("#")
    if parts.path.lower().endswith(".pdf") or fragment.startswith("page="):
        page = source.locator.page
        if page is None and fragment.startswith("page="):
            return url
        return f"{base}#page={page}" if page is not None else None
    if parts.scheme not in ("http", "https"):
        return None
    snippet = " ".join(_as_shown(source.text[start:end]).split())
    if not snippet:
        return None
    fragment = fragment.split(":~:", 1)[0]
    if is_cjk_heavy(snippet):
        directive = (
            _fragment_text(snippet)
            if len(snippet) <= 24
            else f"{_fragment_text(snippet[:10])},{_fragment_text(snippet[-10:])}"
        )
    else:
        words = snippet.split(" ")
        if len(words) <= 8:
            directive = _fragment_text(snippet)
        else:
            directive = (
                f"{_fragment_text(' '.join(words[:4]))},{_fragment_text(' '.join(words[-4:]))}"
            )
    return f"{base}#{fragment}:~:text={directive}"
