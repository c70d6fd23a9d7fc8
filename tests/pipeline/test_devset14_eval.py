"""A fourteenth development set (the NATS documentation, ``tests/devset14``), held out until
session 28 (its misses are in ``ANALYSIS.md``): GitBook Markdown, with ``{% hint %}`` blocks,
``{% tabs %}``/``{% tab %}`` groups of the same code in a dozen languages, ``{% embed %}``
videos, ``README.md`` pages standing for their folders, GitBook's escapes (``host\\_a``) in
headings, wide reference tables and headings that repeat on a page, about a messaging system and
its JetStream persistence layer. The repository is under the Apache License 2.0 (``LICENSE``)."""

from __future__ import annotations

from tests.pipeline.devset_eval import held_out_pages
from tests.pipeline.devsets import DEVSETS


def test_the_fourteenth_devset_is_gitbook_markdown_labelled_and_licensed() -> None:
    docs = held_out_pages("devset14", ".md")
    pingpong = (docs / "using-nats/developing-with-nats/connecting/pingpong.md").read_text(
        encoding="utf-8"
    )
    assert "{% tabs %}" in pingpong and '{% tab title="Go" %}' in pingpong
    assert '{% hint style="warning" %}' in (docs / "nats-concepts/jetstream/streams.md").read_text(
        encoding="utf-8"
    )
    websocket = docs / "running-a-nats-service/configuration/websocket/websocket_conf.md"
    assert websocket.read_text(encoding="utf-8").startswith("---\ndescription:")
    assert (docs / "nats-concepts/jetstream/README.md").is_file()
    licence = (DEVSETS["devset14"].folder / "LICENSE").read_text(encoding="utf-8")
    assert "Apache License" in licence and "Version 2.0" in licence
