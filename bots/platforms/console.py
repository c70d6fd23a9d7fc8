"""``citebot chat``: a terminal conversation with the same thread semantics as the platforms.

The first question is asked like a mention; every later one is a thread
follow-up carrying the conversation so far as history. A line starting with
``/`` runs a chat command (``/help``, ``/sources``, a plugin's) as Slack and
Discord do. Ctrl-C stops the answer being written, not the conversation.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
from collections.abc import Callable

from bots.core.runtime import Runtime
from bots.platforms.base import Responder
from bots.plugins.commands import OptionError, find, invoke, parse_options
from bots.plugins.context import plugin_context
from bots.plugins.manager import commands_of
from citations.model import CitedAnswer
from citations.render import render_text
from pipeline.errors import SORRY
from pipeline.events import Done
from pipeline.question import Place, Question, Trigger, Turn

PROMPT = "you> "
QUIT = {"exit", "quit", ":q"}
CANCELLED = "(answer cancelled)"

Out = Callable[[str], None]


class TerminalSurface:
    """Implements :class:`bots.platforms.base.Surface` on a terminal: what is printed stays."""

    def __init__(self, out: Out) -> None:
        self.out = out
        self.streamed = ""

    async def open(self) -> None:
        """A terminal shows nothing until there is something to say."""

    async def status(self, text: str) -> None:
        if not self.streamed:
            self.out(f"… {text}\n")

    async def delta(self, text: str) -> None:
        self.streamed += text
        self.out(text)

    async def finish(self, done: Done, answer_id: str | None) -> None:
        self.out(after_stream(self.streamed, done) + "\n")

    async def fail(self) -> None:
        self.out(f"\n{SORRY}\n")


class Conversation:
    def __init__(self, runtime: Runtime, *, thread: str = "console") -> None:
        self.runtime = runtime
        self.place = Place(platform="console", channel="console", thread=thread)
        self.history: list[Turn] = []

    async def say(self, text: str, out: Out) -> Done | None:
        trigger = Trigger.THREAD_FOLLOWUP if self.history else Trigger.MENTION
        question = Question(
            text=text,
            asker="console",
            place=self.place,
            trigger=trigger,
            history=tuple(self.history),
        )
        # a terminal has no vote buttons
        surface = TerminalSurface(out)
        done = await Responder(self.runtime, surface, votes=False).run(
            self.runtime.prepare(question)
        )
        if done is not None:
            self.history.append(Turn("user", text))
            self.history.append(Turn("assistant", done.answer.text))
        return done

    async def command(self, line: str, out: Out) -> None:
        """``/name options…``: the chat command, run as the platforms run it."""
        name, _, args = line.removeprefix("/").partition(" ")
        commands = commands_of(self.runtime.plugins)
        command = find(commands, name.lower())
        if command is None:
            known = ", ".join(f"/{c.name}" for c in commands) or "none"
            out(f"unknown command /{name}; commands: {known}\n")
            return
        try:
            options = parse_options(command, args.strip())
        except OptionError as exc:
            out(f"{exc}\n")
            return
        context = plugin_context(
            self.runtime,
            self.place,
            user="console",
            options=options,
            scope=self.runtime.scope_for(self.place),
        )
        reply = await invoke(command, context)
        out(reply.text.rstrip() + "\n")


def after_stream(streamed: str, done: Done) -> str:
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


async def cancellable(work: asyncio.Future[object] | asyncio.Task[object]) -> bool:
    """Await ``work``; Ctrl-C cancels it (and only it). True if it finished."""
    loop = asyncio.get_running_loop()
    handled = False
    with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
        # no signal handlers off the main thread or on Windows: Ctrl-C then ends the session
        loop.add_signal_handler(signal.SIGINT, work.cancel)
        handled = True
    try:
        await work
        return True
    except asyncio.CancelledError:
        if not work.cancelled():
            raise  # we are being cancelled ourselves
        return False
    finally:
        if handled:
            loop.remove_signal_handler(signal.SIGINT)


async def repl(runtime: Runtime, read: Callable[[str], str] = input) -> None:
    conversation = Conversation(runtime)

    def out(text: str) -> None:
        sys.stdout.write(text)
        sys.stdout.flush()

    out(
        "citebot chat: ask a question; follow-ups keep the thread. /help lists the commands; "
        "Ctrl-C stops an answer, Ctrl-D or 'exit' quits.\n"
    )
    while True:
        try:
            text = read(PROMPT).strip()
        except EOFError:
            out("\n")
            return
        except KeyboardInterrupt:  # at the prompt, like a shell: a fresh line
            out("\n")
            continue
        if text.lower() in QUIT:
            return
        if not text:
            continue
        work = (
            conversation.command(text, out) if text.startswith("/") else conversation.say(text, out)
        )
        if not await cancellable(asyncio.ensure_future(work)):
            out(f"\n{CANCELLED}\n")
