"""What a hook or a command handler sees: the question's place and asker, read-only settings,
and the few services the built-in commands need. Never the bot's runtime.

A plugin that could reach the runtime could post anywhere, read another channel's
knowledge or change settings for everyone; the context gives it only what one
question or one command may use.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Protocol, cast, runtime_checkable

from pydantic import BaseModel

from bots.settings import Settings
from pipeline.question import Place

if TYPE_CHECKING:
    from connectors.knowledge.store.manifest import Entry


class VoteCounts(Protocol):
    up: int
    down: int
    answers: int

    @property
    def total(self) -> int: ...


class FeedbackReader(Protocol):
    """Read access to the votes (``bots.core.feedback.FeedbackStore``)."""

    def stats(self, *, platform: str | None = None) -> VoteCounts: ...


class CommandInfo(Protocol):
    """A registered command as ``/help`` shows it (``bots.plugins.ChatCommand``)."""

    @property
    def name(self) -> str: ...

    @property
    def description(self) -> str: ...

    def usage(self, prefix: str = "/") -> str: ...


@runtime_checkable
class CommandSource(Protocol):
    def commands(self) -> Sequence[CommandInfo]: ...


class RuntimeView(Protocol):
    """The parts of a runtime a context is cut from."""

    @property
    def settings(self) -> Settings: ...

    @property
    def feedback(self) -> Any: ...

    @property
    def plugins(self) -> object: ...


@dataclass(frozen=True, slots=True)
class PluginContext:
    """Where the question or command came from, who sent it, and what they may see.

    ``scope`` is the knowledge collections this place may search (``None``: all).
    ``options`` holds a command's checked options with their defaults (empty for hooks).
    ``settings`` is read-only: assigning to it raises ``AttributeError``.
    """

    place: Place
    user: str
    scope: tuple[str, ...] | None
    settings: Settings
    options: Mapping[str, Any] = field(default_factory=dict)
    commands: tuple[CommandInfo, ...] = ()
    feedback: FeedbackReader | None = None

    @property
    def command_prefix(self) -> str:
        """How a user types a command here: ``/ask NAME`` on Slack, ``/NAME`` elsewhere."""
        if self.place.platform == "slack":
            return f"{self.settings.slack.slash_command} "
        return "/"

    async def sources(self) -> list[Entry]:
        """The documents ingested into the collections this place may see, from the manifest
        (the store and its embedder are not opened)."""
        return await asyncio.to_thread(
            _ingested, Path(self.settings.data_dir), self.settings.store.kind, self.scope
        )


def plugin_context(
    runtime: RuntimeView | None,
    place: Place,
    *,
    user: str,
    scope: tuple[str, ...] | None,
    options: Mapping[str, Any] | None = None,
) -> PluginContext:
    """The context for one question or command, cut from the runtime that handles it."""
    if runtime is None:  # a command run on its own, as in a plugin's unit test
        settings, feedback, host = Settings.model_construct(), None, None
    else:
        settings, feedback, host = runtime.settings, runtime.feedback, runtime.plugins
    commands = tuple(host.commands()) if isinstance(host, CommandSource) else ()
    return PluginContext(
        place=place,
        user=user,
        scope=scope,
        settings=read_only(settings),
        options=MappingProxyType(dict(options or {})),
        commands=commands,
        feedback=feedback,
    )


class _ReadOnly:
    """A view of a settings model whose attributes cannot be set, at any depth."""

    __slots__ = ("_model",)

    def __init__(self, model: BaseModel) -> None:
        object.__setattr__(self, "_model", model)

    def __getattr__(self, name: str) -> Any:
        return _frozen(getattr(self._model, name))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"settings are read-only for plugins (tried to set {name!r})")

    def __repr__(self) -> str:
        return f"read-only {self._model!r}"

    def __eq__(self, other: object) -> bool:
        return bool(self._model == (other._model if isinstance(other, _ReadOnly) else other))

    __hash__ = None  # type: ignore[assignment]


def _frozen(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return _ReadOnly(value)
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, dict):
        return MappingProxyType({k: _frozen(v) for k, v in value.items()})
    return value


def read_only(settings: Settings) -> Settings:
    """``settings`` as plugins see it: every attribute readable, none settable."""
    if isinstance(settings, _ReadOnly):
        return settings
    # typed as Settings so that plugin authors keep completion and type checks
    return cast(Settings, _ReadOnly(settings))


def _ingested(data_dir: Path, store: str, scope: tuple[str, ...] | None) -> list[Entry]:
    # imported here: the store package pulls in LlamaIndex, too slow for every plugin load
    from connectors.knowledge.store.manifest import FILE as MANIFEST_FILE
    from connectors.knowledge.store.manifest import Manifest

    if not (data_dir / MANIFEST_FILE).exists():
        return []
    with Manifest(data_dir, store) as manifest:
        entries = manifest.entries()
    return [e for e in entries if not e.pending and (scope is None or e.collection in scope)]
