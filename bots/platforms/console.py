"""``citebot chat``: a terminal conversation with the same thread semantics as the platforms.

The first question is asked like a mention; every later one is a thread
follow-up carrying the conversation so far as history.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from bots.core.runtime import Runtime
from citations.model import CitedAnswer
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
        streamed = ""
        async for event in self.runtime.ask(self.runtime.prepare(question)):
            if isinstance(event, Status) and not streamed:
                out(f"… {event.text}\n")
            elif isinstance(event, AnswerDelta):
                streamed += event.text
                out(event.text)
            elif isinstance(event, Done):
                done = event
        assert done is not None, "Runtime.ask always ends with Done"
        out(_after_stream(streamed, done) + "\n")
        self.history.append(Turn("user", text))
        self.history.append(Turn("assistant", done.answer.text))
        return done


def _after_stream(streamed: str, done: Done) -> str:
    """What to print once the answer is final: its sources, or the whole revised answer.

    The pipeline may replace a streamed draft (a failed self-check regenerates),
    and a terminal cannot take back what it printed.
    """
    if not streamed:
        return render_text(done.answer)
    if streamed.strip() != done.answer.text.strip():
        return "\n\n(revised answer)\n" + render_text(done.answer)
    sources = render_text(CitedAnswer(segments=(), references=done.answer.references))
    return "\n\n" + sources.strip() if sources.strip() else ""


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
