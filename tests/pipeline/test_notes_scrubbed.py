"""Issue 13 item 6: a note a user reads names the reason, never a path, an address or a host."""

from __future__ import annotations

import pytest

from pipeline.errors import failure_reason, one_line, scrub
from pipeline.question import Question
from pipeline.run_state import RunState


@pytest.mark.parametrize(
    ("detail", "leak"),
    [
        ("[Errno 13] Permission denied: '/var/lib/citebot/lancedb/docs.lance'", "/var/lib"),
        ("Cannot connect to host weaviate.internal:8080 ssl:default", "weaviate.internal"),
        ("HTTPConnectionPool(host='10.0.3.7', port=6333): Max retries", "10.0.3.7"),
        ("POST http://llm.corp.example.com/v1/chat failed", "llm.corp"),
        ("Error 111 connecting to localhost:6379. Connection refused.", "localhost"),
        ("[Errno 2] No such file or directory: './data/store'", "./data"),
        ("lance error: Not found: tmp/pytest-of-root/kb/lancedb/chunks.lance/data/0010", "tmp/"),
        ("open C:\\\\citebot\\\\data failed", "C:\\\\citebot"),
    ],
)
def test_a_note_carries_the_reason_not_the_place(detail: str, leak: str) -> None:
    run = RunState(Question(text="q"))
    run.note(f"The knowledge base could not be searched ({one_line(OSError(detail))}).")
    [note] = run.notes
    assert leak not in note
    assert note.startswith("The knowledge base could not be searched (")


def test_ordinary_notes_are_unchanged() -> None:
    text = "Web search failed (Tavily is rate limiting (HTTP 429)), so this answer uses the knowledge base only."
    assert scrub(text) == text
    assert scrub("The model's verdict did not parse; e.g. and/or stay.") == (
        "The model's verdict did not parse; e.g. and/or stay."
    )


def test_a_failure_reason_is_the_timeout_or_the_named_error() -> None:
    assert failure_reason(TimeoutError(), 2.5) == "no reply within 2.5 s"
    assert failure_reason(TimeoutError(), 10.0) == "no reply within 10 s"
    assert failure_reason(ConnectionError("refused\nretry later"), 2.5) == (
        "ConnectionError: refused"
    )
