"""A seventh development set (the QuestDB documentation, ``tests/devset7``), held out from all
tuning and the first written for Docusaurus: Markdown and MDX sources as they sit in the
project's repository (front matter, ``:::note`` admonitions, ``import`` lines, JSX such as
``<Tabs>``/``<TabItem>`` and ``<Screenshot />``, code blocks with ``title=``), about a
time-series database written in Java, C++ and Rust."""

from __future__ import annotations

from tests.pipeline.devset_eval import assert_held_out_shape
from tests.pipeline.devsets import DEVSETS

DEVSET7 = DEVSETS["devset7"].folder
URL_BASE = DEVSETS["devset7"].url_base


def test_the_seventh_devset_is_docusaurus_source_labelled_and_licensed() -> None:
    assert_held_out_shape(DEVSET7, URL_BASE)
    docs = DEVSET7 / "docs"
    assert not list(docs.rglob("*.html"))
    # two pages are MDX proper; pages() counts them once the folder reader reads .mdx
    assert len(list(docs.rglob("*.mdx"))) == 2
    # the pages are Docusaurus sources, not Markdown that any renderer reads the same way
    overview = (docs / "configuration" / "overview.md").read_text(encoding="utf-8")
    assert overview.startswith("---\ntitle: Configuration\n")
    assert 'import Tabs from "@theme/Tabs"' in overview
    assert '<TabItem value="macos">' in overview
    assert ":::note" in overview
    assert '```ini title="server.conf"' in overview
    assert "<Screenshot" in (docs / "concepts" / "ttl.md").read_text(encoding="utf-8")
    assert "Apache License" in (DEVSET7 / "LICENSE.txt").read_text(encoding="utf-8")
