"""LLM token usage of one run, as the provider reports it.

LlamaIndex ends every LLM call, streamed or not, with an instrumentation event
that carries the provider's raw response. One handler on the root dispatcher
adds that response's ``usage`` to the run collecting at the time (a context
variable, so concurrent runs and the grader's concurrent calls each count
their own). A stream reports usage in its final chunk only, and only when
asked (``stream_options.include_usage`` for OpenAI-compatible servers). A
provider that reports nothing is counted as nothing, never estimated.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any


@dataclass
class TokenUsage:
    """Token totals of one run; a kind stays ``None`` until some call reports it."""

    prompt_tokens: int | None = None
    completion_tokens: int | None = None

    def add(self, prompt: int | None, completion: int | None) -> None:
        if prompt is not None:
            self.prompt_tokens = (self.prompt_tokens or 0) + prompt
        if completion is not None:
            self.completion_tokens = (self.completion_tokens or 0) + completion

    def data(self) -> dict[str, int]:
        """The trace fields for what was reported (empty when nothing was)."""
        fields = {"prompt_tokens": self.prompt_tokens, "completion_tokens": self.completion_tokens}
        return {key: value for key, value in fields.items() if value is not None}


def usage_of(raw: Any) -> tuple[int | None, int | None]:
    """``(prompt, completion)`` tokens from a raw provider response or stream chunk."""
    usage = raw.get("usage") if isinstance(raw, Mapping) else getattr(raw, "usage", None)
    if usage is None:
        return None, None
    return (
        _count(usage, "prompt_tokens", "input_tokens"),
        _count(usage, "completion_tokens", "output_tokens"),
    )


def _count(usage: Any, *names: str) -> int | None:
    for name in names:
        value = usage.get(name) if isinstance(usage, Mapping) else getattr(usage, name, None)
        # bool is an int, and never a token count
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            return value
    return None


_collector: ContextVar[TokenUsage | None] = ContextVar("citebot_token_usage", default=None)


def _handler() -> Any:
    from llama_index.core.instrumentation.event_handlers import BaseEventHandler
    from llama_index.core.instrumentation.events.llm import (
        LLMChatEndEvent,
        LLMCompletionEndEvent,
    )

    class _UsageHandler(BaseEventHandler):
        @classmethod
        def class_name(cls) -> str:
            return "CitebotUsageHandler"

        def handle(self, event: Any, **kwargs: Any) -> None:
            if not isinstance(event, LLMChatEndEvent | LLMCompletionEndEvent):
                return
            usage = _collector.get()
            if usage is None or event.response is None:
                return
            usage.add(*usage_of(event.response.raw))

    return _UsageHandler()


_installed = False
_install_lock = threading.Lock()


def _install() -> None:
    global _installed
    # Only LlamaIndex's LLMs report usage, and building one imports llama_index.core: until
    # then there is nothing to count (and an offline question never pays for the import).
    if _installed or "llama_index.core" not in sys.modules:
        return
    # re-exported by LlamaIndex without __all__, which strict mypy does not follow
    from llama_index.core.instrumentation import get_dispatcher  # type: ignore[attr-defined]

    with _install_lock:
        if not _installed:
            get_dispatcher().add_event_handler(_handler())
            _installed = True


@contextmanager
def collecting(usage: TokenUsage) -> Iterator[TokenUsage]:
    """Count the LLM calls made inside the block (and in tasks it starts) into ``usage``."""
    _install()
    token = _collector.set(usage)
    try:
        yield usage
    finally:
        _collector.reset(token)
