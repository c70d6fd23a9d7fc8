from __future__ import annotations

import pytest

from connectors.knowledge.parsing import (
    UnreadableFile,
    parse_bytes,
    parse_html,
    parse_markdown,
    slugify,
)
from connectors.knowledge.parsing.slugs import Slugger
from tests.connectors.pdfs import make_pdf


@pytest.mark.parametrize(
    ("heading", "slug"),
    [
        ("Installing Acme", "installing-acme"),
        ("What's new in v2.0?", "whats-new-in-v20"),
        ("C++ & Rust: a comparison", "c--rust-a-comparison"),
        ("snake_case_names", "snake_case_names"),
        ("Émigré Café", "émigré-café"),
        ("  Trim me  ", "trim-me"),
    ],
)
def test_github_slugs(heading: str, slug: str) -> None:
    assert slugify(heading) == slug


def test_a_heading_link_whose_target_holds_parentheses_reads_as_its_text() -> None:
    # a text-fragment link in angle brackets, and a Wikipedia-style target
    _, sections = parse_markdown(
        "### [`data:`](<https://mdn.example/Sources#s:~:text=schemes%20(not%20recommended).-,"
        "data%3A>)\n\nInline assets need `data:`.\n\n"
        "## [Hooks](https://en.wikipedia.org/wiki/Hook_(programming)) in plugins\n\nText.\n",
        "fallback",
    )
    assert [(s.heading, s.anchor) for s in sections] == [
        ("data:", "data"),
        ("Hooks in plugins", "hooks-in-plugins"),
    ]


def test_a_comment_or_script_alone_is_no_section() -> None:
    # VitePress pages open with a "<script setup>" or a comment for the docs' authors
    for opening in ("<script setup>\nimport data from './x.data'\n</script>", "<!-- READ ME -->"):
        _, sections = parse_markdown(f"{opening}\n\n# Releases\n\nVite follows semver.\n", "t")
        assert [s.anchor for s in sections] == ["releases"]


def test_repeated_headings_get_numbered_suffixes() -> None:
    slugger = Slugger()
    assert [slugger.slug("FAQ") for _ in range(3)] == ["faq", "faq-1", "faq-2"]
    assert slugger.slug("faq 1") == "faq-1-1"


MARKDOWN = """---
title: Widget Guide
tags: [a]
---
Preamble line.

# Widget Guide

Welcome to widgets.

## Install `widget` on [Linux](https://example.com)

Run the installer.

```sh
# not a heading
echo hi
```

## Empty

## FAQ
First FAQ.

## FAQ
Second FAQ.

Setext style
------------
Body of setext.
"""


def test_markdown_sections_are_verbatim_slices_with_anchors() -> None:
    title, sections = parse_markdown(MARKDOWN, "fallback")
    assert title == "Widget Guide"
    assert [s.anchor for s in sections] == [
        None,
        "widget-guide",
        "install-widget-on-linux",
        "faq",
        "faq-1",
        "setext-style",
    ]
    for section in sections:
        assert MARKDOWN[section.start : section.end] == section.text
    install = sections[2]
    assert "# not a heading" in install.text  # fenced code stays in its section
    assert sections[2].heading == "Install widget on Linux"


def test_a_headings_attribute_list_gives_its_anchor_and_is_not_its_text() -> None:
    text = (
        "## Name (*required*) ## {: #name }\n\nThe project's name.\n\n"
        "## Lock file {#lock-file .wide}\n\nWhere the lock goes.\n\n"
        "## name\n\nA later heading whose slug the explicit id already took.\n\n"
        "## Sets in braces {curly}\n\nNot an attribute list.\n"
    )
    _, sections = parse_markdown(text, "f")
    assert [(s.heading, s.anchor) for s in sections] == [
        ("Name (required)", "name"),
        ("Lock file", "lock-file"),
        ("name", "name-1"),
        ("Sets in braces {curly}", "sets-in-braces-curly"),
    ]
    assert all(text[s.start : s.end] == s.text for s in sections)


def test_a_jekyll_pages_kramdown_ids_template_tags_and_empty_front_matter() -> None:
    text = (
        "---\n---\n\nFor any site, a build runs in phases.\n\n"
        "### Running as non-superuser (no sudo!)\n{: #no-sudo}\n\nInstall gems locally.\n\n"
        '## Custom sorting {%- include docs_version_badge.html version="4.0" -%}\n\n'
        "Sort by a field.\n\n"
        "## Upgrade to {{% dapr-latest-version %}}\n{: .wide}\n\nRun the upgrade.\n\n"
        "{: .note}\nA note under no heading of its own.\n"
    )
    title, sections = parse_markdown(text, "rendering-process")
    assert title == "Running as non-superuser (no sudo!)"  # no title and no h1: the first heading
    assert [(s.heading, s.anchor) for s in sections] == [
        ("", None),
        ("Running as non-superuser (no sudo!)", "no-sudo"),
        ("Custom sorting", "custom-sorting"),
        ("Upgrade to", "upgrade-to"),
    ]
    assert sections[0].text.startswith("For any site")
    assert "{: .note}" in sections[3].text  # a slice of the page, hidden when read
    assert all(text[s.start : s.end] == s.text for s in sections)


def test_markdown_title_falls_back_to_first_h1_then_name() -> None:
    assert parse_markdown("intro\n\n# Real Title\n\nbody", "f")[0] == "Real Title"
    assert parse_markdown("no headings at all", "File Name")[0] == "File Name"


def test_html_sections_use_ids_or_slugs_and_drop_chrome() -> None:
    html = """<html><head><title>Acme API</title><script>var x = 1;</script></head>
    <body><nav>Home | Docs</nav><main>
    <h1>Acme API</h1><p>The <b>Acme</b> API is REST.</p>
    <h2 id="auth">Authentication</h2><p>Send a bearer token.</p>
    <h2>Rate limits</h2><ul><li>100 requests</li><li>per minute</li></ul>
    </main><footer>(c) Acme</footer></body></html>"""
    title, sections = parse_html(html, "f")
    assert title == "Acme API"
    assert [(s.heading, s.anchor) for s in sections] == [
        ("Acme API", "acme-api"),
        ("Authentication", "auth"),
        ("Rate limits", "rate-limits"),
    ]
    joined = "\n\n".join(s.text for s in sections)
    for section in sections:
        assert joined[section.start : section.end] == section.text
    assert "var x" not in joined and "Home | Docs" not in joined and "(c) Acme" not in joined
    assert "The Acme API is REST." in sections[0].text


def test_pdf_pages_become_sections_with_page_numbers() -> None:
    data = make_pdf([["Page one text."], [], ["Page three text."]], title="Manual")
    doc = parse_bytes(data, kind="pdf", key="k", url="file:///m.pdf", fallback_title="m")
    assert doc.title == "Manual"
    assert [(s.page, s.text) for s in doc.sections] == [
        (1, "Page one text."),
        (3, "Page three text."),
    ]


@pytest.mark.parametrize(
    ("kind", "data", "needle"),
    [
        ("pdf", b"%PDF-1.4 this is not really a pdf", "not a readable PDF"),
        ("pdf", b"", "not a readable PDF"),
        ("markdown", b"\xff\xfe\x00\x00binary", "binary"),
        ("text", "caf\u00e9".encode("latin-1"), "not UTF-8"),
    ],
)
def test_corrupt_files_raise_unreadable(kind: str, data: bytes, needle: str) -> None:
    with pytest.raises(UnreadableFile, match=needle):
        parse_bytes(data, kind=kind, key="k", url="u", fallback_title="t")


def test_each_section_knows_the_headings_it_sits_under() -> None:
    # a heading with nothing under it is no section, but still a parent of those it holds
    markdown = (
        "# Storage\n\nIntro.\n\n## Backfilling from OpenMetrics\n\n### Usage\n\nRun create-blocks.\n"
        "\n## Backfilling for rules\n\n### Usage\n\nRun create-blocks-from rules.\n\n"
        "#### Limits\n\nOne at a time.\n\n## Limitations\n\nNone.\n"
    )
    _, sections = parse_markdown(markdown, "fallback")
    assert [(s.heading, s.parents) for s in sections] == [
        ("Storage", ()),
        ("Usage", ("Storage", "Backfilling from OpenMetrics")),
        ("Usage", ("Storage", "Backfilling for rules")),
        ("Limits", ("Storage", "Backfilling for rules", "Usage")),
        ("Limitations", ("Storage",)),
    ]
    html = (
        "<html><body><main><h1>Storage</h1><p>Intro.</p><h2>Backfilling from OpenMetrics</h2>"
        "<h3>Usage</h3><p>Run create-blocks.</p><h2>Backfilling for rules</h2><h3>Usage</h3>"
        "<p>Run it.</p></main></body></html>"
    )
    _, html_sections = parse_html(html, "fallback")
    assert [(s.heading, s.parents) for s in html_sections] == [
        ("Storage", ()),
        ("Usage", ("Storage", "Backfilling from OpenMetrics")),
        ("Usage", ("Storage", "Backfilling for rules")),
    ]
