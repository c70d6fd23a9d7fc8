"""Renderers: pure functions from a ``CitedAnswer`` to what a platform shows."""

from citations.render.discord import MENTIONS_MUST_BE_DISABLED, DiscordMessage, render_discord
from citations.render.slack import SlackMessage, escape_stream, render_slack
from citations.render.style import CitationStyle
from citations.render.text import render_html, render_markdown, render_text

__all__ = [
    "MENTIONS_MUST_BE_DISABLED",
    "CitationStyle",
    "DiscordMessage",
    "SlackMessage",
    "escape_stream",
    "render_discord",
    "render_html",
    "render_markdown",
    "render_slack",
    "render_text",
]
