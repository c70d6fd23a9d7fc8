"""Discord rendering details: links, titles, headers and how the Sources embeds are packed."""

from __future__ import annotations

import itertools

from citations import CitedAnswer, Reference, Segment, Source, resolve
from citations.render import render_discord
from citations.render.discord import stream_filter

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


def test_a_url_that_reaches_the_renderer_raw_still_cannot_end_its_link() -> None:
    # a CitedAnswer built by hand skips resolve()'s canonical URLs
    raw = "https://a.com/x y>z<w)v"
    answer = CitedAnswer((Segment("See", (1,)),), (Reference(1, raw, "T", ()),))
    [msg] = render_discord(answer)
    assert msg.content == "See[[1]](<https://a.com/x%20y%3Ez%3Cw%29v>)"
    assert msg.embeds[0]["description"] == "[1] [T](<https://a.com/x%20y%3Ez%3Cw%29v>)"


def test_an_allowed_link_in_the_answer_stays_a_link_without_a_preview() -> None:
    answer = resolve("see [docs](https://a.com/d) [1]", [Source(1, "https://a.com/x", "T", "t")])
    [msg] = render_discord(answer, allowed_links=["https://a.com/d"])
    assert msg.content == "see [docs](<https://a.com/d>) [[1]](<https://a.com/x>)"
    [msg] = render_discord(answer)
    assert msg.content == "see docs [[1]](<https://a.com/x>)"


def test_the_preview_filter_disarms_pings_and_links() -> None:
    preview = stream_filter()
    shown = preview.feed("hi @everyone, see [x](https://evil.example) ") + preview.close()
    assert shown == "hi @\u2060everyone, see x "
    short = stream_filter(limit=10)
    assert short.feed("hello world, and more") + short.close() == "hello worl"


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


def test_a_source_line_of_up_to_1000_characters_keeps_its_link() -> None:
    # the renderer's own cap (module docstring): one long URL must not fill the embed
    base = len(one("https://a.com/", "Title")[1])
    assert one("https://a.com/" + "x" * (1000 - base), "Title")[1].endswith(")")
    line = one("https://a.com/" + "x" * (1001 - base), "Title")[1]
    assert line == "[1] Title"
    untitled = one("https://a.com/" + "x" * 1200, "")[1]
    assert "](<" not in untitled and untitled.startswith("[1] https:")
    assert 900 < len(untitled) <= 1000


def test_an_empty_answer_is_still_one_message() -> None:
    assert [(m.content, m.embeds) for m in render_discord(CitedAnswer.empty(""))] == [
        ("\u200b", [])
    ]


def test_the_header_is_one_line_and_short() -> None:
    [msg] = render_discord(CitedAnswer.empty("hi"), header="h" * 300)
    assert msg.content == "h" * 199 + "…\nhi"
    [msg] = render_discord(CitedAnswer.empty(""), header="  a  b\nc ")
    assert msg.content == "a b c"


def test_a_header_before_a_long_answer_keeps_every_part() -> None:
    words = [f"w{i}" for i in range(1200)]
    messages = render_discord(CitedAnswer.empty(" ".join(words)), header="Re: keys")
    assert len(messages) >= 3
    assert messages[0].content.startswith("Re: keys\nw0 ")
    assert " ".join(m.content for m in messages).split()[2:] == words


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


def padded(lengths: list[int]) -> CitedAnswer:
    """An answer whose Sources lines are exactly ``lengths`` characters long."""
    grown = []
    for i, want in enumerate(lengths, 1):
        url = f"https://docs.example.com/{i}/p"  # one line per source: each URL grows alone
        have = len(one(url, "T")[1]) + len(str(i)) - 1  # measured as [1], numbered [i]
        grown.append(Source(i, url + "p" * (want - have), "T", "x"))
    cites = " ".join(f"w[{i}]" for i in range(1, len(lengths) + 1))
    return resolve(cites, grown)


def descriptions(answer: CitedAnswer) -> list[list[int]]:
    return [[len(e["description"]) for e in m.embeds] for m in render_discord(answer) if m.embeds]


def test_an_embed_description_may_use_all_4096_characters() -> None:
    # five lines and four newlines: 4 * 820 + 812 + 4 == 4096
    assert descriptions(padded([820, 820, 820, 820, 812])) == [[DISCORD_EMBED_DESCRIPTION]]
    # one character more and the fifth line starts the next embed
    assert descriptions(padded([820, 820, 820, 820, 813])) == [[3283, 813]]
    # and so may the next one (each in its own message: 2 * 4103 > 6000)
    assert descriptions(padded([820, 820, 820, 820, 812] * 2)) == [[4096], [4096]]


def test_the_embeds_of_a_message_may_use_all_6000_characters() -> None:
    # a full embed (4096 + "Sources") and a second whose size brings the total to 6000
    full = [820, 820, 820, 820, 812]
    rest = DISCORD_EMBEDS_TOTAL - 2 * len("Sources") - DISCORD_EMBED_DESCRIPTION
    assert descriptions(padded([*full, 900, rest - 901])) == [[4096, rest]]
    assert descriptions(padded([*full, 900, rest - 900])) == [[4096], [rest + 1]]
