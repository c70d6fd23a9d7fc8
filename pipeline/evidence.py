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
- **must-match terms**: numbers ("30 seconds", "/v1"; a dotted release as far as its first
  part of two digits: "2.10", not the "10" of "10 MB", and "2026" of "2026.1.0") and quoted
  names (`"Cloud Run"`, `` `max_age` ``) name exactly what is asked. A passage that lacks one cannot carry the
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
  ``log_level`` key. The docs' subject (a name in ``evidence_subject_share`` of the chunks)
  and their everyday vocabulary (a code name in ``evidence_identifier_share`` of them, and in
  more than a couple, as Jekyll's ``_site`` folder) are exempt. Capitalised words and
  acronyms ("React", "API") need only be known: prose writes them in passing, and an answer
  need not repeat them. A name of several words
  ("Read the Docs", "GitLab CI") is known only where a chunk writes its words together: each
  word may be common ("read", "docs"). A name written as one word is also known as the same
  words joined in a compound ("TestPyPI": ``test.pypi.org``), and an identifier names each
  of its words (``PYTHON_VARIANT_GIL``: the GIL). A file name or extension with a leading dot
  (``.env``, ``*.so``) is a name, whatever its case. What the asker tells of their own
  data and situation (a value they assign, a name they do not use, an amount they have, their
  estimates and dates) is no name a passage must have (:mod:`pipeline.asked`). A name written
  as a word ("Docker",
  "Jenkins") is known only where the docs' prose writes it (a heading, a sentence, a table or
  inline code): one that only a code block has (``docker:`` as a key of a CI example) is in
  an example, not a subject the docs cover, unless the asker writes it as code too. An
  acronym ("URL", "CI") is no such name: a word of the trade, which code writes (a ``url:``
  key) as often as prose, so that a chunk has it is enough. The
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
  passage that names that thing (``evidence_thing_share``, 0.8, of its IDF-weighted terms,
  up to where its name ends: "an official Helm chart"; a Docker image is not named by "Docker"
  alone, nor a Windows service by "Windows"). Documentation says what exists and
  seldom what does not, so a passage that shares the rest of the question ("install",
  "Prometheus") without naming the thing cannot say there is one. Words that only say what
  kind of thing it is, or how good ("a tool", "a guide", "an official", "a quick", "built-in"),
  need not be named, but what they are for is the thing ("is there support *for websockets*",
  "a plugin *for Grafana*"), and a made thing (a tool, a plugin, a script) is named by what it
  is to do ("a tool *to convert* our nginx configs"); "is there a way / a setting / an option
  …" asks how to do something, and "is there a limit …" how much. So is a question how to run
  or install something *as* a thing ("run it as a Windows service", "register it as a
  Jupyter kernel") or to write something *as* a form ("its logs as json lines"), which thing is
  recommended ("what's the recommended Authelia setup …", "which php client should we use?")
  or chat's "got an example … ?", and which licence something is under: docs that support,
  recommend or state it name it.

The question and the passage are read in the same terms (:mod:`pipeline.words`), and what
the question asks for is read once, from the asker's words (:mod:`pipeline.asked`).

A passage's **support** is ``grade + 0.5 * coverage - 0.7 * unknown``; the knowledge
base answers only when its best carrying passage reaches 0.84 (``PipelineSettings.evidence_*``),
or 0.92 for a question whether something can be done (:func:`pipeline.asked.asks_capability`):
documentation says what a tool does and seldom what it does not. Fitted on
``tests/devset`` (Starlette's docs, 252 chunks) and checked on ``tests/devset2`` (Click's
docs) and the bundled samples; no threshold on the grade alone separated answerable
from uncovered questions (uncovered ones graded up to 0.94, answerable ones down to
0.77). Passages within 0.15 of the threshold also contribute sentences. An LLM grader's grade is used as it is; the
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

from pipeline.asked import AMOUNT, DATE, PRICE, TIME, Asked
from pipeline.markup import cut_block_end
from pipeline.ports import Corpus
from pipeline.text import FENCED as _FENCE
from pipeline.text import linkless, unlinked
from pipeline.typos import Speller
from pipeline.words import (
    DOTTED_NUMBER,
    EXACT,
    FOLDED,
    PHRASE,
    STOP_FORMS,
    THOUSANDS,
    WORD,
    dotted_names,
    singular,
    spellings_of,
    stem,
    terms,
)

log = logging.getLogger("citebot.pipeline.evidence")

# mkdocstrings directives (with their indented options: member lists) and admonition
# titles: API listings, not prose
_LISTING = re.compile(
    r"^[ \t]*(?::::[ \t]+[\w.]+[ \t]*(?:\n[ \t]+\S.*)*|(?::::|\?\?\?|!!!).*)$", re.M
)
#: words joined into one compound by dots, hyphens, slashes or underscores: ``test.pypi.org``
# from the start of a word only: tried at every letter of a long token, it takes quadratic time
_COMPOUND = re.compile(r"(?<!\w)\w+(?:[./_-]\w+)+")
#: a major version as a release names it ("3.0", "3.x", "Prometheus v3.9"): what the asker
#: calls "v3"
_MAJOR = re.compile(r"(?<![\w.])v?(\d+)\.(?:x\b|\d)")
#: a name and its number joined by a hyphen, a dot or an underscore ("SHA-256", "UTF-8",
#: "Python-3"): what the asker writes as one word ("sha256")
_NAME_NUMBER = re.compile(r"\b([a-z]+)[-_.](\d+)\b")
#: paragraphs and list items: "Defaults to `500`." follows what it is the default of
_BLOCK = re.compile(r"\n[ \t]*\n|\n(?=[ \t]*(?:[*+-]|\d+[.)])[ \t])")
_AMOUNT_STATED = re.compile(
    r"\d|\b(?:zero|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty"
    r"|forty|fifty|sixty|hundreds?|thousands?|millions?|once|twice|unlimited|infinite"
    r"|no (?:limit|maximum)|any number|as many|single|double|half|dozens?)\b",
    re.I,
)
#: a time of day as documentation states one: "7:30 a.m.", "14:00", "midnight", a cron line
#: ("0 2 * * *") or a schedule's hour (``hour=7``)
_TIME_STATED = re.compile(
    r"\b\d{1,2}:\d{2}\b|\b\d{1,2}\s?[ap]\.?m\b|\b(?:midnight|noon|midday)\b"
    r"|(?<!\S)(?:[\d*/,-]+\s+){4}[\d*/,-]+(?!\S)|\bhours?\s*=\s*\d",
    re.I,
)
#: a price as documentation states one: an amount of money ("$99", "20 EUR"), or free of charge
_PRICE_STATED = re.compile(
    r"[$€£¥]\s?\d|\b\d[\d,.]*\s?(?:USD|EUR|GBP|dollars?|euros?)\b"
    r"|\b(?:free\s+of\s+charge|at\s+no\s+(?:cost|charge)|costs?\s+nothing|for\s+free|is\s+free)\b",
    re.I,
)
#: a date as documentation states one: a year ("in 2025"), a month and year ("March 2026"),
#: an ISO date or a quarter ("Q3 2026")
_DATE_STATED = re.compile(
    r"\b(?:19|20)\d{2}\b|\bQ[1-4]\b|\b(?:January|February|March|April|May|June|July|August"
    r"|September|October|November|December)\s+(?:\d{1,2}(?:st|nd|rd|th)?,?\s+)?(?:19|20)\d{2}\b"
)
#: what no passage may lack when the question asks whether a thing exists, or how to run
#: something as one (``Evidence.missing``)
THING = "<thing>"
#: a code name that this share of the chunks have is the docs' everyday vocabulary (a standard
#: folder such as Jekyll's ``_site``), which a passage need not repeat
#: (``PipelineSettings.evidence_identifier_share``)
IDENTIFIER_SHARE = 0.02
#: the fewest chunks that make a word the docs' everyday vocabulary (:meth:`Lexicon.everyday`)
EVERYDAY_CHUNKS = 3
#: the share of the thing's (IDF-weighted) terms a passage must name to speak of it
#: (``PipelineSettings.evidence_thing_share``)
THING_SHARE = 0.8
#: two words are of one root when they share their first letters, at least this many, and
#: each goes on with an ending that derives or inflects a word: "expiry" and "expires"
#: ("expir" + "y", "es"), not "consul" and "consult" ("t") or "consumer" ("consu" + "l")
_ROOT = 5
_ENDING = re.compile(
    r"(?:e|s|es|e?d|ing|y|ies|ied|(?:a?t)?ions?|ments?|al(?:ly)?|ity|ive|ers?|ors?|[ea]nce"
    r"|[ai]ble|ly|ures?)?"
)
#: a name that this share of the chunks have is the documents' subject, not a detail
#: (``PipelineSettings.evidence_subject_share``)
SUBJECT_SHARE = 0.2


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

    # a chunk cut inside a code block starts with the rest of it
    cut = cut_block_end(text)
    if cut:
        code.append(text[:cut])
    prose = _FENCE.sub(take, text[cut:])
    prose = _LISTING.sub(take, prose)
    return Parts(prose=prose, code="\n".join(code))


def as_read(text: str) -> str:
    """``text`` with its links as their text (:func:`pipeline.text.unlinked`): a page that
    links to ``github.com/…/nox-poetry`` says nothing about Poetry. An address the page
    writes out is read (``test.pypi.org``), and code keeps its underscores (``__version__``)."""
    return unlinked(text)


def _phrase_text(text: str) -> str:
    """``text`` lower-cased, its words one space apart, for finding a name of several words."""
    return " " + " ".join(WORD.findall(text.lower())) + " "


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
        #: for the names a question spells (see :func:`pipeline.words.spelled_as`)
        self.spellings: Counter[str] = spellings if spellings is not None else Counter()
        #: every chunk's words (:func:`_phrase_text`), for names of several words
        self.phrases = phrases
        self._starts: dict[str, bool] = {}
        self._roots: dict[str, list[str]] | None = None
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
            words = set(WORD.findall(lower))
            df.update({stem(w) for w in words if len(w) > 1 and w not in STOP_FORMS})
            written = spellings_of(text) | _compounds(lower)
            spellings.update(written | dotted_names(lower))
            # a name only a link's text gives ("QuestDB Community Slack") is where the page
            # points, not what it says
            said = split_code(linkless(raw)).prose
            # most chunks have no code or links: their prose is all they write
            prose.update(written if said == text else spellings_of(said) | _compounds(said.lower()))
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

    def writes(self, word: str) -> bool:
        """Whether some chunk has ``word`` (lower case) in any form, or as written."""
        return self.known(stem(word)) or self.known(EXACT + word)

    @functools.cached_property
    def speller(self) -> Speller:
        """The documents' words as written, to read a question's typos (:mod:`pipeline.typos`)."""
        return Speller.of({t[1:]: n for t, n in self.spellings.items() if t.startswith(EXACT)})

    def _df(self, term: str) -> int:
        if term.startswith((EXACT, FOLDED)):
            return self.spellings.get(term, 0)
        return self.df.get(term, 0)

    def idf(self, term: str) -> float:
        """BM25's IDF: about ln(N) for a term no chunk has, near 0 for one every chunk has."""
        df = self._df(term)
        return math.log(1.0 + (self.n - df + 0.5) / (df + 0.5))

    def starts(self, term: str) -> bool:
        """Whether ``term``, a name no chunk has, is how some chunk's names start
        (:func:`_family`): "BORG_" of ``BORG_PASSPHRASE``, ``http_sd`` of ``http_sd_configs``."""
        found = self._starts.get(term)
        if found is None:
            found = self._starts[term] = _in_family(term, self.spellings)
        return found

    def related(self, term: str) -> bool:
        """Whether some chunk writes a word of the same root as ``term``, a word no chunk has
        (folded, :data:`pipeline.words.FOLDED`): "expiry" shares "expir" with "expires". Not
        a name that only starts like one ("consul", "consult")."""
        word = term[len(FOLDED) :] if term.startswith(FOLDED) else ""
        if self._roots is None:
            # each word as written (after its mark, :func:`pipeline.words.spelled_as`), by its
            # first letters: a word shares them with no word shorter than that but itself
            self._roots = {}
            for known in self.spellings:
                self._roots.setdefault(known[1 : _ROOT + 1], []).append(known[1:])
        for known in self._roots.get(word[:_ROOT], ()):
            root = _shared(word, known)
            if _ENDING.fullmatch(word, root) and _ENDING.fullmatch(known, root):
                return True
        return False

    def writes_apart(self, first: str, second: str) -> bool:
        """Whether some chunk has the words ``first`` and ``second`` (lower case), in a row."""
        return self.known(f"{PHRASE}{first} {second}")

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

    def everyday(self, term: str, share: float) -> bool:
        """Whether ``share`` of the chunks, and more than a couple of them, have ``term``: a
        word of the documents' own vocabulary, not one chunk's detail (in a handful of
        chunks, one is already a large share)."""
        return self._df(term) >= EVERYDAY_CHUNKS and self.share(term) >= share


def _shared(first: str, second: str) -> int:
    """How many letters ``first`` and ``second`` start with alike."""
    shared, most = 0, min(len(first), len(second))
    while shared < most and first[shared] == second[shared]:
        shared += 1
    return shared


def _family(term: str) -> str | None:
    """How the names of the family a name stands for start: an identifier the asker writes
    ending in an underscore ("BORG_ vars") is the start of the names, and one with an
    underscore inside (``http_sd``) names those that go on after another underscore."""
    name = term[len(EXACT) :] if term.startswith(EXACT) else ""
    if len(name) < 3 or not name[0].isalnum() or "_" not in name:
        return None
    return term if name.endswith("_") else term + "_"


def _in_family(term: str, words: Collection[str]) -> bool:
    """Whether ``words`` (names as written) have a name of ``term``'s family."""
    start = _family(term)
    return start is not None and any(w.startswith(start) for w in words)


def _compounds(lower: str) -> set[str]:
    """The names a compound of words names: ``test.pypi.org`` is also "testpypi" and
    "pypiorg" (the docs' address for what an asker calls TestPyPI), and an identifier names
    each of its words (``PYTHON_VARIANT_GIL`` names the GIL)."""
    found: set[str] = set()
    for compound in _COMPOUND.findall(lower):
        parts = [p for p in re.split(r"[./_-]", compound) if p]
        found.update(FOLDED + singular(p) for p in parts)
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


def evidence(
    question: Sequence[str] | Asked,
    passage: str,
    lexicon: Lexicon,
    *,
    subject_share: float = SUBJECT_SHARE,
    thing_share: float = THING_SHARE,
    identifier_share: float = IDENTIFIER_SHARE,
    title: str = "",
) -> Evidence:
    """``question`` is :func:`pipeline.asked.asked` of the question (or its bare
    :func:`pipeline.words.question_terms`, each then weighed as a name, with nothing that must
    match). A name the question spells that at least ``subject_share`` of the chunks have is
    what the documents are about and need not be in the passage. The passage's ``title`` is
    prose, though the passage may start inside a code block."""
    if not isinstance(question, Asked):
        question = Asked(terms=tuple(question), names=frozenset(question))
    if not question.terms:
        return Evidence(coverage=0.0, unknown_names=0.0)
    passage = as_read(passage)
    parts = split_code(passage)
    if title:
        title = as_read(title)
        parts = Parts(prose=f"{title}\n{parts.prose}", code=parts.code)
        passage = f"{title}\n{passage}"
    prose = set(terms(parts.prose)) | spellings_of(parts.prose)
    code = set(terms(parts.code)) | spellings_of(parts.code)
    weights = {t: lexicon.idf(t) for t in question.terms}
    total = sum(weights.values()) or 1.0
    covered = _covered(weights, prose, code)
    names = words = 0.0
    for t, w in weights.items():
        if not lexicon.known(t) and not lexicon.starts(t):
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
        # a family's start is an identifier too, looked for in the passage below
        if (
            not lexicon.known(t)
            and not lexicon.starts(t)
            and not (t in question.placed and lexicon.related(t))
        )
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
        if lexicon.known(t) or not _in_family(t, prose | code)
        if lexicon.share(t) < subject_share and not lexicon.everyday(t, identifier_share)
    )
    # every word as written too, numbers whole ("1,000"), for what must match word for word
    written = (
        prose | code | set(WORD.findall(THOUSANDS.sub("", passage).lower()))
        if question.musts or question.quoted
        else set()
    )
    if question.musts:
        present = set(written)
        present |= {"v" + major for major in _MAJOR.findall(passage)}
        # a release states the lines it is of: "2.10.3" is a 2.10 release
        for release in DOTTED_NUMBER.findall(passage):
            numbers = release.split(".")
            present |= {".".join(numbers[:n]) for n in range(2, len(numbers) + 1)}
        present |= {name + number for name, number in _NAME_NUMBER.findall(passage.lower())}
        # a time is stated in code as often as in prose (a cron line, ``crontab(hour=7)``),
        # a date there is an example's (a log line's timestamp)
        for must, stated, of, where in (
            (AMOUNT, _AMOUNT_STATED, question.counted, parts.prose),
            (TIME, _TIME_STATED, (), f"{parts.prose}\n\n{parts.code}"),
            (DATE, _DATE_STATED, (), parts.prose),
            (PRICE, _PRICE_STATED, (), parts.prose),
        ):
            if must in question.musts and _states(
                stated, of, where, question, lexicon, subject_share
            ):
                present.add(must)
        missing += tuple(t for t in question.musts if t not in present)
    missing += tuple(
        PHRASE + " ".join(quote)
        for quote in question.quoted
        if 3 * sum(t in written for t in quote) < 2 * len(quote)
    )
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


def _states(
    stated: re.Pattern[str],
    of: Collection[str],
    prose: str,
    question: Asked,
    lexicon: Lexicon,
    subject_share: float,
) -> bool:
    """Whether a paragraph or list item of ``prose`` states an amount or a time (``stated``)
    of something the question names (``of``, when it says what it counts): "these two methods" does not say how many stack frames
    a traceback keeps, and "nightlies are published at midnight" does not say when a folder
    syncs. The docs' subject ("structlog", in most chunks) names nothing in particular."""
    specific = {t for t in question.terms if 0 < lexicon.share(t) < subject_share}
    counted = {t for t in of if 0 < lexicon.share(t) < subject_share}
    if counted:
        # the amount is of the thing asked about: a number of index blocks beside the word
        # "column" does not say how many columns a table may have. A word no chunk has ("how
        # much ram") is the asker's, not the docs' ("memory"): the question's others name it
        specific = counted
    for block in _BLOCK.split(prose):
        said = set(terms(block)) | spellings_of(block)
        if (not specific or specific & said) and stated.search(
            WORD.sub(lambda w: " " if _echoes(w[0], question) else w[0], block)
        ):
            return True
    return False


def _echoes(word: str, question: Asked) -> bool:
    """Whether ``word`` is the question's own ("a *single* table", "on a *64*-core box"): a
    passage that repeats the asker's words states no amount of its own."""
    return stem(word) in question.terms or EXACT + word.lower() in question.terms


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
