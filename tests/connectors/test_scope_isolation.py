"""THE scope-isolation test: a place whose scope excludes a collection never gets an answer from it,
even when that collection holds the best match. Real LanceDB files, real embeddings, real runtime."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from llama_index.core.base.embeddings.base import BaseEmbedding

from bots.app import build_runtime
from bots.core.runtime import Runtime
from bots.settings import load_settings
from connectors.knowledge.documents import Document, Section
from connectors.knowledge.ingest import Ingestor
from connectors.knowledge.settings import StoreSettings
from connectors.knowledge.store import KnowledgeStore
from connectors.knowledge.store.lancedb import open_lancedb
from connectors.providers.embeddings import build_embedding
from connectors.providers.settings import EmbeddingSettings
from pipeline.events import Done
from pipeline.question import Place, Question, Trigger

SECRET = "The launch code for project Falcon is 7741."
QUESTION = "What is the launch code for project Falcon?"

SCOPES = {
    "slack:T1/C2": ["public"],  # a channel narrower than its workspace
    "slack:T1": ["public", "secret"],
    "discord:G1": ["public"],
    "discord:G1/C9": ["public", "secret"],
}


@pytest.fixture(scope="module")
def embedding() -> Iterator[BaseEmbedding]:
    yield build_embedding(EmbeddingSettings())


def doc(collection: str, key: str, title: str, *texts: str) -> Document:
    sections = tuple(
        Section(t, heading=f"Part {i}", anchor=f"part-{i}") for i, t in enumerate(texts)
    )
    return Document(
        key=key,
        url=f"https://{collection}.example.com/{key}",
        title=title,
        sections=sections,
        collection=collection,
        content_hash=Document.hash_of("".join(texts)),
    )


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory, embedding: BaseEmbedding) -> Path:
    tmp_path = tmp_path_factory.mktemp("scoped")
    store = open_lancedb(tmp_path, StoreSettings(), embedding)
    ingestor = Ingestor(store, tmp_path, progress=False)
    ingestor.ingest(
        [
            doc("public", "hours", "Office hours", "The office opens at 9am and closes at 5pm."),
            doc(
                "public",
                "launches",
                "Launch parties",
                "Product launches are celebrated with cake on Fridays.",
            ),
            doc(
                "public",
                "codes",
                "Code review",
                "Every change needs one code review before merging.",
            ),
        ],
        source="test:public",
        collection="public",
    )
    ingestor.ingest(
        [doc("secret", "falcon", "Project Falcon", SECRET)],
        source="test:secret",
        collection="secret",
    )
    return tmp_path


def open_store(data_dir: Path, embedding: BaseEmbedding) -> KnowledgeStore:
    return open_lancedb(data_dir, StoreSettings(), embedding)


async def test_the_excluded_collection_holds_the_best_match(
    data_dir: Path, embedding: BaseEmbedding
) -> None:
    hits = await open_store(data_dir, embedding).retrieve(QUESTION, top_k=1, scope=None)
    assert hits[0].collection == "secret" and hits[0].source.text == SECRET


@pytest.mark.parametrize("top_k", [1, 3, 50])
async def test_the_store_query_never_returns_a_collection_outside_the_scope(
    data_dir: Path, embedding: BaseEmbedding, top_k: int
) -> None:
    hits = await open_store(data_dir, embedding).retrieve(QUESTION, top_k=top_k, scope=["public"])
    assert hits, "the public collection should still answer something"
    assert {h.collection for h in hits} == {"public"}
    assert all("7741" not in h.source.text and "secret." not in h.source.url for h in hits)
    assert len(hits) == min(top_k, 3)  # filtered inside the query: top_k is filled from the scope


async def test_an_empty_scope_sees_nothing(data_dir: Path, embedding: BaseEmbedding) -> None:
    assert await open_store(data_dir, embedding).retrieve(QUESTION, top_k=5, scope=[]) == []


def runtime(**access: object) -> Runtime:
    settings = load_settings(access={"scopes": SCOPES, **access})
    return Runtime(settings, answerer=None)


@pytest.mark.parametrize(
    ("place", "trigger", "expected"),
    [
        (Place("slack", "T1", "C2"), Trigger.MENTION, ("public",)),
        (Place("slack", "T1", "C3"), Trigger.MENTION, ("public", "secret")),
        (Place("discord", "G1", "C1"), Trigger.SLASH, ("public",)),
        (Place("discord", "G1", "C9"), Trigger.MENTION, ("public", "secret")),
        (Place("slack", "T9", "C1"), Trigger.MENTION, ("secret",)),  # default_scope
        (Place("slack", "T1", "D1"), Trigger.DM, ("public",)),  # dm_scope beats the workspace
    ],
)
async def test_runtime_scope_reaches_the_store_query(
    data_dir: Path,
    embedding: BaseEmbedding,
    place: Place,
    trigger: Trigger,
    expected: tuple[str, ...],
) -> None:
    # different on purpose: a DM that fell through to default_scope would see "secret"
    rt = runtime(dm_scope=["public"], default_scope=["secret"])
    question = rt.prepare(Question(QUESTION, place=place, trigger=trigger))
    assert question.scope == expected
    hits = await open_store(data_dir, embedding).retrieve(
        question.text, top_k=50, scope=question.scope
    )
    assert {h.collection for h in hits} <= set(expected)
    assert (hits[0].source.text == SECRET) is ("secret" in expected)


def test_no_entry_and_no_default_means_every_collection() -> None:
    assert runtime().scope_for(Place("slack", "T7", "C7")) is None


async def final(rt: Runtime, question: Question) -> Done:
    events = [e async for e in rt.ask(question)]
    assert isinstance(events[-1], Done)
    return events[-1]


async def test_a_full_answer_in_a_narrow_channel_cites_nothing_from_outside(
    data_dir: Path, embedding: BaseEmbedding
) -> None:
    settings = load_settings(
        data_dir=str(data_dir), access={"scopes": SCOPES}, web={"enabled": False}
    )
    rt = build_runtime(settings, with_plugins=False)
    narrow = rt.prepare(
        Question(QUESTION, place=Place("slack", "T1", "C2"), trigger=Trigger.MENTION)
    )
    wide = rt.prepare(Question(QUESTION, place=Place("slack", "T1", "C3"), trigger=Trigger.MENTION))
    done_narrow = await final(rt, narrow)
    done_wide = await final(rt, wide)
    assert done_narrow.outcome.is_answer and done_wide.outcome.is_answer
    assert "7741" in done_wide.answer.text  # the wide channel does get the secret
    assert "7741" not in done_narrow.answer.text
    assert all("secret.example.com" not in r.url for r in done_narrow.answer.references)
