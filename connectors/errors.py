"""Errors an operator can act on. The CLI prints ``str(error)`` as one line."""


class ConnectorError(Exception):
    """Base for every user-facing connector failure."""


class SourceNotFound(ConnectorError):
    pass


class StoreError(ConnectorError):
    """The store cannot be opened, written or read (locked, unwritable, incompatible)."""


class ServiceError(ConnectorError):
    """An outside service (LLM, web search) failed or timed out."""


def one_line(exc: BaseException, limit: int = 200) -> str:
    """The first line of ``exc``'s message, whitespace folded and cut to ``limit``;
    its type's name when it has no message. Library errors often add advice below."""
    text = next((" ".join(line.split()) for line in str(exc).splitlines() if line.strip()), "")
    if not text:
        return type(exc).__name__
    return text if len(text) <= limit else text[: limit - 1] + "…"
