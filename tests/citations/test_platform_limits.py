"""Every payload stays inside the platforms' documented limits.

The numbers are the platforms' own, written here as literals with the page that
states them; they are never read from the renderers' constants, so a renderer
constant that drifts past a platform limit fails these tests.
"""

from __future__ import annotations

from typing import Any

import pytest

from citations import CitedAnswer, Source, resolve
from citations.render import render_discord, render_slack

# Slack, https://docs.slack.dev/reference/block-kit/blocks/section-block: section text ≤ 3000.
SLACK_SECTION_TEXT = 3000
# Slack, https://docs.slack.dev/reference/block-kit/blocks: ≤ 50 blocks per message.
SLACK_BLOCKS = 50
# Slack, https://docs.slack.dev/reference/block-kit/blocks/context-block: ≤ 10 elements.
SLACK_CONTEXT_ELEMENTS = 10
# Slack, https://docs.slack.dev/reference/block-kit/blocks/header-block: header text ≤ 150.
SLACK_HEADER_TEXT = 150
# Slack, https://docs.slack.dev/reference/methods/chat.postMessage: text is truncated past 40,000.
SLACK_MESSAGE_TEXT = 40_000
# Slack, https://docs.slack.dev/reference/methods/chat.postMessage: markdown_text ≤ 12,000.
SLACK_MARKDOWN_TEXT = 12_000
# Slack, undocumented: msg_blocks_too_long past about 12,000 characters of block text
# ("12,000 text characters with a buffer for block containers", slackapi/bolt-js#2509).
SLACK_BLOCKS_TEXT = 12_000

# Discord, https://discord.com/developers/docs/resources/message#create-message: content ≤ 2000.
DISCORD_CONTENT = 2000
# Discord, https://discord.com/developers/docs/resources/message#embed-object-embed-limits:
DISCORD_EMBED_TITLE = 256
DISCORD_EMBED_DESCRIPTION = 4096
DISCORD_EMBED_FIELDS = 25
DISCORD_FIELD_NAME = 256
DISCORD_FIELD_VALUE = 1024
DISCORD_FOOTER = 2048
DISCORD_AUTHOR = 256
DISCORD_EMBEDS_TOTAL = 6000
# Discord, https://discord.com/developers/docs/resources/message#create-message: ≤ 10 embeds.
DISCORD_EMBEDS = 10


def many_sources(n: int, title_len: int = 180) -> list[Source]:
    return [
        Source(i, f"https://docs.example.com/page/{i}/" + "p" * 60, f"T{i} " + "t" * title_len, "x")
        for i in range(1, n + 1)
    ]


def big_answer(n_sources: int, words: int) -> CitedAnswer:
    sources = many_sources(n_sources)
    cites = "".join(f"word{i} [{i}] " for i in range(1, n_sources + 1))
    body = " ".join(f"w{i}" for i in range(words))
    code = "```\n" + "\n".join(f"line {i} " + "c" * 70 for i in range(120)) + "\n```\n"
    return resolve(f"{body}\n\n{code}\n{cites}", sources)


CASES = [(3, 50), (40, 3000), (120, 12_000), (300, 20_000)]


def _slack_text_objects(block: dict[str, Any]) -> list[dict[str, Any]]:
    if block["type"] == "context":
        return list(block["elements"])
    return [block["text"]] if "text" in block else []


@pytest.mark.parametrize(("n_sources", "words"), CASES)
def test_slack_messages_fit(n_sources: int, words: int) -> None:
    messages = render_slack(big_answer(n_sources, words), header="h" * 5000)
    assert len(messages) >= 1
    for msg in messages:
        assert len(msg.blocks) <= SLACK_BLOCKS
        assert len(msg.text) <= SLACK_MESSAGE_TEXT
        assert len(msg.markdown_text) <= SLACK_MARKDOWN_TEXT
        text = sum(len(t["text"]) for b in msg.blocks for t in _slack_text_objects(b))
        assert text <= SLACK_BLOCKS_TEXT
        for block in msg.blocks:
            if block["type"] == "section":
                assert len(block["text"]["text"]) <= SLACK_SECTION_TEXT
            if block["type"] == "context":
                assert len(block["elements"]) <= SLACK_CONTEXT_ELEMENTS
                assert all(len(e["text"]) <= SLACK_SECTION_TEXT for e in block["elements"])
            if block["type"] == "header":
                assert len(block["text"]["text"]) <= SLACK_HEADER_TEXT


@pytest.mark.parametrize(("n_sources", "words"), CASES)
def test_slack_keeps_every_source_and_all_text(n_sources: int, words: int) -> None:
    answer = big_answer(n_sources, words)
    messages = render_slack(answer)
    blocks = [b for m in messages for b in m.blocks]
    entries = [e["text"] for b in blocks if b["type"] == "context" for e in b["elements"]]
    assert sum(1 for e in entries if e.startswith("[")) == n_sources
    sections = "".join(b["text"]["text"] for b in blocks if b["type"] == "section")
    assert f"w{words - 1}" in sections


@pytest.mark.parametrize(("n_sources", "words"), CASES)
def test_discord_messages_fit(n_sources: int, words: int) -> None:
    messages = render_discord(big_answer(n_sources, words), header="h" * 5000)
    for msg in messages:
        assert len(msg.content) <= DISCORD_CONTENT
        assert len(msg.embeds) <= DISCORD_EMBEDS
        total = 0
        for embed in msg.embeds:
            assert len(embed.get("title", "")) <= DISCORD_EMBED_TITLE
            assert len(embed.get("description", "")) <= DISCORD_EMBED_DESCRIPTION
            fields = embed.get("fields", [])
            assert len(fields) <= DISCORD_EMBED_FIELDS
            for f in fields:
                assert len(f["name"]) <= DISCORD_FIELD_NAME
                assert len(f["value"]) <= DISCORD_FIELD_VALUE
            assert len(embed.get("footer", {}).get("text", "")) <= DISCORD_FOOTER
            assert len(embed.get("author", {}).get("name", "")) <= DISCORD_AUTHOR
            total += len(embed.get("title", "")) + len(embed.get("description", ""))
            total += sum(len(f["name"]) + len(f["value"]) for f in fields)
        assert total <= DISCORD_EMBEDS_TOTAL


@pytest.mark.parametrize(("n_sources", "words"), CASES)
def test_discord_keeps_every_source_and_all_text(n_sources: int, words: int) -> None:
    answer = big_answer(n_sources, words)
    messages = render_discord(answer)
    lines = [line for m in messages for e in m.embeds for line in e["description"].split("\n")]
    assert len(lines) == n_sources
    assert f"w{words - 1}" in "".join(m.content for m in messages)


def test_a_source_title_is_cut_before_the_limits() -> None:
    source = Source(1, "https://e.com/x", "T" * 10_000, "x")
    [slack] = render_slack(resolve("a[1]", [source]))
    [discord] = render_discord(resolve("a[1]", [source]))
    assert all(
        len(o["text"]) <= SLACK_SECTION_TEXT for b in slack.blocks for o in _slack_text_objects(b)
    )
    assert len(discord.embeds[0]["description"]) <= DISCORD_EMBED_DESCRIPTION
    assert "https://e.com/x" in discord.embeds[0]["description"]
