"""Slack rendering details: link escaping, titles, header, fallback text and the Sources block."""

from __future__ import annotations

from citations import CitedAnswer, Reference, Segment, Source, resolve
from citations.render import render_slack

# Slack, https://docs.slack.dev/reference/block-kit/blocks/context-block: ≤ 10 elements.
SLACK_CONTEXT_ELEMENTS = 10
# Slack, https://docs.slack.dev/reference/block-kit/composition-objects/text-object: ≤ 3000
# characters of text (a section's text, a context element's text).
SLACK_TEXT_OBJECT = 3000
# Slack, https://docs.slack.dev/reference/block-kit/blocks: ≤ 50 blocks per message.
SLACK_BLOCKS = 50


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


def test_a_section_may_use_all_3000_characters() -> None:
    text = "a " * 1499 + "ab"
    assert len(text) == SLACK_TEXT_OBJECT
    [msg] = render_slack(CitedAnswer.empty(text))
    assert [b["text"]["text"] for b in msg.blocks] == [text]
    # one character more and the last word moves to the next section
    [msg] = render_slack(CitedAnswer.empty(text + "c"))
    assert [b["text"]["text"] for b in msg.blocks] == [text[:-2], "abc"]


def test_a_sources_entry_may_use_all_3000_characters_before_losing_its_link() -> None:
    base = len(sources_block("https://a.com/", "Ti")[1])
    fits = sources_block("https://a.com/" + "x" * (SLACK_TEXT_OBJECT - base), "Ti")[1]
    assert len(fits) == SLACK_TEXT_OBJECT and fits.endswith("|Ti>")
    assert (
        sources_block("https://a.com/" + "x" * (SLACK_TEXT_OBJECT + 1 - base), "Ti")[1] == "[1] Ti"
    )


def test_a_message_holds_at_most_50_blocks_even_of_tiny_entries() -> None:
    # hand-built references with one-letter URLs: the block count binds before the text budget
    refs = tuple(Reference(i, "u", "T", ()) for i in range(1, 801))
    messages = render_slack(CitedAnswer((Segment("a", (1,)),), refs))
    assert [len(m.blocks) for m in messages] == [SLACK_BLOCKS, 32]
    contexts = [b for m in messages for b in m.blocks if b["type"] == "context"]
    entries = [e["text"] for b in contexts for e in b["elements"]]
    assert entries[0] == "*Sources*" and entries[1:] == [f"[{i}] <u|T>" for i in range(1, 801)]


def test_a_url_that_reaches_the_renderer_raw_still_cannot_end_its_link() -> None:
    # a CitedAnswer built by hand skips resolve()'s canonical URLs
    raw = "https://a.com/x y<z>w|v(u)"
    answer = CitedAnswer((Segment("See", (1,)),), (Reference(1, raw, "T", ()),))
    [msg] = render_slack(answer)
    mrkdwn_url = "https://a.com/x%20y%3Cz%3Ew%7Cv(u)"
    assert msg.blocks[0]["text"]["text"] == f"See<{mrkdwn_url}|[1]>"
    assert msg.blocks[1]["elements"][1]["text"] == f"[1] <{mrkdwn_url}|T>"
    md_url = "https://a.com/x%20y%3Cz%3Ew|v%28u%29"
    assert msg.markdown_text == f"See[\\[1\\]]({md_url})\n\n**Sources**\n1. [T]({md_url})"


def test_the_fallback_text_is_the_answer_shortened_or_says_what_the_message_is() -> None:
    [msg] = render_slack(CitedAnswer.empty("x" * 400))
    assert msg.text == "x" * 299 + "…"
    [msg] = render_slack(CitedAnswer.empty(""), header="hi")
    assert msg.text == "Sources"  # no answer text in the message


def test_the_header_is_shortened_past_1000_characters() -> None:
    def header(text: str) -> str:
        [msg] = render_slack(CitedAnswer.empty("hi"), header=text)
        element: str = msg.blocks[0]["elements"][0]["text"]
        return element

    assert header("h" * 1000) == "h" * 1000
    assert header("h" * 1001) == "h" * 999 + "…"


def block_text(blocks: list[dict[str, object]]) -> int:
    size = 0
    for block in blocks:
        if block["type"] == "section":
            size += len(block["text"]["text"])  # type: ignore[index]
        else:
            size += sum(len(e["text"]) for e in block["elements"])  # type: ignore[attr-defined]
    return size


def test_sources_fill_a_message_before_the_next_one_starts() -> None:
    sources = [
        Source(i, f"https://docs.example.com/{i}", f"Title {i} " + "t" * 190, "x")
        for i in range(1, 41)
    ]
    body = " ".join(["word"] * 1800)
    messages = render_slack(resolve(body + " " + " ".join(f"[{i}]" for i in range(1, 41)), sources))
    assert len(messages) == 2
    first, second = (m.blocks for m in messages)
    # the first message is filled to about 11,000 characters of block text (Slack refuses
    # past about 12,000: slackapi/bolt-js#2509), with what of the Sources still fits
    assert 10_500 < block_text(first) <= 12_000
    assert [len(b["elements"]) for b in first if b["type"] == "context"] == [3]
    # the next message opens with a whole block of ten entries
    assert [len(b["elements"]) for b in second] == [10, 10, 10, 8]
    entries = [e["text"] for m in messages for b in m.blocks if b["type"] == "context"
               for e in b["elements"]]  # fmt: skip
    assert [e.split(" ", 1)[0] for e in entries] == ["*Sources*", *(f"[{i}]" for i in range(1, 41))]
    assert [m.text[:4] for m in messages] == ["word", "(con"]
    assert messages[1].text == "(continued)"


def test_sources_of_nearly_3000_characters_each_never_overfill_a_message() -> None:
    sources = [Source(i, f"https://a.com/{i}/" + "x" * 2950, f"T{i}", "x") for i in range(1, 13)]
    body = " ".join(["word"] * 1800)
    messages = render_slack(resolve(body + " " + " ".join(f"[{i}]" for i in range(1, 13)), sources))
    for msg in messages:
        # Slack refuses past about 12,000 characters of block text (slackapi/bolt-js#2509)
        assert block_text(msg.blocks) <= 12_000
    entries = [e["text"] for m in messages for b in m.blocks if b["type"] == "context"
               for e in b["elements"]]  # fmt: skip
    assert [e.split(" ", 1)[0] for e in entries] == ["*Sources*", *(f"[{i}]" for i in range(1, 13))]
    assert all(e.endswith(f"|T{i}>") for i, e in enumerate(entries[1:], 1))
