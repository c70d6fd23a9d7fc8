"""Lexical evidence (pipeline/evidence.py) and the extractive answer's units and markers."""

from __future__ import annotations

from collections.abc import Sequence

from citations.model import Source
from pipeline.evidence import Lexicon, Lexicons, evidence, question_terms, split_code, stem, terms
from pipeline.extractive import extract
from pipeline.graders import EmbeddingGrader

CORPUS = [
    "Cookies are exposed as a regular dictionary: request.cookies.get('mycookie').",
    "Set a cookie on the response with set_cookie. It expires after max_age seconds.",
    "Paths can use URI templating style to capture path components.",
    "The session middleware signs its cookie with the secret key.",
]


def test_stems_join_plurals_and_derived_forms() -> None:
    assert stem("cookies") == stem("cookie")
    assert stem("pagination") == stem("paginate")
    assert stem("permissions") == stem("permission")
    assert stem("S3") == "s3"


def test_terms_drop_chat_words_and_keep_content() -> None:
    assert terms("How long do I have to wait for my endpoint?") == ["wait", "endpoint"]


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
    assert "14 * 24" not in answer  # code is never quoted as prose
    assert len(picks) == 3


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
