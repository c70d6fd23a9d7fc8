"""``/insights``: what people asked, what helped, and what the docs are missing.

Read-only, server-rendered HTML with inline SVG charts (no JavaScript, no build
step). Off unless ``feedback.insights_token`` is set; then every request needs
the token, as ``Authorization: Bearer …`` or through the page's small sign-in
form, which leaves a cookie holding a hash of the token. The token itself never
travels in a URL (URLs end up in access logs) and is never logged.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import hmac
from collections.abc import Sequence
from html import escape
from typing import TYPE_CHECKING

from aiohttp import web

from bots.ops import insights_report
from bots.ops.insights_report import DAY, Report

if TYPE_CHECKING:
    from bots.settings import Settings

__all__ = ["add_route"]

COOKIE = "citebot_insights"
_TOKEN_KEY = web.AppKey("citebot_insights_token", str)
_DB_KEY = web.AppKey("citebot_insights_db", str)

ROUTES = ("knowledge_base", "web", "mixed", "no_answer")
_COLOURS = {
    "knowledge_base": "#2b6cb0",
    "web": "#38a169",
    "mixed": "#d69e2e",
    "no_answer": "#c53030",
}
_LABELS = {
    "knowledge_base": "knowledge base",
    "web": "web",
    "mixed": "mixed",
    "no_answer": "no answer",
}


def add_route(app: web.Application, settings: Settings) -> None:
    """Serve ``/insights`` when ``feedback.insights_token`` is set."""
    token = settings.feedback.insights_token
    if token is None:
        return
    app[_TOKEN_KEY] = token.get_secret_value()
    app[_DB_KEY] = str(settings.data_dir / "feedback.sqlite3")
    app.router.add_get("/insights", insights_view)
    app.router.add_post("/insights", sign_in)


def _cookie_value(token: str) -> str:
    return hashlib.sha256(b"citebot-insights\0" + token.encode()).hexdigest()


def _same(given: str, expected: str) -> bool:
    """A constant-time comparison of what a client sent, which may be any bytes at all."""
    return hmac.compare_digest(given.encode("utf-8", "surrogateescape"), expected.encode())


def _authorised(request: web.Request) -> bool:
    token = request.app[_TOKEN_KEY]
    header = request.headers.get("Authorization", "")
    if header.startswith("Bearer ") and _same(header[7:], token):
        return True
    return _same(request.cookies.get(COOKIE, ""), _cookie_value(token))


def _sign_in_page(message: str = "") -> web.Response:
    note = f'<p class="err">{escape(message)}</p>' if message else ""
    body = (
        "<h1>citebot insights</h1>"
        f"{note}<form method=post action=/insights>"
        "<label>Token <input type=password name=token id=token autocomplete=off></label> "
        "<button type=submit id=sign-in>Sign in</button></form>"
    )
    return web.Response(
        status=401,
        text=_page(body),
        content_type="text/html",
        headers={"WWW-Authenticate": 'Bearer realm="citebot insights"'},
    )


async def sign_in(request: web.Request) -> web.StreamResponse:
    try:
        form = await request.post()
    except (ValueError, LookupError):  # a body no form is read from (bad charset, bytes)
        return _sign_in_page("That token is not right.")
    given = form.get("token")
    token = request.app[_TOKEN_KEY]
    if not isinstance(given, str) or not _same(given, token):
        return _sign_in_page("That token is not right.")
    response = web.HTTPSeeOther("/insights")
    response.set_cookie(COOKIE, _cookie_value(token), httponly=True, samesite="Strict")
    return response


async def insights_view(request: web.Request) -> web.Response:
    if not _authorised(request):
        return _sign_in_page()
    try:
        days = max(1, min(365, int(request.query.get("days", "30"))))
    except ValueError:
        days = 30
    path = request.app[_DB_KEY]
    try:
        report = await asyncio.to_thread(_read, path, days)
    except FileNotFoundError:
        return web.Response(
            text=_page("<h1>citebot insights</h1><p>No answers stored yet.</p>"),
            content_type="text/html",
        )
    return web.Response(text=render(report), content_type="text/html")


def _read(path: str, days: int) -> Report:
    from pathlib import Path

    db = insights_report.connect(Path(path))
    try:
        return insights_report.build(db, days=days)
    finally:
        db.close()


# -- rendering: every piece of user text goes through escape() ------------------

_CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:1100px;color:#1a202c;padding:0 1em}
h2{margin-top:2em;border-bottom:1px solid #e2e8f0}
table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:4px 8px;vertical-align:top;
border-bottom:1px solid #edf2f7}.n{text-align:right}.err{color:#c53030}.muted{color:#718096}
.legend span{margin-right:1em}.sw{display:inline-block;width:10px;height:10px;margin-right:4px}
.charts{display:flex;flex-wrap:wrap;gap:2em}figure{margin:0}blockquote{margin:.3em 0 .3em 1em;
color:#4a5568;white-space:pre-wrap}
"""


def _page(body: str) -> str:
    return (
        "<!doctype html><html lang=en><head><meta charset=utf-8>"
        "<title>citebot insights</title>"
        f"<style>{_CSS}</style></head><body>{body}</body></html>"
    )


def _day(day: int) -> str:
    return dt.datetime.fromtimestamp(day * DAY, dt.UTC).strftime("%m-%d")


def _days(report: Report) -> list[int]:
    today = int(dt.datetime.now(dt.UTC).timestamp() // DAY)
    return list(range(today - report.days + 1, today + 1))


W, H, PAD = 520, 200, 34


def _axes(days: Sequence[int], top: float, unit: str) -> list[str]:
    parts = [
        f'<line x1="{PAD}" y1="{H - PAD}" x2="{W - 8}" y2="{H - PAD}" stroke="#a0aec0"/>',
        f'<line x1="{PAD}" y1="8" x2="{PAD}" y2="{H - PAD}" stroke="#a0aec0"/>',
        f'<text x="{PAD - 4}" y="14" font-size="10" text-anchor="end">{escape(_num(top))}{unit}</text>',
        f'<text x="{PAD - 4}" y="{H - PAD}" font-size="10" text-anchor="end">0</text>',
    ]
    if days:
        parts.append(f'<text x="{PAD}" y="{H - PAD + 14}" font-size="10">{_day(days[0])}</text>')
        parts.append(
            f'<text x="{W - 8}" y="{H - PAD + 14}" font-size="10" text-anchor="end">'
            f"{_day(days[-1])}</text>"
        )
    return parts


def _num(x: float) -> str:
    return f"{x:,.0f}" if x >= 10 else f"{x:,.2g}"


def _svg(name: str, title: str, parts: list[str]) -> str:
    return (
        f"<figure><figcaption>{escape(title)}</figcaption>"
        f'<svg class="chart" id="{name}" xmlns="http://www.w3.org/2000/svg" width="{W}" '
        f'height="{H}" viewBox="0 0 {W} {H}" role="img" aria-label="{escape(title)}">'
        + "".join(parts)
        + "</svg></figure>"
    )


def _bars(report: Report, days: list[int]) -> str:
    top = max((sum(c.values()) for c in report.per_day.values()), default=0) or 1
    step = (W - PAD - 8) / len(days)
    parts = _axes(days, top, "")
    for i, day in enumerate(days):
        counts = report.per_day.get(day)
        if not counts:
            continue
        y = float(H - PAD)
        for route in (*ROUTES, *sorted(set(counts) - set(ROUTES))):
            n = counts.get(route, 0)
            if not n:
                continue
            h = n / top * (H - PAD - 8)
            y -= h
            parts.append(
                f'<rect x="{PAD + i * step + 1:.1f}" y="{y:.1f}" width="{max(step - 2, 1):.1f}" '
                f'height="{h:.1f}" fill="{_COLOURS.get(route, "#718096")}">'
                f"<title>{_day(day)} {escape(_LABELS.get(route, route))}: {n}</title></rect>"
            )
    return _svg("questions-per-day", "Questions per day by route", parts)


def _lines(
    name: str, title: str, days: list[int], series: dict[str, dict[int, float]], unit: str
) -> str:
    top = max((v for s in series.values() for v in s.values()), default=0) or 1
    step = (W - PAD - 8) / max(len(days) - 1, 1)
    parts = _axes(days, top, unit)
    colours = ("#2b6cb0", "#c53030", "#38a169")
    for (label, values), colour in zip(series.items(), colours, strict=False):
        points = [
            f"{PAD + i * step:.1f},{H - PAD - values[d] / top * (H - PAD - 8):.1f}"
            for i, d in enumerate(days)
            if d in values
        ]
        if not points:
            continue
        parts.append(
            f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{" ".join(points)}">'
            f"<title>{escape(label)}</title></polyline>"
        )
        for p in points:
            x, y = p.split(",")
            parts.append(f'<circle cx="{x}" cy="{y}" r="2.5" fill="{colour}"/>')
    return _svg(name, title, parts)


def _legend(items: dict[str, str]) -> str:
    return (
        '<p class="legend">'
        + "".join(
            f'<span><i class="sw" style="background:{c}"></i>{escape(label)}</span>'
            for label, c in items.items()
        )
        + "</p>"
    )


def _link(title: str, url: str) -> str:
    text = escape(title or url or "(untitled)")
    # only http(s) links from source metadata become links
    if url.startswith(("https://", "http://")):
        return f'<a href="{escape(url, quote=True)}" rel="noopener noreferrer">{text}</a>'
    return text


def _source_table(rows: list[tuple[str, str, int]], unit: str) -> str:
    if not rows:
        return '<p class="muted">None yet.</p>'
    body = "".join(f'<tr><td>{_link(t, u)}</td><td class="n">{n}</td></tr>' for t, u, n in rows)
    return f"<table><tr><th>Source</th><th class=n>{unit}</th></tr>{body}</table>"


def render(report: Report) -> str:
    days = _days(report)
    helpful = {d: up / total * 100 for d, (up, total) in report.helpful.items() if total}
    votes = sum(t for _, t in report.helpful.values())
    ups = sum(u for u, _ in report.helpful.values())
    p50 = {d: v[0] / 1000 for d, v in report.latency.items()}
    p95 = {d: v[1] / 1000 for d, v in report.latency.items()}
    rate = f"{ups / votes:.0%} helpful of {votes:,} votes" if votes else "no votes yet"
    parts = [
        "<h1>citebot insights</h1>",
        f'<p class="muted">Last {report.days} days: {report.answers:,} questions, {rate}.</p>',
        '<div class="charts">',
        _bars(report, days),
        _lines(
            "helpful-rate", "Helpful rate (% of votes that are 👍)", days, {"helpful": helpful}, "%"
        ),
        _lines("latency", "Answer time p50 / p95 (seconds)", days, {"p50": p50, "p95": p95}, "s"),
        "</div>",
        _legend({_LABELS[r]: _COLOURS[r] for r in ROUTES} | {"p50": "#2b6cb0", "p95": "#c53030"}),
        "<h2>Knowledge gaps</h2>",
        '<p class="muted">Questions with no answer or a 👎, grouped by topic, most asked first.</p>',
    ]
    if report.gaps:
        rows = "".join(
            f'<tr><td class="n">{g.count}</td><td><ul>'
            + "".join(f"<li>{escape(q)}</li>" for q in g.examples)
            + "</ul></td></tr>"
            for g in report.gaps
        )
        parts.append(
            f'<table id="gaps"><tr><th class=n>Asked</th><th>Examples</th></tr>{rows}</table>'
        )
    else:
        parts.append('<p class="muted">No gaps found.</p>')
    parts += [
        "<h2>Most cited sources</h2>",
        _source_table(report.cited, "Answers"),
        "<h2>Sources that drew 👎</h2>",
        _source_table(report.disliked, "👎"),
        "<h2>👎 answers</h2>",
    ]
    if not report.down:
        parts.append('<p class="muted">None yet.</p>')
    for d in report.down:
        when = dt.datetime.fromtimestamp(d.when, dt.UTC).strftime("%Y-%m-%d %H:%M")
        sources = ", ".join(_link(t, u) for t, u in d.sources) or "none"
        reasons = "; ".join(escape(r) for r in d.reasons) or "none given"
        parts.append(
            f'<div class="down"><h3>{escape(d.question)}</h3>'
            f'<p class="muted">{when} UTC · {escape(d.platform)} · reason: {reasons}</p>'
            f"<blockquote>{escape(d.answer) or '(no text stored)'}</blockquote>"
            f"<p>Sources: {sources}</p></div>"
        )
    return _page("".join(parts))
