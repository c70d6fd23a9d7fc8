"""The fake Slack's workspaces, bot tokens and OAuth v2 install flow.

Slack's side of "Add to Slack", as the real service does it:

- ``GET /oauth/v2/authorize?client_id=…&scope=…&state=…[&redirect_uri=…][&team=…]`` is the
  consent page; the fake approves at once and redirects (302) to the redirect URI with
  ``code`` and ``state`` (https://docs.slack.dev/authentication/installing-with-oauth);
- ``oauth.v2.access`` exchanges a code once for a bot token, the client credentials in
  HTTP Basic auth or as arguments, and answers ``invalid_client_id``, ``bad_client_secret``,
  ``invalid_code`` or ``bad_redirect_uri`` (https://docs.slack.dev/reference/methods/oauth.v2.access);
- ``auth.revoke`` revokes the calling token (``test`` set: only says it would), answering
  ``revoked`` (https://docs.slack.dev/reference/methods/auth.revoke);
- ``auth.test`` answers for the token's own workspace, ``invalid_auth`` without a token and
  ``token_revoked`` for an uninstalled one (https://docs.slack.dev/reference/methods/auth.test).

A token this fake never issued belongs to the default workspace, so single-token tests
may use any ``xoxb-`` string.
"""

from __future__ import annotations

import base64
import secrets
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode


@dataclass(frozen=True)
class Workspace:
    team_id: str
    name: str
    bot_user_id: str
    bot_id: str


#: the workspace of every token the fake did not issue
DEFAULT = Workspace("T111", "Default", "UBOT", "BBOT")


@dataclass
class OAuthApp:
    client_id: str
    client_secret: str
    redirect_uri: str | None = None
    """the app's configured redirect URL, used when the authorize request names none"""


@dataclass
class _Grant:
    workspace: Workspace
    scope: str
    redirect_uri: str | None
    installer: str


def _error(name: str) -> dict[str, Any]:
    return {"ok": False, "error": name}


@dataclass
class Workspaces:
    default: Workspace = DEFAULT
    teams: dict[str, Workspace] = field(default_factory=dict)
    #: bot token → its workspace, for tokens issued through OAuth
    tokens: dict[str, Workspace] = field(default_factory=dict)
    revoked: set[str] = field(default_factory=set)
    app: OAuthApp | None = None
    _codes: dict[str, _Grant] = field(default_factory=dict)

    def workspace(self, team_id: str) -> Workspace:
        if team_id == self.default.team_id:
            return self.default
        if team_id not in self.teams:
            n = len(self.teams) + 2
            self.teams[team_id] = Workspace(team_id, f"Workspace {n}", f"UBOT{n}", f"BBOT{n}")
        return self.teams[team_id]

    def of_token(self, token: str | None) -> Workspace | dict[str, Any]:
        """The token's workspace, or Slack's error for it."""
        if not token:
            return _error("not_authed")
        if token in self.revoked:
            return _error("token_revoked")
        return self.tokens.get(token, self.default)

    def revoke_token(self, token: str | None, *, test: object = None) -> dict[str, Any]:
        found = self.of_token(token)
        if isinstance(found, dict):
            return found
        dry = str(test).lower() in ("1", "true")
        if not dry:
            self.revoked.add(str(token))
        return {"ok": True, "revoked": not dry}

    def revoke(self, team_id: str) -> list[str]:
        """Uninstall from ``team_id``: its tokens stop working; returns them."""
        gone = [t for t, w in self.tokens.items() if w.team_id == team_id]
        self.revoked.update(gone)
        return gone

    # -- the consent page ----------------------------------------------------

    def authorize(self, query: dict[str, str]) -> tuple[int, str]:
        """``(status, location or message)`` for ``GET /oauth/v2/authorize``."""
        if self.app is None or query.get("client_id") != self.app.client_id:
            return 400, "invalid_client_id"
        redirect = query.get("redirect_uri") or self.app.redirect_uri
        if not redirect:
            return 400, "bad_redirect_uri"
        if not query.get("scope") and not query.get("user_scope"):
            return 400, "invalid_scope"
        code = secrets.token_hex(12)
        team = query.get("team") or self.default.team_id
        self._codes[code] = _Grant(
            self.workspace(team), query.get("scope", ""), query.get("redirect_uri"), "U999"
        )
        params = {"code": code}
        if "state" in query:
            params["state"] = query["state"]
        joiner = "&" if "?" in redirect else "?"
        return 302, redirect + joiner + urlencode(params)

    # -- oauth.v2.access -----------------------------------------------------

    def access(self, params: dict[str, Any], authorization: str | None) -> dict[str, Any]:
        client_id, client_secret = _basic(authorization) or (
            params.get("client_id"),
            params.get("client_secret"),
        )
        if self.app is None or client_id != self.app.client_id:
            return _error("invalid_client_id")
        if client_secret != self.app.client_secret:
            return _error("bad_client_secret")
        grant = self._codes.pop(str(params.get("code") or ""), None)
        if grant is None:
            return _error("invalid_code")
        if grant.redirect_uri is not None and params.get("redirect_uri") != grant.redirect_uri:
            return _error("bad_redirect_uri")
        token = f"xoxb-{grant.workspace.team_id}-{secrets.token_hex(8)}"
        self.tokens[token] = grant.workspace
        return {
            "ok": True,
            "access_token": token,
            "token_type": "bot",
            "scope": grant.scope,
            "bot_user_id": grant.workspace.bot_user_id,
            "app_id": "A111",
            "team": {"id": grant.workspace.team_id, "name": grant.workspace.name},
            "enterprise": None,
            "is_enterprise_install": False,
            "authed_user": {"id": grant.installer},
        }


def _basic(authorization: str | None) -> tuple[str, str] | None:
    if not authorization or not authorization.startswith("Basic "):
        return None
    try:
        decoded = base64.b64decode(authorization[6:]).decode()
    except ValueError:
        return None
    client_id, _, secret = decoded.partition(":")
    return client_id, secret


def bearer(authorization: str | None) -> str | None:
    if authorization and authorization.startswith("Bearer "):
        return authorization[7:]
    return None
