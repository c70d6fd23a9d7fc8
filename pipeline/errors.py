"""Failures said in one line: the lowest layer that reports them owns the helper."""

from __future__ import annotations

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
