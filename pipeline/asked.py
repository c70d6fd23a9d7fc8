"""What a question asks for, read once from the asker's words, so that every passage is weighed
against the same terms (:mod:`pipeline.evidence`): its content terms, the names it writes, the
numbers and quoted names a passage must have, and the amount or the thing it asks about.

The asker's words also tell their own situation, which the documentation does not state and an
answer need not repeat. A value the asker assigns in their own code (``BUILD = 'b1.2.3'``) is
their data, not a name; so is a name they say they do not use ("and not ``__version__``",
"instead of Poetry", "rather than", "other than": it still counts as a term, but no passage must
have it), and an amount they say they have ("my pi has 512MB of RAM", "we have 2 TB"): their
situation, which the docs do not state. Their estimates, their machine's size and their dates
("roughly 50 million rows a day", "on a 4-vCPU VM", "a row dated 2100") are no terms of the
question at all: the docs give ranges and recommended sizes, not the asker's value. Nor is their
rough count ("a few hundred", "thousands of files"): an estimate, not a topic ("per million"
stays).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass

from citations.spelling import american
from pipeline.things import named
from pipeline.words import (
    DOTTED_NUMBER,
    EXACT,
    FOLDED,
    PHRASE,
    SENTENCE_END,
    STOP,
    STOP_FORMS,
    THOUSANDS,
    TOKEN,
    WORD,
    dotted_names,
    phrased_terms,
    singular,
    spelled_as,
    spellings_of,
    stem,
    terms,
    words_as_written,
)

#: words joined by hyphens, as tools and plugins are named: ``cargo-nextest``, ``pytest-xdist``
_HYPHENATED = re.compile(r"(?<![\w.-])[^\W\d_]+(?:-[^\W_]+)+(?![\w-])")
#: small words inside a name of several words: "Read the Docs", "Bank of Italy"
_NAME_LINKS = frozenset({"the", "of"})
_QUOTED = re.compile(r"`([^`\n]+)`|\"([^\"\n]+)\"|“([^”\n]+)”")
#: the value the asker assigns in their own code (``BUILD = 'b1.2.3'``): their data, not
#: what the docs must say
_ASSIGNED = re.compile(r"(?<=[\w\]])\s*=\s*(?:'[^'\n]*'|\"[^\"\n]*\"|[^\s,;?!]+)")
#: a name the asker says they do not use (``and not __version__``, "instead of Poetry"): what
#: they have instead, not what they ask about
_NEGATED = re.compile(
    r"\b(?:not|instead of|rather than|other than)\s+(?:(?:a|an|the|my|our|any)\s+)?"
    r"(?P<name>`[^`\n]+`|\"[^\"\n]+\"|[\w./-]*\w)",
    re.I,
)
#: a unit of measure after a number: what makes "512MB", "2 TB" or "4 vCPUs" an amount
_UNIT = (
    r"(?:[kmgtpe]i?b|[kmgtpe]?bytes?|gigs?|megs?|[kmg]?bps|"
    r"ms|secs?|seconds?|mins?|minutes?|hrs?|hours?|days?|weeks?|months?|years?|"
    r"v?cores?|v?cpus?|threads?|nodes?|servers?|machines?|devices?|users?|rows?|files?)"
)
_SCALE = r"(?:(?:thousand|million|billion)\s)?"
#: an amount the asker says they have (``my pi has 512MB of RAM``, "we have 2 TB to sync",
#: "our disk is 500GB"): their situation, which the docs do not state, not a number the
#: answer must have. Only a unit of measure makes it an amount: "does the GUI have 2FA"
#: names a feature.
_HAD = re.compile(
    r"(?:\b(?:has|have|had|got|get)|\b(?:my|our)\s+(?:[\w-]+\s+){1,3}?(?:is|are|was|were))\s+"
    r"(?:(?:about|around|only|just|over|nearly|almost|roughly)\s+)?"
    rf"\d+(?:[.,]\d+)?\s?{_SCALE}{_UNIT}\b(?![.-]\w)",
    re.I,
)
#: the asker's situation told as an estimate, a machine's size or a date ("roughly 50 million
#: rows a day", "about 20 million ids", "~40 machines", "on a 4-vCPU VM", "a row dated
#: 2100"): how much and when for them. Documentation states ranges and the sizes it
#: recommends, not the asker's value, so these are no terms of the question; an amount the
#: asker asks for ("cap the cache at 512MB", "time out after 30 seconds") still is, and so is a
#: clock time: "only sync between 1am and 6am" is the window they want, which the docs must
#: offer.
_SITUATION = re.compile(
    r"(?:\b(?:about|around|roughly|approximately|nearly|almost)\s+|(?<![\w=~/.])~\s?)"
    r"\d+(?:[.,]\d+)?"
    rf"(?:\s?{_SCALE}{_UNIT}\b|\s(?:thousand|million|billion)\b)?"
    rf"|\b(?:a|an|my|our|one|each)\s+\d+(?:[.,]\d+)?-?{_UNIT}(?=[\s-])"
    r"|\b(?:dated|timestamped)\s+\d[\d-]*|\b\d{4}-\d{2}-\d{2}(?:[T ][\d:.]+Z?)?\b",
    re.I,
)
#: the asker's rough count ("a few hundred KB/s", "thousands of files"): an estimate, not a
#: topic; "per million events" is a unit the docs must price, so it stays
_ROUGH = re.compile(
    r"\b(?:(?:a\s+)?few|several|some|many|a)\s+(?:dozen|hundred|thousand|million)\b"
    r"|\b(?:dozens|hundreds|thousands|millions)\b",
    re.I,
)
#: a unit of size written on its own ("is that number in MB or KB?"): documentation spells it
#: out ("in kilobytes") as often as it writes the symbol, so it is asked as its word, not as a
#: name the passage must write. After a number ("10MB") it is an amount, left as written.
_SIZE_UNIT = re.compile(r"(?<![\w.])([kmgtp])i?b(?![\w/])", re.I)
_SIZE_WORDS = {
    "k": "kilobytes",
    "m": "megabytes",
    "g": "gigabytes",
    "t": "terabytes",
    "p": "petabytes",
}
#: a time of day ("7:30am", "2 pm"): the docs must state one (``TIME``), in their own way
#: ("7:30 a.m.", "midnight", a cron line), never the asker's "30am"
_CLOCK = re.compile(r"\b\d{1,2}(?::\d{2})?\s?[ap]\.?m\b\.?", re.I)
#: where something is to go, or what it is measured against ("deploy the site *to heroku*",
#: "moving from redis *to valkey*", "faster *than turbopack*", "celery *vs dramatiq*"): a
#: name, though written in lower case, that documentation covering it would write
_DESTINATION = re.compile(
    r"\b(?:(?:deploy|publish|push|ship|send|upload|report|mov|migrat|switch|forward|export"
    r"|stream|connect|integrat|hook|plug|port)\w*\b(?:\s+[\w'.-]+){0,6}?\s+(?:to|into|onto|with)"
    r"|(?:faster|slower|better|worse|lighter|heavier|quicker|simpler|easier|cheaper|smaller)"
    r"\b(?:\s+[\w'.-]+){0,5}?\s+than|vs\.?|versus|compared\s+(?:to|with)"
    r"|get(?=\s+[a-z]+\s+to\s+[a-z])|(?:work|run)\w*\s+under"
    r"|(?:configure|install|enable)(?=\s+[a-z][\w.-]*\s+(?:so|to|for|with|in|on|inside)\b)"
    # "through consul", "via squid": a named go-between ("through a tunnel" is a kind of one)
    r"|(?:through|via)(?=\s+(?!(?:a|an|the|our|my|their|its|this|that|some|any)\b)[a-z]))"
    r"\s+(?:(?:a|an|the|our|my|their)\s+)?(?P<name>[a-z][a-z0-9]*(?:[.-][a-z0-9]+)*)\b(?![.-]\w)"
    # what the asker wants instead of something ("through consul instead of a routes list"),
    # and a word they put in parentheses ("an http proxy (squid)"): the things they name
    r"|(?<![\w.-])(?P<alternative>[a-z][a-z0-9]*(?:[.-][a-z0-9]+)*)\s+(?:instead\s+of|rather\s+than)\b"
    r"|\((?P<aside>[a-z][a-z0-9]*(?:[.-][a-z0-9]+)*)\)"
)
#: a quoted message of this many terms or more is matched by most of its terms, not all: the
#: docs name the error ("MySQL is throwing deadlock errors") more often than they print it
QUOTE_TERMS = 3
#: the plural of a status code ("our CDN doesn't like 404s"): the code itself
_CODES = re.compile(r"\b([1-5]\d\d)s\b")
#: an HTTP error status the asker got or wants ("gives a 404", "it 404s", "with a 413"): docs
#: say what happens ("not found", "too large") more often than they print the code, so it is
#: one of the question's words, not a number the passage must state; "500 kilobytes" is a size
_HTTP_ERROR = re.compile(r"\b(?:4(?:0\d|1[0-8]|2[1-689]|31|51)|50\d|51[01])\b(?!\s*[\w.]*bytes\b)")
#: a percentile written as a latency dashboard names it ("p95", "p99.9"): which percentile the
#: asker wants is their pick, and the docs say how to compute any percentile ("the 90th")
_PERCENTILE = re.compile(r"\b[pP]\d{2}(?:\.\d+)?\b")
#: the value the asker says they gave a setting ("I set retention to 7d", "we changed the
#: timeout to 30s"): their configuration, not a value the docs must state
_SET_TO = re.compile(
    r"(?<!\bcan )(?<!\bcould )(?<!\bshould )(?<!\bdo )(?<!\bhow )(?<!\bwould )(?<!\bshall )"
    r"(?<!\bmay )(?<!\bmust )\b(?:I|we)(?:'ve|\s+have)?\s+(?:already\s+)?"
    r"(?:set|changed|configured|raised|lowered)\b"
    r"[^.?!;\n]{0,40}?\bto\s+(?P<value>[\w.:/-]*\d[\w.:/-]*)",
    re.I,
)
#: a value the asker would give a setting ("can we bump it to like 100MB?", "can I set the
#: retention to 7d?"): the docs answer with the setting's limit or default, seldom with the
#: asker's own value, so they must state an amount (``AMOUNT``) rather than that value
_PROPOSED = re.compile(
    r"\b(?:set|change|bump|raise|increase|lower|decrease|reduce|up|crank)"
    r"(?:s|d|ed|es|ing|ting|ped|ping)?\b"
    r"[^.?!;\n]{0,40}?\bto\s+(?:(?:like|about|around|maybe|say|something\s+like)\s+)?"
    r"(?P<value>[\w.:/-]*\d[\w.:/-]*)",
    re.I,
)
#: a value the asker offers to have checked ("what's a valid post filename, is
#: 2023-1-5-hello.md ok?"): the docs state the rule it must follow, not the asker's value
_CANDIDATE = re.compile(
    r"\b(?:is|are|would|will)\s+(?P<value>[\w.:/-]*\d[\w.:/-]*)\s+(?:be\s+)?"
    r"(?:ok|okay|fine|valid|allowed|correct|right|legal|acceptable|accepted)\b",
    re.I,
)
#: a question whether something can be done: it opens with "can", "could", "does", "do" or
#: "did" ("can I …?", "does it …?"), perhaps after "and" or "so" in a thread. Not "is it safe
#: to …?" or "will it …?", which ask for a judgement or a behaviour the docs state, nor a
#: question that first tells the asker's situation ("disk is full, can I …?"), which asks
#: what to do about it
_CAPABILITY = re.compile(
    r"^\W*(?:(?:and|so|ok|okay|but|also)\b\W*)?(?:can|could|does|do|did)\b", re.I
)
_AMOUNT_ASKED = re.compile(
    r"\bhow (?:many|much|long|big|large|often|old)\b"
    r"|\b(?:what|which) (?:size|number)\b"
    r"|\bis there (?:a|any) (?:limit|maximum|max|minimum|cap)\b"
    r"|\b(?:limit|maximum|minimum|cap) (?:on|of|for|to) (?:how|the number)\b"
    # "what's the most columns …", "what is the longest name …" (not "the most common way")
    r"|\bwhat(?:'s|\s+is|\s+are)\s+the\s+(?:most|fewest)\s+(?!\w+ous\b)\w+s\b"
    r"|\bwhat(?:'s|\s+is|\s+are)\s+the\s+(?:max|maximum|minimum|largest|biggest|longest"
    r"|highest|lowest|smallest)\b",
    re.I,
)
#: the thing an amount is asked of: "how many *threads*", "the most *columns*", "how much
#: *memory*" (not a comparative: "how much slower"), and the word after it, which may be the
#: noun it describes ("how many *old values*", "how many *unacked messages*")
_COUNTED = re.compile(
    r"\b(?:how\s+(?:many|much)|the\s+(?:most|fewest)|(?:number|count|amount)\s+of)\s+"
    r"(?P<thing>(?!\w+er\b)\w+(?:\s+\w+)?)",
    re.I,
)
#: what no passage may lack when the question asks for an amount (see
#: ``pipeline.evidence.Evidence.missing``)
AMOUNT = "<amount>"
#: what no passage may lack when the question names a time of day: "only sync between 1am
#: and 6am" is a window the docs must offer
TIME = "<time>"
#: a question when a release comes ("when is 6.0 going to be released?", "when will the next
#: version be out?"): the docs must state a date (``DATE``). Not "when was the flag added?",
#: which a version answers ("new in 1.1")
_WHEN_RELEASED = re.compile(
    r"\bwhen\b(?=[^?!\n]{0,60}?(?<![\w.])v?\d+\.\d+|[^?!\n]{0,60}?\b(?:next|new|upcoming"
    r"|coming)\s+(?:major\s+|minor\s+|stable\s+)?(?:release|version)\b"
    # a name's next major version ("jekyll 5", "django v6")
    r"|[^?!\n]{0,60}?\b(?!(?:will|would|is|are|was|were|be|do|does|did|the|my|our|have|has"
    r"|with|to|of|for|in|on|at|by|after|before|about|under|over|than|every|all)\s)"
    r"[a-z][\w-]*\s+v?\d{1,2}(?![\w.]))"
    r"[^?!\n]{0,80}?\b(?:released?|releasing|out|ship(?:ped|ping)?|available|final"
    r"|land(?:s|ed)?)\b",
    re.I,
)
#: what no passage may lack when the question asks when a release comes
DATE = "<date>"
#: a question what something costs ("how much does an Enterprise license cost per year?"):
#: the docs must state a price (``PRICE``), not just any amount
_PRICE_ASKED = re.compile(
    r"\bhow\s+much\b[^?.!\n]*\b(?:cost|costs|charge|charges|pay|price[ds]?)\b"
    r"|\b(?:price|pricing|cost)\s+(?:of|for)\b",
    re.I,
)
#: what no passage may lack when the question asks what something costs
PRICE = "<price>"
#: a major version the asker writes ("v3"): a number the passage must have
#: (:data:`pipeline.evidence._MAJOR`), not a name the documents must write
_VERSION = re.compile(re.escape(EXACT) + r"v\d+")


#: the kinds that are made things, which the docs name by what they do: "is there a tool *to
#: convert nginx configs*" asks for something that converts nginx configs
_ARTIFACTS = frozenset(
    terms("tool utility plugin extension package library module integration script helper")
)
#: words that say what kind of thing is asked for, or how good, not which ("a tool to …", "a
#: command", "a guide", "an official …", "a quick way"): documentation names the thing itself,
#: seldom its kind. A way, a setting or an option asks how to do something, a guide or an example
#: asks for a page about something, and a limit or a maximum asks how much (``AMOUNT``): if these
#: are all the thing's name says, there is no thing to look for.
_KINDS = _ARTIFACTS | frozenset(
    terms(
        "setting option flag command config configuration knob switch toggle feature mode "
        "support place "
        "guide tutorial example sample documentation docs doc page article reference recipe "
        "walkthrough workaround fix solution alternative approach method recommendation practice "
        "shortcut trick hack "
        "limit max maximum minimum cap "
        "builtin native official existing proper recommended standard dedicated separate special "
        "automatic simple easy fast light lightweight small minimal good better quick"
    )
)


@dataclass(frozen=True, slots=True)
class Asked:
    """A question's content terms, which of them it writes as names, and its must-match
    terms (``AMOUNT`` among them when it asks for an amount)."""

    terms: tuple[str, ...]
    names: frozenset[str] = frozenset()
    musts: tuple[str, ...] = ()
    #: the names the asker wrote with a capital or a digit ("Sanic", "S3")
    spelled: frozenset[str] = frozenset()
    #: those written as code, with an underscore (``log_level``): the passage must have them
    identifiers: frozenset[str] = frozenset()
    #: those written as capitalised words ("Docker", "Jenkins"), not as code names or
    #: acronyms: the documents' prose must write them (:meth:`pipeline.evidence.Lexicon.in_prose`).
    #: An acronym ("URL", "CI") is a word of the trade that code writes (a ``url:`` key) as
    #: often as prose: that a chunk has it is enough.
    plain: frozenset[str] = frozenset()
    #: those that are names by their place in the question, though written in lower case
    #: ("deploy it *to heroku*", "through *consul* instead of …"): a word the docs derive from
    #: the same root ("expiry": "expires") is a paraphrase of theirs, not a name
    placed: frozenset[str] = frozenset()
    #: the names the asker wrote in backticks: code may name them
    coded: frozenset[str] = frozenset()
    #: the stems of each word the asker joins with hyphens (``cargo-nextest``)
    hyphenated: frozenset[tuple[str, ...]] = frozenset()
    #: the terms of each message the asker quotes ("Deadlock found when trying to get lock"),
    #: of three terms or more: most of them, not all, must be in the passage
    quoted: tuple[tuple[str, ...], ...] = ()
    #: what the question asks an amount of ("how many *threads*", "how many *old values*"),
    #: when it names it: a passage that states an amount names one of these words
    counted: tuple[str, ...] = ()
    #: the terms of the thing the question asks about (:func:`pipeline.things.named`): "is
    #: there an official Helm chart …" needs a passage that names the Helm chart
    thing: tuple[str, ...] = ()


def asked(
    question: str, *, own: str | None = None, vocabulary: Collection[str] | None = None
) -> Asked:
    """The terms of ``question``, with the documentation's words for its chat phrasings
    (:mod:`citations.phrasings`), which are never must-match terms. Must-match terms, and
    the words the embedder cannot read (``vocabulary``: its whole-word tokens, lower-case,
    when known), come from ``own`` (the asker's words, when ``question`` was condensed with
    a thread's history), else from ``question``: a word the condensing added ("undo" →
    "revoke") is not the asker's name.

    A word written as a name is kept as written (:func:`spelled_as`) and matches only
    itself: "PyPy" is not "PyPI", and ``log_level`` is not ``add_log_level``."""
    clock = _CLOCK.search(question if own is None else own) is not None
    question = _situation(question)
    names = _names(question)
    wanted = tuple(dict.fromkeys([*_asked_terms(question), *phrased_terms(question)]))
    mine = _NEGATED.sub(_unnamed, question if own is None else _situation(own))
    mine = _CANDIDATE.sub(_unset, _SET_TO.sub(_unset, _HAD.sub(" ", mine)))
    proposed = _PROPOSED.search(mine) is not None
    mine = _PROPOSED.sub(_unset, mine)
    if vocabulary:
        names |= _unreadable(mine, vocabulary)
    placed = _destinations(mine)
    musts = _musts(mine)
    return Asked(
        terms=wanted,
        placed=placed,
        names=names,
        musts=musts
        + ((AMOUNT,) if proposed and AMOUNT not in musts else ())
        + ((TIME,) if clock else ())
        + ((DATE,) if _WHEN_RELEASED.search(mine) else ())
        + ((PRICE,) if _PRICE_ASKED.search(mine) else ()),
        quoted=_quotes(mine),
        spelled=frozenset(n for n in _names(mine) if not _VERSION.fullmatch(n))
        | placed
        | _hyphenated_thing(mine)
        | _name_phrases(mine)
        | dotted_names(mine),
        identifiers=_names(mine, identifiers=True),
        coded=frozenset(spellings_of(" ".join(m[1] for m in _QUOTED.finditer(mine) if m[1]))),
        hyphenated=_hyphenated(mine),
        plain=frozenset(
            spelled_as(w)
            for w, name in words_as_written(mine)
            if name and w.isalpha() and w[1:].islower()
        ),
        counted=_counted(mine),
        thing=_thing(mine),
    )


def asks_capability(question: str) -> bool:
    """Whether ``question`` asks whether something can be done (:data:`_CAPABILITY`)."""
    return _CAPABILITY.match(question) is not None


def _thing(text: str) -> tuple[str, ...]:
    """The terms of the thing ``text`` asks about (:func:`pipeline.things.named`), but for the
    words that only say what kind of thing it is (:data:`_KINDS`): when that is all its name
    says, those of what the kind is for, and of what a made thing (:data:`_ARTIFACTS`) does."""
    found = named(text)
    if found is None:
        return ()
    own = _unkinded(found.name)
    if own:
        return tuple(dict.fromkeys(own))
    what = _unkinded(found.of)
    if not _ARTIFACTS.isdisjoint(_asked_terms(found.name)):
        what += _unkinded(found.purpose)
    return tuple(dict.fromkeys(what))


def _unkinded(words: str) -> list[str]:
    """The terms of ``words`` (:func:`_asked_terms`) that are not a kind's (:data:`_KINDS`)."""
    return [t for t in _asked_terms(words) if t not in _KINDS]


def _counted(text: str) -> tuple[str, ...]:
    """The stems of what ``text`` asks an amount of (:data:`_COUNTED`), its content words."""
    match = _COUNTED.search(text)
    return tuple(dict.fromkeys(terms(match["thing"]))) if match else ()


def _situation(text: str) -> str:
    """``text`` without the asker's own data (values assigned in their code, rough counts,
    estimates, clock times and dates: :data:`_SITUATION`), a status code's plural as the
    code, and a percentile's short name as the word."""
    text = _SITUATION.sub(" ", _ROUGH.sub(" ", _ASSIGNED.sub(" ", text)))
    text = _CLOCK.sub(" ", text)
    quotes = [m.span() for m in _QUOTED.finditer(text)]
    text = _SIZE_UNIT.sub(
        lambda m: m[0] if any(a <= m.start() < b for a, b in quotes) else _SIZE_WORDS[m[1].lower()],
        text,
    )
    return _PERCENTILE.sub("percentile", _CODES.sub(r"\1", text))


def _unset(match: re.Match[str]) -> str:
    """A setting's value the asker gave or would give (:data:`_SET_TO`, :data:`_PROPOSED`),
    or offers to have checked (:data:`_CANDIDATE`), taken out of what must match."""
    return match[0][: match.start("value") - match.start()]


def _unnamed(match: re.Match[str]) -> str:
    """A negated name (:data:`_NEGATED`) lower-cased and its joins spaced, so that it is no
    name, number or file the passage must have: ``not __version__`` keeps "version"."""
    start = match.start("name") - match.start()
    return match[0][:start] + re.sub(r"[\W_\d]+", " ", match["name"]).lower()


def _asked_terms(text: str) -> Iterable[str]:
    for raw, name in words_as_written(text):
        if name:
            yield spelled_as(raw)
        else:
            yield from terms(raw)


def _name_phrases(text: str) -> frozenset[str]:
    """The names of several words that ``text`` writes ("Read the Docs", "GitLab CI"): two or
    more words in a row written as names (:func:`words_as_written`), "the" or "of" between
    them. Each of its words may be known and the name not ("Read", "Docs"): the docs name it
    only if they write its words together."""
    found: set[str] = set()
    run: list[str] = []

    def close() -> None:
        while run and run[-1] in _NAME_LINKS:
            run.pop()
        if sum(w not in _NAME_LINKS for w in run) >= 2:
            found.add(PHRASE + " ".join(run))
        run.clear()

    start = True
    for raw in text.split():
        words = TOKEN.findall(raw)
        word = words[0] if len(words) == 1 else ""
        named = (
            len(word) > 1
            and word.isalpha()
            and (any(c.isupper() for c in word[1:]) or (not start and word[0].isupper()))
        )
        if named or (run and word.lower() in _NAME_LINKS):
            run.append(word.lower())
        else:
            close()
        if not raw[-1].isalnum():
            close()
        start = bool(SENTENCE_END.search(raw))
    close()
    return frozenset(found)


def _identifier(word: str) -> bool:
    """Whether ``word`` is written as only code writes names: ``log_level``, ``_record``.
    CamelCase is not enough: brands are written so too ("FastAPI", "GitHub"), and a question
    names them as its setting ("my FastAPI app") as often as what it asks about."""
    return "_" in word


def _unreadable(text: str, vocabulary: Collection[str]) -> frozenset[str]:
    """Stems of the words that neither are, nor inflect, a token of ``vocabulary``."""
    found: set[str] = set()
    for word in WORD.findall(text.lower()):
        if len(word) < 2 or word in STOP or word.isdigit():
            continue
        if not readable(word, vocabulary):
            found.add(stem(word))
    return frozenset(found)


def readable(
    word: str, vocabulary: Collection[str], *, prefixed: bool = True, derived: bool = True
) -> bool:
    """Whether ``word`` (lower case) is, or inflects, a whole-word token of ``vocabulary``;
    ``prefixed``: or does so after an "un", "re" or "non" ("uncompressed"); ``derived``: or
    is one with "-er" or "-ly" ("spoofer", "quickly")."""
    bases = _bases(word, prefixed=prefixed, derived=derived)
    return any(base in vocabulary for base in bases)


def _bases(word: str, *, prefixed: bool = True, derived: bool = True) -> set[str]:
    """``word`` and what it may be an inflection of ("shuts", "spoofed", "uncompressed"), in
    either spelling ("optimisations")."""
    spellings = {word, american(word)}
    bases = set(spellings)
    for suffix, repl in _INFLECTIONS + (_DERIVATIONS if derived else ()):
        bases.update(
            w[: len(w) - len(suffix)] + repl
            for w in spellings
            if w.endswith(suffix) and len(w) - len(suffix) >= 3
        )
    for prefix in ("un", "re", "non") if prefixed else ():
        bases.update(
            b[len(prefix) :]
            for b in list(bases)
            if b.startswith(prefix) and len(b) > len(prefix) + 3
        )
    return bases


_INFLECTIONS = (
    ("s", ""),
    ("es", ""),
    ("ies", "y"),
    ("ied", "y"),
    ("ed", ""),
    ("ed", "e"),
    ("d", ""),
    ("ing", ""),
    ("ing", "e"),
)
_DERIVATIONS = (("er", ""), ("ly", ""))


def _names(text: str, *, identifiers: bool = False) -> frozenset[str]:
    """The terms (:func:`spelled_as`) of the words written as names (only those written as
    code identifiers, with ``identifiers``)."""
    return frozenset(
        spelled_as(word)
        for word, name in words_as_written(text)
        if name and (not identifiers or _identifier(word))
    )


def _destinations(text: str) -> frozenset[str]:
    """The words where something is to go or what it is measured against (:data:`_DESTINATION`),
    as names: "heroku" is one, though the asker writes it in lower case."""
    found = (m["name"] or m["alternative"] or m["aside"] for m in _DESTINATION.finditer(text))
    return frozenset(
        (FOLDED + singular(name) if name.isalpha() else EXACT + name)
        for name in found
        # "copied as-is instead of compiled": words of the language, not a name
        if len(name) > 2 and not all(part in STOP_FORMS for part in re.split(r"[.-]", name))
    )


def _hyphenated(text: str) -> frozenset[tuple[str, ...]]:
    """The stems of each word joined by hyphens (``cargo-nextest``), but for small words; one
    with a number in it names a version (``jekyll-3.4.3`` in a pasted path), not a tool."""
    return frozenset(
        parts
        for m in _HYPHENATED.finditer(text)
        if not any(w.isdigit() for w in m[0].split("-"))
        if (parts := tuple(stem(w) for w in m[0].split("-") if w.lower() not in STOP))
    )


def _hyphenated_thing(text: str) -> frozenset[str]:
    """The words joined by hyphens in the name of the thing ``text`` asks about
    ("does it support *styled-components* with SSR?"), as a name of several words: the docs
    name the thing where they write them together."""
    found = named(text)
    if found is None:
        return frozenset()
    return frozenset(
        PHRASE + " ".join(m[0].lower().split("-")) for m in _HYPHENATED.finditer(found.name)
    )


def _quoted_terms(text: str) -> Iterable[list[str]]:
    """The terms of each name or message ``text`` quotes."""
    for match in _QUOTED.finditer(text):
        yield terms(next(g for g in match.groups() if g is not None))


def _quotes(text: str) -> tuple[tuple[str, ...], ...]:
    """The terms of each quoted message of ``QUOTE_TERMS`` terms or more."""
    return tuple(tuple(dict.fromkeys(q)) for q in _quoted_terms(text) if len(q) >= QUOTE_TERMS)


def _release_line(release: str) -> str:
    """The release line a dotted number names, up to its first part of two digits or more:
    "2.10" (not any "10"), "2026" of "2026.1.0"; "" for one of single digits ("1.2", which
    asks for no number: "VersionTLS12" states it)."""
    parts = release.split(".")
    end = next((i for i, part in enumerate(parts) if len(part) > 1), None)
    return "" if end is None else ".".join(parts[: end + 1])


def _musts(text: str) -> tuple[str, ...]:
    """Numbers of two or more characters (``30``, ``v1``, ``1,000``) but HTTP error statuses
    (:data:`_HTTP_ERROR`), a dotted release as its line (:func:`_release_line`), and quoted
    names' terms."""
    found: list[str] = []

    def release(m: re.Match[str]) -> str:
        # taken whole, so its parts are no numbers of their own
        line = _release_line(m[1])
        if line:
            found.append(line)
        return " " if line else m[0]

    text = DOTTED_NUMBER.sub(release, THOUSANDS.sub("", text))
    statuses = {m.span() for m in _HTTP_ERROR.finditer(text)}
    found += [
        m[0].lower()
        for m in WORD.finditer(text)
        if len(m[0]) > 1 and any(c.isdigit() for c in m[0]) and m.span() not in statuses
    ]
    for quoted in _quoted_terms(text):
        if len(quoted) < QUOTE_TERMS:
            found.extend(quoted)
    if _AMOUNT_ASKED.search(text):
        found.append(AMOUNT)
    return tuple(dict.fromkeys(found))
