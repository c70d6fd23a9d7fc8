"""Relevance graders: how well does each retrieved text answer the question, from 0 to 1.

Two come built in, and plugins add more through the ``Mapping[str, Grader]``
the pipeline is given (``settings.grader`` picks one by name):

- ``EmbeddingGrader`` (offline, the default): calibrated cosine similarity.
- ``LLMGrader``: the model returns ``{"score": 0..1, "reason": ...}`` per text.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from pydantic import BaseModel, Field

from citations.sentences import sentences
from pipeline.errors import one_line
from pipeline.llm_failures import malformed_reply
from pipeline.ports import Embedder, Grader, TokenEmbedder, TokenStates, Vocabulary
from pipeline.prompts import template

if TYPE_CHECKING:
    from llama_index.core.llms import LLM
    from llama_index.core.prompts import PromptTemplate

    GRADE_PROMPT: PromptTemplate

log = logging.getLogger("citebot.pipeline.graders")

# Calibration of MiniLM cosine similarity to a 0..1 relevance grade.
#
# A logistic curve centred on cosine 0.33 with a scale of 0.10 maps cosine 0.415 to 0.7 and
# cosine 0.245 to 0.3, the CRAG thresholds. Measured with the bundled all-MiniLM-L6-v2 (int8)
# on the 20 question/answer-chunk pairs in tests/pipeline/calibration.py (six subjects:
# operations docs, HR policy, cooking, science, Python, privacy), scoring each chunk as the
# best of its whole-text and its best-sentence similarity:
#   on-topic pairs          cosine 0.39-0.95, median 0.73 -> 19/20 grade above 0.7
#   other-subject pairs     cosine median 0.06           -> 97.5 % grade below 0.3
#   same-subject, not the answer                          -> 83 % below 0.3, 2 % above 0.7
# The raw cosine of a short question against a whole chunk falls as the chunk grows, which
# is why the best single sentence also counts.
CALIBRATION_CENTRE = 0.33
CALIBRATION_SCALE = 0.10


def calibrate(cosine: float) -> float:
    """Map a MiniLM cosine similarity to a 0..1 relevance grade."""
    z = (cosine - CALIBRATION_CENTRE) / CALIBRATION_SCALE
    return 1.0 / (1.0 + math.exp(-z))


def similarities(query: Sequence[float], vectors: Sequence[Sequence[float]]) -> list[float]:
    """Cosine similarity of ``query`` to each vector; all are unit length (the Embedder contract)."""
    if not vectors:
        return []
    sims: list[float] = (
        np.asarray(vectors, dtype=np.float32) @ np.asarray(query, dtype=np.float32)
    ).tolist()
    return sims


#: texts whose token states ``CachedEmbedder`` remembers: a question's and its passages'
STATE_TEXTS = 48


class CachedEmbedder:
    """An ``Embedder`` that remembers recent texts.

    The grader, the knowledge-strip filter and the extractive answerer all embed
    the same chunks and sentences within one question; each is embedded once.
    """

    def __init__(self, inner: Embedder, *, size: int = 8192, states: int = STATE_TEXTS) -> None:
        self.inner = inner
        self._size = size
        self._cache: OrderedDict[str, list[float]] = OrderedDict()
        self._states_size = states
        self._states: OrderedDict[str, TokenStates] = OrderedDict()

    @property
    def vocabulary(self) -> frozenset[str] | None:
        """The inner embedder's (``pipeline.ports.Vocabulary``), if it has one."""
        return self.inner.vocabulary if isinstance(self.inner, Vocabulary) else None

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        missing = list(dict.fromkeys(t for t in texts if t not in self._cache))
        if missing:
            vectors = await self.inner.embed(missing)
            for text, vector in zip(missing, vectors, strict=True):
                self._cache[text] = vector
        out = []
        for text in texts:
            self._cache.move_to_end(text)
            out.append(self._cache[text])
        self._trim()
        return out

    async def embed_tokens(
        self, texts: Sequence[str], *, along: Sequence[str] = ()
    ) -> list[TokenStates] | None:
        """``pipeline.ports.TokenEmbedder``, remembering the last few texts' token states (a
        passage's take ~0.4 MB). Their vectors come from the same run and are remembered as
        ``embed``'s, and so are those of the texts ``along`` (read in the same run, their
        states not kept): what is embedded next (a grade's sentences) costs no second run,
        and the model's workers share one run's texts out, longest first."""
        if not isinstance(self.inner, TokenEmbedder):
            return None
        missing = list(dict.fromkeys(t for t in texts if t not in self._states))
        wanted = set(missing)
        also = [t for t in dict.fromkeys(along) if t not in self._cache and t not in wanted]
        if missing:
            read = await self.inner.embed_tokens(missing + also)
            if read is None:
                return None
            for text, states in zip(missing + also, read, strict=True):
                if text in wanted:
                    self._states[text] = states
                self._cache[text] = states.vector
        out = []
        for text in texts:
            self._states.move_to_end(text)
            out.append(self._states[text])
        while len(self._states) > self._states_size:
            self._states.popitem(last=False)
        self._trim()
        return out

    def _trim(self) -> None:
        while len(self._cache) > self._size:
            self._cache.popitem(last=False)


class EmbeddingGrader:
    """Offline grader: calibrated similarity of the question to each text and its best sentence."""

    name = "embedding"

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = (
            embedder if isinstance(embedder, CachedEmbedder) else CachedEmbedder(embedder)
        )

    @staticmethod
    def _pieces(texts: Sequence[str]) -> list[list[str]]:
        """Each text's sentences, but the one that is the whole text."""
        return [[s.text for s in sentences(text) if s.text != text.strip()] for text in texts]

    @classmethod
    def sentences_of(cls, texts: Sequence[str]) -> list[str]:
        """The sentences ``grade`` embeds beside the texts themselves."""
        return [p for group in cls._pieces(texts) for p in group]

    async def grade(self, question: str, texts: Sequence[str]) -> list[float]:
        if not texts:
            return []
        pieces = self._pieces(texts)
        flat = [question, *texts, *(p for group in pieces for p in group)]
        vectors = await self.embedder.embed(flat)
        sims = similarities(vectors[0], vectors[1:])
        grades: list[float] = []
        at = len(texts)
        for i, group in enumerate(pieces):
            best = max([sims[i], *sims[at : at + len(group)]])
            at += len(group)
            grades.append(round(calibrate(best), 4))
        return grades

    async def sentence_scores(self, question: str, texts: Sequence[str]) -> list[float]:
        """Calibrated relevance of each given sentence (used by the extractive answerer)."""
        if not texts:
            return []
        vectors = await self.embedder.embed([question, *texts])
        return [calibrate(s) for s in similarities(vectors[0], vectors[1:])]


class Relevance(BaseModel):
    """How relevant one passage is to the question."""

    score: float = Field(
        description="0 = unrelated, 0.5 = on the topic but does not answer, 1 = answers the question"
    )
    reason: str = Field("", description="one short sentence")


_GRADE = (
    "Task: grade relevance.\n"
    "You grade whether a passage from a knowledge base helps answer a question.\n"
    "Reply with a score from 0 to 1: 0 means unrelated, 0.5 means on the topic but not "
    "answering it, 1 means the passage answers the question.\n\n"
    "Question: {question}\n\n"
    "Passage:\n{passage}\n"
)


def __getattr__(name: str) -> Any:
    if name == "GRADE_PROMPT":
        return template(_GRADE)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class LLMGrader:
    """Grades each text with one structured LLM call, all texts concurrently.

    A reply that does not parse is logged and that text is graded by
    ``fallback`` (the embedding grader) instead, or gets 0 without one.
    """

    name = "llm"

    def __init__(
        self,
        llm: LLM,
        *,
        fallback: Grader | None = None,
        concurrency: int = 8,
        passage_chars: int = 4000,
    ) -> None:
        self.llm = llm
        self.fallback = fallback
        self._limit = asyncio.Semaphore(concurrency)
        self._passage_chars = passage_chars
        self.malformed = 0

    async def grade(self, question: str, texts: Sequence[str]) -> list[float]:
        grades, _ = await self.graded(question, texts)
        return grades

    async def graded(self, question: str, texts: Sequence[str]) -> tuple[list[float], int]:
        """The grades, and how many of the model's replies did not parse (this call's own:
        ``malformed`` counts every question's)."""
        replies = await asyncio.gather(*(self._one(question, text) for text in texts))
        missing = [i for i, score in enumerate(replies) if score is None]
        grades = [score if score is not None else 0.0 for score in replies]
        if missing and self.fallback is not None:
            redo = await self.fallback.grade(question, [texts[i] for i in missing])
            for i, score in zip(missing, redo, strict=True):
                grades[i] = score
        return grades, len(missing)

    async def _one(self, question: str, text: str) -> float | None:
        async with self._limit:
            try:
                reply = await self.llm.astructured_predict(
                    Relevance,
                    template(_GRADE),
                    question=question,
                    passage=text[: self._passage_chars],
                )
                return _clamp(reply.score)
            except malformed_reply(TypeError) as exc:
                # transport errors propagate: the pipeline treats those as "LLM down"
                self.malformed += 1
                log.warning(
                    "malformed grader reply, using the fallback grader: %s",
                    one_line(exc, named=True),
                )
                return None


def _clamp(value: float) -> float:
    if math.isnan(value):
        return 0.0
    return min(1.0, max(0.0, float(value)))


def default_graders(
    embedder: Embedder, llm: LLM | None, extra: Mapping[str, Grader] | None = None
) -> dict[str, Grader]:
    """The built-in graders plus any a plugin provides (a plugin may replace a built-in)."""
    embedding = EmbeddingGrader(embedder)
    graders: dict[str, Grader] = {"embedding": embedding}
    if llm is not None:
        graders["llm"] = LLMGrader(llm, fallback=embedding)
    graders.update(extra or {})
    return graders


def select_grader(
    graders: Mapping[str, Grader], name: str, fallback: str = "embedding"
) -> tuple[Grader, str | None]:
    """The grader named in settings, or the fallback and why."""
    if name in graders:
        return graders[name], None
    known = ", ".join(sorted(graders))
    return graders[
        fallback
    ], f"grader {name!r} is not available (known: {known}); using {fallback!r}"
