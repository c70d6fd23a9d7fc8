"""LLM providers, chosen by ``LLMSettings.provider``.

``none`` is the default and means the pipeline answers extractively. The
vendor SDKs are only imported for the provider in use, so a missing optional
extra (``anthropic``) is a one-line error rather than an import failure at start.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from connectors.errors import ConnectorError
from connectors.providers.settings import LLMSettings

if TYPE_CHECKING:
    from llama_index.core.llms import LLM


def _stream_usage() -> dict[str, Any]:
    # OpenAI-style streams report token usage only when asked; LlamaIndex sends this on
    # streamed calls only, since the API rejects it on the others
    return {"stream_options": {"include_usage": True}}


def _secret(settings: LLMSettings) -> str | None:
    return settings.api_key.get_secret_value() if settings.api_key is not None else None


def _common(settings: LLMSettings) -> dict[str, Any]:
    """What every provider takes alike, by the same names."""
    return {
        "model": settings.model,
        "timeout": settings.timeout,
        "max_retries": settings.max_retries,
        "temperature": settings.temperature,
        "max_tokens": settings.max_tokens,
    }


def build_llm(settings: LLMSettings) -> LLM | None:
    """The configured LLM, or ``None`` for the extractive (offline) answerer."""
    provider = settings.provider
    if provider == "none":
        return None
    if provider == "openai":
        return _openai(settings)
    if provider == "openai_compatible":
        return _openai_compatible(settings)
    if provider == "anthropic":
        return _anthropic(settings)
    raise ConnectorError(f"unknown LLM provider {provider!r} (CITEBOT_LLM__PROVIDER)")


def _openai(settings: LLMSettings) -> LLM:
    from connectors.providers.openai_compatible import CitebotOpenAI

    key = _secret(settings)
    # the openai client would only notice a missing key at the first question
    if key is None and not os.environ.get("OPENAI_API_KEY"):
        raise ConnectorError(
            "the openai LLM needs an API key: set CITEBOT_LLM__API_KEY or OPENAI_API_KEY"
        )
    llm = CitebotOpenAI(
        api_key=key,
        api_base=settings.base_url,
        structured=None if settings.structured == "auto" else settings.structured,
        additional_kwargs=_stream_usage(),
        **_common(settings),
    )
    try:
        # the context size comes from a table of OpenAI's models; an unknown name fails
        # here, at start-up, instead of at the first question
        llm.metadata  # noqa: B018
    except ValueError:
        raise ConnectorError(
            f"unknown openai model {settings.model!r} (CITEBOT_LLM__MODEL); for another "
            "server's model use CITEBOT_LLM__PROVIDER=openai_compatible"
        ) from None
    return llm


def _openai_compatible(settings: LLMSettings) -> LLM:
    from connectors.providers.openai_compatible import CompatibleLLM

    if not settings.base_url:
        raise ConnectorError(
            "the openai_compatible LLM needs a base URL: set CITEBOT_LLM__BASE_URL "
            "(for example http://localhost:11434/v1 for Ollama)"
        )
    mode = "json_schema" if settings.structured == "auto" else settings.structured
    return CompatibleLLM(
        api_base=settings.base_url,
        # local servers accept any key, but the openai client refuses to start without one
        api_key=_secret(settings) or "not-needed",
        context_window=settings.context_window,
        is_chat_model=True,
        is_function_calling_model=mode == "tools",
        structured=mode,
        additional_kwargs=_stream_usage(),
        **_common(settings),
    )


def _anthropic(settings: LLMSettings) -> LLM:
    try:
        from llama_index.llms.anthropic import Anthropic
    except ImportError as exc:
        raise ConnectorError(
            "the anthropic LLM needs the extra: pip install 'citebot[anthropic]'"
        ) from exc
    key = _secret(settings)
    if key is None:
        raise ConnectorError("the anthropic LLM needs an API key: set CITEBOT_LLM__API_KEY")
    llm = Anthropic(api_key=key, base_url=settings.base_url, **_common(settings))
    try:
        # the context size comes from a table of known models; an unknown name fails here,
        # at start-up, instead of at the first question
        llm.metadata  # noqa: B018
    except ValueError:
        raise ConnectorError(
            f"unknown anthropic model {settings.model!r} (CITEBOT_LLM__MODEL), "
            "for example claude-sonnet-4-5 or claude-haiku-4-5"
        ) from None
    return llm
