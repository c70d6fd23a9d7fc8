"""Full-text terms for code identifiers, the same for a chunk and for a question.

A word tokenizer cuts ``exc_info`` and ``_from_structlog`` at the underscores into
common words ("exc", "info"; "from", a stop word, and "structlog"), so a question
that names the identifier matches every chunk that says "info", and the name's own
specificity is lost. It keeps ``TimeStamper`` whole, so a question that says "time
stamper" or "stamper" never reaches it. Stores index each chunk's text with these
extra terms and search with the question's own: a snake_case name also as one word
(``excinfo``), a CamelCase name also as its words (``time``, ``stamper``).
"""

from __future__ import annotations

import re

__all__ = ["FIELD", "identifier_terms", "with_identifier_terms"]

#: where a store that searches several fields keeps a chunk's terms (Weaviate's property)
FIELD = "identifiers"

# a name of two or more parts joined by underscores (leading ones dropped: ``_record``
# is one word to the tokenizer anyway)
_SNAKE = re.compile(r"[A-Za-z0-9]+(?:_+[A-Za-z0-9]+)+")
# a word with a case change inside it: ``TimeStamper``, ``JSONRenderer``, ``getLogger``
_CAMEL = re.compile(r"\b[A-Za-z][a-z0-9]*[A-Z][A-Za-z0-9]*\b")
# the words of a CamelCase name: ``JSONRenderer`` is JSON + Renderer
_CAMEL_PART = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def identifier_terms(text: str) -> list[str]:
    """The extra terms for the identifiers in ``text``, each once, in order of appearance:
    a snake_case name joined into one word, a CamelCase name's words (lower case)."""
    found: dict[str, None] = {}
    for match in _SNAKE.finditer(text):
        found["".join(match.group(0).split("_")).lower()] = None
    for match in _CAMEL.finditer(text):
        parts = _CAMEL_PART.findall(match.group(0))
        if len(parts) > 1:
            found.update(dict.fromkeys(p.lower() for p in parts))
    return list(found)


def with_identifier_terms(text: str) -> str:
    """``text`` followed by its identifier terms: what a store indexes, or searches for."""
    extra = identifier_terms(text)
    return f"{text}\n{' '.join(extra)}" if extra else text
