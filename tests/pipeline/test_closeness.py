"""How closely a passage reads on the question, word for word (``pipeline/closeness.py``):
the arithmetic on token states made by hand, then the bundled model's own states, and the
order it gives the passages an offline answer is made from."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from citations.model import Source
from connectors.providers.embeddings import MiniLMEncoder
from pipeline.closeness import closeness, closenesses, read_closeness
from pipeline.graders import CachedEmbedder, EmbeddingGrader
from pipeline.ports import Embedder, Hit, TokenEmbedder, TokenStates
from pipeline.question import Question
from pipeline.run_state import RunState
from pipeline.workflow_events import GradedEvent
from tests.pipeline.memory import MemoryRetriever
from tests.pipeline.test_workflow import collect, make

DIM = 4
AXES = np.eye(DIM, dtype=np.float32)


def read(*tokens: tuple[str, int] | tuple[str, Sequence[float]]) -> TokenStates:
    """A text of ``tokens``, each with the unit axis (or the vector) its state points at."""
    rows = [AXES[v] if isinstance(v, int) else np.asarray(v, np.float32) for _, v in tokens]
    states = np.asarray(rows, np.float32).reshape(len(rows), DIM)
    return TokenStates(vector=[0.0] * DIM, tokens=tuple(t for t, _ in tokens), states=states)


def test_each_word_of_the_question_counts_its_best_match_once() -> None:
    question = read(("snapshot", 0), ("backup", 1))
    both = read(("take", 2), ("snapshot", 0), ("backup", 1))
    one = read(("snapshot", 0), ("snapshot", 0), ("snapshot", 0))
    assert closeness(question, both) == pytest.approx(1.0)
    # the best match of each word, not of the passage: a word said three times is one word
    assert closeness(question, one) == pytest.approx(0.5)
    assert closeness(question, read(("other", 3))) == pytest.approx(0.0)
    # in between: the cosine of the best token, word by word
    half = read(("near", [0.6, 0.8, 0.0, 0.0]))
    assert closeness(question, half) == pytest.approx((0.6 + 0.8) / 2)


def test_stop_words_and_punctuation_of_the_question_match_nothing() -> None:
    question = read(("how", 2), ("do", 2), ("i", 2), ("rotate", 0), ("?", 3))
    # a passage that shares only the question's "how" and "?" does not read on it
    assert closeness(question, read(("how", 2), ("?", 3))) == pytest.approx(0.0)
    assert closeness(question, read(("rotate", 0))) == pytest.approx(1.0)
    # a word piece is part of a word ("prom", "##eth", "##eus")
    pieces = read(("prom", 0), ("##eth", 1))
    assert closeness(pieces, read(("x", 1))) == pytest.approx(0.5)


def test_a_question_of_stop_words_only_reads_all_of_them_and_an_empty_text_is_zero() -> None:
    question = read(("how", 0), ("do", 1))
    assert closeness(question, read(("how", 0))) == pytest.approx(0.5)
    empty = TokenStates(vector=[], tokens=(), states=np.zeros((0, DIM), np.float32))
    assert closenesses(question, [empty, read(("do", 1))]) == pytest.approx([0.0, 0.5])
    assert closenesses(empty, [read(("do", 1))]) == [0.0]


def test_the_bundled_model_gives_its_vector_and_each_tokens_state_from_one_run() -> None:
    encoder = MiniLMEncoder()
    texts = ["how do I back up prometheus?", "Snapshots are taken with the admin API."]
    read_texts = encoder.embed_tokens(texts)
    assert np.allclose([r.vector for r in read_texts], encoder.embed(texts), atol=1e-6)
    # the text's own tokens, without [CLS] and [SEP], each a unit row
    assert read_texts[0].tokens == ("how", "do", "i", "back", "up", "prom", "##eth", "##eus", "?")
    assert read_texts[0].states.shape == (9, 384)
    assert np.allclose(np.linalg.norm(read_texts[1].states, axis=1), 1.0, atol=1e-5)
    assert encoder.embed_tokens([]) == []


class Counting:
    """An embedder over the bundled model that counts the texts it reads."""

    def __init__(self, tokens: bool) -> None:
        self.encoder = MiniLMEncoder()
        self.tokens = tokens
        self.read: list[str] = []

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.read += texts
        vectors: list[list[float]] = self.encoder.embed(list(texts)).tolist()
        return vectors

    async def embed_tokens(self, texts: Sequence[str]) -> list[TokenStates] | None:
        if not self.tokens:
            return None
        self.read += texts
        return self.encoder.embed_tokens(list(texts))


async def test_the_cache_keeps_the_vectors_of_texts_read_token_by_token() -> None:
    inner = Counting(tokens=True)
    cached = CachedEmbedder(inner, states=2)
    assert isinstance(cached, TokenEmbedder)
    first = await cached.embed_tokens(["a passage", "a question"])
    assert first is not None and [r.tokens for r in first] == [("a", "passage"), ("a", "question")]
    # their vectors are made: embedding them again reads nothing
    assert await cached.embed(["a passage"]) == [first[0].vector]
    assert inner.read == ["a passage", "a question"]
    # the states of the last ``states`` texts used are kept, the least recently used dropped
    await cached.embed_tokens(["a passage"])
    await cached.embed_tokens(["a third"])
    assert inner.read == ["a passage", "a question", "a third"]
    await cached.embed_tokens(["a passage", "a third"])
    await cached.embed_tokens(["a question"])
    assert inner.read == ["a passage", "a question", "a third", "a question"]
    # texts read along have their vectors made in the same run, and no states kept; one whose
    # vector is made already is not read again
    await cached.embed_tokens(["a fourth"], along=["a sentence.", "a passage"])
    assert inner.read[-2:] == ["a fourth", "a sentence."]
    assert await cached.embed(["a sentence."]) and inner.read[-1] == "a sentence."
    await cached.embed_tokens(["a sentence."])
    assert inner.read[-1] == "a sentence." and len(inner.read) == 7
    # the vectors kept stay within the cache's size too
    small = CachedEmbedder(inner, size=1)
    await small.embed_tokens(["one", "two"])
    await small.embed(["one"])
    assert inner.read[-3:] == ["one", "two", "one"]
    # an embedder whose model reads no tokens gives none, and one that cannot is not asked
    none = Counting(tokens=False)
    assert await CachedEmbedder(none).embed_tokens(["text"]) is None
    assert await CachedEmbedder(VectorsOnly()).embed_tokens(["text"]) is None
    assert await read_closeness(CachedEmbedder(VectorsOnly()), "q", ["text"]) is None


class VectorsOnly:
    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        raise AssertionError("not asked for vectors")


QUESTION = "how do I ask for the user's name when they didn't pass --name?"
#: Click's docs (tests/devset2): the answer, and a neighbour that echoes more of the words
#: ("option", "prompt", "--name") without saying what to do when the flag is missing
ANSWER = (
    "## Option Prompts\n\nOption prompts are integrated into the option interface. In some "
    "cases, you want parameters that can be provided from the command line, but if not "
    "provided, ask for user input instead. This can be implemented with Click by defining a "
    "prompt string.\n\n```python\n@click.command()\n@click.option('--name', prompt=True)\n"
    'def hello(name):\n    click.echo(f"Hello {name}!")\n```'
)
TOPICAL = (
    "## Optional Prompts\n\nIf the option has `prompt` enabled, then setting "
    "`prompt_required=False` tells Click to only show the prompt if the option's flag is "
    "given, instead of if the option is not provided at all.\n\n```python\n@click.command()\n"
    "@click.option('--name', prompt=True, prompt_required=False, default=\"Default\")\n"
    'def hello(name):\n    click.echo(f"Hello {name}!")\n```'
)


async def test_the_answer_reads_closer_on_the_question_than_its_neighbour(
    embedder: Embedder,
) -> None:
    sources = [
        (Source(id=0, url=f"https://docs.example/{name}", title=name, text=text), "default")
        for name, text in (("optional-prompts", TOPICAL), ("option-prompts", ANSWER))
    ]
    assert isinstance(embedder, CachedEmbedder)
    near = await read_closeness(embedder, QUESTION, [TOPICAL, ANSWER])
    assert near is not None
    assert near[1] > near[0] + 0.05
    # read with the passages, the grade's sentences are embedded already
    assert all(s in embedder._cache for s in EmbeddingGrader.sentences_of([TOPICAL, ANSWER]))
    pipeline, _ = make(embedder, None, retriever=MemoryRetriever(embedder, sources))
    _, done = await collect(pipeline, Question(QUESTION))
    # the grade step reads the passages the same way, and its trace says so
    grade = next(d for d in done.trace if d.stage == "grade")
    assert sorted(grade.data["closeness"]) == pytest.approx(sorted(near), abs=1e-4)


def graded(support: list[float], closeness: list[float], carries: list[bool]) -> GradedEvent:
    hits = [
        Hit(Source(id=0, url=f"https://docs.example/{n}", title=str(n), text="text"), 0.5)
        for n in range(len(support))
    ]
    return GradedEvent(
        query="q",
        hits=hits,
        grades=[0.9] * len(hits),
        support=support,
        carries=carries,
        closeness=closeness,
        run=RunState(Question(text="q")),
    )


@pytest.mark.parametrize(
    ("weight", "support", "closeness", "carries", "order"),
    [
        # the support leads by 0.23; a closeness 0.2 higher wins it back at any weight above 1.15
        (6.0, [1.10, 0.87], [0.36, 0.56], [True, True], ["1", "0"]),
        (1.0, [1.10, 0.87], [0.36, 0.56], [True, True], ["0", "1"]),
        (0.0, [1.10, 0.87], [0.36, 0.56], [True, True], ["0", "1"]),
        # a passage without the question's numbers never leads, however close it reads
        (6.0, [0.90, 1.10], [0.30, 0.90], [True, False], ["0", "1"]),
        # with no token states, the support alone orders them
        (6.0, [0.90, 1.10], [], [True, True], ["1", "0"]),
    ],
)
def test_the_passages_kept_lead_with_the_closest_reading_among_those_that_carry(
    embedder: Embedder,
    weight: float,
    support: list[float],
    closeness: list[float],
    carries: list[bool],
    order: list[str],
) -> None:
    pipeline, _ = make(embedder, None, closeness_weight=weight)
    kept = pipeline.workflow._kept(graded(support, closeness, carries), 0.7, True)
    assert [s.title for s in kept] == order


def test_passages_within_the_keep_margin_of_the_threshold_add_to_the_answer(
    embedder: Embedder,
) -> None:
    # the evidence threshold is 0.84: a passage 0.13 under it still adds its sentences to the
    # one that carries the answer, one 0.16 under it does not
    pipeline, _ = make(embedder, None, closeness_weight=0.0)
    kept = pipeline.workflow._kept(graded([1.0, 0.71, 0.68], [], [True] * 3), 0.7, True)
    assert [s.title for s in kept] == ["0", "1"]
