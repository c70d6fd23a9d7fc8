"""Files shared with a Slack message, offered to :mod:`bots.core.attachments`.

Slack serves a file's bytes at ``url_private_download`` to a request that carries the
bot token (scope ``files:read``); without it, Slack answers with its sign-in page.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

import aiohttp

from bots.core.attachments import Offered, Unreadable

SIGN_IN = "Slack sent its sign-in page instead of the file (does the app have files:read?)"


def slack_hosted(url: str, api_url: str) -> bool:
    """True for a URL on the Web API's own host or one of its subdomains: the only
    places the bot token may be sent (files.slack.com for slack.com)."""
    where, home = urlsplit(url), urlsplit(api_url)
    host, api = where.hostname, home.hostname
    if not host or not api or where.port != home.port:
        return False
    base = api.removeprefix("api.") if api.count(".") > 1 else api
    return host in (api, base) or host.endswith("." + base)


def _downloader(url: str, token: str | None, api_url: str, name: str) -> Any:
    async def download() -> bytes:
        if not url:
            raise Unreadable("Slack did not share its contents with the bot")
        if not slack_hosted(url, api_url):
            raise Unreadable("it is not hosted by Slack")
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        timeout = aiohttp.ClientTimeout(total=30)
        async with (
            aiohttp.ClientSession(timeout=timeout) as session,
            session.get(url, headers=headers) as response,
        ):
            response.raise_for_status()
            if response.content_type == "text/html" and not name.lower().endswith(
                (".html", ".htm")
            ):
                raise Unreadable(SIGN_IN)
            return await response.read()

    return download


def offered_files(
    files: Sequence[dict[str, Any]], *, token: str | None, api_url: str
) -> list[Offered]:
    """Each shared file as an :class:`Offered`; footnotes point at its permalink."""
    offered = []
    for f in files:
        if not isinstance(f, dict):
            continue
        name = str(f.get("name") or f.get("title") or f.get("id") or "file")
        hidden = f.get("mode") == "tombstone" or f.get("file_access") == "check_file_info"
        url = "" if hidden else str(f.get("url_private_download") or f.get("url_private") or "")
        offered.append(
            Offered(
                name=name,
                url=str(f.get("permalink") or f.get("url_private") or ""),
                size=int(f.get("size") or 0),
                content_type=f.get("mimetype"),
                download=_downloader(url, token, api_url, name),
            )
        )
    return offered
