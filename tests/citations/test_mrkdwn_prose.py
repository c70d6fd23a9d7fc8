"""Slack's mrkdwn rewrites (``**bold**``, ``# heading``) touch prose only, never code or a
link; the Markdown footnote style disarms the labels of the links it keeps."""

from __future__ import annotations

from citations import CitedAnswer, Source, resolve
from citations.render import render_markdown, render_slack
from citations.render.safe import WORD_JOINER

SOURCES = [
    Source(1, "https://docs.example.com/a", "Doc A", "a"),
    Source(2, "https://docs.example.com/b", "Doc B", "b"),
]


def answer(text: str, sources: list[Source] = SOURCES) -> CitedAnswer:
    return resolve(text, sources)


def section(a: CitedAnswer) -> str:
    [msg] = render_slack(a)
    text: str = msg.blocks[0]["text"]["text"]
    return text


def test_fenced_code_keeps_comments_and_double_stars() -> None:
    code = "```bash\n# install deps\necho $((a**2 + b**2))\n## not a heading **x**\n```"
    [msg] = render_slack(answer(f"Run [1]:\n\n{code}"))
    assert msg.blocks[0]["text"]["text"].endswith("\n" + code)
    assert msg.markdown_text.split("\n\n**Sources**")[0].endswith("\n" + code)


def test_inline_code_keeps_double_stars_and_bold_after_it_still_converts() -> None:
    text = section(answer("Use `a**b**c` then **bold** [1]"))
    assert text.startswith("Use `a**b**c` then *bold* <")


def test_double_stars_in_code_do_not_pair_with_prose() -> None:
    text = section(answer("Use `x**` then **bold** and **more** [1]"))
    assert text.startswith("Use `x**` then *bold* and *more* <")


def test_marker_and_sources_link_the_same_url() -> None:
    url = "https://docs.example.com/a**b**c"
    [msg] = render_slack(answer("Yes [1].", [Source(1, url, "Doc", "x")]))
    body = msg.blocks[0]["text"]["text"]
    entries = [e["text"] for e in msg.blocks[1]["elements"]]
    assert body == f"Yes <{url}|[1]>."
    assert entries[1] == f"[1] <{url}|Doc>"


def test_link_url_and_label_are_shown_as_written() -> None:
    a = answer(
        "See [a **b** c](https://docs.example.com/a**x**) [1]",
        [Source(1, "https://docs.example.com/a**x**", "Doc", "x")],
    )
    assert section(a).startswith("See <https://docs.example.com/a**x**|a **b** c> ")


def test_bold_and_heading_around_links_and_markers_still_convert() -> None:
    text = section(answer("## Setup [1]\n**[Doc B](https://docs.example.com/b)** first [2]"))
    assert text.startswith(
        "*Setup <https://docs.example.com/a|[1]>*\n*<https://docs.example.com/b|Doc B>* first "
    )


def test_markdown_link_label_is_disarmed() -> None:
    out = render_markdown(
        answer("See [@everyone https://evil.com <@U1>](https://docs.example.com/a) [1].")
    )
    first = out.split("\n")[0]
    assert first == (
        f"See [@{WORD_JOINER}everyone https:{WORD_JOINER}//evil.com <{WORD_JOINER}@{WORD_JOINER}U1>]"
        "(<https://docs.example.com/a>) [^1]."
    )
