"""Settings of the knowledge base: the store, ingest, the crawler and LlamaHub readers.

Plain pydantic models (``bots.settings`` composes them), so that the knowledge base
can be built from them without reading the environment itself. Every field is
documented by the docstring under it; ``citebot config --table`` prints those.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal, Protocol
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator

from connectors.providers.settings import EmbeddingSettings

#: how a folder page's source path becomes its address under ``url_base``: as the file's path
#: (``guide/install.md``: a repository's web view), or as a site generator publishes it:
#: ``html`` (``guide/install.html``: Sphinx, mdBook), ``clean`` (``guide/install``:
#: Docusaurus, VitePress with clean URLs) or ``directory`` (``guide/install/``: MkDocs, Hugo)
UrlStyle = Literal["path", "html", "clean", "directory"]


class StoreSettings(BaseModel):
    model_config = ConfigDict(use_attribute_docstrings=True)

    kind: Literal["lancedb", "weaviate"] = "lancedb"
    """'lancedb' (embedded, in the data dir) or 'weaviate' (scale-out)"""
    table: str = Field("chunks", min_length=1)
    """LanceDB table name"""
    vector_index_rows: int = Field(20_000, ge=1)
    """LanceDB: build an IVF vector index from this many chunks"""
    weaviate_url: str | None = None
    """Weaviate HTTP URL, e.g. http://weaviate:8080"""
    weaviate_api_key: SecretStr | None = None
    """Weaviate API key (secret)"""
    weaviate_grpc_port: int = Field(50051, ge=1, le=65535)
    """Weaviate gRPC port"""
    alpha: float = Field(0.5, ge=0.0, le=1.0)
    """hybrid weight of the vector score against the full-text score: 1 = vector only"""
    candidates: int = Field(16, ge=1, le=20)
    """hybrid search: the vector and full-text lists each bring top_k × this to the fusion, of which the best top_k are kept"""
    section_slots: int = Field(0, ge=0, le=100)
    """hybrid search: a section's chunks beyond this many wait until every other section has had as many (0 = fused order only)"""
    tenancy: Literal["collections", "tenants"] = "collections"
    """Weaviate: one collection per citebot collection, or one tenant each"""
    batch_size: int = Field(100, ge=1)
    """chunks written per batch"""


class StoreConfig(Protocol):
    """What building a store needs from the root settings (``bots.settings.Settings`` fits)."""

    @property
    def data_dir(self) -> Path: ...

    @property
    def store(self) -> StoreSettings: ...

    @property
    def embeddings(self) -> EmbeddingSettings: ...


class CrawlSettings(BaseModel):
    """Limits for the web crawler (``citebot ingest https://…``)."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    max_pages: int = Field(500, ge=1)
    """pages fetched per crawl"""
    max_depth: int = Field(5, ge=0)
    """link hops from a start page"""
    concurrency: int = Field(4, ge=1, le=64)
    """pages fetched at once"""
    per_host_delay: float = Field(0.25, ge=0)
    """seconds between requests to one host"""
    timeout: float = Field(15.0, gt=0)
    """seconds per request"""
    max_bytes: int = Field(5_000_000, ge=1024)
    """larger responses are skipped"""
    user_agent: str = "citebot (+https://github.com/citebot/citebot)"
    """User-Agent sent by the crawler (robots.txt rules match it)"""
    same_prefix: bool = False
    """stay under the start URL's path, not just its host"""
    follow_links: bool = True
    """follow links from pages (sitemaps are always read)"""


class ReaderSettings(BaseModel):
    """Any LlamaHub reader: ``reader_module.reader_class(**args).load_data(**load_args)``."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    reader_module: str = Field(min_length=1)
    """e.g. 'llama_index.readers.notion'"""
    reader_class: str = Field(min_length=1)
    """e.g. 'NotionPageReader'"""
    args: dict[str, object] = Field(default_factory=dict)
    """keyword arguments for the reader class"""
    load_args: dict[str, object] = Field(default_factory=dict)
    """keyword arguments for ``load_data``"""
    collection: str | None = None
    """collection the documents go to (default: ingest.default_collection)"""
    url_key: str | None = None
    """metadata key holding each document's URL"""
    title_key: str | None = None
    """metadata key holding each document's title"""
    url_template: str | None = None
    """e.g. 'https://notion.so/{id}' from metadata"""


def check_url_base(value: str) -> str:
    """``value``, when pages can be linked under it; a ``ValueError`` says why not."""
    parts = urlsplit(value.strip())
    scheme = parts.scheme.lower()
    if (scheme in ("http", "https") and parts.hostname) or (scheme == "file" and parts.path):
        return value
    raise ValueError(
        f"{value!r} is not a URL footnotes can link to: give the scheme and host, "
        "e.g. https://docs.example.com/"
    )


class IngestSettings(BaseModel):
    model_config = ConfigDict(use_attribute_docstrings=True)

    chunk_chars: int = Field(1200, ge=100)
    """size budget of one chunk"""
    chunk_overlap_sentences: int = Field(0, ge=0)
    """sentences repeated between neighbouring chunks"""
    url_base: str | None = None
    """default --url-base for folder ingests"""
    url_style: UrlStyle = "path"
    """default --url-style: a page's address under url_base as its file's path
    (guide/install.md) or as its site publishes it: html (guide/install.html), clean
    (guide/install) or directory (guide/install/)"""
    default_collection: str = Field("default", min_length=1)
    """collection used when --collection is not given"""
    crawl: CrawlSettings = Field(default_factory=CrawlSettings)
    readers: dict[str, ReaderSettings] = Field(default_factory=dict)
    """named LlamaHub readers: `citebot ingest reader:NAME`"""

    @field_validator("url_base")
    @classmethod
    def _linkable_base(cls, value: str | None) -> str | None:
        return None if value is None else check_url_base(value)
