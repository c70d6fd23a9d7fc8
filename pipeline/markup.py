"""The markup of a Markdown page that a reader of the rendered page never sees as text.

Documentation sets written for mdBook, GitHub, Docusaurus, Hugo, Jekyll or VitePress
mix Markdown with raw HTML, template tags and reference definitions. Read as text, they
leak into quoted sentences ("[crates.io]: https://crates.io/", "> **Note**: … > fetch",
"<dd><p>Add as …"). :func:`reading` is the text as the page renders it, with each of its
characters mapped back to where it came from, so that a sentence found in the reading is
still the span of the source it quotes.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from dataclasses import dataclass

#: a fenced code block, to its closing fence (group ``close``, as long as the opening
#: one) or, when the text ends inside it, to the end of the text. A line of backticks with
#: another backtick after them opens none (CommonMark): it is a code span, as a table's
#: "```Host(`a.com`)```" cell that a chunk starts with
FENCED = re.compile(
    r"^[ \t]*(?P<fence>`{3,}(?![^\n]*`)|~{3,}).*?(?:(?P<close>^[ \t]*(?P=fence)[ \t]*$)|\Z)",
    re.M | re.S,
)

#: a fence line, with what follows the backticks or tildes (group ``info``: a language)
_FENCE_LINE = re.compile(r"^[ \t]*(?:`{3,}(?![^\n]*`)|~{3,})(?P<info>[^\n]*)$", re.M)


def cut_block_end(text: str) -> int:
    """Where the block ``text`` starts inside of ends (a chunk cut inside a fenced block),
    else 0: its first fence line is bare, has a blank line or the end after it, and leaves an
    odd number of fence lines (the others pair up), so it closes a block and opens none."""
    fences = list(_FENCE_LINE.finditer(text))
    if len(fences) % 2 == 0 or fences[0]["info"].strip():
        return 0
    end = fences[0].end()
    if text[end : end + 1] == "\n" and text[end + 1 :].split("\n", 1)[0].strip():
        return 0
    return end


# -- whole lines that are not text -----------------------------------------------------

# a link reference definition ("[crates.io]: https://crates.io/"), an alert's label
# ("> [!NOTE]"), a template tag alone on its line ("{{< note >}}", "{% include x %}",
# "{{#include ../a.md}}"), a <details> summary (a label, like a heading), and VitePress'
# table of contents ("[[toc]]") and code file imports ("<<< @/snippets/x.js"), and a
# kramdown attribute list on a line of its own ("{: .note}")
_NOT_TEXT = re.compile(
    r"^[ ]{0,3}\[(?!\^)[^\]\n]+\]:[ \t]*(?:<[^>\n]*>|\S+)(?:[ \t]+(?:\"[^\"\n]*\"|'[^'\n]*'|\([^)\n]*\)))?[ \t]*$"
    r"|^[ \t]*>[ \t]*\[!(?:NOTE|TIP|IMPORTANT|WARNING|CAUTION)\][^\n]*$"
    r"|<summary\b[^>]*>.*?</summary>"
    r"|^[ \t]*(?:\[\[toc\]\]|<<<[ \t]+\S+[^\n]*)[ \t]*$"
    # a kramdown or attr_list block attribute list ("{: .note .info}", "{: #no-sudo}")
    r"|^[ \t]*\{:[^{}\n]*\}[ \t]*$",
    re.M | re.I | re.S,
)

# -- markup inside text ------------------------------------------------------------------

# block quote markers ("> ", "> > "), but not an interpreter's prompt (">>> ")
_QUOTE = re.compile(r"^[ \t]{0,3}(?!>>>[ \t])(?:>[ \t]?)+", re.M)
# a footnote definition's label ("[^1]: "): its text is read, its label is not
_FOOTNOTE_LABEL = re.compile(r"^[ ]{0,3}\[\^[^\]\n]+\]:[ \t]*", re.M)
# a task list's box ("- [ ] ", "1. [x] ")
_TASK_BOX = re.compile(r"^[ \t]*(?:[*+-]|\d+[.)])[ \t]+(?P<box>\[[ xX]\][ \t]+)", re.M)
# an HTML comment, a template tag (Liquid/Jinja "{% … %}", "{# … #}", Hugo "{{< … >}}",
# "{{% … %}}", mdBook "{{#include …}}"), a footnote reference ("[^1]"): none is text
_INVISIBLE = re.compile(
    r"<!--(?s:.*?)-->|\{%.*?%\}|\{#.*?#\}|\{\{[<%].*?[>%]\}\}|\{\{#\w.*?\}\}|\[\^[^\]\n]+\](?!:)"
    # a script or style (a VitePress page's ``<script setup>``) and what a page plays or
    # draws (an audio player, an inline icon): shown as no words
    r"|<(?P<unseen>script|style|svg|audio|video|iframe|object|canvas|noscript)\b[^>]*>(?s:.*?)"
    r"</(?P=unseen)\s*>"
)
# a definition list entry's term and definition, read as "term: definition"
_TERM_END = re.compile(r"</dt>\s*<dd\b[^>]*>\s*(?:<p\b[^>]*>)?", re.I)
# an HTML table's row, and the gap between two of its cells
_ROW = re.compile(r"<tr\b.*?</tr>", re.I | re.S)
_CELL_GAP = re.compile(r"</t[dh]>\s*<t[dh]\b[^>]*>", re.I)
# an HTML element that is a block of its own: its tags break the text into paragraphs
_BLOCK_TAGS = (
    "address|article|aside|blockquote|body|caption|center|dd|details|dialog|div|dl|dt|"
    "fieldset|figcaption|figure|footer|h[1-6]|header|hr|html|li|main|nav|ol|p|section|"
    "table|tbody|td|tfoot|th|thead|tr|ul|br"
)
_BLOCK = re.compile(rf"</?(?:{_BLOCK_TAGS})\b(?:[^<>\"']|\"[^\"]*\"|'[^']*')*/?>", re.I)
_CODE_TAG = re.compile(r"</?(?:code|kbd)\b(?:[^<>\"']|\"[^\"]*\"|'[^']*')*>", re.I)
# inline elements: their tags are not text, their content is (an image has none)
_INLINE_TAGS = (
    "a|abbr|b|bdi|bdo|button|cite|del|dfn|em|font|i|img|input|ins|label|mark|nobr|q|s|samp|"
    "small|span|strike|strong|sub|sup|time|tt|u|wbr"
)
_INLINE = re.compile(
    # a custom element's name has a hyphen (a Vue component in a VitePress page: ``<svg-image
    # :svg="…"/>``)
    rf"</?(?:{_INLINE_TAGS}|[a-z][a-z0-9]*-[\w-]*)\b(?:[^<>\"']|\"[^\"]*\"|'[^']*')*/?>",
    re.I,
)
_ENTITY = re.compile(r"&(?:[a-zA-Z][a-zA-Z0-9]{1,31}|#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6});")
# a reference link ("[text][id]", "[text][]"): its text
_REFERENCE = re.compile(r"(?<![\]\\!])\[(?P<text>(?:`[^`\n]*`|[^\]\n`])+)\](?P<ref>\[[^\]\n]*\])")
# a shortcut reference ("[text]"): a link when the page defines it, or when its label is
# words or code (a definition is often at the end of the page, out of the chunk), never a
# bare key ("[tool]"), a number ("[1]") or a task box
_SHORTCUT = re.compile(r"(?<![\]\\!])\[(?P<text>(?![\^!])(?:`[^`\n]*`|[^\]\n`])+)\](?![(\[:])")
_LABEL_WORDS = re.compile(r"\S\s+\S|`")
_DEFINED = re.compile(r"^[ ]{0,3}\[(?P<label>[^\]\n]+)\]:", re.M)
# a backslash that escapes punctuation ("certificate\(s\)", as GitBook writes it): the page
# shows the character alone. Only characters no platform reads as markup ("\*", "\_", "\["
# and a line's "1\." would be emphasis, a link or a list if shown bare)
_ESCAPED = re.compile(r"\\(?P<char>[()!?,;:='\"{}/$])")
# a code span, whose text is never markup (`<br>`, `[x]`); it stays within a paragraph
CODE_SPAN = re.compile(r"(?<!`)(?P<ticks>`+)(?!`)(?:(?!\n[ \t]*\n).)+?(?<!`)(?P=ticks)(?!`)", re.S)


def code_blanked(text: str) -> str:
    """``text`` with its code spans blanked out, every other character where it was: to find
    a question's words outside code and replace them in place."""
    return blanked(text, [m.span() for m in CODE_SPAN.finditer(text)])


# a preformatted HTML block: code
PRE = re.compile(r"<pre\b[^>]*>(?P<body>.*?)</pre>", re.I | re.S)
_LANGUAGE = re.compile(r"<code\b[^>]*\bclass=[\"'][^\"']*?language-(?P<lang>[\w+-]+)", re.I)
_ANY_TAG = re.compile(r"</?[a-zA-Z][\w-]*\b(?:[^<>\"']|\"[^\"]*\"|'[^']*')*/?>")


@dataclass(frozen=True, slots=True)
class Edit:
    """``text[start:end]`` is read as ``said``."""

    start: int
    end: int
    said: str


def not_text(text: str) -> Iterator[tuple[int, int]]:
    """The spans of ``text`` that are not text at all: reference definitions, alert
    labels, template tags and summaries standing alone (none in fenced code)."""
    code = [m.span() for m in FENCED.finditer(text)]
    for match in _NOT_TEXT.finditer(text):
        if not _within(match.start(), code):
            yield match.span()


def blanked(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with each of ``spans`` blanked out, every other character where it was."""
    if not spans:
        return text  # most chunks and questions: no copy made
    chars = list(text)
    for start, end in spans:
        chars[start:end] = " " * (end - start)
    return "".join(chars)


def _within(at: int, spans: list[tuple[int, int]]) -> bool:
    return any(a <= at < b for a, b in spans)


def edits(text: str, page: str | None = None) -> list[Edit]:
    """How the markup in ``text`` reads, in order, none overlapping another. ``page`` is
    where its reference definitions are (``text`` itself unless they were cut out)."""
    spans = [m.span() for m in FENCED.finditer(text)]
    spans += [m.span() for m in CODE_SPAN.finditer(text) if not _within(m.start(), spans)]
    inline: list[Edit] = [Edit(*m.span(), "") for m in _QUOTE.finditer(text)]
    inline += [Edit(*m.span(), "") for m in _FOOTNOTE_LABEL.finditer(text)]
    inline += [Edit(*m.span("box"), "") for m in _TASK_BOX.finditer(text)]
    # found with the code blanked out: a tag a code span shows (`<script type="module">`) is
    # not where a hidden element starts
    inline += [Edit(*m.span(), "") for m in _INVISIBLE.finditer(blanked(text, spans))]
    inline += [Edit(*m.span(), ": ") for m in _TERM_END.finditer(text)]
    for row in _ROW.finditer(text):
        # a row reads as its first cell, the key, then what the others say of it
        for i, cell in enumerate(_CELL_GAP.finditer(text, row.start(), row.end())):
            inline.append(Edit(*cell.span(), "; " if i else ": "))
    inline += [Edit(*m.span(), "\n\n") for m in _BLOCK.finditer(text)]
    inline += [Edit(*m.span(), "`") for m in _CODE_TAG.finditer(text)]
    inline += [Edit(*m.span(), "") for m in _INLINE.finditer(text)]
    inline += [Edit(*m.span(), html.unescape(m.group())) for m in _ENTITY.finditer(text)]
    inline += [Edit(*m.span(), m.group("char")) for m in _ESCAPED.finditer(text)]
    for match in _REFERENCE.finditer(text):
        inline.append(Edit(match.start(), match.start("text"), ""))
        inline.append(Edit(match.end("text"), match.end(), ""))
    defined = {m.group("label").casefold() for m in _DEFINED.finditer(page or text)}
    for match in _SHORTCUT.finditer(text):
        label = match.group("text")
        if label.casefold() in defined or _LABEL_WORDS.search(label):
            inline.append(Edit(match.start(), match.start("text"), ""))
            inline.append(Edit(match.end("text"), match.end(), ""))
    # code is never markup, and markup never reaches into code
    found = [e for e in inline if not any(e.start < b and a < e.end for a, b in spans)]
    found.sort(key=lambda e: (e.start, -e.end))
    kept: list[Edit] = []
    for edit in found:
        if not kept or edit.start >= kept[-1].end:
            kept.append(edit)
    return kept


@dataclass(frozen=True, slots=True)
class Reading:
    """A text as read, and for each of its characters where it starts and ends in the
    source (a character that stands for markup spans all of it)."""

    text: str
    starts: tuple[int, ...]
    ends: tuple[int, ...]

    def source(self, start: int, end: int) -> tuple[int, int]:
        """The source span of ``self.text[start:end]`` (not empty)."""
        return self.starts[start], self.ends[end - 1]


def reading(text: str, page: str | None = None) -> Reading:
    """``text`` as the rendered page reads it, mapped back to ``text`` (``page``: see
    :func:`edits`)."""
    out: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    at = 0
    for edit in edits(text, page):
        out.append(text[at : edit.start])
        starts.extend(range(at, edit.start))
        ends.extend(range(at + 1, edit.start + 1))
        out.append(edit.said)
        starts.extend([edit.start] * len(edit.said))
        ends.extend([edit.end] * len(edit.said))
        at = edit.end
    out.append(text[at:])
    starts.extend(range(at, len(text)))
    ends.extend(range(at + 1, len(text) + 1))
    return Reading("".join(out), tuple(starts), tuple(ends))


def read(text: str, page: str | None = None) -> str:
    """``text`` as the rendered page reads it (see :func:`reading`), not mapped."""
    out: list[str] = []
    at = 0
    for edit in edits(text, page):
        out.append(text[at : edit.start])
        out.append(edit.said)
        at = edit.end
    out.append(text[at:])
    return "".join(out)


def pre_code(match: re.Match[str]) -> str:
    """A ``<pre>`` block as a fenced one: its text without tags, its entities decoded."""
    language = _LANGUAGE.search(match.group(0))
    body = html.unescape(_ANY_TAG.sub("", match.group("body"))).strip("\n")
    return "```" + (language.group("lang") if language else "") + "\n" + body + "\n```"
