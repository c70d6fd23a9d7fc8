"""Reference filters for models that do not cite inline.

Both filters decide which sources an answer used and return the same
``CitedAnswer`` shape as the stream resolver: the answer text as one segment
citing every kept source, numbered and deduplicated by canonical URL.

* ``filter_by_similarity``: cosine similarity between the answer and each
  source must reach ``threshold``. The embedding function is passed in.
* ``filter_by_llm`` / ``afilter_by_llm``: a model names the relevant source ids
  as JSON (``{"ids": [..]}`` or a bare list), batch by batch. The model call is
  passed in; it may return text or already-parsed structured output.

They are library API for callers whose model answers without inline markers;
citebot's own pipeline asks for markers and resolves them with
``citations.stream`` instead. For example::

    >>> from citations import Source, filter_by_similarity
    >>> sources = [
    ...     Source(id=1, url="https://example.com/cats", title="Cats", text="Cats purr."),
    ...     Source(id=2, url="https://example.com/dogs", title="Dogs", text="Dogs bark."),
    ... ]
    >>> def embed(texts):  # any embedding function: texts in, vectors out
    ...     return [[1.0, 0.0] if "purr" in t else [0.0, 1.0] for t in texts]
    >>> answer = filter_by_similarity("Cats purr when content.", sources, embed=embed)
    >>> answer.text, [ref.url for ref in answer.references]
    ('Cats purr when content.[1]', ['https://example.com/cats'])
"""

from __future__ import annotations

import asyncio
import json
import math
import re
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from citations.model import CitedAnswer, Source
from citations.stream import resolve

Vector = Sequence[float]
EmbedFn = Callable[[Sequence[str]], Sequence[Vector]]
LLMFn = Callable[[str], Any]
AsyncLLMFn = Callable[[str], Awaitable[Any]]

LLM_FILTER_PROMPT = """\
Below are an answer and numbered sources. Which sources support a claim in the answer?
Reply with JSON only, in the form {{"ids": [<source id>, ...]}}; use [] if none do.

Answer:
{answer}

Sources:
{sources}
"""

_SOURCE_PREVIEW = 1200


def _cosine(a: Vector, b: Vector) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=False))
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return dot / norm if norm else 0.0


def _cite(
    answer: str, sources: Sequence[Source], ids: Sequence[int], merge_fragments: bool
) -> CitedAnswer:
    text = answer.rstrip()
    markers = "".join(f"[{i}]" for i in ids)
    return resolve(text + markers, sources, merge_fragments=merge_fragments)


def filter_by_similarity(
    answer: str,
    sources: Sequence[Source],
    *,
    embed: EmbedFn,
    threshold: float = 0.5,
    merge_fragments: bool = False,
) -> CitedAnswer:
    """Keep the sources whose embedding is at least ``threshold`` cosine-similar
    to the answer's, most similar first."""
    if not sources or not answer.strip():
        return CitedAnswer.empty(answer)
    vectors = list(embed([answer, *(s.text for s in sources)]))
    if len(vectors) != len(sources) + 1:
        raise ValueError(f"embed returned {len(vectors)} vectors for {len(sources) + 1} texts")
    scored = [(_cosine(vectors[0], v), s) for v, s in zip(vectors[1:], sources, strict=True)]
    kept = sorted((pair for pair in scored if pair[0] >= threshold), key=lambda p: -p[0])
    return _cite(answer, sources, [s.id for _, s in kept], merge_fragments)


def _batches(sources: Sequence[Source], size: int) -> list[Sequence[Source]]:
    size = max(size, 1)
    return [sources[i : i + size] for i in range(0, len(sources), size)]


def _prompt(answer: str, batch: Sequence[Source]) -> str:
    listed = "\n\n".join(f"[{s.id}] {s.title}\n{s.text[:_SOURCE_PREVIEW]}" for s in batch)
    return LLM_FILTER_PROMPT.format(answer=answer, sources=listed)


_JSON = re.compile(r"\{.*\}|\[.*\]", re.DOTALL)


def parse_ids(reply: Any) -> list[int]:
    """Source ids from a model reply: a JSON object with ``ids`` (or
    ``relevant_ids``/``sources``), a bare list, text around either, or
    structured output that is already a dict or list."""
    data = reply
    if isinstance(reply, str):
        m = _JSON.search(reply)
        if m is None:
            return []
        try:
            data = json.loads(m.group(0))
        except json.JSONDecodeError:
            return [int(n) for n in re.findall(r"\d+", m.group(0))]
    if isinstance(data, dict):
        for key in ("ids", "relevant_ids", "source_ids", "sources"):
            if key in data:
                data = data[key]
                break
        else:
            return []
    if not isinstance(data, list):
        return []
    ids: list[int] = []
    for item in data:
        if isinstance(item, bool):
            continue
        if isinstance(item, int):
            ids.append(item)
        elif isinstance(item, str) and item.strip().lstrip("[").rstrip("]").isdigit():
            ids.append(int(item.strip().lstrip("[").rstrip("]")))
        elif isinstance(item, dict) and isinstance(item.get("id"), int):
            ids.append(item["id"])
    return ids


def _select(
    sources: Sequence[Source], replies: Sequence[Any], batches: Sequence[Sequence[Source]]
) -> list[int]:
    chosen: list[int] = []
    for reply, batch in zip(replies, batches, strict=True):
        allowed = {s.id for s in batch}
        for source_id in parse_ids(reply):
            # An id outside the batch is the model inventing one: ignore it.
            if source_id in allowed and source_id not in chosen:
                chosen.append(source_id)
    order = {s.id: i for i, s in enumerate(sources)}
    return sorted(chosen, key=order.__getitem__)


def filter_by_llm(
    answer: str,
    sources: Sequence[Source],
    *,
    llm: LLMFn,
    batch_size: int = 10,
    merge_fragments: bool = False,
) -> CitedAnswer:
    """Ask ``llm`` (prompt -> reply) which sources the answer used, a batch at a time."""
    if not sources or not answer.strip():
        return CitedAnswer.empty(answer)
    batches = _batches(sources, batch_size)
    replies = [llm(_prompt(answer, batch)) for batch in batches]
    return _cite(answer, sources, _select(sources, replies, batches), merge_fragments)


async def afilter_by_llm(
    answer: str,
    sources: Sequence[Source],
    *,
    llm: AsyncLLMFn,
    batch_size: int = 10,
    merge_fragments: bool = False,
) -> CitedAnswer:
    """``filter_by_llm`` with an async model call; batches run concurrently."""
    if not sources or not answer.strip():
        return CitedAnswer.empty(answer)
    batches = _batches(sources, batch_size)
    replies = await asyncio.gather(*(llm(_prompt(answer, batch)) for batch in batches))
    return _cite(answer, sources, _select(sources, replies, batches), merge_fragments)
