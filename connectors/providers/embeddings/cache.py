"""Models built once from the bundled weights, kept in a cache folder between runs."""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from connectors.errors import ConnectorError, one_line

__all__ = ["cached_build", "default_cache_dir", "fingerprint"]

log = logging.getLogger("citebot.embeddings")


def default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "citebot"


def fingerprint(*parts: object) -> str:
    """A short name part that changes whenever one of ``parts`` does."""
    return hashlib.sha256(":".join(map(str, parts)).encode()).hexdigest()[:16]


def cached_build(
    name: str, build: Callable[[Path], None], *, what: str, cache_dir: Path | None = None
) -> Path:
    """``cache_dir/name``, made by ``build(path)`` the first time; ``what`` names it in messages.

    The file is written under a temporary name and renamed into place, so a reader
    never sees half of it, and two processes building at once both end with the same file.
    """
    folder = cache_dir or default_cache_dir()
    target = folder / name
    if target.is_file():
        return target
    log.info("building the %s in %s (once)", what, folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle, tmp = tempfile.mkstemp(dir=folder, prefix=".building-", suffix=target.suffix)
        os.close(handle)
    except OSError as exc:
        raise ConnectorError(
            f"cannot cache the {what} in {folder}: {exc.strerror or exc}"
        ) from None
    try:
        build(Path(tmp))
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except ConnectorError:
        raise
    except Exception as exc:
        raise ConnectorError(f"cannot build the {what}: {one_line(exc)}") from exc
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
    return target
