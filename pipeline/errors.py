"""Failures said in one line: the lowest layer that reports them owns the helper."""

from __future__ import annotations

import re

#: The one apology a user sees when answering failed; platforms add their warning sign.
SORRY = "Sorry, something went wrong while answering. Please try again later."


def one_line(exc: BaseException, limit: int = 200, *, named: bool = False) -> str:
    """The first line of ``exc``'s message, whitespace folded and cut to ``limit``.

    Library errors often add advice or a dump below their first line, and a log
    line or a user-facing note must stay one line. ``named`` leads with the
    exception's type (``"TimeoutError: read timed out"``); an HTTP error that
    carries a ``status_code`` is then only its type and status, because its body
    may echo a request (a prompt, a key). A message-less error is its type's name.
    """
    name = type(exc).__name__
    if named and getattr(exc, "status_code", None) is not None:
        return f"{name} {exc.status_code}"  # type: ignore[attr-defined]
    text = next((" ".join(line.split()) for line in str(exc).splitlines() if line.strip()), "")
    if named and text:
        text = f"{name}: {text}"
    if not text:
        return name
    return text if len(text) <= limit else text[: limit - 1] + "…"


def failure_reason(exc: BaseException, seconds: float) -> str:
    """Why a call given ``seconds`` failed, in one line: it timed out, or its error
    (:func:`one_line`, named)."""
    if isinstance(exc, TimeoutError):
        return f"no reply within {seconds:g} s"
    return one_line(exc, named=True)


# What a note shown to a user must not carry: addresses, host names and file
# paths from exception text (they tell an outsider about the deployment).
_ADDRESS = re.compile(r"\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s)\]'\"]+")
_PATH = re.compile(
    r"(?<![\w.:/-])(?:~|\.{1,2})?(?:/[^\s/'\"():,]+)+/?|\b[A-Za-z]:\\[^\s'\"():,]+"
    # relative, as Lance prints its files ("tmp/…/chunks.lance/data/…"); "and/or" has one slash
    r"|(?<![\w.:/-])[\w.-]+(?:/[\w.-]+){2,}/?"
)
_HOST = re.compile(
    r"\b(?:(?:\d{1,3}\.){3}\d{1,3}|localhost|(?:[a-zA-Z0-9-]+\.)+(?:com|org|net|io|dev|ai|app"
    r"|cloud|internal|local|lan|svc|cluster|co|de|uk|fr|eu|us))(?::\d{1,5})?\b"
    r"|\b[a-zA-Z0-9-]+(?:\.[a-zA-Z0-9-]+)*:\d{2,5}\b"
)


def scrub(text: str) -> str:
    """``text`` without URLs, host names and file paths, for a note a user reads.

    The detail belongs in the log; the note keeps the reason ("Permission
    denied", "Connection refused") and says only where in general terms.
    """
    text = _ADDRESS.sub("a server", text)
    text = _PATH.sub("a file", text)
    return _HOST.sub("a server", text)
