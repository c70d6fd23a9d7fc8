"""What an extractive answer is made of: sentences, list items and code blocks.

Headings, admonition titles and API directives are never units (a heading glued
onto the sentence under it would be quoted as if it were a claim); fenced code is
a unit of its own, shown as code and never quoted as prose.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from citations.sentences import sentences
from pipeline.text import is_prose

Kind = Literal["sentence", "item", "code"]

_FENCED = re.compile(r"^[ \t]*(```|~~~)[^\n]*\n.*?^[ \t]*\1[ \t]*$", re.M | re.S)
# a fence that never closes (the chunk ends inside it): code to the end
_OPEN_FENCE = re.compile(r"^[ \t]*(?:```|~~~).*\Z", re.M | re.S)
# headings, setext underlines, mkdocstrings directives and admonition titles
_NOT_PROSE = re.compile(
    r"^[ \t]*(?:#{1,6}[ \t].*|#{1,6}|[=-]{3,}[ \t]*|(?::::|\?\?\?|!!!).*)$", re.M
)
# an API signature line: a short label and one code span ("Signature: `f(x, y=1)`")
_SIGNATURE = re.compile(r"^[ \t]*(?:[*+-][ \t]+)?[A-Z][\w ]{0,24}:[ \t]*`[^`\n]+`[ \t]*$", re.M)
# a list item with its indented continuation lines; the bullet is not part of the text
_ITEM = re.compile(
    r"^[ \t]*(?:[*+-]|\d+[.)])[ \t]+(?P<body>\S.*(?:\n(?![ \t]*(?:[*+-]|\d+[.)])[ \t])[ \t]+\S.*)*)",
    re.M,
)


@dataclass(frozen=True, slots=True)
class Unit:
    start: int
    end: int
    text: str
    kind: Kind

    @property
    def announces(self) -> bool:
        """Ends with a colon: what it announces (a list, a code block) follows it."""
        return self.kind != "code" and self.text.rstrip().endswith(":")


def units(text: str) -> list[Unit]:
    """The text's units in reading order: prose worth quoting, and fenced code."""
    found: list[Unit] = []
    masked = list(text)

    def mask(start: int, end: int) -> None:
        for i in range(start, end):
            if masked[i] != "\n":
                masked[i] = " "

    for match in _FENCED.finditer(text):
        found.append(Unit(match.start(), match.end(), _trimmed(match.group(0)), "code"))
        mask(match.start(), match.end())
    tail = _OPEN_FENCE.search("".join(masked))
    if tail is not None:
        mask(tail.start(), tail.end())
    for match in _SIGNATURE.finditer("".join(masked)):
        line = text[match.start() : match.end()].strip().lstrip("*+-").strip()
        found.append(Unit(match.start(), match.end(), line, "code"))
        mask(match.start(), match.end())
    rest = "".join(masked)
    for match in _NOT_PROSE.finditer(rest):
        mask(match.start(), match.end())
    prose = "".join(masked)
    items = [(m.start(), m.start("body"), m.end("body")) for m in _ITEM.finditer(prose)]
    for _, start, end in items:
        _add_prose(found, text, prose, start, end, "item")
    for span in sentences(prose):
        if not any(line <= span.start < end for line, _, end in items):
            _add_prose(found, text, prose, span.start, span.end, "sentence")
    found.sort(key=lambda u: u.start)
    return found


def _add_prose(found: list[Unit], text: str, prose: str, start: int, end: int, kind: Kind) -> None:
    original = text[start:end]
    # a span that reaches across masked code or a heading is not a faithful quote
    if original != prose[start:end] or not is_prose(original):
        return
    found.append(Unit(start, end, original, kind))


def _trimmed(block: str) -> str:
    """A fenced block without the indentation its fence lines share (a list's indent)."""
    lines = block.splitlines()
    indent = min((len(line) - len(line.lstrip()) for line in lines if line.strip()), default=0)
    return "\n".join(line[indent:] for line in lines)
