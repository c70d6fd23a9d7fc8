"""The Slack app manifest, generated from the settings (``citebot slack manifest``)."""

from __future__ import annotations

from typing import Any

from bots.settings.sections import SlackSettings

from .server import EVENTS_PATH

CHANNEL_SCOPES = (
    "app_mentions:read",  # app_mention
    "channels:history",  # message.channels: follow-ups, thread history, auto-reply channels
    "groups:history",  # message.groups: the same in private channels
    "channels:read",  # conversations.info: channel names for [channels."…/#name"] patterns
    "groups:read",  # the same for private channels
    "chat:write",  # answers, streams, assistant.threads.setStatus
    "commands",  # the slash command
    "files:read",  # the text of files shared with a question
    # conversations.info (with channels:read and groups:read): who can read the channel of
    # an app_mention, which carries no channel_type, so a mention in a group DM gets dm_scope
    "mpim:read",
)
DM_SCOPES = (
    "im:history",  # message.im: DMs
    "im:read",  # conversations.info on a DM
    "mpim:history",  # message.mpim: follow-ups and thread history in group DMs
)
#: the assistant panel: "assistant:write" is "needed for the top bar entry point and split
#: pane view, as well as suggested prompts and setting thread titles"; its threads are DMs
#: (https://docs.slack.dev/ai/developing-agents)
ASSISTANT_SCOPES = ("assistant:write", "im:history")
CHANNEL_EVENTS = ("app_mention", "message.channels", "message.groups")
DM_EVENTS = ("message.im", "message.mpim")
ASSISTANT_EVENTS = ("assistant_thread_started", "assistant_thread_context_changed", "message.im")
#: an installed-by-OAuth app forgets a workspace's token when it is removed or revoked
INSTALL_EVENTS = ("app_uninstalled", "tokens_revoked")
BOT_EVENTS = CHANNEL_EVENTS + DM_EVENTS


def _unique(*groups: tuple[str, ...]) -> list[str]:
    return list(dict.fromkeys(item for group in groups for item in group))


def bot_scopes(settings: SlackSettings) -> list[str]:
    """The bot scopes the settings need (the manifest's, and what an OAuth install asks for)."""
    return _unique(
        CHANNEL_SCOPES,
        DM_SCOPES if settings.allow_dms else (),
        ASSISTANT_SCOPES if settings.assistant else (),
    )


def bot_events(settings: SlackSettings) -> list[str]:
    return _unique(
        CHANNEL_EVENTS,
        DM_EVENTS if settings.allow_dms else (),
        ASSISTANT_EVENTS if settings.assistant else (),
        INSTALL_EVENTS if settings.oauth else (),
    )


DESCRIPTION = "Answers from your knowledge base and the web, with numbered footnotes."


class MissingURL(ValueError):
    """An HTTP-mode manifest needs the public URL Slack will send events to."""


def build_manifest(settings: SlackSettings, *, public_url: str | None = None) -> dict[str, Any]:
    http = settings.mode == "http"
    base = (public_url or settings.public_url or "").rstrip("/")
    if http and not base:
        raise MissingURL("an HTTP-mode manifest needs the public HTTPS URL Slack reaches")
    request_url = base + EVENTS_PATH
    dms = settings.allow_dms
    command: dict[str, Any] = {
        "command": settings.slash_command,
        "description": "Ask a question; the answer cites its sources",
        "usage_hint": "your question (or: help)",
        "should_escape": False,
    }
    events: dict[str, Any] = {"bot_events": bot_events(settings)}
    interactivity: dict[str, Any] = {"is_enabled": True}
    if http:
        command["url"] = request_url
        events["request_url"] = request_url
        interactivity["request_url"] = request_url
    features: dict[str, Any] = {
        "app_home": {
            "home_tab_enabled": False,
            # the assistant's threads live in the app's messages tab
            "messages_tab_enabled": dms or settings.assistant,
            "messages_tab_read_only_enabled": False,
        },
        "bot_user": {"display_name": settings.app_name, "always_online": True},
        "slash_commands": [command],
    }
    if settings.assistant:
        features["assistant_view"] = {
            "assistant_description": DESCRIPTION,
            "suggested_prompts": [{"title": p, "message": p} for p in settings.assistant_prompts],
        }
    oauth: dict[str, Any] = {"scopes": {"bot": bot_scopes(settings)}}
    if settings.oauth and base:
        oauth["redirect_urls"] = [base + settings.redirect_path]
    return {
        "_metadata": {"major_version": 1, "minor_version": 1},
        "display_information": {"name": settings.app_name, "description": DESCRIPTION},
        "features": features,
        "oauth_config": oauth,
        "settings": {
            "event_subscriptions": events,
            "interactivity": interactivity,
            "org_deploy_enabled": False,
            "socket_mode_enabled": not http,
            "token_rotation_enabled": False,
        },
    }


def manifest_yaml(settings: SlackSettings, *, public_url: str | None = None) -> str:
    import yaml

    header = (
        "# Slack app manifest for citebot, generated by `citebot slack manifest`.\n"
        "# Create the app at https://api.slack.com/apps → From a manifest, then paste this.\n"
    )
    body = yaml.safe_dump(
        build_manifest(settings, public_url=public_url), sort_keys=False, allow_unicode=True
    )
    return header + body
