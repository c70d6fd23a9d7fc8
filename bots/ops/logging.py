"""Structured logs: one JSON object a line, a request id on every record, no secrets.

The request id lives in a :class:`~contextvars.ContextVar`, so it follows a
question through every ``await`` and into every task the pipeline starts,
without being passed around. :class:`RedactingFilter` sits on the handler, so a
secret is masked whichever logger, library or traceback tried to print it.
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
import sys
import time
from collections.abc import Iterable, Iterator
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, SecretStr

from bots.settings.schema import MASK
from pipeline.errors import one_line

if TYPE_CHECKING:
    from bots.settings import Settings

__all__ = [
    "JsonFormatter",
    "RedactingFilter",
    "bind_request_id",
    "configure_logging",
    "guard_console",
    "request_id",
    "secrets_of",
]


request_id: ContextVar[str | None] = ContextVar("citebot_request_id", default=None)

# Tokens that look like credentials even when they came from somewhere other
# than settings (a header echoed by an SDK, a URL with a password).
_PATTERNS = (
    re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{6,}"),  # Slack bot/user tokens
    re.compile(r"\bxapp-[A-Za-z0-9-]{6,}"),  # Slack app-level tokens
    re.compile(r"\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{12,}"),  # OpenAI, Anthropic
    re.compile(r"\btvly-[A-Za-z0-9_-]{8,}"),  # Tavily
    re.compile(r"(?i)(?<=bearer )[A-Za-z0-9._~+/=-]{8,}"),
    re.compile(r"(?<=://)[^/\s:@]*:[^/\s@]+(?=@)"),  # user:password@ in URLs
)

# Attributes every LogRecord has; anything else came in through ``extra=``.
_RESERVED = frozenset(vars(logging.makeLogRecord({}))) | {"message", "asctime", "request_id"}


@contextlib.contextmanager
def bind_request_id(value: str | None) -> Iterator[None]:
    """Tag every log record written inside the block (and tasks started in it)."""
    token = request_id.set(value)
    try:
        yield
    finally:
        with contextlib.suppress(ValueError):  # reset from another context: nothing to undo
            request_id.reset(token)


def secrets_of(model: BaseModel) -> list[str]:
    """Every ``SecretStr`` value in a settings tree, longest first."""
    found: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, SecretStr):
            secret = value.get_secret_value()
            if len(secret) >= 4:  # masking "a" everywhere would destroy every log line
                found.append(secret)
        elif isinstance(value, BaseModel):
            for name in type(value).model_fields:
                walk(getattr(value, name))
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list | tuple):
            for item in value:
                walk(item)

    walk(model)
    return sorted(set(found), key=len, reverse=True)


class RedactingFilter(logging.Filter):
    """Masks known secrets and credential-shaped strings in message, args and traceback."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        super().__init__()
        self.secrets = sorted({s for s in secrets if s}, key=len, reverse=True)

    def redact(self, text: str) -> str:
        for secret in self.secrets:
            if secret in text:
                text = text.replace(secret, MASK)
        for pattern in _PATTERNS:
            text = pattern.sub(MASK, text)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id.get()
        # Merging args first means a secret passed as a %s argument is caught too.
        try:
            message = record.getMessage()
        except Exception:  # a bad format string must not lose the record
            message = f"{record.msg!r} {record.args!r}"
        if (record.exc_info or record.exc_text) and not logging.getLogger(record.name).isEnabledFor(
            logging.DEBUG
        ):
            # an operator reads one line, whatever failed; the traceback is for debugging
            exc = record.exc_info[1] if record.exc_info else None
            if exc is not None:
                message = f"{message} ({one_line(exc, named=True)})"
            record.exc_info, record.exc_text = None, None
        record.msg = self.redact(message)
        record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
            record.exc_info = None  # the formatter would print the unredacted original
        if record.stack_info:
            record.stack_info = self.redact(record.stack_info)
        for key, value in list(vars(record).items()):
            if key in _RESERVED or isinstance(value, int | float | bool | None):
                continue
            # containers become their (redacted) repr: a dict of headers may hold a token
            setattr(record, key, self.redact(value if isinstance(value, str) else repr(value)))
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object a line: ``ts``, ``level``, ``logger``, ``msg``, ``request_id``, extras."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "msg": record.getMessage(),
        }
        rid = getattr(record, "request_id", None) or request_id.get()
        if rid:
            entry["request_id"] = rid
        for key, value in vars(record).items():
            if key not in _RESERVED and not key.startswith("_"):
                entry[key] = (
                    value if isinstance(value, str | int | float | bool | None) else repr(value)
                )
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            entry["exc"] = record.exc_text
        if record.stack_info:
            entry["stack"] = record.stack_info
        return json.dumps(entry, ensure_ascii=False, default=str)


class _TextFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        rid = getattr(record, "request_id", None)
        return f"{line} [{rid}]" if rid else line


def configure_logging(settings: Settings, *, stream: Any = None) -> logging.Handler:
    """Install one handler on the root logger per ``settings.ops``; returns it.

    Calling it again replaces the handler it installed before, so tests and
    ``citebot`` subcommands can reconfigure without duplicating lines.
    """
    ops = settings.ops
    handler = logging.StreamHandler(stream if stream is not None else sys.stderr)
    handler.set_name("citebot")
    handler.addFilter(RedactingFilter(secrets_of(settings)))
    if ops.log_format == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(_TextFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    for old in list(root.handlers):
        # ours from an earlier call, or logging.basicConfig's plain one from the CLI group
        if old.get_name() == "citebot" or type(old) is logging.StreamHandler:
            root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(ops.log_level)
    return handler


def guard_console(settings: Settings) -> None:
    """The CLI's console handler (``logging.basicConfig``'s) masks secrets, and writes JSON
    when ``ops.log_format`` asks, as ``citebot run``'s handler does: ``-vv`` prints the
    SDKs' request URLs, which may carry a password, and a batch ``ingest`` is logged by the
    same collector as the bot."""
    for handler in logging.getLogger().handlers:
        if type(handler) is not logging.StreamHandler:
            continue
        for old in [f for f in handler.filters if isinstance(f, RedactingFilter)]:
            handler.removeFilter(old)
        handler.addFilter(RedactingFilter(secrets_of(settings)))
        if settings.ops.log_format == "json":
            handler.setFormatter(JsonFormatter())
