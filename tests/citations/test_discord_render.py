"""Discord rendering details: links, titles, headers and how the Sources embeds are packed."""

from __future__ import annotations

import itertools

from citations import CitedAnswer, Source, resolve
from citations.render import render_discord

# Discord, https://discord.com/developers/docs/resources/message#embed-object-embed-limits
DISCORD_EMBED_DESCRIPTION = 4096
DISCORD_EMBEDS_TOTAL = 6000
# Discord, https://discord.com/developers/docs/resources/message#create-message: ≤ 10 embeds.
DISCORD_EMBEDS = 10


def one(url: str, title: str) -> list[str]:
    [msg] = render_discord(resolve("a[1]", [Source(1, url, title, "t")]))
    return [msg.content, msg.embeds[0]["description"]]


def test_characters_that_end_a_link_are_escaped_in_the_url() -> None:
    assert one("https://a.com/x y>z<w)v", "T") == [
        "a[[1]](<https://a.com/x%20y%3Ez%3Cw%29v>)",
        "[1] [T](<https://a.com/x%20y%3Ez%3Cw%29v>)",
    ]


def test_titles_that_look_like_urls_are_not_masked() -> None:
    assert one("https://a.com/x", "www.a.com")[1] == "[1] <https://a.com/x>"
    assert one("https://a.com/x", "a.com/x")[1] == "[1] <https://a.com/x>"
    assert one("https://a.com/x", "")[1] == "[1] <https://a.com/x>"
    assert (
        one("https://a.com/x", "Guide for a.b users")[1]
        == "[1] [Guide for a.b users](<https://a.com/x>)"
    )


def test_a_long_title_is_shortened_with_an_ellipsis() -> None:
    line = one("https://a.com/x", "T" * 300)[1]
    assert line == "[1] [" + "T" * 199 + "…](<https://a.com/x>)"
    assert one("https://a.com/x", "T" * 200)[1] == "[1] [" + "T" * 200 + "](<https://a.com/x>)"


def test_a_source_line_too_long_for_a_link_keeps_its_title() -> None:
    assert one("https://a.com/" + "x" * 1200, "Title")[1] == "[1] Title"


def test_an_empty_answer_is_still_one_message() -> None:
    assert [(m.content, m.embeds) for m in render_discord(CitedAnswer.empty(""))] == [
        ("\u200b", [])
    ]


def test_the_header_is_one_line_and_short() -> None:
    [msg] = render_discord(CitedAnswer.empty("hi"), header="h" * 300)
    assert msg.content == "h" * 199 + "…\nhi"
    [msg] = render_discord(CitedAnswer.empty(""), header="  a  b\nc ")
    assert msg.content == "a b c"


def sources(n: int, title: int) -> list[Source]:
    return [
        Source(i, f"https://docs.example.com/p/{i}", f"S{i} " + "t" * title, "x")
        for i in range(1, n + 1)
    ]


def test_sources_fill_each_embed_and_each_message_before_starting_another() -> None:
    cites = " ".join(f"w[{i}]" for i in range(1, 201))
    messages = render_discord(resolve(cites, sources(200, 190)))
    embeds = [e for m in messages for e in m.embeds]
    lines = [line for e in embeds for line in e["description"].split("\n")]
    assert [line.split(" ", 1)[0] for line in lines] == [f"[{i}]" for i in range(1, 201)]
    for embed, following in itertools.pairwise(embeds):
        assert len(embed["description"]) <= DISCORD_EMBED_DESCRIPTION
        first = following["description"].split("\n", 1)[0]
        assert len(embed["description"]) + 1 + len(first) > DISCORD_EMBED_DESCRIPTION
    texts = [m for m in messages if m.content]
    assert texts[-1].embeds  # the first embed rides with the answer's last text
    for msg, following in itertools.pairwise(messages):
        if not msg.embeds:
            continue
        size = sum(len(e["title"]) + len(e["description"]) for e in msg.embeds)
        assert len(msg.embeds) <= DISCORD_EMBEDS and size <= DISCORD_EMBEDS_TOTAL
        nxt = following.embeds[0]
        assert size + len(nxt["title"]) + len(nxt["description"]) > DISCORD_EMBEDS_TOTAL


def test_small_embeds_share_a_message_up_to_ten() -> None:
    # one short source per embed is impossible to force, so pack many tiny messages' worth
    cites = " ".join(f"w[{i}]" for i in range(1, 4))
    [msg] = render_discord(resolve(cites, sources(3, 5)))
    assert len(msg.embeds) == 1
    assert msg.embeds[0]["description"].count("\n") == 2
