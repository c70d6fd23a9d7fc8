"""The citation markers a model writes, as one pattern over a whole text.

:mod:`citations.stream` reads them as they stream in; this is for text that is
already whole: an answer checked for a refusal, or a document's words about to
be quoted in an answer, where its own "[2]" would read as the answer's footnote.
"""

from __future__ import annotations

import re

__all__ = ["MARKERS", "without_markers"]

MARKERS = re.compile(r"\[\^?\d+(?:\s*[,;]\s*\d+)*\](?:\(id=\d+\))?|【[^】]*】")


def without_markers(text: str) -> str:
    """``text`` with every citation marker taken out, and the space before it."""
    return re.sub(rf"[ \t]*(?:{MARKERS.pattern})", "", text)
