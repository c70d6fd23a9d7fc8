"""One Slack bot replica in its own process, for the fault tests.

    python -m tests.faults.replica PORT

Settings come from the environment (``CITEBOT_*``: Slack API base, Redis, lease
length), so it is wired exactly as ``citebot run slack --http`` wires it, with a
scripted answerer instead of the pipeline. With ``REPLICA_HANGS=1`` a question
containing "hang" starts its answer and never finishes: the state a SIGKILL
should find.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import AsyncIterator

from bots.core.dedupe import build_dedupe
from bots.core.runtime import Runtime
from bots.platforms.slack.bot import SlackBot
from bots.platforms.slack.server import start_http
from bots.settings import load_settings
from pipeline.events import Progress, Status
from pipeline.question import Question
from tests.slack.conftest import ScriptedAnswerer, default_script


async def script(question: Question) -> AsyncIterator[Progress]:
    if "hang" in question.text and os.environ.get("REPLICA_HANGS") == "1":
        yield Status("Searching the knowledge base…", "retrieve")
        await asyncio.Event().wait()
    async for event in default_script(question):
        yield event


async def main(port: int) -> None:
    settings = load_settings()
    runtime = Runtime(settings, answerer=ScriptedAnswerer(script), dedupe=build_dedupe(settings))
    bot = SlackBot(runtime)
    await start_http(bot, "127.0.0.1", port)
    print("ready", flush=True)
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1])))
