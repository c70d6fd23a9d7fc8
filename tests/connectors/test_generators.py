"""Pages as other site generators write them, read as the page renders: VitePress
containers, and the built HTML of Docusaurus, Docsy and VitePress themes. The pages are written here in each generator's documented shapes, not
copied from any site."""

from __future__ import annotations

from connectors.knowledge.documents import Document
from connectors.knowledge.parsing import parse_bytes
from pipeline.units import tab_sets, units


def _read(text: str, kind: str = "markdown") -> Document:
    return parse_bytes(
        text.encode(), kind=kind, key="page", url="https://docs.example/page", fallback_title="page"
    )


def _said(text: str) -> list[str]:
    return [u.text for u in units(text) if u.kind != "code"]


def _code(text: str) -> list[str]:
    return [u.text for u in units(text) if u.kind == "code"]


def _labels(text: str) -> list[list[str]]:
    return [[tab.label for tab in group] for group in tab_sets(text)]


def _all(doc: Document) -> str:
    return "\n\n".join(s.text for s in doc.sections)


def test_a_vitepress_code_group_is_tabs_and_build_directives_are_not_text() -> None:
    page = (
        "# Getting Started {#start}\n\n## Installation\n\n[[toc]]\n\n::: code-group\n\n"
        "```sh [npm]\nnpm add -D gizmo\n```\n\n```sh [pnpm]\npnpm add -D gizmo\n```\n\n:::\n\n"
        "<<< @/snippets/config.js{2}\n\n::: tip Heads up\nGizmo needs Node 18.\n:::\n"
    )
    doc = _read(page)
    (section,) = doc.sections
    assert section.anchor == "installation"
    assert _labels(section.text) == [["npm", "pnpm"]]
    assert _code(section.text) == ["```sh\nnpm add -D gizmo\n```", "```sh\npnpm add -D gizmo\n```"]
    assert _said(section.text) == ["Gizmo needs Node 18."]


def test_a_vitepress_fence_naming_its_features_or_lines_keeps_its_label() -> None:
    page = (
        "## Library mode\n\nSet `build.lib`:\n\n::: code-group\n\n"
        "```js twoslash [vite.config.js (single entry)]\nexport default {}\n```\n\n"
        "```ts{2} [vite.config.ts]\nexport default {\n  build: {},\n}\n```\n\n:::\n"
    )
    (section,) = _read(page).sections
    assert _labels(section.text) == [["vite.config.js (single entry)", "vite.config.ts"]]
    assert _code(section.text)[0] == "```js\nexport default {}\n```"


def _html(main: str, *, around: str = "") -> str:
    return (
        "<html><head><title>Install | Gizmo</title></head><body>"
        f"<nav class='navbar'><a href='/docs'>Docs</a></nav>{around}<main>{main}</main>"
        "<footer class='footer'>Copyright 2026 Gizmo</footer></body></html>"
    )


def test_built_docusaurus_tabs_keep_their_labels() -> None:
    page = _html(
        "<article><div class='theme-doc-markdown markdown'><h2 id='data'>Data</h2>"
        "<div class='tabs-container tabList__x'><ul role='tablist' class='tabs'>"
        "<li role='tab' class='tabs__item tabs__item--active'>Linux</li>"
        "<li role='tab' class='tabs__item'>macOS</li></ul><div class='margin-top--md'>"
        "<div role='tabpanel' class='tabItem_y'><p>Data lives in <code>/var/lib/gizmo</code>.</p>"
        "</div><div role='tabpanel' class='tabItem_y' hidden><p>Data lives in "
        "<code>~/Library/gizmo</code>.</p></div></div></div></div></article>"
    )
    (section,) = _read(page, "html").sections
    assert _labels(section.text) == [["Linux", "macOS"]]
    assert "- Linux" not in section.text


def test_built_docsy_tabs_are_labelled_by_their_ids_and_page_meta_is_not_text() -> None:
    page = _html(
        "<div class='td-content'><h1>Install</h1><h2 id='data'>Data</h2>"
        "<ul class='nav nav-tabs' role='tablist'><li class='nav-item'><button class='nav-link"
        " active' role='tab' data-bs-toggle='tab' data-bs-target='#tabs-00-00' "
        "aria-controls='tabs-00-00'>Linux</button></li><li class='nav-item'><button "
        "class='nav-link' role='tab' aria-controls='tabs-00-01'>macOS</button></li></ul>"
        "<div class='tab-content'><div class='tab-body tab-pane fade show active' "
        "id='tabs-00-00' role='tabpanel'><p>Data lives in <code>/var/lib/gizmo</code>.</p>"
        "</div><div class='tab-body tab-pane fade' id='tabs-00-01' role='tabpanel'><p>Data "
        "lives in <code>~/Library/gizmo</code>.</p></div></div>"
        "<div class='td-page-meta__lastmod'>Last modified March 3, 2026</div></div>"
    )
    (section,) = _read(page, "html").sections
    assert _labels(section.text) == [["Linux", "macOS"]]
    assert "Last modified" not in section.text


def test_built_vitepress_code_group_and_custom_block() -> None:
    listing = (
        "<div class='language-sh vp-adaptive-theme'><button title='Copy Code' class='copy'>"
        "</button><span class='lang'>sh</span><pre class='shiki vp-code'><code>"
        "<span class='line'><span>{} add -D gizmo</span></span></code></pre></div>"
    )
    page = _html(
        "<div class='vp-doc'><h2 id='installation'>Installation</h2>"
        "<div class='vp-code-group'><div class='tabs'><input type='radio' id='t1' checked>"
        "<label data-title='npm' for='t1'>npm</label><input type='radio' id='t2'>"
        "<label data-title='pnpm' for='t2'>pnpm</label></div><div class='blocks'>"
        + listing.format("npm")
        + listing.format("pnpm")
        + "</div></div><div class='tip custom-block'><p class='custom-block-title'>Heads up</p>"
        "<p>Gizmo needs Node 18.</p></div></div>",
        around="<aside class='VPSidebar'><a href='/guide'>Guide</a></aside>",
    )
    (section,) = _read(page, "html").sections
    assert _labels(section.text) == [["npm", "pnpm"]]
    assert _code(section.text) == ["```sh\nnpm add -D gizmo\n```", "```sh\npnpm add -D gizmo\n```"]
    assert ":::{admonition} Heads up" in section.text
    assert _said(section.text) == ["Gizmo needs Node 18."]
