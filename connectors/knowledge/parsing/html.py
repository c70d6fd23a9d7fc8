"""HTML: the page's own content, cut at h1–h6, read as the Markdown it stands for.

Each section's text is its heading (``## Title``, the level kept) and its blocks as
Markdown (``html_blocks``), so fenced code, list items, tables and admonitions reach the
pipeline as they do from a Markdown source. Anchors are the heading's id, its permalink's
target, its section's id, or its GitHub slug. Offsets are into the extracted text (the
sections joined by blank lines), the text a reader sees rather than the markup.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from bs4 import BeautifulSoup
from bs4.element import NavigableString, Tag

from connectors.knowledge.documents import Section

from .html_blocks import HEADINGS, box_title, is_permalink, render, text_of
from .outline import parents
from .slugs import Slugger

__all__ = ["heading_anchor", "parse_html"]

_NOISE = [
    "script", "style", "noscript", "template", "nav", "footer", "svg", "form", "button",
    "aside", "dialog", "iframe",
]  # fmt: skip
# Landmarks and widgets that are the site around the page, not the page.
_NOISE_ROLES = frozenset(
    {"navigation", "banner", "contentinfo", "complementary", "search", "dialog", "alertdialog"}
    | {"footer"}  # not an ARIA role, but Sphinx themes mark their page footer with it
)
_NOISE_NAMES = re.compile(
    r"(?:^|[\s_-])(?:cookies?|consent|gdpr|onetrust|cookiebot|banner|sidebar|side-?nav|toc"
    r"|table-of-contents|on-this-page|breadcrumbs?|feedback|helpful|rating|newsletter|subscribe"
    r"|share|social|skip-link|skip-to-content|pagination|pager|edit-?this-?page|announcement"
    r"|advert|ads|promo|popup|modal|toast|site-header|site-footer|footer|masthead"
    r"|page-meta|lastmod|last-?updated|last-?modified)(?:$|[\s_-])",
    re.IGNORECASE,
)
# Headings that open a page's own table of contents rather than content.
_TOC_HEADINGS = re.compile(
    r"^(?:on this page|in this (?:article|page|section)|table of contents|contents"
    r"|was this (?:page|article) helpful\??)$",
    re.IGNORECASE,
)
_SECTIONS = frozenset({"section", "div", "article"})


@dataclass(slots=True)
class _Part:
    heading: str
    anchor: str | None
    blocks: list[str]
    headed: bool = False  # its first block is its heading's line
    level: int = 0  # its heading's level (h1 is 1), when it is headed
    toc: bool = False  # a page's own table of contents: dropped


def heading_anchor(tag: Tag, text: str, slugger: Slugger) -> str:
    """The id a link to this heading uses: its own, an inner one, its permalink's target,
    or that of the section it opens (Sphinx puts the id on the ``section``)."""
    explicit: Any = tag.get("id")
    if not explicit:
        inner = tag.find(True, attrs={"id": True}) or tag.find("a", attrs={"name": True})
        if isinstance(inner, Tag):
            explicit = inner.get("id") or inner.get("name")
    if not explicit:
        link = next((a for a in tag.find_all("a") if is_permalink(a)), None)
        explicit = str(link.get("href"))[1:] if link is not None else None
    parent = tag.parent
    if (
        not explicit
        and isinstance(parent, Tag)
        and parent.name in _SECTIONS
        and parent.find(HEADINGS) is tag
    ):
        explicit = parent.get("id")
    if isinstance(explicit, str) and explicit:
        return explicit
    return slugger.slug(text)


def _is_boilerplate(tag: Tag) -> bool:
    if tag.attrs is None:  # already removed with an ancestor
        return False
    hidden = tag.get("hidden") is not None or str(tag.get("aria-hidden", "")).lower() == "true"
    if hidden and str(tag.get("role", "")) != "tabpanel":
        return True  # an inactive content tab is hidden until chosen, and still the page
    if str(tag.get("role", "")).lower() in _NOISE_ROLES:
        return True
    if tag.name == "header" and tag.find_parent(("main", "article")) is None:
        return True  # the site's header; an article's own header holds its title
    names = " ".join(tag.get_attribute_list("class"))
    if not _is_headed(tag):  # a heading's id, or its section's, is its title's slug
        names += " " + str(tag.get("id") or "")
    if not _NOISE_NAMES.search(names.strip()):
        return False
    # a layout wrapper named after its sidebar still holds the page
    return tag.find(("main", "article", "h1")) is None


def _is_headed(tag: Tag) -> bool:
    """A heading, or the section a heading opens (its first or second element)."""
    if tag.name in HEADINGS:
        return True
    return any(child.name in HEADINGS for child in tag.find_all(True, recursive=False, limit=2))


def _label_tab_panels(soup: BeautifulSoup) -> None:
    """Tabs whose labels name their panels by id (ARIA's ``aria-controls``, Bootstrap's
    ``data-bs-target``; Docsy, Bootstrap themes), wherever the panels are: each panel
    reads as a MyST tab item with its label, and the row of labels goes."""
    for tab in soup.find_all(True, role="tab"):
        target = str(tab.get("aria-controls") or tab.get("data-bs-target") or "").lstrip("#")
        panel = soup.find(id=target) if target else None
        if not isinstance(panel, Tag) or tab in panel.parents or panel in tab.parents:
            continue
        for at, line in ((0, f":::{{tab-item}} {tab.get_text(' ', strip=True)}"), (None, ":::")):
            marker = soup.new_tag("p")
            marker.string = line.rstrip()
            panel.insert(len(panel.contents) if at is None else at, marker)
        row = tab.find_parent(attrs={"role": "tablist"})
        tab.decompose()
        if isinstance(row, Tag) and not row.get_text(strip=True):
            row.decompose()


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
    _label_tab_panels(soup)
    _strip_boilerplate(soup)
    root: Any = soup.find("main") or soup.find("article") or soup.body or soup
    slugger = Slugger()
    for tagged in root.find_all(attrs={"id": True}):
        if isinstance(tagged, Tag) and tagged.name not in HEADINGS:
            slugger.reserve(str(tagged.get("id")))

    # Walk the tree once, in order: blocks go to the current section, a heading opens a new
    # one; an element holding a heading is walked into, any other is rendered whole. A
    # heading's section ends with the element that holds it and its body: what follows that
    # element is the outer section's again (an API entry's box, a collapsible holding
    # headings); an element holding only a title (a ``header``) leaves its section open.
    parts = [_Part("", None, [])]
    first_h1 = ""
    pending: list[Tag | NavigableString] = []

    def flush() -> None:
        parts[-1].blocks.extend(render(pending))
        pending.clear()

    def walk(node: Tag) -> None:
        nonlocal first_h1
        for child in node.children:
            if isinstance(child, Tag) and child.name in HEADINGS:
                flush()
                text = text_of(c for c in child.children if isinstance(c, Tag | NavigableString))
                text = text.replace("\n", " ").replace("`", "")
                if _TOC_HEADINGS.match(text):
                    parts.append(_Part(text, None, [], toc=True))  # a list of links follows
                    continue
                if child.name == "h1" and not first_h1:
                    first_h1 = text
                anchor = heading_anchor(child, text, slugger)
                line = f"{'#' * int(child.name[1])} {text}"
                parts.append(_Part(text, anchor, [line], headed=True, level=int(child.name[1])))
            elif isinstance(child, Tag) and child.find(HEADINGS) is not None:
                flush()
                title = box_title(child)  # a box's title over sections is no sentence
                if title is not None:
                    title.decompose()
                outer = parts[-1]
                walk(child)
                flush()
                inner = parts[-1]
                if inner is not outer and len(inner.blocks) > inner.headed:
                    parts.append(_Part(outer.heading, outer.anchor, [], toc=outer.toc))
            elif isinstance(child, Tag | NavigableString):
                pending.append(child)
        flush()

    walk(root)
    # a page's own title heading, not its <title>, which sites suffix with their name
    title = first_h1 or page_title or fallback_title
    sections: list[Section] = []
    pos = 0
    headed = [p for p in parts if p.headed and not p.toc]
    outline = dict(
        zip(
            map(id, headed),
            parents([(p.level, p.heading) for p in headed]),
            strict=True,
        )
    )
    for part in parts:
        if part.toc or len(part.blocks) <= part.headed:
            continue  # a table of contents, or a heading with nothing under it
        text = "\n\n".join(part.blocks)
        if sections:
            pos += 2  # the blank line that joins sections in the document's text
        sections.append(
            Section(
                text=text,
                heading=part.heading,
                anchor=part.anchor,
                start=pos,
                end=pos + len(text),
                parents=outline.get(id(part), ()),
            )
        )
        pos += len(text)
    return title, tuple(sections)
