"""The collaborators a pipeline is built from. ``connectors`` provides them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from citations.model import Source

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray


@dataclass(frozen=True, slots=True)
class Hit:
    """One retrieved chunk. ``source.id`` is assigned later, per prompt."""

    source: Source
    score: float
    collection: str = "default"
    #: retrieved after the first ``top_k`` (``PipelineSettings.supplementary``): it may be
    #: cited in an answer that the first ``top_k`` support, but never decides that there is one
    supplementary: bool = False


@runtime_checkable
class Retriever(Protocol):
    async def retrieve(self, query: str, *, top_k: int, scope: Sequence[str] | None) -> list[Hit]:
        """Hybrid search. ``scope`` filters collections inside the store query."""
        ...


@runtime_checkable
class WebSearch(Protocol):
    async def search(self, query: str) -> list[Source]:
        """Web results as sources with their real URL and title."""
        ...


@runtime_checkable
class Grader(Protocol):
    """Scores how relevant each text is to a question, from 0 to 1."""

    name: str

    async def grade(self, question: str, texts: Sequence[str]) -> list[float]: ...


@runtime_checkable
class Embedder(Protocol):
    """Anything that turns texts into unit vectors (the bundled MiniLM, any LlamaIndex embedding)."""

    async def embed(self, texts: Sequence[str]) -> list[list[float]]: ...


@dataclass(frozen=True, slots=True)
class TokenStates:
    """A text as an embedder read it: its vector, and each of its tokens with that token's
    unit vector in context (``states``, one row a token; no [CLS] or [SEP])."""

    vector: list[float]
    tokens: tuple[str, ...]
    states: NDArray[np.float32]


@runtime_checkable
class TokenEmbedder(Protocol):
    """An embedder that can also give each token's vector in context (the bundled MiniLM),
    from the same run of the model as the text's vector; None when the model it wraps
    cannot (a remote embedder, the static model)."""

    async def embed_tokens(self, texts: Sequence[str]) -> list[TokenStates] | None: ...


@runtime_checkable
class Vocabulary(Protocol):
    """An embedder that knows which words its tokenizer reads whole (lower-case), or None."""

    @property
    def vocabulary(self) -> frozenset[str] | None: ...


@runtime_checkable
class Corpus(Protocol):
    """A retriever that can list its chunks' texts (for term statistics).

    ``corpus_version`` changes whenever the chunks change; a reader caches
    whatever it derives from ``corpus_texts`` under that version.
    """

    def corpus_version(self) -> str: ...

    def corpus_texts(self) -> list[str]: ...


@runtime_checkable
class Sections(Protocol):
    """A retriever that can read back the rest of a retrieved chunk's section.

    Sections are cut into chunks the embedder can read whole, so an answer often
    runs on into the next chunk, or a chunk starts inside a code block.
    """

    async def section_chunks(
        self, urls: Sequence[str], *, scope: Sequence[str] | None
    ) -> list[Source]:
        """Every chunk of the sections at ``urls`` within ``scope`` (None = every
        collection), each with its ``locator.start`` and ``end``, in any order."""
        ...
