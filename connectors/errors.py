"""Errors an operator can act on. The CLI prints ``str(error)`` as one line."""

from pipeline.errors import one_line

__all__ = ["ConnectorError", "ServiceError", "SourceNotFound", "StoreError", "one_line"]


class ConnectorError(Exception):
    """Base for every user-facing connector failure."""


class SourceNotFound(ConnectorError):
    pass


class StoreError(ConnectorError):
    """The store cannot be opened, written or read (locked, unwritable, incompatible)."""


class ServiceError(ConnectorError):
    """An outside service (LLM, web search) failed or timed out."""
