"""``citebot chat``: a terminal conversation with the same thread semantics as the platforms.

The first question is asked like a mention; every later one is a thread
follow-up carrying the conversation so far as history.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from bots.runtime import Runtime
from citations.render import render_text
from pipeline.events import AnswerDelta, Done, Status
from pipeline.question import Place, Question, Trigger, Turn

PROMPT = "you> "
QUIT = {"exit", "quit", ":q"}


class Conversation:
    def __init__(self, runtime: Runtime, *, thread: str = "console") -> None:
        self.runtime = runtime
        self.place = Place(platform="console", channel="console", thread=thread)
        self.history: list[Turn] = []

    async def say(self, text: str, out: Callable[[str], None]) -> Done:
        trigger = Trigger.THREAD_FOLLOWUP if self.history else Trigger.MENTION
        question = Question(
            text=text,
            asker="console",
            place=self.place,
            trigger=trigger,
            history=tuple(self.history),
        )
        done: Done | None = None
        streamed = False
        async for event in self.runtime.ask(self.runtime.prepare(question)):
            if isinstance(event, Status):
                out(f"\r… {event.text}\n")
            elif isinstance(event, AnswerDelta):
                streamed = True
                out(event.text)
            elif isinstance(event, Done):
                done = event
        assert done is not None
        if streamed:
            out("\n")
        out(render_text(done.answer) + "\n" if not streamed else _sources(done) + "\n")
        self.history.append(Turn("user", text))
        self.history.append(Turn("assistant", done.answer.text))
        return done


def _sources(done: Done) -> str:
    rendered = render_text(done.answer)
    body = done.answer.text
    return rendered[len(body):].lstrip("\n") if rendered.startswith(body) else rendered


async def repl(runtime: Runtime, read: Callable[[str], str] = input) -> None:
    conversation = Conversation(runtime)

    def out(text: str) -> None:
        sys.stdout.write(text)
        sys.stdout.flush()

    out("citebot chat: ask a question; follow-ups keep the thread. Ctrl-D or 'exit' quits.\n")
    while True:
        try:
            text = read(PROMPT).strip()
        except (EOFError, KeyboardInterrupt):
            out("\n")
            return
        if text.lower() in QUIT:
            return
        if not text:
            continue
        await conversation.say(text, out)
