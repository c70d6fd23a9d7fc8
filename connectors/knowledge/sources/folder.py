"""A folder (or single file) of Markdown, MDX, text, HTML and PDF documents."""

from __future__ import annotations

import dataclasses
import logging
import os
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

from connectors.errors import SourceNotFound
from connectors.knowledge.documents import Document, Skipped
from connectors.knowledge.parsing import (
    KINDS,
    UnreadableFile,
    kind_of,
    parse_bytes,
    section_labels,
)
from connectors.knowledge.settings import UrlStyle

__all__ = [
    "SUFFIXES",
    "UrlStyle",
    "folder_files",
    "folder_source_id",
    "published",
    "read_folder",
]

log = logging.getLogger("citebot.sources.folder")

SUFFIXES = tuple(KINDS)


def folder_source_id(root: Path | str) -> str:
    """What the ingest manifest files this folder's documents under."""
    return Path(root).resolve().as_uri()


def folder_files(root: Path | str) -> list[Path]:
    """Every visible file under ``root`` (or ``root`` itself), in a stable order."""
    path = Path(root)
    if not path.exists():
        raise SourceNotFound(f"no such file or directory: {root}")
    if path.is_file():
        return [path]
    files: list[Path] = []
    for folder, dirs, names in os.walk(path):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        files.extend(Path(folder) / n for n in sorted(names) if not n.startswith("."))
    return files


#: the pages a generator publishes under another name; other files (a PDF) keep theirs
_PAGES = frozenset({".md", ".mdx", ".markdown", ".rst", ".html", ".htm"})
#: a folder's own page: published at the folder's address
_INDEX = frozenset({"index", "readme"})


def published(relative: str, style: UrlStyle) -> str:
    """Where a page at ``relative`` (a path under the folder) is published in ``style``."""
    stem, dot, suffix = relative.rpartition(".")
    if style == "path" or not dot or "/" in suffix or f".{suffix.lower()}" not in _PAGES:
        return relative
    folder, _, name = stem.rpartition("/")
    index = name.lower() in _INDEX
    if style == "html":
        return (
            f"{folder}/index.html"
            if index and folder
            else "index.html"
            if index
            else f"{stem}.html"
        )
    if index:
        return f"{folder}/" if folder else ""
    return f"{stem}/" if style == "directory" else stem


def _url(path: Path, relative: str, url_base: str | None, style: UrlStyle) -> str:
    if url_base is None:
        return path.resolve().as_uri()
    return url_base.rstrip("/") + "/" + quote(published(relative, style))


def _title_from_name(path: Path) -> str:
    stem = path.stem.replace("-", " ").replace("_", " ").strip()
    return stem[:1].upper() + stem[1:] if stem else path.name


def _rst_labels(files: list[Path]) -> dict[str, str]:
    """The section titles the folder's reST pages label, for each page's ``:ref:`` roles to
    another page (Sphinx resolves them across the project)."""
    labels: dict[str, str] = {}
    for path in files:
        if kind_of(path.name) == "rst":
            try:
                labels.update(section_labels(path.read_text(encoding="utf-8-sig")))
            except (OSError, UnicodeDecodeError):
                continue  # the file itself is reported as skipped when it is read
    return labels


def read_folder(
    root: Path | str,
    *,
    url_base: str | None = None,
    collection: str = "default",
    url_style: UrlStyle = "path",
) -> Iterator[Document | Skipped]:
    """Documents under ``root``; what can't be read comes out as ``Skipped``, never an error.
    Each links to ``url_base`` + its path, published in ``url_style`` (:func:`published`)."""
    base = Path(root)
    files = folder_files(base)
    anchor_dir = base if base.is_dir() else base.parent
    labels = _rst_labels(files)
    for path in files:
        relative = path.relative_to(anchor_dir).as_posix()
        kind = kind_of(path.name)
        if kind is None:
            # Images and the like sit next to docs all the time; only a file named
            # on its own is worth a warning.
            if path == base:
                yield Skipped(relative, f"unsupported file type {path.suffix or '(none)'}")
            else:
                log.info("ignoring %s: not %s", relative, "/".join(SUFFIXES))
            continue
        try:
            key = path.resolve(strict=True).as_uri()
            data = path.read_bytes()
        except (OSError, RuntimeError) as exc:  # RuntimeError: a symlink loop, before 3.13
            yield Skipped(relative, f"cannot read: {getattr(exc, 'strerror', None) or exc}")
            continue
        try:
            document = parse_bytes(
                data,
                kind=kind,
                key=key,
                url=_url(path, relative, url_base, url_style),
                fallback_title=_title_from_name(path),
                collection=collection,
                labels=labels,
            )
        except UnreadableFile as exc:
            yield Skipped(relative, str(exc))
            continue
        if not document.sections:
            yield Skipped(relative, "no text")
            continue
        yield dataclasses.replace(document, metadata={"path": relative})
