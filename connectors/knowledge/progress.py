"""Ingest progress a person can read: chunks embedded, of how many, and when it ends.

The number of chunks is known only once every document is read, so the total
is an estimate while reading goes on (chunks per document read so far, times
the documents the source said it has) and exact once reading is done.
"""

from __future__ import annotations

from typing import Any

__all__ = ["CrawlBar", "IngestProgress"]


def _bar(label: str, unit: str, enabled: bool | None) -> Any:
    """A bar shown at once; ``enabled=None`` shows it only on a terminal."""
    from tqdm import tqdm

    return tqdm(
        total=None,
        desc=label if len(label) <= 40 else "…" + label[-39:],
        unit=unit,
        delay=0,
        disable=None if enabled is None else not enabled,
        leave=False,
        dynamic_ncols=True,
    )


class IngestProgress:
    """A tqdm bar counted in chunks; ``enabled=None`` shows it only on a terminal."""

    def __init__(self, *, label: str, documents: int | None, enabled: bool | None) -> None:
        self.documents = documents
        self.read = 0
        self.found = 0
        self.reading_done = False
        self._bar: Any = None
        if enabled is False:
            return
        self._bar = _bar(label, "chunk", enabled)
        self._bar.set_postfix_str("reading…", refresh=True)

    def document_read(self, chunks: int) -> None:
        """A document was read and cut into ``chunks`` (0 when unchanged or skipped)."""
        self.read += 1
        self.found += chunks

    def finished_reading(self) -> None:
        self.reading_done = True

    def estimated_total(self) -> int | None:
        if self.reading_done or not self.documents or not self.read:
            return self.found if self.read else None
        if self.read >= self.documents:
            return self.found
        return max(self.found, round(self.found / self.read * self.documents))

    def written(self, chunks: int) -> None:
        """``chunks`` more were embedded and stored."""
        bar = self._bar
        if bar is None:
            return
        total = self.estimated_total()
        if total is not None and total != bar.total:
            bar.total = total
        docs = f"{self.read}/{self.documents}" if self.documents else str(self.read)
        bar.set_postfix_str(f"{docs} docs", refresh=False)
        bar.update(chunks)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()


class CrawlBar:
    """Pages fetched, queued, skipped and failed while a crawl runs; a terminal only by default."""

    def __init__(self, *, label: str, enabled: bool | None) -> None:
        self._bar: Any = None
        if enabled is False:
            return
        self._bar = _bar(label, "page", enabled)

    def __call__(self, progress: Any) -> None:
        bar = self._bar
        if bar is None:
            return
        bar.set_postfix_str(
            f"{progress.queued} queued, {progress.skipped} skipped, {progress.failed} failed",
            refresh=False,
        )
        bar.update(progress.fetched - bar.n)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
