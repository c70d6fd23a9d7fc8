"""What a ``before_question`` hook returns to stop a question."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Refusal:
    """``text`` is shown to the asker; ``reason`` is a short code for logs and metrics.

    ``plugin`` is filled in by the host with the name of the refusing plugin.
    """

    text: str
    reason: str = "refused"
    plugin: str = ""
