"""What an asker pastes into a question: their config, a log, a command's output.

"how big do the WAL segment files get? our config: ```retention.time: 30d```" asks how big
the files get. The block is the asker's own material: its keys, values and numbers are their
setup, which documentation never writes as they did, so read as the question they would be
names and numbers every passage lacks. The question is the asker's words around the blocks
(fenced with three backticks or tildes, anywhere in a chat message) and quoted lines (``> …``,
someone else's message or an error). Only when those words ask nothing on their own ("why?",
"what does this mean?") is the pasted text itself what is asked about, and the whole message
stays the question.
"""

from __future__ import annotations

import re

from pipeline.words import terms

__all__ = ["prose"]

#: chat fences a block anywhere in a line, and a block left open runs to the end
_BLOCK = re.compile(r"(?P<fence>`{3,}|~{3,}).*?(?:(?P=fence)|\Z)", re.S)
_QUOTED_LINE = re.compile(r"^[ \t]*>.*$", re.M)
_SPACES = re.compile(r"\s+")
#: where a sentence ends: not the dot in "prometheus.yml"
_SENTENCE_END = re.compile(r"[.?!](?=\s)|\n")
#: the most words a clause that announces a block has
_ANNOUNCEMENT = 6
#: the content terms the asker's own words need to ask something by themselves
_ASKS = 2


def prose(text: str) -> str:
    """``text`` without the blocks and quoted lines it pastes, and the words that announce
    them ("here's our config:"), unless its own words then have fewer than two content terms:
    then ``text`` itself."""
    kept: list[str] = []
    at = 0
    for block in _BLOCK.finditer(text):
        kept.append(_unannounced(text[at : block.start()]))
        at = block.end()
    kept.append(text[at:])
    words = _SPACES.sub(" ", _QUOTED_LINE.sub(" ", " ".join(kept))).strip()
    return words if len(terms(words)) >= _ASKS else text


def _unannounced(before: str) -> str:
    """``before`` (the text up to a block) without the short clause that ends in a colon and
    so announces the block ("here's our config:", "my docker-compose.yml:"). A longer one is
    the question the block goes with ("how do I fix this error in my setup:")."""
    stripped = before.rstrip()
    if not stripped.endswith(":"):
        return before
    start = max((m.end() for m in _SENTENCE_END.finditer(stripped)), default=0)
    return stripped[:start] if len(stripped[start:].split()) <= _ANNOUNCEMENT else before
