"""Installing to many workspaces: Bolt's real OAuth flow over HTTP against the fake Slack."""

from __future__ import annotations

import html
import logging
import re
from pathlib import Path

import pytest
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bots.platforms.slack.bot import check_settings
from bots.platforms.slack.manifest import build_manifest
from bots.settings import SettingsError, load_settings
from bots.settings.sections import SlackSettings
from bots.testing.slack_api import TEAM, FakeSlack
from bots.testing.slack_workspaces import OAuthApp

from .conftest import Harness, MakeHarness, mention, message

CLIENT_ID = "111.222"
CLIENT_SECRET = "oauth-client-secret"
TEAM2 = "T222"


async def oauth_harness(make_harness: MakeHarness, fake: FakeSlack, **slack: object) -> Harness:
    h: Harness = await make_harness(
        bot_token=None,
        client_id=CLIENT_ID,
        client_secret=CLIENT_SECRET,
        authorize_url=fake.base_url + "oauth/v2/authorize",
        **slack,
    )
    fake.workspaces.app = OAuthApp(
        CLIENT_ID, CLIENT_SECRET, redirect_uri=base(h) + "/slack/oauth_redirect"
    )
    return h


def base(h: Harness) -> str:
    return h.url.removesuffix("/slack/events")


async def install(h: Harness, team: str, *, back_to: Harness | None = None) -> tuple[int, str]:
    """What a browser does: open /slack/install, follow "Add to Slack" to Slack's consent
    page (which picks ``team``), come back to the redirect with the state cookie (on
    ``back_to``, another replica behind the same address, if given)."""
    async with h.session.get(base(h) + "/slack/install") as page:
        assert page.status == 200
        cookie = page.headers["Set-Cookie"].split(";")[0]
        found = re.search(r'href="([^"]*oauth/v2/authorize[^"]*)"', await page.text())
    assert found is not None
    consent = html.unescape(found.group(1)) + f"&team={team}"
    async with h.session.get(consent, allow_redirects=False) as slack:
        assert slack.status == 302, await slack.text()
        back = slack.headers["Location"]
    if back_to is not None:
        back = back.replace(base(h), base(back_to), 1)
    async with h.session.get(back, headers={"Cookie": cookie}) as done:
        return done.status, await done.text()


def ask(text: str, *, team: str, bot_user: str, ts: str, channel: str) -> dict[str, object]:
    """``@citebot text`` in another workspace, where the bot has another user id."""
    event = mention(text, ts=ts, channel=channel, team=team)
    return {**event, "text": f"<@{bot_user}> {text}"}


async def test_a_second_workspace_installs_through_oauth_and_answers_with_its_own_token(
    make_harness: MakeHarness, fake: FakeSlack
) -> None:
    h = await oauth_harness(make_harness, fake)
    assert (await install(h, TEAM))[0] == 200
    status, page = await install(h, TEAM2)
    assert status == 200, page
    tokens = {w.team_id: t for t, w in fake.workspaces.tokens.items()}
    assert set(tokens) == {TEAM, TEAM2} and tokens[TEAM] != tokens[TEAM2]
    exchange = fake.called("oauth.v2.access")[-1]
    assert exchange.token is None  # the client credentials went in Basic auth, no bot token

    second = fake.workspaces.workspace(TEAM2)
    await h.event(
        ask(
            "what is the answer?",
            team=TEAM2,
            bot_user=second.bot_user_id,
            ts="1.000001",
            channel="C222",
        ),
        team=TEAM2,
    )
    stop = await fake.wait_for("chat.stopStream")
    await h.bot.drain()
    assert h.answerer.questions[0].text == "what is the answer?"  # its own bot's mention stripped
    assert h.answerer.questions[0].place.workspace == TEAM2
    in_team2 = [c for c in fake.calls if c.params.get("channel") in ("C222",)]
    assert in_team2 and {c.token for c in in_team2} == {tokens[TEAM2]}
    assert fake.messages[stop.params["ts"]].token == tokens[TEAM2]

    # the first workspace still answers with its own token
    first = fake.workspaces.workspace(TEAM)
    await h.event(
        ask("again?", team=TEAM, bot_user=first.bot_user_id, ts="2.000001", channel="C111"),
    )
    await fake.wait_for("chat.stopStream", count=2)
    await h.bot.drain()
    in_team1 = [c for c in fake.calls if c.params.get("channel") == "C111"]
    assert in_team1 and {c.token for c in in_team1} == {tokens[TEAM]}
    # a workspace's token is checked once when installed and once when first used, not per event
    await h.event(
        ask("and again?", team=TEAM, bot_user=first.bot_user_id, ts="3.000001", channel="C111"),
    )
    await fake.wait_for("chat.stopStream", count=3)
    await h.bot.drain()
    checks = [c for c in fake.called("auth.test") if c.token == tokens[TEAM]]
    assert len(checks) == 2
    assert not fake.rejected


async def test_an_installed_workspace_keeps_its_own_scope_in_the_assistant_panel(
    make_harness: MakeHarness, fake: FakeSlack
) -> None:
    h = await oauth_harness(make_harness, fake, assistant=True)
    h.bot.runtime.settings.access.scopes = {f"slack:{TEAM2}/dm": ["team2-handbook"]}
    h.bot.runtime.settings.access.dm_scope = ["shared"]
    await install(h, TEAM2)
    token = next(t for t, w in fake.workspaces.tokens.items() if w.team_id == TEAM2)

    started = fake.assistant_thread_started(user="U777", team=TEAM2, channel="D0T2")
    await h.event(started, team=TEAM2)
    prompts = await fake.wait_for("assistant.threads.setSuggestedPrompts")
    assert prompts.token == token
    thread_ts = started["assistant_thread"]["thread_ts"]
    question = message(
        "where is the handbook?",
        ts="9.000001",
        channel="D0T2",
        channel_type="im",
        thread_ts=thread_ts,
        team=TEAM2,
        user="U777",
    )
    await h.event(question, team=TEAM2)
    await fake.wait_for("chat.stopStream")
    await h.bot.drain()
    assert h.answerer.questions[0].scope == ("team2-handbook",)
    assert {c.token for c in fake.calls if c.params.get("channel_id") == "D0T2"} == {token}


async def test_uninstalling_deletes_the_workspace_and_it_is_no_longer_answered(
    make_harness: MakeHarness, fake: FakeSlack
) -> None:
    h = await oauth_harness(make_harness, fake)
    await install(h, TEAM)
    await install(h, TEAM2)
    assert h.bot.oauth is not None
    store = h.bot.oauth.installation_store
    assert await store.async_find_bot(enterprise_id=None, team_id=TEAM2) is not None

    fake.workspaces.revoke(TEAM2)
    await h.event({"type": "app_uninstalled", "event_ts": "3.0"}, team=TEAM2)
    await h.bot.drain()
    assert await store.async_find_bot(enterprise_id=None, team_id=TEAM2) is None
    assert await store.async_find_bot(enterprise_id=None, team_id=TEAM) is not None

    await h.event(
        {"type": "tokens_revoked", "tokens": {"oauth": [], "bot": ["UBOT"]}, "event_ts": "4.0"},
        team=TEAM,
    )
    await h.bot.drain()
    assert await store.async_find_bot(enterprise_id=None, team_id=TEAM) is None

    status, _, _ = await h.event(
        ask("hello?", team=TEAM2, bot_user="UBOT2", ts="5.000001", channel="C222"), team=TEAM2
    )
    assert status == 200
    await h.bot.drain()
    assert not h.answerer.questions
    assert not fake.called("chat.startStream")


async def test_a_workspace_outside_the_allow_list_cannot_install(
    make_harness: MakeHarness, fake: FakeSlack, caplog: pytest.LogCaptureFixture
) -> None:
    h = await oauth_harness(make_harness, fake, allowed_workspaces=[TEAM])
    assert h.bot.oauth is not None
    store = h.bot.oauth.installation_store
    caplog.set_level(logging.INFO)
    status, page = await install(h, TEAM2)
    assert status == 403
    assert "cannot install" in page and "Nothing was installed" in page
    assert await store.async_find_bot(enterprise_id=None, team_id=TEAM2) is None
    refusals = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [r.getMessage() for r in refusals] == [
        f"refused an install from workspace {TEAM2}: not in slack.allowed_workspaces "
        "(its token is revoked)"
    ]
    refused_token = next(t for t, w in fake.workspaces.tokens.items() if w.team_id == TEAM2)
    assert refused_token in fake.workspaces.revoked  # it grants nothing any more
    assert all(r.exc_info is None for r in caplog.records)

    await h.event(
        ask("hello?", team=TEAM2, bot_user="UBOT2", ts="5.000001", channel="C222"), team=TEAM2
    )
    await h.bot.drain()
    assert not h.answerer.questions and not fake.called("chat.startStream")

    assert (await install(h, TEAM))[0] == 200
    assert await store.async_find_bot(enterprise_id=None, team_id=TEAM) is not None


async def test_replicas_share_installations_through_a_sqlalchemy_database(
    make_harness: MakeHarness, fake: FakeSlack, tmp_path: Path
) -> None:
    pytest.importorskip("sqlalchemy", reason="slack.install_database needs SQLAlchemy")
    pytest.importorskip("aiosqlite", reason="an SQLite file as install_database needs aiosqlite")
    shared = {
        "install_database": f"sqlite+aiosqlite:///{tmp_path / 'installs.sqlite3'}",
        "state_secret": "state-signing-secret",
    }
    one = await oauth_harness(make_harness, fake, **shared)
    two = await make_harness(
        bot_token=None, client_id=CLIENT_ID, client_secret=CLIENT_SECRET, **shared
    )
    assert (await install(one, TEAM))[0] == 200
    # started on one replica, finished on the other: the signed state needs no shared file
    assert (await install(one, TEAM2, back_to=two))[0] == 200
    assert (tmp_path / "installs.sqlite3").stat().st_size > 0
    tokens = {w.team_id: t for t, w in fake.workspaces.tokens.items()}

    for replica, team, channel, ts in (
        (two, TEAM, "C111", "1.000001"),
        (one, TEAM2, "C222", "2.000001"),
    ):
        bot_user = fake.workspaces.workspace(team).bot_user_id
        await replica.event(
            ask("shared?", team=team, bot_user=bot_user, ts=ts, channel=channel), team=team
        )
        stop = await fake.wait_for("chat.stopStream", count=1 if replica is two else 2)
        await replica.bot.drain()
        assert [q.place.workspace for q in replica.answerer.questions] == [team]
        assert fake.messages[stop.params["ts"]].token == tokens[team]
    assert not fake.rejected


async def test_a_forged_or_replayed_redirect_installs_nothing(
    make_harness: MakeHarness, fake: FakeSlack
) -> None:
    h = await oauth_harness(make_harness, fake)
    # the install pages are GETs a browser opens; events still need Slack's signature
    async with h.session.post(h.url, data=b'{"type":"event_callback"}') as unsigned:
        assert unsigned.status == 401
    forged = base(h) + "/slack/oauth_redirect?code=whatever&state=made-up"
    async with h.session.get(forged, headers={"Cookie": "slack-app-oauth-state=made-up"}) as r:
        assert r.status >= 400
    assert not fake.called("oauth.v2.access")

    async with h.session.get(base(h) + "/slack/install") as page:
        cookie = page.headers["Set-Cookie"].split(";")[0]
        link = re.search(r'href="([^"]*oauth/v2/authorize[^"]*)"', await page.text())
    assert link is not None
    async with h.session.get(html.unescape(link.group(1)), allow_redirects=False) as slack:
        back = slack.headers["Location"]
    async with h.session.get(back) as r:  # no state cookie: another browser
        assert r.status >= 400
    async with h.session.get(back, headers={"Cookie": cookie}) as r:
        assert r.status == 200
    async with h.session.get(back, headers={"Cookie": cookie}) as r:  # a state works once
        assert r.status >= 400
    assert len(fake.workspaces.tokens) == 1


async def test_the_fake_exchanges_a_code_once_and_only_for_the_app(fake: FakeSlack) -> None:
    fake.workspaces.app = OAuthApp(CLIENT_ID, CLIENT_SECRET, redirect_uri="https://bot/redirect")
    status, location = fake.workspaces.authorize({"client_id": CLIENT_ID, "scope": "chat:write"})
    assert status == 302
    code = re.search(r"code=(\w+)", location).group(1)  # type: ignore[union-attr]
    client = AsyncWebClient(base_url=fake.base_url)
    for client_id, secret, error in (
        ("999.999", CLIENT_SECRET, "invalid_client_id"),
        (CLIENT_ID, "wrong", "bad_client_secret"),
    ):
        with pytest.raises(SlackApiError, match=error):
            await client.oauth_v2_access(client_id=client_id, client_secret=secret, code=code)
    granted = await client.oauth_v2_access(
        client_id=CLIENT_ID, client_secret=CLIENT_SECRET, code=code
    )
    assert granted["team"]["id"] == TEAM and granted["access_token"].startswith("xoxb-")
    with pytest.raises(SlackApiError, match="invalid_code"):
        await client.oauth_v2_access(client_id=CLIENT_ID, client_secret=CLIENT_SECRET, code=code)
    # auth.test answers for the token's workspace, and not at all for a revoked one
    assert (await client.auth_test(token=granted["access_token"]))["team_id"] == TEAM
    assert (await client.auth_revoke(token=granted["access_token"], test=True))["revoked"] is False
    assert (await client.auth_test(token=granted["access_token"]))["ok"]
    with pytest.raises(SlackApiError, match="not_authed"):
        await client.auth_revoke()
    fake.workspaces.revoke(TEAM)
    with pytest.raises(SlackApiError, match="token_revoked"):
        await client.auth_test(token=granted["access_token"])
    with pytest.raises(SlackApiError, match="not_authed"):
        await client.auth_test()


def test_oauth_settings_are_strict_and_single_token_mode_is_unchanged(tmp_path: object) -> None:
    with pytest.raises(SettingsError) as caught:
        check_settings(SlackSettings(client_id=CLIENT_ID, bot_token="xoxb-x", mode="socket"))
    text = "\n".join(caught.value.lines)
    assert "slack.client_secret" in text and "not both" in text and "mode" in text
    assert CLIENT_SECRET not in text
    with pytest.raises(SettingsError, match="state_secret"):
        check_settings(
            SlackSettings(
                client_id=CLIENT_ID,
                client_secret=CLIENT_SECRET,
                mode="http",
                signing_secret="s",
                install_database="postgresql+asyncpg://u:pw@db/citebot",
            )
        )
    check_settings(SlackSettings(bot_token="xoxb-x", app_token="xapp-x"))  # as before
    with pytest.raises(SettingsError, match="install_pth"):
        load_settings(data_dir=str(tmp_path), slack={"install_pth": "/x"})


def test_the_manifest_subscribes_to_uninstalls_and_names_the_redirect() -> None:
    oauth = build_manifest(
        SlackSettings(mode="http", client_id=CLIENT_ID, public_url="https://bot.example.com/")
    )
    assert oauth["oauth_config"]["redirect_urls"] == [
        "https://bot.example.com/slack/oauth_redirect"
    ]
    assert {"app_uninstalled", "tokens_revoked"} <= set(
        oauth["settings"]["event_subscriptions"]["bot_events"]
    )
    single = build_manifest(SlackSettings())
    assert "redirect_urls" not in single["oauth_config"]
    assert "app_uninstalled" not in single["settings"]["event_subscriptions"]["bot_events"]
