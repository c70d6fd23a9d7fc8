"""A sixteenth development set (the mise documentation, ``tests/devset16``), held out from all
tuning: the VitePress Markdown of a command-line tool's guide, with ``::: code-group`` and
``::: tip`` containers, custom heading ids (``{#usage-field}``), pages opening on a
markdownlint comment, and ``<script setup>`` blocks that only import the Vue components
(``<Settings … />``) the site renders, about a tool that manages dev tools, environments and
tasks. The documentation is under the MIT License (``LICENSE``)."""

from __future__ import annotations

from tests.pipeline.devset_eval import held_out_pages
from tests.pipeline.devsets import DEVSETS


def test_the_sixteenth_devset_is_mise_vitepress_labelled_and_licensed() -> None:
    docs = held_out_pages("devset16", ".md")
    started = (docs / "getting-started.md").read_text(encoding="utf-8")
    assert started.startswith("<!-- markdownlint-disable MD034 -->\n\n# Getting Started")
    assert "::: code-group" in started and "::: tip" in started
    arguments = (docs / "tasks/task-arguments.md").read_text(encoding="utf-8")
    assert "### 1. Usage Field (Preferred) {#usage-field}" in arguments
    cargo = (docs / "dev-tools/backends/cargo.md").read_text(encoding="utf-8")
    assert "<script setup>\nimport Settings from '/components/settings.vue';" in cargo
    assert len([p for p in docs.rglob("*.md")]) == 49
    licence = (DEVSETS["devset16"].folder / "LICENSE").read_text(encoding="utf-8")
    assert licence.startswith("MIT License") and "Copyright (c) 2024 jdx" in licence
