"""What a streamed answer shows while it grows: a preview of its newest text (``tail``), and
where a ``limit`` stops it. Both stay cut outside code, never split an entity, and keep fences
paired, whatever the platform does with half a construct."""

from __future__ import annotations

import pytest

from citations.render import slack as slack_render
from citations.render.safe import SafeStream

#: a code span near the end of a long text, for cuts around it
SPAN = "intro " * 5 + "`code span` end"


def streamed(text: str) -> SafeStream:
    stream = SafeStream()
    stream.feed(text)
    return stream


def finished(text: str) -> SafeStream:
    stream = streamed(text)
    stream.close()
    return stream


def test_a_preview_that_fits_is_the_text_itself() -> None:
    assert streamed("short answer").tail(40) == "short answer"
    assert streamed("x" * 40).tail(40) == "x" * 40


def test_a_long_preview_is_the_newest_text_after_an_ellipsis_in_exactly_the_room() -> None:
    text = "".join(f"word{i} " for i in range(30))
    preview = streamed(text).tail(20)
    assert preview == "…" + text[-19:]
    assert streamed(text).tail(20, ellipsis="...") == "..." + text[-17:]


def test_a_preview_never_starts_inside_a_code_span() -> None:
    text = "intro " * 5 + "`a.long.code.span.value` then the end"
    preview = streamed(text).tail(20)
    assert preview == "… then the end"


def test_a_preview_may_start_just_before_a_code_span() -> None:
    assert streamed(SPAN).tail(17) == "… `code span` end"


def test_a_preview_inside_an_open_fence_keeps_it_a_closed_block() -> None:
    text = "Run this:\n```\n" + "".join(f"line {i}\n" for i in range(20))
    stream = streamed(text)
    assert stream.in_fence
    preview = stream.tail(30)
    assert len(preview) == 30
    assert preview.startswith("…\n```\n") and preview.endswith("\n```")
    assert preview == "…\n```\n" + text[-(30 - 1 - 5 - 4) :] + "\n```"
    assert streamed("Run:\n```\nls\n").tail(40) == "Run:\n```\nls\n\n```"


def test_a_preview_after_a_closed_fence_adds_no_closer() -> None:
    stream = streamed("```\nls\n```\nthen more words here")
    assert not stream.in_fence
    assert stream.tail(12) == "… words here"
    assert stream.tail(200).count("```") == 2


def test_the_limit_keeps_text_that_fits_it_exactly_and_stops_after() -> None:
    stream = SafeStream(limit=5)
    assert stream.feed("abcde") == "abcde" and not stream.full
    assert stream.feed("f") == "" and stream.full
    assert stream.text == "abcde"


def test_the_limit_never_cuts_an_escaped_character_in_two() -> None:
    stream = slack_render.stream_filter(limit=4)
    assert stream.feed("ab & c") == "ab " and stream.full
    kept = slack_render.stream_filter(limit=8)
    assert kept.feed("ab & c") == "ab &amp;" and kept.full
    # without an escape an ampersand is the writer's: kept when it ends an entity or is
    # followed by more than an entity's name could be
    assert SafeStream(limit=4).feed("a&b;cdef") == "a&b;"
    assert SafeStream(limit=4).feed("x &lt; y") == "x "
    assert SafeStream(limit=8).feed("a & long words") == "a & long"
    assert SafeStream(limit=7).feed("a & long words") == "a "


def test_a_link_with_nothing_to_show_does_not_stop_the_text_after_it() -> None:
    assert streamed("[](https://evil.example) after").text == " after"


def test_a_preview_cut_before_an_open_fence_leaves_room_for_its_closer() -> None:
    text = "alpha beta gamma delta epsilon\n```\nls\n"
    stream = streamed(text)
    limit = len(text) + len("\n```") - 1
    preview = stream.tail(limit)
    assert preview == "…" + text[-(limit - 1 - 4) :] + "\n```"
    assert len(preview) == limit


def test_a_preview_does_not_open_on_a_code_span_it_could_half_show() -> None:
    at = SPAN.index("`")
    assert streamed(SPAN).tail(len(SPAN) - at + 1) == "… end"


def test_a_preview_of_a_text_ending_in_code_shows_the_code_as_a_block() -> None:
    text = "intro words `a.long.code.span.value`"
    preview = finished(text).tail(20)
    assert preview == "…\n```\n" + text[-(20 - 1 - 5 - 4) :] + "\n```"


def test_a_preview_that_starts_on_backticks_starts_them_on_a_line() -> None:
    text = "words here ``unpaired tail"  # an unpaired run: nothing after it is code
    at = text.index("``")
    preview = finished(text).tail(len(text) - at + 1)
    assert preview == "…\n" + text[at + 1 :]
    assert len(preview) == len(text) - at + 1


def test_the_limit_drops_an_entity_cut_at_the_very_start() -> None:
    assert SafeStream(limit=2).feed("&lt; x") == ""


def test_a_preview_never_starts_between_a_backslash_and_what_it_escapes() -> None:
    from citations.render.safe import code_blocks

    # "\\" is one backslash, escaped: the backtick after it opens a code span
    text = "see \\\\`https://evil.example/login` " + "c " * 10 + "c"
    stream = finished(text)
    pair = stream.text.index("\\\\")
    room = len(stream.text) - pair - 1  # the window opens between the pair
    preview = stream.tail(room + 1)
    assert "`https://evil.example/login`" in preview
    assert [preview[b.start : b.end] for b in code_blocks(preview)] == [
        "`https://evil.example/login`"
    ]
    # an escaped backtick left without its backslash would open a span that was never there
    text = "a \\`b https://evil.example/x ` " + "d " * 12 + "d"
    stream = finished(text)
    for limit in range(20, len(stream.text)):
        preview = stream.tail(limit)
        assert code_blocks(preview) == [] or all(
            "evil" not in preview[b.start : b.end] for b in code_blocks(preview)
        ), limit


def test_an_image_is_shown_as_the_final_answer_shows_it_not_as_its_label() -> None:
    from citations import Source, resolve
    from citations.render import render_discord

    answer = resolve(
        "See ![img](http://img.evil/a.png) [1]", [Source(1, "https://d.example/a", "A", "a")]
    )
    shown = finished("See ![img](http://img.evil/a.png) ").text
    assert render_discord(answer)[0].content.startswith(shown)
    assert shown.startswith("See ![img]") and "http://" not in shown


@pytest.mark.parametrize(
    ("text", "at", "is_escaped"),
    [
        ("\\`", 1, True),
        ("\\\\`", 2, False),
        ("\\\\\\`", 3, True),
        ("a\\`", 2, True),
        ("`", 0, False),
        ("\\`\\", 1, True),  # the run stops at the start, not at the end's backslash
    ],
)
def test_a_character_is_escaped_by_an_odd_run_of_backslashes(
    text: str, at: int, is_escaped: bool
) -> None:
    from citations.render.safe import escaped

    assert escaped(text, at) is is_escaped
