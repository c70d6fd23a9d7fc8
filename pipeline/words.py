"""The words a question and a passage are compared in.

Both sides must cut a text into the same terms, or a passage that says what the asker asks would
not match it: the question's terms (:mod:`pipeline.asked`), the knowledge base's statistics and
each passage's words (:mod:`pipeline.evidence`) come from here, and so do the words that other
steps compare.

Terms are lower-cased words without stop words, cut to a crude stem so that "cookie" finds
"cookies" and "paginate" finds "pagination", and spelt the American way ("optimisation" finds
"optimization"); names keep their spelling (:func:`spelled_as`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping

from citations.phrasings import phrasing_terms
from citations.spelling import american

#: a word as terms are made of, identifiers split at their underscores: ``max_age`` is "max"
#: and "age"
WORD = re.compile(r"[^\W_]+")
#: a word as written, identifiers whole: ``log_level``, ``_record``, ``PyPy``
TOKEN = re.compile(r"\w+")
#: a file name that starts with a dot, or an extension: ``.env``, ``.gitignore``, ``*.so``
_DOTTED_NAME = re.compile(r"(?<![\w.])\.[^\W_][\w-]*")
#: an acronym's plural, its "s" in lower case: "IDEs" (but "HTTPS" is another acronym)
_ACRONYM_PLURAL = re.compile(r"\b(?P<acronym>[A-Z][A-Z0-9]*[A-Z])s\b")
#: a thousands separator, dropped so that "1,000" is one number on either side
THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}\b)")
#: a release number written with its dots ("2.10", "v1.4.2"): one number, not "2" and "10"
DOTTED_NUMBER = re.compile(r"(?<![\w.])v?(\d+(?:\.\d+)+)(?![\w]|\.\w)")
#: where a sentence ends: a capital after it marks no name
SENTENCE_END = re.compile(r"[.?!:;]$")
#: marks a term that matches only as written (see :func:`spelled_as`); no stem has it
EXACT = "="
#: marks a term that matches as written, or as its plural
FOLDED = "~"
#: marks a name of several words ("Read the Docs"), known only where the docs write it so
PHRASE = '"'

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
    someone everyone somebody tell give show find work works long longer many happen happens
    back end ends ever able possible okay thank thanks hi hello everything everybody anybody
    whatever etc stuff
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


def _word_groups(table: str) -> list[list[str]]:
    """The groups of words of a table that parts them with "|" or a line break."""
    return [group.split() for group in re.split(r"[|\n]", table) if group.split()]


# one verb's forms per "|" or line: a line's last verb and the next line's first are two verbs
_BASE_FORM = {form: forms[0] for forms in _word_groups(_IRREGULAR_VERBS) for form in forms[1:]}


# Words chat clips that documentation spells out: "the config file" is the configuration file,
# "deps" are dependencies. Only clippings that stand for one word and are no word of their own:
# not "auth" (authentication, authorization), "perm" (permission, permanent), "info" (a log
# level), "var" (``/var``), "db" (a data folder's name) or "spec" (a Kubernetes field). "prod"
# stands for production or product, and "dev" for development or developer, which stem to one
# term anyway. Both sides fold them, so docs that write "config" or "dev" still match.
_CLIPPINGS = """
    config configuration | repo repository | dep dependency | dir directory
    env environment | param parameter | arg argument | msg message | app application
    prod production | dev development
"""
_SPELLED_OUT = {
    clipped + plural: word for clipped, word in _word_groups(_CLIPPINGS) for plural in ("", "s")
}


@functools.lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    """A crude, stable stem: enough to join plurals and -ing/-ed/-ion/-ity forms of one
    word, an irregular verb's past forms with it, a chat clipping with the word it clips,
    and British spellings with American ones."""
    w = word.lower()
    w = american(_BASE_FORM.get(w) or _SPELLED_OUT.get(w, w))
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


def inflected(word: str, ending: str) -> str:
    """``word`` with ``ending`` ("s", "es", "ed", "ing", "ly", "er"), spelt as English spells
    it: "raise" + ing is "raising", "agree" + ed "agreed", "copy" + es "copies". A consonant
    English doubles before it ("running") is not doubled here."""
    if word.endswith("e") and (ending[0] == "e" or (ending[0] in "aiou" and word[-2:] != "ee")):
        return word[:-1] + ending
    if ending in ("es", "ed") and len(word) > 2 and word[-1] == "y" and word[-2] not in "aeiou":
        return word[:-1] + "i" + ending
    return word + ending


def _inflections(word: str) -> set[str]:
    """The regular inflections of ``word`` ("shows", "goes", "needed", "making", "likely"),
    its final consonant doubled or not ("getting")."""
    forms = {inflected(word, ending) for ending in ("s", "ed", "ing", "ly")}
    return forms | {word + word[-1] + ending for ending in ("ed", "ing")}


_STOP_STEMS = frozenset(stem(w) for w in STOP if len(w) > 3)
#: stop words and their inflections, regular and irregular ("needed", "kept", "told"); a
#: word that only stems like one is a word of its own: "theme" is not "them", a "worker"
#: is not "work", "real" is not "really", "quit" is not "quite"
STOP_FORMS = (
    STOP
    | frozenset(form for word in STOP for form in _inflections(word) if stem(form) in _STOP_STEMS)
    | frozenset(form for form, base in _BASE_FORM.items() if base in STOP)
)


def terms(text: str) -> list[str]:
    """The content terms of a text, stemmed, in order, without stop words."""
    return [stem(w) for w in WORD.findall(text.lower()) if len(w) > 1 and w not in STOP_FORMS]


def dotted_names(text: str) -> frozenset[str]:
    """The file names and extensions ``text`` writes with a leading dot (``.env``, ``*.so``):
    names, though in lower case. A knowledge base that never writes ``.env`` has no passage
    about such a file, however often it says "env"."""
    return frozenset(EXACT + m.group(0).lower() for m in _DOTTED_NAME.finditer(text))


def phrased_terms(question: str) -> list[str]:
    """The stems of the documentation's words for the chat phrasings of ``question``
    (:mod:`citations.phrasings`): "anything older than TLS 1.2" asks for a minimum."""
    return terms(" ".join(phrasing_terms(question)))


def question_terms(question: str) -> list[str]:
    """The terms of ``question``, then those of its chat phrasings (:func:`phrased_terms`)."""
    return list(dict.fromkeys([*terms(question), *phrased_terms(question)]))


def spelled_as(word: str) -> str:
    """The term of a word written as a name: the word itself, lower-cased, never stemmed.
    A capitalised word ("Task", "Cookies") may be singular or plural ("background tasks"),
    an acronym or a code name ("HTTP", "PyPy") is only itself ("HTTPS", "PyPI" are others),
    but for the lower-case "s" that English writes on an acronym's plural ("IDEs", "URLs")."""
    if word[:1].isupper() and word[1:].islower() and word.isalpha():
        return FOLDED + singular(word.lower())
    plural = _ACRONYM_PLURAL.fullmatch(word)
    return EXACT + (plural["acronym"] if plural else word).lower()


@functools.lru_cache(maxsize=200_000)
def singular(word: str) -> str:
    if len(word) <= 3 or not word.endswith("s") or word.endswith("ss"):
        return word
    return word[:-3] + "y" if word.endswith("ies") else word[:-1]


def written_as_names(text: str) -> list[str]:
    """The words of ``text`` written as names (:func:`words_as_written`), in order."""
    return [word for word, name in words_as_written(text) if name]


def words_as_written(text: str) -> Iterable[tuple[str, bool]]:
    """Each word of ``text`` (identifiers whole, edge underscores kept), and whether it is
    written as a name: a capital inside a sentence or inside the word, a digit, or an
    underscore inside (``log_level``, ``_record``)."""
    start = True
    for raw in text.split():
        for word in TOKEN.findall(raw):
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
        start = bool(SENTENCE_END.search(raw))


def spellings_of(text: str) -> set[str]:
    words = set(TOKEN.findall(text.lower()))
    acronyms = {EXACT + m["acronym"].lower() for m in _ACRONYM_PLURAL.finditer(text)}
    return {EXACT + w for w in words} | {FOLDED + singular(w) for w in words} | acronyms


def replaced(text: str, found: Iterable[re.Match[str]], words: Mapping[str, str]) -> str:
    """``text`` with each match of ``found`` (in order, on ``text`` or a copy of it with the
    same positions) that ``words`` has replaced by what ``words`` maps it to."""
    out, at = [], 0
    for match in found:
        if match[0] in words:
            out += [text[at : match.start()], words[match[0]]]
            at = match.end()
    return "".join([*out, text[at:]])
