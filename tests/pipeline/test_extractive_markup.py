"""Documentation markup in the offline answer: definition lists keep their term, MyST and
reST cross-references are read as their titles when sentences are scored and quoted as the
built page shows them, and a chunk is read with the one before it, where the thought it opens with began."""

from __future__ import annotations

import pytest

from pipeline.config import PipelineSettings
from pipeline.extracted import extractive_answer
from pipeline.extractive import _closed_code
from pipeline.graders import EmbeddingGrader
from pipeline.ports import Embedder
from pipeline.quotes import check_quotes
from pipeline.sections import widened
from pipeline.text import plain, shown
from pipeline.units import block_end, units
from tests.pipeline.test_extractive import answer, chunked, source

TRANSFORMS = """## Transformations

Exceptions can be rendered in several ways.

{func}`structlog.processors.format_exc_info`

: Formats it to a flat string like the standard library would on the console.

{obj}`structlog.processors.dict_tracebacks`

: Uses {class}`structlog.tracebacks.ExceptionDictTransformer` to give you a structured
  and JSON-serializable `exception` key.

**method_name**
: The name of the wrapped method.
: It is `"warning"` for `log.warning("foo")`.
"""


def test_a_definition_is_an_item_read_with_its_term() -> None:
    items = [u for u in units(TRANSFORMS) if u.kind == "item"]
    assert [u.text for u in items] == [
        "{func}`structlog.processors.format_exc_info`: Formats it to a flat string like the "
        "standard library would on the console.",
        "{obj}`structlog.processors.dict_tracebacks`: Uses "
        "{class}`structlog.tracebacks.ExceptionDictTransformer` to give you a structured and "
        "JSON-serializable `exception` key.",
        '**method_name**: The name of the wrapped method. It is `"warning"` for '
        '`log.warning("foo")`.',
    ]
    # each spans its term and every line of its definition in the source
    assert TRANSFORMS[items[1].start :].startswith("{obj}`structlog.processors.dict_tracebacks`")
    assert TRANSFORMS[: items[1].end].endswith("`exception` key.")
    # no definition is quoted without its term
    assert not any(u.text.startswith(":") for u in units(TRANSFORMS))


def test_a_line_ending_a_paragraph_is_not_a_term() -> None:
    text = (
        "Our team has a habit that helps a lot.\nRun the tests before you push your branch\n"
        ": they are quick to run and catch a lot.\n"
    )
    assert not any(u.kind == "item" for u in units(text))
    assert units(text[39:])[0].text.startswith("Run the tests before you push your branch: they")


async def test_the_answer_quotes_the_definitions_term(embedder: Embedder) -> None:
    text = await answer(
        "how do I get exceptions as structured JSON instead of one traceback string?",
        [source(TRANSFORMS)],
        embedder,
    )
    # shown as the built page draws the cross-reference: its target, in a code span
    assert "- `structlog.processors.dict_tracebacks`: Uses" in text


def test_cross_references_read_as_their_titles() -> None:
    said = plain(
        "For pretty exceptions, {func}`~structlog.processors.format_exc_info` must be "
        "**absent** from the chain; see {doc}`the guide <exceptions>`, :class:`click.Option`, "
        "[Rich](https://rich.readthedocs.io/en/latest/(x)) and {ref}`building-ctx`."
    )
    assert said == (
        "For pretty exceptions, `format_exc_info` must be absent from the chain; see the guide, "
        "`Option`, Rich and `building-ctx`."
    )
    # shown as Sphinx draws them: the target in full unless "~" asks for its last name; a
    # role's body may wrap onto the next line; attribute lists are gone, emphasis stays
    assert shown(
        "Call {func}`~structlog.get_logger` or {meth}`click.Context.exit`, see {doc}`the\n"
        "guide <exceptions>` and :class:`click.Option` *now* {: .subtitle }"
    ) == ("Call `get_logger` or `click.Context.exit`, see the\nguide and `click.Option` *now* ")
    assert shown("{func}`~echo` and {func}`echo`") == "`echo` and `echo`"
    # snake_case and arithmetic are not emphasis
    assert (
        plain("set max_age_seconds to 2*3*4 or *never*") == "set max_age_seconds to 2*3*4 or never"
    )


async def test_markup_does_not_outweigh_the_sentence_that_answers(embedder: Embedder) -> None:
    text = await answer(
        "how can I get down to one log entry per request?",
        [
            source(
                "## Canonical log lines\n\nHaving few log entries per request is a good thing. "
                "The less noise, the more insights.\n\n"
                "Its ability to {ref}`bind data to loggers incrementally <building-ctx>` -- plus "
                "{doc}`loggers that are local to the current execution context <contextvars>` -- "
                "can help you to minimize the output to a *single log entry* per request."
            )
        ],
        embedder,
    )
    # quoted as the built page shows it: a titled cross-reference is its title
    assert "Its ability to bind data to loggers incrementally -- plus loggers that" in text
    assert "{ref}" not in text and "<building-ctx>" not in text


def test_a_chunk_is_read_with_the_one_before_it_in_its_section() -> None:
    url = "https://docs.example/contextvars#context-variables"
    texts = [
        "The module binds values to a context-local context.\n\n:::{warning}\n"
        "Since the storage of each concurrency method differs, they are _isolated_.",
        "This can be a problem in hybrid applications where values set in a sync context "
        "don't appear in logs from an async one.\n:::\n\nThe general flow is simple.",
        "Use it as normal.",
    ]
    chunks = chunked(texts, url)
    # the reason the chunk opens with ("This can be a problem …") is in the one before
    [wide] = widened([chunks[1]], chunks, after=1, before=1)
    assert wide.text.startswith("The module binds values")
    # one chunk back, not to the section's start
    [third] = widened([chunks[2]], chunks, after=1, before=1)
    assert third.text.startswith("This can be a problem")
    # not read back, a chunk that starts inside no code block or table is read alone
    [alone] = widened([chunks[2]], chunks, after=1)
    assert alone.text.startswith("Use it as normal.")


CACHING = """## Performance

- Set the *cache_logger_on_first_use* option to `True` so loggers are assembled only once:

  ```python
  configure(cache_logger_on_first_use=True)
  ```

  This has two drawbacks:

  1. Later calls of `configure` don't have any effect on already cached loggers.
  2. The resulting bound logger is not pickleable.

- Avoid sending your log entries through the standard library if you can.
- Use a faster JSON serializer than the one in the standard library.
"""


def test_a_bullet_ends_where_its_indented_paragraphs_end() -> None:
    first, *_ = (u for u in units(CACHING) if u.kind == "item")
    end = block_end(CACHING, first.start)
    assert CACHING[:end].endswith("The resulting bound logger is not pickleable.")
    avoid = next(u for u in units(CACHING) if u.text.startswith("Avoid"))
    assert block_end(CACHING, avoid.start) == avoid.end
    note = ":::{note}\nThe storages are isolated.\nThis can be a problem.\n:::\n\nAfter it the page goes on."
    isolated = units(note)[0]
    assert note[: block_end(note, isolated.start)].endswith("This can be a problem.\n")
    assert block_end(note, units(note)[-1].start) == units(note)[-1].start


async def test_the_best_bullet_is_read_to_its_end(embedder: Embedder) -> None:
    text = await answer(
        "what's the catch with turning on cache_logger_on_first_use?", [source(CACHING)], embedder
    )
    assert "configure(cache_logger_on_first_use=True)" in text
    assert "This has two drawbacks:\n- Later calls" in text
    assert "- The resulting bound logger is not pickleable." in text


async def test_this_opening_a_paragraph_brings_the_sentence_it_means(embedder: Embedder) -> None:
    text = await answer(
        "are values escaped against cross-site scripting in my templates?",
        [
            source(
                "## Autoescape\n\nStarlette enables autoescape by default for `.html` templates "
                "when you pass a directory.\n\nThis protects against cross-site scripting by "
                "escaping user values in the template.\n\n## Filters\n\nThis lets you add "
                "custom filters to the template environment."
            )
        ],
        embedder,
    )
    assert text.startswith("Starlette enables autoescape by default")


def test_an_interpreter_session_cut_from_its_fence_is_not_prose() -> None:
    text = (
        "You can drop a key from the output by returning an empty string.\n\n"
        '>>> logging.getLogger("stdlog").info("woo")\nwoo _from_structlog=False _record=<...>\n'
    )
    assert [u.text for u in units(text)] == [
        "You can drop a key from the output by returning an empty string."
    ]


def test_a_chunk_opening_inside_a_code_block_reads_on_as_prose_after_it() -> None:
    # a chunk cut inside a compose file: its first fence closes the block, and what
    # follows is the page's prose, not a block the fence opens
    text = (
        "    image: redis:latest\n    container_name: redis\n    ports:\n    - 6379:6379\n"
        "```\n\nThis configuration runs three services, each with its own container.\n\n"
        "To run the installation:\n\n```bash\ndocker-compose up\n```\n"
    )
    assert [(u.kind, u.text) for u in units(text)] == [
        ("sentence", "This configuration runs three services, each with its own container."),
        ("sentence", "To run the installation:"),
        ("code", "```bash\ndocker-compose up\n```"),
    ]
    # a chunk that starts right at the closing fence
    assert [u.text for u in units("```\n\nThe rest of the page is prose again.")] == [
        "The rest of the page is prose again."
    ]
    # a bare fence with code under it opens a block, however many fences follow it
    opened = "Run it like this, from the project folder:\n\n```\ndocker-compose up\n"
    assert [u.text for u in units(opened)] == ["Run it like this, from the project folder:"]
    whole = "```\ndocker-compose up\n```\n\nThen open the dashboard in a browser."
    assert [u.kind for u in units(whole)] == ["code", "sentence"]


def test_a_chunk_opening_inside_a_table_is_read_from_its_column_headings() -> None:
    url = "https://docs.example/build#build-data"
    texts = [
        "Data that hooks can change.\n\n| Data | Default | Description |\n| --- | --- | --- |\n"
        "| `tag` | | The full tag of the file name |",
        "| `infer_tag` | `False` | Use the tag most specific to the platform |\n"
        "| `pure_python` | `True` | Whether the package holds no platform files |",
        "| `dependencies` | | Extra dependencies of the project |",
        "After the table the page goes on with prose.",
    ]
    chunks = chunked(texts, url)
    [wide] = widened([chunks[2]], chunks, after=0)
    assert wide.text.startswith("Data that hooks can change.")
    row = next(u for u in units(wide.text) if "dependencies" in u.text)
    assert row.kind == "item" and row.text.startswith("`dependencies`")
    # a chunk opening with its own table heading is read as it is
    [own] = widened([chunks[0]], chunks, after=0)
    assert own.text == texts[0]


@pytest.mark.timeout(10)
def test_a_long_rule_under_a_table_row_is_read_at_once() -> None:
    # a row of dashes that is not a table's heading rule (an ASCII-art line, a banner in a
    # log) must not make every chunk read on stall: Traefik's docs hung a question for minutes
    url = "https://docs.example/build#build-data"
    texts = [
        "The router matches the host.\n\n| Host | Service |\n| --- | --- |\n| a | b |",
        "| c | d |\n" + "-" * 200 + " banner\nThen the page goes on.",
        "More prose after the banner.",
    ]
    chunks = chunked(texts, url)
    [wide] = widened([chunks[1]], chunks, after=0)
    assert wide.text.startswith("The router matches the host.")
    # a heading rule with or without outer pipes still marks a table's heading
    [own] = widened([chunks[0]], chunks, after=0)
    assert own.text == texts[0]
    no_outer = chunked(["| x\n---|---\n1|2", "a | b |\n---|---\n3|4"], url)
    [second] = widened([no_outer[1]], no_outer, after=0)
    assert second.text == "a | b |\n---|---\n3|4"


def rejoined(head: str, rest: str, url: str, *, gap: int) -> str:
    """The text of the chunk ``rest`` read back to ``head``, ``gap`` characters before it in
    one section: a row cut in two is one line again."""
    chunks = [source(head, start=0, url=url), source(rest, start=len(head) + gap, url=url)]
    [wide] = widened([chunks[1]], chunks, after=0)
    assert wide.text == head + " " + rest
    return wide.text


def test_a_padded_row_cut_at_a_full_stop_in_a_cell_is_one_row_again() -> None:
    # Traefik pads its option tables' cells to line the columns up: a chunk boundary after a
    # cell's full stop leaves a gap of many spaces, which read as an indented code block of
    # the row's last cells ("| 30s | No |" shown as code, the default parted from its option)
    url = "https://docs.example/service#health-check"
    head = (
        "| Field | Description | Default | Required |\n|---|---|---|---|\n"
        "| `interval` | Defines the frequency of the health check calls."
    )
    rest = "| 30s     | No       |\n| `timeout` | Defines the timeout. | 5s | No |"
    found = units(rejoined(head, rest, url, gap=58))
    assert not [u for u in found if u.kind == "code"]
    assert found[0].text == (
        "`interval` — Description: Defines the frequency of the health check calls.; "
        "Default: 30s; Required: No"
    )


def test_rows_far_down_a_long_table_are_read_whole_without_their_headings() -> None:
    # a chunk deep in a 59-row flag table reaches back two chunks, not to the heading row: the
    # rows are still items, each with every cell (the default is the last one), and the rest
    # of a row cut at a full stop in a cell is never quoted alone
    url = "https://docs.example/cli#flags"
    texts = [
        "| `--query.timeout` | Maximum time a query may take. | `2m` |\n"
        "| `--query.max-samples` | Maximum number of samples a query can load into memory.",
        "Note that queries will fail if they load more samples than this. | `50000000` |\n"
        "| `--log.format` | Output format of log messages. One of: [logfmt, json] | `logfmt` |",
    ]
    chunks = chunked(texts, url)
    [wide] = widened([chunks[1]], chunks, after=0)
    found = units(wide.text)
    assert [u.text for u in found] == [
        "`--query.timeout` — Maximum time a query may take.; `2m`",
        "`--query.max-samples` — Maximum number of samples a query can load into memory. Note"
        " that queries will fail if they load more samples than this.; `50000000`",
        "`--log.format` — Output format of log messages. One of: logfmt, json; `logfmt`",
    ]
    assert all(u.kind == "item" for u in found)
    # two cells are a name and what it means
    assert [u.text for u in units("| `a` | Does a thing well. |\n| `b` | Does b. |")] == [
        "`a`: Does a thing well."
    ]


def test_a_row_cut_in_two_by_a_chunk_boundary_is_one_row_again() -> None:
    url = "https://docs.example/build#build-data"
    head = (
        "| Data | Default | Description |\n| --- | --- | --- |\n"
        "| `tag` | | The full tag of the file name (e.g."
    )
    rest = "`py3-none-any`), or the platform's own |\n| `pure` | `True` | No platform files |"
    rows = [u.text for u in units(rejoined(head, rest, url, gap=1)) if u.kind == "item"]
    assert rows[0].startswith("`tag` — Description: The full tag of the file name (e.g. `py3")


def test_a_paragraph_of_one_code_span_is_the_usage_line_its_description_is_quoted_with() -> None:
    # a feature's heading, its flag alone on a line, then what it does: quoted alone, "This
    # takes a snapshot …" would not say which flag turns it on
    text = (
        "## Memory snapshot on shutdown\n\n`--enable-feature=memory-snapshot-on-shutdown`\n\n"
        "This takes a snapshot of the chunks in memory when shutting down.\n\n"
        "## Extra metrics\n\nRun `promtool check config` before you reload it.\n"
    )
    found = units(text)
    assert [(u.kind, u.text, u.term) for u in found] == [
        ("code", "```\n--enable-feature=memory-snapshot-on-shutdown\n```", ""),
        (
            "sentence",
            "This takes a snapshot of the chunks in memory when shutting down.",
            "--enable-feature=memory-snapshot-on-shutdown",
        ),
        ("sentence", "Run `promtool check config` before you reload it.", ""),
    ]
    assert text[found[0].start : found[0].end] == "`--enable-feature=memory-snapshot-on-shutdown`"


async def test_a_usage_line_shown_as_code_is_not_said_again_before_its_description(
    embedder: Embedder,
) -> None:
    text = (
        "## Memory snapshot on shutdown\n\n`--enable-feature=memory-snapshot-on-shutdown`\n\n"
        "This takes a snapshot of the chunks in memory when shutting down, so that a restart"
        " does not replay the whole write-ahead log.\n"
    )
    said = await answer(
        "restart replays the whole write-ahead log, is there a snapshot on shutdown?",
        [source(text)],
        embedder,
    )
    assert said.startswith("```\n--enable-feature=memory-snapshot-on-shutdown\n```")
    assert said.count("--enable-feature=memory-snapshot-on-shutdown") == 1
    assert "This takes a snapshot of the chunks in memory" in said


def test_a_short_definition_is_what_its_term_means() -> None:
    codes = "## Exit Codes\n\n0\n: Success / Shutdown\n\n3\n: Restarting\n\n5\n: `0x05`\n\nThat is all.\n"
    items = [u.text for u in units(codes) if u.kind == "item"]
    # a word or two still says what the term means; a bare value says nothing of it
    assert items == ["0: Success / Shutdown", "3: Restarting"]
    assert not any(u.text.startswith(("5", ":")) for u in units(codes))


async def test_a_sentence_shown_without_its_markup_still_verifies_and_deep_links(
    embedder: Embedder,
) -> None:
    text = (
        "## Exits\n\nThe command stops early when it called {meth}`~click.Context.exit` with a "
        "code, and Click then exits the process with that code.\n"
    )
    extracted = await extractive_answer(
        "what happens when my command calls exit with a code?",
        [source(text, url="https://docs.example/exits")],
        EmbeddingGrader(embedder),
        PipelineSettings(),
    )
    assert extracted is not None
    checked = check_quotes(extracted.answer, PipelineSettings(), sentences=True)
    assert "called `exit` with a code" in checked.plain_text
    (check,) = checked.quotes
    assert check.verified and check.score == 100.0
    assert check.deep_link == (
        "https://docs.example/exits#:~:text=The%20command%20stops%20early,process%20with%20that%20code."
    )


PORT_OPTIONS = """## server.port

- **Type:** `number`
- **Default:** `5173`

Specify server port. Note if the port is already being used, Vite will automatically try
the next available port so this may not be the actual port the server ends up listening on.

## worker_prefetch_multiplier

Default: 4.

How many messages to prefetch at a time multiplied by the number of concurrent processes.
"""


async def test_a_line_stating_a_default_answers_what_the_default_is(embedder: Embedder) -> None:
    # reference pages state a setting's default on a line of its own, too short to quote as a
    # sentence: it is what "what's the default …?" asks for, read with the setting it is of
    sources = [source(PORT_OPTIONS)]
    port = await answer("what port does the dev server use if I don't set one?", sources, embedder)
    assert "`server.port`: **Default:** `5173`" in port
    prefetch = await answer("what's the default worker_prefetch_multiplier?", sources, embedder)
    assert "Default: 4." in prefetch
    # asked what value the setting takes, the default is the value it takes unasked
    used = await answer("which port does the dev server listen on?", sources, embedder)
    assert "`server.port`: **Default:** `5173`" in used
    # asked anything else, a bare default says nothing
    busy = await answer("what happens when the port is already in use?", sources, embedder)
    assert "next available port" in busy and "Default" not in busy
    port = await answer("what does the server.port setting do?", sources, embedder)
    assert "next available port" in port and "Default" not in port
    how = await answer(
        "which setting should I change to move the dev server's port?", sources, embedder
    )
    assert "Default" not in how


async def test_a_backtick_that_opens_no_code_span_hides_no_footnote(embedder: Embedder) -> None:
    # reStructuredText's `name <url>`_ link, cut where a sentence ends, leaves a lone backtick:
    # streamed as it was, every footnote marker after it read as code and the answer had none
    license_ = (
        "## License\n\nThis material may be copied only under the terms of the Creative Commons "
        "Attribution-ShareAlike 4.0 International <https://creativecommons.org/licenses/by-sa/"
        "4.0/legalcode>`_ license. You may share and adapt the material, even for commercial "
        "purposes, but you must give the original author credit.\n"
    )
    support = "## Support\n\nCommercial support for the library is not offered by the project.\n"
    extracted = await extractive_answer(
        "can I share and adapt the documentation for commercial purposes, under which license?",
        [source(license_, 1), source(support, 2)],
        EmbeddingGrader(embedder),
        PipelineSettings(),
    )
    assert extracted is not None
    assert "legalcode>_ license" in extracted.raw and "`" not in extracted.raw
    assert [r.url for r in extracted.answer.references][:1] == ["https://docs.example/1"]
    assert "[1]" in extracted.answer.text


@pytest.mark.parametrize(
    ("sentence", "kept"),
    [
        ("a <https://x>`_ license.", "a <https://x>_ license."),
        (
            "the `Creative Commons <https://x>`_ license",
            "the `Creative Commons <https://x>`_ license",
        ),
        ("use ``a`b`` and `c`", "use ``a`b`` and `c`"),
        ("a ``lone`` pair and one `` more", "a ``lone`` pair and one  more"),
        ("`a` then ` and ``b``", "`a` then  and ``b``"),
        ("no code", "no code"),
    ],
)
def test_only_backticks_that_some_run_closes_are_kept(sentence: str, kept: str) -> None:
    assert _closed_code(sentence) == kept
