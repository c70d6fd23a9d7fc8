"""The data dir: its format version and the lock that keeps writers one at a time.

LanceDB has no lock of its own: two writers commit optimistically, and two
ingests racing on the same documents would both delete and both re-add. So a
writer takes an exclusive ``flock`` on ``ingest.lock``. The kernel drops it when
the process dies, so a crash never leaves a stale lock. Readers need no lock:
LanceDB readers see the last committed version.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from connectors.errors import StoreError

__all__ = ["FORMAT_VERSION", "DataDir"]

#: Bump when chunk metadata or the manifest change incompatibly.
FORMAT_VERSION = 1
FORMAT_FILE = "store-format.json"
LOCK_FILE = "ingest.lock"


class DataDir:
    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)

    @property
    def format_file(self) -> Path:
        return self.path / FORMAT_FILE

    def read_format(self) -> dict[str, Any] | None:
        try:
            raw = self.format_file.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except NotADirectoryError:
            raise StoreError(f"data dir {self.path} is not a directory") from None
        except OSError as exc:
            raise StoreError(f"cannot read {self.format_file}: {exc.strerror or exc}") from None
        try:
            data = json.loads(raw)
        except ValueError:
            raise StoreError(f"{self.format_file} is not citebot's store format file") from None
        if not isinstance(data, dict):
            raise StoreError(f"{self.format_file} is not citebot's store format file")
        return data

    def check(self, *, store: str, embedding: str) -> None:
        """Refuse a store written by another format version or with other vectors."""
        data = self.read_format()
        if data is None:
            return
        version = data.get("format")
        if version != FORMAT_VERSION:
            raise StoreError(
                f"data dir {self.path} holds a store in format {version!r}, this citebot reads "
                f"format {FORMAT_VERSION}: ingest into a new data dir (CITEBOT_DATA_DIR)"
            )
        recorded = data.get("stores", {}).get(store, {}).get("embedding")
        if recorded and recorded != embedding:
            raise StoreError(
                f"the {store} store in {self.path} was built with embedding {recorded}, not "
                f"{embedding}: use that embedding or ingest into a new data dir"
            )

    def _record(self, *, store: str, embedding: str) -> None:
        data = self.read_format() or {"format": FORMAT_VERSION, "stores": {}}
        stores = data.setdefault("stores", {})
        if stores.get(store, {}).get("embedding") == embedding:
            return
        stores[store] = {"embedding": embedding}
        tmp = self.format_file.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        os.replace(tmp, self.format_file)

    @contextlib.contextmanager
    def writing(self, *, store: str, embedding: str) -> Iterator[None]:
        """Hold the write lock, with the format checked and recorded."""
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            handle = open(self.path / LOCK_FILE, "a+", encoding="utf-8")  # noqa: SIM115
        except OSError as exc:
            raise StoreError(
                f"data dir {self.path} is not writable: {exc.strerror or exc}"
            ) from None
        with handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                handle.seek(0)
                holder = handle.read().strip() or "another process"
                raise StoreError(
                    f"data dir {self.path} is locked by {holder}; wait for it to finish"
                ) from None
            try:
                handle.seek(0)
                handle.truncate()
                handle.write(f"citebot ingest (pid {os.getpid()})")
                handle.flush()
                self.check(store=store, embedding=embedding)
                try:
                    self._record(store=store, embedding=embedding)
                except OSError as exc:
                    raise StoreError(
                        f"data dir {self.path} is not writable: {exc.strerror or exc}"
                    ) from None
                yield
            finally:
                handle.seek(0)
                handle.truncate()
                fcntl.flock(handle, fcntl.LOCK_UN)
