"""/insights: token-gated, escaped, and drawn; checked over HTTP and in headless Chromium."""

from __future__ import annotations

import asyncio
import logging
import os
from pathlib import Path

import aiohttp
import pytest

from bots.core.feedback import FeedbackStore
from bots.ops import server
from bots.settings import load_settings
from tests.feedback.seed import seed

TOKEN = "insights-token-4f9c"
CHROMIUM, CHROMEDRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")
HOSTILE = '<script>alert("x")</script> how do I <b>rotate</b> keys?'


def seeded(data: Path) -> None:
    seed(data / "feedback.sqlite3", 300, days=14)
    store = FeedbackStore(data / "feedback.sqlite3")
    store.record_answer(
        "hostile",
        platform="discord",
        question=HOSTILE,
        route="knowledge_base",
        references=[
            {"number": 1, "url": "javascript:alert(1)", "title": "<i>evil</i>", "origin": "kb"}
        ],
        answer="Use <img src=x onerror=alert(1)> the console[1].",
        timings={"generate": 900.0},
    )
    store.vote("hostile", user="U1", vote="down", platform="discord")
    store.set_reason("hostile", user="U1", reason="wrong", text="<u>it moved</u>")
    store.close()


@pytest.fixture
async def insights(tmp_path):
    seeded(tmp_path / "data")
    settings = load_settings(data_dir=str(tmp_path / "data"), feedback={"insights_token": TOKEN})
    runner = await server.start(settings, probes={}, host="127.0.0.1", port=0)
    assert runner is not None
    host, port = runner.addresses[0][:2]
    yield f"http://{host}:{port}/insights"
    await runner.cleanup()


async def test_the_token_is_required_and_user_text_is_escaped(insights, caplog):
    caplog.set_level(logging.DEBUG)
    async with aiohttp.ClientSession() as s:
        async with s.get(insights) as r:
            assert r.status == 401 and "<svg" not in await r.text()
        async with s.get(insights, headers={"Authorization": "Bearer wrong"}) as r:
            assert r.status == 401
        async with s.post(insights, data={"token": "wrong"}) as r:
            assert r.status == 401 and "not right" in await r.text()
        async with s.get(insights, headers={"Authorization": f"Bearer {TOKEN}"}) as r:
            assert r.status == 200
            page = await r.text()
    assert "<script>alert" not in page and "&lt;script&gt;alert(&quot;x&quot;)" in page
    assert "<img src=x" not in page and "<u>it moved</u>" not in page and "wrong: &lt;u&gt;" in page
    assert 'href="javascript:' not in page and "&lt;i&gt;evil&lt;/i&gt;" in page
    assert page.count('class="chart"') == 3 and "Knowledge gaps" in page
    assert "rotate the API key" in page and "https://docs.example.com/keys" in page
    assert TOKEN not in page and TOKEN not in caplog.text


async def test_off_without_a_token(tmp_path):
    runner = await server.start(
        load_settings(data_dir=str(tmp_path)), probes={}, host="127.0.0.1", port=0
    )
    assert runner is not None
    host, port = runner.addresses[0][:2]
    async with aiohttp.ClientSession() as s, s.get(f"http://{host}:{port}/insights") as r:
        assert r.status == 404
    await runner.cleanup()


def _have_browser() -> bool:
    return CHROMIUM.exists() and CHROMEDRIVER.exists()


def _browse(url: str, profile: Path, shot: Path) -> dict[str, object]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
        f"--user-data-dir={profile}",
        "--window-size=1200,1600",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    try:
        driver.get(url)
        gated = not driver.find_elements(By.CSS_SELECTOR, "svg.chart")
        driver.find_element(By.ID, "token").send_keys(TOKEN)
        driver.find_element(By.ID, "sign-in").click()
        # The click only submits the form; wait for the signed-in page, not a fixed time.
        WebDriverWait(driver, 60).until(
            expected_conditions.presence_of_all_elements_located((By.CSS_SELECTOR, "svg.chart"))
        )
        charts = {
            svg.get_attribute("id"): (
                len(svg.find_elements(By.CSS_SELECTOR, "rect, polyline, circle")),
                svg.size["width"],
                svg.size["height"],
            )
            for svg in driver.find_elements(By.CSS_SELECTOR, "svg.chart")
        }
        gaps = len(driver.find_elements(By.CSS_SELECTOR, "#gaps tr"))
        alerts = driver.execute_script("return document.querySelectorAll('script').length")
        driver.save_screenshot(str(shot))
        return {"gated": gated, "charts": charts, "gaps": gaps, "scripts": alerts}
    finally:
        driver.quit()


async def test_the_page_renders_in_headless_chromium(insights, tmp_path):
    if not _have_browser():
        message = (
            f"{CHROMIUM} and {CHROMEDRIVER} are needed (apt-get install chromium chromium-driver)"
        )
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    shot = tmp_path / "insights.png"
    seen = await asyncio.to_thread(_browse, insights, tmp_path / "profile", shot)
    assert seen["gated"] is True
    charts = seen["charts"]
    assert isinstance(charts, dict)
    assert set(charts) == {"questions-per-day", "helpful-rate", "latency"}
    for name, (marks, width, height) in charts.items():
        assert marks > 0 and width > 0 and height > 0, name
    assert isinstance(seen["gaps"], int) and seen["gaps"] > 1
    assert seen["scripts"] == 0  # no script ran, hostile or ours
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 5000


async def _raw(url: str, request: bytes) -> int:
    """The status of a request written byte for byte (clients refuse to send such bytes)."""
    host, port = url.split("//")[1].split("/")[0].split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    writer.write(request)
    await writer.drain()
    status = int((await reader.readline()).split()[1])
    writer.close()
    return status


async def test_junk_from_a_stranger_is_refused_not_a_server_error(insights, caplog):
    junk_bodies = [
        (b"multipart/form-data; boundary=zzz", b"garbage"),
        (b"application/x-www-form-urlencoded; charset=bogus", b"token=x"),
        (b"application/x-www-form-urlencoded", b"token=\xff"),
    ]
    requests = [
        b"GET /insights HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \xff\r\nConnection: close\r\n\r\n"
    ] + [
        b"POST /insights HTTP/1.1\r\nHost: x\r\nContent-Type: "
        + kind
        + b"\r\nContent-Length: "
        + str(len(body)).encode()
        + b"\r\nConnection: close\r\n\r\n"
        + body
        for kind, body in junk_bodies
    ]
    for request in requests:
        assert await _raw(insights, request) == 401
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
