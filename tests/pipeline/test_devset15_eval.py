"""A fifteenth development set (the Jekyll documentation, ``tests/devset15``), held out from all
tuning: the kramdown Markdown sources of a Jekyll site, with YAML front matter giving each page
its title and permalink (or, for the tutorials, an author and a date), kramdown attribute lists
(``{: .note .info}``, ``{: #no-sudo}``) and inline heading ids (``{#installing-a-theme}``),
Liquid throughout (``{% raw %}`` around examples, ``{%- include docs_version_badge.html … -%}``
ending headings, tables filled by ``{% for %}`` loops over data files the set does not ship),
HTML ``<div class="note">`` boxes and a page opening on an empty front matter block, about a
static site generator. The repository is under the MIT License (``LICENSE``)."""

from __future__ import annotations

from tests.pipeline.devset_eval import held_out_pages
from tests.pipeline.devsets import DEVSETS


def test_the_fifteenth_devset_is_jekyll_kramdown_labelled_and_licensed() -> None:
    docs = held_out_pages("devset15", ".md")
    collections = (docs / "_docs/collections.md").read_text(encoding="utf-8")
    assert collections.startswith("---\ntitle: Collections\npermalink: /docs/collections/\n---")
    assert "{: .note .info}" in collections and "{% raw %}" in collections
    assert '{%- include docs_version_badge.html version="4.0" -%}' in collections
    themes = (docs / "_docs/themes.md").read_text(encoding="utf-8")
    assert "## Installing a gem-based theme {#installing-a-theme}" in themes
    assert "{% for setting in site.data.config_options.global %}" in (
        docs / "_docs/configuration/options.md"
    ).read_text(encoding="utf-8")
    assert (
        (docs / "_docs/rendering-process.md").read_text(encoding="utf-8").startswith("---\n---\n")
    )
    assert "author: tomjoht" in (docs / "_tutorials/navigation.md").read_text(encoding="utf-8")
    licence = (DEVSETS["devset15"].folder / "LICENSE").read_text(encoding="utf-8")
    assert "The MIT License (MIT)" in licence and "Tom Preston-Werner" in licence
