"""HTML: clean text cut at h1–h6, anchored by the heading's id (or its GitHub slug).

Offsets are into the extracted text (the sections joined by blank lines), the
text a reader sees rather than the markup.
"""

from __future__ import annotations

import re
from typing import Any

from bs4 import BeautifulSoup
from bs4.element import NavigableString, Tag

from connectors.knowledge.documents import Section

from .slugs import Slugger

__all__ = ["parse_html"]

_HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
_NOISE = ["script", "style", "noscript", "template", "nav", "footer", "svg", "form", "button"]
_BLOCKS = {
    "p", "div", "li", "ul", "ol", "br", "tr", "table", "pre", "section", "article", "main",
    "blockquote", "dd", "dt", "dl", "figure", "figcaption", "hr", "header", "aside", "td", "th",
}  # fmt: skip
_SPACES = re.compile(r"[ \t\r\f\v\u00a0]+")


def _clean(raw: str) -> str:
    lines = [_SPACES.sub(" ", line).strip() for line in raw.split("\n")]
    out: list[str] = []
    for line in lines:
        if line or (out and out[-1]):
            out.append(line)
    return "\n".join(out).strip()


def _heading_anchor(tag: Tag, text: str, slugger: Slugger) -> str:
    explicit = tag.get("id")
    if not explicit:
        inner = tag.find(True, attrs={"id": True}) or tag.find("a", attrs={"name": True})
        if isinstance(inner, Tag):
            explicit = inner.get("id") or inner.get("name")
    if isinstance(explicit, str) and explicit:
        return explicit
    return slugger.slug(text)


def parse_html(markup: str, fallback_title: str) -> tuple[str, tuple[Section, ...]]:
    soup = BeautifulSoup(markup, "html.parser")
    title_tag = soup.find("title")
    page_title = title_tag.get_text(" ", strip=True) if title_tag else ""
    for tag in soup(_NOISE):
        tag.decompose()
    root: Any = soup.find("main") or soup.find("article") or soup.body or soup
    slugger = Slugger()
    for tagged in root.find_all(attrs={"id": True}):
        if isinstance(tagged, Tag) and tagged.name not in _HEADINGS:
            slugger.reserve(str(tagged.get("id")))

    # Walk the tree once, in order: text goes to the current section, a heading opens a new one.
    parts: list[tuple[str, str | None, list[str]]] = [("", None, [])]
    first_h1 = ""

    def walk(node: Tag) -> None:
        nonlocal first_h1
        for child in node.children:
            if isinstance(child, NavigableString):
                if type(child) is NavigableString:  # not comments, CDATA, doctypes
                    parts[-1][2].append(str(child))
                continue
            if not isinstance(child, Tag):
                continue
            if child.name in _HEADINGS:
                text = _SPACES.sub(" ", child.get_text(" ", strip=True)).strip()
                if child.name == "h1" and not first_h1:
                    first_h1 = text
                parts.append((text, _heading_anchor(child, text, slugger), [text, "\n"]))
                continue
            block = child.name in _BLOCKS
            if block:
                parts[-1][2].append("\n")
            walk(child)
            if block:
                parts[-1][2].append("\n")

    walk(root)
    title = page_title or first_h1 or fallback_title
    sections: list[Section] = []
    pos = 0
    for heading, anchor, chunks in parts:
        text = _clean("".join(chunks))
        if not text or text == heading:
            continue
        if sections:
            pos += 2  # the blank line that joins sections in the document's text
        sections.append(
            Section(text=text, heading=heading, anchor=anchor, start=pos, end=pos + len(text))
        )
        pos += len(text)
    return title, tuple(sections)
