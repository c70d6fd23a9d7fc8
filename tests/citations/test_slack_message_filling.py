"""How the Slack renderer fills a message before it opens the next one.

A message is filled to its last block and its text budget: the Sources start in
the message the answer ends in, and the 50th block takes the entries that still
fit, rather than leaving room unused and sending one more message.
"""

from __future__ import annotations

from citations import CitedAnswer, Reference, Segment
from citations.render import SlackMessage, render_slack

# Slack, https://docs.slack.dev/reference/block-kit/blocks: ≤ 50 blocks per message.
SLACK_BLOCKS = 50
# Slack, https://docs.slack.dev/reference/block-kit/blocks/context-block: ≤ 10 elements.
SLACK_CONTEXT_ELEMENTS = 10


def entries(messages: list[SlackMessage]) -> list[list[str]]:
    """Each message's Sources entries, shown by their number (or the heading)."""
    return [
        [
            e["text"].split(" ", 1)[0]
            for b in m.blocks
            if b["type"] == "context"
            for e in b["elements"]
        ]
        for m in messages
    ]


def test_the_sources_start_in_the_answers_message_when_one_entry_still_fits() -> None:
    # 7,000 characters of answer; entries of about 2,970 characters each: one more fits
    # beside the answer, two would pass Slack's ~12,000 (slackapi/bolt-js#2509)
    refs = tuple(Reference(i, f"https://a.com/{i}/" + "x" * 2950, f"T{i}", ()) for i in range(1, 5))
    messages = render_slack(CitedAnswer((Segment(" ".join(["word"] * 1400)),), refs))
    assert entries(messages) == [["*Sources*", "[1]"], ["[2]", "[3]", "[4]"]]
    assert [b["type"] for b in messages[0].blocks] == ["section"] * 3 + ["context"]


def test_the_50th_block_takes_the_entries_that_still_fit() -> None:
    # URLs of 12 characters: the 49 blocks before leave room in the text budget for some,
    # not all, of the next ten entries
    refs = tuple(Reference(i, "u" * 12, "T", ()) for i in range(1, 601))
    messages = render_slack(CitedAnswer((Segment("a", (1,)),), refs))
    first = messages[0].blocks
    assert len(first) == SLACK_BLOCKS
    assert 2 <= len(first[-1]["elements"]) < SLACK_CONTEXT_ELEMENTS
    numbers = [n for m in entries(messages) for n in m]
    assert numbers == ["*Sources*", *(f"[{i}]" for i in range(1, 601))]


def test_the_header_is_shortened_past_1000_characters_in_the_markdown_form_too() -> None:
    def markdown_header(text: str) -> str:
        [msg] = render_slack(CitedAnswer.empty("hi"), header=text)
        return msg.markdown_text.split("\n\n", 1)[0]

    assert markdown_header("h" * 1000) == "_" + "h" * 1000 + "_"
    assert markdown_header("h" * 1001) == "_" + "h" * 999 + "…_"
