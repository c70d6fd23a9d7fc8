"""Slack rendering details: link escaping, titles, header, fallback text and the Sources block."""

from __future__ import annotations

from citations import CitedAnswer, Source, resolve
from citations.render import render_slack

# Slack, https://docs.slack.dev/reference/block-kit/blocks/context-block: ≤ 10 elements.
SLACK_CONTEXT_ELEMENTS = 10


def sources_block(url: str, title: str) -> list[str]:
    [msg] = render_slack(resolve("a[1]", [Source(1, url, title, "t")]))
    return [e["text"] for e in msg.blocks[-1]["elements"]]


def test_a_link_cannot_be_ended_or_split_by_its_url_or_title() -> None:
    [msg] = render_slack(
        resolve("a **b** [1]", [Source(1, "https://a.com/x y&<>|(z)", "T|i>t[l]e  x", "t")])
    )
    url = "https://a.com/x%20y&amp;%3C%3E%7C(z)"
    assert msg.blocks[0] == {
        "type": "section",
        "text": {"type": "mrkdwn", "text": f"a *b* <{url}|[1]>", "verbatim": True},
    }
    assert [e["text"] for e in msg.blocks[1]["elements"]] == ["*Sources*", f"[1] <{url}|Tit[l]e x>"]
    md_url = "https://a.com/x%20y&%3C%3E%7C%28z%29"
    assert msg.markdown_text.startswith(f"a **b** [\\[1\\]]({md_url})\n\n**Sources**\n1. [")
    assert msg.markdown_text.endswith(f"\\[l\\]e x]({md_url})")
    assert msg.text == "a *b* [1]"


def test_a_source_without_a_title_shows_its_url_disarmed() -> None:
    assert sources_block("https://a.com/x", "")[1] == "[1] <https://a.com/x|https:\u2060//a.com/x>"


def test_a_long_title_is_shortened_with_an_ellipsis() -> None:
    assert (
        sources_block("https://a.com/x", "T" * 300)[1] == "[1] <https://a.com/x|" + "T" * 199 + "…>"
    )
    assert (
        sources_block("https://a.com/x", "T" * 200)[1] == "[1] <https://a.com/x|" + "T" * 200 + ">"
    )


def test_a_url_too_long_for_a_context_element_leaves_the_title_unlinked() -> None:
    [msg] = render_slack(resolve("a[1]", [Source(1, "https://a.com/" + "x" * 3000, "Ti", "t")]))
    assert msg.blocks[-1]["elements"][1]["text"] == "[1] Ti"
    assert msg.markdown_text.endswith("**Sources**\n1. Ti")


def test_the_header_is_a_context_line_and_the_fallback_is_short() -> None:
    [msg] = render_slack(CitedAnswer.empty("hi"), header="h  <b>\nc")
    assert msg.blocks[0] == {
        "type": "context",
        "elements": [{"type": "mrkdwn", "text": "h &lt;b&gt; c", "verbatim": True}],
    }
    # markdown_text is standard Markdown: backslash escapes, not mrkdwn's HTML entities
    assert msg.markdown_text == "_h \\<\u2060b\\> c_\n\nhi"
    [msg] = render_slack(resolve("x " * 400 + "[1]", [Source(1, "https://a.com/x", "Ti", "t")]))
    assert len(msg.text) == 300 and msg.text.endswith("x x…")


def test_an_empty_answer_is_still_one_message() -> None:
    assert [(m.text, m.blocks, m.markdown_text) for m in render_slack(CitedAnswer.empty(""))] == [
        (" ", [], " ")
    ]


def test_sources_fill_context_blocks_of_ten_with_the_heading_first() -> None:
    sources = [Source(i, f"https://a.com/{i}", f"S{i}", "t") for i in range(1, 26)]
    [msg] = render_slack(resolve(" ".join(f"w[{i}]" for i in range(1, 26)), sources))
    contexts = [[e["text"] for e in b["elements"]] for b in msg.blocks if b["type"] == "context"]
    assert [len(c) for c in contexts] == [SLACK_CONTEXT_ELEMENTS, SLACK_CONTEXT_ELEMENTS, 6]
    assert contexts[0][0] == "*Sources*"
    assert [c[0] for c in contexts[1:]] == [
        "[10] <https://a.com/10|S10>",
        "[20] <https://a.com/20|S20>",
    ]
    assert msg.markdown_text.count("**Sources**") == 1


def test_markdown_titles_read_as_written_and_stay_link_safe() -> None:
    # https://docs.slack.dev/reference/block-kit/blocks/markdown-block: standard Markdown
    # escapes with a backslash; the &amp; &lt; &gt; entities are mrkdwn's (blocks only)
    title = "Q&A <admin> guide_v2 `x` [y](https://evil.example) @here"
    [msg] = render_slack(resolve("a[1]", [Source(1, "https://a.com/x", title, "t")]))
    entry = msg.markdown_text.split("**Sources**\n")[1]
    assert "&amp;" not in entry and "&lt;" not in entry and "&gt;" not in entry
    assert entry.startswith("1. [Q\\&A \\<\u2060admin\\> guide\\_v2 \\`x\\` \\[y\\]")
    assert "https:\u2060//evil.example" in entry and "@\u2060here" in entry
    assert entry.endswith("](https://a.com/x)")
    mrkdwn = msg.blocks[-1]["elements"][1]["text"]
    assert mrkdwn.startswith("[1] <https://a.com/x|Q&amp;A &lt;admin guide_v2")
