"""An eleventh development set (the Vite documentation, ``tests/devset11``), held out from all
tuning: VitePress Markdown, with ``::: tip`` containers, ``::: code-group`` tabs of labelled
fences, a ``<script setup>`` block and Vue components on some pages, HTML comments for the
docs' authors and headings that name options with dots (``server.port``), about a JavaScript
build tool and dev server."""

from __future__ import annotations

from tests.pipeline.devset_eval import assert_held_out_shape
from tests.pipeline.devsets import DEVSETS

DEVSET11 = DEVSETS["devset11"].folder
URL_BASE = DEVSETS["devset11"].url_base


def test_the_eleventh_devset_is_vitepress_markdown_labelled_and_licensed() -> None:
    assert_held_out_shape(DEVSET11, URL_BASE)
    docs = DEVSET11 / "docs"
    assert all(p.suffix == ".md" for p in docs.rglob("*") if p.is_file())
    build = (docs / "guide/build.md").read_text(encoding="utf-8")
    assert "::: code-group" in build
    assert (docs / "guide/static-deploy.md").read_text(encoding="utf-8").startswith("<!--\n")
    assert (docs / "releases.md").read_text(encoding="utf-8").startswith("<script setup")
    licence = (DEVSET11 / "LICENSE").read_text(encoding="utf-8")
    assert "MIT License" in licence
