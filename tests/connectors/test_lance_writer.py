"""The store written with ``lance`` against the table LlamaIndex's LanceDB adapter writes."""

from __future__ import annotations

from pathlib import Path

import pytest

from connectors.knowledge.chunking import Chunk
from connectors.knowledge.store.lance_writer import LanceWriter, search_text
from connectors.knowledge.store.nodes import embed_text, node_metadata


def _chunks() -> list[Chunk]:
    return [
        Chunk(
            text="Refunds are paid back within 14 days — «vite», 払い戻し.\n\nSee `refund()`.",
            url="https://docs.example.com/billing.md#refunds",
            title="Billing › Refunds",
            document_key="billing.md",
            collection="public",
            kind="markdown",
            start=120,
            end=190,
            page=None,
            anchor="refunds",
            content_hash="abc",
            ordinal=0,
        ),
        Chunk(
            text='A "quoted" page\\ with a backslash.',
            url="file:///docs/guide.pdf#page=3",
            title="",
            document_key="guide.pdf",
            collection="it's",
            kind="pdf",
            start=0,
            end=35,
            page=3,
            anchor=None,
            content_hash="def",
            ordinal=4,
        ),
    ]


@pytest.mark.parametrize("title", ["Billing › Refunds", "", "  padded  "])
def test_embedded_text_is_what_llama_index_embeds(title: str) -> None:
    from llama_index.core.schema import MetadataMode, TextNode

    node = TextNode(text=" Some text.\n", metadata={"title": title})
    assert embed_text(title, " Some text.\n") == node.get_content(MetadataMode.EMBED)


def test_metadata_is_what_llama_index_stores_for_the_node() -> None:
    from llama_index.core.vector_stores.utils import node_to_metadata_dict

    from connectors.knowledge.store.base import chunk_node

    for chunk in _chunks():
        expected = node_to_metadata_dict(chunk_node(chunk), flat_metadata=True)
        assert node_metadata(chunk) == expected
        assert list(node_metadata(chunk)) == list(expected)


def test_rows_schema_and_indexes_match_the_llama_index_adapter_and_lancedb(
    tmp_path: Path,
) -> None:
    """Same chunks written both ways: the adapter's schema and rows, plus the ``search``
    column, and the full-text index built with the settings lancedb's ``FTS()`` uses."""
    import lance
    from lancedb.index import FTS

    from connectors.knowledge.store.base import chunk_node
    from connectors.knowledge.store.lancedb_vectors import CitebotLanceDBVectorStore

    chunks = _chunks()
    vectors = [[0.25] * 8, [-0.5] * 8]
    nodes = []
    for chunk, vector in zip(chunks, vectors, strict=True):
        node = chunk_node(chunk)
        node.embedding = vector
        nodes.append(node)
    adapter = CitebotLanceDBVectorStore(uri=str(tmp_path / "a"), table_name="t", mode="create")
    adapter.add(nodes)
    adapter.table.create_index("text", config=FTS(), replace=True)

    writer = LanceWriter(tmp_path / "b" / "t.lance")
    assert writer.add(chunks, vectors) == 2
    writer.ensure_indexes(vector_index_rows=100)

    theirs, ours = lance.dataset(str(tmp_path / "a" / "t.lance")), writer._dataset()
    assert ours is not None
    assert ours.schema.names == [*theirs.schema.names, "search"]
    for field in theirs.schema:
        assert ours.schema.field(field.name) == field
    their_columns = theirs.schema.names
    assert ours.to_table(columns=their_columns).to_pylist() == theirs.to_table().to_pylist()
    assert ours.to_table(columns=["search"]).column(0).to_pylist() == [
        "Billing › Refunds\n" + chunks[0].text,
        chunks[1].text,
    ]
    assert ours.data_storage_version == theirs.data_storage_version

    def params(dataset: lance.LanceDataset, name: str) -> object:
        return dataset.stats.index_stats(name)["indices"][0]["params"]

    assert params(ours, "search_idx") == params(theirs, "text_idx")
    assert {i["name"] for i in ours.list_indices()} == {"search_idx", "doc_id_idx"}


def test_lancedb_and_the_adapter_still_search_and_write_the_table(tmp_path: Path) -> None:
    """lancedb's full-text search names no column and finds the one index; rows the
    adapter adds get their ``search`` text (title and text) at the next index upkeep."""
    import lancedb

    from connectors.knowledge.store.base import chunk_node
    from connectors.knowledge.store.lancedb_vectors import CitebotLanceDBVectorStore

    chunks = _chunks()
    writer = LanceWriter(tmp_path / "t.lance")
    writer.add(chunks[1:], [[0.25] * 8])
    writer.ensure_indexes(vector_index_rows=100)
    table = lancedb.connect(str(tmp_path)).open_table("t")
    found = table.search("backslash", query_type="fts").limit(5).to_list()
    assert [row["text"] for row in found] == [chunks[1].text]

    node = chunk_node(chunks[0])
    node.embedding = [-0.5] * 8
    CitebotLanceDBVectorStore(uri=str(tmp_path), table_name="t", mode="append").add([node])
    writer.ensure_indexes(vector_index_rows=100)
    dataset = writer._dataset()
    assert dataset is not None
    rows = dataset.to_table(columns=["text", "search"]).to_pylist()
    assert sorted(r["search"] for r in rows) == sorted(
        [chunks[1].text, "Billing › Refunds\n" + chunks[0].text]
    )
    table = lancedb.connect(str(tmp_path)).open_table("t")
    found = table.search("billing", query_type="fts").limit(5).to_list()
    assert [row["text"] for row in found] == [chunks[0].text]


def test_a_table_without_the_search_column_gets_it_at_the_next_write(tmp_path: Path) -> None:
    """A table that the adapter (``citebot store migrate``) or an older citebot wrote."""
    from connectors.knowledge.store.base import chunk_node
    from connectors.knowledge.store.lancedb_vectors import CitebotLanceDBVectorStore

    chunks = _chunks()
    node = chunk_node(chunks[0])
    node.embedding = [0.25] * 8
    CitebotLanceDBVectorStore(uri=str(tmp_path), table_name="t", mode="create").add([node])
    writer = LanceWriter(tmp_path / "t.lance")
    writer.add(chunks[1:], [[-0.5] * 8])
    dataset = writer._dataset()
    assert dataset is not None
    rows = dataset.to_table(columns=["text", "search"]).to_pylist()
    assert [r["search"] for r in rows] == [search_text(c.title, c.text) for c in chunks]
    assert rows[0]["search"].startswith("Billing › Refunds\n")


def test_the_search_text_is_the_title_and_text_with_their_identifier_terms() -> None:
    assert search_text("Config › exc_info", "Set it to True.") == (
        "Config › exc_info\nSet it to True.\nexcinfo"
    )
    assert search_text("", "Set it to True.") == "Set it to True."
    # spelt one way, as the question is (citations/spelling.py)
    assert search_text("Tuning", "Optimise the colour.") == "Tuning\nOptimize the color."


def test_deletes_take_many_documents_in_one_commit_and_quote_them(tmp_path: Path) -> None:
    from connectors.knowledge.chunking import document_ref

    chunks = _chunks()
    writer = LanceWriter(tmp_path / "t.lance")
    writer.add(chunks, [[1.0, 0.0], [0.0, 1.0]])
    dataset = writer._dataset()
    assert dataset is not None
    before = dataset.version
    writer.delete([document_ref(c.collection, c.document_key) for c in chunks] + ["x') OR ('1"])
    after = writer._dataset()
    assert after is not None
    assert after.count_rows() == 0
    assert after.version == before + 1
