"""The example plugin on a real bot, against fake Slack and Discord (citebot's ``citebot`` fixture).

Run with ``uv run pytest`` in this folder, or as part of citebot's own suite.
"""

from __future__ import annotations

import json
from pathlib import Path

import citebot_example_plugin as example

from bots.plugins import Route
from bots.testing.answerer import ScriptedAnswerer
from bots.testing.pytest_plugin import Citebot

RAG_DE = (
    "*rag*: Retrieval-augmented Generation: Antworten aus gefundenen Dokumenten statt aus dem "
    "Gedächtnis.\nSee also: crag, embedding"
)


async def test_glossary_is_one_command_on_both_platforms(citebot: Citebot) -> None:
    async with citebot.slack(plugins=[example]) as slack:
        reply = await slack.command("glossary RAG de 2 public:yes")
        assert (reply.text, reply.ephemeral) == (RAG_DE, False)
        bad = await slack.command("glossary lang:fr rag")
        assert (bad.text, bad.ephemeral) == ("lang must be one of en, de, not 'fr'", True)
        listed = await slack.command("help")
        assert "/ask glossary term:<text> [lang:en|de]" in listed.text
        assert slack.questions == [], "commands never reach the pipeline"

    async with citebot.discord(plugins=[example]) as discord:
        reply = await discord.slash("glossary", term="RAG", lang="de", related=2, public=True)
        assert (reply.text, reply.ephemeral) == (RAG_DE, False)
        unknown = await discord.slash("glossary", term="blockchain")
        assert unknown.ephemeral and unknown.text.startswith("“blockchain” is not in the glossary")


async def test_abbreviations_are_spelt_out_before_retrieval(citebot: Citebot) -> None:
    async with citebot.slack(plugins=[example]) as bot:
        answer = await bot.mention("how do I roll back a K8s deploy?")
    assert bot.questions[0].text == "how do I roll back a K8s (Kubernetes) deploy?"
    assert "Deploys run nightly." in answer.text


async def test_a_pasted_token_is_refused_and_never_answered(citebot: Citebot) -> None:
    async with citebot.slack(plugins=[example]) as bot:
        answer = await bot.mention("is xoxb-123456789012-abcdefghijkl still valid?")
    assert "looks like it contains a secret token" in answer.text
    assert bot.questions == []


async def test_web_answers_say_where_they_come_from(citebot: Citebot) -> None:
    web = ScriptedAnswerer("Python 3.13 came out in October 2024.", route=Route.WEB)
    async with citebot.discord(plugins=[example], answerer=web) as bot:
        answer = await bot.ask("when did python 3.13 come out?")
    assert answer.text.splitlines()[0].startswith("Python 3.13 came out in October 2024.")
    assert example.WEB_NOTE in answer.text


async def test_unanswered_questions_are_noted_for_the_maintainers(citebot: Citebot) -> None:
    nothing = ScriptedAnswerer("I couldn't find this in the docs.", route=Route.NO_ANSWER)
    async with citebot.discord(plugins=[example], answerer=nothing) as bot:
        answer = await bot.ask("who owns the billing service?")
    assert example.NOTED in answer.text
    (record,) = [
        json.loads(line)
        for line in (citebot.data_dir / example.UNANSWERED).read_text().splitlines()
    ]
    assert record["question"] == "who owns the billing service?"
    assert (record["platform"], record["asker"]) == ("discord", "2001")


async def test_no_claim_when_the_question_could_not_be_noted(citebot: Citebot) -> None:
    (Path(citebot.data_dir) / example.UNANSWERED).mkdir(parents=True)  # not writable as a file
    nothing = ScriptedAnswerer("I couldn't find this in the docs.", route=Route.NO_ANSWER)
    async with citebot.slack(plugins=[example], answerer=nothing) as bot:
        answer = await bot.mention("who owns the billing service?")
    assert "couldn't find this" in answer.text
    assert example.NOTED not in answer.text
    assert "maintainer" not in answer.text
