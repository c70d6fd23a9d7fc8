"""An eighth development set (the Dapr operations documentation, ``tests/devset8``), held out
from all tuning and the first written for Hugo: Markdown sources for a Docsy site as they sit
in the project's repository (YAML front matter, ``{{< ref >}}`` links, ``{{% alert %}}``
admonitions, ``{{< tabs >}}``/``{{% codetab %}}`` tab sets with headings inside them, a
version shortcode inside commands), about a distributed application runtime run as a sidecar
on Kubernetes or self-hosted."""

from __future__ import annotations

from tests.pipeline.devset_eval import assert_held_out_shape
from tests.pipeline.devsets import DEVSETS

DEVSET8 = DEVSETS["devset8"].folder
URL_BASE = DEVSETS["devset8"].url_base


def test_the_eighth_devset_is_hugo_source_labelled_and_licensed() -> None:
    assert_held_out_shape(DEVSET8, URL_BASE)
    docs = DEVSET8 / "docs"
    assert not list(docs.rglob("*.html"))
    assert not list(docs.rglob("*.mdx"))
    # the pages are Hugo (Docsy) sources, not Markdown that any renderer reads the same way
    deploy = (docs / "operations/hosting/kubernetes/kubernetes-deploy.md").read_text(
        encoding="utf-8"
    )
    assert deploy.startswith("---\ntype: docs\ntitle: ")
    assert '{{< tabs "Dapr CLI" "Helm" >}}' in deploy
    assert "{{% codetab %}}\n## Install with Dapr CLI" in deploy
    assert '{{% alert title="Hybrid clusters" color="primary" %}}' in deploy
    assert "({{< ref install-dapr-cli.md >}})" in deploy
    upgrade = (docs / "operations/hosting/kubernetes/kubernetes-upgrade.md").read_text(
        encoding="utf-8"
    )
    assert '### Upgrade existing cluster to {{% dapr-latest-version long="true" %}}' in upgrade
    assert (docs / "operations/components/setup-pubsub/_index.md").is_file()
    assert "Attribution 4.0 International" in (DEVSET8 / "LICENSE").read_text(encoding="utf-8")
