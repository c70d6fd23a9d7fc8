"""Chat shorthand read as the words documentation writes.

People write "how do I pin deps w/o a lock file" and "where r the certs"; documentation writes
"dependencies", "without" and "certificates". A shorthand no chunk writes is a word the
full-text search cannot find and the evidence check counts as one the documents lack, so a
question in shorthand was refused where the same question spelt out was answered. Each
shorthand here is read as its long form when the documents write that form in more chunks than
the shorthand (documentation all about its "app" means it as it is); of two long forms ("min":
minimum or minute), the one they write more. Words of everyday English ("w/o", "b/c", "u",
"r") are always read out.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from pipeline.markup import code_blanked
from pipeline.words import replaced

__all__ = ["spell_out", "spelled_out"]

#: shorthand that stands for one everyday word, whatever the documents write
_ENGLISH: dict[str, str] = {
    "w/": "with",
    "w/o": "without",
    "b/c": "because",
    "bc": "because",
    "u": "you",
    "ur": "your",
    "r": "are",
    "abt": "about",
    "smth": "something",
    "sth": "something",
    "rn": "right now",
    "atm": "at the moment",
}
#: shorthand of the trade, and the long forms documentation writes for it
_TRADE: dict[str, tuple[str, ...]] = {
    "cert": ("certificate",),
    "certs": ("certificates",),
    "cfg": ("configuration", "config"),
    "conf": ("configuration", "config"),
    "config": ("configuration",),
    "configs": ("configurations",),
    "dep": ("dependency",),
    "deps": ("dependencies",),
    "env": ("environment",),
    "envs": ("environments",),
    "var": ("variable",),
    "vars": ("variables",),
    "db": ("database",),
    "dbs": ("databases",),
    "repo": ("repository",),
    "repos": ("repositories",),
    "dir": ("directory",),
    "dirs": ("directories",),
    "auth": ("authentication", "authorization"),
    "admin": ("administrator",),
    "perm": ("permission",),
    "perms": ("permissions",),
    "creds": ("credentials",),
    "msg": ("message",),
    "msgs": ("messages",),
    "pkg": ("package",),
    "pkgs": ("packages",),
    "lib": ("library",),
    "libs": ("libraries",),
    "docs": ("documentation",),
    "info": ("information",),
    "app": ("application",),
    "apps": ("applications",),
    "prod": ("production",),
    "dev": ("development",),
    "param": ("parameter",),
    "params": ("parameters",),
    "arg": ("argument",),
    "args": ("arguments",),
    "req": ("request",),
    "reqs": ("requests",),
    "resp": ("response",),
    "num": ("number",),
    "max": ("maximum",),
    "min": ("minimum", "minute"),
    "mins": ("minutes",),
    "sec": ("second",),
    "secs": ("seconds",),
    "hr": ("hour",),
    "hrs": ("hours",),
    "func": ("function",),
    "funcs": ("functions",),
    "impl": ("implementation",),
    "mgmt": ("management",),
    "svc": ("service",),
    "svcs": ("services",),
    "perf": ("performance",),
    "prev": ("previous",),
    "tmp": ("temporary",),
}
#: a lower-case word standing alone: not part of a path, a flag, a name or a code span
_WORD = re.compile(r"(?<![\w./@#$`-])(?:w/o|w/|b/c|[a-z]+)(?![\w`]|[./-]\w)")


def spelled_out(text: str, uses: Callable[[str], int]) -> dict[str, str]:
    """Each shorthand in ``text`` outside code mapped to the long form read for it: the one
    the documents write in more chunks (``uses``) than the shorthand itself."""
    found: dict[str, str] = {}
    for match in _WORD.finditer(code_blanked(text)):
        short = match[0]
        if short in found:
            continue
        if short in _ENGLISH:
            found[short] = _ENGLISH[short]
            continue
        longs = _TRADE.get(short, ())
        best = max(longs, key=uses, default=None)
        if best is not None and uses(best) and not uses(short):
            found[short] = best
    return found


def spell_out(text: str, words: Mapping[str, str]) -> str:
    """``text`` with each shorthand of ``words`` (:func:`spelled_out`) read as its long form,
    outside code."""
    return replaced(text, _WORD.finditer(code_blanked(text)), words) if words else text
