"""Numeronyms read as the word the documents spell out."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from connectors.knowledge.store import KnowledgeStore
from pipeline import Pipeline
from pipeline.config import PipelineSettings
from pipeline.events import Route
from pipeline.numeronyms import spell_out, spelled_out, written
from pipeline.ports import Embedder
from pipeline.question import Question
from tests.pipeline.devset_eval import ingest_pages

DOCS = " deploy the sidecar on kubernetes with helm kubernetes namespaces the kubernetes api "


def test_a_numeronym_is_the_word_of_that_length_the_documents_write() -> None:
    assert spelled_out("how do I run it on k8s?", DOCS) == {"k8s": "kubernetes"}
    assert spell_out("K8s or k8s?", {"K8s": "kubernetes", "k8s": "kubernetes"}) == (
        "kubernetes or kubernetes?"
    )


def test_a_count_the_documents_never_fill_or_fill_once_stays_as_written() -> None:
    assert spelled_out("does the UI support i18n?", DOCS) == {}
    # one use is a coincidence of length, not the documents' word
    assert spelled_out("i18n?", " internationalization ") == {}
    assert spelled_out("i18n?", " internationalization internationalization ") == {
        "i18n": "internationalization"
    }


def test_short_counts_versions_and_parts_of_names_are_not_numeronyms() -> None:
    # "e2e", "p2p" stand for no single word; "m1", "v8" have no last letter
    for text in (
        "run the e2e tests",
        "a p2p link",
        "on my M1",
        "the v8 engine",
        "k8s-operator",
        "x.k8s",
    ):
        assert not written(text)
    assert written("K8s") and written("a11y, please")


DEPLOYING = """# Deploying the worker

## Running on Kubernetes

The worker runs on Kubernetes as a Deployment with two replicas. Apply the manifest with
`kubectl apply -f worker.yaml`; Kubernetes restarts a replica that stops answering its
health check.

## Running on a virtual machine

Install the package and start the worker with `worker serve`. It listens on port 7070.
"""


@pytest.fixture(scope="module")
def cluster_docs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KnowledgeStore]:
    kb = ingest_pages(
        {"deploy.md": DEPLOYING}, tmp_path_factory.mktemp("docs"), tmp_path_factory.mktemp("data")
    )
    yield kb
    kb.close()


async def test_a_question_that_writes_k8s_is_answered_from_the_kubernetes_section(
    cluster_docs: KnowledgeStore, embedder: Embedder
) -> None:
    p = Pipeline(cluster_docs, embedder=embedder, llm=None, web=None, settings=PipelineSettings())
    done = await p.answer(Question(text="how do I get the worker running on k8s?"))
    assert done.route is Route.KNOWLEDGE_BASE
    assert (
        done.answer.references[0].url == "https://docs.example.com/deploy.md#running-on-kubernetes"
    )
    assert "kubectl apply" in done.answer.text
    # a numeronym the documents never spell out is still a name no passage has
    done = await p.answer(Question(text="does the worker's dashboard support i18n?"))
    assert done.route is Route.NO_ANSWER
