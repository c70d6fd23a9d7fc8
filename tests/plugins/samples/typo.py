"""A plugin with a misspelt hook and an async registration hook."""

from __future__ import annotations

from bots.plugins import ChatCommand, hookimpl


@hookimpl(optionalhook=True)
def before_questoin(question: object) -> None:
    return None


@hookimpl
async def register_commands() -> list[ChatCommand]:
    return []
