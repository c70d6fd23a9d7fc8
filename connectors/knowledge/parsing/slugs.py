"""GitHub-style heading anchors, so a ``#fragment`` lands where GitHub and most doc sites put it."""

from __future__ import annotations

import re

__all__ = ["Slugger", "plain_heading", "slugify"]

# a link's target is ``<…>`` (which may hold parentheses) or runs to its closing
# parenthesis, past balanced ones (``https://en.wikipedia.org/wiki/Hook_(programming)``)
_LINK = re.compile(r"!?\[([^\]]*)\]\((?:[ \t]*<[^<>\n]*>[^)\n]*|(?:[^()]|\([^()]*\))*)\)")
_REF_LINK = re.compile(r"!?\[([^\]]*)\]\[[^\]]*\]")
_TAG = re.compile(r"<[^>]+>")
# a Liquid or Jinja tag or output ("{%- include badge.html -%}", "{{ site.title }}"), or a
# Hugo shortcode ("{{< badge >}}"): a template's, not the heading's words
_TEMPLATE = re.compile(r"\{%.*?%\}|\{\{.*?\}\}")
# GitHub keeps letters, marks, numbers, connector punctuation (_), hyphens and spaces.
_DROP = re.compile(r"[^\w\- ]", re.UNICODE)


def plain_heading(markdown: str) -> str:
    """The text a reader sees for a Markdown heading: no link targets, tags, template tags
    (a Jekyll heading's ``{% include version_badge.html %}``) or emphasis marks."""
    text = _TEMPLATE.sub("", markdown)
    text = _LINK.sub(r"\1", text)
    text = _REF_LINK.sub(r"\1", text)
    text = _TAG.sub("", text)
    text = re.sub(r"(\*\*|__|\*|`|~~)", "", text)
    return text.strip()


def slugify(text: str) -> str:
    return _DROP.sub("", text.strip().lower()).replace(" ", "-")


class Slugger:
    """Repeated headings get ``-1``, ``-2``… in document order, as GitHub does."""

    def __init__(self) -> None:
        self._seen: dict[str, int] = {}

    def reserve(self, anchor: str) -> None:
        """An explicit id already on the page; later slugs must not collide with it."""
        self._seen.setdefault(anchor, 0)

    def slug(self, text: str) -> str:
        base = slugify(text)
        slug = base
        while slug in self._seen:
            self._seen[base] += 1
            slug = f"{base}-{self._seen[base]}"
        self._seen.setdefault(slug, 0)
        return slug
