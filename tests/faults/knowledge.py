"""A small ingested knowledge base (one page on API keys), for tests of the real pipeline."""

from __future__ import annotations

from pathlib import Path

from bots.settings import Settings
from connectors.factory import open_store
from connectors.knowledge.ingest import Ingestor
from connectors.knowledge.sources.folder import read_folder

KEYS = """# API keys

## Rotating API keys

To rotate a key, open Settings › API keys and click Rotate next to the key. The old key keeps
working for 24 hours so that running jobs can switch over; after that it is revoked.
"""
KEYS_URL = "https://docs.example.com/keys.md#rotating-api-keys"


def ingest_keys(docs: Path, data: Path) -> Path:
    """``data``, a data dir whose LanceDB store holds the page (written to ``docs`` first)."""
    (docs / "keys.md").write_text(KEYS, encoding="utf-8")
    store = open_store(Settings(data_dir=data))
    try:
        Ingestor(store, data, progress=False).ingest(
            read_folder(docs, url_base="https://docs.example.com/"), source=f"folder:{docs}"
        )
    finally:
        store.close()
    return data
