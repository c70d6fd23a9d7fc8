"""The fake Discord refuses what Discord's REST API refuses: 400 with code 50035 for message
payloads over Discord's limits, 50006 for an empty message, 404 for unknown routes.

Limits are Discord's documented numbers (discord-api-docs, developers/resources/message.mdx,
"Embed Limits" and "Create Message"), written out here.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from bots.testing.discord_api import CHANNEL_ID, FakeDiscord
from bots.testing.pytest_plugin import Citebot

MESSAGES = f"/channels/{CHANNEL_ID}/messages"


@pytest.fixture
async def discord() -> AsyncIterator[tuple[FakeDiscord, aiohttp.ClientSession]]:
    fake = await FakeDiscord().start()
    session = aiohttp.ClientSession(headers={"Authorization": f"Bot {fake.valid_token}"})
    yield fake, session
    await session.close()
    await fake.stop()


@pytest.fixture
async def connected(citebot: Citebot) -> AsyncIterator[tuple[FakeDiscord, aiohttp.ClientSession]]:
    """A real discord.py client on the fake's gateway, so accepted messages are dispatched."""
    async with citebot.discord() as bot:
        session = aiohttp.ClientSession(headers={"Authorization": f"Bot {bot.fake.valid_token}"})
        yield bot.fake, session
        await session.close()


async def send(
    discord: tuple[FakeDiscord, aiohttp.ClientSession],
    body: dict[str, Any],
    *,
    method: str = "POST",
    path: str = MESSAGES,
) -> tuple[int, dict[str, Any]]:
    fake, session = discord
    async with session.request(method, fake.api_url + path, json=body) as response:
        return response.status, await response.json(content_type=None)


def max_length(limit: int) -> dict[str, Any]:
    return {
        "_errors": [
            {"code": "BASE_TYPE_MAX_LENGTH", "message": f"Must be {limit} or fewer in length."}
        ]
    }


async def test_content_over_2000_characters_is_invalid_form_body(
    connected: tuple[FakeDiscord, aiohttp.ClientSession],
) -> None:
    fake, _ = connected
    assert (await send(connected, {"content": "x" * 2000}))[0] == 200
    status, body = await send(connected, {"content": "x" * 2001})
    assert status == 400
    assert body == {
        "code": 50035,
        "message": "Invalid Form Body",
        "errors": {"content": max_length(2000)},
    }
    assert len(fake.messages[str(CHANNEL_ID)]) == 1, "the refused message was not posted"


@pytest.mark.parametrize(
    ("embeds", "errors"),
    [
        ([{"description": "d"}] * 11, {"embeds": max_length(10)}),
        ([{"title": "t" * 257}], {"embeds": {"0": {"title": max_length(256)}}}),
        ([{"description": "d" * 4097}], {"embeds": {"0": {"description": max_length(4096)}}}),
        (
            [{"fields": [{"name": "n", "value": "v"}] * 26}],
            {"embeds": {"0": {"fields": max_length(25)}}},
        ),
        (
            [{"fields": [{"name": "n", "value": "v" * 1025}]}],
            {"embeds": {"0": {"fields": {"0": {"value": max_length(1024)}}}}},
        ),
        (
            [{"footer": {"text": "f" * 2049}}],
            {"embeds": {"0": {"footer": {"text": max_length(2048)}}}},
        ),
        (
            [{"description": "d" * 4000}, {"description": "d" * 2001}],
            {
                "embeds": {
                    "_errors": [
                        {
                            "code": "MAX_EMBED_SIZE_EXCEEDED",
                            "message": "Embed size exceeds maximum size of 6000",
                        }
                    ]
                }
            },
        ),
    ],
)
async def test_embeds_over_discords_limits_are_invalid_form_body(
    discord: tuple[FakeDiscord, aiohttp.ClientSession],
    embeds: list[dict[str, Any]],
    errors: dict[str, Any],
) -> None:
    status, body = await send(discord, {"content": "answer", "embeds": embeds})
    assert (status, body["code"], body["errors"]) == (400, 50035, errors)


async def test_an_empty_message_and_an_unknown_route_are_refused(
    discord: tuple[FakeDiscord, aiohttp.ClientSession],
) -> None:
    assert await send(discord, {}) == (
        400,
        {"code": 50006, "message": "Cannot send an empty message"},
    )
    status, body = await send(discord, {"content": "x"}, path=f"/channels/{CHANNEL_ID}/mesages")
    assert (status, body) == (404, {"message": "404: Not Found", "code": 0})


async def test_edits_and_interaction_replies_are_held_to_the_same_limits(
    connected: tuple[FakeDiscord, aiohttp.ClientSession],
) -> None:
    fake, _ = connected
    _, posted = await send(connected, {"content": "short"})
    status, body = await send(
        connected, {"content": "x" * 2001}, method="PATCH", path=f"{MESSAGES}/{posted['id']}"
    )
    assert (status, body["errors"]) == (400, {"content": max_length(2000)})
    interaction = await fake.slash("help")
    status, body = await send(
        connected,
        {"type": 4, "data": {"content": "x" * 2001}},
        path=f"/interactions/{interaction.id}/{interaction.token}/callback",
    )
    assert (status, body["errors"]) == (400, {"data": {"content": max_length(2000)}})
