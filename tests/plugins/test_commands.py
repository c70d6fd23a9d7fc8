"""One command definition, read the same way from Slack text and from Discord's typed options."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bots.core.runtime import Runtime
from bots.plugins import PluginContext
from bots.plugins.commands import (
    ChatCommand,
    CommandOption,
    CommandReply,
    OptionError,
    coerce_options,
    invoke,
    parse_options,
    problems,
)
from bots.plugins.context import plugin_context
from bots.settings import load_settings
from pipeline.question import Place


async def _echo(context: PluginContext) -> CommandReply:
    return CommandReply(repr(sorted(context.options.items())))


GLOSSARY = ChatCommand(
    "glossary",
    "Look up a term.",
    _echo,
    options=(
        CommandOption("term", "The term", required=True),
        CommandOption("lang", "Language", choices=("en", "de"), default="en"),
        CommandOption("related", "How many related terms", type="int", default=0),
        CommandOption("public", "Show to everyone", type="bool", default=False),
    ),
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("rag", {"term": "rag", "lang": "en", "related": 0, "public": False}),
        ("rag de 2 yes", {"term": "rag", "lang": "de", "related": 2, "public": True}),
        ("term:rag related=3", {"term": "rag", "lang": "en", "related": 3, "public": False}),
        (
            '"vector store" lang:de',
            {"term": "vector store", "lang": "de", "related": 0, "public": False},
        ),
        ("public:on term=rag", {"term": "rag", "lang": "en", "related": 0, "public": True}),
        ("it's broken", {"term": "it's broken", "lang": "en", "related": 0, "public": False}),
        (
            "vector store de 1",
            {"term": "vector store", "lang": "de", "related": 1, "public": False},
        ),
        (
            "vector store related:2",
            {"term": "vector store", "lang": "en", "related": 2, "public": False},
        ),
    ],
)
def test_parse_slack_text(text: str, expected: dict[str, Any]) -> None:
    assert parse_options(GLOSSARY, text) == expected


def test_surplus_words_join_the_last_text_option() -> None:
    ask = ChatCommand(
        "note", "Leave a note.", _echo, options=(CommandOption("text", "The note", required=True),)
    )
    assert parse_options(ask, "see https://example.org/a?b=c for more") == {
        "text": "see https://example.org/a?b=c for more"
    }


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "",
            "/glossary needs term: usage /glossary term:<text> [lang:en|de] [related:<int>] [public:yes|no]",
        ),
        ("rag lang:fr", "lang must be one of en, de, not 'fr'"),
        ("rag en many", "related must be a whole number, not 'many'"),
        ("rag en 1 maybe", "public must be yes or no, not 'maybe'"),
        ("rag en 1 yes extra", "too many values for /glossary"),
        ("term:a term:b", "term is given twice"),
    ],
)
def test_bad_slack_text_gets_one_clear_line(text: str, message: str) -> None:
    with pytest.raises(OptionError) as caught:
        parse_options(GLOSSARY, text)
    assert str(caught.value).startswith(message)
    assert "\n" not in str(caught.value)


@given(st.integers(min_value=-(10**9), max_value=10**9), st.booleans())
def test_typed_values_survive_both_routes(number: int, flag: bool) -> None:
    from_slack = parse_options(
        GLOSSARY, f"term:x related:{number} public:{'yes' if flag else 'no'}"
    )
    from_discord = coerce_options(GLOSSARY, {"term": "x", "related": number, "public": flag})
    assert (
        from_slack == from_discord == {"term": "x", "lang": "en", "related": number, "public": flag}
    )


def test_coerce_rejects_unknown_and_fills_defaults() -> None:
    assert coerce_options(GLOSSARY, {"term": "x", "lang": None}) == {
        "term": "x",
        "lang": "en",
        "related": 0,
        "public": False,
    }
    with pytest.raises(OptionError, match="has no option 'colour'"):
        coerce_options(GLOSSARY, {"term": "x", "colour": "red"})
    with pytest.raises(OptionError, match="related must be a whole number"):
        coerce_options(GLOSSARY, {"term": "x", "related": True})


def test_usage() -> None:
    assert (
        GLOSSARY.usage("/ask ")
        == "/ask glossary term:<text> [lang:en|de] [related:<int>] [public:yes|no]"
    )


def test_problems_follow_discord_rules() -> None:
    assert problems(GLOSSARY) == []
    bad = ChatCommand(
        "x",
        "d" * 101,
        _echo,
        options=(
            CommandOption("opt", "optional"),
            CommandOption("req", "required", required=True),
            CommandOption("n", "number", type="int", choices=("1",)),
            CommandOption("opt", "again"),
        ),
    )
    assert problems(bad) == [
        "/x: description must be 1-100 characters",
        "/x option 'req': required options must come before optional ones",
        "/x option 'n': choices need type str and at most 25",
        "/x option 'opt': duplicate",
    ]


def context(**options: Any) -> PluginContext:
    runtime = Runtime(load_settings(plugins={"command_timeout": 0.05}))
    return plugin_context(
        runtime, Place("slack", "T1", "C1"), user="U1", scope=None, options=options
    )


async def test_invoke_completes_options_before_the_handler() -> None:
    reply = await invoke(GLOSSARY, context(term="rag", related="2"))
    assert reply.text == "[('lang', 'en'), ('public', False), ('related', 2), ('term', 'rag')]"


async def test_invoke_answers_bad_options_with_usage() -> None:
    reply = await invoke(GLOSSARY, context())
    assert reply.text.startswith("/glossary needs term")
    assert reply.ephemeral


async def test_a_failing_handler_answers_in_one_line(caplog: pytest.LogCaptureFixture) -> None:
    async def crash(context: PluginContext) -> CommandReply:
        raise ZeroDivisionError("secret detail")

    reply = await invoke(ChatCommand("crash", "Crashes.", crash, plugin="p"), context())
    assert reply.text == "Sorry, /crash failed. The error was logged for the operators."
    assert "secret detail" not in reply.text
    assert "command /crash (plugin p) failed" in caplog.text


async def test_a_hanging_handler_is_stopped() -> None:
    async def hang(context: PluginContext) -> CommandReply:
        await asyncio.Event().wait()
        return CommandReply("never")

    reply = await invoke(ChatCommand("hang", "Hangs.", hang), context())
    assert reply.text == "Sorry, /hang took too long and was stopped."


async def test_plain_strings_and_sync_handlers_are_accepted(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.ERROR)

    def sync(context: PluginContext) -> str:
        return "pong"

    def wrong(context: PluginContext) -> int:
        return 42

    assert await invoke(ChatCommand("ping", "Ping.", sync), context()) == CommandReply("pong")  # type: ignore[arg-type]
    reply = await invoke(ChatCommand("wrong", "Wrong.", wrong), context())  # type: ignore[arg-type]
    assert reply.text.startswith("Sorry, /wrong failed")
    assert "returned int, not a CommandReply with text" in caplog.text

    def empty(context: PluginContext) -> CommandReply:
        return CommandReply(None)  # type: ignore[arg-type]

    reply = await invoke(ChatCommand("empty", "Empty.", empty), context())  # type: ignore[arg-type]
    assert reply.text.startswith("Sorry, /empty failed")
    assert "returned NoneType, not a CommandReply with text" in caplog.text
