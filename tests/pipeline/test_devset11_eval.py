"""An eleventh development set (the Vite documentation, ``tests/devset11``), held out from all
tuning: VitePress Markdown, with ``::: tip`` containers, ``::: code-group`` tabs of labelled
fences, a ``<script setup>`` block and Vue components on some pages, HTML comments for the
docs' authors and headings that name options with dots (``server.port``), about a JavaScript
build tool and dev server."""

from __future__ import annotations

from tests.pipeline.devset_eval import held_out_pages
from tests.pipeline.devsets import DEVSETS


def test_the_eleventh_devset_is_vitepress_markdown_labelled_and_licensed() -> None:
    docs = held_out_pages("devset11", ".md")
    assert "::: code-group" in (docs / "guide/build.md").read_text(encoding="utf-8")
    assert (docs / "guide/static-deploy.md").read_text(encoding="utf-8").startswith("<!--\n")
    assert (docs / "releases.md").read_text(encoding="utf-8").startswith("<script setup")
    licence = (DEVSETS["devset11"].folder / "LICENSE").read_text(encoding="utf-8")
    assert "MIT License" in licence
