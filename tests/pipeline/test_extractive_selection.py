"""Which sentence an offline answer leads with: the passage's support, and what is asked."""

from __future__ import annotations

from citations.model import Locator, Source
from pipeline.evidence import Lexicon
from pipeline.extractive import asks, extract
from pipeline.graders import EmbeddingGrader
from pipeline.ports import Embedder

ROTATION = """## Rotating the log file

Set `rotate_after` to a size such as `10MB`: when the log file grows past it, the \
handler starts a new one. Old files are renamed with a numeric suffix."""

OVERVIEW = """## Log files

Log files can grow without limit, and large files are slow to open and search. \
Rotation is the usual remedy for a log that grows too big."""

BACKUPS = """## Nightly backups

Set `schedule = "nightly"` to turn on nightly backups of a database. Nightly backups \
run at two in the morning, server time."""

STATUS = """## Checking the last run

Run `dbtool status --last` to see whether the most recent job completed, and how long \
it took."""


def source(text: str, n: int) -> Source:
    return Source(
        id=n, url=f"https://docs.example/{n}", title=f"Page {n}", text=text, locator=Locator()
    )


async def lead(
    question: str,
    sources: list[Source],
    embedder: Embedder,
    support: list[float] | None = None,
) -> str:
    lexicon = Lexicon.build(s.text for s in sources)
    _, picks = await extract(
        question, sources, EmbeddingGrader(embedder), limit=1, lexicon=lexicon, support=support
    )
    return max(picks, key=lambda p: p.score).text


async def test_a_sentence_echoing_the_question_elsewhere_loses_to_the_better_passage(
    embedder: Embedder,
) -> None:
    question = "what can I do when my log file grows too big?"
    sources = [source(ROTATION, 1), source(OVERVIEW, 2)]
    # the overview repeats the question's words, sentence by sentence
    assert (await lead(question, sources, embedder)).startswith("Rotation is the usual remedy")
    # the passage that answers as a whole (its support, grade plus evidence) leads
    answer = await lead(question, sources, embedder, support=[1.4, 0.6])
    assert answer.startswith("Set `rotate_after` to a size")
    # as good a passage as the best loses nothing
    assert (await lead(question, sources, embedder, support=[1.2, 1.2])).startswith("Rotation is")


def test_the_ask_is_the_last_sentence_with_a_question_mark() -> None:
    said = "I turned on nightly backups. How do I check that the last one finished?"
    assert asks(said) == "How do I check that the last one finished?"
    assert asks("How do I check a backup? I use the nightly schedule.") == (
        "How do I check a backup?"
    )
    # one sentence, or none that asks: the whole question is the ask
    one = "I use fish, how do I make it the shell?"
    assert asks(one) == one
    assert asks("Backups are on. Tell me how to check them.") == (
        "Backups are on. Tell me how to check them."
    )


async def test_what_the_asker_already_did_does_not_choose_the_answer(
    embedder: Embedder,
) -> None:
    sources = [source(BACKUPS, 1), source(STATUS, 2)]
    question = (
        "I turned on nightly backups for my database. How do I check that the last job completed?"
    )
    assert (await lead(question, sources, embedder)).startswith("Run `dbtool status --last`")


async def test_a_question_of_several_sentences_that_nothing_answers_gets_nothing(
    embedder: Embedder,
) -> None:
    sources = [source(BACKUPS, 1), source(STATUS, 2)]
    question = "We moved offices last week. Which bakery near the station sells rye bread?"
    text, picks = await extract(
        question,
        sources,
        EmbeddingGrader(embedder),
        limit=2,
        lexicon=Lexicon.build(s.text for s in sources),
    )
    assert (text, picks) == ("", [])


async def test_without_a_lexicon_sentences_are_chosen_by_similarity(embedder: Embedder) -> None:
    _, picks = await extract(
        "how do I see whether the most recent job completed?",
        [source(BACKUPS, 1), source(STATUS, 2)],
        EmbeddingGrader(embedder),
        limit=1,
    )
    assert picks[0].text.startswith("Run `dbtool status --last`")


HOME = """## The tern home

The tern home is where tern keeps the packages it downloads. \
You can move it by setting the `TERN_HOME` environment variable.

Its layout may change between releases."""

CACHE = """## Download cache

Where does tern keep the packages it downloads? In its download cache folder."""


async def test_a_picked_sentence_brings_the_rest_of_its_paragraph(embedder: Embedder) -> None:
    question = "where does tern keep the packages it downloads, and can I move that folder?"
    sources = [source(CACHE, 1), source(HOME, 2)]
    lexicon = Lexicon.build(s.text for s in sources)
    text, picks = await extract(
        question, sources, EmbeddingGrader(embedder), limit=3, lexicon=lexicon
    )
    # the paragraph goes on with how to move the folder, which counts for nothing alone
    assert "The tern home is where tern keeps the packages it downloads. You can move it" in text
    assert len({p.source_rank for p in picks}) == 2
    # the paragraph after it is not its continuation
    assert "Its layout" not in text
