"""Issue 13 on Discord: every link in every message the bot sends, previews and final,
points at a source, and code copies intact.

The real discord.py client answers mentions against the fake Discord. The script
streams each delta and then waits until the preview of the text so far is on
Discord (when it changed), so every preview a reader could see is checked, not
just the ones a timer happened to catch. Every payload is read as a reader would
see it: content, embeds and buttons.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from pathlib import Path

from hypothesis import example, given
from hypothesis import strategies as st

from bots.app import build_answerer
from bots.platforms.discord.render import preview, to_parts
from bots.testing.discord_api import Call, FakeDiscord
from citations import CitedAnswer, Source, resolve
from pipeline.events import AnswerDelta, Done, Progress, Route
from pipeline.question import Question
from tests.citations.links import foreign_links, payload_texts, pings
from tests.citations.profiles import E2E, E2E_LLM
from tests.citations.scripted import CODE, NASTY, answers, model_texts
from tests.discord.conftest import FAQ, GUIDE, StartBot
from tests.fakes.openai_server import FakeOpenAI
from tests.platforms.llm import (  # noqa: F401 - fixtures
    QUESTION,
    Recording,
    knowledge,
    knowledge_base,
    llm,
    script,
    settings_for,
)
from tests.platforms.llm import SOURCE_URLS as KB_URLS

SOURCES = [Source(1, GUIDE.url, "Guide https://evil.example/title @here", "t"), FAQ]
SOURCE_URLS = [s.url for s in SOURCES]
WITHIN = 10.0


def sent_since(fake: FakeDiscord, before: int) -> list[Call]:
    """The message creations and edits after the first ``before`` calls."""
    return [c for c in fake.message_calls() if fake.calls.index(c) >= before]


def shown_in(calls: list[Call]) -> list[str]:
    return [text for call in calls for text in payload_texts(call.json)]


async def final_shown(fake: FakeDiscord, before: int, answer: CitedAnswer) -> None:
    """Wait until the last message of ``answer``'s final render (content and Sources) is sent."""
    last = to_parts(answer)[-1]
    contents = (last.content, "⚠️ " + last.content)  # a failed answer is flagged

    def done() -> bool:
        return any(
            c.json.get("content") in contents and bool(c.json.get("embeds")) == bool(last.embeds)
            for c in sent_since(fake, before)
        )

    await fake.wait_for(done, WITHIN)


async def shown(fake: FakeDiscord, before: int, content: str) -> None:
    await fake.wait_for(
        lambda: any(c.json.get("content") == content for c in sent_since(fake, before)), WITHIN
    )


def previewing(
    fake: FakeDiscord, parts: list[str], final: Callable[[Question], Done]
) -> Callable[[Question], AsyncIterator[Progress]]:
    """A script that streams ``parts`` and waits for each new preview to be shown."""

    async def script(question: Question) -> AsyncIterator[Progress]:
        before = len(fake.calls)
        text, last = "", ""
        for part in parts:
            yield AnswerDelta(part)
            text += part
            expected = preview(text)
            if expected and expected != last:
                await shown(fake, before, expected)
                last = expected
        yield final(question)

    return script


async def test_previews_and_final_link_only_sources(start_bot: StartBot, fake: FakeDiscord) -> None:
    h = await start_bot(edit_interval=0.0)
    loop = asyncio.get_running_loop()

    async def one(text: str, parts: list[str]) -> tuple[list[str], list[str]]:
        """What the previews showed, and what the final render showed."""
        answer = resolve(text, SOURCES)
        h.answerer.script = previewing(
            fake, parts, lambda q: Done(answer, Route.KNOWLEDGE_BASE, question=q.text)
        )
        before = len(fake.calls)
        await fake.user_says("what is it?", mention_bot=True)
        await final_shown(fake, before, answer)
        sent = sent_since(fake, before)
        shown = shown_in(sent)
        assert foreign_links(shown, SOURCE_URLS) == [], shown
        assert pings(shown) == [], shown
        assert not fake.rejected, fake.rejected
        final = {part.content for part in to_parts(answer)}
        return (
            shown_in([c for c in sent if c.json.get("content") not in final]),
            shown_in([c for c in sent if c.json.get("content") in final]),
        )

    @E2E
    @given(answers(SOURCES))
    @example((resolve(NASTY, SOURCES).text, [resolve(NASTY, SOURCES).text]))
    @example(("[x](http://evil.example)[1]", ["[x", "](http://evil.example)[1]"]))
    def check(case: tuple[str, list[str]]) -> None:
        asyncio.run_coroutine_threadsafe(one(*case), loop).result(timeout=4 * WITHIN)

    await asyncio.to_thread(check)

    # the model's code reaches the reader as written, in the previews and in the final
    nasty = resolve(NASTY, SOURCES).text
    previews, final = await one(nasty, [nasty[i : i + 7] for i in range(0, len(nasty), 7)])
    assert len(previews) > 10, previews
    for code in CODE:
        assert any(code in text for text in final), (code, final)
        assert any(code in text for text in previews), (code, previews)
    assert pings(previews + final) == []


# -- through the fake LLM ------------------------------------------------------------


async def test_the_models_answer_through_the_fake_llm_links_only_sources(
    start_bot: StartBot,
    fake: FakeDiscord,
    llm: FakeOpenAI,  # noqa: F811
    knowledge: Path,  # noqa: F811
) -> None:
    case: dict[str, str] = {}
    script(llm, lambda: case["text"])
    h = await start_bot(
        root=settings_for(knowledge, llm),
        answerer=lambda settings: Recording(build_answerer(settings)),
        edit_interval=0.0,
    )
    recording: Recording = h.runtime.answerer  # type: ignore[assignment]
    loop = asyncio.get_running_loop()

    async def one(text: str, chunk_chars: int) -> tuple[list[str], list[str]]:
        """What the previews showed, and what the final render showed."""
        case["text"], llm.chunk_chars = text, chunk_chars
        seen, before = len(recording.done), len(fake.calls)
        await fake.user_says(QUESTION, mention_bot=True)
        done = await recording.next_after(seen, 4 * WITHIN)
        await final_shown(fake, before, done.answer)
        sent = sent_since(fake, before)
        shown = shown_in(sent)
        assert foreign_links(shown, KB_URLS) == [], shown
        assert pings(shown) == [], shown
        assert not fake.rejected, fake.rejected
        final = {part.content for part in to_parts(done.answer)}
        return (
            shown_in([c for c in sent if c.json.get("content") not in final]),
            shown_in([c for c in sent if c.json.get("content") in final]),
        )

    @E2E_LLM
    @given(model_texts, st.integers(1, 9))
    def check(text: str, chunk_chars: int) -> None:
        asyncio.run_coroutine_threadsafe(one(text, chunk_chars), loop).result(timeout=8 * WITHIN)

    await asyncio.to_thread(check)

    previews, final = await one(NASTY, 3)
    assert llm.calls("Task: answer with citations"), "the real openai client asked the fake"
    assert previews, "the answer streamed"
    for code in CODE:
        assert any(code in text for text in final), (code, final)
