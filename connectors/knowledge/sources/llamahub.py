"""Any LlamaHub reader, by configuration, as citebot ``Document``s.

A reader is named in settings (``ingest.readers.NAME``) by module, class,
constructor arguments and ``load_data`` arguments. Its LlamaIndex documents
are mapped to citebot's metadata: a stable key (so re-ingests are
incremental), the URL a reader follows, a title, and a locator (the page of a
PDF). Documents that share a key, such as the pages of one PDF, become one
document with a section per page.
"""

from __future__ import annotations

import asyncio
import importlib
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from connectors.errors import ConnectorError, SourceNotFound
from connectors.knowledge.documents import Document, Section
from connectors.knowledge.settings import ReaderSettings

#: Metadata keys LlamaHub readers use for a document's link and title, most specific first.
URL_KEYS = (
    "url",
    "source_url",
    "link",
    "page_url",
    "webViewLink",
    "web_url",
    "source",
    "file_path",
)
TITLE_KEYS = ("title", "page_title", "name", "file_name", "filename")
PAGE_KEYS = ("page_label", "page", "page_number")


class LoadedDocument(Protocol):
    """What citebot reads from a ``llama_index.core.Document``."""

    @property
    def id_(self) -> str: ...
    @property
    def text(self) -> str: ...
    @property
    def metadata(self) -> dict[str, Any]: ...


def load_reader(name: str, config: ReaderSettings) -> Any:
    try:
        module = importlib.import_module(config.reader_module)
    except ImportError as exc:
        package = (
            config.reader_module.replace("llama_index.", "llama-index-")
            .replace("_", "-")
            .replace(".", "-")
        )
        raise SourceNotFound(
            f"reader {name!r}: cannot import {config.reader_module} ({exc.msg}); "
            f"install it, e.g. `uv add {package}`"
        ) from None
    cls = getattr(module, config.reader_class, None)
    if cls is None or not callable(cls):
        raise SourceNotFound(
            f"reader {name!r}: {config.reader_module} has no class {config.reader_class}"
        )
    args = {key: _resolve(name, value) for key, value in config.args.items()}
    try:
        reader = cls(**args)
    except Exception as exc:
        raise ConnectorError(f"reader {name!r}: {config.reader_class}(...) failed: {exc}") from None
    if not callable(getattr(reader, "load_data", None)):
        raise SourceNotFound(f"reader {name!r}: {config.reader_class} has no load_data()")
    return reader


async def read_documents(name: str, config: ReaderSettings, *, collection: str) -> list[Document]:
    """Run the reader (in a thread: most readers block) and map what it returns."""
    reader = load_reader(name, config)
    try:
        if callable(getattr(reader, "aload_data", None)) and _overrides_async(reader):
            loaded = await reader.aload_data(**config.load_args)
        else:
            loaded = await asyncio.to_thread(reader.load_data, **config.load_args)
    except ConnectorError:
        raise
    except Exception as exc:
        raise ConnectorError(f"reader {name!r} failed: {type(exc).__name__}: {exc}") from None
    return to_documents(name, list(loaded), config, collection=collection)


def to_documents(
    name: str, loaded: Sequence[LoadedDocument], config: ReaderSettings, *, collection: str
) -> list[Document]:
    grouped: dict[str, list[LoadedDocument]] = {}
    for doc in loaded:
        if doc.text and doc.text.strip():
            grouped.setdefault(document_key(name, doc, config), []).append(doc)
    return [_merge(key, docs, config, collection) for key, docs in grouped.items()]


def document_key(name: str, doc: LoadedDocument, config: ReaderSettings) -> str:
    """Stable across runs: the document's URL when it has one, else the reader's id."""
    link = document_url(doc, config)
    return f"{name}:{link or doc.id_}"


def document_url(doc: LoadedDocument, config: ReaderSettings) -> str:
    meta = doc.metadata
    if config.url_template:
        try:
            return config.url_template.format(id=doc.id_, **meta)
        except (KeyError, IndexError, ValueError):
            pass
    value = _first(meta, (config.url_key,) if config.url_key else URL_KEYS)
    if not value:
        return ""
    if "://" in value:
        return value
    path = Path(value)
    return path.resolve().as_uri() if path.is_absolute() or path.exists() else value


def _merge(
    key: str, docs: list[LoadedDocument], config: ReaderSettings, collection: str
) -> Document:
    first = docs[0]
    docs = sorted(docs, key=lambda d: _page(d.metadata) or 0)
    sections: list[Section] = []
    offset = 0
    for doc in docs:
        text = doc.text.strip()
        page = _page(doc.metadata)
        heading = f"Page {page}" if page is not None and len(docs) > 1 else ""
        sections.append(
            Section(text, heading=heading, page=page, start=offset, end=offset + len(text))
        )
        offset += len(text) + 2
    url = document_url(first, config) or key
    title = _first(first.metadata, (config.title_key,) if config.title_key else TITLE_KEYS)
    body = "\n\n".join(s.text for s in sections)
    return Document(
        key=key,
        url=url,
        title=title or _first_line(body) or key,
        sections=tuple(sections),
        kind="pdf" if any(s.page is not None for s in sections) else "text",
        collection=config.collection or collection,
        content_hash=Document.hash_of(body),
        metadata={"source": "llamahub", "reader": key.split(":", 1)[0]},
    )


def _resolve(name: str, value: object) -> object:
    """``"env:NAME"`` reads a secret from the environment, so it never sits in citebot.toml."""
    if isinstance(value, str) and value.startswith("env:"):
        var = value[4:]
        if var not in os.environ:
            raise SourceNotFound(f"reader {name!r}: environment variable {var} is not set")
        return os.environ[var]
    return value


def _first(meta: Mapping[str, Any], keys: Iterable[str]) -> str:
    for key in keys:
        value = meta.get(key)
        if value not in (None, ""):
            return str(value)
    return ""


def _page(meta: Mapping[str, Any]) -> int | None:
    value = _first(meta, PAGE_KEYS)
    return int(value) if value.isdigit() else None


def _first_line(text: str) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line.lstrip("# ").strip()[:120]


def _overrides_async(reader: object) -> bool:
    # BaseReader.aload_data just calls load_data on the loop thread; only a real override is async
    from llama_index.core.readers.base import BaseReader

    method = getattr(type(reader), "aload_data", None)
    return method is not None and method is not getattr(BaseReader, "aload_data", None)
