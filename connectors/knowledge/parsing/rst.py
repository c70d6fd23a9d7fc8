"""reStructuredText (Sphinx sources) read as the page Sphinx publishes from it.

docutils parses the source and writes HTML, which the HTML reader turns into the Markdown
it stands for, so sections, code, lists, tables, definition lists and admonitions come out
as from any other format, and each section's anchor is the ``<section id>`` docutils gives
it, as Sphinx does. Sphinx's own roles and directives are not docutils': each one a page
uses is read as Sphinx shows it (a cross-reference as its title, in code where Sphinx shows
code; ``code-block`` as a listing with its language; a version note with its text; an API
entry as its signature and description; tabs as tabs); a table of contents or an
``auto*`` directive, whose text is on other pages or in the code, is dropped. docutils
never reports: no system message reaches the text, nothing reaches stderr.

docutils is imported on first use, so a process that never reads reST never loads it.
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping
from html import escape
from typing import Any, cast

from connectors.knowledge.documents import Section

from .html import parse_html

__all__ = ["parse_rst", "section_labels"]

# roles whose text Sphinx shows as plain text (a link to a section, a page, a glossary entry)
_TEXT_ROLES = frozenset(
    {"ref", "doc", "term", "numref", "guilabel", "menuselection", "dfn", "abbr"}
)
_CALLS = frozenset({"func", "meth"})  # Sphinx adds "()" to their names
_EXPLICIT = re.compile(r"^(?P<title>.*?)\s*<(?P<target>[^<>]+)>$", re.DOTALL)
# directives whose content is code, shown as a listing
_CODE = frozenset(
    {"code-block", "sourcecode", "code", "testcode", "testoutput", "doctest", "prompt"}
)
# directives whose text is elsewhere (other pages, the code) or is no text
_DROPPED = frozenset(
    {
        "toctree", "highlight", "index", "currentmodule", "module", "py:module", "py:currentmodule",
        "literalinclude", "testsetup", "testcleanup", "automodule", "autoclass", "autofunction",
        "automethod", "autoattribute", "autodata", "autoexception", "autosummary", "autoprogram",
        "click", "argparse", "program", "default-role", "default-domain", "graphviz", "uml",
        "mermaid", "tabularcolumns", "sectionauthor", "moduleauthor", "codeauthor", "meta",
        "contents",
    }
)  # fmt: skip
# directives that show their argument as a line of text
_SHOWN = frozenset({"centered"})
_VERSIONS = {
    "versionadded": "Added in version {}",
    "versionchanged": "Changed in version {}",
    "deprecated": "Deprecated since version {}",
    "versionremoved": "Removed in version {}",
}
# an API entry (Sphinx domain object): its arguments are the signature
_OBJECT = re.compile(
    r"^(?:\w+:)?(?:function|class|method|attribute|data|exception|decorator|property|"
    r"classmethod|staticmethod|module|option|cmdoption|envvar|confval|describe|object|"
    r"setting|type|member|macro|var|struct|enum|enumerator|union)$"
)
_TABS = frozenset({"tabs", "tab-set"})
_TAB = frozenset({"tab", "group-tab", "tab-item", "code-tab"})
_ROLE_USE = re.compile(r"(?<![\w`]):(?P<name>[A-Za-z][\w:+.-]*):`")
_DIRECTIVE_USE = re.compile(r"^[ \t]*\.\.[ \t]+(?P<name>[A-Za-z][\w:+.-]*)::", re.M)
# docutils writes admonitions, topics and sidebars as ``aside``, which a page's own
# layout uses for its sidebars; they are boxes of the page here
_ASIDE = re.compile(r"<(/?)aside\b")
# labels (".. _label:" lines, blank lines between) and the heading after them: its text
# and underline, perhaps under an overline
_LABELLED = re.compile(
    r"(?P<labels>(?:^\.\.[ \t]+_[^:\n]+:[ \t]*\n(?:[ \t]*\n)*)+)"
    r"(?:[=\-~^\"'`#*+_.:]{3,}[ \t]*\n)?(?P<title>[^\s.][^\n]*)\n(?P<under>([=\-~^\"'`#*+_.:])\4{2,})[ \t]*$",
    re.M,
)
_LABEL_LINE = re.compile(r"^\.\.[ \t]+_([^:\n]+):", re.M)
# a heading's inline markup, which Sphinx shows as its text: ``code``, *emphasis*
_INLINE_MARKUP = re.compile(r"``|(?<!\w)[*]{1,2}|[*]{1,2}(?!\w)")
_SUBSTITUTION = re.compile(r"\|[^|\s][^|]*\|")


def parse_rst(
    text: str, fallback_title: str, labels: Mapping[str, str] | None = None
) -> tuple[str, tuple[Section, ...]]:
    """The sections of a reST page, as the HTML reader reads the page docutils writes;
    ``labels`` are the section titles other pages label (:func:`section_labels`), which a
    ``:ref:`` to them shows, as Sphinx does."""
    return parse_html(_html(text, labels or {}), fallback_title)


def section_labels(text: str) -> dict[str, str]:
    """The sections a reST page labels (``.. _label:`` right before a heading), each label
    (lower case, as Sphinx matches them) with the heading's text."""
    found: dict[str, str] = {}
    for match in _LABELLED.finditer(text):
        title = _INLINE_MARKUP.sub("", match["title"]).strip()
        for label in _LABEL_LINE.findall(match["labels"]):
            found[label.lower()] = title
    return found


def _html(text: str, labels: Mapping[str, str]) -> str:
    from docutils.core import publish_doctree, publish_from_doctree

    settings: dict[str, Any] = {
        "report_level": 5,  # no system message in the page
        "halt_level": 5,  # never stop on an error
        "warning_stream": io.StringIO(),
        "exit_status_level": 5,
        "traceback": False,
        "file_insertion_enabled": False,  # no ".. include::" of files around it
        # a heading that links back to a ".. contents::" list is read as that link, not as
        # the section's heading (docutils' default), so every heading under one came out empty
        "toc_backlinks": "none",
        "raw_enabled": False,
        "syntax_highlight": "none",
        "smart_quotes": False,
        "doctitle_xform": False,  # every section keeps its id and heading, as in Sphinx
        "initial_header_level": 1,
        "input_encoding": "unicode",
        "output_encoding": "unicode",
        "embed_stylesheet": False,
        "stylesheet_path": "",
        "_disable_config": True,
    }
    try:
        _register(text)
        doctree = publish_doctree(text, settings_overrides=settings)
        _shape(doctree, labels)
        page = publish_from_doctree(doctree, writer="html5", settings_overrides=settings)
    except Exception:  # a page docutils cannot read at all is read as plain text
        return f"<main><pre>{escape(text)}</pre></main>"
    html = page if isinstance(page, str) else page.decode("utf-8")
    body = html.find("<body")  # the head's <title> names the source ("<string>"), not the page
    return _ASIDE.sub(r"<\1div", html[body:] if body >= 0 else html)


def _register(text: str) -> None:
    """Handlers for the roles and directives ``text`` uses that docutils does not know."""
    from docutils.parsers.rst import directives, roles
    from docutils.parsers.rst.languages import en

    # known: docutils' own (its registries of built-ins, their English names); a handler
    # registered before is registered again, so that the one in use is this module's
    for name in {m["name"] for m in _ROLE_USE.finditer(text)}:
        key = name.lower()
        if key not in roles._role_registry and key not in en.roles:  # type: ignore[attr-defined]
            roles.register_local_role(key, cast("Any", _role))
    for name in {m["name"] for m in _DIRECTIVE_USE.finditer(text)}:
        key = name.lower()
        known = key in directives._directive_registry or key in en.directives  # type: ignore[attr-defined]
        if key in _CODE or key in _DROPPED or not known:
            directives.register_directive(key, _directive_for(key))


def _title(role: str, text: str) -> str:
    """What Sphinx shows for a cross-reference: its explicit title, or the target with
    ``~`` showing only its last part; a function's name with "()"."""
    text = text.strip()
    explicit = _EXPLICIT.match(text)
    if explicit and explicit["title"]:
        return explicit["title"]
    target = explicit["target"] if explicit else text
    target = target.lstrip("!")
    if target.startswith("~"):
        target = target[1:].rsplit(".", 1)[-1]
    leaf = role.rsplit(":", 1)[-1]
    if leaf == "doc":
        target = target.rstrip("/").rsplit("/", 1)[-1]
    if leaf in ("doc", "ref"):  # a name of a page or label stands for its title
        target = target.replace("-", " ").replace("_", " ")
    elif leaf == "abbr":
        target = target.split(" (", 1)[0]
    if leaf in _CALLS and not target.endswith(")"):
        target += "()"
    return target


def _role(
    name: str,
    rawtext: str,
    text: str,
    lineno: int,
    inliner: object,
    options: dict[str, Any] | None = None,
    content: list[str] | None = None,
) -> tuple[list[Any], list[Any]]:
    from docutils import nodes, utils

    shown = _title(name, utils.unescape(text))
    leaf = name.rsplit(":", 1)[-1]
    if leaf == "ref" and not _EXPLICIT.match(text.strip()):
        # the title of the section it labels, when that is on this page (see _shape)
        return [nodes.inline(rawtext, shown, classes=["ref"], reflabel=text.strip())], []
    if leaf in _TEXT_ROLES:
        return [nodes.inline(rawtext, shown)], []
    return [nodes.literal(rawtext, shown)], []


class _AnyOption(dict[str, Any]):
    """Every option a directive is given is accepted, whatever its name."""

    def __bool__(self) -> bool:
        # docutils reads a directive's options only when it has some to read; otherwise
        # ``:columns: 2`` under ``.. hlist::`` is taken for its argument
        return True

    def __missing__(self, key: str) -> Any:
        from docutils.parsers.rst import directives

        return directives.unchanged


def _directive_for(name: str) -> type:
    from docutils import nodes
    from docutils.parsers.rst import Directive

    class Handler(Directive):
        required_arguments = 0
        optional_arguments = 1
        final_argument_whitespace = True
        has_content = True
        option_spec = _AnyOption()

        def run(self) -> list[Any]:
            argument = self.arguments[0].strip() if self.arguments else ""
            if name in _DROPPED or name.rsplit(":", 1)[-1].startswith("auto"):
                return []
            if name in _CODE:
                return [_listing(argument, self.content)]
            if name in _VERSIONS:
                return self._version(argument)
            if _OBJECT.match(name):
                return self._entry(argument)
            if name in _TABS:
                box = nodes.container(classes=["sd-tab-set"])
                self.state.nested_parse(self.content, self.content_offset, box)
                return [box]
            if name in _TAB:
                panel = nodes.container(classes=["sd-tab-content"])
                if name == "code-tab":  # its argument is the listing's language
                    argument = argument.split()[0] if argument else ""
                    panel += _listing(argument, self.content)
                else:
                    self.state.nested_parse(self.content, self.content_offset, panel)
                label = f'<label role="tab">{escape(argument)}</label>'
                return [nodes.raw("", label, format="html"), panel]
            if name in _SHOWN:
                return [nodes.paragraph("", "", *self._inline(argument))]
            if argument and not self.content and name != "seealso":
                # a name with nothing to show: a target that a project's own directive
                # declares for cross-references (Celery's ".. setting:: task_acks_late")
                return []
            # any other directive keeps its content; its argument, if any, is its title
            # ("dropdown:: Details", "card:: Install"), as in a box; "see also" is titled
            # by its kind, and a one-line one's argument is what it says
            box = nodes.container(classes=["admonition", name.replace(":", "-")])
            if name == "seealso":
                box += nodes.paragraph("", "See also", classes=["admonition-title"])
                if argument:
                    box += nodes.paragraph("", "", *self._inline(argument))
            elif argument:
                box += nodes.paragraph(
                    "", "", *self._inline(argument), classes=["admonition-title"]
                )
            else:
                box["classes"].remove("admonition")
            self.state.nested_parse(self.content, self.content_offset, box)
            return [box]

        def _inline(self, text: str) -> list[Any]:
            """``text`` with its roles read ("See :ref:`x`")."""
            inline, _ = self.state.inline_text(text, self.lineno)
            return list(inline)

        def _version(self, argument: str) -> list[Any]:
            """As Sphinx shows it: "Added in version 2.1: " before its text."""
            version, _, rest = " ".join(argument.split()).partition(" ")
            box = nodes.container(classes=[name])
            self.state.nested_parse(self.content, self.content_offset, box)
            lead = _VERSIONS[name].format(version)
            if rest.strip():
                inline, _ = self.state.inline_text(rest.strip(), self.lineno)
                box.insert(0, nodes.paragraph("", "", nodes.Text(lead + ": "), *inline))
            elif box.children and isinstance(box[0], nodes.paragraph):
                box[0].insert(0, nodes.Text(lead + ": "))
            else:
                box.insert(0, nodes.paragraph("", lead + "."))
            return [box]

        def _entry(self, argument: str) -> list[Any]:
            entry = nodes.definition_list(classes=[name.replace(":", "-")])
            item = nodes.definition_list_item()
            for signature in argument.split("\n") if argument else [""]:
                term = nodes.term("", "", classes=["sig"])
                term += nodes.literal(signature.strip(), signature.strip())
                item += term
            definition = nodes.definition()
            self.state.nested_parse(self.content, self.content_offset, definition)
            item += definition
            entry += item
            return [entry]

    return Handler


def _empty_entry(entry: Any) -> bool:
    """Whether ``entry`` is an API entry (``_entry``) of signatures alone."""
    from docutils import nodes

    items = entry.children
    return (
        len(items) == 1
        and any("sig" in term["classes"] for term in items[0].findall(nodes.term))
        and not any(d.astext().strip() for d in items[0].findall(nodes.definition))
    )


def _listing(language: str, content: Any) -> Any:
    from docutils import nodes

    code = "\n".join(content)
    language = language.split()[0] if language.strip() else ""
    # "highlight-x", as Sphinx names a listing's language (docutils moves "language-x" to
    # an attribute the HTML reader does not read)
    classes = ["code"] + ([f"highlight-{language}"] if language else [])
    return nodes.literal_block(code, code, classes=classes)


def _shape(doctree: Any, labels: Mapping[str, str]) -> None:
    """What the HTML reader reads as a box or as code, and what Sphinx resolves: a
    reference to a section on this page as that section's title; admonitions as a box with a title
    (generic ones keep theirs, the others are titled by their kind, as Sphinx does), inline
    literals in ``code`` (docutils writes a ``span``)."""
    from docutils import nodes

    for ref in list(doctree.findall(nodes.inline)):
        label = ref.get("reflabel")
        target = doctree.ids.get(doctree.nameids.get(label.lower())) if label else None
        if isinstance(target, nodes.section) and isinstance(target[0], nodes.title):
            ref.replace_self(nodes.inline("", target[0].astext()))
        elif label and label.lower() in labels:
            ref.replace_self(nodes.inline("", labels[label.lower()]))
    for problem in list(doctree.findall(nodes.problematic)):
        text = problem.astext()
        # a substitution Sphinx defines (|version|, |today|) or the project's conf.py does:
        # its value is not in the page
        problem["ids"] = []  # what pointed at it are system messages, which are not shown
        problem.replace_self(nodes.Text("" if _SUBSTITUTION.fullmatch(text) else text))
    for entry in list(doctree.findall(nodes.definition_list)):
        # an entry with nothing to say that ends its section stands before the next
        # heading as the target a project's own directive declares for it (Celery's
        # ".. setting:: task_acks_late"), shown by Sphinx as nothing
        last = entry.parent is not None and entry.parent.children[-1] is entry
        if last and isinstance(entry.parent, nodes.section) and _empty_entry(entry):
            entry.parent.remove(entry)
    for field in list(doctree.findall(nodes.field)):
        if len(field) > 1 and not field[1].astext().strip():
            field.parent.remove(field)  # ":Release: |version|", its value gone
    for sidebar in list(doctree.findall(nodes.sidebar)):
        # a box beside the text in the page as published, not the page's own navigation
        # (the HTML reader drops an element classed "sidebar" as the site's chrome)
        box = nodes.container(classes=["admonition", "margin-note"])
        children = list(sidebar.children)
        if children and isinstance(children[0], nodes.title):
            box += nodes.paragraph("", children.pop(0).astext(), classes=["admonition-title"])
        box += [
            nodes.paragraph("", "", *c.children) if isinstance(c, nodes.subtitle) else c
            for c in children
        ]
        sidebar.replace_self(box)
    for literal in list(doctree.findall(nodes.literal)):
        if "code" not in literal["classes"]:
            literal["classes"].append("code")
    for admonition in list(doctree.findall(nodes.Admonition)):
        kind = type(admonition).__name__
        box = nodes.container(classes=["admonition", kind])
        children = list(admonition.children)
        if children and isinstance(children[0], nodes.title):
            title_text = children.pop(0).astext()
        else:
            title_text = kind.replace("_", " ").capitalize()
        box += nodes.paragraph("", title_text, classes=["admonition-title"])
        box += children
        admonition.replace_self(box)
