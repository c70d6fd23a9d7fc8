"""Where a piece too long for one message may be cut, and how code stays code across the cut.

A cut must not change what either side means: never inside an HTML entity
(``&lt;`` cut in two shows as text), never right after an escaping backslash
(the next message would start with a backtick or bracket that now pairs
differently), and in code never where the parts would stop being code.
"""

from __future__ import annotations

from citations.render.safe import break_fence_ticks, escaped

#: the least room worth putting part of a long piece in, rather than starting a new message
MIN_ROOM = 40
_ENTITIES = ("&amp;", "&lt;", "&gt;")
_BREAKS = ("\n\n", "\n", ". ", " ")


def splits_entity(text: str, at: int) -> bool:
    amp = text.rfind("&", max(at - 4, 0), at)
    return amp >= 0 and any(text.startswith(e, amp) and amp + len(e) > at for e in _ENTITIES)


def _prose_ok(text: str, at: int) -> bool:
    return not splits_entity(text, at) and not escaped(text, at)


def _span_ok(text: str, at: int) -> bool:
    # a backtick beside the cut would join the span's own delimiter and change its length
    return not splits_entity(text, at) and text[at - 1] != "`" and text[at] != "`"


def cut(text: str, budget: int) -> int:
    """Where to cut prose so the first part fits ``budget``: prefer a paragraph,
    then a line, a sentence, a space; a hard cut as the last resort."""
    if len(text) <= budget:
        return len(text)
    window = text[:budget]
    for sep in _BREAKS:
        at = window.rfind(sep)
        if at > budget // 3:
            return at + len(sep)
    at = budget
    while at > 1 and not _prose_ok(text, at):
        at -= 1
    return max(at, 1)


def split_span(text: str, first: int, limit: int) -> list[str]:
    """An inline code span as spans that each fit: the first ``first`` characters
    long at most, the rest ``limit``. A span with no clean place to cut (a long run
    of backticks) becomes fenced blocks instead, which hold any backticks."""
    ticks = text[: len(text) - len(text.lstrip("`"))]
    inner = text[len(ticks) : len(text) - len(ticks)]
    parts: list[str] = []
    budget = first if first - 2 * len(ticks) >= MIN_ROOM else limit
    while 2 * len(ticks) + len(inner) > budget:
        room = budget - 2 * len(ticks)
        at = room
        while at > room // 2 and not _span_ok(inner, at):
            at -= 1
        if at <= room // 2:
            block = break_fence_ticks(f"```\n{inner}\n```")
            return parts + [f"\n{part}\n" for part in split_fence(block, budget - 2, limit - 2)]
        parts.append(ticks + inner[:at] + ticks)
        inner = inner[at:]
        budget = limit
    return [*parts, ticks + inner + ticks]


def split_fence(block: str, first: int, limit: int) -> list[str]:
    """A fenced code block as blocks that each open and close the fence: the first
    ``first`` characters long at most (if that leaves room for some code), the rest
    ``limit``. Cut between lines where it can be, never inside an entity."""
    if len(block) <= first:
        return [block]
    first_nl = block.find("\n")
    opener = block[: first_nl if first_nl >= 0 else len(block)]
    fence = opener.strip()
    marker = fence[: len(fence) - len(fence.lstrip(fence[0]))] if fence else "```"
    body = block[first_nl + 1 :] if first_nl >= 0 else ""
    if body.rstrip().endswith(marker):
        body = body.rstrip()[: -len(marker)]
    if limit - len(opener) - len(marker) - 2 < MIN_ROOM:
        opener = marker  # an info string too long to repeat: the code matters, not its label
    overhead = len(opener) + len(marker) + 2
    budget = first if first - overhead >= MIN_ROOM else limit
    if len(block) <= budget:
        return [block]
    parts: list[str] = []
    while body:
        room = max(budget - overhead, 1)
        at = body.rfind("\n", 0, room + 1)
        if at > 0:
            at += 1
        elif not parts and budget < limit:
            budget = limit  # a line cut in two to fill a message is worse than a new message
            continue
        else:
            at = min(room, len(body))
            while at > 1 and splits_entity(body, at):
                at -= 1
        parts.append(f"{opener}\n{body[:at].rstrip(chr(10))}\n{marker}")
        body = body[at:]
        budget = limit
    return parts or [f"{opener}\n{marker}"]
