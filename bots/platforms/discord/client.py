"""The discord.py client: intents, endpoints, cogs, persistent buttons and command sync."""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

import discord
import discord.gateway
import discord.http
import yarl
from discord.ext import commands

from bots.platforms.discord.feedback import VoteButton, WhySelect, on_reason_submitted
from bots.platforms.discord.places import NO_PINGS
from bots.platforms.discord.threads import FILE, RecentIds, StoredThreads
from bots.platforms.discord.tree import CitebotTree
from bots.settings import SettingsError
from bots.settings.sections import DiscordSettings
from connectors.errors import ConnectorError

if TYPE_CHECKING:
    from bots.core.runtime import Runtime
    from bots.settings import Settings

log = logging.getLogger("citebot.discord")

DEFAULT_API_URL = "https://discord.com/api/v10"
DEFAULT_GATEWAY_URL = "wss://gateway.discord.gg/"

NO_CONTENT_INTENT = (
    "MESSAGE_CONTENT intent is off (discord.message_content = false): follow-ups in threads "
    "are answered only when they @mention the bot or reply to it with ping on; "
    "/ask, @mentions and DMs work as usual."
)


NO_CONTENT_AUTO_REPLY = (
    "auto-reply channels are set ([channels] auto_reply) but the MESSAGE_CONTENT intent is off: "
    "Discord sends their messages without text, so they are never answered"
)


def api_base(url: str | None) -> str:
    """``https://proxy.example`` and ``https://proxy.example/api/v10`` both mean the v10 API."""
    if not url:
        return DEFAULT_API_URL
    url = url.rstrip("/")
    return url if re.search(r"/api/v\d+$", url) else url + "/api/v10"


def configure_endpoints(settings: DiscordSettings) -> None:
    """Point discord.py at the configured REST API and gateway (Discord itself by default).

    discord.py keeps both as class attributes, so they hold for every client in
    the process; interaction webhooks use the same ``Route``.
    """
    discord.http.Route.BASE = api_base(settings.api_url)
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(
        settings.gateway_url or DEFAULT_GATEWAY_URL
    )


def intents_for(settings: DiscordSettings) -> discord.Intents:
    intents = discord.Intents.default()
    # privileged: without it, plain thread follow-ups arrive with empty content
    intents.message_content = settings.message_content
    return intents


#: The cogs, each a discord.py extension whose ``setup(bot)`` adds itself.
EXTENSIONS = (
    "bots.platforms.discord.listeners",
    "bots.platforms.discord.ask",
    "bots.platforms.discord.chat_commands",
)


class CitebotBot(commands.Bot):
    def __init__(self, settings: Settings, runtime: Runtime, **options: Any) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents_for(settings.discord),
            help_command=None,
            allowed_mentions=NO_PINGS,
            tree_cls=CitebotTree,
            **options,
        )
        self.settings = settings
        self.runtime = runtime
        # alone, a restart must still know its threads; with Redis the dedupe backend shares them
        self.answered_threads = (
            RecentIds() if runtime.dedupe.shared else StoredThreads(settings.data_dir / FILE)
        )
        self.plugin_commands: list[str] = []

    async def setup_hook(self) -> None:
        self.add_dynamic_items(VoteButton, WhySelect)
        self.add_listener(on_reason_submitted, "on_interaction")
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        if not self.settings.discord.message_content:
            log.warning(NO_CONTENT_INTENT)
            if self.runtime.channels.watches("discord"):
                log.warning(NO_CONTENT_AUTO_REPLY)
        if self.settings.discord.sync_commands:
            await self.sync_commands()

    async def sync_commands(self) -> None:
        guilds = self.settings.discord.sync_guilds
        names = ", ".join(f"/{c.name}" for c in self.tree.get_commands())
        try:
            if not guilds:
                await self.tree.sync()
                log.info("synced %s globally (clients may take a while to show them)", names)
                return
            for guild_id in guilds:
                guild = discord.Object(guild_id)
                self.tree.copy_global_to(guild=guild)
                await self.tree.sync(guild=guild)
                log.info("synced %s to guild %s", names, guild_id)
        except discord.HTTPException as exc:
            # a guild that did not grant applications.commands answers 403: keep running
            log.error(
                "could not sync app commands (%s); was the bot invited with applications.commands?",
                exc,
            )

    async def close(self) -> None:
        await super().close()
        self.answered_threads.close()

    async def on_message(self, message: discord.Message, /) -> None:
        """Questions are handled by ``QuestionListener``; there are no prefix commands."""

    async def on_ready(self) -> None:
        user = self.user
        log.info(
            "connected to Discord as %s (%s) in %d servers",
            user,
            user.id if user else "?",
            len(self.guilds),
        )


class ShardedCitebotBot(CitebotBot, commands.AutoShardedBot):
    """For bots in thousands of servers: Discord picks the shard count."""


def create_bot(settings: Settings, runtime: Runtime, **options: Any) -> CitebotBot:
    cls = ShardedCitebotBot if settings.discord.shards == "auto" else CitebotBot
    return cls(settings, runtime, **options)


def require_token(settings: DiscordSettings) -> str:
    token = settings.token.get_secret_value().strip() if settings.token is not None else ""
    if not token:
        raise SettingsError(
            [
                "setting discord.token: a bot token is required [env CITEBOT_DISCORD__TOKEN or DISCORD_TOKEN]"
            ]
        )
    return token


async def serve(settings: Settings, runtime: Runtime, **options: Any) -> None:
    """Connect and answer until the process is stopped; reconnects are discord.py's job."""
    token = require_token(settings.discord)
    configure_endpoints(settings.discord)
    bot = create_bot(settings, runtime, **options)
    try:
        async with bot:
            await bot.start(token)
    except discord.LoginFailure:
        raise ConnectorError(
            "Discord rejected the bot token (CITEBOT_DISCORD__TOKEN); reset it in the developer portal"
        ) from None
    except discord.PrivilegedIntentsRequired:
        raise ConnectorError(
            "Discord refused the MESSAGE_CONTENT intent: enable it under Bot → Privileged Gateway Intents "
            "in the developer portal, or set CITEBOT_DISCORD__MESSAGE_CONTENT=false"
        ) from None
