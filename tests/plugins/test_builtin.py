"""The built-in commands and the example plugin's command, run as an adapter would run them."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bots.core.feedback import FeedbackStore
from bots.core.runtime import Runtime
from bots.plugins.commands import CommandReply, find, invoke, parse_options
from bots.plugins.context import plugin_context
from bots.plugins.manager import commands_of
from connectors.knowledge.store.manifest import Entry, Manifest
from pipeline.question import Place

pytestmark = pytest.mark.usefixtures("example_installed")

SLACK = Place("slack", "T1", "C1")
DISCORD = Place("discord", "G1", "C1")


async def run(
    runtime: Runtime, name: str, place: Place = SLACK, text: str = "", **options: Any
) -> CommandReply:
    command = find(commands_of(runtime.plugins), name)
    assert command is not None, name
    values = parse_options(command, text) if text else options
    scope = runtime.scope_for(place)
    return await invoke(
        command, plugin_context(runtime, place, user="U1", scope=scope, options=values)
    )


async def test_help_lists_every_command_as_typed_on_each_platform(
    make_runtime: Callable[..., Runtime],
) -> None:
    runtime = make_runtime(slack={"slash_command": "/docs"})
    slack = (await run(runtime, "help", SLACK)).text
    assert (
        "• `/docs glossary term:<text> [lang:en|de] [related:<int>] [public:yes|no]`: Look up"
        in slack
    )
    assert "• `/docs feedback-stats`: Show how people rated" in slack
    assert "`/docs <question>`" in slack
    discord = (await run(runtime, "help", DISCORD)).text
    assert "• `/sources [limit:<int>]`: Show what the knowledge base" in discord
    assert "`/ask <question>`" in discord


async def test_feedback_stats_reads_the_shared_store(
    make_runtime: Callable[..., Runtime], tmp_path: Path
) -> None:
    runtime = make_runtime()
    assert (await run(runtime, "feedback-stats")).text == "Feedback is not recorded on this bot."
    store = FeedbackStore(tmp_path / "votes.sqlite3")
    runtime.feedback = store
    assert (await run(runtime, "feedback-stats")).text == "Feedback: no votes yet on 0 answers."
    for answer, platform in (("a1", "slack"), ("a2", "slack"), ("a3", "discord")):
        store.record_answer(
            answer, platform=platform, question="q", route="knowledge_base", references=[]
        )
    store.vote("a1", user="U1", vote="up", platform="slack")
    store.vote("a1", user="U2", vote="up", platform="slack")
    store.vote("a2", user="U1", vote="down", platform="slack")
    store.vote("a3", user="D1", vote="down", platform="discord")
    assert (await run(runtime, "feedback-stats", SLACK)).text == (
        "Feedback: 2 👍 and 2 👎 (50% helpful) on 3 answers.\n"
        "On slack: 2 👍 and 1 👎 (67% helpful) on 2 answers."
    )
    store.close()


async def test_sources_respects_an_empty_scope(make_runtime: Callable[..., Runtime]) -> None:
    runtime = make_runtime(access={"scopes": {"slack:T1/C1": []}})
    reply = await run(runtime, "sources", SLACK)
    assert reply.text == "No knowledge collections are open to this channel."


async def test_glossary_from_slack_text_and_discord_options(
    make_runtime: Callable[..., Runtime],
) -> None:
    runtime = make_runtime()
    slack = await run(runtime, "glossary", SLACK, text="RAG de 2 public:yes")
    discord = await run(runtime, "glossary", DISCORD, term="RAG", lang="de", related=2, public=True)
    assert slack == discord
    assert slack.text == (
        "*rag*: Retrieval-augmented Generation: Antworten aus gefundenen Dokumenten statt aus dem Gedächtnis.\n"
        "See also: crag, embedding"
    )
    assert not slack.ephemeral
    unknown = await run(runtime, "glossary", DISCORD, term="blockchain")
    assert unknown.text.startswith(
        "“blockchain” is not in the glossary. Known terms: crag, embedding"
    )
    assert unknown.ephemeral


def ingested(data_dir: Path) -> None:
    """Three documents in two collections, recorded by the real ingest manifest."""
    with Manifest(data_dir, "lancedb") as manifest:
        for collection, key, title in (
            ("eng", "deploy.md", "Deploying"),
            ("eng", "oncall.md", ""),
            ("hr", "salaries.md", "Salary bands"),
        ):
            manifest.put(
                Entry(collection, key, "docs/", "f1", 3, f"https://docs.example/{key}", title, "md")
            )
        manifest.put(Entry("eng", "half-written.md", "docs/", "", 0, "", "", "md"))


async def test_sources_lists_only_the_channels_scope(
    make_runtime: Callable[..., Runtime], tmp_path: Path
) -> None:
    ingested(tmp_path)
    runtime = make_runtime(data_dir=tmp_path, access={"scopes": {"slack:T1/C1": ["eng"]}})
    reply = await run(runtime, "sources", SLACK)
    assert reply.text == (
        "The knowledge base open to this channel holds 2 documents (eng):\n"
        "*eng* (2)\n"
        "• Deploying <https://docs.example/deploy.md>\n"
        "• oncall.md <https://docs.example/oncall.md>"
    )
    assert "Salary" not in reply.text
    everything = await run(runtime, "sources", DISCORD, limit=1)
    assert everything.text.startswith(
        "The knowledge base open to this channel holds 3 documents (all collections):"
    )
    assert everything.text.endswith("…and 2 more.")


async def test_sources_before_anything_was_ingested(
    make_runtime: Callable[..., Runtime], tmp_path: Path
) -> None:
    reply = await run(make_runtime(data_dir=tmp_path / "empty"), "sources", DISCORD)
    assert (
        reply.text
        == "Nothing has been ingested into the knowledge base open to this channel (all collections)."
    )


async def test_sources_with_an_unreadable_manifest(
    make_runtime: Callable[..., Runtime], tmp_path: Path
) -> None:
    (tmp_path / "manifest.sqlite").write_bytes(b"this is not a database" * 100)
    reply = await run(make_runtime(data_dir=tmp_path), "sources", DISCORD)
    assert reply.text.startswith("I can't list the knowledge base right now (")


async def test_sources_titles_never_become_links(
    make_runtime: Callable[..., Runtime], tmp_path: Path
) -> None:
    with Manifest(tmp_path, "lancedb") as manifest:
        manifest.put(
            Entry(
                "eng",
                "reset.md",
                "docs/",
                "f1",
                3,
                "https://docs.example/reset.md",
                "[Reset your password](https://phish.example/login) or https://evil.example/x",
                "md",
            )
        )
    reply = await run(make_runtime(data_dir=tmp_path), "sources", DISCORD)
    listed = reply.text.splitlines()[-1]
    assert "](" not in listed and "https://evil" not in listed, listed
    assert listed.endswith(" <https://docs.example/reset.md>"), "the source's own link stays"
    assert "Reset your password" in listed and "phish.example/login" in listed
