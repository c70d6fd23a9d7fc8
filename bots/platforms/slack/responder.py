"""The Slack surface of the adapter contract: one answer in one thread.

Status, streamed text, final render, or a visible error.

Native streaming (``chat.startStream``/``appendStream``/``stopStream``) is the normal
path; the stop carries the Sources block and the feedback buttons. When streaming is
off, unavailable, or the stream expires (``message_not_in_streaming_state``), the
answer continues in one posted message edited at most once per ``update_interval``.
Whatever happens, the thread ends with a visible message and no lingering status.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import Any

from slack_sdk.errors import SlackApiError, SlackRequestError
from slack_sdk.web.async_chat_stream import AsyncChatStream
from slack_sdk.web.async_client import AsyncWebClient

from bots.settings.sections import SlackSettings
from pipeline.errors import SORRY
from pipeline.events import Done

from .render import STREAM_LIMIT, SlackMessage, SlackRender, render, stream_filter

log = logging.getLogger("citebot.slack")

THINKING = "is thinking…"
ELLIPSIS = " …"
ERROR_TEXT = f":warning: {SORRY}"


@dataclass(frozen=True, slots=True)
class Target:
    """Where the answer goes: a thread, and who asked (streams to channels need both ids)."""

    channel: str
    thread_ts: str
    team: str | None = None
    user: str | None = None


class ThreadSurface:
    """Implements :class:`bots.platforms.base.Surface` in a Slack thread."""

    def __init__(
        self,
        client: AsyncWebClient,
        settings: SlackSettings,
        target: Target,
        *,
        clock: Any = time.monotonic,
    ) -> None:
        self.client = client
        self.settings = settings
        self.target = target
        self._clock = clock
        self._shown = ""
        # one filter for the whole answer: a link or a ping may arrive split across deltas
        self._filter = stream_filter(limit=STREAM_LIMIT)
        self._stream: AsyncChatStream | None = None
        self._streaming = settings.stream
        self._ts: str | None = None  # the edited message when not streaming
        self._last_edit = float("-inf")
        self._dirty = False
        self._status: str | None = None
        self.posted: list[str] = []

    # -- status ---------------------------------------------------------------

    async def status(self, text: str) -> None:
        if text == self._status or self._shown:
            return
        self._status = text
        try:
            await self.client.assistant_threads_setStatus(
                channel_id=self.target.channel,
                thread_ts=self.target.thread_ts,
                status=text,
                loading_messages=[text],
            )
        except SlackApiError as exc:
            # a status is decoration: old workspaces or missing scopes must not stop the answer
            log.debug("setStatus failed: %s", exc.response.get("error"))

    async def clear_status(self) -> None:
        if self._status is None:
            return
        self._status = None
        try:
            await self.client.assistant_threads_setStatus(
                channel_id=self.target.channel, thread_ts=self.target.thread_ts, status=""
            )
        except SlackApiError as exc:
            log.debug("clearing status failed: %s", exc.response.get("error"))

    async def open(self) -> None:
        await self.status(THINKING)

    # -- streaming ------------------------------------------------------------

    async def delta(self, text: str) -> None:
        # past the limit the filter shows nothing more: the rest arrives with the final
        # render, split into more messages
        piece = self._filter.feed(text)
        if not piece:
            return
        self._shown += piece
        if self._streaming:
            try:
                await self._append(piece)
                return
            except (SlackApiError, SlackRequestError) as exc:
                self._stream_failed(exc)
        await self._edit(final=False)

    async def _append(self, piece: str) -> None:
        if self._stream is None:
            self._stream = await self.client.chat_stream(
                channel=self.target.channel,
                thread_ts=self.target.thread_ts,
                recipient_team_id=self.target.team,
                recipient_user_id=self.target.user,
                buffer_size=self.settings.stream_buffer,
            )
            # the first words go out at once (chunks= makes the SDK flush): waiting for a
            # full buffer kept the asker staring at a status for ~0.8 s at 40 tokens/s
            await self._stream.append(markdown_text=piece, chunks=[])
            return
        await self._stream.append(markdown_text=piece)

    def _stream_failed(self, exc: Exception) -> None:
        error = exc.response.get("error") if isinstance(exc, SlackApiError) else str(exc)
        log.info("streaming unavailable (%s); falling back to chat.update", error)
        self._streaming = False
        if self._stream is not None and self._stream.ts:
            self._ts = self._stream.ts
            self.posted.append(self._ts)
        self._stream = None

    async def _edit(self, *, final: bool) -> None:
        """Post, then edit at most once per ``update_interval``; the final edit always happens."""
        text = self._shown + ("" if final else ELLIPSIS)
        if self._ts is None:
            response = await self.client.chat_postMessage(
                channel=self.target.channel,
                thread_ts=self.target.thread_ts,
                markdown_text=text,
                unfurl_links=False,
                unfurl_media=False,
            )
            self._ts = str(response["ts"])
            self.posted.append(self._ts)
            self._last_edit = self._clock()
            return
        wait = self._last_edit + self.settings.update_interval - self._clock()
        if wait > 0:
            if not final:
                self._dirty = True
                return
            await asyncio.sleep(wait)
        await self.client.chat_update(channel=self.target.channel, ts=self._ts, markdown_text=text)
        self._last_edit = self._clock()
        self._dirty = False

    # -- the end --------------------------------------------------------------

    async def finish(self, done: Done, answer_id: str | None) -> None:
        await self._final(done, answer_id)
        if not done.outcome.is_answer:
            # the refusal or error is posted; make sure no "is thinking…" outlives it
            await self.clear_status()

    async def _final(self, done: Done, answer_id: str | None) -> None:
        rendered = render(done.answer, answer_id=answer_id)
        if self._streaming and self._stream is not None:
            try:
                if await self._stop(rendered):
                    return
            except (SlackApiError, SlackRequestError) as exc:
                self._stream_failed(exc)
        await self._post_messages(rendered.messages)

    async def _stop(self, rendered: SlackRender) -> bool:
        """Close the stream with the sources below it; ``False`` if the posted form is needed instead."""
        assert self._stream is not None
        if rendered.streamable and rendered.streamed.startswith(self._shown):
            rest = rendered.streamed[len(self._shown) :]
            await self._stream.stop(markdown_text=rest or None, blocks=rendered.sources or None)
            self._stream_done()
            return True
        # the answer changed under the stream, or needs several messages: close the
        # stream as it is, then replace it with the rendered form
        await self._stream.stop()
        self._stream_done()
        return False

    def _stream_done(self) -> None:
        assert self._stream is not None
        if self._stream.ts:
            self._ts = self._stream.ts
            self.posted.append(self._ts)
        self._streaming = False
        self._stream = None

    async def _post_messages(self, messages: list[SlackMessage]) -> None:
        first, *rest = messages
        if self._ts is None or not await self._replace(first):
            await self._post(first)
        for message in rest:
            await self._post(message)

    async def _replace(self, message: SlackMessage) -> bool:
        """Edit the preview into ``message``, once more if Slack refuses; ``False`` when
        it cannot be, so the answer goes out as a fresh message instead."""
        assert self._ts is not None
        for attempt in (1, 2):
            await self._wait_for_edit_slot()
            try:
                await self.client.chat_update(
                    channel=self.target.channel,
                    ts=self._ts,
                    text=message.text,
                    blocks=message.blocks,
                )
            except (SlackApiError, SlackRequestError) as exc:
                error = exc.response.get("error") if isinstance(exc, SlackApiError) else str(exc)
                log.warning("replacing the preview failed (attempt %d): %s", attempt, error)
                self._last_edit = self._clock()
                continue
            self._last_edit = self._clock()
            return True
        return False

    async def _wait_for_edit_slot(self) -> None:
        wait = self._last_edit + self.settings.update_interval - self._clock()
        if wait > 0:
            await asyncio.sleep(wait)

    async def _post(self, message: SlackMessage) -> None:
        response = await self.client.chat_postMessage(
            channel=self.target.channel,
            thread_ts=self.target.thread_ts,
            text=message.text,
            blocks=message.blocks,
            unfurl_links=False,
            unfurl_media=False,
        )
        self.posted.append(str(response["ts"]))

    async def fail(self, text: str = ERROR_TEXT) -> None:
        """Say so in the thread, whatever state the answer was in, and drop the status."""
        try:
            if self._stream is not None:
                try:
                    await self._stream.stop(markdown_text=f"\n\n{text}")
                    self._stream = None
                    return
                except (SlackApiError, SlackRequestError):
                    self._stream = None
            await self.client.chat_postMessage(
                channel=self.target.channel,
                thread_ts=self.target.thread_ts,
                text=text,
                unfurl_links=False,
                unfurl_media=False,
            )
        except Exception:
            log.exception("could not post the error message in %s", self.target.channel)
        finally:
            await self.clear_status()
