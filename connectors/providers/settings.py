"""Settings of the providers of the pipeline's ports: embeddings, the LLM, web search.

Plain pydantic models (``bots.settings`` composes them), so that providers can be
built from them without reading the environment themselves. Every field is
documented by the docstring under it; ``citebot config --table`` prints those.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator


class EmbeddingSettings(BaseModel):
    model_config = ConfigDict(use_attribute_docstrings=True)

    provider: str = "minilm"
    """'minilm' (bundled, offline), 'openai_compatible' (an embeddings server) or 'module:Class' of any LlamaIndex embedding"""
    documents: str = ""
    """the store's document vectors, if not the provider's: 'minilm-static' (distilled from
    MiniLM, ~10x faster ingest, weaker recall; grading still uses the provider)"""
    options: dict[str, object] = Field(default_factory=dict)
    """keyword arguments for a LlamaIndex embedding class"""
    batch_size: int = Field(32, ge=1)
    """texts embedded per batch"""
    threads: int = Field(0, ge=0)
    """minilm: texts embedded at once, one core each; 0 = all cores"""
    quantized: bool = True
    """minilm: int8 compute, built once from the bundled weights and cached (false: as shipped)"""
    cache_dir: Path | None = None
    """where built models are cached (default: $XDG_CACHE_HOME/citebot or ~/.cache/citebot)"""
    base_url: str | None = None
    """openai_compatible: the server's API base URL, e.g. http://tei:8080/v1"""
    model: str = ""
    """openai_compatible: the model name sent with each request"""
    api_key: SecretStr | None = None
    """openai_compatible: API key, if the server wants one (secret)"""
    concurrency: int = Field(4, ge=1, le=64)
    """openai_compatible: requests in flight at once, per process"""
    timeout: float = Field(60.0, gt=0)
    """openai_compatible: seconds per request"""


class LLMSettings(BaseModel):
    model_config = ConfigDict(use_attribute_docstrings=True)

    provider: Literal["none", "openai", "openai_compatible", "anthropic"] = "none"
    """'none' (extractive, offline), 'openai', 'openai_compatible' or 'anthropic'"""
    model: str = "gpt-4o-mini"
    """model name sent to the provider"""
    base_url: str | None = None
    """API base URL (required for openai_compatible: Ollama, vLLM, llama.cpp, LM Studio)"""
    api_key: SecretStr | None = None
    """provider API key (secret)"""
    timeout: float = Field(30.0, gt=0)
    """seconds per LLM request"""
    temperature: float = Field(0.1, ge=0, le=2)
    """sampling temperature"""
    max_tokens: int = Field(1024, ge=1)
    """most tokens in one reply"""
    context_window: int = Field(16384, ge=512)
    """the model's context window, in tokens"""
    max_retries: int = Field(1, ge=0, le=10)
    """client retries per call, on top of the pipeline's own"""
    structured: Literal["auto", "json_schema", "json_object", "tools", "prompt"] = "auto"
    """how grading and the answer check ask the model for JSON. 'auto' = 'json_schema' for openai_compatible (vLLM, Ollama, llama.cpp, LM Studio accept it) and the model's own best for openai; 'json_object' (not LM Studio); 'tools' (vLLM needs --enable-auto-tool-choice; Ollama ignores tool_choice); 'prompt' (the schema in the prompt only)"""

    @field_validator("base_url")
    @classmethod
    def _strip_slash(cls, value: str | None) -> str | None:
        return value.rstrip("/") if value else value


class WebSettings(BaseModel):
    model_config = ConfigDict(use_attribute_docstrings=True)

    enabled: bool = True
    """allow web search (also needs a Tavily key)"""
    tavily_api_key: SecretStr | None = None
    """Tavily API key (secret); without it web search is off"""
    base_url: str = "https://api.tavily.com"
    """Tavily API base URL (proxies, tests)"""
    search_depth: Literal["basic", "advanced"] = "basic"
    """Tavily search depth: 'basic' or 'advanced'"""
    max_results: int = Field(5, ge=1, le=20)
    """web results per search"""
    include_domains: list[str] = Field(default_factory=list)
    """search only these domains"""
    exclude_domains: list[str] = Field(default_factory=list)
    """never use these domains"""
    timeout: float = Field(15.0, gt=0)
    """seconds per web search"""
