"""Lexical evidence that a passage answers a question, beyond "its embedding is close".

An embedding says a passage is *on the topic*; it cannot say that the passage
mentions what the question is about. Two signals can:

- **coverage**: the share of the question's content terms, each weighted by its
  inverse document frequency (IDF) in the knowledge base, that the passage
  contains. Terms found only in the passage's code count half: code supports an
  answer but is not prose that states it.
- **unknown share**: the weight of the question's terms that *no* chunk of the
  knowledge base contains. A question about "Cloud Run" where no chunk says
  "cloud" is not answerable from it, however close an embedding comes. A word the
  question writes as a name (capitalised inside a sentence, an acronym, or with a
  digit: "Redis", "YAML", "S3") weighs in full, and so does a word the embedder cannot
  read as one of its own tokens ("async", "paginate": the model sees word pieces, so a
  close embedding says nothing about it). An everyday word that no chunk uses ("avoid",
  "lost") is more often a paraphrase, so it weighs ``evidence_word_factor`` of that.
- **must-match terms**: numbers ("30 seconds", "/v1") and quoted names (`"Cloud Run"`,
  `` `max_age` ``) name exactly what is asked. A passage that lacks one cannot carry the
  answer, whatever else it shares with the question (:attr:`Evidence.carries`): the
  knowledge base answers only when a passage that has them all reaches the threshold,
  and that passage is cited first; others may then add sentences. This is judged per
  passage, not over the store as a whole, and only the asker's own words count, not a
  thread's history.
- **unknown names**: a name the asker writes (a capital inside a sentence, or a digit:
  "Sanic", "Datadog") that no chunk of the knowledge base contains leaves every passage
  without it, as a missing number does: the knowledge base is not about that thing, however
  close an embedding comes (on a corpus all about one library every passage grades high).
  A name is matched as written, case aside, never through the stemmer: "PyPy" is not
  "PyPI" (a capitalised word may still be plural: "Task" finds "tasks"). One written as code, with an underscore (``log_level``, ``_record``), must be in
  the passage itself: a passage about log levels
  does not answer a question about ``LOG_LEVEL`` because an example elsewhere prints a
  ``log_level`` key. The docs' own subject (a name in ``evidence_subject_share`` of the
  chunks) is exempt. Capitalised words and acronyms ("React", "API") need only be known:
  prose writes them in passing, and an answer need not repeat them. A name of several words
  ("Read the Docs", "GitLab CI") is known only where a chunk writes its words together: each
  word may be common ("read", "docs"). A name written as one word is also known as the same
  words joined in a compound ("TestPyPI": ``test.pypi.org``), and an identifier names each
  of its words (``PYTHON_VARIANT_GIL``: the GIL). A file name or extension with a leading dot
  (``.env``, ``*.so``) is a name, whatever its case. A value the asker assigns in their own
  code (``BUILD = 'b1.2.3'``) is their data, not a name; so is a name they say they do not use
  ("and not ``__version__``", "instead of Poetry", "rather than", "other than": it still counts
  as a term, but no passage must have it), and an amount they say they have ("my pi has 512MB
  of RAM", "we have 2 TB"): their situation, which the docs do not state. Their estimates,
  their machine's size and their dates ("roughly 50 million rows a day", "on a 4-vCPU VM", "a
  row dated 2100") are no terms of the question at all: the docs give ranges and recommended
  sizes, not the asker's value. A name written as a word ("Docker",
  "Jenkins") is known only where the docs' prose writes it (a heading, a sentence, a table or
  inline code): one that only a code block has (``docker:`` as a key of a CI example) is in
  an example, not a subject the docs cover, unless the asker writes it as code too. The
  docs' subject (their most common term) joined by a hyphen to a word no chunk has
  (``cargo-nextest``, ``pytest-xdist``) names a tool of its ecosystem, as such tools are
  named: documents that never write that word have nothing about it.
- **links**: a chunk's words, for the statistics and for the passage alike, are its words as
  read: a link is its text, not its target (a page that links to ``…/nox-poetry`` says nothing
  about Poetry), and a mkdocstrings listing's options (its member names) are code. A name
  written as a word that only links' texts give ("our Community Slack") is where the docs
  point, not a subject their prose covers.
- **amounts**: a question that asks for an amount ("how many", "how long", "is there a
  limit", "what's the most columns …", "what is the longest …") is carried only by a passage
  whose prose states one (a number, or words such as "unlimited" or "twice") in a paragraph
  or list item that names something the question names, the thing counted when the question
  says it ("how many *threads*"), and not as the asker's own word ("a *single* table"). A passage about the thing, with no amount, does not answer how much of it there
  may be, nor does "these two methods" say how many stack frames a traceback keeps.
- **things**: a question that asks whether there is a thing ("is there an official Helm chart
  to install it?", "does it support the transactional outbox pattern?") is carried only by a
  passage that names most of that thing (``evidence_thing_share`` of its IDF-weighted terms,
  up to where its name ends: "an official Helm chart"). Documentation says what exists and
  seldom what does not, so a passage that shares the rest of the question ("install",
  "Prometheus") without naming the thing cannot say there is one. Words that only say what
  kind of thing it is, or how good ("a tool", "a guide", "an official", "a quick", "built-in"),
  need not be named, but what they are for is the thing ("is there support *for websockets*",
  "a plugin *for Grafana*"); "is there a way / a setting / an option …" asks how to do
  something, and "is there a limit …" how much. So is a question how to run, install or use
  something *as* a thing ("run it as a Windows service", "register it as a Jupyter kernel"),
  or which thing is recommended ("what's the recommended Authelia setup …"): docs that
  support or recommend it name it.

Terms are lower-cased words without stop words (the asker's rough count, "a few hundred",
"thousands of files", is dropped too: an estimate, not a topic; "per million" stays), cut to a crude stem so that
"cookie" finds "cookies" and "paginate" finds "pagination", and spelt the American way
("optimisation" finds "optimization"); names keep their spelling.

A passage's **support** is ``grade + 0.5 * coverage - 0.7 * unknown``; the knowledge
base answers only when its best carrying passage reaches 0.84 (``PipelineSettings.evidence_*``). Fitted on
``tests/devset`` (Starlette's docs, 252 chunks) and checked on ``tests/devset2`` (Click's
docs) and the bundled samples; no threshold on the grade alone separated answerable
from uncovered questions (uncovered ones graded up to 0.94, answerable ones down to
0.77). Passages within 0.1 of the threshold also contribute sentences. An LLM grader's grade is used as it is; the
evidence then only settles an ambiguous grade when the web cannot be asked.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import math
import re
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from citations.spelling import american
from pipeline.ports import Corpus
from pipeline.text import FENCED as _FENCE
from pipeline.text import linkless, unlinked
from pipeline.things import named

log = logging.getLogger("citebot.pipeline.evidence")

_WORD = re.compile(r"[^\W_]+")
#: a word as written, identifiers whole: ``log_level``, ``_record``, ``PyPy``
_TOKEN = re.compile(r"\w+")
# mkdocstrings directives (with their indented options: member lists) and admonition
# titles: API listings, not prose
_LISTING = re.compile(
    r"^[ \t]*(?::::[ \t]+[\w.]+[ \t]*(?:\n[ \t]+\S.*)*|(?::::|\?\?\?|!!!).*)$", re.M
)
#: words joined into one compound by dots, hyphens, slashes or underscores: ``test.pypi.org``
_COMPOUND = re.compile(r"\w+(?:[./_-]\w+)+")
#: a file name that starts with a dot, or an extension: ``.env``, ``.gitignore``, ``*.so``
_DOTTED_NAME = re.compile(r"(?<![\w.])\.[^\W_][\w-]*")
#: words joined by hyphens, as tools and plugins are named: ``cargo-nextest``, ``pytest-xdist``
_HYPHENATED = re.compile(r"(?<![\w.-])[^\W\d_]+(?:-[^\W_]+)+(?![\w-])")
#: small words inside a name of several words: "Read the Docs", "Bank of Italy"
_NAME_LINKS = frozenset({"the", "of"})
#: an acronym's plural, its "s" in lower case: "IDEs" (but "HTTPS" is another acronym)
_ACRONYM_PLURAL = re.compile(r"\b(?P<acronym>[A-Z][A-Z0-9]*[A-Z])s\b")
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
#: rows a day", "about 20 million ids", "on a 4-vCPU VM", "a row dated 2100"): how much and
#: when for them. Documentation states ranges and the sizes it recommends, not the asker's
#: value, so these are no terms of the question; an amount the asker asks for ("cap the cache
#: at 512MB", "time out after 30 seconds") still is, and so is a clock time: "only sync
#: between 1am and 6am" is the window they want, which the docs must offer.
_SITUATION = re.compile(
    r"\b(?:about|around|roughly|approximately|nearly|almost)\s+\d+(?:[.,]\d+)?"
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
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}\b)")
#: the plural of a status code ("our CDN doesn't like 404s"): the code itself
_CODES = re.compile(r"\b([1-5]\d\d)s\b")
#: a percentile written as a latency dashboard names it ("p95", "p99.9"): which percentile the
#: asker wants is their pick, and the docs say how to compute any percentile ("the 90th")
_PERCENTILE = re.compile(r"\b[pP]\d{2}(?:\.\d+)?\b")
#: a major version as a release names it ("3.0", "3.x", "Prometheus v3.9"): what the asker
#: calls "v3"
_MAJOR = re.compile(r"(?<![\w.])v?(\d+)\.(?:x\b|\d)")
#: the value the asker says they gave a setting ("I set retention to 7d", "we changed the
#: timeout to 30s"): their configuration, not a value the docs must state
_SET_TO = re.compile(
    r"(?<!\bcan )(?<!\bcould )(?<!\bshould )(?<!\bdo )(?<!\bhow )(?<!\bwould )(?<!\bshall )"
    r"(?<!\bmay )(?<!\bmust )\b(?:I|we)(?:'ve|\s+have)?\s+(?:already\s+)?"
    r"(?:set|changed|configured|raised|lowered)\b"
    r"[^.?!;\n]{0,40}?\bto\s+(?P<value>[\w.:/-]*\d[\w.:/-]*)",
    re.I,
)
_SENTENCE_END = re.compile(r"[.?!:;]$")
#: paragraphs and list items: "Defaults to `500`." follows what it is the default of
_BLOCK = re.compile(r"\n[ \t]*\n|\n(?=[ \t]*(?:[*+-]|\d+[.)])[ \t])")
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
_AMOUNT_STATED = re.compile(
    r"\d|\b(?:zero|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty"
    r"|forty|fifty|sixty|hundreds?|thousands?|millions?|once|twice|unlimited|infinite"
    r"|no (?:limit|maximum)|any number|as many|single|double|half|dozens?)\b",
    re.I,
)
#: the thing an amount is asked of: "how many *threads*", "the most *columns*", "how much
#: *memory*" (not a comparative: "how much slower")
_COUNTED = re.compile(
    r"\b(?:how\s+(?:many|much)|the\s+(?:most|fewest)|(?:number|count|amount)\s+of)\s+"
    r"(?P<thing>(?!\w+er\b)\w+)",
    re.I,
)
#: what no passage may lack when the question asks for an amount (see ``Evidence.missing``)
AMOUNT = "<amount>"
#: what no passage may lack when the question asks whether a thing exists, or how to run
#: something as one (``Evidence.missing``)
THING = "<thing>"
#: the share of the thing's (IDF-weighted) terms a passage must name to speak of it
#: (``PipelineSettings.evidence_thing_share``)
THING_SHARE = 0.5
#: a name that this share of the chunks have is the documents' subject, not a detail
#: (``PipelineSettings.evidence_subject_share``)
SUBJECT_SHARE = 0.2
#: marks a term that matches only as written (see :func:`spelled_as`); no stem has it
EXACT = "="
#: marks a term that matches as written, or as its plural
FOLDED = "~"
#: marks a name of several words ("Read the Docs"), known only where the docs write it so
PHRASE = '"'
#: a major version the asker writes ("v3"): a number the passage must have (:data:`_MAJOR`),
#: not a name the documents must write
_VERSION = re.compile(re.escape(EXACT) + r"v\d+")

_STOP_WORDS = """
    a about above after again against all also am an and any anything are as at away
    be because been before being below best between both but by can cannot could did do
    does doing done down during each either else even ever every few for from further
    get gets getting go goes going got had has have having he her here hers him his how
    however i if in instead into is it its itself just keep kind know let like ll lot m
    make makes making may me might mine more most much must my myself need needs no nor
    not now of off ok okay on once one only or other our ours out over own please put
    quite rather re really right s same say see shall she should so some something still
    such sure t than that the their theirs them then there these they thing things this
    those through thus to too try trying under until up upon us use used uses using ve
    very want wants was way ways we well were what whats when where whether which while
    who whom whose why will with within without would yes yet you your yours d don doesn
    isn aren wasn weren won wouldn shouldn couldn didn hasn haven hadn let s anyone
    someone everyone somebody tell give show find work works long many happen happens
    back end ends ever able possible okay thanks hi hello
"""
STOP = frozenset(_STOP_WORDS.split())


# English verbs whose past forms no suffix rule reaches ("wrote" for "write"): a question
# tells what happened ("the request I sent", "I only wrote a get method"), the docs say
# what to do. Forms that are common words of their own ("bit", "saw", "found", and "given":
# "the given path") stay out.
_IRREGULAR_VERBS = """
    write wrote written rewrote rewritten | run ran | send sent | take took taken
    throw threw thrown | begin began begun | choose chose chosen
    break broke broken | hide hid hidden | keep kept | leave left | lose lost | mean meant
    pay paid | sell sold | tell told | think thought | catch caught | build built rebuilt
    bring brought | draw drew drawn | fall fell fallen | feel felt | forget forgot forgotten
    hold held | spend spent | stand stood | stick stuck | teach taught | wear wore worn
    override overrode overridden | drive drove driven | grow grew grown | ride rode ridden
    shake shook shaken | speak spoke spoken | steal stole stolen | buy bought | seek sought
    sleep slept | deal dealt
"""
# one verb's forms per "|" or line: a line's last verb and the next line's first are two verbs
_BASE_FORM = {
    form: forms.split()[0]
    for forms in re.split(r"[|\n]", _IRREGULAR_VERBS)
    for form in forms.split()[1:]
}


@functools.lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    """A crude, stable stem: enough to join plurals and -ing/-ed/-ion/-ity forms of one
    word, an irregular verb's past forms with it, and British spellings with American ones."""
    w = word.lower()
    w = american(_BASE_FORM.get(w, w))
    if len(w) <= 3 or not w.isalpha():
        return w
    if w.endswith("ies") and len(w) > 4:
        w = w[:-3] + "i"
    elif w.endswith("sses"):
        w = w[:-2]
    elif w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    for suffix, repl in (
        ("ization", "iz"),
        ("ational", "at"),
        # "configuration" is of "configure", as "validation" is of "validate"
        ("uration", "ur"),
        ("ation", "at"),
        ("ate", "at"),
        ("ness", ""),
        ("ment", ""),
        ("ity", ""),
        ("iti", ""),  # "utilities", once its plural is cut
        ("ing", ""),
        ("ion", ""),
        ("ed", ""),
        ("er", ""),
        ("ly", ""),
    ):
        if suffix == "ly" and w.endswith("ply"):
            # "apply", "reply", "supply" are verbs, not adverbs: "apply" is not "app"
            break
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            w = w[: len(w) - len(suffix)] + repl
            if suffix in ("ing", "ed") and w.endswith("er") and len(w) >= 5:
                # "filtering" and "ordered" are "filter" and "order", whose stem drops -er
                w = w[:-2]
            break
    if w.endswith("e") and len(w) > 4:
        w = w[:-1]
    elif w.endswith("y") and len(w) > 3:
        w = w[:-1] + "i"
    return w


_STOP_STEMS = frozenset(stem(w) for w in STOP if len(w) > 3)


def terms(text: str) -> list[str]:
    """The content terms of a text, stemmed, in order, without stop words."""
    found = (stem(w) for w in _WORD.findall(text.lower()) if len(w) > 1 and w not in STOP)
    return [t for t in found if t not in _STOP_STEMS]


#: words that say what kind of thing is asked for, or how good, not which ("a tool to …", "a
#: command", "a guide", "an official …", "a quick way"): documentation names the thing itself,
#: seldom its kind. A way, a setting or an option asks how to do something, a guide or an example
#: asks for a page about something, and a limit or a maximum asks how much (``AMOUNT``): if these
#: are all the thing's name says, there is no thing to look for.
_KINDS = frozenset(
    terms(
        "tool setting option flag command config configuration knob switch toggle feature "
        "plugin extension package library module integration mode support place "
        "guide tutorial example sample documentation docs doc page article reference recipe "
        "walkthrough workaround fix solution alternative approach method recommendation practice "
        "limit max maximum minimum cap "
        "builtin native official existing proper recommended standard dedicated separate special "
        "automatic simple easy fast light lightweight small minimal good better quick"
    )
)


@dataclass(frozen=True, slots=True)
class Parts:
    """A passage split into prose (what may be quoted) and code (what may only support)."""

    prose: str
    code: str


def split_code(text: str) -> Parts:
    """Fenced blocks and API listings are code; everything else is prose."""
    code: list[str] = []

    def take(match: re.Match[str]) -> str:
        code.append(match.group(0))
        return "\n"

    prose = _FENCE.sub(take, text)
    prose = _LISTING.sub(take, prose)
    return Parts(prose=prose, code="\n".join(code))


def as_read(text: str) -> str:
    """``text`` with its links as their text (:func:`pipeline.text.unlinked`): a page that
    links to ``github.com/…/nox-poetry`` says nothing about Poetry. An address the page
    writes out is read (``test.pypi.org``), and code keeps its underscores (``__version__``)."""
    return unlinked(text)


def _phrase_text(text: str) -> str:
    """``text`` lower-cased, its words one space apart, for finding a name of several words."""
    return " " + " ".join(_WORD.findall(text.lower())) + " "


class Lexicon:
    """Document frequencies of terms over the knowledge base's chunks, as read
    (:func:`as_read`)."""

    def __init__(
        self,
        frequencies: Counter[str],
        documents: int,
        spellings: Counter[str] | None = None,
        phrases: str = "",
        prose: Counter[str] | None = None,
    ) -> None:
        self.df = frequencies
        self.n = documents
        #: document frequencies of the words as written (lower-cased, identifiers whole),
        #: for the names a question spells (see :func:`spelled_as`)
        self.spellings: Counter[str] = spellings if spellings is not None else Counter()
        #: every chunk's words (:func:`_phrase_text`), for names of several words
        self.phrases = phrases
        #: ``spellings`` of the chunks' prose (:func:`split_code`: inline code, tables and
        #: headings are prose, code blocks and listings are not), or None when not counted
        #: (every known name then counts as written in prose)
        self.prose = prose

    @classmethod
    def build(cls, texts: Iterable[str]) -> Lexicon:
        df: Counter[str] = Counter()
        spellings: Counter[str] = Counter()
        prose: Counter[str] = Counter()
        phrases: list[str] = []
        n = 0
        for raw in texts:
            text = as_read(raw)
            # a chunk counts once per term: the set of its distinct words, stemmed
            lower = text.lower()
            words = set(_WORD.findall(lower))
            df.update({stem(w) for w in words if len(w) > 1 and w not in STOP} - _STOP_STEMS)
            written = _spellings(text) | _compounds(lower)
            spellings.update(written | _dotted_names(lower))
            # a name only a link's text gives ("QuestDB Community Slack") is where the page
            # points, not what it says
            said = split_code(linkless(raw)).prose
            # most chunks have no code or links: their prose is all they write
            prose.update(written if said == text else _spellings(said) | _compounds(said.lower()))
            phrases.append(_phrase_text(lower))
            n += 1
        return cls(df, n, spellings, "\n".join(phrases), prose)

    def including(self, texts: Iterable[str]) -> Lexicon:
        """These statistics with ``texts`` counted as more chunks."""
        extra = Lexicon.build(texts)
        return Lexicon(
            self.df + extra.df,
            self.n + extra.n,
            self.spellings + extra.spellings,
            self.phrases + "\n" + extra.phrases,
            None if self.prose is None else self.prose + (extra.prose or Counter()),
        )

    def _df(self, term: str) -> int:
        if term.startswith((EXACT, FOLDED)):
            return self.spellings.get(term, 0)
        return self.df.get(term, 0)

    def idf(self, term: str) -> float:
        """BM25's IDF: about ln(N) for a term no chunk has, near 0 for one every chunk has."""
        df = self._df(term)
        return math.log(1.0 + (self.n - df + 0.5) / (df + 0.5))

    def known(self, term: str) -> bool:
        if term.startswith(PHRASE):
            return f" {term[len(PHRASE) :]} " in self.phrases
        return self._df(term) > 0

    @functools.cached_property
    def subject(self) -> str | None:
        """The term most chunks have: what the documents are about ("cargo", "hatch")."""
        return max(self.df, key=self.df.__getitem__, default=None)

    def in_prose(self, term: str) -> bool:
        """Whether some chunk writes the name ``term`` in its prose, not only in code blocks: a
        name that the documents write only in an example (``docker:`` as a key of a CI
        config) is not one they are about."""
        return self.prose is None or self.prose.get(term, 0) > 0

    def share(self, term: str) -> float:
        """The share of the chunks that have ``term``."""
        return self._df(term) / self.n if self.n else 0.0


def _dotted_names(text: str) -> frozenset[str]:
    """The file names and extensions ``text`` writes with a leading dot (``.env``, ``*.so``):
    names, though in lower case. A knowledge base that never writes ``.env`` has no passage
    about such a file, however often it says "env"."""
    return frozenset(EXACT + m.group(0).lower() for m in _DOTTED_NAME.finditer(text))


def _compounds(lower: str) -> set[str]:
    """The names a compound of words names: ``test.pypi.org`` is also "testpypi" and
    "pypiorg" (the docs' address for what an asker calls TestPyPI), and an identifier names
    each of its words (``PYTHON_VARIANT_GIL`` names the GIL)."""
    found: set[str] = set()
    for compound in _COMPOUND.findall(lower):
        parts = [p for p in re.split(r"[./_-]", compound) if p]
        found.update(FOLDED + _singular(p) for p in parts)
        for i in range(len(parts)):
            for j in range(i + 1, len(parts) + 1):
                found.add(EXACT + "".join(parts[i:j]))
    return found


@dataclass(frozen=True, slots=True)
class Evidence:
    """How much of a question one passage speaks to (0..1 each, but ``missing``).

    ``unknown`` splits into ``unknown_names`` and ``unknown_words`` (see the module's
    docstring); ``missing`` lists the must-match terms the passage lacks.
    """

    coverage: float
    unknown_names: float
    unknown_words: float = 0.0
    missing: tuple[str, ...] = ()

    @property
    def unknown(self) -> float:
        return self.unknown_names + self.unknown_words

    @property
    def carries(self) -> bool:
        """Whether the passage has every number and quoted name the question asks about."""
        return not self.missing


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
    #: those written as words ("Docker", "Jenkins"), not as code names: the documents' prose
    #: must write them (:meth:`Lexicon.in_prose`)
    plain: frozenset[str] = frozenset()
    #: the names the asker wrote in backticks: code may name them
    coded: frozenset[str] = frozenset()
    #: the stems of each word the asker joins with hyphens (``cargo-nextest``)
    hyphenated: frozenset[tuple[str, ...]] = frozenset()
    #: what the question asks an amount of ("how many *threads*"), when it names it
    counted: str | None = None
    #: the terms of the thing the question asks about (:func:`pipeline.things.named`): "is
    #: there an official Helm chart …" needs a passage that names the Helm chart
    thing: tuple[str, ...] = ()


def question_terms(question: str) -> list[str]:
    return list(dict.fromkeys(terms(question)))


def asked(
    question: str, *, own: str | None = None, vocabulary: Collection[str] | None = None
) -> Asked:
    """The terms of ``question``; must-match terms, and the words the embedder cannot read
    (``vocabulary``: its whole-word tokens, lower-case, when known), come from ``own`` (the
    asker's words, when ``question`` was condensed with a thread's history), else from
    ``question``: a word the condensing added ("undo" → "revoke") is not the asker's name.

    A word written as a name is kept as written (:func:`spelled_as`) and matches only
    itself: "PyPy" is not "PyPI", and ``log_level`` is not ``add_log_level``."""
    question = _situation(question)
    names = _names(question)
    wanted = tuple(dict.fromkeys(_asked_terms(question)))
    mine = _NEGATED.sub(_unnamed, question if own is None else _situation(own))
    mine = _SET_TO.sub(_unset, _HAD.sub(" ", mine))
    if vocabulary:
        names |= _unreadable(mine, vocabulary)
    return Asked(
        terms=wanted,
        names=names,
        musts=_musts(mine),
        spelled=frozenset(n for n in _names(mine) if not _VERSION.fullmatch(n))
        | _name_phrases(mine)
        | _dotted_names(mine),
        identifiers=_names(mine, identifiers=True),
        coded=frozenset(_spellings(" ".join(m[1] for m in _QUOTED.finditer(mine) if m[1]))),
        hyphenated=frozenset(
            tuple(stem(w) for w in m[0].split("-") if w.lower() not in STOP)
            for m in _HYPHENATED.finditer(mine)
        ),
        plain=frozenset(
            spelled_as(w)
            for w, name in _words_as_written(mine)
            if name and w.isalpha() and (w.isupper() or w[1:].islower())
        ),
        counted=_counted(mine),
        thing=_thing(mine),
    )


def _thing(text: str) -> tuple[str, ...]:
    """The terms of the thing ``text`` asks about (:func:`pipeline.things.named`), but for the
    words that only say what kind of thing it is (:data:`_KINDS`): when that is all its name
    says, those of what the kind is for."""
    found = named(text)
    if found is None:
        return ()
    return tuple(dict.fromkeys(_unkinded(found.name) or _unkinded(found.of)))


def _unkinded(words: str) -> list[str]:
    """The terms of ``words`` (:func:`_asked_terms`) that are not a kind's (:data:`_KINDS`)."""
    return [t for t in _asked_terms(words) if t not in _KINDS]


def _counted(text: str) -> str | None:
    """The stem of what ``text`` asks an amount of (:data:`_COUNTED`), if a content word."""
    match = _COUNTED.search(text)
    thing = terms(match["thing"]) if match else []
    return thing[0] if thing else None


def _situation(text: str) -> str:
    """``text`` without the asker's own data (values assigned in their code, rough counts,
    estimates, clock times and dates: :data:`_SITUATION`), a status code's plural as the
    code, and a percentile's short name as the word."""
    text = _SITUATION.sub(" ", _ROUGH.sub(" ", _ASSIGNED.sub(" ", text)))
    return _PERCENTILE.sub("percentile", _CODES.sub(r"\1", text))


def _unset(match: re.Match[str]) -> str:
    """A setting's value the asker gave (:data:`_SET_TO`) taken out of what must match."""
    return match[0][: match.start("value") - match.start()]


def _unnamed(match: re.Match[str]) -> str:
    """A negated name (:data:`_NEGATED`) lower-cased and its joins spaced, so that it is no
    name, number or file the passage must have: ``not __version__`` keeps "version"."""
    start = match.start("name") - match.start()
    return match[0][:start] + re.sub(r"[\W_\d]+", " ", match["name"]).lower()


def spelled_as(word: str) -> str:
    """The term of a word written as a name: the word itself, lower-cased, never stemmed.
    A capitalised word ("Task", "Cookies") may be singular or plural ("background tasks"),
    an acronym or a code name ("HTTP", "PyPy") is only itself ("HTTPS", "PyPI" are others),
    but for the lower-case "s" that English writes on an acronym's plural ("IDEs", "URLs")."""
    if word[:1].isupper() and word[1:].islower() and word.isalpha():
        return FOLDED + _singular(word.lower())
    plural = _ACRONYM_PLURAL.fullmatch(word)
    return EXACT + (plural["acronym"] if plural else word).lower()


@functools.lru_cache(maxsize=200_000)
def _singular(word: str) -> str:
    if len(word) <= 3 or not word.endswith("s") or word.endswith("ss"):
        return word
    return word[:-3] + "y" if word.endswith("ies") else word[:-1]


def _asked_terms(text: str) -> Iterable[str]:
    for raw, name in _words_as_written(text):
        if name:
            yield spelled_as(raw)
        else:
            yield from terms(raw)


def written_as_names(text: str) -> list[str]:
    """The words of ``text`` written as names (:func:`_words_as_written`), in order."""
    return [word for word, name in _words_as_written(text) if name]


def _words_as_written(text: str) -> Iterable[tuple[str, bool]]:
    """Each word of ``text`` (identifiers whole, edge underscores kept), and whether it is
    written as a name: a capital inside a sentence or inside the word, a digit, or an
    underscore inside (``log_level``, ``_record``)."""
    start = True
    for raw in text.split():
        for word in _TOKEN.findall(raw):
            inner = word.strip("_")
            if len(inner) < 2 or word.lower() in STOP:
                continue
            name = (
                any(c.isdigit() for c in inner)
                or any(c.isupper() for c in inner[1:])
                or "_" in word
                or (not start and inner[0].isupper())
            )
            yield word, name
        start = bool(_SENTENCE_END.search(raw))


def _name_phrases(text: str) -> frozenset[str]:
    """The names of several words that ``text`` writes ("Read the Docs", "GitLab CI"): two or
    more words in a row written as names (:func:`_words_as_written`), "the" or "of" between
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
        words = _TOKEN.findall(raw)
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
        start = bool(_SENTENCE_END.search(raw))
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
    for word in _WORD.findall(text.lower()):
        if len(word) < 2 or word in STOP or word.isdigit():
            continue
        if not any(base in vocabulary for base in _bases(word)):
            found.add(stem(word))
    return frozenset(found)


def _bases(word: str) -> set[str]:
    """``word`` and what it may be an inflection of ("shuts", "spoofed", "uncompressed"), in
    either spelling ("optimisations")."""
    spellings = {word, american(word)}
    bases = set(spellings)
    for suffix, repl in _INFLECTIONS:
        bases.update(
            w[: len(w) - len(suffix)] + repl
            for w in spellings
            if w.endswith(suffix) and len(w) - len(suffix) >= 3
        )
    for prefix in ("un", "re", "non"):
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
    ("ed", ""),
    ("ed", "e"),
    ("d", ""),
    ("ing", ""),
    ("ing", "e"),
    ("er", ""),
    ("ly", ""),
)


def _names(text: str, *, identifiers: bool = False) -> frozenset[str]:
    """The terms (:func:`spelled_as`) of the words written as names (only those written as
    code identifiers, with ``identifiers``)."""
    return frozenset(
        spelled_as(word)
        for word, name in _words_as_written(text)
        if name and (not identifiers or _identifier(word))
    )


def _musts(text: str) -> tuple[str, ...]:
    """Numbers of two or more characters (``30``, ``v1``, ``1,000``) and quoted names' terms."""
    text = _THOUSANDS.sub("", text)
    found = [w.lower() for w in _WORD.findall(text) if len(w) > 1 and any(c.isdigit() for c in w)]
    for match in _QUOTED.finditer(text):
        quoted = next(g for g in match.groups() if g is not None)
        found.extend(terms(quoted))
    if _AMOUNT_ASKED.search(text):
        found.append(AMOUNT)
    return tuple(dict.fromkeys(found))


def evidence(
    question: Sequence[str] | Asked,
    passage: str,
    lexicon: Lexicon,
    *,
    subject_share: float = SUBJECT_SHARE,
    thing_share: float = THING_SHARE,
) -> Evidence:
    """``question`` is :func:`asked` of the question (or its bare :func:`question_terms`,
    each then weighed as a name, with nothing that must match). A name the question spells
    that at least ``subject_share`` of the chunks have is what the documents are about and
    need not be in the passage."""
    if not isinstance(question, Asked):
        question = Asked(terms=tuple(question), names=frozenset(question))
    if not question.terms:
        return Evidence(coverage=0.0, unknown_names=0.0)
    passage = as_read(passage)
    parts = split_code(passage)
    prose = set(terms(parts.prose)) | _spellings(parts.prose)
    code = set(terms(parts.code)) | _spellings(parts.code)
    weights = {t: lexicon.idf(t) for t in question.terms}
    total = sum(weights.values()) or 1.0
    covered = _covered(weights, prose, code)
    names = words = 0.0
    for t, w in weights.items():
        if not lexicon.known(t):
            if t in question.names:
                names += w
            else:
                words += w
    # a name the asker wrote that no chunk has: nothing here is about it ("Cloud Run")
    # or one they write only in code (``docker:`` as a key of a CI example), unless the asker
    # writes it as code too
    missing = tuple(
        t
        for t in sorted(question.spelled)
        if not lexicon.known(t)
        or (t in question.plain and t not in question.coded and not lexicon.in_prose(t))
    )
    # the documents' subject joined to a word no chunk has (``cargo-nextest``): a tool of its
    # ecosystem, named as such, that the documents never mention
    missing += tuple(
        PHRASE + " ".join(parts)
        for parts in sorted(question.hyphenated)
        if lexicon.subject in parts and not all(lexicon.known(p) for p in parts)
    )
    # an identifier this passage lacks: it is not about that thing, though another chunk
    # may name it (``log_level`` in an example's output), unless it is the docs' subject
    missing += tuple(
        t
        for t in sorted(question.identifiers)
        if t not in missing and t not in prose and t not in code
        if lexicon.share(t) < subject_share
    )
    if question.musts:
        present = prose | code | set(_WORD.findall(_THOUSANDS.sub("", passage).lower()))
        present |= {"v" + major for major in _MAJOR.findall(passage)}
        if AMOUNT in question.musts and _states_amount(
            parts.prose, question, lexicon, subject_share
        ):
            present.add(AMOUNT)
        missing += tuple(t for t in question.musts if t not in present)
    if question.thing:
        # "is there a Terraform provider …": a passage that does not name the thing says
        # nothing about whether there is one, however much else it shares with the question
        thing = {t: lexicon.idf(t) for t in question.thing}
        # a name the asker writes as one word is named by the same words joined ("TestPyPI":
        # ``test.pypi.org``), as where the knowledge base's statistics know it
        said = prose | _compounds(parts.prose.lower())
        shown = code | _compounds(parts.code.lower())
        if _covered(thing, said, shown) < thing_share * sum(thing.values()):
            missing += (THING,)
    return Evidence(
        coverage=covered / total,
        unknown_names=names / total,
        unknown_words=words / total,
        missing=missing,
    )


def _covered(weights: dict[str, float], prose: Collection[str], code: Collection[str]) -> float:
    """The weight of the terms the prose has, and half that of those only the code has."""
    return sum(w if t in prose else w / 2 if t in code else 0.0 for t, w in weights.items())


def _states_amount(prose: str, question: Asked, lexicon: Lexicon, subject_share: float) -> bool:
    """Whether a paragraph or list item of ``prose`` states an amount of something the
    question names: "these two methods" does not say how many stack frames a traceback
    keeps. The docs' subject ("structlog", in most chunks) names nothing in particular."""
    specific = {t for t in question.terms if 0 < lexicon.share(t) < subject_share}
    if question.counted is not None and lexicon.share(question.counted) < subject_share:
        # the amount is of the thing asked about: a number of index blocks beside the word
        # "column" does not say how many columns a table may have
        specific = {question.counted}
    for block in _BLOCK.split(prose):
        said = set(terms(block)) | _spellings(block)
        if (not specific or specific & said) and _AMOUNT_STATED.search(
            _WORD.sub(lambda w: " " if _echoes(w[0], question) else w[0], block)
        ):
            return True
    return False


def _echoes(word: str, question: Asked) -> bool:
    """Whether ``word`` is the question's own ("a *single* table", "on a *64*-core box"): a
    passage that repeats the asker's words states no amount of its own."""
    return stem(word) in question.terms or EXACT + word.lower() in question.terms


def _spellings(text: str) -> set[str]:
    words = set(_TOKEN.findall(text.lower()))
    acronyms = {EXACT + m["acronym"].lower() for m in _ACRONYM_PLURAL.finditer(text)}
    return {EXACT + w for w in words} | {FOLDED + _singular(w) for w in words} | acronyms


def support(
    grade: float,
    found: Evidence,
    *,
    coverage_weight: float,
    unknown_weight: float,
    word_factor: float = 1.0,
) -> float:
    """One passage's support for answering: its grade, plus coverage, minus unknown terms."""
    unknown = found.unknown_names + word_factor * found.unknown_words
    return grade + coverage_weight * found.coverage - unknown_weight * unknown


class Lexicons:
    """The knowledge base's term statistics, built on first use and again when it changes.

    Without a ``Corpus`` (a retriever that cannot list its texts) there are none,
    and callers fall back to statistics over the passages they have.
    """

    def __init__(self, corpus: Corpus | None) -> None:
        self._corpus = corpus
        self._version: str | None = None
        self._lexicon: Lexicon | None = None
        self._lock = asyncio.Lock()

    async def get(self) -> Lexicon | None:
        corpus = self._corpus
        if corpus is None:
            return None
        async with self._lock:
            try:
                version = await asyncio.to_thread(corpus.corpus_version)
                if version != self._version or self._lexicon is None:
                    texts = await asyncio.to_thread(corpus.corpus_texts)
                    self._lexicon = await asyncio.to_thread(Lexicon.build, texts)
                    self._version = version
            except Exception as exc:
                log.warning("term statistics unavailable, using the retrieved passages: %s", exc)
                return None
            return self._lexicon
