"""The fake Slack refuses what the real Slack Web API refuses, through the real slack_sdk client.

Limits are Slack's documented numbers, written out here with their pages.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bots.testing.slack_api import FakeSlack


@pytest.fixture
async def client() -> AsyncIterator[tuple[FakeSlack, AsyncWebClient]]:
    fake = await FakeSlack().start()
    yield fake, AsyncWebClient(token="xoxb-test", base_url=fake.base_url)
    await fake.close()


async def refused(call: Any) -> dict[str, Any]:
    with pytest.raises(SlackApiError) as caught:
        await call
    data: dict[str, Any] = caught.value.response.data  # type: ignore[assignment]
    return data


def section(text: str) -> dict[str, Any]:
    return {"type": "section", "text": {"type": "mrkdwn", "text": text}}


async def test_an_unknown_method_is_refused(client: tuple[FakeSlack, AsyncWebClient]) -> None:
    fake, slack = client
    body = await refused(slack.api_call("chat.postMesage", json={"channel": "C1", "text": "x"}))
    assert body["error"] == "unknown_method"
    assert fake.rejected == [("chat.postMesage", "unknown_method")]
    assert fake.messages == {}


async def test_missing_arguments_are_refused(client: tuple[FakeSlack, AsyncWebClient]) -> None:
    _, slack = client
    assert (await refused(slack.api_call("chat.postMessage", json={"text": "hi"})))[
        "error"
    ] == "channel_not_found"
    assert (await refused(slack.chat_postMessage(channel="C1")))["error"] == "no_text"
    body = await refused(slack.api_call("chat.update", json={"channel": "C1", "text": "x"}))
    assert body["error"] == "invalid_arguments"
    assert (await slack.chat_postMessage(channel="C1", text="fine"))["ok"]
    # an empty status is an argument: it clears the thread's status
    cleared = await slack.assistant_threads_setStatus(channel_id="D1", thread_ts="1.0", status="")
    assert cleared["ok"]


async def test_an_ephemeral_to_someone_outside_the_channel_is_refused(
    client: tuple[FakeSlack, AsyncWebClient],
) -> None:
    fake, slack = client
    fake.members["C1"] = {"U1"}
    # docs.slack.dev/reference/methods/chat.postEphemeral: "user_not_in_channel"
    body = await refused(slack.chat_postEphemeral(channel="C1", user="U2", text="only you"))
    assert body["error"] == "user_not_in_channel"
    assert fake.rejected == [("chat.postEphemeral", "user_not_in_channel")]
    assert fake.interactive.ephemerals == []
    sent = await slack.chat_postEphemeral(channel="C1", user="U1", text="only you")
    assert sent["ok"] and [e.user for e in fake.interactive.ephemerals] == ["U1"]
    # a channel whose members were never listed has everyone in it
    assert (await slack.chat_postEphemeral(channel="C2", user="U2", text="hi"))["ok"]


async def test_blocks_over_slacks_limits_are_refused(
    client: tuple[FakeSlack, AsyncWebClient],
) -> None:
    _, slack = client
    # 50 blocks per message: https://docs.slack.dev/reference/block-kit/blocks
    assert (await slack.chat_postMessage(channel="C1", blocks=[section("x")] * 50))["ok"]
    body = await refused(slack.chat_postMessage(channel="C1", blocks=[section("x")] * 51))
    assert body["error"] == "invalid_blocks"
    assert "[json-pointer:/blocks]" in body["response_metadata"]["messages"][0]
    # section text 3000: https://docs.slack.dev/reference/block-kit/blocks/section-block
    assert (await slack.chat_postMessage(channel="C1", blocks=[section("x" * 3000)]))["ok"]
    body = await refused(slack.chat_postMessage(channel="C1", blocks=[section("x" * 3001)]))
    assert body["response_metadata"]["messages"] == [
        "[ERROR] must be between 1 and 3000 characters [json-pointer:/blocks/0/text/text]"
    ]
    # context elements 10: https://docs.slack.dev/reference/block-kit/blocks/context-block
    element = {"type": "mrkdwn", "text": "[1]"}
    context = {"type": "context", "elements": [element] * 11}
    assert (await refused(slack.chat_postMessage(channel="C1", blocks=[context])))[
        "error"
    ] == "invalid_blocks"
    # header text 150: https://docs.slack.dev/reference/block-kit/blocks/header-block
    header = {"type": "header", "text": {"type": "plain_text", "text": "h" * 151}}
    assert (await refused(slack.chat_postMessage(channel="C1", blocks=[header])))[
        "error"
    ] == "invalid_blocks"
    # an unknown block type
    assert (await refused(slack.chat_postMessage(channel="C1", blocks=[{"type": "sektion"}])))[
        "error"
    ] == "invalid_blocks"


async def test_markdown_over_12000_characters_is_refused(
    client: tuple[FakeSlack, AsyncWebClient],
) -> None:
    _, slack = client
    # markdown_text 12,000: https://docs.slack.dev/reference/methods/chat.startStream
    started = await slack.chat_startStream(channel="D1", thread_ts="1.0")
    ok = await slack.chat_appendStream(channel="D1", ts=started["ts"], markdown_text="x" * 12_000)
    assert ok["ok"]
    body = await refused(
        slack.chat_appendStream(channel="D1", ts=started["ts"], markdown_text="x" * 12_001)
    )
    assert body["error"] == "msg_too_long"
    # all markdown blocks of a message, 12,000: https://docs.slack.dev/reference/block-kit/blocks/markdown-block
    half = {"type": "markdown", "text": "x" * 6001}
    assert (await refused(slack.chat_postMessage(channel="C1", blocks=[half, half])))[
        "error"
    ] == "invalid_blocks"


async def test_long_text_is_truncated_with_a_warning(
    client: tuple[FakeSlack, AsyncWebClient],
) -> None:
    fake, slack = client
    # 40,000: https://api.slack.com/changelog/2018-04-truncating-really-long-messages
    posted = await slack.chat_postMessage(channel="C1", text="x" * 40_001)
    assert posted["warning"] == "message_truncated"
    assert len(fake.messages[posted["ts"]].text) == 40_000


async def test_conversations_info_is_as_strict_as_slack(
    client: tuple[FakeSlack, AsyncWebClient],
) -> None:
    # https://docs.slack.dev/reference/methods/conversations.info: channel is required;
    # each kind of conversation needs its own read scope
    fake, slack = client
    assert (await refused(slack.api_call("conversations.info", params={})))[
        "error"
    ] == "channel_not_found"
    fake.conversations["G9"] = None
    assert (await refused(slack.conversations_info(channel="G9")))["error"] == "channel_not_found"
    assert (await refused(slack.conversations_info(channel="X1")))["error"] == "channel_not_found"
    mpim = (await slack.conversations_info(channel="G444"))["channel"]
    assert mpim["is_mpim"] and mpim["is_private"] and not mpim["is_im"]
    fake.scopes = {"channels:read", "groups:read"}
    body = await refused(slack.conversations_info(channel="G444"))
    assert (body["error"], body["needed"]) == ("missing_scope", "mpim:read")
    assert not (await slack.conversations_info(channel="C111"))["channel"]["is_private"]
