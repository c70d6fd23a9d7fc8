"""A tenth development set (the Traefik Proxy documentation, ``tests/devset10``), held out from
all tuning: Markdown pages of an MkDocs site with YAML front matter, option tables whose first
cells hold ``<a id="opt-…">`` HTML anchors, configuration examples as tabbed code fences
(```` ```yaml tab="Labels" ````), admonitions (``!!! info``, ``??? example``) and a Jinja
``{% include-markdown %}`` line on most pages, about a reverse proxy and load balancer."""

from __future__ import annotations

from tests.pipeline.devset_eval import assert_held_out_shape
from tests.pipeline.devsets import DEVSETS

DEVSET10 = DEVSETS["devset10"].folder
URL_BASE = DEVSETS["devset10"].url_base


def test_the_tenth_devset_is_traefik_markdown_labelled_and_licensed() -> None:
    assert_held_out_shape(DEVSET10, URL_BASE)
    docs = DEVSET10 / "docs"
    assert not list(docs.rglob("*.html"))
    assert not list(docs.rglob("*.mdx"))
    assert all(p.suffix == ".md" for p in docs.rglob("*") if p.is_file())
    # MkDocs pages: front matter, tabbed fences, option tables with HTML anchors, Jinja includes
    basicauth = (docs / "reference/routing-configuration/http/middlewares/basicauth.md").read_text(
        encoding="utf-8"
    )
    assert basicauth.startswith('---\ntitle: "Traefik BasicAuth Documentation"\n')
    assert '```yaml tab="Labels"' in basicauth
    assert '<a id="opt-realm" href="#opt-realm"' in basicauth
    assert '{% include-markdown "includes/traefik-for-business-applications.md" %}' in basicauth
    faq = (docs / "getting-started/faq.md").read_text(encoding="utf-8")
    assert "### `503 Service Unavailable`" in faq
    licence = (DEVSET10 / "LICENSE.md").read_text(encoding="utf-8")
    assert "The MIT License (MIT)" in licence
    assert "Traefik Labs" in licence
