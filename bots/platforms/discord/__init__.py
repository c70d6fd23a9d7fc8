"""citebot on Discord: a discord.py client with app commands, threads, embeds and buttons.

``citebot run discord`` builds a :class:`CitebotBot` and connects it. The bot
answers ``/ask``, @mentions (in a new thread or inline), follow-ups in threads
it answered, and DMs, streaming each answer into one message by throttled
edits and finishing with a Sources embed and 👍/👎 buttons.
"""

from bots.platforms.discord.client import CitebotBot, configure_endpoints, create_bot, serve
from bots.platforms.discord.invite import PERMISSIONS, SCOPES, invite_url

__all__ = [
    "PERMISSIONS",
    "SCOPES",
    "CitebotBot",
    "configure_endpoints",
    "create_bot",
    "invite_url",
    "serve",
]
