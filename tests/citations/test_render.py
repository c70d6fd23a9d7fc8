from __future__ import annotations

import random
import re

from hypothesis import given
from hypothesis import strategies as st

from citations import CitedAnswer, Source, resolve
from citations.render import (
    MENTIONS_MUST_BE_DISABLED,
    CitationStyle,
    DiscordMessage,
    SlackMessage,
    escape_stream,
    render_discord,
    render_html,
    render_markdown,
    render_slack,
    render_text,
)
from tests.citations import test_platform_limits as limits
from tests.citations.profiles import HEAVY

SOURCES = [
    Source(1, "https://docs.example.com/guide#install", "Install guide", "t"),
    Source(2, "https://docs.example.com/guide#usage", "Usage", "t"),
    Source(3, "https://example.org/a?x=1&y=2", "Ampersand & <tags> | pipe", "t"),
]


def answer(text: str) -> CitedAnswer:
    return resolve(text, SOURCES)


def test_text_render_lists_sources() -> None:
    out = render_text(answer("Install it[1]. Use it[2][1]."))
    assert out == (
        "Install it[1]. Use it[2][1].\n\nSources\n"
        "[1] Install guide — https://docs.example.com/guide#install\n"
        "[2] Usage — https://docs.example.com/guide#usage"
    )


def test_markdown_uses_footnotes() -> None:
    out = render_markdown(answer("Install it[1]."))
    assert out.startswith("Install it[^1].")
    assert "[^1]: [Install guide](<https://docs.example.com/guide#install>)" in out


def test_html_escapes_and_links() -> None:
    out = render_html(answer("a < b & c[3]\n\n```\n<x>\n```"))
    assert '<p>a &lt; b &amp; c<sup><a href="#cite-1">[1]</a></sup></p>' in out
    assert "<pre><code>&lt;x&gt;</code></pre>" in out
    assert 'href="https://example.org/a?x=1&amp;y=2"' in out
    assert "Ampersand &amp; &lt;tags&gt; | pipe" in out


def test_slack_blocks_links_and_sources() -> None:
    [msg] = render_slack(answer("Install it[1]. Then[3]."))
    section, context = msg.blocks
    assert section["type"] == "section"
    assert section["text"]["text"] == (
        "Install it<https://docs.example.com/guide#install|[1]>. "
        "Then<https://example.org/a?x=1&amp;y=2|[2]>."
    )
    texts = [e["text"] for e in context["elements"]]
    assert texts[0] == "*Sources*"
    assert texts[1] == "[1] <https://docs.example.com/guide#install|Install guide>"
    assert texts[2] == "[2] <https://example.org/a?x=1&amp;y=2|Ampersand &amp; &lt;tags pipe>"
    assert "[\\[1\\]](https://docs.example.com/guide#install)" in msg.markdown_text
    assert "<" not in msg.text


def test_slack_defangs_pings() -> None:
    text = "Hey @channel and @here and @everyone <!channel> <!here> <!subteam^S123> <@U999> [1]"
    [msg] = render_slack(answer(text))
    body = msg.blocks[0]["text"]["text"]
    for form in (msg.markdown_text, body, msg.text):
        assert "@channel" not in form and "@here" not in form and "@everyone" not in form
        assert "<!" not in form and "<@" not in form
    assert "&lt;!subteam^S123&gt;" in body
    assert escape_stream("<!here> @channel") == "&lt;!here&gt; @\u2060channel"


def test_slack_bold_and_headings_become_mrkdwn() -> None:
    [msg] = render_slack(answer("## Setup\n**Important** step[1]"))
    assert msg.blocks[0]["text"]["text"].startswith("*Setup*\n*Important* step")


def test_link_safety() -> None:
    text = (
        "See [the guide](https://docs.example.com/guide#install)[1], "
        "[click here](https://evil.example.net/phish), "
        "and [partner](https://partner.example.com/x). `[code](https://evil.example.net)`"
    )
    a = answer(text)
    plain = render_text(a)
    assert "evil.example.net/phish" not in plain and "click here" in plain
    assert "the guide (https://docs.example.com/guide#install)" in plain
    md = render_markdown(a, allowed_links=["partner.example.com"])
    assert "[partner](<https://partner.example.com/x>)" in md
    assert "[click here]" not in md
    assert "`[code](https://evil.example.net)`" in md  # code is never touched
    [msg] = render_slack(a)
    assert "evil.example.net/phish" not in str(msg.blocks) + msg.markdown_text
    [dmsg] = render_discord(a)
    assert "evil.example.net/phish" not in dmsg.content


def test_discord_content_and_embed() -> None:
    assert MENTIONS_MUST_BE_DISABLED is True
    [msg] = render_discord(answer("Install it[1]. Then[3]. @everyone"), header="From the docs")
    assert msg.content.startswith(
        "From the docs\nInstall it[[1]](<https://docs.example.com/guide#install>)."
    )
    assert "@\u2060everyone" in msg.content
    [embed] = msg.embeds
    assert embed["title"] == "Sources"
    lines = embed["description"].split("\n")
    assert lines[0] == "[1] [Install guide](<https://docs.example.com/guide#install>)"
    assert lines[1].startswith("[2] [Ampersand & <\u2060tags> \\| pipe](<")


def test_discord_url_like_titles_are_not_masked() -> None:
    src = [Source(1, "https://a.com/x", "https://a.com/x", "t")]
    [msg] = render_discord(resolve("x[1]", src))
    assert msg.embeds[0]["description"] == "[1] <https://a.com/x>"


def test_refusal_renders_without_sources() -> None:
    a = answer("I couldn't find this in the knowledge base[1].")
    assert "Sources" not in render_text(a)
    assert all(b["type"] == "section" for m in render_slack(a) for b in m.blocks)
    assert all(not m.embeds for m in render_discord(a))


def test_custom_style_protocol() -> None:
    class Plain:
        name = "plain"

        def render(self, answer: CitedAnswer) -> object:
            return answer.plain_text

    assert isinstance(Plain(), CitationStyle)
    assert Plain().render(answer("x[1]")) == "x"


# -- every platform limit, on long answers with many sources -------------------------

_WORDS = [
    "alpha",
    "beta",
    "gamma",
    "delta",
    "epsilon",
    "zeta",
    "eta",
    "theta",
    "iota",
    "kappa",
    "lambda",
]


def _long_answer(seed: int, length: int, n_sources: int) -> CitedAnswer:
    rng = random.Random(seed)
    sources = [
        Source(
            i + 1,
            f"https://site{i % 7}.example.com/{'p' * rng.randint(1, 300)}/{i}?q={i}&r=<x>|y#s{i}",
            rng.choice(["Title", "A & B <c> | d", "@channel ping", "x" * 400, "", "https://u.rl/x"])
            + f" {i}",
            "text",
        )
        for i in range(n_sources)
    ]
    parts: list[str] = []
    size = 0
    while size < length:
        roll = rng.random()
        if roll < 0.05:
            piece = (
                "\n```python\n"
                + "\n".join(
                    "x = [1] + y[2]  # " + "c" * rng.randint(0, 120)
                    for _ in range(rng.randint(1, 60))
                )
                + "\n```\n"
            )
        elif roll < 0.1:
            piece = f" [link {rng.randint(0, 9)}](https://site{rng.randint(0, 9)}.example.com/{rng.randint(0, 99)}) "
        elif roll < 0.12:
            piece = " @channel <!here> <@U123> & <b> "
        elif roll < 0.14:
            piece = "\n\n"
        elif roll < 0.16:
            piece = "y" * rng.randint(100, 5000)  # no place to break
        elif roll < 0.3:
            piece = f"[{rng.randint(1, n_sources + 2)}]"
        elif roll < 0.33:
            piece = f"`code {rng.randint(0, 9)}`"
        else:
            piece = " " + rng.choice(_WORDS) + rng.choice(["", "", ".", ","])
        parts.append(piece)
        size += len(piece)
    text = "".join(parts)[:length]
    # cite every source at least once so 60 sources really means 60 footnotes
    text += "".join(f"[{i + 1}]" for i in range(n_sources))
    return resolve(text, sources)


def _check_slack(messages: list[SlackMessage]) -> None:
    for msg in messages:
        assert 0 < len(msg.blocks) <= limits.SLACK_BLOCKS
        total = 0
        for block in msg.blocks:
            if block["type"] == "section":
                text = block["text"]["text"]
                assert 0 < len(text) <= limits.SLACK_SECTION_TEXT
                total += len(text)
            else:
                assert block["type"] == "context"
                assert 0 < len(block["elements"]) <= limits.SLACK_CONTEXT_ELEMENTS
                for element in block["elements"]:
                    assert len(element["text"]) <= limits.SLACK_SECTION_TEXT
                    total += len(element["text"])
        assert total <= limits.SLACK_BLOCKS_TEXT
        assert len(msg.markdown_text) <= limits.SLACK_MARKDOWN_TEXT
        assert len(msg.text) <= limits.SLACK_MESSAGE_TEXT
        for form in (str(msg.blocks), msg.markdown_text, msg.text):
            assert "<!" not in form and "<@" not in form
            assert re.search(r"@(channel|here|everyone)", form) is None
        for block in msg.blocks:
            if block["type"] == "section":
                _assert_fences_balanced(block["text"]["text"])
                # a link is never cut: every '<' opens a complete <url|label>
                text = block["text"]["text"]
                assert (
                    text.count("<")
                    == text.count(">")
                    == len(re.findall(r"<[^<>|]+\|[^<>]*>", text))
                )


def _assert_fences_balanced(text: str) -> None:
    fences = [line for line in text.split("\n") if line.lstrip().startswith("```")]
    assert len(fences) % 2 == 0, text[:200]


def _check_discord(messages: list[DiscordMessage]) -> None:
    for msg in messages:
        assert len(msg.content) <= limits.DISCORD_CONTENT
        assert msg.content or msg.embeds
        assert len(msg.embeds) <= limits.DISCORD_EMBEDS
        total = 0
        for embed in msg.embeds:
            assert len(embed.get("title", "")) <= limits.DISCORD_EMBED_TITLE
            assert len(embed.get("description", "")) <= limits.DISCORD_EMBED_DESCRIPTION
            assert len(embed.get("fields", [])) <= 25
            total += len(embed.get("title", "")) + len(embed.get("description", ""))
        assert total <= limits.DISCORD_EMBEDS_TOTAL
        _assert_fences_balanced(msg.content)
        # markers are never split: every "[[" has its "]](<"
        prose = "".join(t for t in re.split(r"```.*?```|`[^`]*`", msg.content, flags=re.DOTALL))
        assert prose.count("[[") == prose.count("]](<")


@HEAVY
@given(st.integers(0, 2**32), st.integers(100, 50_000), st.integers(1, 60))
def test_platform_limits_hold(seed: int, length: int, n_sources: int) -> None:
    a = _long_answer(seed, length, n_sources)
    slack = render_slack(a, header="Answer from the knowledge base")
    discord = render_discord(a, header="Answer")
    _check_slack(slack)
    _check_discord(discord)
    # every footnote survives the split, in order
    listed = [
        int(e["text"].split("]")[0][1:])
        for m in slack
        for b in m.blocks
        if b["type"] == "context"
        for e in b["elements"]
        if e["text"].startswith("[")
    ]
    assert listed == [r.number for r in a.references]
    embed_lines = [line for m in discord for e in m.embeds for line in e["description"].split("\n")]
    assert [int(line.split("]")[0][1:]) for line in embed_lines] == [r.number for r in a.references]


def test_limits_on_the_largest_case() -> None:
    a = _long_answer(7, 50_000, 60)
    _check_slack(render_slack(a))
    _check_discord(render_discord(a))
