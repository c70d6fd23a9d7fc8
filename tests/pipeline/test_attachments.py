"""Attachments through the real offline pipeline: read, graded, cited as the file."""

from __future__ import annotations

from connectors.knowledge.store import KnowledgeStore
from pipeline.attachments import (
    ATTACHED,
    MAX_PASSAGES,
    PASSAGE_CHARS,
    attachment_hits,
    skipped_notes,
    spans,
)
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


def test_spans_split_at_blank_lines_then_at_line_ends() -> None:
    a, b = "a" * 600, "b" * 600
    assert list(spans(f"{a}\n\n{b}")) == [(None, 0, 600), (None, 602, 1202)]
    one = "c" * 500 + "\n" + "d" * 499  # exactly 1000 characters: one passage
    assert list(spans(one)) == [(None, 0, 1000)]
    long = "e" * 700 + "\n" + "f" * 799  # cut after the newline, not at 1000
    assert list(spans(long)) == [(None, 0, 701), (None, 701, 1500)]
    leading = "g\n\n\n" + "h" * 1500  # a piece that starts on a newline is not cut there
    assert list(spans(leading)) == [(None, 0, 1), (None, 3, 1003), (None, 1003, 1504)]
    packed = "\n\n".join(["i" * 499, "j" * 499, "k" * 10])  # 499 + 2 + 499 = 1000: packed
    assert list(spans(packed)) == [(None, 0, 1000), (None, 1002, 1012)]
    many = "\n\n".join(["m" * 100] * 12)  # packs to 1000-character runs, every word kept
    found = list(spans(many))
    assert [(s, e) for _, s, e in found] == [(0, 916), (918, 1222)]
    assert "".join(many[s:e] for _, s, e in found).count("m") == 1200
    assert all(page is None for page, _, _ in found), "one page: no page numbers"


def test_the_passage_window_is_a_thousand_characters_and_six_are_kept() -> None:
    assert PASSAGE_CHARS == 1000 and MAX_PASSAGES == 6, "as docs/pages/attachments.md says"
    paragraphs = (f"bucket note {i}: " + "filler words " * 75 for i in range(10))
    hits = attachment_hits(
        Question("bucket?", attachments=(Attachment("n", LOG_URL, "\n\n".join(paragraphs)),))
    )
    assert len(hits) == 6
    assert all(len(h.source.text) <= 1000 for h in hits)


def test_scores_are_the_share_of_the_questions_terms() -> None:
    text = "\n\n".join(["bucket " + "x " * 400, "bucket writable " + "y " * 400])
    hits = attachment_hits(
        Question("bucket writable?", attachments=(Attachment("t", LOG_URL, text),))
    )
    assert [h.score for h in hits] == [0.5, 1.0]
    vague = attachment_hits(Question("what now?", attachments=(Attachment("t", LOG_URL, text),)))
    assert [h.score for h in vague] == [0.0, 0.0]
    assert [h.collection for h in hits] == ["attachment", "attachment"]


def test_the_best_passages_win_wherever_they_are() -> None:
    weak = ["bucket " + "x " * 480] * 7
    strong = ["bucket writable " + "y " * 480] * 2
    text = "\n\n".join(weak + strong)
    hits = attachment_hits(
        Question("bucket writable?", attachments=(Attachment("t", LOG_URL, text),))
    )
    assert len(hits) == 6 and [h.score for h in hits][-2:] == [1.0, 1.0]
    first = "\n\n".join(strong + weak)
    hits = attachment_hits(
        Question("bucket writable?", attachments=(Attachment("t", LOG_URL, first),))
    )
    assert [h.score for h in hits][:2] == [1.0, 1.0], "early or late, the best are kept"


def test_a_skipped_attachment_is_never_read_and_the_next_one_is() -> None:
    q = Question(
        "bucket?",
        attachments=(
            Attachment(
                "a.png", LOG_URL, text="bucket", skipped="The attachment a.png was not read."
            ),
            Attachment("b.txt", LOG_URL, "the bucket is full"),
        ),
    )
    assert [h.source.title for h in attachment_hits(q)] == ["b.txt"]
    assert skipped_notes(q) == ["The attachment a.png was not read."]
