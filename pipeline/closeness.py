"""How closely a passage reads on the question, word for word: late interaction over the
embedder's token states.

A passage's vector is the mean of its tokens' states, so a passage that shares the
question's topic comes close however little it says of what is asked. Here each of
the question's words is matched to the passage's token that reads most like it *in
context*, and the closeness is the mean of those best matches over the question's words
(ColBERT's MaxSim, with the bundled MiniLM's states as they are, untrained for it): a
passage that answers tends to have a close token for each word asked, a neighbour only for
the topic's.

On the ten dev sets (679 answerable questions whose answer was among the six passages
retrieved), ordered by support plus six times this, the answering passage came first for 506
where the support (grade plus evidence) alone put it first for 478. It does not tell an
answerable question from an uncovered one any better than the support does, so it orders the
passages kept, and decides nothing. Reading each passage's title too (a run of the model per
title) put it first for 513, for about 25 ms more a question: not taken.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from pipeline.graders import CachedEmbedder, EmbeddingGrader
from pipeline.ports import TokenStates

__all__ = ["FUNCTION_WORDS", "closeness", "closenesses", "read_closeness"]

#: the tokenizer's marks for a piece that continues a word ("##eus" of "prometheus")
PIECE = "##"
#: the words a question asks *with*, not about. Only these: the lexical stop words
#: (``pipeline.words.STOP``) also drop "long", "back" and "work", which a question asks
#: about ("how long", "back up"); with them dropped, the answering passage came first for
#: 490 of the 679 dev-set questions above instead of 506.
_FUNCTION_WORDS = """
    a an the of to in on for and or is are was be do does did i we my our it its this that
    how what which can could should would will with by from at as if not no any there when
    where why who get
"""
FUNCTION_WORDS = frozenset(_FUNCTION_WORDS.split())


def _asked(question: TokenStates) -> np.ndarray:
    """The question's rows that carry its words: its stop words and punctuation say
    nothing of what it asks, and would match any passage."""
    rows = [
        i
        for i, token in enumerate(question.tokens)
        if token.startswith(PIECE) or (token.isalnum() and token not in FUNCTION_WORDS)
    ]
    return question.states[rows] if rows else question.states


def closeness(question: TokenStates, passage: TokenStates) -> float:
    """The mean, over the question's words, of the best cosine of each with a token of the
    passage, in context (``0`` for an empty text)."""
    return closenesses(question, [passage])[0]


def closenesses(question: TokenStates, passages: Sequence[TokenStates]) -> list[float]:
    """``closeness`` of each passage, the question's words picked once."""
    asked = _asked(question)
    if not len(asked):
        return [0.0] * len(passages)
    return [
        float((asked @ p.states.T).max(axis=1).mean()) if len(p.states) else 0.0 for p in passages
    ]


async def read_closeness(
    embedder: CachedEmbedder, question: str, texts: Sequence[str]
) -> list[float] | None:
    """``closeness`` of each passage's text, as ``embedder`` reads it (None when it gives no
    token states). The texts are read as they are graded, together with the sentences the
    grade embeds, so that this run of the model is the grade's too."""
    read = await embedder.embed_tokens(
        [question, *texts], along=EmbeddingGrader.sentences_of(texts)
    )
    if read is None:
        return None
    return closenesses(read[0], read[1:])
