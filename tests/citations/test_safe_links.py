"""Links come only from source metadata: the pure filter, the final renders, and every prefix of a stream."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from citations import Source, resolve
from citations.render import discord as discord_render
from citations.render import render_discord, render_markdown, render_slack
from citations.render import slack as slack_render
from citations.render.pieces import link_allowed, links
from citations.render.safe import (
    LABEL_MAX,
    MAX_HOLD,
    WORD_JOINER,
    SafeStream,
    code_regions,
    safe_text,
)
from tests.citations.links import foreign_links, payload_texts, visible_links
from tests.citations.profiles import PROPERTY

WJ = WORD_JOINER
SOURCES = [
    Source(1, "https://docs.example.com/guide", "Guide", "t"),
    Source(2, "https://docs.example.com/caf%C3%A9", "Café https://evil.example/title", "t"),
]
SOURCE_URLS = [s.url for s in SOURCES]

# Pieces an attacker, a model or a document might put in an answer.
FRAGMENTS = [
    "[click](https://evil.example/x)",
    "[guide](https://docs.example.com/guide)",
    "https://evil.example/path?q=1",
    "HTTPS://EVIL.EXAMPLE",
    "www.evil.example",
    "<https://evil.example>",
    "<https://evil.example|label>",
    "<!channel>",
    "<!here>",
    "<@U123>",
    "<#C1>",
    "@everyone",
    "@here",
    "@channel",
    "mail me@evil.example",
    "`git@github.com:org/repo.git`",
    "`npm install @scope/pkg@1.0`",
    "`https://in.code.example`",
    "```\ncurl https://in.fence.example @here\n```\n",
    "```py\nx = 1\n",
    "```",
    "``",
    "`",
    "\\`",
    "\\",
    "[",
    "]",
    "(",
    ")",
    "](",
    "]:",
    "http:",
    "//",
    "www",
    ".",
    "![img](https://evil.example/i.png)",
    "[1]",
    "[2]",
    "[^1]",
    "[1](id=2)",
    "【1†source】",
    "\n",
    "\n\n",
    " ",
    "word",
    "&",
    "~~~\nhttps://tilde.example\n~~~\n",
    "[install it]()",
    "[filters]({{ '/docs/filters/' | relative_url }})",
    '[ref]({{< ref "x.md#y" >}})',
    "[page]({% link _docs/x.md %}#anchor)",
    "{{ x }}",
    "{%",
]

texts = st.lists(
    st.one_of(st.sampled_from(FRAGMENTS), st.text(alphabet="ab :/.[]()`@<>w\n", max_size=8)),
    max_size=25,
).map("".join)


@st.composite
def splits(draw: st.DrawFn, text: str) -> list[str]:
    cuts = sorted(draw(st.sets(st.integers(0, len(text)), max_size=12)))
    bounds = [0, *cuts, len(text)]
    return [text[a:b] for a, b in itertools.pairwise(bounds)]


@st.composite
def split_texts(draw: st.DrawFn) -> tuple[str, list[str]]:
    text = draw(texts)
    return text, draw(splits(text))


# -- examples ---------------------------------------------------------------------


def test_markdown_link_keeps_only_its_label() -> None:
    assert safe_text("see [click here](https://evil.example/x) now") == "see click here now"


def test_a_link_with_no_destination_or_a_templates_shows_its_label() -> None:
    # what a docs site's template writes there ("{% link x.md %}") is quoted as written, or
    # was taken out as markup; the built page shows the label, and so does every render
    text = (
        "First [install it](), then use the [URL filters]({{ '/docs/filters/' | relative_url }})"
        ' as [the guide]({% link _docs/x.md %}#assets) and [Dapr]({{< ref "a.md#b" >}}) say; '
        "[a call]({{ f(1) }}) is no link."
    )
    shown = (
        "First install it, then use the URL filters as the guide and Dapr say; "
        "[a call]({{ f(1) }}) is no link."
    )
    assert safe_text(text).replace(WJ, "") == shown
    answer = resolve(text + "[1]", SOURCES)
    [discord] = render_discord(answer)
    assert discord.content.replace(WJ, "").startswith(shown)
    [slack] = render_slack(answer)
    assert slack.text.replace(WJ, "").startswith(shown)
    assert render_markdown(answer).replace(WJ, "").startswith(shown)


def test_allowed_link_stays_a_link() -> None:
    stream = SafeStream(allowed=lambda url: url == "https://docs.example.com/guide")
    out = stream.feed("[Guide](https://docs.example.com/guide) and [x](https://evil.example)")
    assert out + stream.close() == "[Guide](<https://docs.example.com/guide>) and x"


def test_bare_urls_are_broken_between_scheme_and_slashes() -> None:
    assert safe_text("go to https://evil.example/x") == f"go to https:{WJ}//evil.example/x"
    assert safe_text("or www.evil.example") == f"or www{WJ}.evil.example"
    assert safe_text("<https://evil.example>") == f"<{WJ}https:{WJ}//evil.example>"
    assert visible_links(safe_text("https://a.example www.b.example <https://c.example>")) == []


def test_pings_are_stopped_outside_code() -> None:
    out = safe_text("@everyone @here <@123> <!channel> me@evil.example")
    assert "@everyone" not in out and "@here" not in out and "<@" not in out and "<!" not in out
    assert "me@evil" not in out


def test_code_is_left_exactly_as_written() -> None:
    text = (
        "Clone `git@github.com:org/repo.git`, run `npm install @scope/pkg@1.0`:\n"
        "```sh\ncurl https://api.example/v1 -H 'x: @here'\n```\n"
    )
    out = safe_text(text)
    assert "`git@github.com:org/repo.git`" in out
    assert "`npm install @scope/pkg@1.0`" in out
    assert "curl https://api.example/v1 -H 'x: @here'" in out


def test_an_unpaired_backtick_ends_all_code() -> None:
    # Slack pairs the first backtick with the second; Discord too: the URL is prose.
    out = safe_text("a ` b\nc `https://evil.example`")
    assert visible_links(out) == []
    assert f"https:{WJ}//evil.example" in out


def test_three_backticks_inside_a_fence_cannot_close_it_on_discord() -> None:
    out = safe_text("```\na ``` b https://in.code.example\n```\nafter")
    assert "a ``" + WJ + "` b https://in.code.example" in out


def test_a_split_link_is_disarmed_like_a_whole_one() -> None:
    stream = SafeStream()
    parts = ["[cli", "ck](ht", "tps://evil.exa", "mple/x) h", "ttp", ":", "//", "evil"]
    out = "".join(stream.feed(p) for p in parts) + stream.close()
    assert out == f"click http:{WJ}//evil"


def test_hold_back_is_bounded() -> None:
    stream = SafeStream()
    out = stream.feed("`" + "x" * (MAX_HOLD + 10))
    assert len(out) >= 10  # the unpaired backtick was given up on


@pytest.mark.parametrize("size", [LABEL_MAX - 1, LABEL_MAX, LABEL_MAX + 1])
def test_a_long_label_split_before_its_bracket_is_read_like_the_whole(size: int) -> None:
    text = "[" + "a" * size + "](https://evil.example/x) end"
    stream = SafeStream()
    out = stream.feed(text[: size + 1]) + stream.feed(text[size + 1 :]) + stream.close()
    assert out == safe_text(text)
    assert out.startswith("[") is (size > LABEL_MAX)  # the longest label is still a label


@pytest.mark.parametrize(
    "text",
    [
        "[a](b c) and more",  # a space: no destination
        "[a](b\nc and more",  # a destination never runs past its line
        "[a]b and more",
        "see [a] and more",
    ],
)
def test_what_cannot_become_a_link_is_shown_at_once(text: str) -> None:
    stream = SafeStream()
    assert stream.feed(text) == safe_text(text)
    assert stream.close() == ""


def test_a_parenthesis_in_the_label_does_not_end_the_wait_for_the_destination() -> None:
    text = "[f(x)](https://evil.example/x) end"
    stream = SafeStream()
    out = stream.feed(text[:10]) + stream.feed(text[10:]) + stream.close()
    assert out == safe_text(text) == "f(x) end"


def test_an_unfinished_link_is_held_back_at_most_max_hold_characters() -> None:
    stream = SafeStream()
    assert stream.feed("see [a](" + "b" * (MAX_HOLD - 5)) == "see "  # MAX_HOLD - 1 held
    assert stream.feed("b").startswith(f"[a]{WJ}(b")
    for piece in ("[a", "[a](b"):
        stream = SafeStream()
        assert stream.feed(piece) == ""
        assert stream.close() == piece.replace("](", f"]{WJ}(")  # nothing lost at the end


def test_limit_never_cuts_a_code_span() -> None:
    stream = SafeStream(limit=12)
    out = stream.feed("abc `https://code.example` tail") + stream.close()
    assert out == "abc " and stream.full


def test_tail_is_cut_outside_code_and_closes_a_fence() -> None:
    stream = SafeStream()
    stream.feed("`https://a.example` " * 20 + "\n```\n" + "@here https://b.example\n" * 5)
    preview = stream.tail(120)
    assert len(preview) <= 120
    assert preview.endswith("\n```")
    assert visible_links(preview) == []


def test_slack_mrkdwn_is_verbatim() -> None:
    [msg] = render_slack(resolve("See https://evil.example[1].", SOURCES))
    for block in msg.blocks:
        objects = [block["text"]] if "text" in block else block["elements"]
        assert all(o["verbatim"] is True for o in objects)


def test_discord_wrapped_url_is_not_a_link() -> None:
    [msg] = render_discord(resolve("See <https://evil.example>[1].", SOURCES))
    assert foreign_links([msg.content], SOURCE_URLS) == []


def test_glued_url_from_a_dropped_link_is_disarmed() -> None:
    [msg] = render_discord(resolve("http:[](https://x.example)//evil.example", SOURCES))
    assert foreign_links([msg.content], SOURCE_URLS) == []


def test_code_regions_follow_pairing_on_one_line() -> None:
    assert code_regions("a `x` b") == [(2, 5)]
    assert code_regions("``a`") == []
    assert code_regions("```\nx\n```\ny") == [(0, 9)]
    assert code_regions("```\nx") == [(0, 5)]


# -- properties -------------------------------------------------------------------


@PROPERTY
@given(split_texts())
def test_any_split_gives_the_same_text(case: tuple[str, list[str]]) -> None:
    text, parts = case
    for dialect in (discord_render.STREAM_DIALECT, slack_render.STREAM_DIALECT):
        stream = SafeStream(dialect)
        out = "".join(stream.feed(p) for p in parts) + stream.close()
        whole = SafeStream(dialect)
        assert out == whole.feed(text) + whole.close()


@PROPERTY
@given(split_texts())
def test_no_prefix_of_a_stream_shows_a_foreign_link(case: tuple[str, list[str]]) -> None:
    _, parts = case
    for make in (discord_render.stream_filter, slack_render.stream_filter):
        stream = make()
        shown = ""
        for part in parts:
            shown += stream.feed(part)
            assert foreign_links([shown], SOURCE_URLS) == [], shown
            assert foreign_links([stream.tail(60)], SOURCE_URLS) == []
        shown += stream.close()
        assert foreign_links([shown], SOURCE_URLS) == [], shown


@PROPERTY
@given(texts)
def test_final_renders_link_only_sources(text: str) -> None:
    answer = resolve(text + "[1][2]", SOURCES)
    for slack in render_slack(answer, header=text[:50]):
        shown = [*payload_texts(slack.blocks), slack.text, slack.markdown_text]
        assert foreign_links(shown, SOURCE_URLS) == [], shown
    for discord in render_discord(answer, header=text[:50]):
        shown = [discord.content, *payload_texts(discord.embeds)]
        assert foreign_links(shown, SOURCE_URLS) == [], shown
    assert foreign_links([render_markdown(answer)], SOURCE_URLS) == []


def test_an_unclosed_fence_before_the_markers_leaves_no_link() -> None:
    # found by hypothesis: the fence was closed on the markers' line ("```[1]"), which
    # closes nothing, so the link after it rendered
    text = (
        "```[click](https://evil.example/x)```\ncurl https://in.fence.example @here\n"
        "```\n[click](https://evil.example/x)"
    )
    answer = resolve(text + "[1][2]", SOURCES)
    assert foreign_links([render_markdown(answer)], SOURCE_URLS) == []


def test_an_unclosed_fence_is_closed_on_its_own_line_before_the_markers() -> None:
    # the resolver holds a fence's opening line for 256 characters at most, so it reads a
    # longer one as prose and takes "[1]" for a marker; a platform reads a fence that never
    # closes
    opening = "```" + "x" * 300
    answer = resolve(f"{opening}\npip install x\n[1]", SOURCES)
    assert answer.segments[-1].citations == (1,)
    md = render_markdown(answer)
    assert md.startswith(f"{opening}\npip install x\n```\n[^1]"), md
    [msg] = render_discord(answer)
    assert msg.content.startswith(f"{opening}\npip install x\n```\n[[1]]("), msg.content


def test_a_span_that_only_pairs_with_a_marker_inside_is_not_left_as_code() -> None:
    # "``a`[1]`…``" is one span; without the marker "``a``" closes early and the
    # rest would be prose: it must be disarmed as prose
    answer = resolve("``a`[1]`[x](https://evil.example)`` done", SOURCES)
    for text in (render_markdown(answer), render_discord(answer)[0].content):
        assert foreign_links([text], SOURCE_URLS) == [], text


def test_an_escaped_bracket_before_a_dropped_link_cannot_escape_a_backtick() -> None:
    answer = resolve("\\[](https://a.example)`[x](https://evil.example)`[1]", SOURCES)
    md = render_markdown(answer)
    assert foreign_links([md], SOURCE_URLS) == [], md
    slack = render_slack(answer)[0]
    assert foreign_links([*payload_texts(slack.blocks), slack.markdown_text], SOURCE_URLS) == []


def test_a_link_to_a_sources_own_place_stays_when_footnotes_merge_its_page() -> None:
    sources = [
        Source(1, "https://docs.example.com/guide#install", "Install", "t"),
        Source(2, "https://docs.example.com/guide#upgrade", "Upgrade", "t"),
    ]
    answer = resolve(
        "see [upgrading](https://docs.example.com/guide#upgrade) [1][2]",
        sources,
        merge_fragments=True,
    )
    assert [ref.url for ref in answer.references] == ["https://docs.example.com/guide"]
    assert link_allowed("https://docs.example.com/guide#upgrade", answer, ())
    assert not link_allowed("https://docs.example.com/guide#other", answer, ())
    assert "[upgrading](<https://docs.example.com/guide#upgrade>)" in render_markdown(answer)


def test_an_allowed_host_covers_its_subdomains_and_nothing_that_only_ends_like_it() -> None:
    answer = resolve("x", SOURCES)
    allowed = ["", " ", "partner.example"]  # blank entries (a trailing comma) are skipped
    assert link_allowed("https://partner.example/x", answer, allowed)
    assert link_allowed("https://docs.partner.example/x", answer, allowed)
    assert not link_allowed("https://evilpartner.example/x", answer, allowed)
    assert not link_allowed("https://partner.example.evil.example/x", answer, allowed)


def test_an_allowed_link_is_one_piece_a_message_is_never_split_inside() -> None:
    answer = resolve("x [1]", SOURCES)
    pieces = links(
        "see [the guide](https://docs.example.com/guide) and [bad](https://evil.example) now",
        answer,
        (),
        lambda label, url: f"<{url}|{label}>",
        lambda text: text,
    )
    assert [(p.text, p.atom) for p in pieces] == [
        ("see ", False),
        ("<https://docs.example.com/guide|the guide>", True),
        (" and bad now", False),
    ]


@pytest.mark.parametrize(
    "url",
    [
        "javascript:alert(document.cookie)",
        " JavaScript:alert(1)",
        "\x01javascript:alert(1)",  # a browser drops control characters before the scheme
        "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
        "vbscript:msgbox(1)",
    ],
)
def test_a_source_whose_url_a_browser_would_run_is_never_cited(url: str) -> None:
    safe = Source(2, "https://docs.example.com/keys", "Keys", "Keys rotate.")
    answer = resolve("Click here [1]. Keys rotate [2].", [Source(1, url, "Run me", "x"), safe])
    assert [r.url for r in answer.references] == ["https://docs.example.com/keys"]
    for rendered in (
        str(render_slack(answer)[0].blocks),
        render_discord(answer)[0].content,
        render_markdown(answer),
    ):
        assert url.strip().lstrip("\x01")[:10].lower() not in rendered.lower()
