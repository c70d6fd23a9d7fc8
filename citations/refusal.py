"""Recognise an answer that declines to answer, so it lists no sources."""

from __future__ import annotations

import re
from collections.abc import Iterator

from citations.markers import MARKERS as _MARKERS

_PATTERNS = re.compile(
    r"""
    \b(?:i|we)\s+(?:could\s*n[o']?t|can\s*n[o']?t|did\s*n[o']?t|do\s*n[o']?t|was\s*n[o']?t|am\s+unable|'m\s+unable|are\s+unable|am\s+not\s+able)
        \s+(?:find|locate|answer|see|determine|tell|know|help|provide|identify)
    | \b(?:i|we)\s+(?:do\s*n[o']?t|don't)\s+(?:have|know)\s+(?:enough\s+)?(?:information|the\s+answer|that|this|any)
    | \bi\s+don't\s+know\b
    | \b(?:no|not\s+enough|insufficient)\s+(?:relevant\s+)?(?:information|context|sources?|documents?|results?)\s+
        (?:about|on|regarding|to\s+answer|in|was|were|is|are)
    | \b(?:the\s+)?(?:provided\s+|given\s+|available\s+)?(?:sources|documents|context|knowledge\s+base)\s+
        (?:do(?:es)?\s*n[o']?t|did\s*n[o']?t)\s+(?:contain|mention|say|cover|include|provide|answer|address)
    | \b(?:cannot|can't|unable\s+to)\s+(?:be\s+)?answer(?:ed)?
    | \bi'm\s+(?:not\s+able|unable)\s+to\s+(?:find|locate|answer|see|determine|tell|help|provide|identify)
    | \b(?:the\s+)?(?:provided\s+)?(?:docs|documentation|sources\s+provided)\s+
        (?:do(?:es)?\s*n[o']?t|did\s*n[o']?t)\s+(?:contain|mention|say|cover|include|provide|answer|address|explain)
    | \b(?:is|are)\s*(?:n't|\s+not)\s+(?:covered|mentioned|addressed|explained|described)\s+in\s+the\s+
        (?:provided\s+|given\s+)?(?:sources|documents|docs|documentation|context|knowledge\s+base)
    | \bno\s+mention\s+of\b.{0,80}?\bin\s+the\s+(?:provided\s+|given\s+)?(?:sources|documents|docs|documentation|context)
    | \b(?:none\s+of|nothing\s+in)\s+the\s+(?:provided\s+|given\s+)?(?:sources|documents|docs|documentation|context)\s+
        (?:explains?|mentions?|covers?|says?|answers?|describes?|contains?|address(?:es)?)
    | \bthe\s+answer\s+is\s*(?:n't|\s+not)\s+in\s+the\s+(?:provided\s+|given\s+)?(?:sources|documents|docs|documentation|context)
    | \bnot\s+(?:found|mentioned|covered)\s+in\s+the\s+(?:provided\s+|given\s+)?(?:sources|documents|context|knowledge\s+base)
    | 見つかりませんでした | 分かりません | わかりません | 回答できません | 答えられません
    | 找不到 | 无法回答 | 無法回答 | 没有找到 | 沒有找到
    | 찾을\s*수\s*없 | 답변할\s*수\s*없 | 모르겠습니다
    """,
    re.IGNORECASE | re.VERBOSE,
)

_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s+|\n+")
_SHORT = 300
_WORD = re.compile(r"\w")
_TRAILING_MARKERS = re.compile(rf"([.!?。！？])((?:{_MARKERS.pattern})+)")


def is_refusal(text: str) -> bool:
    """True when the answer says it cannot answer.

    ``text`` keeps its citation markers. The first sentence decides, or the
    whole answer when it is short: a long answer that mentions a gap in passing
    ("the docs don't say X, but Y") is still an answer. So is an answer that
    cites a claim which is not itself a refusal ("Yes[3]. I couldn't find more.").
    """
    # a refusal says so up front; a run-on first sentence need not be scanned whole
    opening = text[: 4 * _SHORT]
    plain = _MARKERS.sub("", opening).strip()
    if not plain:
        return False
    first = _SENTENCE_END.split(plain, maxsplit=1)[0][:_SHORT]
    scope = plain if len(plain) <= _SHORT else first
    return _declines(scope) and all(_declines(claim) for claim in _cited_claims(opening))


def _cited_claims(text: str) -> Iterator[str]:
    """Each sentence of ``text`` that a citation marker supports, without its markers."""
    # "Yes.[3] No more." cites the sentence the full stop ends, as "Yes[3]. No more." does
    text = _TRAILING_MARKERS.sub(r"\2\1", text)
    for sentence in _SENTENCE_END.split(text):
        claim = _MARKERS.sub("", sentence)
        if claim != sentence and _WORD.search(claim):
            yield claim


def _declines(text: str) -> bool:
    return _PATTERNS.search(text.replace("’", "'")) is not None
