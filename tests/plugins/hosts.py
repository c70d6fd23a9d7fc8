"""Plugin hosts for adapter tests."""

from __future__ import annotations

from bots.plugins import ChatCommand
from bots.plugins.hookspecs import hookimpl
from bots.plugins.manager import PluginHost
from bots.settings.sections import PluginSettings


def host_with(*commands: ChatCommand) -> PluginHost:
    """A real plugin host holding only ``commands``."""

    class Commands:
        @hookimpl
        def register_commands(self) -> list[ChatCommand]:
            return list(commands)

    host = PluginHost(PluginSettings(entry_points=False, disable=["builtin"]))
    host.register(Commands(), name="test-commands")
    return host
