"""LlamaHub readers by configuration, with readers that ship in llama-index-core or live here."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from llama_index.core import Document as LIDocument
from llama_index.core.readers.base import BaseReader

from connectors.errors import ConnectorError, SourceNotFound
from connectors.knowledge.settings import IngestSettings, ReaderSettings
from connectors.knowledge.sources.llamahub import read_documents


class WikiReader(BaseReader):
    """Stands in for a SaaS reader (Notion, Confluence): pages with ids, titles and links."""

    def __init__(self, space: str, fail: bool = False) -> None:
        self.space = space
        self.fail = fail

    def load_data(self, limit: int = 10) -> list[LIDocument]:
        if self.fail:
            raise RuntimeError("401 Unauthorized")
        pages = [
            ("p1", "Onboarding", "Welcome aboard. Ask in #help."),
            ("p2", "Deploys", "Deploys happen on Tuesdays."),
            ("p3", "Empty", "   "),
        ]
        return [
            LIDocument(
                text=text,
                id_=f"random-{i}",
                metadata={"page_id": pid, "title": title, "space": self.space},
            )
            for i, (pid, title, text) in enumerate(pages[:limit])
        ]


def wiki(**overrides: Any) -> ReaderSettings:
    fields: dict[str, Any] = {
        "reader_module": __name__,
        "reader_class": "WikiReader",
        "args": {"space": "ENG"},
        "load_args": {"limit": 3},
        "url_template": "https://wiki.example.com/{space}/{page_id}",
    }
    return ReaderSettings.model_validate(fields | overrides)


async def test_a_configured_reader_maps_url_title_and_stable_keys() -> None:
    docs = await read_documents("wiki", wiki(), collection="eng")
    assert [d.url for d in docs] == [
        "https://wiki.example.com/ENG/p1",
        "https://wiki.example.com/ENG/p2",
    ]
    assert [d.title for d in docs] == ["Onboarding", "Deploys"]
    assert docs[0].key == "wiki:https://wiki.example.com/ENG/p1"  # not the reader's random id
    assert {d.collection for d in docs} == {"eng"}
    assert docs[0].sections[0].text == "Welcome aboard. Ask in #help."
    again = await read_documents("wiki", wiki(), collection="eng")
    assert [d.content_hash for d in again] == [d.content_hash for d in docs]


async def test_reader_collection_in_settings_wins() -> None:
    docs = await read_documents("wiki", wiki(collection="handbook"), collection="default")
    assert {d.collection for d in docs} == {"handbook"}


async def test_simple_directory_reader_from_core(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# Alpha\n\nAlpha text.")
    (tmp_path / "b.txt").write_text("Beta text.")
    config = ReaderSettings(
        reader_module="llama_index.core.readers",
        reader_class="SimpleDirectoryReader",
        args={"input_dir": str(tmp_path)},
    )
    docs = sorted(await read_documents("files", config, collection="default"), key=lambda d: d.url)
    assert [d.url for d in docs] == [(tmp_path / "a.md").as_uri(), (tmp_path / "b.txt").as_uri()]
    assert [d.title for d in docs] == ["a.md", "b.txt"]


def test_readers_are_settings() -> None:
    settings = IngestSettings.model_validate(
        {
            "readers": {
                "notion": {
                    "reader_module": "llama_index.readers.notion",
                    "reader_class": "NotionPageReader",
                }
            }
        }
    )
    assert settings.readers["notion"].reader_class == "NotionPageReader"


async def test_missing_module_says_what_to_install() -> None:
    config = ReaderSettings(
        reader_module="llama_index.readers.notion", reader_class="NotionPageReader"
    )
    with pytest.raises(SourceNotFound, match="llama-index-readers-notion"):
        await read_documents("notion", config, collection="default")


async def test_a_failing_reader_is_one_line() -> None:
    with pytest.raises(
        ConnectorError, match=r"reader 'wiki' failed: RuntimeError: 401 Unauthorized"
    ):
        await read_documents("wiki", wiki(args={"space": "ENG", "fail": True}), collection="eng")
    with pytest.raises(SourceNotFound, match="has no class Nope"):
        await read_documents("wiki", wiki(reader_class="Nope"), collection="eng")


async def test_secrets_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WIKI_SPACE", "OPS")
    docs = await read_documents("wiki", wiki(args={"space": "env:WIKI_SPACE"}), collection="ops")
    assert docs[0].url == "https://wiki.example.com/OPS/p1"
    monkeypatch.delenv("WIKI_SPACE")
    with pytest.raises(SourceNotFound, match="environment variable WIKI_SPACE is not set"):
        await read_documents("wiki", wiki(args={"space": "env:WIKI_SPACE"}), collection="ops")
