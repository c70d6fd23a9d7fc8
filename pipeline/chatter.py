"""What a chat message wraps its question in: greetings, openers, thanks and emoji.

People ask in Slack and Discord as they talk: "hey team :wave: quick q - how big do the WAL
segment files get? thx in advance :pray:". None of that wrapping is the question. Left in, it
is read as asked: "team", "quick" and "advance" become terms no passage has, ``:pray:`` and
``:thinking_face:`` read as code names that a passage must write, and "thanks!" after the "?"
reads as the sentence that asks. :func:`unwrapped` is the question those words wrap, which the
pipeline searches and weighs passages against; the asker still sees their message as written.

Only wrapping is taken off: a greeting or an opener at the start ("hi all,", "quick
question:", "sorry if this is a dumb question, but", "does anyone know", or "thanks!" for the
last answer before a follow-up), thanks and sign-offs
at the end ("thanks in advance", "any help appreciated", "cheers"), and emoji anywhere outside
code: Slack's ``:shortcode:``, Discord's custom ``<:name:id>`` and Unicode pictographs. A
greeting counts only when the message goes on after it as a message does ("hey, …", "hi all
…", "hello how do I …"), so "hello world example" keeps its words. A message that is nothing
but wrapping ("thanks!") is left as it is.

A message typed in capitals is read in lower case (:func:`unshouted`), but for the words the
documents never write, which stay names: in capitals, "SENTRY" or "CLOUD RUN" may be a name
as well as a word.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from pipeline.markup import CODE_SPAN, code_blanked
from pipeline.words import STOP_FORMS, replaced

__all__ = ["unshouted", "unwrapped"]

#: Slack's emoji shortcodes (``:wave:``, ``:+1:``, ``:thumbsup::skin-tone-2:``), never inside a
#: word or a path of colons (``std::fs::read``, ``10:30:00``)
_SHORTCODE = re.compile(r"(?<![\w:]):[a-z0-9_+'-]+:(?::skin-tone-\d:)?(?![\w:])")
#: Discord's custom emoji as a message's text carries them: ``<:name:id>``, ``<a:name:id>``
_CUSTOM = re.compile(r"<a?:\w+:\d+>")
#: Unicode pictographs, with their joiners, variation selectors and skin tones
_PICTOGRAPH = re.compile(
    "[\U0001f000-\U0001faff\u2600-\u27bf\u2b00-\u2bff\u200d\ufe0f\U0001f3fb-\U0001f3ff]+"
)
#: where an emoji stood: it parts a greeting from what follows ("morning :wave: only …")
_MARK = "\u2063"
#: emphasis as Slack and Discord write it: ``*bold*``, ``**bold**``, ``_italics_``. A name in
#: underscores (``__init__``, ``_private``) has no space-free letters on both sides of one
#: underscore, so it is not taken for italics.
_EMPHASIS = re.compile(
    r"(?<![\w*])(\*\*?)(?=[^\s*])([^*\n]*?[^\s*])\1(?![\w*])"
    r"|(?<![\w_])_(?=[^\s_])([^_\n]*?[^\s_])_(?![\w_])"
)
#: struck-through words are taken back: "how do I ~delete~ archive a project"
_STRUCK = re.compile(r"(?<![\w~])~(?=[^\s~])[^~\n]*?[^\s~]~(?![\w~])")
_WHO = (
    r"(?:all|everyone|everybody|folks|team|guys|gang|y'?all|there|people|friends|again"
    r"|@\w+(?:\s+team)?)"
)
#: words a message goes on with after a greeting or "does anyone know": a question word, a
#: pronoun, a verb that asks
_GOES_ON = (
    r"(?:how|what|what's|whats|why|where|when|which|who|whose|is|are|was|were|can|could|"
    r"does|do|did|should|would|will|has|have|any|anyone|anybody|i|i'm|im|we|we're|my|our|"
    r"so|quick|question|just|not|sorry|if|in|on|with|after|since)\b"
)
_BREAK = rf"[\s{_MARK}]*[,!.:;\-{_MARK}][\s,!.:;\-{_MARK}]*"
_GREETING = re.compile(
    rf"^[\s{_MARK}]*(?:"
    # a greeting word that is nothing else: whatever follows is the message
    rf"(?:hi|hey|heya|hiya|howdy|yo)(?:\s+{_WHO}\b)?(?:{_BREAK}|\s+)"
    # "hello world", "morning builds": a greeting only when the message goes on after it
    r"|(?:hello|morning|good\s+(?:morning|afternoon|evening)|greetings)"
    rf"(?:(?:\s+{_WHO})?{_BREAK}|\s+{_WHO}\b\s*|\s+(?={_GOES_ON}))"
    r")",
    re.I,
)
#: an opener before the question itself; "does anyone know how …" keeps "how …"
_OPENER = re.compile(
    rf"^[\s{_MARK}]*(?:"
    # an answer acknowledged before the next question: "thanks! and how do I undo it?"
    r"(?:thanks|thank\s+you|thx|ty|cheers|great|cool|nice|perfect|awesome|got\s+it)\s*[!.,]+"
    r"|(?:a\s+)?quick\s+(?:q|qn|question)\b(?:\s+(?:for\s+(?:you|y'?all|the\s+team)|here))?"
    r"|(?:q|question)\s*(?=[:-])"
    r"|sorry\s+if\s+this\s+(?:is\s+)?(?:a\s+)?(?:dumb|stupid|silly|noob|newbie|basic|obvious)"
    r"(?:\s+question)?(?:\s*,?\s*but)?"
    r"|sorry\s+for\s+the\s+(?:dumb|stupid|silly|noob|newbie|basic)\s+question"
    r"|not\s+sure\s+(?:if\s+|whether\s+)?this\s+is\s+the\s+right\s+(?:channel|place)"
    r"(?:\s+(?:for\s+this|to\s+ask))?(?:\s*,?\s*but)?"
    r"|(?:does\s+)?(?:any|some)(?:one|body)\s+(?:here\s+)?(?:know|knows)"
    rf"(?![\s,:;-]+(?:if|whether)\b)(?=[\s,:;-]+{_GOES_ON})"
    rf"|(?:any|some)\s+ideas?(?![\s,:;-]+(?:if|whether)\b)(?=[\s,:;-]+{_GOES_ON})"
    rf")[\s,:;.!?\-{_MARK}]*",
    re.I,
)
_THANKS = re.compile(
    rf"(?:[\s,.;:!?\-{_MARK}]|^)(?:"
    r"(?:many\s+|thanks?\s+)?thanks?(?:\s+(?:a\s+lot|so\s+much|very\s+much|you|all|team|folks))*"
    r"(?:\s+(?:in\s+advance|for\s+(?:any|your|the)\s+help))?"
    r"|thank\s+you(?:\s+(?:in\s+advance|so\s+much|very\s+much))?|thx(?:\s+in\s+advance)?"
    r"|ty(?:sm)?|tia|cheers|ta|much\s+appreciated|appreciated|appreciate\s+(?:it|any\s+help)"
    r"|(?:any\s+)?(?:help|pointers|advice|ideas|tips)\s+(?:is\s+|are\s+|would\s+be\s+)?"
    r"(?:much\s+|greatly\s+|really\s+)?appreciated"
    # "cc" is what is left of "cc @alice" once the platform took the mention off
    r"|please|pls|plz|lol|haha|hth|cc"
    rf")[\s.!{_MARK}]*$",
    re.I,
)
_SPACES = re.compile(r"[ \t]{2,}")
_SHOUTED_WORD = re.compile(r"[^\W\d_]{2,}")
_SHOUTED_WORDS = 3


def unwrapped(text: str) -> str:
    """``text`` without the greeting, opener, thanks and emoji that wrap its question, or
    ``text`` itself when nothing else is left."""
    spans = [m.span() for m in CODE_SPAN.finditer(text)]
    out: list[str] = []
    at = 0
    for start, end in [*spans, (len(text), len(text))]:
        out.append(_plain(text[at:start]))
        out.append(text[start:end])
        at = end
    bare = _ends("".join(out).strip())
    bare = _SPACES.sub(" ", bare.replace(_MARK, " ")).strip()
    return bare if any(c.isalnum() for c in bare) else text


def unshouted(text: str, writes: Callable[[str], bool]) -> str:
    """``text`` in lower case where it is typed in capitals (three words or more and no
    lower-case letter outside code), but for the words the documents never write (``writes``
    takes a word in lower case) that are no stop words: those are read as names (``Datadog``), which a passage must
    have. In capitals every word reads as an acronym ("HOW BIG DO …"), a name the documents
    must write."""
    prose = code_blanked(text)
    words = list(_SHOUTED_WORD.finditer(prose))
    if len(words) < _SHOUTED_WORDS or any(c.islower() for c in prose):
        return text
    read = {w[0]: w[0].lower() if _word(w[0].lower(), writes) else w[0].capitalize() for w in words}
    return replaced(text, words, read)


def _word(lower: str, writes: Callable[[str], bool]) -> bool:
    """Whether ``lower`` is a word, not a name: a stop word ("how", "is") or one the documents
    write."""
    return lower in STOP_FORMS or writes(lower)


def _plain(text: str) -> str:
    """``text`` without emoji and emphasis, and without what it struck through."""
    text = _EMPHASIS.sub(lambda m: m[2] if m[2] is not None else m[3], _STRUCK.sub(" ", text))
    return _PICTOGRAPH.sub(_MARK, _CUSTOM.sub(_MARK, _SHORTCODE.sub(_MARK, text)))


def _ends(text: str) -> str:
    """``text`` without a greeting and an opener at its start and thanks at its end."""
    while True:
        before = text
        text = _GREETING.sub("", text, count=1)
        text = _OPENER.sub("", text, count=1)
        text = _THANKS.sub("", text).rstrip(" ,;:-" + _MARK)
        if text == before:
            return text
