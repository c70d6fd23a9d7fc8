"""The citation markers a model writes, as one pattern over a whole text.

:mod:`citations.stream` reads them as they stream in; this is for text that is
already whole: an answer checked for a refusal, or a document's words about to
be quoted in an answer, where its own "[2]" would read as the answer's footnote.
"""

from __future__ import annotations

import re

__all__ = ["MARKERS", "without_markers"]

# an id or a range of them, as :mod:`citations.stream` reads one (spaces inside, "1–3")
_IDS = r"\d{1,9}(?: *[-\u2013] *\d{1,9})?"
MARKERS = re.compile(
    rf"\[\^? *{_IDS}(?: *[,;] *{_IDS})* *\](?:\( ?id ?[=:] ?\d{{1,9}} ?\))?|【[^】]*】"
)
_WITH_SPACE = re.compile(rf"[ \t]*(?:{MARKERS.pattern})")


def without_markers(text: str) -> str:
    """``text`` with every citation marker taken out, and the space before it: every
    bracket the citation stream would read as a footnote, so that a document's own "[2-3]"
    never becomes the answer's. Taking one out can join two brackets into a new one
    ("[[1]2]"), so it is repeated until none is left."""
    while True:
        text, taken = _WITH_SPACE.subn("", text)
        if not taken:
            return text
