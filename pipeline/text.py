"""Knowledge strips and prose: the small text cuts the pipeline needs."""

from __future__ import annotations

import re

from citations.sentences import Span, pack
from pipeline.markup import FENCED

__all__ = ["FENCED", "is_prose", "leans_back", "plain", "shown", "strips", "unlinked"]


# a cross-reference role, MyST ({func}`name`) or reST (:func:`name`), with its body (which
# a wrapped line may carry on to the next)
_ROLE = re.compile(
    r"(?:\{[\w:.+-]+\}|(?<![\w`]):[\w.+-]+(?::[\w.+-]+)*:)`(?P<body>[^`\n]+(?:\n[^`\n]+)?)`"
)
# an explicit title before the target in angle brackets: {doc}`the guide <guide>`
_TITLED = re.compile(r"^(?P<title>.*?)\s*<[^<>]+>$", re.S)
# a dotted path to a name: ``structlog.processors.format_exc_info()``
_DOTTED = re.compile(r"^~?(?:[A-Za-z_]\w*\.)+(?P<name>[A-Za-z_]\w*(?:\(\))?)$")
_LINK = re.compile(r"!?\[(?P<text>[^\]\n]*)\]\((?:[^()\s]|\([^()\s]*\))*\)")
_IMAGE = re.compile(r"!\[[^\]\n]*\]\((?:[^()\s]|\([^()\s]*\))*\)")
# an attribute list (mkdocs attr_list, Pandoc): "{ loading=lazy .off-glb }", "{: #id }";
# build-time markup a reader never sees
_ATTR_LIST = re.compile(
    r"\{:?(?:[ \t]*(?:[#.][\w-]+|[\w-]+=(?:\"[^\"\n]*\"|'[^'\n]*'|[^\s{}]+)))+[ \t]*\}"
)
_STRONG = re.compile(
    r"(\*\*|__|~~)(?=\S)(?P<text>.+?)(?<=\S)\1|(?<![\w*])\*(?=[^\s*])(?P<em>[^*\n]+?)(?<=\S)\*(?![\w*])"
)


def plain(text: str) -> str:
    """The text as a reader sees it, for scoring only (quotes keep the source's markup):
    a cross-reference is its title, or the last name of its dotted path, in a code span
    (``{class}`~a.b.C``` is `C`); a link is its text; emphasis and strikethrough marks are
    gone."""

    text = _ROLE.sub(lambda m: _reference(m, short=True), _ATTR_LIST.sub("", text))
    return _STRONG.sub(lambda m: m.group("text") or m.group("em"), unlinked(text))


def _reference(match: re.Match[str], *, short: bool) -> str:
    """A cross-reference role as words: its title, else its target in a code span, cut to
    the last name of a dotted path when ``short`` or when the role asks for it (``~``)."""
    body = match.group("body").strip()
    titled = _TITLED.match(body)
    if titled and titled.group("title"):
        return titled.group("title")
    if short or body.startswith("~"):
        body = body.removeprefix("~")
        dotted = _DOTTED.match(body)
        body = dotted.group("name") if dotted else body
    return f"`{body}`"


def shown(text: str) -> str:
    """The text as the built page shows it, for an answer's quote: a cross-reference is its
    title, or its target in a code span (``{func}`~a.b.f``` is `f`, as Sphinx draws it); an
    attribute list is gone. Links, emphasis and code spans stay for the platform to draw."""
    return _ROLE.sub(lambda m: _reference(m, short=False), _ATTR_LIST.sub("", text))


_WORDY = re.compile(r"[^\W_]")


def unlinked(text: str) -> str:
    """``text`` with each Markdown link (or image) as its text: a link's target names where it
    points, not what the page says."""
    return _LINK.sub(lambda m: m.group("text"), text)


def linkless(text: str) -> str:
    """``text`` without its Markdown links and images, text and all: what a page says in its
    own words, not the names it only points at ("our Community Slack")."""
    return _LINK.sub(" ", text)


# the words that open a sentence leaning on the one before it
_LEANS_BACK = re.compile(
    r"^(?:this|that|these|those|it|they|such|so|thus|then|otherwise|however|instead|"
    r"also|for\s+example|for\s+instance|in\s+(?:that|this|which)\s+case|in\s+particular|"
    r"in\s+other\s+words|as\s+a\s+result|because\s+of\s+this)\b",
    re.I,
)


# what to do about what the sentence before says, or what it comes to: "To avoid this, …",
# "Add yourself to that group", "Upgrading to greenlet 3.0 solves it", "If it does not, use …"
_CARRIES_ON = re.compile(
    r"^(?:(?:please\s+)?(?:make\s+sure|ensure|be\s+sure|check|add|use|try|run|set|install|"
    r"upgrade|update|consider|remove|delete|quote|switch|increase|reduce|avoid|restart|pass|"
    r"specify|configure)\b|"
    r"to\s+(?:avoid|fix|solve|resolve|prevent|work\s+around|get\s+around|address|remedy|"
    r"force|achieve|do|change|mitigate|correct)\s+(?:this|that|it|these|those|such)\b|"
    r"alternatively\b|if\s+(?:it|this|that|they|so|not)\b|"
    r"the\s+(?:easiest|simplest|best|recommended|usual)\s+(?:way|fix|solution|workaround)\b|"
    r"the\s+(?:most\s+common\s+)?(?:cause|reason|fix|solution|workaround)\b|"
    r"we\s+(?:recommend|suggest)\b|you\s+(?:can|should|must|need|have\s+to|will\s+need)\b)"
    r"|\b(?:solves|fixes|resolves|avoids|prevents)\s+(?:it|this|that|the\s+(?:issue|problem))\b",
    re.I,
)

# "in three steps", "two ways": the sentences that follow are the steps it counts
_COUNTS_STEPS = re.compile(
    r"\b(?:two|three|four|five|six|\d)\s+(?:\w+\s+)?(?:steps|stages|phases|ways|things)\b", re.I
)
# the opening of a sequence of steps, and the sentences that go on with it
_FIRST_STEP = re.compile(r"^(?:first(?:ly)?|to\s+start|start\s+by)\b", re.I)
_NEXT_STEP = re.compile(
    r"^(?:then|next|after\s+(?:that|this)|afterwards|second(?:ly)?|third(?:ly)?|"
    r"finally|lastly)\b",
    re.I,
)
_LAST_STEP = re.compile(r"^(?:finally|lastly)\b", re.I)
# a step that presupposes a first one before it ("Second, …", "Finally, …"): "then" and "next"
# follow whatever came before, often no numbered step
_LATER_STEP = re.compile(r"^(?:(?:second|third|fourth|fifth)(?:ly)?|finally|lastly)\b", re.I)


def opens_steps(sentence: str) -> bool:
    """Whether a sentence starts a run of steps ("… in three steps.", "First run …")."""
    return bool(_COUNTS_STEPS.search(sentence)) or first_step(sentence)


def next_step(sentence: str) -> bool:
    """Whether a sentence is the next step of a run ("Then …", "Finally …")."""
    return _NEXT_STEP.match(sentence.lstrip()) is not None


def last_step(sentence: str) -> bool:
    """Whether a sentence closes a run of steps ("Finally …", "Lastly …")."""
    return _LAST_STEP.match(sentence.lstrip()) is not None


def later_step(sentence: str) -> bool:
    """Whether a sentence is a step after the first ("Second, …", "Finally, …")."""
    return _LATER_STEP.match(sentence.lstrip()) is not None


def first_step(sentence: str) -> bool:
    """Whether a sentence is the first of a run of steps ("First of all, …", "Start by …")."""
    return _FIRST_STEP.match(sentence.lstrip()) is not None


def leans_back(sentence: str) -> bool:
    """Whether a sentence leans on the one before it ("This …", "For example …")."""
    return _LEANS_BACK.match(sentence.lstrip()) is not None


def carries_on(sentence: str) -> bool:
    """Whether a sentence carries on from the one before it: leans on it ("This …"), says
    what to do about it ("To avoid this, …", "Add yourself to that group") or what it comes
    to ("Upgrading to greenlet 3.0 solves it")."""
    said = sentence.lstrip()
    return leans_back(said) or _CARRIES_ON.search(said) is not None


def strips(text: str, *, max_chars: int = 400) -> list[Span]:
    """Cut a page into knowledge strips: runs of whole sentences within ``max_chars``.

    A sentence longer than the budget becomes a strip of its own, so no strip
    ever cuts a sentence (a cut sentence could not be quoted faithfully).
    """
    return pack(text, max_chars)


# a line of an interactive Python session
_PROMPT = re.compile(r"^[ \t]*>>>[ \t]", re.M)
# a line that opens or closes with a table's pipe: a row, or the piece of a long row that
# a chunk boundary cut off from its table's heading
_TABLE_LINE = re.compile(r"^[ \t]*\||\|[ \t]*$", re.M)


def is_prose(sentence: str) -> bool:
    """Worth quoting in an answer: not a bare heading, list bullet or code line, nor only
    images, badges and their attribute lists (what a reader sees is judged)."""
    seen = unlinked(_ATTR_LIST.sub("", _IMAGE.sub("", sentence)))
    if len(seen.split()) < 4:
        return False
    if sentence.lstrip().startswith(("#", "```", "|", "<")):
        return False
    if not _WORDY.search(linkless(sentence)):
        # a link alone (a "further reading" entry) names where to read, not what is true
        return False
    if _PROMPT.search(sentence) or _TABLE_LINE.search(sentence):
        # an interpreter session whose fence the chunk cut off, a table's row: not prose
        return False
    letters = sum(ch.isalpha() for ch in sentence)
    return letters >= len(sentence) * 0.5
