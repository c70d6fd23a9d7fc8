"""An HTML fragment as the Markdown a writer would have typed for it.

The pipeline reads documentation structure from Markdown (fenced code is never prose,
list items and table rows are units, admonition titles are not claims). A built page
has the same structure in its tags, so it is written back as that Markdown: ``<pre>``
as a fenced block with its language, lists as ``- `` items, tables as pipe rows,
``<dl>`` as ``term`` / ``: definition``, admonitions and tabs as MyST colon fences,
inline code in backticks, links as their text. Site generators differ in class names,
not in these shapes, so each rule reads a shape (a ``pre``, a title element inside a
box, a label per panel), never one generator's markup.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from bs4.element import NavigableString, Tag

__all__ = ["HEADINGS", "box_title", "is_permalink", "render", "text_of"]

HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_BLOCKS = frozenset(
    {
        "p", "div", "section", "article", "main", "header", "aside", "figure", "figcaption",
        "blockquote", "pre", "ul", "ol", "dl", "dt", "dd", "li", "table", "tr", "td", "th",
        "thead", "tbody", "tfoot", "hr", "details", "summary", "address", "fieldset", "center",
        "nav", "footer", "form", "caption", *HEADINGS,
    }
)  # fmt: skip
_INLINE_CODE = frozenset({"code", "kbd", "samp", "tt", "var"})
_SPACE = re.compile(r"[ \t\n\r\f\v\u00a0]+")
_LANGUAGE = re.compile(r"^(?:language|lang|highlight|sourceCode)-(?P<lang>[\w+#.-]+)$")
_NO_LANGUAGE = frozenset({"default", "none", "text", "plain", "plaintext", "notranslate"})
# a box with a title above its body: an admonition, a callout, a collapsible note
_BOX = re.compile(
    r"(?:^|[\s_-])(?:admonition|callout|alert|custom-block)(?:$|[\s_-])", re.IGNORECASE
)
_TITLE = re.compile(r"title|heading", re.IGNORECASE)
# a set of content tabs ("tabbed-set", "sd-tab-set", "tabs-container") and one tab's panel
# (VitePress' "vp-code-group" of labelled listings too)
_TAB_SET = re.compile(
    r"^(?:[\w-]*[_-])?(?:tabbed[_-]set|tab[_-]?set|tabs|tabs[_-]container|code[_-]group)$"
)
_TAB_PANEL = re.compile(r"tab(?:bed)?[_-]*(?:block|content|panel|pane)$", re.IGNORECASE)
# line numbers beside or inside a code listing are not the code
_LINE_NUMBERS = re.compile(r"^(?:linenos?|linenodiv|line-?numbers?|lineno)$", re.IGNORECASE)
# an API entry's term that is only a name or names ("maxConflicts", "--verbose, -v",
# "ACME_HOME"), not a signature with parameters, types or a prefix ("class Foo(x)")
_NAMES = re.compile(r"^[^\s(),`]+(?:, [^\s(),`]+)*$")
# a permalink's whole text: a pilcrow, a hash, a link or chain glyph, or nothing
_PERMALINK_TEXT = re.compile(r"^[\s¶#§🔗\u200b]*$")


def _classes(tag: Tag) -> list[str]:
    return [str(c) for c in tag.get_attribute_list("class") if c]


def is_permalink(tag: Tag) -> bool:
    """A link to its own place on the page that shows only a glyph ("¶", "#")."""
    href = str(tag.get("href") or "")
    return tag.name == "a" and href.startswith("#") and bool(_PERMALINK_TEXT.match(tag.get_text()))


def _is_block(tag: Tag) -> bool:
    return tag.name in _BLOCKS


def _inline(node: Tag | NavigableString, out: list[str]) -> None:
    """``node``'s text as a line of Markdown: runs of white space are one space, a ``<br>``
    breaks the line, code is in backticks, a link is its text."""
    if isinstance(node, NavigableString):
        if type(node) is NavigableString:  # not comments, CDATA, doctypes
            out.append(_SPACE.sub(" ", str(node)))
        return
    if node.name == "br":
        out.append("\n")
    elif node.name in _INLINE_CODE:
        out.append(_code_span(_SPACE.sub(" ", node.get_text())))
    elif node.name == "img" or (node.name == "a" and is_permalink(node)):
        return
    else:
        for child in node.children:
            if isinstance(child, Tag | NavigableString):
                _inline(child, out)


def _code_span(code: str) -> str:
    code = code.strip()
    if not code:
        return ""
    ticks = "`"
    while ticks in code:
        ticks += "`"
    pad = " " if code.startswith("`") or code.endswith("`") else ""
    return f"{ticks}{pad}{code}{pad}{ticks}"


def text_of(nodes: Iterable[Tag | NavigableString]) -> str:
    """The nodes' inline text, one paragraph: each line's spaces collapsed and trimmed."""
    out: list[str] = []
    for node in nodes:
        _inline(node, out)
    lines = (_SPACE.sub(" ", line).strip() for line in "".join(out).split("\n"))
    return "\n".join(line for line in lines if line)


def render(nodes: Iterable[Tag | NavigableString]) -> list[str]:
    """The blocks that ``nodes`` (siblings, in order) read as; runs of inline nodes between
    blocks are paragraphs."""
    blocks: list[str] = []
    run: list[Tag | NavigableString] = []

    def flush() -> None:
        paragraph = text_of(run)
        if paragraph:
            blocks.append(paragraph)
        run.clear()

    for node in nodes:
        if isinstance(node, Tag) and _is_block(node):
            flush()
            blocks.extend(_block(node))
        elif isinstance(node, Tag | NavigableString):
            run.append(node)
    flush()
    return blocks


def _children(tag: Tag) -> list[Tag | NavigableString]:
    return [c for c in tag.children if isinstance(c, Tag | NavigableString)]


def _block(tag: Tag) -> list[str]:
    name = tag.name
    if name == "pre":
        return [_fenced(tag)]
    if name in ("ul", "ol"):
        return _list(tag)
    if name == "dl":
        return _definitions(tag)
    if name == "table":
        return _table(tag)
    if box_title(tag) is not None:
        return _box(tag)
    if _is_listing(tag):
        return [_fenced(tag.find("pre"))]  # type: ignore[arg-type]
    tabs = _tabs(tag)
    if tabs is not None:
        return tabs
    return render(_children(tag))


def _is_listing(tag: Tag) -> bool:
    """A listing's wrapper ("div.language-sh" around a ``pre``): what it holds beside the
    listing is chrome, a language label or a copy button's text."""
    pres = tag.find_all("pre")
    return (
        len(pres) == 1
        and any(_LANGUAGE.match(c) for c in _classes(tag))
        and len(tag.get_text()) - len(pres[0].get_text()) <= 24
    )


def _language(pre: Tag) -> str:
    """The listing's language from its own classes, its ``code``'s, or its wrappers'
    (``language-python``, ``highlight-pycon``, ``lang-toml``)."""
    code = pre.find("code")
    candidates: list[Tag] = [pre] + ([code] if isinstance(code, Tag) else [])
    parent = pre.parent
    for _ in range(3):
        if not isinstance(parent, Tag):
            break
        candidates.append(parent)
        parent = parent.parent
    for tag in candidates:
        for cls in _classes(tag):
            found = _LANGUAGE.match(cls)
            if found and found["lang"].lower() not in _NO_LANGUAGE:
                return found["lang"].lower()
    return ""


def _code_text(pre: Tag) -> str:
    parts: list[str] = []

    def walk(node: Tag) -> None:
        for child in node.children:
            if isinstance(child, NavigableString):
                if type(child) is NavigableString:
                    parts.append(str(child))
            elif isinstance(child, Tag):
                if child.name == "br":
                    parts.append("\n")
                elif not any(_LINE_NUMBERS.match(c) for c in _classes(child)):
                    walk(child)

    walk(pre)
    lines = "".join(parts).replace("\u00a0", " ").replace("\r\n", "\n").split("\n")
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    return "\n".join(line.rstrip() for line in lines)


def _fenced(pre: Tag) -> str:
    code = _code_text(pre)
    fence = "```"
    while fence in code:
        fence += "`"
    return f"{fence}{_language(pre)}\n{code}\n{fence}"


def _indented(blocks: Sequence[str], lead: str) -> str:
    """``blocks`` as one list item or definition: ``lead`` before the first line, the rest
    indented under it, no blank line between (a blank line would end the item)."""
    pad = " " * len(lead)
    lines: list[str] = []
    for block in blocks:
        for line in block.split("\n"):
            lines.append(pad + line if line else "")
    lines = [line for line in lines if line.strip()]
    if not lines:
        return ""
    return lead + lines[0][len(pad) :] + "".join("\n" + line for line in lines[1:])


def _list(tag: Tag) -> list[str]:
    ordered = tag.name == "ol"
    start = str(tag.get("start") or "1")
    number = int(start) if start.isdigit() else 1
    items: list[str] = []
    for item in tag.find_all("li", recursive=False):
        lead = f"{number}. " if ordered else "- "
        text = _indented(render(_children(item)), lead)
        if text:
            items.append(text)
            number += 1
    return ["\n".join(items)] if items else []


def _is_code_term(term: Tag) -> bool:
    """An API entry's signature: a term marked as one, or whose words are all code."""
    if any(c.startswith("sig") for c in _classes(term)):
        return True
    words = _SPACE.sub("", term.get_text())
    code = "".join(_SPACE.sub("", c.get_text()) for c in term.find_all(_INLINE_CODE))
    return bool(words) and words == code


def _definitions(tag: Tag) -> list[str]:
    """Terms and definitions as a definition list (``term`` then ``: definition``); an API
    entry's signature as code, with its description under it."""
    blocks: list[str] = []
    entry: list[str] = []
    terms: list[str] = []

    def close() -> None:
        if entry:
            blocks.append("\n".join(entry))
            entry.clear()

    for child in tag.find_all(("dt", "dd"), recursive=False):
        if child.name == "dt":
            if _is_code_term(child):
                signature = text_of(_children(child)).replace("`", "")
                if _NAMES.match(signature):
                    # a setting's or an option's name: the term of its description, which
                    # says what it does only with the name ("Set to 0 to disable it.")
                    if not terms:
                        close()
                    terms.append(", ".join(f"`{n}`" for n in signature.split(", ")))
                    continue
                close()
                terms.clear()
                blocks.append(f"```\n{signature}\n```")
                continue
            if not terms:
                close()
            terms.append(text_of(_children(child)).replace("\n", " "))
            continue
        body = render(_children(child))
        if terms:
            entry.append(", ".join(t for t in terms if t))
            terms.clear()
        if entry:
            entry.append(_indented(body, ": "))
        else:
            blocks.extend(body)
    close()
    return [b for b in blocks if b]


def _cell(cell: Tag) -> str:
    text = " ".join(render(_children(cell))).replace("\n", " ")
    return text.replace("|", "\\|")


def _table(tag: Tag) -> list[str]:
    pre = tag.find_all("pre")
    if pre:
        return [_fenced(pre[-1])]  # a listing with a column of line numbers beside it
    rows: list[list[str]] = []
    head: list[str] | None = None
    for row in tag.find_all("tr"):
        if row.find_parent("table") is not tag:
            continue
        cells = [c for c in row.find_all(("th", "td"), recursive=False)]
        texts = [_cell(c) for c in cells]
        if head is None and not rows and cells and all(c.name == "th" for c in cells):
            head = texts
        elif any(texts):
            rows.append(texts)
    if head is None:
        if not rows:
            return []
        head, rows = rows[0], rows[1:]
    width = max(len(head), *(len(r) for r in rows)) if rows else len(head)
    lines = [head + [""] * (width - len(head)), ["---"] * width]
    lines += [r + [""] * (width - len(r)) for r in rows]
    caption = tag.find("caption")
    out = ["\n".join("| " + " | ".join(cells) + " |" for cells in lines)]
    return ([text_of(_children(caption))] if isinstance(caption, Tag) else []) + out


def box_title(tag: Tag) -> Tag | None:
    """A box's title element: the ``summary`` of a collapsible, or a first child named as a
    title or heading (``admonition-title``) inside an element named as a box."""
    if tag.name == "details":
        summary = tag.find("summary", recursive=False)
        return summary if isinstance(summary, Tag) else None
    if not _BOX.search(" ".join(_classes(tag))):
        return None
    first = tag.find(True, recursive=False)
    if isinstance(first, Tag) and any(_TITLE.search(c) for c in _classes(first)):
        return first
    return None


def _box(tag: Tag) -> list[str]:
    title = box_title(tag)
    body = [c for c in _children(tag) if c is not title]
    label = text_of(_children(title)).replace("\n", " ") if title is not None else ""
    inner = render(body)
    if not inner:
        return [label] if label else []
    return [f":::{{admonition}} {label}".rstrip(), *inner, ":::"]


def _tabs(tag: Tag) -> list[str] | None:
    """A tab set (one label per panel, in order) as MyST tab items; ``None`` if ``tag`` is
    not one."""
    if not any(_TAB_SET.match(c) for c in _classes(tag)):
        return None
    labels = [
        t
        for t in tag.find_all(True)
        if (t.name == "label" or str(t.get("role", "")) == "tab") and _owned(t, tag)
    ]
    found = [t for t in tag.find_all(True) if _is_panel(t) and _owned(t, tag)]
    # a panel wrapping the panels ("tabbed-content" around each "tabbed-block") is not one;
    # a group of listings has no panels, each listing is one
    panels = [p for p in found if not any(q is not p and p in q.parents for q in found)]
    panels = panels or [p for p in tag.find_all("pre") if _owned(p, tag)]
    if len(labels) < 2 or len(labels) != len(panels):
        return None
    blocks: list[str] = []
    for label, panel in zip(labels, panels, strict=True):
        blocks.append(f":::{{tab-item}} {text_of(_children(label))}".rstrip())
        blocks.extend(render([panel] if panel.name == "pre" else _children(panel)))
        blocks.append(":::")
    return blocks


def _is_panel(tag: Tag) -> bool:
    if str(tag.get("role", "")) == "tabpanel":
        return True
    return any(_TAB_PANEL.search(c) for c in _classes(tag))


def _owned(tag: Tag, tabs: Tag) -> bool:
    """Whether ``tag`` belongs to this tab set, not to a set nested in it (a list of the
    set's own labels, "ul.tabs", is named like a set but holds no panel)."""
    parent = tag.parent
    while isinstance(parent, Tag) and parent is not tabs:
        if any(_TAB_SET.match(c) for c in _classes(parent)) and (
            parent.find(_is_panel) is not None or parent.find("pre") is not None
        ):
            return False
        parent = parent.parent
    return True
