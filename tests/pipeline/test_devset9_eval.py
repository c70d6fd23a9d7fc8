"""A ninth development set (the Prometheus documentation, ``tests/devset9``), held out from
all tuning: Markdown pages from two repositories (prometheus/docs, and the server's own
``docs/`` under ``prometheus/latest/`` as the site serves them), with YAML front matter,
flag tables whose cells hold ``<code class="text-nowrap">`` HTML, long YAML configuration
references, and PromQL examples in indented code blocks, about a metrics monitoring server
and its query language."""

from __future__ import annotations

from tests.pipeline.devset_eval import assert_held_out_shape
from tests.pipeline.devsets import DEVSETS

DEVSET9 = DEVSETS["devset9"].folder
URL_BASE = DEVSETS["devset9"].url_base


def test_the_ninth_devset_is_prometheus_markdown_labelled_and_licensed() -> None:
    assert_held_out_shape(DEVSET9, URL_BASE)
    docs = DEVSET9 / "docs"
    assert not list(docs.rglob("*.html"))
    assert not list(docs.rglob("*.mdx"))
    assert all(p.suffix == ".md" for p in docs.rglob("*") if p.is_file())
    # two repositories' pages: the server's docs/ sit under prometheus/latest/ as on the site
    storage = (docs / "prometheus/latest/storage.md").read_text(encoding="utf-8")
    assert storage.startswith("---\ntitle: Storage\nsort_rank: 5\n---\n")
    assert "needed_disk_space = retention_time_seconds" in storage
    flags = (docs / "prometheus/latest/command-line/prometheus.md").read_text(encoding="utf-8")
    assert '| <code class="text-nowrap">--query.timeout</code> |' in flags
    faq = (docs / "introduction/faq.md").read_text(encoding="utf-8")
    assert "#### Is this cloud native?" in faq
    assert "Apache License" in (DEVSET9 / "LICENSE").read_text(encoding="utf-8")
    assert "Version 2.0, January 2004" in (DEVSET9 / "LICENSE").read_text(encoding="utf-8")
    assert (DEVSET9 / "NOTICE").is_file() and (DEVSET9 / "NOTICE.prometheus").is_file()
