"""Per-channel settings resolved for a place, and what an auto-reply channel answers.

``[channels."PATTERN"]`` tables (:mod:`bots.settings.channels`) may overlap: for each
field, the most specific pattern that sets it wins: a channel id before a ``#name``
pattern before every channel, and within each, a named workspace before ``*``.
Direct conversations (DMs, group DMs) are not channels: no pattern applies to them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import TYPE_CHECKING, Literal

from bots.settings.channels import PlacePattern, check_patterns, parse_pattern
from pipeline.question import Place
from pipeline.words import STOP

if TYPE_CHECKING:
    from bots.settings.channels import ChannelSettings

__all__ = ["ChannelConfig", "ChannelRules", "is_question"]


@dataclass(frozen=True, slots=True)
class ChannelConfig:
    """What one place does; ``None`` fields leave the global setting in charge."""

    scope: tuple[str, ...] | None = None
    auto_reply: bool = False
    persona: str = ""
    answers: Literal["public", "ephemeral"] | None = None
    web_search: bool | None = None


NO_RULES = ChannelConfig()


class ChannelRules:
    """The ``channels`` settings, parsed once and ordered most specific first."""

    def __init__(self, channels: dict[str, ChannelSettings]) -> None:
        # rules built without load_settings (plugins, tests) get the same refusals
        check_patterns(channels)
        parsed = [(parse_pattern(key), rule) for key, rule in channels.items()]
        self._rules = sorted(parsed, key=lambda pair: pair[0].specificity, reverse=True)

    @property
    def by_name(self) -> bool:
        """Some pattern matches channel names: the adapter must learn them."""
        return any(pattern.by_name for pattern, _ in self._rules)

    def watches(self, platform: str) -> bool:
        """Some pattern turns auto-reply on for this platform."""
        return any(p.platform == platform and r.auto_reply for p, r in self._rules)

    def config_for(self, place: Place) -> ChannelConfig:
        if place.kind.direct or not self._rules:
            return NO_RULES
        found: dict[str, object] = {}
        for pattern, rule in self._rules:
            if not _matches(pattern, place):
                continue
            for name, value in rule.model_dump(exclude_none=True).items():
                found.setdefault(name, value)
        if not found:
            return NO_RULES
        scope = found.get("scope")
        return ChannelConfig(
            scope=tuple(scope) if isinstance(scope, list) else None,
            auto_reply=bool(found.get("auto_reply", False)),
            persona=str(found.get("persona") or ""),
            answers=found.get("answers"),  # type: ignore[arg-type]
            web_search=found.get("web_search"),  # type: ignore[arg-type]
        )


def _matches(pattern: PlacePattern, place: Place) -> bool:
    if pattern.platform != place.platform:
        return False
    if pattern.workspace is not None and pattern.workspace != place.workspace:
        return False
    if pattern.channel is None:
        return True
    if pattern.by_name:
        name = (place.channel_name or "").lower()
        return bool(name) and fnmatchcase(name, pattern.channel.lower())
    return bool(place.channel) and fnmatchcase(place.channel or "", pattern.channel)


_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)?")
_ASKING = frozenset(
    [
        "how",
        "what",
        "why",
        "when",
        "where",
        "who",
        "whom",
        "whose",
        "which",
        "can",
        "could",
        "does",
        "do",
        "did",
        "is",
        "are",
        "was",
        "were",
        "should",
        "would",
        "will",
        "has",
        "have",
        "any",
        "anyone",
        "is",
        "there",
    ]
)
_ADDRESSED = re.compile(r"<@[!&]?\w+>")


def is_question(text: str) -> bool:
    """Whether a message in an auto-reply channel asks something the docs could answer.

    It must ask (a ``?``, or start with a question word) and carry at least two words
    that are not small talk: "how are you?" and "lunch anyone?" do not; "how do I
    rotate the API key" does. A message addressed to someone else (``<@…>``) is theirs.
    """
    if _ADDRESSED.search(text):
        return False
    words = [w.lower() for w in _WORD.findall(text)]
    if not words:
        return False
    asks = "?" in text or words[0] in _ASKING
    content = [w for w in words if w.split("'")[0] not in STOP and not w.isdigit()]
    return asks and len(content) >= 2
