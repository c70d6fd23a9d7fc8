"""The offline answer reads like the section: whole list items, code shown as code,
the sentence a "This …" leans on, and on into the next chunk of the section."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from citations.model import Locator, Source
from connectors.knowledge.store import KnowledgeStore
from pipeline.evidence import Lexicon
from pipeline.extractive import Pick, _once, extract, is_how_to
from pipeline.graders import EmbeddingGrader
from pipeline.ports import Embedder, Sections
from pipeline.sections import read_on, widened
from pipeline.units import Kind, units

REDIRECT = """## HTTPS redirects

Enforces that all incoming requests must use https. Any request over plain http is \
redirected to the secure scheme instead.

```python
app = Starlette(middleware=[Middleware(HTTPSRedirectMiddleware)])
```

There are no configuration options for this middleware class."""

DEFAULTS = """## Using middleware

Every application automatically includes two pieces of middleware by default:

* `ServerErrorMiddleware` - Returns a custom 500 page when the application raises.
* `ExceptionMiddleware` - Runs the exception handlers the application registered.

Middleware is evaluated from top to bottom."""


def source(text: str, n: int = 1, *, start: int | None = None, url: str = "") -> Source:
    end = None if start is None else start + len(text)
    return Source(
        id=n,
        url=url or f"https://docs.example/{n}",
        title=f"Page {n}",
        text=text,
        locator=Locator(start=start, end=end),
    )


def chunked(texts: list[str], url: str, *, gap: int = 1) -> list[Source]:
    """One section's consecutive chunks, ``gap`` characters of whitespace apart."""
    chunks: list[Source] = []
    at = 0
    for text in texts:
        chunks.append(source(text, start=at, url=url))
        at += len(text) + gap
    return chunks


async def answer(question: str, sources: list[Source], embedder: Embedder) -> str:
    lexicon = Lexicon.build(s.text for s in sources)
    text, _ = await extract(question, sources, EmbeddingGrader(embedder), limit=4, lexicon=lexicon)
    return text


def test_headings_are_never_glued_to_sentences_and_list_items_are_units() -> None:
    found = units("## Setup\nInstall the package before you start.\n\n" + DEFAULTS)
    prose = [u.text for u in found if u.kind != "code"]
    assert prose[0] == "Install the package before you start."
    assert not any("#" in text or "Setup" in text or "Using middleware" in text for text in prose)
    items = [u.text for u in found if u.kind == "item"]
    assert items == [
        "`ServerErrorMiddleware` - Returns a custom 500 page when the application raises.",
        "`ExceptionMiddleware` - Runs the exception handlers the application registered.",
    ]


EXITS = """## Where errors are handled

The table below lists how a command can end, and what the tool does.

| How it ends | Standalone mode | Embedded |
| --- | :---: | --- |
| It returns normally | Exit with code ``0`` | Return the value |
| The user pressed `Ctrl+C` | Print ``Aborted!`` to standard error and exit with code ``1`` | Raise `Abort` |
| A `a|b` pipe \\| in a cell | | Keep it as one cell |

Nothing else is caught."""


def test_a_table_row_is_an_item_read_with_its_column_headings() -> None:
    found = units(EXITS)
    items = [u.text for u in found if u.kind == "item"]
    assert items[1] == (
        "The user pressed `Ctrl+C` — Standalone mode: Print ``Aborted!`` to standard error "
        "and exit with code ``1``; Embedded: Raise `Abort`"
    )
    # a pipe in a code span or escaped is text; an empty cell is left out with its heading
    assert items[2] == "A `a|b` pipe \\| in a cell — Embedded: Keep it as one cell"
    prose = [u.text for u in found if u.kind == "sentence"]
    assert prose == [
        "The table below lists how a command can end, and what the tool does.",
        "Nothing else is caught.",
    ]
    row = next(u for u in found if u.text == items[1])
    assert EXITS[row.start : row.end].startswith("| The user pressed")


def test_a_table_without_outer_pipes_is_read_row_by_row() -> None:
    # GFM lets a table leave out its outer pipes (the Cargo book's build-cache layout)
    text = (
        "Each profile has its own directory:\n\n"
        "Directory | Description\n----------|------------\n"
        "`target/debug/` | Contains output for the `dev` profile.\n"
        "`target/release/` | Contains output for the `release` profile.\n\n"
        "User-defined profiles are stored in a directory of their own name."
    )
    found = units(text)
    items = [u.text for u in found if u.kind == "item"]
    assert items == [
        "`target/debug/`: Contains output for the `dev` profile.",
        "`target/release/`: Contains output for the `release` profile.",
    ]
    assert [u.text for u in found if u.kind == "sentence"] == [
        "Each profile has its own directory:",
        "User-defined profiles are stored in a directory of their own name.",
    ]
    # a line with a pipe over a rule with another count of columns is no table's heading
    prose = "Pick a|b when you build the target for a board.\n---|---|---\nThen run it twice."
    assert not [u for u in units(prose) if u.kind == "item"]
    # with both outer pipes a heading row is one, whatever its rule's count (as it always was);
    # with one of them only, its cells must match the rule's columns
    sloppy = "| Key | Meaning | Since |\n|---|---|\n| `a` | The first key of the file | 1.0 |"
    assert [u.text for u in units(sloppy)] == [
        "`a` — Meaning: The first key of the file; Since: 1.0"
    ]
    half = "| Key | Meaning\n|---|---|---|\n| `a` | The first key of the file | 1.0 |"
    assert [u.kind for u in units(half)] == ["item"]
    assert units(half)[0].text == "`a` — The first key of the file; 1.0"


@pytest.mark.timeout(10)
def test_a_long_line_of_pipes_over_a_rule_is_read_at_once() -> None:
    # a cell-less row is tried at every pipe only once: 20,000 pipes took a minute when the
    # first cell could reach past a pipe
    text = "|" * 20_000 + "\n" + "-|" * 20_000 + "\n" + "a|" * 20_000 + "\n"
    assert units(text) is not None


async def test_a_fact_written_only_in_a_table_is_stated(embedder: Embedder) -> None:
    text = await answer(
        "what happens when someone hits Ctrl+C during my command?", [source(EXITS)], embedder
    )
    assert "- The user pressed `Ctrl+C` — Standalone mode: Print ``Aborted!``" in text


def test_code_is_a_unit_of_its_own_and_never_prose() -> None:
    found = units(REDIRECT)
    code = [u for u in found if u.kind == "code"]
    assert len(code) == 1 and code[0].text.startswith("```python\napp = Starlette(")
    assert code[0].text.endswith("```")
    assert not any("Starlette(" in u.text for u in found if u.kind != "code")


def test_how_to_questions_are_told_apart() -> None:
    assert is_how_to("how do I send everyone over plain http to https?")
    assert is_how_to("In Starlette, how can we redirect to https")
    assert not is_how_to("does the redirect also apply to websockets?")
    # what to change, fix or turn on is something to do: its answer may be a command
    assert is_how_to('getting "too many open files" on linux, what do I change?')
    assert is_how_to("what should we enable so the cache survives restarts?")
    assert not is_how_to("what do I get when the cache is full?")
    # a one-liner, a snippet or a command to do something is code to show
    assert is_how_to("quick one-liner to grab a specific version on a linux box?")
    assert is_how_to("got a snippet for reading the config?")
    assert is_how_to("is there a command that lists every stream?")
    assert not is_how_to("which command was renamed in 2.0?")
    # what something looks like, the steps to do it and an example of it are shown as code
    assert is_how_to("what does the broker url look like when the server has a password?")
    assert is_how_to("what should each authorized_keys line look like?")
    assert is_how_to("quick q: steps to create a user and a vhost?")
    assert is_how_to("example systemd unit for running the workers?")
    assert is_how_to("got an example timer unit for a nightly run?")
    assert not is_how_to("why does the example pass --files-cache ctime,size?")
    assert not is_how_to("for example when the disk is full, is the data lost?")
    assert not is_how_to("does it look like the upload finished?")


async def test_a_how_to_answer_shows_the_sections_code_as_a_cited_block(
    embedder: Embedder,
) -> None:
    text = await answer(
        "how do I redirect every plain http request to https?", [source(REDIRECT)], embedder
    )
    block = "```python\napp = Starlette(middleware=[Middleware(HTTPSRedirectMiddleware)])\n```"
    assert f"\n\n{block}\n[1]" in text
    # the prose before it is one run with one marker, and no heading is quoted
    assert text.count("[1]") == 2 and "HTTPS redirects" not in text
    other = await answer(
        "is a plain http request redirected to the secure scheme?", [source(REDIRECT)], embedder
    )
    assert "```" not in other


async def test_a_sentence_that_announces_a_list_brings_the_list(embedder: Embedder) -> None:
    text = await answer(
        "which middleware does every app include without me adding it?",
        [source(DEFAULTS)],
        embedder,
    )
    assert "by default:\n- `ServerErrorMiddleware` - Returns" in text
    assert "\n- `ExceptionMiddleware` - Runs" in text
    assert text.count("[1]") == 1


async def test_a_sentence_that_leans_on_the_one_before_comes_with_it(embedder: Embedder) -> None:
    text = await answer(
        "can I skip tracing for my health check endpoint?",
        [
            source(
                "Pass a list of regular expressions in `excluded_urls`. If one matches the "
                "request URL, no span is created. This is useful for health checks and other "
                "endpoints you do not need to trace.\n\nTracing needs a tracer provider."
            )
        ],
        embedder,
    )
    assert text.startswith("Pass a list of regular expressions in `excluded_urls`.")


TOKEN_QUESTION = "the server won't start, it says parsing error on my token value 3secret"
TOKENS = """## Configuration values

Values can be a primitive, a list or a map. Numbers support units such as 1K for 1000.

String values that start with a digit can create parsing errors.
To force such values as strings, quote them.

Maps are written with braces."""


async def test_what_to_do_about_a_problem_comes_with_the_sentence_naming_it(
    embedder: Embedder,
) -> None:
    text = await answer(
        TOKEN_QUESTION,
        [source(TOKENS)],
        embedder,
    )
    assert "String values that start with a digit can create parsing errors." in text
    assert "To force such values as strings, quote them." in text
    # the sentence after the remedy states something of its own
    assert "Maps are written with braces" not in text


async def test_what_carries_on_under_another_heading_is_not_brought(embedder: Embedder) -> None:
    text = await answer(
        TOKEN_QUESTION,
        [source(TOKENS.replace("\nTo force", "\n\n## Quoting\n\nTo force"))],
        embedder,
    )
    assert "String values that start with a digit can create parsing errors." in text
    assert "quote them" not in text


ANNOUNCES = "You can list the tasks a worker is running right now with `active()`:"
POOL = (
    "## Worker pool\n\nA worker runs tasks in a pool of processes, and the tasks it is "
    "running right now hold one process each."
)


async def test_a_quoted_sentence_that_announces_a_block_never_points_at_nothing(
    embedder: Embedder,
) -> None:
    inspect = (
        f"## Inspecting workers\n\n{ANNOUNCES}\n\n```python\napp.control.inspect().active()\n```"
    )
    text = await answer(
        "what tasks hold a process in the worker pool right now?",
        [source(POOL, 1), source(inspect, 2)],
        embedder,
    )
    assert "with `active()`:" in text
    assert "app.control.inspect().active()" in text


LONG_BLOCK = "```python\n" + "".join(f"line_{i} = {i}\n" for i in range(30)) + "```"


@pytest.mark.parametrize(
    ("inspect", "not_shown"),
    [
        # the sentence ends the chunk: nothing to bring
        (f"## Inspecting workers\n\n{ANNOUNCES}", "```"),
        # a block before it is not what it announces
        (
            f"## Inspecting workers\n\n```python\nimport celery\n```\n\n{ANNOUNCES}\n\n"
            "Workers reply within a second.",
            "import celery",
        ),
        # nor is one after the sentence that follows it
        (
            f"## Inspecting workers\n\n{ANNOUNCES}\n\nWorkers reply within a second.\n\n"
            "```python\napp.control.inspect().active()\n```",
            "app.control",
        ),
        # a block too long to quote stays in the documentation
        (f"## Inspecting workers\n\n{ANNOUNCES}\n\n{LONG_BLOCK}", "line_29"),
    ],
)
async def test_a_quoted_sentence_brings_only_the_short_block_right_after_it(
    embedder: Embedder, inspect: str, not_shown: str
) -> None:
    text = await answer(
        "what tasks hold a process in the worker pool right now?",
        [source(POOL, 1), source(inspect, 2)],
        embedder,
    )
    assert "with `active()`:" in text
    assert not_shown not in text


REMEDY = (
    "String values that start with a digit can create parsing errors. To force such values "
    "as strings, quote them."
)


async def test_only_the_sentence_right_after_a_quoted_one_is_carried_on_to(
    embedder: Embedder,
) -> None:
    text = await answer(
        TOKEN_QUESTION,
        [source(REMEDY.replace(" To force", " The logo is drawn in blue. To force"))],
        embedder,
    )
    assert text.startswith("String values that start with a digit can create parsing errors.")
    assert "logo" not in text and "quote them" not in text


@pytest.mark.parametrize(
    "first",
    [
        "A parsing error on a token value stops the server from starting. The logo is drawn in "
        "blue.",
        "- A parsing error on a token value stops the server from starting.",
    ],
)
async def test_each_quoted_sentence_is_carried_on_from_whatever_was_quoted_first(
    embedder: Embedder, first: str
) -> None:
    text = await answer(TOKEN_QUESTION, [source(f"## Tokens\n\n{first}\n\n{REMEDY}")], embedder)
    assert "A parsing error on a token value stops the server from starting." in text
    assert "To force such values as strings, quote them." in text
    assert "logo" not in text


def test_a_chunk_is_read_on_into_the_next_and_back_to_its_open_code_block() -> None:
    url = "https://docs.example/middleware#gzip"
    texts = [
        "Handles GZip responses.\n\n```python\nfrom starlette.middleware.gzip import GZip",
        "app = Starlette(middleware=[Middleware(GZip)])\n```\n\n"
        "The following arguments are supported:\n\n"
        "* `minimum_size` - Do not GZip responses smaller than this. Defaults to `500`.",
        "* `compresslevel` - Used during compression. Defaults to `9`.",
        "Lower values compress faster.",
    ]
    chunks = chunked(texts, url, gap=2)
    hit = chunks[1]
    # alone, the chunk hides the block it starts inside of (its code is cut) and reads on
    alone = units(hit.text)
    assert [u.kind for u in alone] == ["sentence", "item"]
    assert alone[1].text.startswith("`minimum_size`")
    [wide] = widened([hit], chunks, after=1)
    assert wide.text.startswith("Handles GZip responses.")
    assert wide.text.endswith("Defaults to `9`.")
    assert wide.locator.start == 0 and wide.locator.end == chunks[2].locator.end
    items = [u.text for u in units(wide.text) if u.kind == "item"]
    assert items[0].startswith("`minimum_size`") and items[1].startswith("`compresslevel`")
    # a second hit of the same section is folded into the first, not read twice
    [both] = widened([hit, chunks[2]], chunks, after=1)
    assert both.id == hit.id and both.text.startswith(wide.text)
    assert both.text.endswith("Lower values compress faster.")
    # only the best sources are read on: each costs its extra sentences' embeddings; one
    # not read on is read from where the block it starts inside of ends
    [rest] = widened([hit], chunks, after=1, reach=0)
    at = hit.text.index("The following")
    assert rest.text == hit.text[at:]
    assert (rest.locator.start, rest.locator.end) == (hit.locator.start + at, hit.locator.end)
    # other sections and web sources are left as they are
    web = source("Some web page text.", 9)
    assert widened([web], chunks, after=1) == [web]


class _OneSection:
    """A store of one section's chunks, as ``Sections`` reads them back."""

    def __init__(self, chunks: list[Source]) -> None:
        self.chunks = chunks

    async def section_chunks(
        self, urls: Sequence[str], *, scope: Sequence[str] | None
    ) -> list[Source]:
        return [c for c in self.chunks if c.url in urls]


async def test_the_best_sources_are_read_with_the_chunk_before_them_too() -> None:
    url = "https://docs.example/resiliency#retries"
    texts = [
        "If `maxRetries` is left out, the policy retries an unlimited number of times.",
        "Policies are named under `spec.policies.retries` and picked by each target.",
        "A target names one policy per kind of call.",
        "Timeouts are set apart from retries.",
    ]
    chunks = chunked(texts, url)
    # the answer ("an unlimited number of times") is in the chunk before the one retrieved,
    # which opens a thought of its own
    [wide] = await read_on(_OneSection(chunks), [chunks[1]], None)
    assert wide.text.startswith("If `maxRetries` is left out")
    assert wide.text.endswith("per kind of call.")
    # the store gives a section's chunks in any order
    [later] = await read_on(_OneSection(chunks[::-1]), [chunks[3]], None)
    assert later.text.startswith("A target names one policy")
    assert later.text.endswith("apart from retries.")


class _Unreadable:
    async def section_chunks(
        self, urls: Sequence[str], *, scope: Sequence[str] | None
    ) -> list[Source]:
        raise OSError("the store is gone")


async def test_sources_stay_as_retrieved_when_their_sections_cannot_be_read(
    caplog: pytest.LogCaptureFixture,
) -> None:
    chunks = chunked(["First part.", "Second part.", "Third part."], "https://docs.example/a")
    assert await read_on(_Unreadable(), [chunks[1]], None) == [chunks[1]]
    assert "cannot read on past the retrieved chunks: the store is gone" in caplog.text
    assert await read_on(None, [chunks[1]], None) == [chunks[1]]


def test_two_sources_of_a_section_that_touch_once_read_around_are_one() -> None:
    url = "https://docs.example/limits#body"
    chunks = chunked([f"Part {n} of the section." for n in range(7)], url)

    def read(*hits: int) -> list[tuple[str, int | None, int | None]]:
        wide = widened([chunks[h] for h in hits], chunks, after=1, before=1)
        return [(w.id, w.locator.start, w.locator.end) for w in wide]

    # parts 0-2 and 3-5 touch: one source, the better one's, read 0 to 5
    assert read(1, 4) == [(chunks[1].id, chunks[0].locator.start, chunks[5].locator.end)]
    assert read(5, 2) == [(chunks[5].id, chunks[1].locator.start, chunks[6].locator.end)]
    # parts 0-2 and 4-6 leave part 3 between them: two sources
    assert read(1, 5) == [
        (chunks[1].id, chunks[0].locator.start, chunks[2].locator.end),
        (chunks[5].id, chunks[4].locator.start, chunks[6].locator.end),
    ]
    assert [w[0] for w in read(5, 1)] == [chunks[5].id, chunks[1].id]


def test_a_chunk_inside_a_long_table_is_read_with_its_column_headings() -> None:
    # the table runs on over three chunks: reading one chunk back would only add rows
    url = "https://docs.example/options#options"
    head = "| Field | Description | Default | Required |\n|:---|:---|:---|:---|"
    rows = [
        f"| `opt{n}` | Sets how option number {n} of the tool behaves here. | {n}s | No |"
        for n in range(9)
    ]
    texts = [
        "The options of the tool.\n\n" + head + "\n" + "\n".join(rows[:3]),
        "\n".join(rows[3:6]),
        # the rest of a row cut in two, then whole rows
        "No |\n" + "\n".join(rows[6:]),
    ]
    chunks = chunked(texts, url)
    for hit, reach in ((chunks[2], 3), (chunks[2], 0), (chunks[1], 0)):
        [read] = widened([hit], chunks, after=1, reach=reach)
        items = [u.text for u in units(read.text) if u.kind == "item"]
        seven = "`opt7` — Description: Sets how option number 7 of the tool behaves here.; "
        assert (seven + "Default: 7s; Required: No") in items or hit is chunks[1]
        assert any(i.startswith("`opt4` — Description:") for i in items) or hit is chunks[2]
        # the headings are read, never quoted: every row is still the chunk's own text
        assert all("Field" not in i for i in items), items
    # a row with another count of cells is another table's: no headings are borrowed
    other = chunked([texts[0], "| `x` | one | two |\n| `y` | three | four |"], url)
    assert widened([other[1]], other, after=1, reach=0) == [other[1]]
    # no heading row before it at all: the chunk is read as it is
    bare = chunked(["The options of the tool.", texts[1]], url)
    assert widened([bare[1]], bare, after=1, reach=0) == [bare[1]]
    # every source is read so, not only the first
    elsewhere = source("Some other section's text here.", 2, start=0, url=url + "-other")
    _, read = widened([elsewhere, chunks[1]], [elsewhere, *chunks], after=1, reach=0)
    assert read.text.startswith(head) and read.text.endswith(texts[1])


async def test_the_store_reads_back_a_section_only_within_the_scope(
    store: KnowledgeStore,
) -> None:
    assert isinstance(store, Sections)
    [hit] = await store.retrieve("How do I rotate an API key?", top_k=1, scope=None)
    chunks = await store.section_chunks([hit.source.url], scope=None)
    assert chunks and all(c.url == hit.source.url for c in chunks)
    assert any(c.locator.start == hit.source.locator.start for c in chunks)
    assert await store.section_chunks([hit.source.url], scope=["no-such-collection"]) == []
    assert await store.section_chunks([hit.source.url], scope=[]) == []


MOVING = (
    "Moving a database to a new server takes three steps. First stop the writer with "
    "`dbctl pause`. Then copy the data folder across with rsync. Finally start the writer on "
    "the new host and point clients at it."
)


async def test_a_sentence_that_opens_steps_brings_every_step(embedder: Embedder) -> None:
    # the later steps share no word with the question, yet without them the answer stops
    # after "First …" of "three steps"
    text = await answer(
        "how do I move my database to a new server?",
        [
            source(
                f"## Moving a database\n\n{MOVING} The old server can be kept as a standby."
                "\n\n## Replicas\n\nNext to the primary, a replica serves reads.",
                url="https://docs.example/move",
            ),
            source(
                "A new server joins the cluster when its token matches. Each server keeps "
                "its own copy of the database catalog.",
                2,
            ),
        ],
        embedder,
    )
    assert "Then copy the data folder across with rsync." in text
    assert "Finally start the writer on the new host and point clients at it." in text
    assert "a replica serves reads" not in text


SLOW = (
    "## Why is the sync so slow?\n\n"
    "First of all, verify that you are not connected via a relay. The device list shows the "
    "connection type of each peer.\n\n"
    "Second, a slow machine, such as a phone, is limited by its CPU.\n\n"
    "Third, check that the network itself is fast, with a speed test. A speed test of the "
    "network shows its throughput. Run the network speed test on both devices. Compare the "
    "speed test results of the network with the sync's rate."
)


async def test_a_later_step_brings_the_first_one(embedder: Embedder) -> None:
    # "Second, …" and "Third, …" share the question's words; the first step, which does
    # not, is what the asker should check before them
    text = await answer(
        "the sync is crawling on my phone, what should I check?",
        [source(SLOW, url="https://docs.example/faq")],
        embedder,
    )
    assert "Second, a slow machine, such as a phone" in text
    assert "First of all, verify that you are not connected via a relay." in text
    assert text.index("First of all") < text.index("Second, a")


async def test_a_third_step_brings_the_second_and_the_first(embedder: Embedder) -> None:
    text = await answer(
        "how do I run a speed test of the network?",
        [source(SLOW, url="https://docs.example/faq")],
        embedder,
    )
    assert "Third, check that the network itself is fast" in text
    assert "First of all, verify" in text and "Second, a slow machine" in text
    assert text.index("First of all") < text.index("Second, a") < text.index("Third")


async def test_a_later_step_reaches_its_first_across_code_and_needs_one(
    embedder: Embedder,
) -> None:
    with_code = SLOW.replace(
        "connection type of each peer.\n\n",
        "connection type of each peer:\n\n```\nsyncthing cli show connections\n```\n\n",
    )
    text = await answer(
        "the sync is crawling on my phone, what should I check?",
        [source(with_code, url="https://docs.example/faq")],
        embedder,
    )
    assert "First of all, verify that you are not connected via a relay." in text
    # a later step with no first one before it is quoted as it is
    text = await answer(
        "the sync is crawling on my phone, what should I check?",
        [source(SLOW.replace("First of all, verify", "Verify"), url="https://docs.example/faq")],
        embedder,
    )
    assert "Second, a slow machine, such as a phone" in text


async def test_a_later_step_brings_no_first_one_from_another_section(
    embedder: Embedder,
) -> None:
    # a "First …" under an earlier heading opens another run of steps
    text = await answer(
        "the sync is crawling on my phone, what should I check?",
        [
            source(
                "## Installing\n\nFirst of all, download the archive for your platform.\n\n"
                + SLOW.replace("First of all, verify", "Verify"),
                url="https://docs.example/faq",
            )
        ],
        embedder,
    )
    assert "Second, a slow machine, such as a phone" in text
    assert "download the archive" not in text


REPLACE = (
    "## The `[replace]` section\n\n"
    "The manifest has several tables.\n\n"
    "> **Note**: `[replace]` is deprecated. Projects should move to `[patch]` soon.\n\n"
    "A `[replace]` entry overrides a dependency with a copy from a git repository. "
    "A `[replace]` entry overrides a dependency with your own local copy on disk. "
    "Each key in the `[replace]` table names the dependency to override with a copy. "
    "The value of a `[replace]` entry says where your overriding copy comes from. "
    "A `[replace]` override needs its copy to have the same version as the dependency. "
    "Only the root manifest's `[replace]` table overrides a dependency."
)


async def test_a_quoted_name_comes_with_its_deprecation(embedder: Embedder) -> None:
    # the sentences on how `[replace]` works fill the answer; quoting them without
    # "deprecated" reads as a recommendation
    text = await answer(
        "how do I override a dependency with my own copy using the replace table?",
        [source(REPLACE, url="https://docs.example/overriding")],
        embedder,
    )
    assert "Each key in the `[replace]` table names the dependency" in text
    assert "`[replace]` is deprecated." in text
    # what to use instead, the rest of the note's paragraph, shares none of the question
    assert "Projects should move to `[patch]` soon." in text
    assert text.index("deprecated") < text.index("Each key")


async def test_a_deprecation_brings_no_sentence_of_the_next_paragraph(
    embedder: Embedder,
) -> None:
    text = await answer(
        "how do I override a dependency with my own copy using the replace table?",
        [
            source(
                REPLACE.replace(
                    " Projects should move to `[patch]` soon.\n\n",
                    "\n\nThe manifest format is read by every tool of the ecosystem.\n\n",
                ),
                url="https://docs.example/overriding",
            )
        ],
        embedder,
    )
    assert "`[replace]` is deprecated." in text
    assert "read by every tool" not in text


async def test_a_deprecation_of_a_name_not_quoted_stays_out(embedder: Embedder) -> None:
    # the section deprecates an option the answer never quotes: noise, not a warning
    text = await answer(
        "how do I override a dependency with my own copy using the replace table?",
        [
            source(
                REPLACE.replace("`[replace]` is deprecated", "`legacy-paths` is deprecated"),
                url="https://docs.example/overriding",
            )
        ],
        embedder,
    )
    assert "Each key in the `[replace]` table names the dependency" in text
    assert "deprecated" not in text


ALWAYS = """## Files in the archive

Patterns pick the rest. These cannot be left out:

- `pyproject.toml`
- the readme file the project metadata names
- the license files

Anything else the patterns exclude stays out."""


async def test_a_list_item_comes_with_the_sentence_announcing_its_list(
    embedder: Embedder,
) -> None:
    lexicon = Lexicon.build([ALWAYS])
    text, picks = await extract(
        "can I drop the readme file from the archive?",
        [source(ALWAYS)],
        EmbeddingGrader(embedder),
        limit=1,
        lexicon=lexicon,
    )
    # the item says the readme is in the list; what the list is, its lead-in says
    assert max(picks, key=lambda p: p.score).text.startswith("the readme file")
    assert "These cannot be left out:\n- `pyproject.toml`\n- the readme file" in text
    # a list under another heading is not what the sentence before the heading announces
    headed = ALWAYS.replace("left out:\n\n", "left out:\n\n## Always in\n\n")
    told, _ = await extract(
        "can I drop the readme file from the archive?",
        [source(headed)],
        EmbeddingGrader(embedder),
        limit=1,
        lexicon=Lexicon.build([headed]),
    )
    assert "left out" not in told


async def test_a_procedure_quoted_to_its_last_step_answers_how_alone(embedder: Embedder) -> None:
    # the steps, first to last, are the answer; a lower-scoring sentence of another section
    # after them only dilutes it (and adds a footnote the reader need not follow)
    text = await answer(
        "how do I move my database to a new server?",
        [
            source(
                f"## Moving a database\n\n{MOVING}",
                url="https://docs.example/move",
            ),
            source(
                "## Servers\n\nA new server joins the cluster when its token matches. "
                "Each server keeps its own copy of the database catalog.",
                2,
            ),
        ],
        embedder,
    )
    assert "Finally start the writer on the new host and point clients at it." in text
    assert "[2]" not in text and "token" not in text


async def test_after_a_procedure_its_own_section_may_still_add(embedder: Embedder) -> None:
    # only other sections stop, however well they score: a later sentence of the
    # procedure's own section that scores below them still comes
    text = await answer(
        "how do I move my database to a new server?",
        [
            source(
                "## Moving a database\n\n"
                "Moving to a new server pauses writes to the database, so plan a quiet "
                f"hour.\n\n{MOVING}",
                url="https://docs.example/move",
            ),
            source("The new server needs the same database version as the old server.", 2),
        ],
        embedder,
    )
    assert "Finally start the writer" in text and "plan a quiet hour" in text
    assert "same database version" not in text


async def test_a_chat_phrasing_picks_the_sentence_in_the_documentations_words(
    embedder: Embedder,
) -> None:
    # "anything older than" asks for a minimum: the sentence about the newest version shares
    # as many of the asker's own words, and reads as close to the model
    options = source(
        "The maxVersion option sets the newest TLS version that clients may connect with. "
        "The minVersion option sets the minimum TLS version that clients may connect with."
    )
    lexicon = Lexicon.build([options.text, "Routers and services.", "Certificates and keys."])
    text, _ = await extract(
        "how do we stop clients from connecting with anything older than TLS 1.2?",
        [options],
        EmbeddingGrader(embedder),
        limit=1,
        lexicon=lexicon,
    )
    assert text == (
        "The minVersion option sets the minimum TLS version that clients may connect with. [1]"
    )


def test_a_chunk_cut_from_the_middle_of_a_code_block_quotes_none_of_it() -> None:
    url = "https://docs.example/ssr#dev-server"
    texts = [
        "Use Vite in middleware mode.\n\n```js\nconst vite = await createServer()",
        "app.use('*', async (req, res) => {\n  // 1. Read index.html\n"
        "  let template = fs.readFileSync('index.html', 'utf-8')",
        "  res.end(template)\n  ~~~\n})\n````\n\nThe handler serves the page.",
    ]
    chunks = chunked(texts, url)
    # no fence in it says that the middle chunk is code: read alone, its comment is a sentence
    assert any("Read index.html" in u.text for u in units(chunks[1].text) if u.kind != "code")
    middle, last = widened(chunks[1:], chunks, after=0, reach=0)
    # a tilde fence does not close a block of backticks; a longer run of backticks does
    assert middle.text == ""
    assert middle.locator.start == middle.locator.end == chunks[1].locator.end
    assert last.text == "The handler serves the page."
    assert last.locator.start == chunks[2].locator.end - len(last.text)


async def test_a_paragraph_two_pages_repeat_is_said_once(embedder: Embedder) -> None:
    killed = (
        "If the worker is killed, its unacknowledged tasks wait until the visibility "
        "timeout has passed before another worker gets them."
    )
    broker = (
        "## Caveats\n\n- The visibility timeout is how long a worker has to acknowledge a task. "
        f"{killed}\n- Tasks with a long countdown are redelivered when it runs out."
    )
    shutdown = f"## Cold shutdown\n\nA cold shutdown kills the worker at once. {killed}"
    text = await answer(
        "what happens to tasks when the worker is killed before the visibility timeout?",
        [source(broker, 1), source(shutdown, 2)],
        embedder,
    )
    assert text.count("its unacknowledged tasks wait") == 1
    assert "[1]" in text


def test_a_code_span_of_three_backticks_opens_no_block() -> None:
    # a table's cell "```Host(`a.com`)```" that a chunk starts with, once its row was cut
    url = "https://docs.example/routing#priority"
    texts = [
        "| Router | Rule |\n| --- | --- |\n| Router-1 |",
        "```Host(`foobar.example.com`)```  |\n\nThe previous table shows that the longer rule wins.",
        "When two routes from different providers tie, the provider listed first wins.",
    ]
    chunks = chunked(texts, url)
    assert "The previous table shows that the longer rule wins." in [
        u.text for u in units(chunks[1].text)
    ]
    assert widened(chunks[2:], chunks, after=0, reach=0) == chunks[2:]


def test_a_block_closed_at_the_start_of_a_chunk_leaves_the_next_chunk_as_prose() -> None:
    url = "https://docs.example/config#example"
    texts = [
        "Set the value in the file:\n\n```toml\nvalue = 1",
        "```\n\nThe value is read once, at startup.",
        "Restart the server after you change it.",
        "The log says which value it read.",
    ]
    chunks = chunked(texts, url)
    assert widened(chunks[2:3], chunks, after=0, reach=0) == chunks[2:3]
    # read back one chunk, no further: the block before it is closed
    [last] = widened(chunks[3:], chunks, after=0, before=1)
    assert last.text.startswith("Restart the server")
    [second] = widened(chunks[1:2], chunks, after=0, reach=0)
    assert second.text == "The value is read once, at startup."


def test_a_unit_is_said_once_however_its_lines_are_wrapped() -> None:
    def pick(rank: int, start: int, text: str, kind: Kind = "sentence") -> Pick:
        return Pick(rank, start, text, rank + 1, 0.5, kind)

    item = pick(0, 0, "Tasks wait for the timeout. The value is  read\nonce, at startup.", "item")
    inside = pick(1, 40, "The value is read once, at startup.")
    same = pick(2, 9, "Tasks wait for the timeout.")
    again = pick(3, 5, "Tasks wait for the timeout.")
    block = pick(2, 80, "```\n# The value is read once, at startup.\nvalue = 1\n```", "code")
    echoed = pick(3, 90, "The value is read once, at startup.\nvalue = 1", "code")
    assert _once([item, inside, block]) == [item, block]
    # of two alike, the first is kept; code is shown as it is, never folded into prose
    assert _once([same, again, echoed, block]) == [same, echoed, block]


async def test_a_documents_own_reference_numbers_never_become_footnotes(
    embedder: Embedder,
) -> None:
    retention = "## Log retention\n\nLogs are kept for 30 days [2] unless you change `log[2]`."
    text = await answer("how long are logs kept?", [source(retention, 1)], embedder)
    # the page's "[2]" points at the page's own references, not at this answer's source 2
    assert text == "Logs are kept for 30 days unless you change `log[2]`. [1]"
