"""Acceptance, Discord half: the same example command is its own app command, ``/glossary``.

A real discord.py client logs in to the fake Discord (REST and gateway), syncs
its command tree and answers INTERACTION_CREATE events.
"""

from __future__ import annotations

from typing import Any

from bots.plugins.manager import PluginHost
from bots.testing.discord_api import FakeDiscord
from tests.discord.conftest import StartBot

CALLBACK = r"/interactions/\d+/[^/]+/callback"
STRING, INTEGER, BOOLEAN = 3, 4, 5
EPHEMERAL = 64


def synced(fake: FakeDiscord, name: str) -> dict[str, Any]:
    commands = [c for where in fake.commands.values() for c in where]
    return next(c for c in commands if c["name"] == name)


async def test_the_example_command_is_an_app_command(
    start_bot: StartBot, fake: FakeDiscord
) -> None:
    h = await start_bot(plugins=PluginHost())

    glossary = synced(fake, "glossary")
    assert glossary["description"] == "Look up a term in the team glossary."
    options = {o["name"]: o for o in glossary["options"]}
    assert list(options) == ["term", "lang", "related", "public"]
    assert (options["term"]["type"], options["term"]["required"]) == (STRING, True)
    assert [c["value"] for c in options["lang"]["choices"]] == ["en", "de"]
    assert (options["related"]["type"], options["public"]["type"]) == (INTEGER, BOOLEAN)
    assert {"help", "sources", "feedback-stats", "ask"} <= {
        c["name"] for where in fake.commands.values() for c in where
    }

    await fake.slash("glossary", {"term": "RAG", "lang": "de", "related": 2, "public": True})
    reply = (await fake.wait_call("POST", CALLBACK)).json
    assert reply["type"] == 4
    assert reply["data"]["content"] == (
        "*rag*: Retrieval-augmented Generation: Antworten aus gefundenen Dokumenten statt aus dem "
        "Gedächtnis.\nSee also: crag, embedding"
    )
    assert not reply["data"].get("flags", 0) & EPHEMERAL
    assert reply["data"]["allowed_mentions"]["parse"] == []

    await fake.slash("glossary", {"term": "blockchain"})
    unknown = (await fake.wait_for(lambda: fake.find("POST", CALLBACK)[1:])).pop().json
    assert unknown["data"]["content"].startswith("“blockchain” is not in the glossary.")
    assert unknown["data"]["flags"] & EPHEMERAL

    await fake.slash("help")
    listing = (await fake.wait_for(lambda: fake.find("POST", CALLBACK)[2:])).pop().json
    assert (
        "`/glossary term:<text> [lang:en|de] [related:<int>] [public:yes|no]`"
        in listing["data"]["content"]
    )
    assert h.answerer.questions == [], "commands never reach the pipeline"


async def test_the_example_rules_apply_to_discord_questions(
    start_bot: StartBot, fake: FakeDiscord
) -> None:
    h = await start_bot(plugins=PluginHost())
    await fake.slash("ask", {"question": "how do I roll back a K8s deploy?"})
    await fake.wait_for(lambda: h.answerer.questions)
    assert h.answerer.questions[0].text == "how do I roll back a K8s (Kubernetes) deploy?"

    await fake.slash("ask", {"question": "is xoxb-123456789012-abcdefghijkl still valid?"})
    refusal = await fake.wait_call(
        "PATCH", r"/webhooks/\d+/[^/]+/messages/@original", lambda c: "secret token" in str(c.json)
    )
    assert "Please revoke it" in refusal.json["content"]
    assert len(h.answerer.questions) == 1, "the refused question never reached the pipeline"
