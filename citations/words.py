"""Word lists and character classes that the quote checker treats as meaning-bearing.

Data only (plus one test of script): a fabricated quote keeps the wording and changes
exactly these tokens, so they must match exactly between a quote and its source.
"""

from __future__ import annotations

import re

CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
"""Kana, CJK ideographs and compatibility ideographs, as a regex character-class body."""
CJK_CHAR = re.compile(f"[{CJK}]")

NEGATIONS = frozenset(
    [
        "not",
        "no",
        "never",
        "none",
        "nor",
        "neither",
        "nobody",
        "nothing",
        "nowhere",
        "without",
        "cannot",
        "nicht",
        "kein",
        "keine",
        "keinen",
        "keiner",
        "nie",
        "niemals",
        "ne",
        "pas",
        "jamais",
        "aucun",
        "aucune",
        "sans",
        "nunca",
        "ningún",
        "ninguna",
        "ningun",
        "sin",
        "non",
        "mai",
        "nessun",
        "nessuna",
        "nao",
        "não",
        "nem",
    ]
)
UNITS = frozenset(
    [
        "%",
        "$",
        "€",
        "£",
        "¥",
        "°",
        "‰",
        "percent",
        "per",
        "mg",
        "g",
        "kg",
        "t",
        "lb",
        "lbs",
        "oz",
        "km",
        "m",
        "cm",
        "mm",
        "µm",
        "nm",
        "mi",
        "ft",
        "in",
        "ms",
        "s",
        "sec",
        "secs",
        "second",
        "seconds",
        "min",
        "mins",
        "minute",
        "minutes",
        "h",
        "hr",
        "hrs",
        "hour",
        "hours",
        "day",
        "days",
        "week",
        "weeks",
        "month",
        "months",
        "year",
        "years",
        "kb",
        "mb",
        "gb",
        "tb",
        "pb",
        "kib",
        "mib",
        "gib",
        "tib",
        "hz",
        "khz",
        "mhz",
        "ghz",
        "w",
        "kw",
        "mw",
        "v",
        "mv",
        "a",
        "ma",
        "l",
        "ml",
        "usd",
        "eur",
        "gbp",
        "jpy",
        "x",
        "k",
    ]
)
CJK_MEANING = re.compile(
    r"ない|なかっ|ません|ず|ぬ|不|没|沒|無|无|未|非|莫|勿|别|別|않|안|못|없|아니"
    r"|[〇一二三四五六七八九十百千万萬億亿兆零半]|[일이삼사오육칠팔구십백천만억]"
)


def is_cjk_heavy(text: str) -> bool:
    """At least a third of the characters are CJK: words are not separated by spaces."""
    return len(CJK_CHAR.findall(text)) * 3 >= len(text)
