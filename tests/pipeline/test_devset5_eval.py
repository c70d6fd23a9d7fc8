"""A fifth development set (the Cargo Book, ``tests/devset5``), held out from all tuning:
mdBook Markdown (``> **Note**:`` quotes, ``{#id}`` heading ids, long reference pages with deep
heading trees, command pages whose options are raw HTML), about a Rust tool, where devset4 is
mkdocs-material and devset3 MyST."""

from __future__ import annotations

from tests.pipeline.devset_eval import assert_held_out_shape
from tests.pipeline.devsets import DEVSETS

DEVSET5 = DEVSETS["devset5"].folder
URL_BASE = DEVSETS["devset5"].url_base


def test_the_fifth_devset_is_labelled_and_licensed() -> None:
    assert_held_out_shape(DEVSET5, URL_BASE)
    assert not list((DEVSET5 / "docs").rglob("*.html"))
    assert (DEVSET5 / "LICENSE-MIT").is_file()
    assert (DEVSET5 / "LICENSE-APACHE").is_file()
