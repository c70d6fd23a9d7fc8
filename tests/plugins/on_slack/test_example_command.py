"""Acceptance, Slack half: the example plugin's command, written once, works as ``/ask glossary``.

The real Bolt app gets signed HTTP requests; replies go to the fake Slack's
``response_url``. The plugin comes from its installed entry point.
"""

from __future__ import annotations

import json

from bots.plugins.manager import PluginHost
from tests.slack.conftest import MakeHarness


async def test_the_example_command_is_a_slash_subcommand(make_harness: MakeHarness) -> None:
    h = await make_harness(runtime_kwargs={"plugins": PluginHost()})

    status, _, _ = await h.command("help")
    assert status == 200
    await h.fake.wait_for("response_url:cmd")
    help_text = h.fake.called("response_url:cmd")[0].params["text"]
    assert (
        "/ask glossary term:" in help_text and "Look up a term in the team glossary." in help_text
    )

    status, _, elapsed = await h.command("glossary RAG de 2 public:yes")
    assert status == 200 and elapsed < 1.0
    reply = (await h.fake.wait_for("response_url:cmd", count=2)).params
    assert reply["response_type"] == "in_channel"
    assert reply["text"] == (
        "*rag*: Retrieval-augmented Generation: Antworten aus gefundenen Dokumenten statt aus dem "
        "Gedächtnis.\nSee also: crag, embedding"
    )

    await h.command("glossary lang:fr rag")
    bad = (await h.fake.wait_for("response_url:cmd", count=3)).params
    assert bad["response_type"] == "ephemeral"
    assert bad["text"] == "lang must be one of en, de, not 'fr'"
    assert h.answerer.questions == [], "commands never reach the pipeline"


async def test_the_example_rules_apply_to_slack_questions(make_harness: MakeHarness) -> None:
    h = await make_harness(runtime_kwargs={"plugins": PluginHost()})
    await h.command("how do I roll back a K8s deploy?")
    await h.fake.wait_for("chat.stopStream")
    assert h.answerer.questions[0].text == "how do I roll back a K8s (Kubernetes) deploy?"

    await h.command("is xoxb-123456789012-abcdefghijkl still valid?")
    posted = await h.fake.wait_for(
        lambda f: [c for c in f.calls if "secret token" in json.dumps(c.params)]
    )
    assert posted
    assert len(h.answerer.questions) == 1, "the refused question never reached the pipeline"
    public = [c for c in h.fake.called("chat.postMessage") if "xoxb-" in json.dumps(c.params)]
    assert public == [], "a refused slash question is never restated in the channel"
    refusal = [
        c for c in h.fake.called("response_url:cmd") if "secret token" in json.dumps(c.params)
    ]
    assert refusal and refusal[0].params["response_type"] == "ephemeral"
