"""Socket Mode: the real Bolt socket handler against the fake's WebSocket endpoint."""

from __future__ import annotations

import asyncio

from bots.core.dedupe import Dedupe
from bots.core.runtime import Runtime
from bots.platforms.slack.bot import SlackBot
from bots.platforms.slack.server import start_socket
from bots.settings import load_settings
from tests import waits
from tests.slack.conftest import ScriptedAnswerer, envelope, mention


async def test_socket_mode_acks_answers_and_dedupes_redeliveries(fake, tmp_path):
    settings = load_settings(
        data_dir=str(tmp_path),
        slack={
            "bot_token": "xoxb-test",
            "app_token": "xapp-test",
            "api_url": fake.base_url,
            "mode": "socket",
        },
    )
    answerer = ScriptedAnswerer()
    bot = SlackBot(Runtime(settings, answerer=answerer, dedupe=Dedupe()))
    handler = await start_socket(bot)
    try:
        opened = fake.called("apps.connections.open")[0]
        assert opened.headers["Authorization"] == "Bearer xapp-test"

        payload = envelope(mention(ts="30.0"), "EvSOCK")
        for attempt, envelope_id in enumerate(("env-1", "env-2")):
            await fake.socket_send(
                {
                    "envelope_id": envelope_id,
                    "type": "events_api",
                    "accepts_response_payload": False,
                    "retry_attempt": attempt,
                    "retry_reason": "timeout" if attempt else "",
                    "payload": payload,
                }
            )
            ack = await asyncio.wait_for(fake.ws_acks.get(), waits.EVENT)
            assert ack["envelope_id"] == envelope_id
        await fake.wait_for("chat.stopStream")
        await bot.drain()
        assert len(answerer.questions) == 1
        assert len(fake.called("chat.startStream")) == 1
    finally:
        await handler.close_async()
        await bot.close()
