"""MDX (Docusaurus, Nextra, Astro Starlight pages) as the Markdown its page reads as.

An MDX page is Markdown with JavaScript in it: ``import``/``export`` statements,
``{/* comments */}`` and JSX elements. None of the code is text; a component's children
are. Components that have a Markdown shape become that shape, as the HTML reader writes
them: ``<Tabs>``/``<TabItem label=…>`` are MyST tab items, ``<Admonition type=…>`` and
``<details>``/``<summary>`` are admonitions with their title, ``<CodeBlock language=…>`` is a
fenced block, also where a component's prop renders it (``renderText={(release) =>
(<CodeBlock>{`…${release.name}`}</CodeBlock>)}``, its placeholders kept as written). Docusaurus' own Markdown extensions read the same way: ``:::note[Title]``
(and VitePress' ``::: tip Title``) is a MyST admonition, a code fence keeps its language and
drops its meta (``title="src/app.js" showLineNumbers {1,3-4}``), and VitePress' ``::: code-group``
of labelled blocks (```` ```sh [npm] ````) is a set of tabs. What is left is Markdown,
read like any other page; offsets are into this reading.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from .markdown import FRONT_MATTER

__all__ = ["looks_like_mdx", "read_mdx"]

# a code fence, at any indentation (MDX has no indented code, so a fence inside a
# component's indented children is still a fence): its marker, language and meta
_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^\n]*?)[ \t]*$")
# an import or export statement (ESM): not indented, and it runs to a blank line
_ESM = re.compile(
    r"^(?:import[ \t]+(?:[\w$*{][^\n]*?[ \t]from[ \t]*)?['\"]"
    r"|import[ \t]*\{|export[ \t]+(?:default|const|let|var|function|class|async|\{|\*)\b)"
)
# a VitePress code group's label for a block ("```sh [npm]"): the block is its tab
# (after the language, a VitePress fence may name its features and lines: "```js twoslash
# [vite.config.js]", "```ts{2,4} [main.ts]")
_LABEL = re.compile(r"^[\w+#.-]*(?:\{[^}\n]*\})?(?:[ \t]+[\w+#.:-]+)*[ \t]*\[(?P<label>[^\]\n]+)\]")
# a code span: its text is code, never a tag
_CODE_SPAN = re.compile(r"(?<!`)(?P<ticks>`+)(?!`).+?(?<!`)(?P=ticks)(?!`)")
_COMMENT = re.compile(r"\{[ \t\n]*/\*.*?\*/[ \t\n]*\}", re.DOTALL)
# an attribute's value: a string, or an expression in braces (nested up to three deep)
_VALUE = r"\"[^\"]*\"|'[^']*'|\{(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*\}"
# a JSX tag: a component (capitalised or dotted name), a fragment, or one of the HTML
# elements that a component library gives a Markdown shape (details, summary)
_TAG = re.compile(
    r"<(?P<close>/)?(?P<name>[A-Z][\w.]*|[a-z]+\.[\w.]+|details|summary|)"
    rf"(?P<attrs>(?:\s+[^\s=/>{{}}\"']+(?:\s*=\s*(?:{_VALUE}))?|\s*\{{[^{{}}]*\}})*)"
    r"\s*(?P<self>/)?>"
)
_ANY_TAG = re.compile(r"<[^>]*>")
# a string attribute: quoted, or a string expression in braces (label={'Yarn'})
_STRING = re.compile(r"(['\"])(?P<text>.*)\1|\{\s*(['\"`])(?P<braced>.*)\3\s*\}", re.DOTALL)
_ATTR = re.compile(rf"(?P<key>[\w:-]+)\s*=\s*(?P<value>{_VALUE})")
# the tabs a <Tabs values={[{label: 'Windows', value: 'win'}, …]}> declares
_TAB_VALUE = re.compile(
    r"\{[^{}]*?\blabel\s*:\s*(?P<q1>['\"])(?P<label>.*?)(?P=q1)[^{}]*?\bvalue\s*:\s*"
    r"(?P<q2>['\"])(?P<value>.*?)(?P=q2)[^{}]*\}"
    r"|\{[^{}]*?\bvalue\s*:\s*(?P<q3>['\"])(?P<value2>.*?)(?P=q3)[^{}]*?\blabel\s*:\s*"
    r"(?P<q4>['\"])(?P<label2>.*?)(?P=q4)[^{}]*\}"
)
# a Docusaurus or VitePress container: ":::note", ":::tip[Title]", "::: warning Title"
_CONTAINER = re.compile(
    r"^(?P<indent>[ \t]*)(?P<colons>:{3,})[ \t]*(?P<kind>note|tip|info|warning|danger|caution"
    r"|important|success|secondary|details|code-group)(?:\[(?P<bracket>[^\]\n]*)\]|[ \t]+(?P<title>[^\n]*?))?"
    r"[ \t]*(?:\{[^}\n]*\})?[ \t]*$",
    re.IGNORECASE,
)
# a component's tag opening a line ("<Tabs>", "</TabItem>", "<Admonition type=…>"): named in
# PascalCase, unlike an HTML element or a placeholder ("<NAME>")
_COMPONENT_LINE = re.compile(r"^[ \t]*</?[A-Z][a-z]\w*(?:[\s/>]|$)")
# a <CodeBlock> element written in a component's prop (a render function's result)
_PROP_LISTING = re.compile(r"<CodeBlock\b.*?</CodeBlock\s*>", re.S)
_LITERAL_END = re.compile(r"`\s*\}\s*$")
_ESCAPE = re.compile(r"\\([\\`$])")
_TEMPLATE_START = re.compile(r"[ \t]*\n?(?:[ \t]*\{\s*`\n?)?")
_OPEN, _CLOSE = "\x00open ", "\x00close"
_BLANKS = re.compile(r"\n(?:[ \t]*\n){2,}")
_LEADING_BLANKS = re.compile(r"\A(?:[ \t]*\n){2,}")


@dataclass(slots=True)
class _Tabs:
    labels: dict[str, str]


def read_mdx(text: str) -> str:
    """``text`` (MDX or Docusaurus Markdown) as the Markdown its page reads as."""
    front = FRONT_MATTER.match(text)
    head, body = (text[: front.end()], text[front.end() :]) if front else ("", text)
    out: list[str] = []
    for code, part in _parts(body):
        out.append(part if code else _LEADING_BLANKS.sub("\n", _prose(part)))
    return head + ("\n" if head else "") + _dedent("".join(out)).strip("\n") + "\n"


def looks_like_mdx(text: str) -> bool:
    """Whether a Markdown page is written for an MDX site (Docusaurus reads ``.md`` files
    as MDX too): outside its code, a line is an import or export, a component's tag, or a
    Docusaurus/VitePress container."""
    for code, part in _parts(text):
        if code:
            continue
        for line in part.splitlines():
            if _ESM.match(line) or _COMPONENT_LINE.match(line) or _CONTAINER.match(line):
                return True
    return False


def _parts(text: str) -> Iterator[tuple[bool, str]]:
    """The text cut into prose and fenced code (``True``), each fence line cut to its
    language; a fence opened and never closed runs to the end."""
    lines = text.splitlines(keepends=True)
    prose: list[str] = []
    i = 0
    while i < len(lines):
        opened = _FENCE.match(lines[i])
        if opened is None:
            prose.append(lines[i])
            i += 1
            continue
        label = _LABEL.search(opened["info"])
        yield False, "".join(prose) + (f"\n:::{{tab-item}} {label[1]}\n" if label else "")
        prose.clear()
        if label:
            prose.append(":::\n")
        marker = opened["fence"]
        code = [f"{opened['indent']}{marker}{_language(opened['info'])}\n"]
        i += 1
        while i < len(lines):
            line = lines[i]
            i += 1
            closing = _FENCE.match(line)
            if closing is not None and _closes(closing, marker):
                code.append(f"{closing['indent']}{closing['fence']}\n")
                break
            code.append(line)
        yield True, "".join(code)
    yield False, "".join(prose)


def _language(info: str) -> str:
    """A fence's language without its meta; a MyST directive's fence is left whole."""
    if re.match(r"\{[A-Za-z]", info):
        return info
    language = info.split("{", 1)[0].split()
    return language[0] if language else ""


def _closes(line: re.Match[str], marker: str) -> bool:
    fence = line["fence"]
    return fence[0] == marker[0] and len(fence) >= len(marker) and not line["info"]


def _prose(text: str) -> str:
    text = _COMMENT.sub("", text)
    text = _drop_esm(text)
    text = _BLANKS.sub("\n\n", _tags(text))
    return "".join(_container(line) for line in text.splitlines(keepends=True))


def _drop_esm(text: str) -> str:
    kept: list[str] = []
    statement = False
    blank = True  # a statement starts a block: the file's start or after a blank line
    for line in text.splitlines(keepends=True):
        if statement:
            statement = bool(line.strip())
            if statement:
                continue
        elif blank and _ESM.match(line):
            statement = True
            continue
        blank = not line.strip()
        kept.append(line)
    return "".join(kept)


def _attrs(source: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for match in _ATTR.finditer(source):
        value = match["value"]
        string = _STRING.fullmatch(value)
        found[match["key"]] = (string["text"] or string["braced"] or "") if string else value
    return found


def _tags(text: str) -> str:
    """Components as the Markdown they stand for, or as their children."""
    out: list[str] = []
    at = 0
    tabs: list[_Tabs] = []
    code = False  # inside a <CodeBlock>: its text is code, its braces a template literal
    details: int | None = None  # where an open <details>' marker waits for its summary
    spans = [m.span() for m in _CODE_SPAN.finditer(text)]
    for tag in _TAG.finditer(text):
        if tag.start() < at or any(a <= tag.start() < b for a, b in spans):
            continue  # inside a summary already read, or code
        name, attrs = tag["name"], _attrs(tag["attrs"] or "")
        closing, lone = bool(tag["close"]), bool(tag["self"])
        if code and not (name == "CodeBlock" and closing):
            continue  # a listing's tags are its code
        between = text[at : tag.start()]
        out.append(between)
        at = tag.end()
        if between.strip():
            details = None
        if name == "Tabs" and not lone:
            if closing:
                if tabs:
                    tabs.pop()
            else:
                values = {
                    m["value"] or m["value2"]: m["label"] or m["label2"]
                    for m in _TAB_VALUE.finditer(tag["attrs"] or "")
                }
                tabs.append(_Tabs(values))
        elif name == "TabItem" and not lone:
            if closing:
                out.append(f"\n{_CLOSE}\n")
            else:
                value = attrs.get("value", "")
                known = tabs[-1].labels if tabs else {}
                label = attrs.get("label") or known.get(value) or value
                out.append(f"\n{_OPEN}tab-item {label}\n")
        elif name == "Admonition" and not lone:
            if closing:
                out.append(f"\n{_CLOSE}\n")
            else:
                kind = (attrs.get("type") or "note").lower()
                out.append(f"\n{_OPEN}{kind} {attrs.get('title', '')}\n")
        elif name == "details" and not lone:
            out.append(f"\n{_CLOSE}\n" if closing else f"\n{_OPEN}admonition \n")
            details = None if closing else len(out) - 1
        elif name == "summary" and not lone and not closing:
            source, found, _ = text[at:].partition("</summary>")
            if found:
                summary = " ".join(_ANY_TAG.sub("", source).split())
                if details is not None:
                    out[details] = out[details][:-1] + summary + "\n"
                else:
                    out.append(summary)
                at += len(source) + len(found)
            details = None
        elif _PROP_LISTING.search(tag["attrs"] or ""):
            # a prop that renders a listing: renderText={(r) => (<CodeBlock>…</CodeBlock>)}
            for listing in _PROP_LISTING.finditer(tag["attrs"] or ""):
                out.append(f"\n{_tags(listing.group())}\n")
        elif name == "CodeBlock" and not lone:
            if closing:
                if code:
                    body = out[-1].rstrip()
                    literal = _LITERAL_END.search(body)
                    if literal:  # a template literal's escapes are one character each
                        body = _ESCAPE.sub(r"\1", body[: literal.start()])
                    out[-1] = body + "\n```\n"
                code = False
            else:
                code = True
                language = attrs.get("language") or attrs.get("className", "").removeprefix(
                    "language-"
                )
                out.append(f"\n```{language}\n")
                at = _skip_template_start(text, at)
    out.append(text[at:])
    return "".join(out)


def _skip_template_start(text: str, at: int) -> int:
    """Past the line break after a ``<CodeBlock>`` tag and the ``{`` that opens its
    template literal, if any."""
    start = _TEMPLATE_START.match(text, at)
    return start.end() if start else at


def _container(line: str) -> str:
    """A Docusaurus or VitePress container's opening line as a MyST admonition's."""
    match = _CONTAINER.match(line)
    if match is None:
        return line
    title = match["bracket"] if match["bracket"] is not None else (match["title"] or "")
    kind = match["kind"].lower()
    if kind == "code-group":  # VitePress: its labelled blocks are tabs
        kind = "tab-set"
    return f"{match['indent']}{match['colons']}{{{kind}}} {title}".rstrip() + "\n"


def _dedent(text: str) -> str:
    """The markers as MyST fence lines, each body dedented by its first line's indentation
    (JSX children are indented for the code's sake, not the Markdown's)."""
    out: list[str] = []
    cuts: list[int | None] = []
    for line in text.split("\n"):
        stripped = line.strip()
        if stripped.startswith(_OPEN):
            out.append(":::{" + stripped[len(_OPEN) :].replace(" ", "} ", 1).rstrip())
            cuts.append(None)
            continue
        if stripped == _CLOSE:
            out.append(":::")
            if cuts:
                cuts.pop()
            continue
        if cuts and stripped:
            if cuts[-1] is None:
                cuts[-1] = len(line) - len(line.lstrip(" \t"))
            cut = min(cuts[-1] or 0, len(line) - len(line.lstrip(" \t")))
            line = line[cut:]
        out.append(line.rstrip() if not stripped else line)
    return "\n".join(out)
