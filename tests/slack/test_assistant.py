"""The assistant panel: Bolt's AsyncAssistant in the real app, against the fake Slack."""

from __future__ import annotations

from typing import Any

import pytest
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bots.platforms.slack.assistant import thread_title
from bots.platforms.slack.bot import check_settings
from bots.platforms.slack.manifest import build_manifest
from bots.settings import SettingsError
from bots.settings.sections import SlackSettings
from bots.testing.slack_api import BOT_ID, BOT_USER, FakeSlack
from pipeline.question import PlaceKind, Trigger, Turn

from .conftest import MakeHarness, message

DM = "D0ASSIST"


def in_assistant_thread(text: str, thread_ts: str, ts: str) -> dict[str, Any]:
    return message(text, ts=ts, channel=DM, channel_type="im", thread_ts=thread_ts)


async def test_an_assistant_thread_gets_suggested_prompts_and_an_answer(
    make_harness: MakeHarness,
) -> None:
    h = await make_harness(assistant=True)
    h.bot.runtime.settings.access.dm_scope = ["handbook"]
    started = h.fake.assistant_thread_started(user="U222", viewing="C111")
    status, _, _ = await h.event(started)
    assert status == 200
    prompts = await h.fake.wait_for("assistant.threads.setSuggestedPrompts")
    thread_ts = started["assistant_thread"]["thread_ts"]
    assert prompts.params["channel_id"] == DM
    assert prompts.params["thread_ts"] == thread_ts
    assert [p["message"] for p in prompts.params["prompts"]] == h.bot.settings.assistant_prompts

    await h.event(in_assistant_thread("What is the answer?", thread_ts, ts="1700000100.000001"))
    stop = await h.fake.wait_for("chat.stopStream")
    await h.bot.drain()

    title = h.fake.called("assistant.threads.setTitle")
    assert [c.params["title"] for c in title] == ["What is the answer?"]
    statuses = h.fake.called("assistant.threads.setStatus")
    assert statuses and statuses[0].params["channel_id"] == DM
    assert statuses[0].params["thread_ts"] == thread_ts
    start = h.fake.called("chat.startStream")[0]
    assert (start.params["channel"], start.params["thread_ts"]) == (DM, thread_ts)
    # the same footnotes and votes as anywhere else
    shown = h.fake.messages[stop.params["ts"]]
    assert "[1]" in shown.markdown
    assert "docs.example.com/guide" in shown.visible_text
    actions = [b for b in shown.blocks if b["type"] == "actions"]
    assert {e["action_id"] for e in actions[0]["elements"]} == {
        "citebot_vote_up",
        "citebot_vote_down",
    }
    question = h.answerer.questions[0]
    assert question.trigger is Trigger.ASSISTANT
    assert question.place.kind is PlaceKind.DM
    assert question.place.thread == thread_ts
    # the DM's scope, whatever channel the panel was opened next to
    assert question.scope == ("handbook",)
    assert not h.fake.rejected


async def test_a_follow_up_in_the_assistant_thread_carries_its_history(
    make_harness: MakeHarness,
) -> None:
    h = await make_harness(assistant=True)
    started = h.fake.assistant_thread_started(user="U222")
    thread_ts = started["assistant_thread"]["thread_ts"]
    h.fake.threads[(DM, thread_ts)] += [
        {"user": "U222", "text": "How do I deploy?", "ts": "1700000100.000001"},
        {"user": BOT_USER, "bot_id": BOT_ID, "text": "Run make deploy.", "ts": "1700000101.0"},
        {"user": "U222", "text": "And roll back?", "ts": "1700000102.000001"},
    ]
    await h.event(in_assistant_thread("And roll back?", thread_ts, ts="1700000102.000001"))
    await h.fake.wait_for("chat.stopStream")
    await h.bot.drain()

    history = h.answerer.questions[0].history
    assert history == (Turn("user", "How do I deploy?"), Turn("assistant", "Run make deploy."))
    # only the first question names the thread
    assert not h.fake.called("assistant.threads.setTitle")


async def test_without_the_setting_the_assistant_events_are_not_handled(
    make_harness: MakeHarness,
) -> None:
    h = await make_harness()
    started = h.fake.assistant_thread_started(user="U222")
    await h.event(started)
    await h.bot.drain()
    assert not h.fake.called("assistant.threads.setSuggestedPrompts")


async def test_a_refused_prompt_list_does_not_stop_the_thread(make_harness: MakeHarness) -> None:
    h = await make_harness(assistant=True)
    h.fake.fail("assistant.threads.setSuggestedPrompts", "missing_scope")
    started = h.fake.assistant_thread_started(user="U222")
    await h.event(started)
    await h.fake.wait_for("assistant.threads.setSuggestedPrompts")
    thread_ts = started["assistant_thread"]["thread_ts"]
    await h.event(in_assistant_thread("What is the answer?", thread_ts, ts="1700000100.000001"))
    await h.fake.wait_for("chat.stopStream")


@pytest.mark.parametrize(
    ("method", "args", "error"),
    [
        # "up to four suggested prompts" (docs.slack.dev/reference/methods/assistant.threads.setSuggestedPrompts)
        (
            "assistant_threads_setSuggestedPrompts",
            {"prompts": [{"title": f"p{i}", "message": f"p{i}"} for i in range(5)]},
            "invalid_arguments",
        ),
        (
            "assistant_threads_setSuggestedPrompts",
            {"prompts": [{"title": "t"}]},
            "invalid_arguments",
        ),
        # "Maximum of 10 messages" (docs.slack.dev/reference/methods/assistant.threads.setStatus)
        (
            "assistant_threads_setStatus",
            {"thread_ts": "1.0", "status": "is thinking…", "loading_messages": ["x"] * 11},
            "invalid_arguments",
        ),
        ("assistant_threads_setTitle", {"thread_ts": "1.0", "title": " "}, "invalid_arguments"),
    ],
)
async def test_the_fake_refuses_what_slack_refuses_in_assistant_threads(
    fake: FakeSlack, method: str, args: dict[str, Any], error: str
) -> None:
    client = AsyncWebClient(token="xoxb-test", base_url=fake.base_url)
    with pytest.raises(SlackApiError) as caught:
        await getattr(client, method)(channel_id=DM, **args)
    assert caught.value.response["error"] == error
    four = [{"title": f"p{i}", "message": f"p{i}"} for i in range(4)]
    await client.assistant_threads_setSuggestedPrompts(channel_id=DM, prompts=four)
    with pytest.raises(SlackApiError, match="invalid_arguments"):
        # setTitle cannot do without its thread
        await client.api_call("assistant.threads.setTitle", json={"channel_id": DM, "title": "t"})


def test_the_manifest_enables_the_assistant_view_when_asked() -> None:
    off = build_manifest(SlackSettings())
    assert "assistant_view" not in off["features"]
    assert "assistant:write" not in off["oauth_config"]["scopes"]["bot"]

    on = build_manifest(SlackSettings(assistant=True, assistant_prompts=["Where do I start?"]))
    view = on["features"]["assistant_view"]
    assert view["suggested_prompts"] == [
        {"title": "Where do I start?", "message": "Where do I start?"}
    ]
    assert view["assistant_description"]
    scopes = on["oauth_config"]["scopes"]["bot"]
    assert {"assistant:write", "im:history", "chat:write"} <= set(scopes)
    assert len(scopes) == len(set(scopes))
    events = on["settings"]["event_subscriptions"]["bot_events"]
    assert {"assistant_thread_started", "assistant_thread_context_changed", "message.im"} <= set(
        events
    )
    assert len(events) == len(set(events))
    assert on["features"]["app_home"]["messages_tab_enabled"] is True


def test_the_assistant_needs_dms_and_at_most_four_prompts() -> None:
    with pytest.raises(SettingsError, match="allow_dms"):
        check_settings(SlackSettings(bot_token="xoxb-x", assistant=True, allow_dms=False))
    with pytest.raises(ValueError, match="at most 4"):
        SlackSettings(assistant_prompts=["a", "b", "c", "d", "e"])


def test_a_thread_title_is_one_short_quiet_line() -> None:
    assert thread_title(f"<@{BOT_USER}>  how do\n I deploy?", BOT_USER) == "how do I deploy?"
    long = thread_title("word " * 40, BOT_USER)
    assert len(long) <= 60 and long.endswith("…")
    assert "<!here>" not in thread_title("<!here> anyone?", BOT_USER)
