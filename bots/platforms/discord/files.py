"""Files attached to a Discord message, offered to :mod:`bots.core.attachments`."""

from __future__ import annotations

import discord

from bots.core.attachments import Offered


def offered_files(message: discord.Message) -> list[Offered]:
    """Each attachment as an :class:`Offered`. Footnotes point at the message that holds
    it: attachment URLs are signed and expire, the message link does not."""
    return [
        Offered(
            name=a.filename,
            url=message.jump_url,
            size=a.size,
            content_type=a.content_type,
            download=a.read,
        )
        for a in message.attachments
    ]
