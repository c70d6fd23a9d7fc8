"""Lexical evidence (pipeline/evidence.py) and the extractive answer's units and markers."""

from __future__ import annotations

import time
from collections.abc import Sequence

import pytest

from citations.model import Source
from connectors.knowledge.store import KnowledgeStore
from pipeline import Pipeline
from pipeline.asked import AMOUNT, DATE, PRICE, TIME, asked
from pipeline.config import PipelineSettings
from pipeline.events import Route
from pipeline.evidence import THING, Lexicon, Lexicons, evidence, split_code, support
from pipeline.extractive import extract
from pipeline.graders import EmbeddingGrader
from pipeline.ports import Embedder
from pipeline.question import Question
from pipeline.words import EXACT, FOLDED, PHRASE, question_terms, spelled_as, stem, terms

CORPUS = [
    "Cookies are exposed as a regular dictionary: request.cookies.get('mycookie').",
    "Set a cookie on the response with set_cookie. It expires after max_age seconds.",
    "Paths can use URI templating style to capture path components.",
    "The session middleware signs its cookie with the secret key.",
]


def test_code_and_api_listings_are_not_prose() -> None:
    text = "Use it like this.\n\n```python\nclient.rotate(key)\n```\n\n::: starlette.apps.App\n"
    parts = split_code(text)
    assert "rotate" not in parts.prose and "rotate" in parts.code
    assert "starlette.apps" in parts.code and "Use it like this." in parts.prose


def test_a_term_no_chunk_has_weighs_against_the_passage() -> None:
    lexicon = Lexicon.build(CORPUS)
    covered = evidence(question_terms("cookies of the request?"), CORPUS[0], lexicon)
    missing = evidence(question_terms("how do I deploy cookies to Cloud Run?"), CORPUS[0], lexicon)
    assert covered.unknown == 0 and covered.coverage > 0.5
    assert missing.unknown > 0.5 and missing.coverage < covered.coverage


def test_a_number_or_quoted_name_must_be_in_the_passage_itself() -> None:
    lexicon = Lexicon.build([*CORPUS, "Requests time out after 30 seconds."])
    # "30" is in the store, but not in the passage that would be cited
    assert not evidence(
        asked("slow requests: time out after 30 seconds?"), CORPUS[1], lexicon
    ).carries
    assert evidence(asked("time out after 30 seconds?"), "It stops after 30 s.", lexicon).carries
    assert asked("version it like /v1 and /v2, 1,000 times?").musts == ("v1", "v2", "1000")
    assert asked('how do I use "max_age"?').musts == ("max", "age")
    assert evidence(asked('how do I use "max_age"?'), CORPUS[1], lexicon).carries
    assert not evidence(asked("is `set_cookie` async?"), CORPUS[0], lexicon).carries
    # a one-digit number is too common to require ("2 weeks", "HTTP/2")
    assert asked("is HTTP/2 supported for 2 weeks?").musts == ()


def test_where_something_goes_or_what_it_is_compared_with_is_a_name_in_any_case() -> None:
    docs = [
        "Deploying › Static hosts\nDeploy the built site to Netlify or to a static file host.",
        "Logging › Files\nSend the logs to a file with the file handler.",
        *(f"Build page {n}." for n in range(10)),
    ]
    lexicon = Lexicon.build(docs)
    heroku = asked("any guide for deploying the built site to heroku?")
    assert heroku.spelled == {FOLDED + "heroku"}
    assert not evidence(heroku, docs[0], lexicon).carries
    assert evidence(
        asked("any guide for deploying the built site to netlify?"), docs[0], lexicon
    ).carries
    # a word the docs have is no obstacle
    assert evidence(asked("how do I send the logs to a file?"), docs[1], lexicon).carries
    assert asked("we're moving from redis to valkey").spelled == {FOLDED + "valkey"}
    assert asked("how much faster is a build than turbopack?").spelled == {FOLDED + "turbopack"}
    assert asked("celery vs dramatiq, which one?").spelled == {FOLDED + "dramatiq"}
    # what the asker wants to get to behave, and what something is to run under
    assert asked("how do I get jest to understand env vars?").spelled == {FOLDED + "jest"}
    assert asked("do the async methods work under trio?").spelled == {FOLDED + "trio"}
    assert asked("how do I get it to reload?").spelled == frozenset()
    # what the asker configures or installs for a purpose, in either number
    assert asked("how do I configure redbeat so it keeps state?").spelled == {FOLDED + "redbeat"}
    assert asked("deploy it to lambdas").spelled == {FOLDED + "lambda"}
    assert asked("how do I configure it so it keeps state?").spelled == frozenset()
    # a name with a dot or a hyphen is matched as written; two letters are too few for a name
    assert asked("can it publish my package to conda-forge?").spelled == {EXACT + "conda-forge"}
    assert asked("can it deploy to gcp?").spelled == {FOLDED + "gcp"}
    assert asked("can it ship the logs to es?").spelled == frozenset()
    # a thing asked about, named by words joined with hyphens, is named where they stand together
    styled = asked("does it support styled-components out of the box?")
    assert styled.spelled == {PHRASE + "styled components"}
    assert not evidence(
        styled, "Styles › Components\nStyled output for components.", lexicon
    ).carries
    assert asked("is there a built-in backup command?").spelled == frozenset()
    # "rather … than" compares nothing; a place the asker is in is no destination
    assert asked("I'd rather it fail than quietly pick another port").spelled == frozenset()
    assert asked("how do I get to the settings page?").spelled == frozenset()


def test_a_quoted_message_is_matched_by_most_of_its_terms() -> None:
    docs = [
        "FAQ › MySQL is throwing deadlock errors, what can I do?\nLower the isolation level.",
        "FAQ › Results\nResults are found in the backend once the task has run.",
        *(f"Tasks page {n}." for n in range(10)),
    ]
    lexicon = Lexicon.build(docs)
    message = asked('mysql: "Deadlock found when trying to get lock" errors all the time')
    assert message.musts == () and message.quoted == (("deadlock", "found", "lock"),)
    # the docs name the error without printing it: two of its three terms are enough
    assert evidence(message, docs[0].replace("errors", "lock errors"), lexicon).carries
    assert evidence(message, docs[0], lexicon).missing == ('"deadlock found lock',)
    assert not evidence(message, docs[1], lexicon).carries
    # half of a longer message is not enough
    longer = asked('mysql: "Deadlock found when trying to get lock on the table" errors')
    assert len(longer.quoted[0]) == 4
    assert not evidence(longer, docs[0].replace("errors", "lock errors"), lexicon).carries
    # a short quote is a name, every term of it a must
    assert asked('what does "lock found" mean?').musts == ("lock", "found")
    # the asker's own units inside a quote stay as written
    assert asked('"Some chunks are larger than 500 kB" on build').quoted[0][-1] == "kb"


def test_an_unknown_name_weighs_more_than_an_unknown_everyday_word() -> None:
    lexicon = Lexicon.build(CORPUS)
    name = evidence(asked("can I keep the cookies in Redis?"), CORPUS[0], lexicon)
    word = evidence(asked("can I keep the cookies in redis?"), CORPUS[0], lexicon)
    assert name.unknown_names > 0 and name.unknown_words == 0
    assert word.unknown_names == 0 and word.unknown_words == name.unknown_names
    weights = {"coverage_weight": 0.5, "unknown_weight": 0.7, "word_factor": 0.5}
    assert support(0.9, word, **weights) > support(0.9, name, **weights)
    # sentence starts, "I" and acronyms: capitals inside a word or a sentence mark a name
    names = asked("Where is Redis? Where do I use SQLite, says I. Where? PTO.").names
    assert names == {spelled_as("Redis"), spelled_as("SQLite"), spelled_as("PTO")}


def test_a_spelled_name_matches_only_itself_and_words_still_stem() -> None:
    lexicon = Lexicon.build([*CORPUS, "Install it from PyPI with pip."])
    # the word stemmer joins "pypy" and "pypi"; a name the asker spells is not stemmed
    pypy = evidence(asked("does it run on PyPy?"), "Install it from PyPI with pip.", lexicon)
    assert pypy.missing == (spelled_as("PyPy"),) and not pypy.carries
    pypi = evidence(asked("can I get it from PyPI?"), "Install it from PyPI with pip.", lexicon)
    assert pypi.carries and pypi.unknown == 0
    # everyday words keep stemming: "cookie" finds "Cookies", names match whatever the case
    cookie = evidence(asked("where is the cookie of the request?"), CORPUS[0], lexicon)
    assert cookie.coverage > 0.5
    assert evidence(asked("what does set_cookie do?"), CORPUS[1], lexicon).carries
    # but for a plural's ending: "Cookie" is written "Cookies" in the docs
    assert evidence(asked("how do I read a Cookie?"), CORPUS[0], lexicon).carries
    assert spelled_as("Policies") == spelled_as("Policy")
    # an acronym is only itself: HTTPS is not the plural of HTTP
    https = Lexicon.build([*CORPUS, "Served over HTTPS only."])
    assert not evidence(asked("do you post over HTTP?"), "Served over HTTPS only.", https).carries
    # but an acronym's plural takes a lower-case "s", either way round
    ides = "Most IDEs find the environment by itself."
    with_ides = Lexicon.build([*CORPUS, ides, "Set the URL of the index."])
    assert evidence(asked("which IDE can find it?"), ides, with_ides).carries
    assert evidence(
        asked("can I set several URLs?"), "Set the URL of the index.", with_ides
    ).carries
    assert spelled_as("IDEs") == spelled_as("IDE") != spelled_as("IDES")


def test_an_identifier_named_only_in_another_chunk_does_not_carry() -> None:
    example = "Output: {'event': 'hello', 'log_level': 'info'}"
    filtering = "Filter by log level: the level methods below the minimum are no-ops."
    lexicon = Lexicon.build([example, filtering, *CORPUS])
    question = asked("can I set the minimum log level with an env variable like LOG_LEVEL?")
    assert spelled_as("log_level") in question.identifiers
    assert not evidence(question, filtering, lexicon).carries
    assert evidence(question, example, lexicon).carries
    # a longer identifier that contains it is another name
    assert not evidence(question, "Add `add_log_level` to the chain.", lexicon).carries
    # a name most chunks have is what the documents are about, not a detail to carry
    about = Lexicon.build(["The Widget_Kit docs.", "Widget_Kit renders.", "Other."])
    assert evidence(asked("how do I start Widget_Kit?"), "Other.", about).carries
    # one that a few chunks in a hundred have is the docs' everyday vocabulary (a standard
    # folder), one chunk in a hundred a detail
    include = "Put `_pages` under include:"

    def site(naming: int) -> Lexicon:
        pages = (f"Page {n} is built." for n in range(99 - naming))
        return Lexicon.build([include, *pages, *(["Output goes to `_site`."] * naming)])

    folder = asked("my _pages folder doesn't show up in _site, how do I get it copied?")
    assert evidence(folder, include, site(3)).carries
    # 2% to the chunk (4 of 200) is enough
    many = [include, *(f"Page {n} is built." for n in range(195)), *(["Into `_site`."] * 4)]
    assert evidence(folder, include, Lexicon.build(many)).carries
    assert not evidence(folder, include, site(1)).carries
    # a capitalised name, an acronym or a brand prose also writes need only be known ("my
    # React frontend … the API", "my FastAPI app": the answer need not say either)
    brands = Lexicon.build([*CORPUS, "Works with FastAPI and React."])
    question = asked("is the Session cookie signed in my FastAPI app and React?")
    assert evidence(question, CORPUS[3], brands).carries


def test_terms_found_only_in_code_count_half() -> None:
    lexicon = Lexicon.build([*CORPUS, "other text"])
    prose = evidence(["rotat"], "We rotate keys.", lexicon)
    code = evidence(["rotat"], "Example:\n\n```\nrotate()\n```\n", lexicon)
    assert code.coverage == prose.coverage / 2


class Corpus:
    def __init__(self) -> None:
        self.texts = ["alpha beta"]
        self.version = "1"
        self.reads = 0

    def corpus_version(self) -> str:
        return self.version

    def corpus_texts(self) -> list[str]:
        self.reads += 1
        return list(self.texts)


async def test_term_statistics_are_rebuilt_only_when_the_corpus_changes() -> None:
    corpus = Corpus()
    lexicons = Lexicons(corpus)
    first = await lexicons.get()
    assert first is not None and first.known("alpha") and not first.known("gamma")
    assert await lexicons.get() is first and corpus.reads == 1
    corpus.texts, corpus.version = ["gamma"], "2"
    second = await lexicons.get()
    assert second is not None and second.known("gamma") and corpus.reads == 2
    assert await Lexicons(None).get() is None


class Similar:
    """An embedder that makes every text equally close, so coverage decides."""

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [[1.0, 0.0] for _ in texts]


async def test_a_list_item_is_one_unit_and_code_is_never_quoted() -> None:
    text = (
        "The middleware signs the session cookie. It is readable but not modifiable.\n\n"
        "* `max_age` - Session expiry in seconds. Defaults to 2 weeks.\n"
        "* `path` - The cookie path.\n\n"
        "```python\nmax_age = 14 * 24 * 60 * 60  # seconds in two weeks\n```\n"
    )
    source = Source(id=1, url="https://d/s", title="Sessions", text=text)
    answer, picks = await extract(
        "how long does the session cookie max_age last?",
        [source],
        EmbeddingGrader(Similar()),
        limit=3,
        lexicon=Lexicon.build([text, "unrelated"]),
    )
    assert "`max_age` - Session expiry in seconds. Defaults to 2 weeks." in answer
    # code is never quoted as prose: it may only be shown as the fenced block it is
    assert "14 * 24" not in answer.replace("```python\nmax_age = 14 * 24", "")
    # the limit's three, and the rest of a picked sentence's paragraph, which it brings
    prose = [p.text for p in picks if p.kind != "code"]
    assert len(prose) == 4 and "It is readable but not modifiable." in prose


async def test_adjacent_sentences_of_one_source_share_one_marker() -> None:
    text = "Keys rotate every day. Old keys expire after a day. Unrelated words follow here."
    source = Source(id=1, url="https://d/k", title="Keys", text=text)
    answer, picks = await extract(
        "when do keys rotate and old keys expire?",
        [source],
        EmbeddingGrader(Similar()),
        limit=2,
        lexicon=Lexicon.build([text, "other"]),
    )
    assert len(picks) == 2 and answer.count("[1]") == 1 and answer.endswith(". [1]")


async def test_no_answer_names_the_closest_section_on_the_topic_unlinked(
    store: KnowledgeStore, embedder: Embedder
) -> None:
    p = Pipeline(store, embedder=embedder, llm=None, web=None, settings=PipelineSettings())
    # on the topic (key rotation), but no passage gives 48 hours
    done = await p.answer(Question(text="Do rotated API keys keep working for 48 hours?"))
    assert done.route is Route.NO_ANSWER and done.answer.references == ()
    first, hint = done.answer.text.split("\n\n")
    assert "couldn't find" in first
    assert hint == "Closest match, which may not answer it: “API keys › Rotating API keys”."
    # a question the documents are not about at all gets no title
    done = await p.answer(Question(text="What is the boiling point of tungsten?"))
    assert done.route is Route.NO_ANSWER and "Closest match" not in done.answer.text
    off = PipelineSettings(closest_match=False)
    p = Pipeline(store, embedder=embedder, llm=None, web=None, settings=off)
    done = await p.answer(Question(text="Do rotated API keys keep working for 48 hours?"))
    assert "Closest match" not in done.answer.text and "\n" not in done.answer.text.strip()


def test_a_word_the_embedder_cannot_read_weighs_as_a_name_whatever_its_case() -> None:
    lexicon = Lexicon.build([*CORPUS, "Run a function in the thread pool."])
    vocabulary = frozenset({"run", "function", "stop", "spoof", "shut", "down", "cookie"})
    # "async" is in no chunk and not a token of the model: a close embedding says nothing
    question = asked("how do I run an async function?", vocabulary=vocabulary)
    found = evidence(question, CORPUS[0], lexicon)
    assert found.unknown_names > 0 and found.unknown_words == 0
    # an everyday word, or an inflection of one, is more often a paraphrase
    for paraphrase in ("how do I stop a function?", "it shuts down", "spoofed cookies"):
        assert asked(paraphrase, vocabulary=vocabulary).names == frozenset(), paraphrase
    # without the embedder's vocabulary, a lower-case word stays a word
    assert asked("how do I run an async function?").names == frozenset()


def test_a_question_that_asks_for_an_amount_needs_a_passage_that_states_one() -> None:
    lexicon = Lexicon.build(CORPUS)
    question = asked("is there a limit on how many cookies a response can set?")
    assert not evidence(question, CORPUS[1].replace("max_age seconds", "a while"), lexicon).carries
    assert evidence(question, "A response may set up to 50 cookies.", lexicon).carries
    assert evidence(question, "A response may set an unlimited number of cookies.", lexicon).carries
    # a number only inside a code block is not stated
    assert not evidence(question, "Cookies:\n```\nassert n == 0\n```", lexicon).carries
    assert asked("how do I set a cookie?").musts == ()
    # the amount must be of something the question names, in the same paragraph or item
    # (in docs where cookies are not in every chunk: there, they would name nothing)
    docs = Lexicon.build([*CORPUS, *(f"Routing page {n}." for n in range(20))])
    other = "Cookies are set per response.\n\nThese two methods are all you need."
    assert not evidence(question, other, docs).carries
    assert evidence(question, other, lexicon).carries
    item = "* `max_cookies` - how many cookies a response keeps.\n  Defaults to `20`.\n* `path`"
    assert evidence(question, item, docs).carries


def test_a_time_of_day_the_asker_names_needs_a_passage_that_states_one_of_what_they_ask() -> None:
    docs = [
        "Periodic tasks › Crontab\nRun a task on a schedule. Every Monday morning at 7:30 a.m.:"
        " ``crontab(hour=7, minute=30, day_of_week=1)``.",
        "Periodic tasks › Intervals\nRun a task every few seconds with a timedelta schedule.",
        "Backups › Scheduled backups\nBackups run on a cron schedule. The example below backs "
        "up every day at midnight UTC.\n\n```\nbackup.cron=0 0 * * *\n```",
        "Releases › Cadence\nNew releases are published on Tuesdays at 10:00 UTC.",
        *(f"Tasks page {n}." for n in range(20)),
    ]
    lexicon = Lexicon.build(docs)
    monday = asked("how do I run a task every monday at 7:30am?")
    # the docs write "7:30 a.m.", never the asker's "30am"
    assert monday.musts == (TIME,) and "30am" not in " ".join(monday.terms)
    assert evidence(monday, docs[0], lexicon).carries
    assert not evidence(monday, docs[1], lexicon).carries
    nightly = asked("how do I make backups run every night at 2am on their own?")
    assert nightly.musts == (TIME,)
    assert evidence(nightly, docs[2], lexicon).carries
    # a time of something else the question does not name (releases, not backups)
    assert not evidence(nightly, docs[3], lexicon).carries
    assert asked("what time does it rotate the log? at 2 p.m.?").musts == (TIME,)
    assert TIME not in asked("how do I run a task every monday?").musts


def test_a_size_unit_written_alone_is_asked_as_its_word_not_as_a_name() -> None:
    docs = [
        "Workers › Memory\nThe maximum resident memory, in kilobytes, a worker may use.",
        "Workers › Tasks\nThe maximum number of tasks a worker may run.",
    ]
    lexicon = Lexicon.build(docs)
    unit = asked("worker memory limit, is that number in MB or KB?")
    assert unit.spelled == frozenset() and stem("kilobytes") in unit.terms
    assert evidence(unit, docs[0], lexicon).carries
    assert evidence(unit, docs[0], lexicon).coverage > evidence(unit, docs[1], lexicon).coverage
    # after a number it is an amount, as written; a rate is left alone
    assert asked("can I cap the cache at 512MB?").musts == ("512mb",)
    assert spelled_as("KB") in asked("transfers crawl at a few hundred KB/s").spelled


def test_a_name_the_asker_writes_that_no_chunk_has_leaves_every_passage_without_it() -> None:
    lexicon = Lexicon.build(CORPUS)
    # graded however close, no passage of a knowledge base that never names Sanic carries it
    assert not evidence(asked("how do I set a cookie in a Sanic app?"), CORPUS[1], lexicon).carries
    assert evidence(asked("how do I set a cookie in my app?"), CORPUS[1], lexicon).carries
    # a known name is no obstacle, and only the asker's own words count
    assert evidence(asked("what does Set a cookie do?"), CORPUS[1], lexicon).carries
    condensed = asked("and how do I delete it? Sanic cookie", own="and how do I delete it?")
    assert evidence(condensed, CORPUS[1], lexicon).carries


def test_a_name_only_in_a_links_target_is_not_known() -> None:
    docs = [
        "Sessions are kept in a signed cookie; see [the session plugin](https://example.org/hatchery/poetry-sessions).",
        "Set a cookie on the response with set_cookie.",
    ]
    lexicon = Lexicon.build(docs)
    # the page links to a project whose address has the word; it never writes about Poetry
    found = evidence(asked("how do I move my Poetry project over?"), docs[0], lexicon)
    assert not found.carries and found.missing == ("~poetry",)
    assert "poetry" not in lexicon.df and lexicon.known("~plugin")
    # the link's text is read as prose
    assert evidence(asked("where is the Session plugin?"), docs[0], lexicon).carries


def test_a_name_of_several_words_is_known_only_where_the_docs_write_it_together() -> None:
    docs = [
        "Read the changelog before upgrading. The docs are built with mkdocs.",
        "Each build runs in a CI job of its own.",
    ]
    lexicon = Lexicon.build(docs)
    # every word is known ("Read", "Docs"), the name they make is not
    assert not evidence(asked("can I host the docs on Read the Docs?"), docs[0], lexicon).carries
    assert not evidence(asked("how do I run it on GitLab CI?"), docs[1], lexicon).carries
    hosted = Lexicon.build([*docs, "The docs are hosted on Read the Docs."])
    assert evidence(asked("can I host the docs on Read the Docs?"), docs[0], hosted).carries
    # a name at the start of a sentence, and words apart, make no name of several words
    assert evidence(asked("Read the changelog? Docs are where?"), docs[0], lexicon).carries
    assert evidence(asked("does the CI job run Docs, then builds?"), docs[1], lexicon).carries


def test_a_name_written_as_one_word_matches_the_docs_compound_of_its_words() -> None:
    docs = ["Upload to the test index at https://test.pypi.org/legacy/ first."]
    lexicon = Lexicon.build(docs)
    assert evidence(asked("how do I upload to TestPyPI first?"), docs[0], lexicon).carries
    assert not evidence(asked("how do I upload to TestIndexPyPI?"), docs[0], lexicon).carries


def test_an_api_listings_options_are_code() -> None:
    text = (
        "Plugin utilities\n::: hatch.utils.Platform\n    options:\n      members:\n"
        "      - run_command\n      - format_for_subprocess\n\nThe platform runs commands."
    )
    parts = split_code(text)
    assert "run_command" in parts.code and "run_command" not in parts.prose
    assert "The platform runs commands." in parts.prose and "Plugin utilities" in parts.prose


def test_a_value_the_asker_assigns_is_their_data_not_a_name_to_match() -> None:
    docs = ['The version is read from a pattern such as `VERSION = "..."` in the file.']
    lexicon = Lexicon.build(docs)
    mine = asked("my file says VERSION = 'b1.2.3', can the version still be read?")
    assert mine.musts == () and "=b1" not in mine.terms
    condensed = asked("can the version still be read?", own="VERSION = 'b1.2.3', read?")
    assert condensed.spelled == frozenset({"=version"}) and condensed.musts == ()
    assert evidence(mine, docs[0], lexicon).carries
    # written on its own, the same value is a name the documents must have
    assert not evidence(asked("is version b1.2.3 read?"), docs[0], lexicon).carries


def test_a_value_the_asker_offers_to_have_checked_is_theirs_not_a_name_to_match() -> None:
    docs = ["Posts › Creating posts\nName each post YEAR-MONTH-DAY-title.MARKUP."]
    lexicon = Lexicon.build(docs)
    offered = asked("what's a valid post filename, is 2023-1-5-hello.md ok?")
    assert offered.musts == () and evidence(offered, docs[0], lexicon).carries
    assert asked("would 10MB be fine for the limit?").musts == ()
    # asked about, not offered, the same value must be in the passage
    assert asked("why does 2023-1-5-hello.md not build?").musts == ("2023",)


def test_an_identifier_names_each_of_its_words() -> None:
    docs = ["Set `PYTHON_VARIANT_GIL` to pick the build without the lock."]
    lexicon = Lexicon.build(docs)
    # the docs name the GIL only inside the variable's name; that is still a mention
    assert evidence(asked("can I get a build without the GIL?"), docs[0], lexicon).carries
    assert not evidence(asked("can I get a build without the JIT?"), docs[0], lexicon).carries


def test_a_file_name_with_a_leading_dot_is_a_name_the_docs_must_write() -> None:
    docs = ["Each env reads its variables from the env-vars table.", "Keep `*.so` files."]
    lexicon = Lexicon.build(docs)
    # "env" is everywhere; a ``.env`` file is nowhere
    assert not evidence(asked("can I load variables from a .env file?"), docs[0], lexicon).carries
    assert evidence(asked("can I load variables from an env table?"), docs[0], lexicon).carries
    assert evidence(asked("how do I keep the .so files?"), docs[1], lexicon).carries


def test_where_a_name_of_several_words_starts_and_ends() -> None:
    docs = [
        "Read the Docs hosts the pages.",
        "Mirror to GitHub or GitLab, then search Google. Each build runs in a CI job.",
    ]
    lexicon = Lexicon.build([*docs, *CORPUS])
    # a chunk may open with the name; a question may end with it, with no question mark
    assert evidence(asked("can the pages go on Read the Docs"), docs[0], lexicon).carries
    assert not evidence(asked("can it go on Mirror the Docs"), docs[0], lexicon).carries
    # a comma, a word that is not a name, or the start of the question ends a name
    assert evidence(asked("do I mirror to GitHub, GitLab?"), docs[1], lexicon).carries
    assert evidence(asked("Mirror GitHub, then what?"), docs[1], lexicon).carries
    assert evidence(asked("should I Google it first?"), docs[1], lexicon).carries
    assert '"gitlab' not in "".join(asked("does GitLab the company mirror?").spelled)
    # "GitHub" and "GitLab" are known, the name they would make is not
    assert not evidence(asked("do I mirror to GitHub GitLab?"), docs[1], lexicon).carries
    assert not evidence(asked("does the build run on GitLab CI?"), docs[1], lexicon).carries


def test_more_chunks_counted_know_their_names_and_phrases() -> None:
    lexicon = Lexicon.build(CORPUS)
    more = lexicon.including(["Deploy it on Cloud Run with `HATCH_SANIC_MODE` set."])
    assert more.n == lexicon.n + 1 and more.df["cooki"] == lexicon.df["cooki"]
    assert (
        more.df[stem("deploy")] == 1
        and lexicon.including(CORPUS).df["cooki"] == 2 * lexicon.df["cooki"]
    )
    question = asked("can I deploy to Cloud Run?")
    assert not evidence(question, CORPUS[0], lexicon).carries
    assert evidence(question, CORPUS[0], more).carries
    # a capitalised name written inside an identifier is known too
    assert evidence(asked("is Sanic supported?"), CORPUS[0], more).carries


def test_a_name_the_docs_write_only_in_code_blocks_is_not_one_they_cover() -> None:
    ci = (
        "Continuous integration › Woodpecker\n"
        "The pipeline below builds the project on every push.\n\n"
        "```yaml\nsteps:\n  build:\n    image: podman/stable\n    run: make build\n```"
    )
    cache = "Build cache\nCompiled objects are kept in the build folder between builds."
    lexicon = Lexicon.build([ci, cache, *CORPUS])
    question = asked("how do I keep compiled objects cached between Podman image builds?")
    # "podman" is only a value in a CI example: no passage is about Podman
    assert not evidence(question, cache, lexicon).carries
    assert not evidence(question, ci, lexicon).carries
    assert evidence(asked("how do I keep compiled objects between builds?"), cache, lexicon).carries
    # written in the docs' prose, inline code or a heading, a name is one they cover
    for said in ("Podman users mount the folder.", "Set `Podman` as the runner.", "## Podman"):
        prose = Lexicon.build([ci, cache, said, *CORPUS])
        assert evidence(question, cache, prose).carries, said
    # the asker who writes it as code asks about the code, in any of their code spans
    assert evidence(asked("what does `Podman` do in the pipeline?"), ci, lexicon).carries
    assert asked("is it `Podman` or `Docker`?").coded >= {
        spelled_as("Podman"),
        spelled_as("Docker"),
    }
    # code names are code's: an identifier, a CamelCase class, a file name
    hook = "Hooks\n```python\nclass MyBuildHook(BuildHookInterface): ...\nimport IPython\n```"
    hooks = Lexicon.build([hook, *CORPUS])
    assert evidence(asked("can I subclass BuildHookInterface twice?"), hook, hooks).carries
    assert evidence(asked("does it work in IPython?"), hook, hooks).carries
    # more chunks counted keep the difference
    more = lexicon.including(["Podman is supported."])
    assert evidence(question, cache, more).carries
    assert not evidence(question, cache, lexicon.including(["```\npodman run\n```"])).carries
    # statistics that never counted prose take every known name as written in prose
    assert Lexicon(lexicon.df, lexicon.n, lexicon.spellings).in_prose(spelled_as("Podman"))


def test_an_acronym_the_docs_write_only_in_code_is_still_known() -> None:
    # QuestDB's docs call it an endpoint; "url" is only a key of an example's config
    example = (
        "Scraping › Example\nPoint the scraper at the server.\n\n"
        "```yaml\ntargets:\n  - url: http://db:9003/metrics\n```"
    )
    health = (
        "Health check\nA load balancer checks that the server is up by polling the "
        "`/status` endpoint on port 9003, which answers 200 while the server is healthy."
    )
    lexicon = Lexicon.build([example, health, *CORPUS])
    question = asked("what URL should our load balancer hit for a health check?")
    assert evidence(question, health, lexicon).carries
    assert evidence(question, health, lexicon).unknown_names == 0.0
    # a capitalised name only a code block has is still no subject of the docs
    named = Lexicon.build([example.replace("url:", "Telegraf:"), health, *CORPUS])
    assert not evidence(asked("can our Telegraf poll it?"), health, named).carries
    # an acronym no chunk has is unknown, whatever the case
    assert not evidence(asked("what is the health check's SLA?"), health, lexicon).carries


def test_british_and_american_spellings_are_one_word() -> None:
    for british, american_ in (
        ("optimisation", "optimization"),
        ("optimise", "optimize"),
        ("customised", "customized"),
        ("colour", "color"),
        ("behaviours", "behaviors"),
        ("centre", "center"),
        ("catalogue", "catalog"),
        ("licence", "license"),
        ("analyse", "analyze"),
    ):
        assert stem(british) == stem(american_), british
    # words that only end like a British spelling keep matching themselves, and stay apart
    assert stem("promise") == stem("promises") and stem("hour") != stem("hor")
    assert stem("four") == "four" and stem("flour") == "flour" and stem("genre") == "genr"
    profile = "Profiles › Release\nThe release profile sets the optimization level."
    lexicon = Lexicon.build([profile, *CORPUS])
    question = asked("what optimisation level does a release use?")
    # a British spelling the docs write the American way is not an unknown word
    found = evidence(question, profile, lexicon)
    assert found.unknown == 0 and found.coverage == 1.0
    # nor one the embedder cannot read, when it reads the American one
    assert asked("optimisations", vocabulary=frozenset({"optimization"})).names == frozenset()
    assert asked("optimisations", vocabulary=frozenset({"level"})).names == {stem("optimize")}


def test_the_docs_subject_joined_to_a_word_no_chunk_has_names_a_tool_they_never_mention() -> None:
    docs = [
        "Widgetctl › Testing\nRun `widgetctl test` to run the test suite of every package.",
        "Widgetctl › Plugins\nwidgetctl-lint checks the manifest. Plugins extend widgetctl.",
        "Widgetctl › Packages\nA package is built by widgetctl from its manifest.",
        "Requests › Sessions\nEach per-request value lives on the request.",
    ]
    lexicon = Lexicon.build(docs)
    assert lexicon.subject == stem("widgetctl")
    question = asked("how do I run the test suite with widgetctl-nextest?")
    assert question.hyphenated == {(stem("widgetctl"), stem("nextest"))}
    # graded however close, the testing section is not about that tool, which it lacks by name
    assert evidence(question, docs[0], lexicon).missing == ('"widgetctl nextest',)
    # a plugin the docs name, or one made of known words, is no obstacle
    assert evidence(asked("what does widgetctl-lint check?"), docs[1], lexicon).carries
    assert evidence(asked("is there a widgetctl-test command?"), docs[0], lexicon).carries
    # nor is an everyday compound that does not name the subject ("per-session")
    assert evidence(asked("where do per-session values live?"), docs[3], lexicon).carries
    # small words inside the compound are no part of the name
    assert asked("a widgetctl-in-docker setup").hyphenated == {(stem("widgetctl"), stem("docker"))}
    # a number joined to the subject is a version in a pasted path, not a tool; small words
    # alone join into nothing
    assert asked("crash in vendor/gems/widgetctl-3.4.3/lib").hyphenated == frozenset()
    assert asked("it is copied as-is").hyphenated == frozenset()
    assert Lexicon.build([]).subject is None


def test_a_name_the_asker_says_they_do_not_use_is_not_what_they_ask_about() -> None:
    docs = [
        "Read the version from any file with a pattern you configure.",
        "By default the `__version__` attribute of the package is read.",
        *CORPUS,
    ]
    lexicon = Lexicon.build(docs)
    theirs = "my version sits in a constant and not __version__, can a pattern read it?"
    assert evidence(asked(theirs), docs[0], lexicon).carries
    # named as what they use, the identifier is what the passage must have
    assert not evidence(
        asked("my version sits in __version__, can a pattern read it?"), docs[0], lexicon
    ).carries
    instead = asked("can I read the version from a pattern instead of Poetry?")
    # what they want instead ("a pattern") is named by its place, the docs' own word here
    assert instead.spelled == {FOLDED + "pattern"} and spelled_as("Poetry") in instead.terms
    assert evidence(instead, docs[0], lexicon).missing == ()
    assert asked("can I read the version from Poetry?").spelled == {spelled_as("Poetry")}
    assert asked("can I build it with `podman` instead of `docker`?").musts == ("podman",)
    assert asked("does it build, rather than v1, the v2 format?").musts == ("v2",)
    # "as-is instead of compiled" is the language's, no name
    assert asked("my scss file gets copied as-is instead of compiled to css").spelled == frozenset()
    # still a word of the question, and one the embedder may not read
    vocabulary = {"build", "pip", "format"}
    unused = asked("build with pip, not Zzyzx_Format", vocabulary=vocabulary)
    assert unused.identifiers == frozenset() and stem("zzyzx") in unused.names
    assert asked("build Redis with Zzyzx_Format", vocabulary=vocabulary).identifiers == {
        spelled_as("Zzyzx_Format")
    }


def test_an_amount_the_asker_says_they_have_is_their_situation_not_a_number_to_match() -> None:
    docs = ["To use less RAM, lower the size of the database cache."]
    lexicon = Lexicon.build(docs)
    had = asked("my board has 512MB of RAM, how do I use less memory?")
    assert had.musts == () and evidence(had, docs[0], lexicon).carries
    assert asked("we have about 2 TB to sync, can I seed it from a disk?").musts == ()
    # the amount they want is what the answer must state
    assert asked("can I cap the cache at 512MB?").musts == ("512mb",)
    # nor is a feature written with a digit: it is what the docs must name
    assert asked("does the admin GUI have 2FA?").musts == ("2fa",)
    assert asked("we have 8 GB and 4 vCPUs, how many workers?").musts == ("<amount>",)
    # a version is not an amount
    assert asked("my dep has 1.20.1 out, why?").musts == ("1.20",)


def test_a_value_the_asker_gave_a_setting_or_their_disk_is_their_situation() -> None:
    docs = [
        "Storage › Operational aspects\nExpired blocks are removed in the background, up to two"
        " hours after they expire. Keep the retention size to 80-85% of the disk.",
    ]
    lexicon = Lexicon.build(docs)
    retention = asked("I set retention to 7d but old data is still there, is cleanup instant?")
    assert retention.musts == () and evidence(retention, docs[0], lexicon).carries
    disk = asked("our disk is 500GB, what should the retention size be?")
    assert disk.musts == () and evidence(disk, docs[0], lexicon).carries
    assert asked("we've changed the timeout to 30s and it fails after 10s").musts == ("10s",)
    # only the value is theirs: the setting they name in backticks is still asked about
    named = asked("after the upgrade we set `retention_time` to 7d, is cleanup instant?")
    assert named.musts == (stem("retention"), stem("time"))
    # the value they ask about stays
    assert asked("is 500GB enough for a year?").musts == ("500gb",)
    assert asked("the disk will be full in 48 hours, how do I extrapolate?").musts == ("48",)


def test_a_status_codes_plural_a_percentiles_short_name_and_a_major_version() -> None:
    docs = [
        "FAQ › 503 instead of 404\nAdd a catch-all router that answers 503.",
        "Functions › histogram_quantile\nTo calculate the 90th percentile of request durations,"
        " use histogram_quantile(0.9, rate(http_request_duration_seconds_bucket[10m])).",
        "Prometheus 3.0 migration guide › holt_winters renamed\nThe `holt_winters` function is"
        " now `double_exponential_smoothing`.",
        "Prometheus 2.x › holt_winters\nThe `holt_winters` function smooths a gauge.",
    ]
    lexicon = Lexicon.build(docs)
    # an HTTP error status is one of the question's words, not a number a passage must state
    codes = asked("clients do not like 404s, can it answer 503 instead?")
    assert codes.musts == () and {spelled_as("404"), spelled_as("503")} <= set(codes.terms)
    assert evidence(codes, docs[0], lexicon).carries
    assert evidence(codes, docs[0], lexicon).coverage > evidence(codes, docs[1], lexicon).coverage
    assert asked("our logs are full of 5xx and 500s").musts == ("5xx",)
    p95 = asked("p95 latency from a histogram per job?")
    assert p95.musts == () and stem("percentile") in p95.terms
    assert evidence(p95, docs[1], lexicon).carries
    # a version the release names "3.0" or "3.x" is the asker's "v3"; "2.x" is not
    v3 = asked("my holt_winters queries broke after upgrading to v3")
    assert v3.musts == ("v3",)
    assert evidence(v3, docs[2], lexicon).carries
    assert not evidence(v3, docs[3], lexicon).carries
    assert evidence(v3, "Since v3.9 the flag is a no-op.", lexicon).carries


def test_an_http_error_status_is_a_word_of_the_question_not_a_number_to_state() -> None:
    # docs say what happens ("a 404 without the trailing slash" is "not found") more often
    # than they print the code the asker got
    page = (
        "Dashboard › Path\nThe dashboard is served at /dashboard/; the trailing slash is required."
    )
    errors = "Errors › Pages\nA router that matches nothing answers 404."
    slash = asked("the dashboard url gives a 404 when I leave off the trailing slash")
    assert slash.musts == () and evidence(slash, page, Lexicon.build([page, errors])).carries
    # documents that never write the code at all still have nothing about it
    assert not evidence(slash, page, Lexicon.build([page])).carries
    assert asked("my pager links to /page1 and it 404s").musts == ("page1",)
    assert asked("how do I reject uploads over 10MB with a 413 at the proxy?").musts == ("10mb",)
    # a number that is no status code stays, and so does a size in a status code's range
    assert asked("we only open 443 on the firewall, which challenge works?").musts == ("443",)
    assert asked("the limit is 420 requests, can I raise it?").musts == ("420",)
    assert asked("is a 500 kB chunk too big?").musts == ("500",)
    assert asked("is 500KB too big?").musts == ("500kb",)


def test_a_rough_count_is_no_term_of_the_question() -> None:
    lexicon = Lexicon.build(["Transfers are slow when a folder holds many small files."])
    rough = asked("transfers are slow with a few hundred files, thousands in all?")
    assert rough.terms == (stem("transfers"), stem("slow"), stem("files"))
    found = evidence(rough, "Transfers are slow with many small files.", lexicon)
    assert found.unknown == 0 and found.coverage == 1.0
    # a price "per million" is a unit the docs must state, not an estimate
    assert stem("million") in asked("how much does it cost per million events?").terms


def test_the_askers_estimates_machine_and_dates_are_their_situation_not_terms() -> None:
    docs = [
        "Partitioning › Choosing an interval\nFor 30-500 million rows per day, partition by HOUR.",
        "Health checks › Tuning\nRaise the probe timeout when the VM is busy.",
        "Retention › Expiry\nRows older than the TTL are dropped with their partition.",
    ]
    lexicon = Lexicon.build(docs)
    estimate = asked("we get roughly 50 million rows a day, which partition interval?")
    assert estimate.musts == () and not estimate.names
    assert evidence(estimate, docs[0], lexicon).carries
    assert asked("a column with about 20 million distinct ids uses memory").musts == ()
    machine = asked("the probe keeps failing on a 4-vCPU VM, what can I tune?")
    assert machine.musts == () and spelled_as("vCPU") not in machine.terms
    assert evidence(machine, docs[1], lexicon).carries
    dated = asked("someone inserted a row dated 2100, will the TTL drop the table?")
    assert dated.musts == () and evidence(dated, docs[2], lexicon).carries
    assert asked("a row from 2024-01-15T10:00:00 is missing").musts == ()
    # what they ask for stays: an amount to set, a clock time they want, a bare number
    assert asked("can I cap the cache at about 512MB?").musts == ()
    assert asked("can I cap the cache at 512MB?").musts == ("512mb",)
    assert asked("can it only sync between 1am and 6am?").musts == (TIME,)
    assert asked("does it run on a 64-bit ARM board?").musts == ("64",)
    assert asked("we get 50 million rows a day, which interval?").musts == ()
    # "~" is chat's "about" (not a path's "~/.cache", nor a version range's "~=1.2")
    assert asked("we back up ~40 machines, one big repo or one per box?").musts == ()
    assert asked("need to get ~500 GB back after a disk died").musts == ()
    assert asked("what does ~/.cache/borg2 hold?").musts == ("borg2",)
    assert asked("which versions does ~=12.4 allow?").musts == ("12",)


def test_a_question_when_a_release_comes_needs_a_passage_that_states_a_date_of_it() -> None:
    docs = [
        "Releases › Schedule\nVersion 3.0 was released in March 2026; 3.1 follows in Q3.",
        "Releases › Upgrading\nVersion 3.0 drops the old config format. Upgrade with care.",
        "Backups › Scheduled backups\nThe example archive is named daily-2024-01-15.",
        *(f"Tasks page {n}." for n in range(20)),
    ]
    lexicon = Lexicon.build(docs)
    final = asked("when is 3.0 final going to be released?")
    assert final.musts[-1] == DATE
    assert evidence(final, docs[0], lexicon).carries
    # a passage on the release that names no date, or a date of something else
    assert not evidence(final, docs[1], lexicon).carries
    assert not evidence(final, docs[2], lexicon).carries
    # a year alone is a date
    year = "Releases › Final\nThe final 3.0 release is planned for 2027, after the betas."
    assert evidence(final, year, Lexicon.build([*docs, year])).carries
    assert asked("when will the next major version be out?").musts == (DATE,)
    # a version answers when a feature came, and "when" may ask about something else
    assert DATE not in asked("when was the json flag added?").musts
    assert DATE not in asked("when do I need to release the lock?").musts
    assert DATE not in asked("when I run 3.0 the output is garbled, why?").musts
    # a name's next major version, written without its dots ("jekyll 5")
    assert asked("when is jekyll 5 coming out?").musts == (DATE,)
    assert asked("when will django v6 be released?").musts == ("v6", DATE)
    # a count beside "will" or "with" is no release
    assert DATE not in asked("when will 5 workers be available?").musts
    assert DATE not in asked("when run with 4 threads is it out of memory?").musts


def test_a_release_is_matched_as_far_as_its_first_part_of_two_digits() -> None:
    docs = [
        # a log line's time and a size hold a "10", not the 2.10 release
        "Install › From source\nThe server prints 10:32:02 [INF] Starting; the image is 10 MB.",
        "Releases › 2.10\nVersion 2.10 added the new stream options.",
        "Releases › Patches\nUpgrade to 2.10.3 for the fix.",
        *(f"Streams page {n}." for n in range(20)),
    ]
    lexicon = Lexicon.build(docs)
    asked_of = asked("what changed in 2.10?")
    assert asked_of.musts == ("2.10",)
    assert "2.10" in evidence(asked_of, docs[0], lexicon).missing
    assert evidence(asked_of, docs[1], lexicon).carries
    # a patch release is of its line
    assert evidence(asked_of, docs[2], lexicon).carries
    # "2.1" is another line
    other = "Releases › 2.1\nVersion 2.1 added streams."
    assert "2.10" in evidence(asked_of, other, Lexicon.build([*docs, other])).missing
    # a calendar version's line is its year, an address's its first part
    assert asked("it broke after 2026.1.0").musts == ("2026",)
    assert asked("bind it to 127.0.0.1 only").musts == ("127",)
    # single digits name no line: "VersionTLS12" states TLS 1.2
    assert asked("how do I refuse anything older than tls 1.2?").musts == ()
    assert asked("can we jump from 1.9 to 1.12?").musts == ("1.12",)
    # a release of single digits written with its "v" is still that major version
    assert asked("does v1.2 still get fixes?").musts == ("v1",)


def test_a_name_only_in_a_links_text_is_not_one_the_docs_cover() -> None:
    docs = [
        "Community › Help\nAsk on the [Acme Community Slack](https://slack.example.org) or the forum.",
        "Tables › Suspended tables\nA table is suspended when a write fails; resume it with ALTER.",
    ]
    question = asked("can it post to our Slack channel when a table is suspended?")
    lexicon = Lexicon.build(docs)
    assert not evidence(question, docs[1], lexicon).carries
    assert lexicon.known(spelled_as("Slack"))
    # written in the docs' own words, the name is covered
    said = Lexicon.build([*docs, "Alerts › Slack\nAlerts can post to a Slack channel."])
    assert evidence(question, docs[1], said).carries


def test_an_amount_is_stated_of_the_thing_asked_not_echoed_from_the_question() -> None:
    docs = [
        "Indexes › Capacity\nEach table index stores row ids in blocks of `256` values.",
        "Tables › Limits\nA table can have up to 2,048 columns.",
        "Updates › Versions\nIf a single column changes, only a single column file is rewritten.",
        *(f"Query page {n} explains joins." for n in range(20)),
    ]
    lexicon = Lexicon.build(docs)
    most = asked("what's the most columns a single table can have?")
    assert AMOUNT in most.musts and most.counted == (stem("columns"),)
    assert evidence(most, docs[1], lexicon).carries
    # a number of something else the question names ("table"), or its own "single", is none
    assert not evidence(most, docs[0], lexicon).carries
    assert not evidence(most, docs[2], lexicon).carries
    assert AMOUNT in asked("what is the longest name a table may have?").musts
    assert AMOUNT not in asked("what's the most common way to add a column?").musts
    assert asked("how much slower do inserts get with an index?").counted == ()
    assert asked("how many threads does a pool get?").counted == (stem("threads"),)


HELM_DOCS = [
    "Installation › Kubernetes\nInstall Prometheus on your Kubernetes cluster with the operator.",
    "Installation › Helm\nThe community Helm chart installs Prometheus and its exporters.",
    "Configuration › Rules\nRules files are reloaded when the configuration is reloaded.",
    *(f"Querying page {n} explains selectors." for n in range(20)),
]


def test_a_question_whether_there_is_a_thing_needs_a_passage_that_names_it() -> None:
    lexicon = Lexicon.build(HELM_DOCS)
    question = asked("is there an official helm chart to install prometheus on our cluster?")
    # the thing's name ends where its purpose starts, and "official" says how good, not which
    assert question.thing == tuple(terms("helm chart"))
    # installing Prometheus on Kubernetes is not a word about a Helm chart
    found = evidence(question, HELM_DOCS[0], lexicon)
    assert THING in found.missing and not found.carries
    assert evidence(question, HELM_DOCS[1], lexicon).carries
    # 0 turns the rule off
    assert evidence(question, HELM_DOCS[0], lexicon, thing_share=0).carries
    # the thing is named by nearly all of its weight: "for Docker containers" names no Docker
    # image, though "docker" is the rarer word
    docker = [
        "Backups › Databases\nFor Docker containers, perhaps docker's save command can help.",
        "Images › Disk images\nBack up a disk image as a raw file; images of VMs are large.",
        "Install › Container\nThe official Docker image runs the server as PID 1.",
        *(f"Backups page {n} explains archives." for n in range(20)),
    ]
    image = asked("is there an official docker image for running it?")
    assert image.thing == tuple(terms("docker image"))
    assert not evidence(image, docker[0], Lexicon.build(docker)).carries
    assert evidence(image, docker[0], Lexicon.build(docker), thing_share=0.5).carries
    assert evidence(image, docker[2], Lexicon.build(docker)).carries
    # the kind of thing it is need not be named: "Run `widgetctl test`" is the command
    command = asked("is there a widgetctl-test command?")
    assert command.thing == tuple(terms("widgetctl test"))
    run = "Run `widgetctl test` to test every package."
    assert evidence(command, run, Lexicon.build([*HELM_DOCS, run])).carries
    # when the kind is all the thing's name says, what it is for names the thing
    assert asked("is there support for websockets?").thing == tuple(terms("websockets"))
    assert asked("is there a plugin for Grafana dashboards?").thing == tuple(
        terms("Grafana dashboards")
    )
    guide = asked("is there a guide for migrating from another database?")
    assert guide.thing == tuple(terms("migrating"))
    # a name written as one word is named by the same words joined, as a known name is
    test_pypi = "Publish to https://test.pypi.org/legacy/ first."
    index = asked("does hatch support TestPyPI?")
    with_it = Lexicon.build([*HELM_DOCS, test_pypi])
    assert evidence(index, test_pypi, with_it).carries
    assert not evidence(index, "Publish to the index first.", with_it).carries
    # "built-in" says it comes with the software, not what it is
    assert asked("does it have built-in anomaly detection?").thing == tuple(
        terms("anomaly detection")
    )
    supports = asked("does prometheus support the transactional outbox pattern between rules?")
    assert supports.thing == tuple(terms("transactional outbox pattern"))
    assert not evidence(supports, HELM_DOCS[2], lexicon).carries
    # a third of its weight named is not most of it
    assert not evidence(supports, "Rules follow one pattern.", lexicon).carries


def test_a_question_which_licence_needs_a_passage_that_names_a_licence() -> None:
    docs = [
        "Platforms › iOS\nThere is an open source app for iOS; ship it with your product.",
        "Project › Licence\nThe project is licensed under the Mozilla Public License 2.0.",
        *(f"Folders page {n}." for n in range(20)),
    ]
    lexicon = Lexicon.build(docs)
    question = asked("what licence is it released under, can we ship it in our product?")
    assert question.thing == tuple(terms("licence"))
    found = evidence(question, docs[0], lexicon)
    assert THING in found.missing and not found.carries
    # "licence" and "licensed" are one word
    assert evidence(question, docs[1], lexicon).carries


def test_a_made_thing_is_named_by_what_it_does() -> None:
    lexicon = Lexicon.build([*HELM_DOCS, "Migrating › Nginx\nConvert nginx server blocks."])
    # "a tool to …" names the tool by what it is to do, the asker's own words dropped
    tool = asked("is there a tool to convert our existing nginx server blocks into rules?")
    assert tool.thing == tuple(terms("convert nginx server blocks"))
    assert evidence(tool, "Migrating › Nginx\nConvert nginx server blocks.", lexicon).carries
    # a page about the rules is not a word about converting nginx's
    assert not evidence(tool, HELM_DOCS[2], lexicon).carries
    # with what it is for, and what a script does
    plugin = asked("is there a plugin for Grafana that exports dashboards?")
    assert plugin.thing == tuple(terms("Grafana exports dashboards"))
    assert asked("does it ship a script that rotates the logs?").thing == tuple(
        terms("rotates logs")
    )
    # a way, a setting or an option to do something asks how to do it, whatever it does
    assert asked("is there an option to convert nginx server blocks?").thing == ()


def test_most_of_a_things_weight_named_is_enough() -> None:
    # two words no chunk has weigh the same: a passage naming one names half the thing, which
    # is not enough by default (0.8), and is at a share of 0.5
    lexicon = Lexicon.build(HELM_DOCS)
    question = asked("is there a zorbly quaxer?")
    assert question.thing == tuple(terms("zorbly quaxer"))
    half = evidence(question, "A zorbly view of the rules.", lexicon)
    assert not half.carries and half.coverage == pytest.approx(0.5)
    assert evidence(question, "A zorbly view of the rules.", lexicon, thing_share=0.5).carries
    assert evidence(question, "A zorbly quaxer view of the rules.", lexicon).carries
    # a word most chunks have weighs little: the rare words name the thing without it
    querying = asked("is there a querying zorbly quaxer?")
    assert querying.thing == tuple(terms("querying zorbly quaxer"))
    assert evidence(querying, "A zorbly quaxer view of the rules.", lexicon).carries


def test_a_question_how_to_run_something_as_a_thing_names_the_thing() -> None:
    service = asked("how do I run prometheus as a windows service so it starts on boot?")
    assert service.thing == tuple(terms("windows service"))
    lexicon = Lexicon.build([*HELM_DOCS, "Windows › Service\nRegister it as a service."])
    assert not evidence(service, HELM_DOCS[0], lexicon).carries
    assert evidence(service, "Windows › Service\nRegister it as a service.", lexicon).carries
    kernel = asked("how do I register a hatch environment as a Jupyter kernel?")
    assert kernel.thing == tuple(terms("Jupyter kernel"))
    # the thing ends at "and", where the asker goes on to another wish
    user = asked("how do I run traefik as a non-root user and still bind to port 80?")
    assert user.thing == tuple(terms("non-root user"))
    # which one is recommended: the docs name what they recommend ("way" asks how)
    setup = asked("what's the recommended authelia setup with traefik labels?")
    assert setup.thing == tuple(terms("authelia setup"))
    assert asked("what's the recommended way to get hatch onto a CI runner?").thing == ()
    # without a verb of running or installing, "as a" tells the asker's setup
    assert asked("my app runs natively, and the sidecar as a plain process, why?").thing == ()
    assert asked("how do I read the number from the URL as an int?").thing == ()


def test_the_evidence_counts_the_documentations_word_for_a_phrasing() -> None:
    docs = [
        "TLS options › Minimum TLS version\nThe oldest protocol version a client may connect with.",
        "TLS options › Maximum TLS version\nThe newest protocol version a client may connect with.",
        "Middlewares › Buffering\nBuffering reads the whole request before it is forwarded.",
    ]
    lexicon = Lexicon.build(docs)
    question = asked("how do we stop clients from connecting with anything older than tls 1.2?")
    assert stem("minimum") in question.terms
    # a word the asker did not write is never one the passage must have
    assert stem("minimum") not in question.musts and not question.spelled & {"=minimum"}
    minimum, maximum, _ = (evidence(question, doc, lexicon) for doc in docs)
    assert minimum.coverage > maximum.coverage
    assert minimum.carries and maximum.carries
    assert asked("how do we stop clients from connecting with old tls?").terms == tuple(
        t for t in question.terms if t != stem("minimum")
    )


def test_a_passage_that_spells_out_the_askers_clipping_covers_it() -> None:
    docs = [
        "Providers › File\nChanges to the configuration file are watched and applied at once.",
        "Providers › Docker\nChanges to the container labels are watched and applied at once.",
        "Logs\nThe log file is rotated daily.",
    ]
    lexicon = Lexicon.build(docs)
    question = asked("changes to my config file are not applied, why?")
    config, labels, _ = (evidence(question, doc, lexicon) for doc in docs)
    # "config" is no word the knowledge base lacks, and the passage that says
    # "configuration" covers it
    assert config.unknown == 0.0
    assert config.coverage > labels.coverage


def test_question_terms_end_with_the_documentations_words_for_its_phrasings() -> None:
    assert question_terms("turn off the cache when it is older than a day") == [
        *terms("turn off the cache when it is older than a day"),
        stem("disable"),
        stem("minimum"),
    ]
    assert question_terms("how do I clear the cache?") == terms("how do I clear the cache?")


def test_a_name_and_number_written_as_one_word_match_them_joined_by_a_hyphen() -> None:
    docs = [
        "Hashing › IDs\nChunk ids use HMAC-SHA-256 or BLAKE2b, so collisions are improbable.",
        "Hashing › Names\nFile names are stored as UTF-8; SHA 256 is not used here.",
        *(f"Backups page {n}." for n in range(10)),
    ]
    lexicon = Lexicon.build(docs)
    collision = asked("could a sha256 collision mix up two of my files?")
    assert collision.musts == ("sha256",)
    assert evidence(collision, docs[0], lexicon).carries
    # apart, or with another number, they are two words
    assert not evidence(collision, docs[1], lexicon).carries
    assert evidence(asked("are utf8 file names kept?"), docs[1], lexicon).carries
    assert not evidence(asked("are utf16 file names kept?"), docs[1], lexicon).carries


def test_a_name_no_chunk_has_that_starts_names_they_have_stands_for_them() -> None:
    docs = [
        "Environment › Variables\nSet BORG_PASSPHRASE and BORG_REPO in the environment.",
        "Serve › Options\nborg serve restricts the client to a path.",
        "Discovery › HTTP\nThe http_sd_configs block polls an endpoint.",
        *(f"Backups page {n}." for n in range(10)),
    ]
    lexicon = Lexicon.build(docs)
    prefix = asked("the client sends BORG_ vars over ssh but borg serve ignores them")
    assert prefix.identifiers == {spelled_as("BORG_")}
    found = evidence(prefix, docs[0], lexicon)
    assert found.carries and found.unknown_names == 0
    # a passage with no name of the family lacks it
    assert not evidence(prefix, docs[1], lexicon).carries
    # an identifier cut at an underscore names those that go on from it
    assert evidence(asked("does it poll an http_sd endpoint?"), docs[2], lexicon).carries
    assert lexicon.starts(spelled_as("http_sd")) and not lexicon.starts(spelled_as("http_s"))
    # a family no chunk has is a name no passage has
    unknown = evidence(asked("what is FOO_ for?"), docs[0], lexicon)
    assert not unknown.carries and unknown.unknown_names > 0
    # a name the docs write whole is that name, in the passage that writes it
    assert evidence(asked("what is BORG_REPO for?"), docs[0], lexicon).carries
    # the start of a name is three characters or more, from a letter or digit on
    short = Lexicon.build(["Set IO_TIMEOUT or B_KEY_ONE, not _private_x."])
    assert short.starts(spelled_as("IO_")) and short.starts(spelled_as("B_KEY_"))
    assert not short.starts(spelled_as("I_")) and not short.starts(spelled_as("_private"))
    # and a name some chunk has whole is that name, not the start of others
    whole = Lexicon.build([*docs, "Keys › The repo\nBORG_ is the prefix."])
    assert not evidence(prefix, docs[0], whole).carries


def test_a_value_the_asker_would_give_asks_for_the_amount_the_docs_allow() -> None:
    docs = [
        "Limits › Payload\nmax_payload defaults to 1MB and may be raised to at most 64MB.",
        "Limits › Payload\nmax_payload sets how big a message may be.",
    ]
    lexicon = Lexicon.build(docs)
    bump = asked("can we bump max_payload to like 100MB for big payloads?")
    assert bump.musts == (AMOUNT,)
    assert evidence(bump, docs[0], lexicon).carries
    assert not evidence(bump, docs[1], lexicon).carries
    assert asked("can I set the retention to 7d?").musts == (AMOUNT,)
    assert asked("how do I set the port to 8080?").musts == (AMOUNT,)
    # an upgrade's version is not a value given to a setting
    assert AMOUNT not in asked("how do I upgrade to 2.10?").musts


def test_an_amount_is_of_the_words_that_name_what_is_counted() -> None:
    docs = [
        "Key/value › History\nA bucket keeps 1 old value of each key by default.",
        "Key/value › Buckets\nA bucket holds 64 keys in this example. Old data is purged.",
        "Subjects › How many\nTwo million subjects take more than 1GB of server memory.",
    ]
    lexicon = Lexicon.build(docs)
    kept = asked("how many old values of a key does a bucket keep?")
    assert kept.counted == (stem("old"), stem("values"))
    assert evidence(kept, docs[0], lexicon).carries
    # "ram" is the asker's word, not the docs' ("memory"): the question's others name it
    ram = asked("for a couple million subjects, how much ram will the server want?")
    assert ram.counted == (stem("ram"),)
    # (in three chunks, a word in one of them is the docs' subject at the default share)
    assert evidence(ram, docs[2], lexicon, subject_share=0.5).carries
    assert not evidence(ram, docs[1], lexicon, subject_share=0.5).carries


def test_a_price_is_money_the_docs_state() -> None:
    docs = [
        "Support › Enterprise\nThe enterprise license covers 3 years of support.",
        "Support › Enterprise\nThe enterprise license costs $990 per year.",
    ]
    lexicon = Lexicon.build(docs)
    cost = asked("how much does an enterprise license cost per year?")
    assert PRICE in cost.musts
    assert THING not in evidence(cost, docs[0], lexicon).missing
    assert PRICE in evidence(cost, docs[0], lexicon).missing
    assert evidence(cost, docs[1], lexicon).carries
    assert PRICE not in asked("how many microseconds does a log call cost?").musts


def test_a_time_may_be_stated_in_code_and_a_date_not_in_a_log_line() -> None:
    docs = [
        "Periodic tasks › Crontab\nRun a task on Mondays:\n\n```python\n"
        "crontab(hour=7, minute=30, day_of_week=1)\n```",
        # a chunk cut inside a log's code block: its timestamps are output, not dates stated
        "[1] 2023/09/27 10:32:02 [INF] Starting nats-server 2.10\n```\n\nThe server is ready.",
    ]
    lexicon = Lexicon.build(docs)
    monday = asked("how do I run a task every monday at 7:30am?")
    assert evidence(monday, docs[0], lexicon).carries
    released = asked("when did nats-server 2.10 come out?")
    assert DATE in evidence(released, docs[1], lexicon).missing
    assert "2023" in split_code(docs[1]).code and "2023" not in split_code(docs[1]).prose
    # the title of a passage cut inside a block is still prose
    titled = evidence(released, docs[1], lexicon, title="NATS server › From source")
    assert titled.coverage > evidence(released, docs[1], lexicon).coverage


def test_a_lower_case_name_by_its_place_in_the_question() -> None:
    docs = [
        "Clustering › Routes\nServers join a cluster by listing each other in routes. A"
        " consumer tracks acknowledgements; consult the guide or the console.",
        "Streams › Limits\nMessages expire after max_age, or each on its own with a TTL header.",
    ]
    lexicon = Lexicon.build(docs)
    consul = asked("can servers find their peers through consul instead of a routes list?")
    assert FOLDED + "consul" in consul.placed
    assert FOLDED + "consul" in evidence(consul, docs[0], lexicon).missing
    # a word of the docs' own root is a paraphrase of theirs: "expiry", "expire"
    expiry = asked("can messages get their own expiry instead of max_age?")
    assert FOLDED + "expiry" in expiry.placed
    assert FOLDED + "expiry" not in evidence(expiry, docs[1], lexicon).missing
    assert FOLDED + "squid" in asked("our proxy (squid) blocks it, can routes pass?").placed
    # a go-between with an article is a kind of one, not its name
    assert not asked("I expose it through a tunnel, can a consumer connect?").placed
    assert FOLDED + "ssh" in asked("can routes go via ssh to the cluster?").placed


def test_long_unbroken_tokens_cost_linear_time() -> None:
    # a minified file or a base64 blob is one token thousands of characters long; the
    # statistics are rebuilt after every write while questions wait for them
    blob = "x" * 4_000
    started = time.perf_counter()
    lexicon = Lexicon.build([blob] * 20 + ["see test.pypi.org first"])
    elapsed = time.perf_counter() - started
    assert lexicon.known("=testpypiorg") or lexicon.known("~pypi")
    assert elapsed < 1.0, f"{elapsed:.2f} s for 80,000 characters"
