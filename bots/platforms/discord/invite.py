"""The OAuth2 URL that adds the bot to a server with exactly what it needs."""

from __future__ import annotations

import base64
import binascii

import discord

SCOPES: tuple[str, ...] = ("bot", "applications.commands")

#: Read and answer in channels and threads, start threads, show the Sources embed.
PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    embed_links=True,
    read_message_history=True,
)


def application_id_from_token(token: str) -> int | None:
    """A bot token starts with the bot's user id in base64, which equals its application id."""
    head = token.split(".", 1)[0]
    try:
        decoded = base64.b64decode(head + "=" * (-len(head) % 4), validate=False).decode("ascii")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    return int(decoded) if decoded.isdigit() else None


def invite_url(application_id: int, *, permissions: discord.Permissions = PERMISSIONS) -> str:
    return discord.utils.oauth_url(application_id, permissions=permissions, scopes=SCOPES)
