"""Where a question names the thing it asks about, when it asks about one thing.

Four kinds of question ask about a thing the documentation either names or says nothing of:

- whether there is one: "is there an official Helm chart to install it?", "does it support the
  transactional outbox pattern?", "do you have a Terraform provider?";
- how to run or install something *as* one: "how do I run it as a Windows service?",
  "register the environment as a Jupyter kernel" (only after such a verb: "my app as a plain
  process" tells the asker's setup);
- which one is recommended: "what's the recommended Authelia setup with labels?";
- which licence it is under: "what license is it released under?" (documentation that states
  one names it as a licence).

The thing's name runs from there to where its purpose, a clause or a place starts ("an official
Helm chart *to* install it"). When that name is only a kind ("is there support *for
websockets*?", "a plugin *for Grafana*"), what follows "for", "with" or "of" names the thing,
and what a tool is to do names it too ("is there a tool *to convert* our nginx configs?").
Which words are kinds is the question side's to say (``pipeline.asked``): this module finds the
words, in the asker's own spelling, and no more.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: what "is there …" asks of a judgement, not of a thing the docs name: "is there any
#: difference between …", "is there a reason to …", "is there a performance penalty …"
_JUDGED = (
    r"(?:differences?|reasons?|need|point|benefits?|advantages?|downsides?|drawbacks?|catch"
    r"|risks?|chance|harm|penalty|cost)\b"
)
#: a question asking whether a thing exists or is supported ("is there an official Helm chart
#: …", "does dapr support the transactional outbox pattern …"): the words after it name the thing
_EXISTS = re.compile(
    r"\b(?:(?:is|are)\s+there(?:\s+(?:a|an|any|some|the))?(?!\s+(?:[\w-]+\s+){0,2}" + _JUDGED + r")"
    r"|(?:does|do|did|can|will|would)\s+(?!i\b|we\b)(?:[\w.-]+\s+){1,3}?"
    # the word right after an article is a noun: "can an include call itself?"
    r"(?<!\ba\s)(?<!\ban\s)(?<!\bthe\s)"
    r"(?:support|offer|provide|ship|include|come\s+with|have(?!\s+to\b))"
    r"(?:\s+(?:a|an|any|some|the|its\s+own|their\s+own))?"
    # chat's "got an example …?", "any sample …?": is there one
    r"|^\W*(?:(?:have\s+you|has\s+any(?:one|body)|any(?:one|body))\s+)?(?:got|any)(?:\s+an?)?"
    r"(?=\s+(?:examples?|samples?|templates?|snippets?|recipes?)\b))"
    r"\s+(?P<thing>[^?,.;:!]+)",
    re.I,
)
#: a question word earlier in the clause: what comes after it is not asked whether it exists
_WH = re.compile(r"\b(?:how|what|which|when|where|why|who)\b[^?,.;:!]*$", re.I)
#: where the thing's name ends: at its purpose, a clause or a place ("an official Helm chart
#: *to* install …", "a tool *that* converts …", "a dead letter topic *for* …")
_THING_END = re.compile(
    r"(?:^|\s+)(?:to|for|that|which|so|on|in|into|with|without|between|from|where|when|if|"
    r"like|instead|our|my|we|i|and)\b.*$",
    re.I | re.S,
)
#: a question asking how to run or install something as a thing ("how do I run it *as a
#: Windows service*", "register the environment *as a Jupyter kernel*"): the words after "as a"
#: name the thing, which the docs name where they support it. Only after such a verb: "my app as
#: a plain process on my laptop" tells the asker's setup, not what they want.
_AS_A = re.compile(
    r"\b(?:run|install|register|deploy|start|launch|host|serve|package|ship|publish|expose|"
    r"mount|load|add|embed|wrap|set\s+up)\b(?:\s+[\w'.-]+){0,4}?"
    r"\s+as\s+an?\s+(?P<thing>[^?,.;:!]+)"
    # a form to write something in ("write the logs as json lines", "get the result as csv")
    # (asked for, not told: "my page renders the nav as a code block" tells what happens)
    r"|\b(?:write|output|emit|log|print|format|dump|save|store|seriali[sz]e|get|export|render)\b"
    r"(?:\s+(?!as\b)[\w'.-]+){1,4}?\s+as\s+(?:an?\s+)?"
    r"(?!(?:well|soon|long|much|many|far|fast|often|possible|expected|usual|is|it)\b)"
    r"(?P<form>[^?,.;:!]+)",
    re.I,
)
#: a question asking which thing is recommended ("what's the recommended Authelia setup …",
#: "what is the best plugin for …"): the docs name what they recommend
_RECOMMENDED = re.compile(
    r"\bwhat(?:'s|\s+is|\s+are)\s+the\s+(?:recommended|best|official|preferred|usual|standard)"
    r"\s+(?P<thing>[^?,.;:!]+)"
    # "which php client should we use?", "what vm size do you recommend?"
    r"|\b(?:which|what)\s+(?!one\b)(?P<which>(?:[\w.+-]+\s+){0,3}?[\w.+-]+)\s+(?:should|would|do|does|can)"
    r"\s+(?:we|i|you|one|people)\s+(?:use|pick|choose|go\s+with|recommend|suggest)\b",
    re.I,
)
#: a question which licence something is under ("what license is it released under?", "under
#: which licence …"): documentation that states one names it as a licence
_LICENCE = re.compile(
    r"\b(?:what|which)(?:'s|\s+is)?\s+(?:the\s+)?(?:open[\s-]?source\s+)?(?P<licence>licen[cs]es?)\b",
    re.I,
)
#: what a kind of thing is for, with or of ("support *for websockets*", "a plugin *for
#: Grafana*"): the thing, when the kind is all the thing's own name says
_KIND_OF = re.compile(
    r"[^?,.;:!]*?\b(?:for|with|of)\s+(?:(?:a|an|the|any)\s+)?(?P<thing>[^?,.;:!]+)", re.I
)
#: what a made thing does ("a tool *to convert* nginx configs", "a plugin *that exports* …"),
#: the asker's own words dropped: "convert *our existing* nginx configs" converts nginx configs
_PURPOSE = re.compile(r"[^?,.;:!]*?\b(?:to|that|which)\s+(?P<thing>[^?,.;:!]+)", re.I)
_OWNED = re.compile(r"\b(?:our|my|your|their|its|existing|current)\s+", re.I)
#: "built-in", as one word: it says the thing comes with the software, not what it is
_BUILT_IN = re.compile(r"\bbuilt[-\s]?in\b", re.I)


@dataclass(frozen=True, slots=True)
class Named:
    """The words a question names its thing with, what the thing is for, with or of, and
    what it is to do."""

    name: str
    of: str = ""
    purpose: str = ""


def named(question: str) -> Named | None:
    """The thing ``question`` asks about (see the module's docstring), or None."""
    match = _EXISTS.search(question)
    if match is not None and _WH.search(question, 0, match.start()):
        # "how many messages can a consumer have outstanding?" asks how many, not whether
        match = None
    match = (
        match
        or _AS_A.search(question)
        or _RECOMMENDED.search(question)
        or _LICENCE.search(question)
    )
    if match is None:
        return None
    # each pattern names its thing in one group of its own
    thing = _BUILT_IN.sub("builtin", next(g for g in match.groupdict().values() if g))
    of = _KIND_OF.match(thing)
    purpose = _PURPOSE.match(thing)
    return Named(
        name=_THING_END.sub("", thing),
        of="" if of is None else _THING_END.sub("", of["thing"]),
        purpose="" if purpose is None else _THING_END.sub("", _OWNED.sub("", purpose["thing"])),
    )
