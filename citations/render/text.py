"""Plain text (console), Markdown footnotes and HTML."""

from __future__ import annotations

import html
from collections.abc import Callable, Collection

from citations.model import CitedAnswer
from citations.render.pieces import segment_pieces
from citations.render.safe import defang


def _same(text: str) -> str:
    return text


def _body(
    answer: CitedAnswer,
    allowed: Collection[str],
    *,
    link: Callable[[str, str], str],
    marker: Callable[[int, str], str],
    prose: Callable[[str], str] = _same,
    code: Callable[[str], str] = _same,
) -> str:
    pieces = segment_pieces(
        answer, allowed=allowed, prose=prose, code=code, link=link, marker=marker
    )
    return "".join(p.text for p in pieces).strip()


def render_text(answer: CitedAnswer, *, allowed_links: Collection[str] = ()) -> str:
    """The answer with ``[n]`` markers, then a numbered ``Sources`` list."""
    body = _body(
        answer,
        allowed_links,
        link=lambda label, url: f"{label} ({url})",
        marker=lambda n, url: f"[{n}]",
    )
    if not answer.references:
        return body
    lines = [f"[{ref.number}] {ref.title or ref.url} — {ref.url}" for ref in answer.references]
    return body + "\n\nSources\n" + "\n".join(lines)


def _md_label(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")
    return defang(escaped.replace("\n", " "))


def _md_url(url: str) -> str:
    return "<" + url.replace("<", "%3C").replace(">", "%3E").replace(" ", "%20") + ">"


def render_markdown(answer: CitedAnswer, *, allowed_links: Collection[str] = ()) -> str:
    """Markdown with footnote syntax: ``claim[^1]`` and ``[^1]: [Title](url)``."""
    body = _body(
        answer,
        allowed_links,
        link=lambda label, url: f"[{defang(label)}]({_md_url(url)})",
        marker=lambda n, url: f"[^{n}]",
        prose=defang,
    )
    if not answer.references:
        return body
    notes = [
        f"[^{ref.number}]: [{_md_label(ref.title or ref.url)}]({_md_url(ref.url)})"
        for ref in answer.references
    ]
    return body + "\n\n" + "\n".join(notes)


def render_html(answer: CitedAnswer, *, allowed_links: Collection[str] = ()) -> str:
    """An HTML fragment: escaped paragraphs, ``<sup>`` links, an ordered source list."""

    def prose(text: str) -> str:
        return html.escape(text, quote=False)

    def code(text: str) -> str:
        if text.startswith("`") and "\n" not in text.strip():
            return f"<code>{html.escape(text.strip('`').strip(), quote=False)}</code>"
        lines = text.split("\n")
        inner = "\n".join(lines[1:-1] if len(lines) > 2 else lines[1:])
        return f"<pre><code>{html.escape(inner, quote=False)}</code></pre>"

    body = _body(
        answer,
        allowed_links,
        prose=prose,
        code=code,
        link=lambda label, url: (
            f'<a href="{html.escape(url)}">{html.escape(label, quote=False)}</a>'
        ),
        marker=lambda n, url: f'<sup><a href="#cite-{n}">[{n}]</a></sup>',
    )
    paragraphs = [p for p in body.split("\n\n") if p.strip()]
    out = "\n".join(
        p if p.startswith("<pre>") else "<p>" + p.replace("\n", "<br>\n") + "</p>"
        for p in paragraphs
    )
    if not answer.references:
        return out
    items = "\n".join(
        f'<li id="cite-{ref.number}" value="{ref.number}"><a href="{html.escape(ref.url)}">'
        f"{html.escape(ref.title or ref.url, quote=False)}</a></li>"
        for ref in answer.references
    )
    return f'{out}\n<ol class="citations">\n{items}\n</ol>'
