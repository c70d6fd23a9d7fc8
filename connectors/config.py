"""Settings sections for the outside world. ``bots.settings`` composes them.

They are plain pydantic models so that connectors can be built from them
without reading the environment themselves.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator


class StoreSettings(BaseModel):
    model_config = ConfigDict(use_attribute_docstrings=True)

    kind: Literal["lancedb", "weaviate"] = "lancedb"
    """'lancedb' (embedded, in the data dir) or 'weaviate' (scale-out)"""
    table: str = Field("chunks", min_length=1, description="LanceDB table name")
    vector_index_rows: int = Field(
        20_000, ge=1, description="LanceDB: build an IVF vector index from this many chunks"
    )
    # Weaviate (scale-out)
    weaviate_url: str | None = None
    """Weaviate HTTP URL, e.g. http://weaviate:8080"""
    weaviate_api_key: SecretStr | None = None
    """Weaviate API key (secret)"""
    weaviate_grpc_port: int = Field(50051, ge=1, le=65535)
    """Weaviate gRPC port"""
    alpha: float = Field(0.5, ge=0.0, le=1.0, description="hybrid weight: 1 = vector only")
    tenancy: Literal["collections", "tenants"] = "collections"
    """Weaviate: one collection per citebot collection, or one tenant each"""
    batch_size: int = Field(100, ge=1)
    """chunks written per batch"""


class EmbeddingSettings(BaseModel):
    model_config = ConfigDict(use_attribute_docstrings=True)

    provider: str = Field(
        "minilm",
        description="'minilm' (bundled, offline) or 'module:Class' of any LlamaIndex embedding",
    )
    options: dict[str, object] = Field(default_factory=dict)
    """keyword arguments for a LlamaIndex embedding class"""
    batch_size: int = Field(32, ge=1)
    """texts embedded per batch"""
    threads: int = Field(0, ge=0, description="onnxruntime intra-op threads; 0 = all cores")


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
    max_retries: int = Field(
        1, ge=0, le=10, description="client retries per call, on top of the pipeline's own"
    )
    structured_outputs: bool = Field(
        False,
        description="openai_compatible: ask for JSON-schema replies (vLLM, llama.cpp and Ollama support it)",
    )

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


class CrawlSettings(BaseModel):
    """Limits for the web crawler (``citebot ingest https://…``)."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    max_pages: int = Field(500, ge=1, description="pages fetched per crawl")
    max_depth: int = Field(5, ge=0, description="link hops from a start page")
    concurrency: int = Field(4, ge=1, le=64)
    """pages fetched at once"""
    per_host_delay: float = Field(0.25, ge=0, description="seconds between requests to one host")
    timeout: float = Field(15.0, gt=0, description="seconds per request")
    max_bytes: int = Field(5_000_000, ge=1024, description="larger responses are skipped")
    user_agent: str = "citebot (+https://github.com/citebot/citebot)"
    """User-Agent sent by the crawler (robots.txt rules match it)"""
    same_prefix: bool = Field(
        False, description="stay under the start URL's path, not just its host"
    )
    follow_links: bool = Field(
        True, description="follow links from pages (sitemaps are always read)"
    )


class ReaderSettings(BaseModel):
    """Any LlamaHub reader: ``reader_module.reader_class(**args).load_data(**load_args)``."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    reader_module: str = Field(min_length=1, description="e.g. 'llama_index.readers.notion'")
    reader_class: str = Field(min_length=1, description="e.g. 'NotionPageReader'")
    args: dict[str, object] = Field(default_factory=dict)
    load_args: dict[str, object] = Field(default_factory=dict)
    collection: str | None = None
    url_key: str | None = Field(None, description="metadata key holding each document's URL")
    title_key: str | None = Field(None, description="metadata key holding each document's title")
    url_template: str | None = Field(
        None, description="e.g. 'https://notion.so/{id}' from metadata"
    )


class IngestSettings(BaseModel):
    model_config = ConfigDict(use_attribute_docstrings=True)

    chunk_chars: int = Field(1200, ge=100, description="size budget of one chunk")
    chunk_overlap_sentences: int = Field(0, ge=0)
    """sentences repeated between neighbouring chunks"""
    url_base: str | None = None
    """default --url-base for folder ingests"""
    default_collection: str = Field("default", min_length=1)
    """collection used when --collection is not given"""
    crawl: CrawlSettings = Field(default_factory=CrawlSettings)
    readers: dict[str, ReaderSettings] = Field(
        default_factory=dict, description="named LlamaHub readers: `citebot ingest reader:NAME`"
    )


class StoreConfig(Protocol):
    """What building a store needs from the root settings (``bots.settings.Settings`` fits)."""

    @property
    def data_dir(self) -> Path: ...

    @property
    def store(self) -> StoreSettings: ...

    @property
    def embeddings(self) -> EmbeddingSettings: ...
