"""A sixth development set (the Syncthing documentation, ``tests/devset6``), held out from all
tuning and the first of built HTML: 53 pages as Sphinx and the alabaster theme generate them,
site chrome included (sidebar navigation, search box, "Edit this page" footer), with ``¶``
permalinks in every heading, ``<section id>`` anchors, admonitions and a configuration
reference of ``<dt>``/``<dd>`` options, about a file synchronisation service written in Go."""

from __future__ import annotations

from tests.pipeline.devset_eval import assert_held_out_shape
from tests.pipeline.devsets import DEVSETS

DEVSET6 = DEVSETS["devset6"].folder
URL_BASE = DEVSETS["devset6"].url_base


def test_the_sixth_devset_is_built_html_labelled_and_licensed() -> None:
    assert_held_out_shape(DEVSET6, URL_BASE)
    assert not list((DEVSET6 / "docs").rglob("*.md"))
    # the pages are as a site serves them: the generator's chrome is still around the content
    page = (DEVSET6 / "docs" / "users" / "faq.html").read_text(encoding="utf-8")
    assert 'class="sphinxsidebar" role="navigation"' in page
    assert 'class="headerlink"' in page
    assert "Creative Commons Attribution 4.0" in (DEVSET6 / "LICENSE.txt").read_text("utf-8")
