"""A deterministic, scripted LlamaIndex LLM for driving the pipeline's branches.

It is a real ``CustomLLM``: LlamaIndex's own structured-output program, chat
and streaming code run on top of it. Replies are picked by the ``Task:`` line
each pipeline prompt starts with::

    llm = ScriptedLLM({
        "grade relevance": lambda prompt: '{"score": 0.9}' if "rotate" in prompt else '{"score": 0.1}',
        "answer with citations": ["First try [1].", "Second try [1]."],   # one per call, last repeats
        "check an answer": '{"grounded": true, "useful": true}',
    })

A reply may be ``HANG`` (never returns) or an exception instance (raised).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Callable, Sequence
from typing import Any

from llama_index.core.base.llms.types import (
    ChatMessage,
    ChatResponse,
    ChatResponseAsyncGen,
    CompletionResponse,
    CompletionResponseGen,
    LLMMetadata,
    MessageRole,
)
from llama_index.core.llms import CustomLLM
from pydantic import PrivateAttr

HANG = object()


class Broken(str):
    """A reply streamed this far, then the connection broke (``ConnectionError``)."""


Script = Any  # str | list[str] | Callable[[str], str] | BaseException | HANG


class ScriptedLLM(CustomLLM):
    _script: dict[str, Script] = PrivateAttr(default_factory=dict)
    _counts: dict[str, int] = PrivateAttr(default_factory=dict)
    _prompts: list[str] = PrivateAttr(default_factory=list)
    _token_chars: int = PrivateAttr(default=3)

    def __init__(self, script: dict[str, Script], *, token_chars: int = 3) -> None:
        super().__init__()
        self._script = dict(script)
        self._token_chars = token_chars

    @property
    def metadata(self) -> LLMMetadata:
        return LLMMetadata(
            model_name="scripted", is_chat_model=True, context_window=32000, num_output=1024
        )

    @property
    def prompts(self) -> list[str]:
        return self._prompts

    def calls(self, task: str) -> list[str]:
        return [p for p in self._prompts if f"Task: {task}" in p]

    async def _reply(self, prompt: str) -> str:
        self._prompts.append(prompt)
        for task, script in self._script.items():
            if f"Task: {task}" not in prompt:
                continue
            n = self._counts.get(task, 0)
            self._counts[task] = n + 1
            if isinstance(script, list):
                script = script[min(n, len(script) - 1)]
            if script is HANG:
                await asyncio.Event().wait()
            if isinstance(script, BaseException):
                raise script
            if callable(script):
                return str(script(prompt))
            if isinstance(script, Broken):
                return script
            return str(script)
        raise AssertionError(f"no script for prompt: {prompt[:120]!r}")

    # -- the async API the pipeline uses -----------------------------------------

    async def achat(self, messages: Sequence[ChatMessage], **kwargs: Any) -> ChatResponse:
        text = await self._reply(_prompt(messages))
        return ChatResponse(message=ChatMessage(role=MessageRole.ASSISTANT, content=text))

    async def astream_chat(
        self, messages: Sequence[ChatMessage], **kwargs: Any
    ) -> ChatResponseAsyncGen:
        prompt = _prompt(messages)

        async def gen() -> AsyncGenerator[ChatResponse, None]:
            text = await self._reply(prompt)
            sent = ""
            for i in range(0, len(text), self._token_chars):
                delta = text[i : i + self._token_chars]
                sent += delta
                yield ChatResponse(
                    message=ChatMessage(role=MessageRole.ASSISTANT, content=sent), delta=delta
                )
            if isinstance(text, Broken):
                raise ConnectionError("the server closed the stream")

        return gen()

    async def acomplete(
        self, prompt: str, formatted: bool = False, **kwargs: Any
    ) -> CompletionResponse:
        return CompletionResponse(text=await self._reply(prompt))

    # -- sync API: the pipeline is async only ---------------------------------------

    def complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponse:
        raise NotImplementedError("ScriptedLLM is async only")

    def stream_complete(
        self, prompt: str, formatted: bool = False, **kwargs: Any
    ) -> CompletionResponseGen:
        raise NotImplementedError("ScriptedLLM is async only")


def _prompt(messages: Sequence[ChatMessage]) -> str:
    return "\n".join(str(m.content or "") for m in messages)


def by_keyword(pairs: dict[str, float], default: float = 0.05) -> Callable[[str], str]:
    """A grader script: the score of the first keyword found in the passage."""

    def reply(prompt: str) -> str:
        passage = prompt.split("Passage:", 1)[-1].lower()
        for keyword, score in pairs.items():
            if keyword.lower() in passage:
                return f'{{"score": {score}, "reason": "scripted"}}'
        return f'{{"score": {default}, "reason": "scripted"}}'

    return reply
