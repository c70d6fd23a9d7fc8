"""A plugin offering a connector, a grader and a citation style, plus one listed as an attribute."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from bots.plugins import ChatCommand, CommandReply, PluginContext, hookimpl
from citations.model import CitedAnswer
from connectors.knowledge.documents import Document, Section


def changelog(text: str = "v1: first release") -> Iterator[Document]:
    yield Document(
        key="changelog",
        url="https://example.org/changelog",
        title="Changelog",
        sections=(Section(text),),
        collection="releases",
        content_hash=Document.hash_of(text),
    )


@dataclass
class LengthGrader:
    name: str = "length"

    async def grade(self, question: str, texts: Sequence[str]) -> list[float]:
        return [min(1.0, len(t) / 100) for t in texts]


@dataclass(frozen=True)
class Brackets:
    name: str = "brackets"

    def marker(self, number: int) -> str:
        return f"[{number}]"

    def render(self, answer: CitedAnswer) -> str:
        return answer.text


@hookimpl
def register_connectors() -> dict[str, object]:
    return {"changelog": changelog}


@hookimpl
def register_graders() -> dict[str, object]:
    return {"length": lambda settings=None: LengthGrader()}


@hookimpl
def register_citation_styles() -> list[object]:
    return [Brackets(), object()]


class Greeter:
    """A plugin that is an object, loaded with ``module:attribute``."""

    @hookimpl
    def register_commands(self) -> list[ChatCommand]:
        return [ChatCommand("hello", "Say hello.", self.hello)]

    async def hello(self, context: PluginContext) -> CommandReply:
        return CommandReply(f"Hello, {context.user}!")


greeter = Greeter()
