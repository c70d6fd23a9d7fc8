"""What an extractive answer is made of: sentences, list items, table rows and code blocks.

Headings, admonition titles and API directives are never units (a heading glued
onto the sentence under it would be quoted as if it were a claim); fenced code is
a unit of its own, shown as code and never quoted as prose. A row of a Markdown
table is an item that reads with its column headings ("Ctrl+C — Standalone mode:
print Aborted!"): a fact written only in a table is stated like any other. The paragraph
under a name (a one-line signature block, as HTML readers render an option's ``<dt>``, or a
heading that is only a name) describes it: its units carry that name as their ``term``.

Sentences are found in the page as its reader sees it (``pipeline/markup.py``): no
reference definitions, block quote markers, HTML tags, comments or template tags, an HTML
definition list read as term and definition; ``<pre>`` and indented blocks are code. Each
unit keeps the span of the source it reads, so a quote of it still verifies there.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from citations.sentences import sentences
from pipeline.markup import PRE, Reading, cut_block_end, not_text, pre_code, read, reading
from pipeline.text import FENCED, is_prose, linkless

Kind = Literal["sentence", "item", "code"]

# headings, setext underlines, mkdocstrings directives, admonition titles, content tabs'
# labels and reST directive lines (a tab's label names a sub-unit: glued onto the sentence
# under it, "=== \"fish\" Save the script" would read as prose)
_NOT_PROSE = re.compile(
    r"^[ \t]*(?:#{1,6}[ \t].*|#{1,6}|[=-]{3,}[ \t]*|(?::::|\?\?\?|!!!).*"
    r"|===[!+]?[ \t]+\"[^\"\n]*\"[ \t]*|\.\.[ \t]+(?:group-)?tab(?:s|-set|-item)?::.*)$"
    r"|^[ \t]*\.\.[ \t]+[\w:-]+::",
    re.M,
)
# a short label before a colon ("Signature", "Type", "Default value")
_SHORT_LABEL = r"[A-Z][\w ]{0,24}"
# an API signature line: a short label and one code span ("Signature: `f(x, y=1)`")
_SIGNATURE = re.compile(rf"^[ \t]*(?:[*+-][ \t]+)?{_SHORT_LABEL}:[ \t]*`[^`\n]+`[ \t]*$", re.M)
# a line that states a default: "Default: 4.", "**Default:** `5173`", "Defaults to `on`."
_STATES_DEFAULT = re.compile(
    r"[*_ \t]*(?:default(?:[ \t]+value)?[*_]*[ \t]*:[*_]*[ \t]*\S|defaults[ \t]+to[ \t]+\S)", re.I
)


def states_default(text: str) -> bool:
    """Whether ``text`` is a line that states a setting's default ("Default: 4.")."""
    return _STATES_DEFAULT.match(text) is not None


# a paragraph that is one code span ("`--enable-feature=memory-snapshot-on-shutdown`" under a
# feature's heading): the usage line the paragraphs after it describe, a block of its own
_CODE_LINE = re.compile(r"(?:\A|(?<=\n\n))[ \t]*`(?P<code>[^`\n]+)`[ \t]*(?=\n[ \t]*\n|\n?\Z)")
# a list item with its indented continuation lines; the bullet is not part of the text
_ITEM = re.compile(
    r"^[ \t]*(?:[*+-]|\d+[.)])[ \t]+(?P<body>\S.*(?:\n(?![ \t]*(?:[*+-]|\d+[.)])[ \t])[ \t]+\S.*)*)",
    re.M,
)
# the label of a definition (": ") or of a footnote ("[^1]: ") that its indented lines continue
_LABEL = re.compile(r"[ \t]*(?::|\[\^[^\]\n]+\]:)[ \t]+")
# a list item's bullet, with the indentation it sits at
_BULLET = re.compile(r"(?P<indent>[ \t]*)(?:[*+-]|\d+[.)])[ \t]+")
# a content tab's label line: mkdocs-material ('=== "Windows"'), reST and sphinx-design
# ('.. tab:: Windows', '.. group-tab:: Zsh', '.. tab-item:: Windows') and MyST
# (':::{tab-item} Windows'); its body is indented under it, or fenced to a closing ':::'
_TAB = re.compile(
    r"^(?P<indent>[ \t]*)(?:===[!+]?[ \t]+\"(?P<label>[^\"\n]*)\""
    r"|\.\.[ \t]+(?:group-)?tab(?:-item)?::[ \t]*(?P<rest>.*?)"
    r"|(?P<colons>:{3,})[ \t]*\{tab-item\}[ \t]*(?P<myst>.*?))[ \t]*$",
    re.M,
)
# a line whose indented body is one block: an admonition (mkdocs '!!! note', '??? tip'),
# a content tab, or a reST directive ('.. note::')
_CONTAINER = re.compile(
    r"^(?P<indent>[ \t]*)(?:(?:!!!|\?\?\?\+?)[ \t]+\w|===[!+]?[ \t]+\"|\.\.[ \t]+[\w:-]+::).*$",
    re.M,
)
# the opening fence of a MyST directive whose body is prose, fenced with backticks like
# code ("```{note}", "```{versionchanged} 8.4"): an admonition, a version note, a dropdown
# or a tab; its fence lines and option lines (":class: tip") are not prose, its body is
PROSE_FENCE = re.compile(
    r"^[ \t]*(?:`{3,}|~{3,})[ \t]*\{(?:admonition|attention|caution|danger|error|hint|important|"
    r"note|seealso|tip|warning|versionadded|versionchanged|versionremoved|deprecated|"
    r"dropdown|tab-item|tab-set|topic|sidebar|margin)\}.*(?:\n[ \t]*:[\w-]+:.*)*",
    re.M,
)
# reST inside MyST ("```{eval-rst}"): prose, where a directive's indented body is code
# (".. code-block:: zsh", an example directive) unless the directive holds prose (an
# admonition, a tab), and a paragraph ending in "::" introduces a literal block
REST_FENCE = re.compile(r"^[ \t]*(?:`{3,}|~{3,})[ \t]*\{eval-rst\}[ \t]*$", re.M)
_DIRECTIVE = re.compile(
    r"^(?P<indent>[ \t]*)\.\.[ \t]+(?P<name>[\w:-]+)::[ \t]*(?P<arg>\S*).*$", re.M
)
_REST_PROSE = frozenset(
    {
        "admonition", "attention", "caution", "danger", "error", "hint", "important", "note",
        "seealso", "tip", "warning", "versionadded", "versionchanged", "versionremoved",
        "deprecated", "tabs", "tab", "group-tab", "tab-set", "tab-item", "topic", "sidebar",
        "container", "only", "rubric",
    }
)  # fmt: skip
_LITERAL = re.compile(r"^(?P<indent>[ \t]*)(?!\.\.[ \t])\S.*::[ \t]*$", re.M)
_OPTION = re.compile(r"[ \t]*:[\w-]+:(?:[ \t].*)?$")
# a MyST admonition's fence line: ":::{note}" opens one, a bare ":::" closes it
FENCE_LINE = re.compile(r"^[ \t]*:{3,}[ \t]*(?P<opens>\{.*)?$", re.M)
# a pipe table: its heading row, the row of dashes under it, and its body rows; GFM lets a
# table leave out its outer pipes ("Directory | Description" over "----------|----"), when
# the heading row has as many cells as the rule has columns (:func:`_is_table`)
_TABLE = re.compile(
    r"^(?P<head>[ \t]*\|.*\||[ \t]*[^\s|][^\n|]*\|[^\n]*)[ \t]*\n"
    r"(?P<rule>[ \t]*\|?(?:[ \t]*:?-{3,}:?[ \t]*\|)+[ \t]*:?-*:?[ \t]*)\n"
    r"(?P<body>(?:[ \t]*(?:\|.*\||[^\s|][^\n|]*\|[^\n]*)[ \t]*(?:\n|\Z))*)",
    re.M,
)
# rows of a table whose heading row is not in the text (a chunk that opens far down a long
# table): lines that open and close with a pipe
_HEADLESS = re.compile(r"^(?P<body>(?:[ \t]*\|.*\|[ \t]*(?:\n|\Z))+)", re.M)
# a definition list entry (MyST, Pandoc): a term on a line of its own, then one or more
# ": definition" lines with their indented continuation
_DEFINITION = re.compile(
    r"^(?P<term>(?![*+-][ \t]|\d+[.)][ \t])[^\s:|>#].{0,200})\n(?:[ \t]*\n)?"
    r"(?P<defs>:[ \t]+\S.*(?:\n(?:[ \t]+|:[ \t]+)\S.*)*)",
    re.M,
)
_DEFINES = re.compile(r"^:[ \t]+", re.M)
# a word of a definition, outside its code spans
_WORD = re.compile(r"[^\W\d_]{2,}")
_SPAN = re.compile(r"`[^`\n]*`")
# a cell boundary: a pipe neither escaped nor inside a code span
_CELL = re.compile(r"(`+)(?:(?!\1).)*?\1|\\\||(\|)")
# a line break or list inside a cell (`a`<br>`b`, <ul><li>a</li><li>b</li></ul>): its values
_CELL_BREAK = re.compile(r"[ \t]*(?:<br[ \t]*/?>|</li>[ \t]*<li>)[ \t]*", re.I)
_CELL_LIST = re.compile(r"</?(?:ul|ol|li)>", re.I)
# an image, linked or not, with its attribute list: a badge or an icon, no words of the row
_IMAGE = re.compile(r"\[?!\[[^\]\n]*\]\([^)\n]*\)(?:\{[^}\n]*\})?(?:\]\([^)\n]*\))?")


@dataclass(frozen=True, slots=True)
class Unit:
    start: int
    end: int
    text: str
    kind: Kind
    #: worth quoting on its own; an item that is not ("`src/<NAME>/__init__.py`") is shown
    #: only with the sentence that announces its list ("… in the following order:")
    quotable: bool = True
    #: the name the unit's paragraph describes (an option's, under its signature block or
    #: its name heading), when the unit does not say it: quoted alone, it would lose it
    term: str = ""

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

    # a chunk that starts inside a block is cut like one that ends inside a block: hidden,
    # and its closing fence opens nothing (the prose after it is prose)
    mask(0, cut_block_end(text))
    for match in FENCED.finditer("".join(masked)):
        rest_fence = REST_FENCE.match(text, match.start())
        opener = PROSE_FENCE.match(text, match.start()) or rest_fence
        if rest_fence is not None:
            body_end = match.start("close") if match.group("close") is not None else len(text)
            for start, end, code in _rest_code(text, rest_fence.end(), body_end):
                if code:
                    found.append(Unit(start, end, code, "code"))
                mask(start, end)
        if opener is not None:
            mask(match.start(), opener.end())
            if match.group("close") is not None:
                mask(match.start("close"), match.end())
            continue
        # a block the text ends inside of is cut: hidden, never shown half
        if match.group("close") is not None:
            found.append(Unit(match.start(), match.end(), _trimmed(match.group(0)), "code"))
        mask(match.start(), match.end())
    for match in PRE.finditer("".join(masked)):
        found.append(Unit(match.start(), match.end(), pre_code(match), "code"))
        mask(match.start(), match.end())
    for start, end, code in _indented_code("".join(masked)):
        found.append(Unit(start, end, code, "code"))
        mask(start, end)
    for match in _CODE_LINE.finditer("".join(masked)):
        found.append(Unit(match.start(), match.end(), f"```\n{match['code']}\n```", "code"))
        mask(match.start(), match.end())
    for match in _SIGNATURE.finditer("".join(masked)):
        line = text[match.start() : match.end()].strip().lstrip("*+-").strip()
        found.append(Unit(match.start(), match.end(), line, "code"))
        mask(match.start(), match.end())
    for match in _TABLE.finditer("".join(masked)):
        if _is_table(match):
            found.extend(_rows(text, match))
            mask(match.start(), match.end())
    for match in _HEADLESS.finditer("".join(masked)):
        found.extend(_rows(text, match))
        mask(match.start(), match.end())
    rest = "".join(masked)
    for match in _NOT_PROSE.finditer(rest):
        mask(match.start(), match.end())
    for start, end in not_text(rest):
        mask(start, end)
    rest = "".join(masked)
    for match in _DEFINITION.finditer(rest):
        if _defined(found, text, rest, match):
            mask(match.start(), match.end())
    prose = "".join(masked)
    # sentences and items are found in the page as it reads (no quote markers, tags or
    # template tags) and kept as the spans of the source they come from
    seen = reading(prose, text)
    items = [(m.start(), m.start("body"), m.end("body")) for m in _ITEM.finditer(seen.text)]
    for _, start, end in items:
        _add_prose(found, text, prose, seen, start, end, "item", listed=True)
    for span in sentences(seen.text):
        if not any(line <= span.start < end for line, _, end in items):
            _add_prose(found, text, prose, seen, span.start, span.end, "sentence")
    found.sort(key=lambda u: u.start)
    return _described(text, found)


# a signature block: one line of code naming one thing (an option or an API entry, as an
# HTML reader renders a <dt>), which the paragraph under it describes
_NAME_BLOCK = re.compile(
    r"\A(?:```|~~~)[ \t]*\n[ \t]*(?P<name>[^\s`$>#][^\s`]{0,59})[ \t]*\n[ \t]*(?:```|~~~)\Z"
)
# a heading line, and one that is only a name: a code span ("### `cargo::warning=MESSAGE`")
# or an identifier ("# syncOwnership", "## overflow-checks"), with an attribute list
#: a heading line (shared with the extraction: what follows a heading does not lean back)
HEADING_LINE = re.compile(r"^[ \t]*#{1,6}(?:[ \t].*)?$", re.M)
_NAME_HEADING = re.compile(
    r"^[ \t]*#{1,6}[ \t]+(?:`(?P<code>[^`\n]{1,60})`|(?P<word>[^\s`{#]{1,60}))"
    r"[ \t]*(?:\{[^}\n]*\})?[ \t]*$"
)
# an identifier, not a word: a separator inside it, or a capital after a lower-case letter
_IDENTIFIER = re.compile(r"\w[_.:=/-]\w|[a-z][A-Z]")
# a field of a reference entry: a short label, then its value ("**Type:** `boolean`",
# "**Related:** [server.port](…)", "**Reloadable**: No")
_FIELD = re.compile(rf"[*_]*{_SHORT_LABEL}[*_]*:[*_]*\s+(?P<value>\S.*)", re.S)
# the words a field's value may say besides its code and links ("`true` or `false`")
_FIELD_WORDS = 2


def _field(text: str) -> bool:
    """Whether ``text`` is a field of a reference entry, which lists a fact about the name
    (its type, its default, where to read more) before the name's description begins."""
    field = _FIELD.fullmatch(text.strip())
    return (
        field is not None
        and len(_WORD.findall(_SPAN.sub(" ", linkless(field.group("value"))))) <= _FIELD_WORDS
    )


def _described(text: str, found: list[Unit]) -> list[Unit]:
    """``found`` with each unit's ``term``: the first paragraph under a name (a signature
    block, a heading that is only a name) describes that name."""
    out: list[Unit] = []
    term = ""
    # whether the name's description has begun: the fields a reference entry lists
    # before it ("- **Type:** `boolean | 'inline'`", "- **Default**: `false`") are not its
    # description, and the paragraph after them still describes the name
    described = False
    last = 0
    for unit in found:
        gap = text[last : unit.start]
        last = unit.end
        if unit.kind == "code":
            block = _NAME_BLOCK.match(unit.text)
            term = block.group("name") if block is not None else ""
            described = False
            out.append(unit)
            continue
        headings = HEADING_LINE.findall(gap)
        if headings:
            heading = _NAME_HEADING.match(headings[-1])
            word = heading.group("word") if heading is not None else None
            code = heading.group("code") if heading is not None else None
            term = code or (word if word and _IDENTIFIER.search(word) else "") or ""
            described = False
        elif "\n\n" in gap and described:
            # the description is the first paragraph under the name
            term = ""
        described = described or (unit.quotable and not _field(unit.text))
        said = term if term and term.casefold() not in unit.text.casefold() else ""
        out.append(replace(unit, term=said))
    return out


def block_end(text: str, start: int) -> int:
    """Where the list item or admonition that holds the unit at ``start`` ends: a bullet's
    indented paragraphs, code and nested list are still that bullet ("This has two
    drawbacks:" then 1. and 2.), an admonition's or a content tab's body is one block.
    ``start`` when the unit is in neither."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", start)
    line_end = len(text) if line_end < 0 else line_end
    end = start
    bullet = _BULLET.match(text, line_start)
    if bullet is not None and bullet.end() == start:
        end = _body_end(text, line_end, _width(bullet.group("indent")))
    for container in _CONTAINER.finditer(text, 0, line_start):
        body = _body_end(text, container.end(), _width(container.group("indent")))
        if body > start:
            end = max(end, body)
    for block in FENCED.finditer(text):
        if block.start() < start < block.end() and PROSE_FENCE.match(text, block.start()):
            end = max(end, block.start("close") if block.group("close") else len(text))
    opener = None
    for fence in FENCE_LINE.finditer(text, 0, start):
        opener = fence if fence.group("opens") else None
    if opener is not None:
        close = next((f for f in FENCE_LINE.finditer(text, start) if not f.group("opens")), None)
        end = max(end, close.start() if close is not None else len(text))
    return end


@dataclass(frozen=True, slots=True)
class Tab:
    """One content tab: its label and the span from its label line to its body's end."""

    label: str
    start: int
    end: int
    indent: int


def tab_sets(text: str) -> list[list[Tab]]:
    """The text's content tabs, grouped in sets of siblings (a nested set is its own)."""
    sets: list[list[Tab]] = []
    for match in _TAB.finditer(text):
        indent = _width(match.group("indent"))
        colons = match.group("colons")
        if colons is None:
            end = _body_end(text, match.end(), indent)
        else:
            close = re.compile(rf"^[ \t]*{colons}[ \t]*$", re.M).search(text, match.end())
            end = close.end() if close is not None else len(text)
        label = next((g for g in match.group("label", "rest", "myst") if g is not None), "")
        tab = Tab(label.strip(), match.start(), end, indent)
        siblings = next(
            (
                group
                for group in reversed(sets)
                if group[-1].indent == indent
                and group[-1].end <= tab.start
                and not text[group[-1].end : tab.start].strip()
            ),
            None,
        )
        if siblings is None:
            sets.append([tab])
        else:
            siblings.append(tab)
    return sets


def asked_tabs(found: Sequence[Unit], text: str, asked: Callable[[str], set[str]]) -> list[Unit]:
    """``found`` without the units of the tabs the question does not ask about.

    ``asked(text)`` is the question's terms ``text`` holds. In a set of tabs (one per shell,
    platform or config format), the tab that holds more of the question's terms that its
    siblings lack ("zsh" in the Z shell tab's code) is the one read; with no such tab, all
    are (a term every tab shares tells them apart no more than none)."""
    hidden: list[tuple[int, int]] = []
    for group in tab_sets(text):
        if len(group) < 2:
            continue
        named = [asked(text[tab.start : tab.end]) for tab in group]
        own = [
            len(terms - set().union(*(other for j, other in enumerate(named) if j != i)))
            for i, terms in enumerate(named)
        ]
        best = max(own)
        if best and own.count(best) == 1:
            hidden.extend((t.start, t.end) for t, n in zip(group, own, strict=True) if n != best)
    return [u for u in found if not any(a <= u.start < b for a, b in hidden)]


def tab_start(text: str, start: int) -> int:
    """Where the innermost content tab holding ``start`` begins; ``start`` outside tabs."""
    holding = [t.start for group in tab_sets(text) for t in group if t.start < start < t.end]
    return max(holding, default=start)


def _width(indent: str) -> int:
    return len(indent.expandtabs())


def _indent(line: str) -> int:
    return _width(line) - _width(line.lstrip())


def _body_end(text: str, line_end: int, indent: int) -> int:
    """The end of the lines after ``line_end`` indented deeper than ``indent`` (blank lines
    among them included): the body of a bullet, an admonition or a tab."""
    end = at = line_end
    for line in text[line_end + 1 :].split("\n"):
        at += 1 + len(line)
        if not line.strip():
            continue
        if _indent(line) <= indent:
            break
        end = at
    return end


#: lines of nothing but HTML tags ("</p></td>"): the end of a table's cell in a page that
#: writes its tables in HTML with blank lines inside them (kramdown reads the whole table as
#: HTML), never code
_TAGS_ONLY = re.compile(r"(?:\s*</?[a-zA-Z][\w-]*\b(?:[^<>\"']|\"[^\"]*\"|'[^']*')*/?>)+\s*")


def _indented_code(text: str) -> list[tuple[int, int, str]]:
    """The indented code blocks of ``text`` (CommonMark), each as a fenced one: after a
    blank line, lines indented four columns deeper than the block they sit in. The body
    of a bullet, an admonition, a tab or a definition is indented too, and is not code, nor
    are lines of HTML tags alone (:data:`_TAGS_ONLY`)."""
    blocks: list[tuple[int, int, str]] = []
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    i = 1
    while i < len(lines):
        line = lines[i]
        indent = _indent(line)
        if not line.strip() or lines[i - 1].strip() or indent < 4:
            i += 1
            continue
        parent = next(
            (j for j in range(i - 1, -1, -1) if lines[j].strip() and _indent(lines[j]) < indent),
            None,
        )
        # an admonition's, tab's or directive's first block is its body at whatever depth it
        # sits: a chunk may have cut the opener's own indentation off ("??? info" at 0, its
        # list at 8)
        if (
            parent is None
            or _CONTAINER.match(lines[parent])
            or indent < _content_column(lines[parent], lines[parent + 1]) + 4
        ):
            i += 1
            continue
        last = j = i
        while j + 1 < len(lines) and (not lines[j + 1].strip() or _indent(lines[j + 1]) >= indent):
            j += 1
            if lines[j].strip():
                last = j
        body = "\n".join(lines[k].expandtabs()[indent:] for k in range(i, last + 1))
        if not _TAGS_ONLY.fullmatch(body):
            blocks.append((offsets[i], offsets[last] + len(lines[last]), "```\n" + body + "\n```"))
        i = last + 1
    return blocks


def _content_column(line: str, after: str) -> int:
    """Where the text of a line's block begins: past a bullet, a definition's or footnote's
    label, or, for a term whose definition is indented under it (``after``, the next line),
    anywhere deeper than the line."""
    indent = _indent(line)
    bullet = _BULLET.match(line) or _LABEL.match(line)
    if bullet is not None:
        return _width(bullet.group(0))
    if after.strip() and _indent(after) > indent:
        return indent + 1
    return indent


def _rest_code(text: str, start: int, end: int) -> list[tuple[int, int, str]]:
    """The code of the reST in ``text[start:end]``, each block as a fenced one: the bodies of
    directives that do not hold prose, and the literal blocks after "::" paragraphs. A
    directive's option lines (":caption: app.py") are masked with it."""
    blocks: list[tuple[int, int, str]] = []
    covered = start
    openers = [
        (m, m.group("name") not in _REST_PROSE) for m in _DIRECTIVE.finditer(text, start, end)
    ]
    openers += [(m, True) for m in _LITERAL.finditer(text, start, end)]
    for opener, is_code in sorted(openers, key=lambda pair: pair[0].start()):
        if opener.start() < covered:
            continue
        body = min(_body_end(text, opener.end(), _width(opener.group("indent"))), end)
        lines = text[opener.end() + 1 : body].split("\n") if body > opener.end() else []
        options = 0
        while options < len(lines) and _OPTION.match(lines[options]):
            options += 1
        if not is_code:
            if options:
                # a prose directive's options are not its prose
                at = opener.end() + 1 + sum(len(line) + 1 for line in lines[:options])
                blocks.append((opener.end() + 1, at - 1, ""))
            continue
        code = lines[options:]
        if not any(line.strip() for line in code):
            continue
        language = opener.groupdict().get("arg") or ""
        shown = "```" + language + "\n" + _trimmed("\n".join(code)).strip("\n") + "\n```"
        # a literal block's paragraph stays prose: only what it introduces is code
        begin = opener.start() if opener.re is _DIRECTIVE else opener.end() + 1
        blocks.append((begin, body, shown))
        covered = body
    return blocks


def _add_prose(
    found: list[Unit],
    text: str,
    prose: str,
    seen: Reading,
    start: int,
    end: int,
    kind: Kind,
    *,
    listed: bool = False,
) -> None:
    said = seen.text[start:end]
    if not said.strip():
        return
    start, end = seen.source(start, end)
    # a span that reaches across masked code or a heading is not a faithful quote
    if text[start:end] != prose[start:end]:
        return
    quotable = is_prose(said)
    # a list item too short to quote ("`<NAME>.py`") is still what its lead-in announces,
    # and a line stating a default ("Default: 4.") what a question for the default asks
    if quotable or (listed and not said.lstrip().startswith(("#", "|"))) or states_default(said):
        found.append(Unit(start, end, said, kind, quotable))


def _defined(found: list[Unit], text: str, masked: str, entry: re.Match[str]) -> bool:
    """A definition is an item read with its term ("`dict_tracebacks`: Uses …"): quoted
    alone, it would lose the name it defines, which is often what the question asks for."""
    start, end = entry.span()
    before = masked[:start].removesuffix("\n").rstrip(" \t")
    if before and not before.endswith("\n"):
        # a line under a paragraph is the paragraph's last line, not a term
        return False
    term = entry.group("term").strip().removesuffix(":").rstrip()
    body = " ".join(read(_DEFINES.sub("", entry.group("defs"))).split())
    said = f"{term}: {body}"
    if text[start:end] != entry.group(0):
        return False
    if not is_prose(body) and not (term and _WORD.search(_SPAN.sub("", body))):
        # a definition of a word or two ("3" then ": Restarting", an exit code's meaning) is
        # what its term means; one that is only a value (": `42`") says nothing of it
        return False
    found.append(Unit(start, end, said, "item"))
    return True


#: a line that is a code fence, backticks or tildes (not a MyST ":::" one: FENCE_LINE)
def _trimmed(block: str) -> str:
    """A fenced block without the indentation its fence lines share (a list's indent)."""
    lines = block.splitlines()
    indent = min((len(line) - len(line.lstrip()) for line in lines if line.strip()), default=0)
    return "\n".join(line[indent:] for line in lines)


def _is_table(table: re.Match[str]) -> bool:
    """Whether a match of :data:`_TABLE` is a table: a heading row with its outer pipes, or
    one with as many cells as the rule under it has columns (a line of prose with a pipe in
    it over a rule of dashes is not a heading row)."""
    head = table.group("head").strip()
    if head.startswith("|") and head.endswith("|"):
        return True
    return len(_cells(head)) == len(_cells(table.group("rule")))


def _rows(text: str, table: re.Match[str]) -> list[Unit]:
    """The body rows of a table, each read with its column headings (a headless run of rows,
    :data:`_HEADLESS`, is read as its cells)."""
    head = table.groupdict().get("head")
    heads = [] if head is None else _cells(head)
    found: list[Unit] = []
    at = table.start("body")
    for line in table.group("body").splitlines(keepends=True):
        cells = _cells(line)
        start, end = at + len(line) - len(line.lstrip()), at + len(line.rstrip())
        at += len(line)
        names = heads or [""] * len(cells)
        pairs = [(h, c) for h, c in zip(names, cells, strict=False) if c]
        if not pairs:
            continue
        if len(pairs) == 1:
            said = pairs[0][1]
        elif len(names) == 2:
            # two columns are a name and what it means; the headings add nothing
            said = f"{pairs[0][1]}: {pairs[1][1]}"
        else:
            said = _headed(pairs)
        if is_prose(said):
            found.append(Unit(start, end, said, "item"))
        elif len(pairs) > 1 and any(h for h, _ in pairs):
            # a row of values ("`~=1.2` | `>=1.2.0, <2.0.0`") is still a claim about its key,
            # which its headings put into words ("Clause `~=1.2` — Allowed versions: …")
            found.append(Unit(start, end, f"{pairs[0][0]} {_headed(pairs)}".strip(), "item"))
    return found


def _headed(pairs: Sequence[tuple[str, str]]) -> str:
    """A row as its key, then each other cell after its heading."""
    return pairs[0][1] + " — " + "; ".join(f"{h}: {c}" if h else c for h, c in pairs[1:])


def _cells(line: str) -> list[str]:
    """The cells of one table row, trimmed; pipes in code spans or escaped stay text."""
    line = line.strip()
    line = line.removeprefix("|")
    if line.endswith("|") and not line.endswith("\\|"):
        line = line[:-1]
    cells: list[str] = []
    last = 0
    for match in _CELL.finditer(line):
        if match.group(2) is not None:
            cells.append(line[last : match.start()].strip())
            last = match.end()
    cells.append(line[last:].strip())
    return [_cell_text(cell) for cell in cells]


def _cell_text(cell: str) -> str:
    """A cell as it reads: its line breaks and list items are a list of values, and its
    images (badges, icons) are no words of it."""
    cell = _CELL_BREAK.sub(", ", _IMAGE.sub("", cell))
    return " ".join(read(_CELL_LIST.sub("", cell)).split())
