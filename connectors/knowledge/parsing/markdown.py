"""Markdown: one section per heading, each the verbatim slice of the file it spans."""

from __future__ import annotations

import re
from dataclasses import dataclass

from connectors.knowledge.documents import Section

from .outline import parents
from .slugs import Slugger, plain_heading

__all__ = ["parse_markdown"]

_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
# an attribute list closing a heading (mkdocs attr_list "{: #id .class }", Pandoc and
# MyST "{#id}"): its id is the heading's anchor, and none of it is the heading's text
_ATTRS = re.compile(
    r"[ \t]*\{:?(?P<attrs>(?:[ \t]*(?:[#.][\w-]+|[\w-]+=(?:\"[^\"\n]*\"|'[^'\n]*'|[^\s{}]+)))+)"
    r"[ \t]*\}[ \t]*$"
)
_ID = re.compile(r"(?:^|\s)#(?P<id>[\w-]+)")
# a kramdown block attribute list on a line of its own ("{: #no-sudo}", "{: .note}"): right
# under a heading, its id is the heading's anchor; it is never text
_BLOCK_ATTRS = re.compile(r"^ {0,3}\{:(?P<attrs>[^{}\n]*)\}[ \t]*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
#: YAML front matter (shared with the MDX reader), its body in group 1
FRONT_MATTER = re.compile(r"\A---[ \t]*\n(.*?\n)?---[ \t]*(?:\n|\Z)", re.DOTALL)
_FM_TITLE = re.compile(r"^title:[ \t]*(.+?)[ \t]*$", re.MULTILINE)
# Docusaurus' sidebar label: the page's name when neither front matter nor an h1 gives one
_FM_LABEL = re.compile(r"^sidebar_label:[ \t]*(.+?)[ \t]*$", re.MULTILINE)
# what a page never shows: a comment, a script or a style (a VitePress page's leading
# ``<script setup>``); a section of nothing else is no section
_HIDDEN = re.compile(r"<!--.*?-->|<(script|style)\b[^>]*>.*?</\1\s*>", re.DOTALL | re.IGNORECASE)


@dataclass(slots=True)
class _Heading:
    level: int
    text: str
    start: int  # where the heading's first line begins
    body: int  # where the text after the heading begins
    anchor: str | None = None  # the id its attribute list gives it


def _atx(line: str) -> _Heading | None:
    attrs = _ATTRS.search(line)
    anchor = None
    if attrs is not None and line[: attrs.start()].lstrip(" ").startswith("#"):
        explicit = _ID.search(attrs.group("attrs"))
        anchor = explicit.group("id") if explicit else None
        line = line[: attrs.start()]
    atx = _ATX.match(line)
    if atx is None:
        return None
    return _Heading(len(atx.group(1)), plain_heading(atx.group(2) or ""), 0, 0, anchor)


def _headings(text: str, offset: int) -> list[_Heading]:
    found: list[_Heading] = []
    fence: str | None = None
    pos = offset
    lines = text[offset:].splitlines(keepends=True)
    previous: tuple[int, str] | None = None  # a paragraph line that a setext underline may promote
    comment = False  # inside an HTML comment, whose lines are not the page's ("# a note")
    for line in lines:
        stripped = line.rstrip("\r\n")
        start, pos = pos, pos + len(line)
        fence_match = _FENCE.match(stripped)
        if fence is not None:
            if (
                fence_match
                and fence_match.group(1)[0] == fence[0]
                and len(fence_match.group(1)) >= len(fence)
            ):
                fence = None
            continue
        if comment:
            comment, previous = "-->" not in stripped, None
            continue
        if fence_match:
            fence, previous = fence_match.group(1), None
            continue
        opened = stripped.rfind("<!--")
        comment = opened >= 0 and "-->" not in stripped[opened:]
        attrs = _BLOCK_ATTRS.match(stripped)
        if attrs and found and found[-1].body == start:
            explicit = _ID.search(attrs.group("attrs"))
            if explicit:
                found[-1].anchor = explicit.group("id")
            found[-1].body, previous = pos, None
            continue
        atx = _atx(stripped)
        if atx:
            atx.start, atx.body = start, pos
            found.append(atx)
            previous = None
            continue
        setext = _SETEXT.match(stripped)
        if setext and previous is not None:
            level = 1 if setext.group(1)[0] == "=" else 2
            found.append(_Heading(level, plain_heading(previous[1]), previous[0], pos))
            previous = None
            continue
        if stripped.strip() and not stripped.startswith((" " * 4, "\t")):
            previous = (start, stripped)
        else:
            previous = None
    return found


def _title(text: str, headings: list[_Heading]) -> str | None:
    front = FRONT_MATTER.match(text)
    meta = (front.group(1) or "") if front else ""
    title = _FM_TITLE.search(meta)
    if title:
        return title.group(1).strip("'\"")
    for heading in headings:
        if heading.level == 1 and heading.text:
            return heading.text
    label = _FM_LABEL.search(meta)
    if label:
        return label.group(1).strip("'\"")
    return next((h.text for h in headings if h.text), None)


def _section(text: str, start: int, end: int, body: int, **fields: object) -> Section | None:
    while end > start and text[end - 1].isspace():
        end -= 1
    while start < end and text[start].isspace():
        start += 1
    if not _HIDDEN.sub("", text[max(start, body) : end]).strip():
        return None  # a heading with nothing under it is not worth retrieving
    return Section(text=text[start:end], start=start, end=end, **fields)  # type: ignore[arg-type]


def parse_markdown(text: str, fallback_title: str) -> tuple[str, tuple[Section, ...]]:
    front = FRONT_MATTER.match(text)
    offset = front.end() if front else 0
    headings = _headings(text, offset)
    title = _title(text, headings) or fallback_title
    slugger = Slugger()
    for heading in headings:
        if heading.anchor:
            slugger.reserve(heading.anchor)
    sections: list[Section] = []
    first = headings[0].start if headings else len(text)
    preamble = _section(text, offset, first, offset)
    if preamble:
        sections.append(preamble)
    outline = parents([(h.level, h.text) for h in headings])
    for i, heading in enumerate(headings):
        anchor = heading.anchor or slugger.slug(heading.text)
        end = headings[i + 1].start if i + 1 < len(headings) else len(text)
        section = _section(
            text,
            heading.start,
            end,
            heading.body,
            heading=heading.text,
            anchor=anchor,
            parents=outline[i],
        )
        if section:
            sections.append(section)
    return title, tuple(sections)
