"""Sentences, knowledge strips, the extractive answerer and the trace's text form."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from citations.model import Locator, Source
from citations.sentences import sentences
from citations.stream import resolve
from pipeline.events import Decision
from pipeline.extractive import extract
from pipeline.graders import EmbeddingGrader
from pipeline.ports import Embedder
from pipeline.text import (
    carries_on,
    first_step,
    last_step,
    later_step,
    next_step,
    opens_steps,
    strips,
)
from pipeline.trace import format_trace

TEXT = (
    "Rotating API keys\n\nTo rotate a key, open Settings, e.g. the API keys page, and click Rotate. "
    "The old key keeps working for 24 hours! After that it is revoked.\n"
    "- Rotation is logged\n日本語の文です。次の文です。"
)


def test_sentences_keep_offsets_and_skip_abbreviations() -> None:
    spans = sentences(TEXT)
    assert [s.text for s in spans] == [
        "Rotating API keys",
        "To rotate a key, open Settings, e.g. the API keys page, and click Rotate.",
        "The old key keeps working for 24 hours!",
        "After that it is revoked.",
        "- Rotation is logged\n日本語の文です。",
        "次の文です。",
    ]
    assert all(TEXT[s.start : s.end] == s.text for s in spans)


@given(st.text(alphabet=st.sampled_from("ab .!?\n。"), max_size=200))
def test_sentences_never_lose_or_invent_text(text: str) -> None:
    spans = sentences(text)
    assert all(text[s.start : s.end] == s.text and s.text for s in spans)
    assert "".join(s.text for s in spans).replace(" ", "").replace("\n", "") == text.replace(
        " ", ""
    ).replace("\n", "")


def test_strips_are_whole_sentences_within_budget() -> None:
    page = " ".join(f"Sentence number {i} says something useful about keys." for i in range(20))
    cut = strips(page, max_chars=120)
    assert len(cut) > 5
    assert all(page[s.start : s.end] == s.text for s in cut)
    assert all(len(s.text) <= 120 for s in cut)
    assert all(s.text.endswith(".") for s in cut)


async def test_extractive_cites_every_sentence_and_skips_the_irrelevant(embedder: Embedder) -> None:
    keys = Source(1, "https://d/keys#rotate", "Keys", TEXT, Locator(start=0, end=len(TEXT)))
    soup = Source(
        2, "https://d/food", "Food", "The cafeteria serves tomato soup every Tuesday at noon."
    )
    text, picks = await extract(
        "How do I rotate an API key?", [keys, soup], EmbeddingGrader(embedder), limit=3
    )
    assert picks and all(p.source_id == 1 for p in picks)
    answer = resolve(text, [keys, soup])
    assert all(seg.citations == (1,) for seg in answer.segments if seg.text.strip())
    assert [r.url for r in answer.references] == ["https://d/keys#rotate"]
    assert "soup" not in text


async def test_extractive_with_nothing_relevant_is_empty(embedder: Embedder) -> None:
    soup = Source(
        1, "https://d/food", "Food", "The cafeteria serves tomato soup every Tuesday at noon."
    )
    assert await extract("How do I rotate an API key?", [soup], EmbeddingGrader(embedder)) == (
        "",
        [],
    )


def test_format_trace_lists_each_decision_with_its_data() -> None:
    text = format_trace(
        [
            Decision(
                "retrieve", "6 chunks", 12.34, {"query": "rotate keys", "scores": [0.81, 0.2]}
            ),
            Decision("decide", "correct: best grade 0.93 > upper 0.7", 0.0, {"best": 0.93}),
        ]
    )
    lines = text.splitlines()
    assert lines[0].split()[:4] == ["12.3", "ms", "retrieve", "6"]
    assert 'query="rotate keys"' in lines[0] and "scores=[0.81, 0.20]" in lines[0]
    assert "best=0.930" in lines[1]
    assert lines[-1].split() == ["12.3", "ms", "total"]
    assert format_trace([]) == "(no trace)"


def test_a_run_of_steps_is_told_by_its_opening_and_its_markers() -> None:
    assert opens_steps("Upgrading takes two steps.")
    assert opens_steps("There are 3 supported ways to log in.")
    assert opens_steps("First, export the old keys.")
    assert not opens_steps("The first run downloads the index.")
    assert not opens_steps("Two workers share one queue.")
    assert next_step("Then restart the service.") and next_step("  Next, open the console.")
    assert next_step("After that, the cache is cold.") and next_step("Finally run the check.")
    assert not next_step("The next release drops Python 3.9.")
    assert last_step("Lastly, remove the backup.") and last_step("Finally run the check.")
    assert not last_step("Then restart the service.")
    assert first_step("First of all, check the relay.") and first_step("Start by exporting.")
    assert not first_step("Upgrading takes two steps.")
    assert later_step("Second, check the CPU.") and later_step("Thirdly, test the network.")
    assert later_step("Finally run the check.")
    # "then" and "next" follow whatever came before, often no numbered first step
    assert not later_step("Then restart the service.") and not later_step("Next, open it.")
    assert not later_step("Secondary indexes are rebuilt.")


def test_a_sentence_that_carries_on_is_told_by_its_opening() -> None:
    # what to do about what the sentence before says
    assert carries_on("To avoid this, try to reduce your request header size.")
    assert carries_on("To force such values as strings, quote them.")
    assert carries_on("Add yourself to that group, log out and log in again.")
    assert carries_on("Please make sure that the imports have the correct casing.")
    assert carries_on("If it does not, use `git fetch --tags` to fetch them.")
    assert carries_on("  Alternatively, clone the repository and build it yourself.")
    assert carries_on("We recommend pull consumers for new projects.")
    assert carries_on("You can find these plugins in the theme's gemspec file.")
    # what it comes to, and what it leans on
    assert carries_on("Upgrading to greenlet 3.0 solves it.")
    assert carries_on("The most common cause of this failure is a misconfigured component.")
    assert carries_on("The easiest way to achieve this is to run `npx vite preview`.")
    assert carries_on("So, if you need that, consider RAID.")
    assert carries_on("This requires an installation of Rust.")
    # a sentence that states something of its own
    assert not carries_on("Message headers are used in a variety of contexts.")
    assert not carries_on("Usernames must be unique within an account.")
    assert not carries_on("Setting a port is optional.")
    assert not carries_on("Checks run every night at midnight.")
    assert not carries_on("To install it, run the installer.")
    assert not carries_on("If the server restarts, clients reconnect.")
    assert not carries_on("The cache is stored in the home directory.")
    assert not carries_on("Upgrading to 3.0 changes the default port.")
