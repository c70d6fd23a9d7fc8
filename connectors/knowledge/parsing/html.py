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
_NOISE = [
    "script", "style", "noscript", "template", "nav", "footer", "svg", "form", "button",
    "aside", "dialog", "iframe",
]  # fmt: skip
# Landmarks and widgets that are the site around the page, not the page.
_NOISE_ROLES = frozenset(
    {"navigation", "banner", "contentinfo", "complementary", "search", "dialog", "alertdialog"}
)
_NOISE_NAMES = re.compile(
    r"(?:^|[\s_-])(?:cookies?|consent|gdpr|onetrust|cookiebot|banner|sidebar|side-?nav|toc"
    r"|table-of-contents|on-this-page|breadcrumbs?|feedback|helpful|rating|newsletter|subscribe"
    r"|share|social|skip-link|skip-to-content|pagination|pager|edit-?this-?page|announcement"
    r"|advert|ads|promo|popup|modal|toast|site-header|site-footer|masthead)(?:$|[\s_-])",
    re.IGNORECASE,
)
# Headings that open a page's own table of contents rather than content.
_TOC_HEADINGS = re.compile(
    r"^(?:on this page|in this (?:article|page|section)|table of contents|contents"
    r"|was this (?:page|article) helpful\??)$",
    re.IGNORECASE,
)
_BLOCKS = {
    "p", "div", "li", "ul", "ol", "br", "tr", "table", "pre", "section", "article", "main",
    "blockquote", "dd", "dt", "dl", "figure", "figcaption", "hr", "header", "aside", "td", "th",
}  # fmt: skip
_SPACES = re.compile(r"[ \t\r\f\v\u00a0]+")
_SKIP = "\x00skip"  # marks a section that is a table of contents


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


def _is_boilerplate(tag: Tag) -> bool:
    if tag.attrs is None:  # already removed with an ancestor
        return False
    if tag.get("hidden") is not None or str(tag.get("aria-hidden", "")).lower() == "true":
        return True
    if str(tag.get("role", "")).lower() in _NOISE_ROLES:
        return True
    if tag.name == "header" and tag.find_parent(("main", "article")) is None:
        return True  # the site's header; an article's own header holds its title
    names = " ".join(tag.get_attribute_list("class")) + " " + str(tag.get("id") or "")
    if not _NOISE_NAMES.search(names.strip()):
        return False
    # a layout wrapper named after its sidebar still holds the page
    return tag.find(("main", "article", "h1")) is None


def _strip_boilerplate(soup: BeautifulSoup) -> None:
    for tag in soup(_NOISE):
        tag.decompose()
    for tag in soup.find_all(True):
        if (
            isinstance(tag, Tag)
            and tag.name not in ("html", "body", "main")
            and _is_boilerplate(tag)
        ):
            tag.decompose()


def parse_html(markup: str, fallback_title: str) -> tuple[str, tuple[Section, ...]]:
    soup = BeautifulSoup(markup, "html.parser")
    title_tag = soup.find("title")
    page_title = title_tag.get_text(" ", strip=True) if title_tag else ""
    _strip_boilerplate(soup)
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
                if _TOC_HEADINGS.match(text):
                    parts.append((text, None, []))  # what follows is a list of links: drop it
                    parts[-1][2].append(_SKIP)
                    continue
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
        if chunks[:1] == [_SKIP]:
            continue
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
