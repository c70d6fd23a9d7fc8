"""What the last crawl saw of each page, kept in the data dir for conditional re-crawls."""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path

from connectors.errors import StoreError

VERSION = 1


@dataclass(slots=True)
class PageState:
    etag: str | None = None
    last_modified: str | None = None
    content_hash: str = ""
    links: list[str] = field(default_factory=list)
    title: str = ""


class CrawlState:
    """Pages per collection, keyed by canonical URL: ``crawl/<collection>.json``."""

    def __init__(self, path: Path, pages: dict[str, PageState] | None = None) -> None:
        self.path = path
        self.pages: dict[str, PageState] = pages or {}

    @classmethod
    def load(cls, data_dir: Path, collection: str) -> CrawlState:
        path = Path(data_dir) / "crawl" / f"{_safe(collection)}.json"
        if not path.exists():
            return cls(path)
        try:
            raw = json.loads(path.read_text("utf-8"))
        except (OSError, ValueError) as exc:
            raise StoreError(
                f"crawl state {path} is unreadable ({exc}); delete it to re-crawl"
            ) from None
        if raw.get("version") != VERSION:
            raise StoreError(
                f"crawl state {path} was written by another citebot version; delete it"
            )
        return cls(path, {url: PageState(**page) for url, page in raw.get("pages", {}).items()})

    def save(self) -> None:
        """Write atomically, so a crash never leaves half a state file."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".crawl-", suffix=".json")
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(
                    {
                        "version": VERSION,
                        "pages": {u: asdict(p) for u, p in sorted(self.pages.items())},
                    },
                    out,
                )
            os.replace(tmp, self.path)
        except OSError as exc:
            raise StoreError(f"cannot write crawl state in {self.path.parent}: {exc}") from None


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name) or "_"
