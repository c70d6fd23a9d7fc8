"""Why a call to the language model failed, said so a user can read it.

Two kinds of failure call for different notes. A model that *rejected one request*
(a 400 from a server that does not accept that request's shape) is still up: it
answered the other stages, and only the stage that sent the request lost its
help. A model that is *unavailable* (refused connection, 5xx, a timeout, a bad
key) is given up on for the rest of the run.
"""

from __future__ import annotations

import logging

from pipeline.errors import one_line

# The request's own shape was refused; the next, differently shaped request may pass.
REJECTED_STATUSES = frozenset({400, 413, 422})

STAGE_NOTES = {
    "condense": "The follow-up was searched as asked, not rewritten with the thread",
    "web-rewrite": "The web was searched with the question as asked",
    "kb-rewrite": "The knowledge base was searched again with the question as asked",
    "grade": "The sources were ranked by similarity instead of by the model",
    "generate": "This answer is put together from the sources directly",
    "check": "The answer could not be checked against its sources",
}
"""What each stage's failure means for the answer, the first half of its note."""


def malformed_reply(*also: type[Exception]) -> tuple[type[Exception], ...]:
    """The errors of a reply the model gave in the wrong shape (the model is up), and ``also``.

    Called in ``except`` clauses, so LlamaIndex is imported only once an LLM call has
    raised: an offline question never imports it (over a CPU second).
    """
    from llama_index.core.output_parsers.base import OutputParserException
    from pydantic import ValidationError

    return (OutputParserException, ValidationError, ValueError, *also)


class LLMFailed(Exception):
    """An LLM call failed. ``down``: do not call the model again in this run."""

    def __init__(self, reason: str, *, down: bool) -> None:
        super().__init__(reason)
        self.reason = reason
        self.down = down


def status_of(exc: BaseException) -> int | None:
    """The HTTP status of an SDK's error (openai, anthropic and httpx all carry one)."""
    status = getattr(exc, "status_code", None)
    if status is None:
        status = getattr(getattr(exc, "response", None), "status_code", None)
    return status if isinstance(status, int) else None


def classify(exc: BaseException, *, seconds: float, answered: bool = False) -> LLMFailed:
    """``exc`` as an ``LLMFailed`` whose reason completes a stage's note.

    ``answered``: the model already answered in this run, so it is not called
    unavailable, whatever fails next.
    """
    if isinstance(exc, TimeoutError):
        return LLMFailed(f"the model did not answer within {seconds:g} s", down=True)
    status = status_of(exc)
    if status in REJECTED_STATUSES:
        return LLMFailed(f"the model rejected the request ({status})", down=False)
    if answered:
        return LLMFailed(f"the model failed ({one_line(exc, named=True)})", down=True)
    return LLMFailed(f"the language model is unavailable ({one_line(exc, named=True)})", down=True)


def stage_note(stage: str, reason: str) -> str:
    """``"The answer could not be checked against its sources: the model rejected …"``."""
    return f"{STAGE_NOTES.get(stage, f'The {stage} step failed')}: {reason}."


def traceback_if_debug(logger: logging.Logger, exc: BaseException) -> BaseException | None:
    """``exc_info`` for a log call: a traceback only when debugging, so none reaches a
    console at any other level (the one-line reason is always in the message)."""
    return exc if logger.isEnabledFor(logging.DEBUG) else None
