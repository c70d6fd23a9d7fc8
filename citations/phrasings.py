"""The words documentation answers with for how people ask in chat.

People ask in chat "how do I turn colours off", "anything older than TLS 1.2", "deps I don't
use anymore"; the page is headed "Disabling colours", "Minimum TLS version", "Removing unused
dependencies". The embedding bridges some of that and the full-text index none: its words are
not the page's. A question is searched with the documentation's word for each such phrasing
added, as it is with its identifiers' terms (``connectors/knowledge/store/identifiers.py``);
the chunks are indexed as written. The evidence that a passage answers and the extractive
answer's sentence scores count these words among the question's terms too
(``pipeline.words.question_terms``): a passage headed "Minimum TLS version" speaks to
"anything older than TLS 1.2", one headed "Maximum TLS version" less so. Only
phrasings whose meaning holds in any documentation are listed, each with the words
documentation uses for it.
"""

from __future__ import annotations

import re

#: a few words between a verb and its particle: "turn *the colours* off"
_OBJECT = r"(?:[\w'-]+\s+){0,3}?"

_PHRASINGS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (rf"(?:turn|switch)(?:s|es|ed|ing)?\s+{_OBJECT}off|shut\s+off", ("disable",)),
    (rf"(?:turn|switch)(?:s|es|ed|ing)?\s+{_OBJECT}on", ("enable",)),
    (
        r"get(?:ting)?\s+rid\s+of|throw(?:ing)?\s+away|clean(?:ing)?\s+up|clear(?:ing)?\s+out",
        ("remove", "delete"),
    ),
    (r"older\s+than|at\s+least|oldest|lowest", ("minimum",)),
    (r"(?:newer|more|bigger|larger)\s+than|at\s+most|exceed(?:s|ed|ing)?", ("maximum", "limit")),
    (r"newest|most\s+recent", ("latest",)),
    (r"(?:do\s+not|don't|no\s+longer)\s+(?:use|need)|not\s+used|unneeded", ("unused",)),
    (r"by\s+itself|on\s+its\s+own|automatically", ("automatic",)),
    (r"by\s+hand|manually", ("manual",)),
    (
        r"every\s+(?:night|day|hour|week)|nightly|periodically|on\s+a\s+schedule",
        ("schedule", "scheduled"),
    ),
    (r"go(?:es)?\s+down|went\s+down|(?:is|are)\s+down", ("unhealthy", "unavailable")),
    (r"yes\s+or\s+no|are\s+you\s+sure", ("confirm", "confirmation")),
    (r"(?:throw-?away|dummy)\s+(?:tls\s+|ssl\s+)?cert(?:ificate)?s?", ("self-signed",)),
    (
        r"out\s+of\s+the\s+box|(?:if|when)\s+(?:I|we|you)\s+(?:don't|do\s+not|never)\s+"
        r"(?:configure|set|change|call|specify|pass)\w*",
        ("default",),
    ),
    (r"how\s+much\s+(?:slower|faster)|slow(?:s|ed|ing)?\s+(?:\w+\s+){0,2}down", ("performance",)),
    (
        r"(?:swap|replac|renew|chang)\w*\s+(?:the\s+|our\s+|my\s+|a\s+)?(?:\w+\s+)?"
        r"(?:tokens?|certs?|certificates?|secrets?|credentials?|(?:api|signing|private|tls)\s+keys?)\b"
        r"|(?:token|cert|certificate|secret|credential|key)s?\s+(?:expires?|expired|expiring)",
        ("rotate", "rotation"),
    ),
    # a phrasal verb is the noun documentation writes as one word: "back up" is a backup ("back"
    # and "up" are stop words, so the question otherwise keeps nothing of it)
    (r"back(?:s|ed|ing)?\s+up", ("backup",)),
    (r"set(?:s|ting)?\s+up", ("setup",)),
    (r"roll(?:s|ed|ing)?\s+back", ("rollback",)),
    (r"shut(?:s|ting)?\s+down", ("shutdown",)),
    (r"start(?:s|ed|ing)?\s+up", ("startup",)),
    (r"(?:below|under|lower\s+than)\s+(?:info|debug|warn(?:ing)?|error)\b", ("filter", "level")),
    # a value that arrives changed ("the hash seems mangled") was not escaped for where it is written
    (r"mangled|garbled|dollar\s+signs?", ("escape", "escaped")),
    (r"how\s+often", ("interval",)),
    (r"how\s+long", ("timeout", "duration")),
    (r"vanish(?:es|ed)?|disappear(?:s|ed)?|(?:get|gets|got|is|are)\s+lost|lose", ("persist",)),
)
_FOUND = tuple((re.compile(rf"\b(?:{p})\b", re.I), words) for p, words in _PHRASINGS)


def phrasing_terms(text: str) -> list[str]:
    """The documentation's words for the phrasings in ``text`` (:data:`_PHRASINGS`), each once."""
    found: dict[str, None] = {}
    for pattern, words in _FOUND:
        if pattern.search(text):
            found.update(dict.fromkeys(words))
    return list(found)


def with_phrasing_terms(text: str) -> str:
    """``text`` followed by its phrasing terms: what a store searches for."""
    extra = phrasing_terms(text)
    return f"{text}\n{' '.join(extra)}" if extra else text
