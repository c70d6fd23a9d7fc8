"""A Mattermost-like adapter written against the adapter contract alone.

It imports only ``bots.platforms.base`` (the contract), the runtime it is given,
and the pipeline's question and event types: the proof that a new platform needs
nothing else. Its "server" is an in-memory list of posts, edited in place.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from bots.core.ports import Vote
from bots.core.runtime import Runtime, VoteReceipt
from bots.platforms.base import Responder
from citations.render import render_markdown
from pipeline.errors import SORRY
from pipeline.events import Done
from pipeline.question import Place, PlaceKind, Question, Trigger

PLATFORM = "mattermost"

#: Mattermost's channel types: open, private, direct, group.
KINDS = {"O": PlaceKind.CHANNEL, "P": PlaceKind.PRIVATE, "D": PlaceKind.DM, "G": PlaceKind.GROUP_DM}


@dataclass
class Post:
    id: str
    channel_id: str
    root_id: str
    message: str
    actions: tuple[str, ...] = ()  # the answer id each vote button carries, per button
    edits: list[str] = field(default_factory=list)


class Server:
    """Stands in for Mattermost's REST API: posts created and edited."""

    def __init__(self) -> None:
        self.posts: dict[str, Post] = {}
        self._ids = itertools.count(1)

    def create_post(self, channel_id: str, root_id: str, message: str) -> Post:
        post = Post(f"p{next(self._ids)}", channel_id, root_id, message, edits=[message])
        self.posts[post.id] = post
        return post

    def update_post(self, post_id: str, message: str, actions: tuple[str, ...] = ()) -> None:
        post = self.posts[post_id]
        post.message, post.actions = message, actions
        post.edits.append(message)


class PostSurface:
    """The contract's ``Surface``: one post in the thread, edited as the answer grows."""

    def __init__(self, server: Server, channel_id: str, root_id: str) -> None:
        self.server = server
        self.channel_id = channel_id
        self.root_id = root_id
        self.post: Post | None = None
        self.text = ""

    async def open(self) -> None:
        self.post = self.server.create_post(self.channel_id, self.root_id, "Thinking…")

    async def status(self, text: str) -> None:
        if not self.text:
            self._edit(f"⏳ {text}")

    async def delta(self, text: str) -> None:
        self.text += text
        self._edit(self.text)

    async def finish(self, done: Done, answer_id: str | None) -> None:
        votes = (f"up:{answer_id}", f"down:{answer_id}") if answer_id else ()
        self._edit(render_markdown(done.answer), votes)

    async def fail(self) -> None:
        self._edit(f":warning: {SORRY}")

    def _edit(self, message: str, actions: tuple[str, ...] = ()) -> None:
        assert self.post is not None
        self.server.update_post(self.post.id, message, actions)


THANKS = {
    VoteReceipt.RECORDED: "Thanks for the feedback!",
    VoteReceipt.OFF: "Feedback is off.",
    VoteReceipt.FAILED: "Sorry, your feedback could not be saved.",
}


class MattermostAdapter:
    """Events in (``posted`` websocket events, as dicts), answers out, votes back."""

    def __init__(self, runtime: Runtime, server: Server, *, bot_user: str = "bot") -> None:
        self.runtime = runtime
        self.server = server
        self.bot_user = bot_user

    def question(self, event: dict[str, Any]) -> Question | None:
        """An event becomes a Question, or ``None`` when it is not one for the bot."""
        text: str = event.get("message", "")
        kind = KINDS[event["channel_type"]]
        mention = f"@{self.bot_user}"
        if mention in text:
            trigger = Trigger.MENTION
        elif kind is PlaceKind.DM:
            trigger = Trigger.DM
        else:
            return None
        root = event.get("root_id") or event["post_id"]
        place = Place(PLATFORM, event.get("team_id"), event["channel_id"], root, kind)
        return Question(text.replace(mention, "").strip(), event["user_id"], place, trigger)

    async def on_posted(self, event: dict[str, Any]) -> Done | None:
        question = self.question(event)
        if question is None:
            return None
        if not await self.runtime.dedupe.first(PLATFORM, "post", event["post_id"]):
            return None
        surface = PostSurface(self.server, event["channel_id"], question.place.thread or "")
        return await Responder(self.runtime, surface).run(self.runtime.prepare(question))

    async def on_action(self, action: str, *, user: str) -> str:
        """A click on a vote button (``"up:<answer id>"``) goes back to the core."""
        choice, _, answer_id = action.partition(":")
        vote: Vote = "up" if choice == "up" else "down"
        receipt = await self.runtime.vote(answer_id, user=user, vote=vote, platform=PLATFORM)
        return THANKS[receipt]
