"""MDX and Docusaurus Markdown read as the published page reads (pages written for these
tests, shaped like a Docusaurus site's docs)."""

from __future__ import annotations

from pathlib import Path

from connectors.knowledge.documents import Document
from connectors.knowledge.parsing import kind_of, parse_bytes
from connectors.knowledge.parsing.mdx import looks_like_mdx, read_mdx
from connectors.knowledge.sources.folder import read_folder

PAGE = """\
---
id: deploying
title: Deploying your site
sidebar_label: Deploy
---

import Tabs from '@theme/Tabs';
import TabItem from '@theme/TabItem';
import {
  Highlight,
  Badge,
} from '@site/src/components';
export const toc = [{value: 'Build', id: 'build'}];

{/* TODO: rewrite once the CLI settles */}

Quill builds a static site that any host can serve.

## Building the site {#build}

Run the build command from the project root:

```bash title="terminal" showLineNumbers {1,3-4}
npm run build
```

<Tabs groupId="package-manager">
  <TabItem value="npm" label="npm" default>

    Use `npm run serve` to preview the build.

  </TabItem>
  <TabItem value="yarn" label="Yarn">

    Use `yarn serve` to preview the build.

  </TabItem>
</Tabs>

:::tip[Faster builds]

Set `QUILL_CACHE=1` to reuse the previous build's assets.

:::

:::warning Old browsers

The output targets browsers from the last two years.

:::

<details>
  <summary>Why is the build folder so large?</summary>

  Source maps are written next to each bundle.

</details>

The <Highlight color="#25c2a0">build folder</Highlight> is called `build/`.<Badge text="new" />
"""


def test_imports_exports_and_comments_are_not_text() -> None:
    read = read_mdx(PAGE)
    assert "import" not in read
    assert "export" not in read
    assert "TODO" not in read
    assert "{/*" not in read
    assert read.startswith("---\nid: deploying\n")  # front matter is the Markdown reader's


def test_tabs_read_as_tab_items_with_their_labels() -> None:
    read = read_mdx(PAGE)
    assert ":::{tab-item} npm\nUse `npm run serve` to preview the build.\n" in read.replace(
        "\n\n", "\n"
    )
    assert ":::{tab-item} Yarn\n" in read
    assert "<Tab" not in read and "</Tab" not in read
    # the children are dedented: MDX has no indented code, Markdown readers do
    assert "\n    Use" not in read


def test_tabs_declared_on_the_tab_set_take_their_labels_from_it() -> None:
    text = (
        "<Tabs\n  defaultValue=\"win\"\n  values={[\n    {label: 'Windows', value: 'win'},\n"
        "    {value: 'mac', label: 'macOS'},\n  ]}>\n"
        '<TabItem value="win">Press Ctrl+C.</TabItem>\n'
        '<TabItem value="mac">Press Cmd+C.</TabItem>\n</Tabs>\n'
    )
    lines = [line for line in read_mdx(text).splitlines() if line]
    assert lines == [
        ":::{tab-item} Windows",
        "Press Ctrl+C.",
        ":::",
        ":::{tab-item} macOS",
        "Press Cmd+C.",
        ":::",
    ]


def test_admonitions_read_as_myst_admonitions_with_their_title() -> None:
    read = read_mdx(PAGE)
    assert ":::{tip} Faster builds\n" in read
    assert ":::{warning} Old browsers\n" in read
    assert read_mdx("::: danger STOP\nDo not.\n:::\n") == ":::{danger} STOP\nDo not.\n:::\n"
    assert read_mdx(":::note\n\nPlain.\n\n:::\n") == ":::{note}\n\nPlain.\n\n:::\n"
    # a mkdocstrings directive is not an admonition
    assert read_mdx("::: quill.build.Site\n") == "::: quill.build.Site\n"


def test_details_read_as_an_admonition_titled_by_its_summary() -> None:
    read = read_mdx(PAGE)
    assert ":::{admonition} Why is the build folder so large?\n" in read
    assert "Source maps are written next to each bundle.\n\n:::" in read
    assert "<summary>" not in read and "<details>" not in read


def test_admonition_and_code_block_components() -> None:
    text = (
        '<Admonition type="caution" title="Breaking change">\n'
        "  The `out` option was renamed.\n"
        "</Admonition>\n\n"
        '<CodeBlock language="jsx" title="/src/App.js">\n'
        "{`function App() {\n  return <Banner />;\n}`}\n"
        "</CodeBlock>\n"
    )
    read = read_mdx(text)
    assert ":::{caution} Breaking change\nThe `out` option was renamed.\n" in read.replace(
        "\n\n", "\n"
    )
    assert "```jsx\nfunction App() {\n  return <Banner />;\n}\n```" in read


def test_inline_components_read_as_their_children() -> None:
    read = read_mdx(PAGE)
    assert "The build folder is called `build/`.\n" in read
    assert read_mdx("Use <Kbd>Ctrl</Kbd> + <Kbd>C</Kbd>.<br />\n") == "Use Ctrl + C.<br />\n"


def test_code_fence_meta_never_reaches_code_or_language() -> None:
    read = read_mdx(PAGE)
    assert "```bash\nnpm run build\n```" in read
    assert "showLineNumbers" not in read and "title=" not in read
    # code is left alone: JSX, imports and comments in a listing are its code
    listing = "```jsx\nimport React from 'react';\n{/* kept */}\n<Tabs>\n```\n"
    assert read_mdx(listing) == listing


def test_prose_that_starts_with_import_is_text() -> None:
    text = "Tests can\nimport your crates by name.\n\nimport the module first, then call it.\n"
    assert read_mdx(text) == text


def test_an_mdx_file_is_read_as_markdown_with_its_heading_ids_and_title() -> None:
    assert kind_of("docs/deploying.mdx") == "mdx"
    doc = parse_bytes(
        PAGE.encode(), kind="mdx", key="k", url="https://quill.dev/docs/deploying.mdx",
        fallback_title="Deploying",
    )  # fmt: skip
    assert doc.title == "Deploying your site"
    headed = {s.heading: s for s in doc.sections}
    assert headed["Building the site"].anchor == "build"
    assert "npm run serve" in headed["Building the site"].text
    assert "import" not in doc.sections[0].text


def test_sidebar_label_names_a_page_without_title_or_h1() -> None:
    text = "---\nsidebar_label: 'Quick start'\nsidebar_position: 2\n---\n\n## Install\n\nRun it.\n"
    doc = parse_bytes(text.encode(), kind="mdx", key="k", url="u", fallback_title="02 intro")
    assert doc.title == "Quick start"
    titled = "---\nsidebar_label: Short\n---\n\n# The long title\n\nText.\n"
    doc = parse_bytes(titled.encode(), kind="markdown", key="k", url="u", fallback_title="x")
    assert doc.title == "The long title"


def test_fence_languages_and_code_spans_survive() -> None:
    assert read_mdx("```jsx {1,4-6}\nx\n```\n") == "```jsx\nx\n```\n"
    assert read_mdx("```{1,3}\nx\n```\n") == "```\nx\n```\n"
    # a MyST directive's fence is the directive, not a language and its meta
    directive = "```{versionadded} 6.0\nThe option.\n```\n"
    assert read_mdx(directive) == directive
    # a placeholder in code is code, not a component
    text = "Set `QUILL_<NAME>_TOKEN` and `<Tabs>` for `<a.b>`.\n"
    assert read_mdx(text) == text


def test_a_folder_of_mdx_pages_is_read(tmp_path: Path) -> None:
    (tmp_path / "guides").mkdir()
    (tmp_path / "guides" / "deploying.mdx").write_text(PAGE)
    found = list(read_folder(tmp_path, url_base="https://quill.dev/docs/"))
    assert len(found) == 1 and isinstance(found[0], Document)
    assert found[0].url == "https://quill.dev/docs/guides/deploying.mdx"
    assert found[0].kind == "mdx"
    assert any(s.anchor == "build" for s in found[0].sections)


def test_a_markdown_page_of_an_mdx_site_reads_as_mdx_and_others_stay_verbatim() -> None:
    docusaurus = parse_bytes(
        PAGE.encode(), kind="markdown", key="k", url="u", fallback_title="Deploying"
    )
    joined = "\n\n".join(s.text for s in docusaurus.sections)
    assert "import" not in joined and ":::{tab-item} Yarn" in joined
    for text in (
        '# Setup\n\nSet `HATCH_<NAME>` to <VALUE>.\n\n```toml tab="pyproject.toml"\n[x]\n```\n',
        "# Tests\n\nTests can\nimport your crates by name.\n\n::: quill.build.Site\n",
        "# Code\n\n```js\nimport x from 'y';\n<Tabs>\n```\n",
    ):
        plain = parse_bytes(text.encode(), kind="markdown", key="k", url="u", fallback_title="x")
        assert plain.sections[0].text == text.strip()
    assert looks_like_mdx(":::note\nHi\n:::\n")
    assert looks_like_mdx("Text.\n\n<Tabs>\n</Tabs>\n")
    assert looks_like_mdx("export const meta = {};\n\n# Hi\n")
    assert not looks_like_mdx("Text with <HATCH_VERSION> and <b>bold</b>.\n")


def test_exact_readings_of_fences_front_matter_and_statements() -> None:
    # prose around a listing, each once; a fence closes only on its own kind and length
    assert read_mdx("A\n\n```\nx\n```\n\nB\n") == "A\n\n```\nx\n```\n\nB\n"
    nested = "````md\n```js\ninner\n```\n~~~\n````\n\nAfter.\n"
    assert read_mdx(nested) == nested
    assert read_mdx("Text.\n\n```python\nnever closed\n") == "Text.\n\n```python\nnever closed\n"
    # an import opening the page, and blank lines around what is left, are not text
    assert read_mdx("import X from './x';\n\n\n# Hi\n") == "# Hi\n"
    assert read_mdx("---\ntitle: T\n---\nimport X from 'x';\n\nBody.\n") == (
        "---\ntitle: T\n---\n\nBody.\n"
    )
    assert looks_like_mdx("```js\ncode\n```\n\n<Tabs>\n</Tabs>\n") is True
    assert looks_like_mdx("```js\nimport a from 'b';\n```\n") is False


def test_component_attributes_and_code_block_shapes() -> None:
    text = (
        "<Tabs>\n<TabItem value=\"y\" label={'Yarn'}>\nyarn\n</TabItem>\n</Tabs>\n\n"
        '<Admonition title={"Heads up"}>\nCareful.\n</Admonition>\n\n'
        '<CodeBlock className="language-yaml">\nkey: <Value>\n</CodeBlock>\n\n'
        '<CodeBlock language="jsx">{`<Foo>x</Foo>`}</CodeBlock>\n\n'
        'After the `code`<Badge text="new" /> and <Kbd>K</Kbd>.\n'
    )
    lines = [line for line in read_mdx(text).splitlines() if line]
    assert lines == [
        ":::{tab-item} Yarn",
        "yarn",
        ":::",
        ":::{note} Heads up",
        "Careful.",
        ":::",
        "```yaml",
        "key: <Value>",
        "```",
        "```jsx",
        "<Foo>x</Foo>",
        "```",
        "After the `code` and K.",
    ]


def test_nested_tab_sets_keep_their_own_labels() -> None:
    text = (
        "<Tabs values={[{label: 'Outer A', value: 'a'}, {label: 'Outer B', value: 'b'}]}>\n"
        '<TabItem value="a">\n'
        "<Tabs values={[{label: 'Inner C', value: 'c'}]}>\n"
        '<TabItem value="c">C</TabItem>\n</Tabs>\n</TabItem>\n'
        '<TabItem value="b">B</TabItem>\n</Tabs>\n'
    )
    labels = [line for line in read_mdx(text).splitlines() if line.startswith(":::{")]
    assert labels == [":::{tab-item} Outer A", ":::{tab-item} Inner C", ":::{tab-item} Outer B"]


def test_a_summary_is_read_once_and_children_keep_their_relative_indent() -> None:
    text = (
        "<details>\n<summary>Why <b>so</b> large?</summary>\n\nMaps.\n</details>\n\n"
        '<TabItem value="a">\n\n    - one\n        - nested\n    \n  text\n</TabItem>\n'
    )
    read = read_mdx(text)
    assert read.count("large?") == 1
    assert ":::{admonition} Why so large?\n\nMaps.\n\n:::" in read
    assert ":::{tab-item} a\n\n- one\n    - nested\n\ntext\n\n:::" in read


def test_a_listing_a_component_prop_renders_is_a_fenced_block() -> None:
    text = (
        "Start the server with one command:\n\n"
        "<ReleaseVersion\n"
        "  render={(version) => (\n"
        '    <CodeBlock className="language-bash">\n'
        "      {`podman run \\\\\n"
        "  -p 8080:8080 \\\\\n"
        "  acme/server:${version.tag} # prints \\`ready\\``}\n"
        "    </CodeBlock>\n"
        "  )}\n"
        "/>\n\n"
        'The server listens on port 8080.<Since version="2.1" />\n'
    )
    lines = [line for line in read_mdx(text).splitlines() if line]
    assert lines == [
        "Start the server with one command:",
        "```bash",
        "podman run \\",
        "  -p 8080:8080 \\",
        "  acme/server:${version.tag} # prints `ready`",
        "```",
        "The server listens on port 8080.",
    ]
