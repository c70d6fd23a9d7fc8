from __future__ import annotations

from pathlib import Path

import pytest

from citations.model import Origin
from connectors.knowledge.chunking import Chunk
from connectors.knowledge.settings import StoreSettings
from connectors.knowledge.store import KnowledgeStore
from connectors.knowledge.store.lancedb import LanceKnowledgeStore, open_lancedb
from connectors.providers.embeddings import MiniLMEmbedding
from pipeline.ports import Retriever


def _chunk(text: str, collection: str, key: str, anchor: str, ordinal: int = 0) -> Chunk:
    return Chunk(
        text=text,
        url=f"https://docs.example.com/{key}#{anchor}",
        title=f"{key} › {anchor}",
        document_key=key,
        collection=collection,
        kind="markdown",
        start=100 * ordinal,
        end=100 * ordinal + len(text),
        page=None,
        anchor=anchor,
        content_hash="h",
        ordinal=ordinal,
    )


def _nothing_at(path: Path) -> bool:
    return not path.exists()


@pytest.fixture
def filled(lance_store: LanceKnowledgeStore) -> LanceKnowledgeStore:
    lance_store.add(
        [
            _chunk(
                "Refunds are paid back within 14 days of the return.",
                "public",
                "billing.md",
                "refunds",
            ),
            _chunk("Our office is in Berlin, near the river.", "public", "about.md", "office", 1),
        ]
    )
    lance_store.add(
        [
            _chunk(
                "Refunds for enterprise customers are paid within 3 days.",
                "secret",
                "ent.md",
                "refunds",
            )
        ]
    )
    return lance_store


def test_is_a_retriever(lance_store: KnowledgeStore) -> None:
    assert isinstance(lance_store, Retriever)


async def test_empty_store_retrieves_nothing_and_creates_nothing(
    lance_store: LanceKnowledgeStore, data_dir: Path
) -> None:
    assert await lance_store.retrieve("anything", top_k=3, scope=None) == []
    assert lance_store.count() == 0
    assert _nothing_at(data_dir)


async def test_hits_carry_source_metadata(filled: LanceKnowledgeStore) -> None:
    hits = await filled.retrieve("how long do refunds take", top_k=3, scope=["public"])
    top = hits[0]
    assert top.source.url == "https://docs.example.com/billing.md#refunds"
    assert top.source.title == "billing.md › refunds"
    assert top.source.text.startswith("Refunds are paid back")
    assert top.source.locator.anchor == "refunds"
    assert (top.source.locator.start, top.source.locator.page) == (0, None)
    assert top.source.origin is Origin.KB and top.source.id == 0
    assert top.collection == "public"
    assert all(0.0 <= h.score <= 1.0 for h in hits)
    assert hits[0].score > hits[-1].score


async def test_scope_filters_inside_the_query(filled: LanceKnowledgeStore) -> None:
    question = "how fast are enterprise refunds paid"
    best = await filled.retrieve(question, top_k=1, scope=None)
    assert best[0].collection == "secret"  # the out-of-scope collection holds the best match
    # top_k=1: a filter applied after the query would be left with nothing.
    scoped = await filled.retrieve(question, top_k=1, scope=["public"])
    assert [h.source.url for h in scoped] == ["https://docs.example.com/billing.md#refunds"]
    wide = await filled.retrieve(question, top_k=10, scope=["public", "other"])
    assert wide and {h.collection for h in wide} == {"public"}
    assert await filled.retrieve(question, top_k=5, scope=[]) == []
    assert await filled.retrieve(question, top_k=5, scope=["nope"]) == []


async def test_scope_values_are_quoted_safely(filled: LanceKnowledgeStore) -> None:
    hits = await filled.retrieve("refunds", top_k=5, scope=["x') OR (1=1", "public"])
    assert {h.collection for h in hits} == {"public"}


async def test_delete_removes_a_document_from_one_collection(filled: LanceKnowledgeStore) -> None:
    filled.delete(["billing.md"], "secret")  # same key, other collection: untouched
    assert filled.count() == 3
    filled.delete(["billing.md"], "public")
    assert filled.count() == 2
    hits = await filled.retrieve("refunds", top_k=5, scope=["public"])
    assert [h.source.url for h in hits] == ["https://docs.example.com/about.md#office"]


async def test_reopened_store_finds_text_by_full_text_search(
    filled: LanceKnowledgeStore, data_dir: Path, minilm: MiniLMEmbedding
) -> None:
    filled.optimize()
    filled.add(
        [_chunk("Zqxjv is the internal codename of the billing service.", "public", "c.md", "c")]
    )
    reopened = open_lancedb(data_dir, StoreSettings(), minilm)
    assert reopened.count() == 4
    hits = await reopened.retrieve("zqxjv", top_k=1, scope=None)
    assert hits[0].source.url.endswith("c.md#c")


async def test_large_tables_get_a_vector_index_that_later_writes_join(
    data_dir: Path, minilm: MiniLMEmbedding
) -> None:
    lance_store = open_lancedb(data_dir, StoreSettings(vector_index_rows=200), minilm)
    topics = ["billing", "network", "storage", "security", "deploys", "alerts", "backups"]
    lance_store.add(
        [
            _chunk(f"Note {i} about {topics[i % 7]} number {i}.", "c", f"d{i}.md", "s", i)
            for i in range(256)
        ]
    )
    lance_store.optimize()
    table = lance_store.vector_store.table  # type: ignore[union-attr]
    assert {"IvfFlat", "FTS", "BTree"} <= {str(i.index_type) for i in table.list_indices()}
    lance_store.add([_chunk("Zebra crossings are painted white.", "c", "z.md", "zebra")])
    lance_store.optimize()  # folds the new row into every index
    hits = await lance_store.retrieve("zebra crossing paint", top_k=3, scope=["c"])
    assert hits[0].source.url.endswith("z.md#zebra")
    lance_store.delete(["z.md"], "c")
    assert lance_store.count() == 256


async def test_questions_rank_as_lancedbs_own_hybrid_query_and_never_load_it(
    data_dir: Path, minilm: MiniLMEmbedding
) -> None:
    """The read path (``lance`` directly) against lancedb's hybrid query with linear fusion,
    the one the store used to run: same rows in the same order, scoped or not."""
    from lancedb.rerankers import LinearCombinationReranker

    from connectors.knowledge.store.lance_search import scope_where

    store = open_lancedb(data_dir, StoreSettings(alpha=0.6), minilm)
    topics = ["refunds", "invoices", "webhooks", "API keys", "rate limits", "exports"]
    store.add(
        [
            _chunk(
                f"{topics[i % 6].capitalize()} note {i}: how {topics[(i * 5) % 6]} work "
                f"with {topics[(i + 1) % 6]} in region {i % 4}.",
                ("public", "secret")[i % 2],
                f"doc{i}.md",
                f"n{i}",
                i,
            )
            for i in range(40)
        ]
    )
    store.optimize()
    table = store.vector_store.table  # type: ignore[union-attr]
    for question, scope in [
        ("how do refunds work with invoices", None),
        ("webhooks in region 2", ["public"]),
        ("rate limits for exports", ["secret", "public"]),
        ("zzz nothing matches this text", None),
    ]:
        vector = minilm.get_query_embedding(question)
        top_k = 6
        limit = top_k * store.candidates  # the deeper candidate pool the store fuses
        query = (
            table.search(query_type="hybrid", vector_column_name="vector")
            .vector(vector)
            .text(question)
            .limit(limit)
            .rerank(reranker=LinearCombinationReranker(weight=0.6))
        )
        where = scope_where(scope)
        if where is not None:
            query = query.where(where)
        expected = [m["url"] for m in query.to_arrow().column("metadata").to_pylist()]
        hits = await store.retrieve(question, top_k=top_k, scope=scope)
        assert [h.source.url for h in hits] == expected[:top_k], question


def test_neither_a_question_nor_a_write_imports_lancedb_or_llama_index(tmp_path: Path) -> None:
    """``import lancedb`` costs over a CPU second at start-up, LlamaIndex as much again;
    reading and writing need only ``lance``."""
    import subprocess
    import sys

    probe = """
import asyncio, sys
from pathlib import Path
from connectors.knowledge.settings import StoreSettings
from connectors.knowledge.store.lancedb import open_lancedb
from connectors.knowledge.chunking import Chunk
from connectors.providers.embeddings import MiniLMEncoder
embedding = MiniLMEncoder()
writer = open_lancedb(Path(sys.argv[1]), StoreSettings(), embedding)
text = "Refunds are paid within 14 days."
url = "https://docs.example.com/b.md#refunds"
chunk = Chunk(text, url, "b.md", "b.md", "public", "markdown", 0, len(text), None, "refunds", "h", 0)
writer.add([chunk])
writer.optimize()
reader = open_lancedb(Path(sys.argv[1]), StoreSettings(), embedding)
hits = asyncio.run(reader.retrieve("refunds", top_k=1, scope=["public"]))
heavy = [m for m in ("lancedb", "llama_index.core") if m in sys.modules]
print(len(hits), reader.count(), len(reader.corpus_texts()), *heavy)
"""
    out = subprocess.run(
        [sys.executable, "-c", probe, str(tmp_path / "data")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.split() == ["1", "1", "1"]


def _unit(*weights: float) -> list[float]:
    norm = sum(w * w for w in weights) ** 0.5
    return [w / norm for w in weights]


def _synthetic(data_dir: Path, rows: list[tuple[str, str, list[float]]], **settings: object):
    """A store of ``(text, section, vector)`` rows with vectors chosen by the test."""
    from llama_index.core.embeddings import MockEmbedding

    store = open_lancedb(data_dir, StoreSettings(**settings), MockEmbedding(embed_dim=3))  # type: ignore[arg-type]
    chunks = [
        _chunk(text, "c", f"{section}.md", section, i) for i, (text, section, _) in enumerate(rows)
    ]
    store.add(chunks, vectors=[vector for _, _, vector in rows])
    store.optimize()
    return store


def _first(store: LanceKnowledgeStore, question: str, vector: list[float]) -> str:
    """The section of the best hit for ``question``."""
    return store.search(question, vector, top_k=1, scope=None)[0].source.url.rsplit("#", 1)[1]


def test_a_chunk_below_top_k_in_both_lists_wins_from_the_deeper_pool(data_dir: Path) -> None:
    """Third by meaning and third by words, first once both lists are fused (issue 12:
    the answer section ranked 9th in both lists, and the fusion saw only each one's top 6)."""
    near, far = _unit(1, 0, 0), _unit(0, 1, 0)
    rows = [
        ("Alpha one is about something else entirely.", "v1", near),
        ("Alpha two is about something else entirely.", "v2", _unit(1, 0.05, 0)),
        ("Falcon launch falcon launch falcon launch codes.", "t1", far),
        ("Falcon launch falcon launch falcon launch orders.", "t2", far),
        ("The falcon launch needs the code from the safe.", "answer", _unit(1, 0.3, 0)),
        *[
            (f"A long note {i} that says falcon once among many other words here.", f"f{i}", far)
            for i in range(6)
        ],
    ]
    deep = _synthetic(data_dir / "deep", rows, alpha=0.5)
    shallow = _synthetic(data_dir / "shallow", rows, alpha=0.5, candidates=1)
    question = "falcon launch"
    assert deep.search(question, near, top_k=2, scope=None)[0].source.url.endswith("#answer")
    assert "answer" not in " ".join(
        h.source.url for h in shallow.search(question, near, top_k=2, scope=None)
    )


def test_alpha_weighs_meaning_against_words(data_dir: Path) -> None:
    near, far = _unit(1, 0, 0), _unit(0, 1, 0)
    rows = [
        ("Nothing in common with the question here.", "meaning", near),
        ("Falcon launch falcon launch.", "words", far),
        (
            "Unrelated filler text about the office, and a falcon in a tree.",
            "filler",
            _unit(0, 0, 1),
        ),
    ]
    meaning = _synthetic(data_dir / "a", rows, alpha=0.9)
    words = _synthetic(data_dir / "b", rows, alpha=0.1)
    assert meaning.search("falcon launch", near, top_k=1, scope=None)[0].source.url.endswith(
        "#meaning"
    )
    assert words.search("falcon launch", near, top_k=1, scope=None)[0].source.url.endswith("#words")


async def test_one_chunk_per_section_comes_first(data_dir: Path) -> None:
    """A long section's chunks rank together; the other sections get the slots first."""
    near = _unit(1, 0, 0)
    # section names of one indexed word each: the titles weigh the same in the full text
    rows = [
        ("Falcon launch note one.", "long", near),
        ("Falcon launch note two.", "long", _unit(1, 0.02, 0)),
        ("Falcon launch note six.", "long", _unit(1, 0.04, 0)),
        ("Falcon launch note ten.", "short", _unit(1, 0.3, 0)),
        ("Falcon launch note five.", "third", _unit(1, 0.6, 0)),
    ]
    store = _synthetic(data_dir, rows, section_slots=1)
    hits = store.search("falcon launch", near, top_k=4, scope=None)
    assert [h.source.url.rsplit("#", 1)[1] for h in hits] == ["long", "short", "third", "long"]
    assert hits[0].source.text == "Falcon launch note one."
    retrieved = await store.retrieve("falcon launch", top_k=3, scope=None)
    assert len({h.source.url for h in retrieved}) == 3
    fused = _synthetic(data_dir / "fused", rows).search("falcon launch", near, top_k=3, scope=None)
    assert [h.source.url.rsplit("#", 1)[1] for h in fused] == ["long", "long", "long"]


def test_a_camel_case_name_is_found_by_its_words_and_by_itself(data_dir: Path) -> None:
    """The full-text index keeps ``TimeStamper`` whole; its words find it too."""
    same = _unit(1, 0, 0)
    # last: a tie would keep the vector list's order
    rows = [
        ("The first time you call it, the logger is set up.", "time", same),
        ("Every chain ends with a renderer.", "other", same),
        ("Add a TimeStamper to the chain.", "camel", same),
    ]
    store = _synthetic(data_dir, rows)
    for question in ["TimeStamper", "time stamper", "which stamper"]:
        assert _first(store, question, same) == "camel", question


def test_a_snake_case_name_outranks_chunks_with_its_common_parts(data_dir: Path) -> None:
    """``exc_info`` is more than "exc" and "info": the chunk that names it comes first."""
    same = _unit(1, 0, 0)
    rows = [
        ("More info on exc and info: info about the exc object, info.", "parts", same),
        ("Unrelated text about rendering.", "other", same),
        ("Set exc_info to render the exception.", "name", same),
    ]
    store = _synthetic(data_dir, rows)
    assert _first(store, "what does exc_info do", same) == "name"


def test_a_lone_full_text_match_counts_as_the_best_of_its_list() -> None:
    """Min-max over one row has no spread: that row matched, so it is the best of its list,
    not the worst (lancedb's scaling makes it 0, like a row that did not match)."""
    from connectors.knowledge.store.lance_search import fuse

    ranked = fuse([(1, 0.2), (2, 0.25), (3, 0.4)], [(2, 7.5)], 0.5)
    assert [row for row, _ in ranked] == [2, 1, 3]
    assert [row for row, _ in fuse([(1, 0.2), (2, 0.2)], [], 0.5)] == [1, 2]


def test_a_short_section_is_found_by_the_words_of_its_heading(data_dir: Path) -> None:
    """A one-line section ("Not supported.") says what it is about only in its heading
    path; the full-text index reads the title as the embedder does."""
    from dataclasses import replace

    from llama_index.core.embeddings import MockEmbedding

    same = _unit(1, 0, 0)
    store = open_lancedb(data_dir, StoreSettings(alpha=0.0), MockEmbedding(embed_dim=3))  # type: ignore[arg-type]
    store.add(
        [
            replace(
                _chunk("Setting it is not supported.", "c", "sources.md", "updates"),
                title="Version sources › Code source › Updates",
            ),
            _chunk("The version is read from a file you name.", "c", "files.md", "reading", 1),
        ],
        vectors=[same, same],
    )
    store.optimize()
    top = store.search("can the code source update the version", same, top_k=1, scope=None)
    assert top[0].source.url.endswith("#updates")


def test_a_british_spelling_finds_the_american_one_and_back(data_dir: Path) -> None:
    """The index and the question are folded alike: "optimisations" finds "optimization"."""
    same = _unit(1, 0, 0)
    # a tie (no word in common) would keep the vector list's order: the first row
    rows = [
        ("Debug builds skip most of the work of the compiler.", "other", same),
        ("Set the optimization level per package.", "american", same),
        ("The colour of the output is set here.", "british", same),
    ]
    store = _synthetic(data_dir, rows)
    assert _first(store, "which optimisations", same) == "american"
    assert _first(store, "which color", same) == "british"


def test_a_chat_phrasing_finds_the_documentations_word(data_dir: Path) -> None:
    """ "Turn the colours off" is searched with "disable" too: the page that says it comes
    before one that shares only the asker's words."""
    same = _unit(1, 0, 0)
    # a tie (no word in common) would keep the vector list's order: the first row
    rows = [
        ("Turn to the next page for the colour table.", "turn", same),
        ("Set NO_COLOR to disable colours.", "disable", same),
        ("Unrelated text about rendering.", "other", same),
    ]
    store = _synthetic(data_dir, rows)
    assert _first(store, "how do I turn the colours off", same) == "disable"
    assert _first(store, "how do I turn to the colour table", same) == "turn"
