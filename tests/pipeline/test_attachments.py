"""Attachments through the real offline pipeline: read, graded, cited as the file."""

from __future__ import annotations

from connectors.knowledge.store import KnowledgeStore
from pipeline.attachments import ATTACHED, MAX_PASSAGES, PASSAGE_CHARS, attachment_hits, spans
from pipeline.events import Route
from pipeline.ports import Embedder
from pipeline.question import Attachment, Question
from tests.pipeline.test_end_to_end import pipeline

LOG_URL = "https://acme.slack.com/files/U222/F0001/backup.log"
NOISE = "\n".join(
    f"2026-11-21 01:{m:02d}:00 INFO scheduler heartbeat ok, 0 jobs waiting" for m in range(40)
)
LOG = (
    NOISE + "\n\n2026-11-21 02:00:13 ERROR backup create failed: the bucket acme-backups is not"
    " writable (permission denied for role backup-runner)\n\n" + NOISE
)


async def answer(p: object, question: Question) -> object:
    done = None
    async for event in p.stream(question):  # type: ignore[attr-defined]
        done = event
    return done


async def test_a_log_file_answers_and_is_cited_as_the_file(
    store: KnowledgeStore, embedder: Embedder
) -> None:
    p = pipeline(store, embedder, None, None)
    question = Question(
        "Why did the backup fail?", attachments=(Attachment("backup.log", LOG_URL, LOG),)
    )

    done = await answer(p, question)

    assert done.route is Route.KNOWLEDGE_BASE, done.trace
    urls = [r.url for r in done.answer.references]
    assert LOG_URL in urls, urls
    logged = urls.index(LOG_URL) + 1
    assert "not writable" in done.answer.text and f"[{logged}]" in done.answer.text
    assert "heartbeat" not in done.answer.text, "only the passage that speaks to the question"


async def test_an_unread_attachment_is_named_in_a_note_and_nothing_is_cited_from_it(
    store: KnowledgeStore, embedder: Embedder
) -> None:
    p = pipeline(store, embedder, None, None)
    why = "The attachment screen.png was not read: only text files are read."
    question = Question(
        "How do I rotate an API key?",
        attachments=(Attachment("screen.png", "https://x.example/screen.png", skipped=why),),
    )

    done = await answer(p, question)

    assert why in done.answer.warnings
    assert "https://x.example/screen.png" not in [r.url for r in done.answer.references]
    assert done.route is Route.KNOWLEDGE_BASE


def test_passages_keep_to_the_question_and_to_the_file_order() -> None:
    log = Attachment("app.log", LOG_URL, LOG)
    hits = attachment_hits(Question("which bucket is not writable?", attachments=(log,)))
    assert [h.collection for h in hits] == [ATTACHED]
    (hit,) = hits
    assert "acme-backups is not writable" in hit.source.text
    assert hit.source.url == LOG_URL and hit.source.title == "app.log"
    start, end = hit.source.locator.start, hit.source.locator.end
    assert start is not None and LOG[start:end] == hit.source.text

    paragraphs = (f"bucket note {i}: " + "filler words " * 40 for i in range(50))
    many = Attachment("many.txt", LOG_URL, "\n\n".join(paragraphs))
    kept = attachment_hits(Question("bucket?", attachments=(many,)))
    assert len(kept) == MAX_PASSAGES
    offsets = [h.source.locator.start or 0 for h in kept]
    assert offsets == sorted(offsets)

    vague = attachment_hits(Question("what is wrong here?", attachments=(log,)))
    assert vague and vague[0].source.locator.start == 0, "no terms of its own: the opening"


def test_passages_fit_the_window_and_never_cross_a_page() -> None:
    text = "first page words " * 100 + "\f" + "second page\n" * 200
    found = list(spans(text))
    assert all(end - start <= PASSAGE_CHARS for _, start, end in found)
    assert {page for page, _, _ in found} == {1, 2}
    for page, start, end in found:
        assert "\f" not in text[start:end]
        assert ("first" in text[start:end]) == (page == 1)
    covered = "".join(text[s:e] for _, s, e in found)
    assert covered.replace("\f", "").split() == text.replace("\f", " ").split()
    assert list(spans("one page only")) == [(None, 0, 13)]


def test_a_skipped_or_empty_attachment_gives_no_passages() -> None:
    q = Question(
        "bucket?",
        attachments=(
            Attachment("a.png", LOG_URL, skipped="not read"),
            Attachment("b.txt", LOG_URL, "   \n "),
        ),
    )
    assert attachment_hits(q) == []
