"""Facts written in code and tables: a row of values is a claim about its key, and the
block that names what a how-to question asks is shown (fenced) and cited, whichever
retrieved section it sits in."""

from __future__ import annotations

from dataclasses import replace

from citations.model import Source
from pipeline.evidence import Lexicon
from pipeline.extractive import Pick, extract, is_how_to
from pipeline.graders import EmbeddingGrader
from pipeline.ports import Embedder
from pipeline.units import units
from tests.pipeline.test_extractive import chunked, source

RANGES = """## Caret ranges

A caret range allows changes that do not modify the left-most non-zero part of the version.

| Range | Matches |
| --- | --- |
| `^2.1` | `>=2.1.0, <3.0.0` |
| `^0.3` | `>=0.3.0, <0.4.0` |
| `patch`<br>`fix` | `1.0.1` |
| `os` | <ul><li>linux</li><li>win32</li></ul> |
| Build | [![build](https://ci.example/badge.svg){ loading=lazy }](https://ci.example/) |

Tilde ranges are stricter."""

# other pages of the same docs: what makes a term rare or common among the chunks
CORPUS = [
    "## Install\n\nInstall tern with pip. Tern needs Python 3.10 or later.",
    "## Commands\n\nTern has commands for commits, tags and releases. Each command has help.",
    "## Hooks\n\nTern runs hooks before each commit. A failing hook stops the commit.",
    "## Output\n\nTern prints colored output. Set `NO_COLOR` to turn colors off.",
]


async def answered(
    question: str, sources: list[Source], embedder: Embedder, *, limit: int = 2
) -> tuple[str, list[Pick]]:
    """The offline answer from ``sources``, with term statistics over them and ``CORPUS``."""
    lexicon = Lexicon.build([*(s.text for s in sources), *CORPUS])
    grader = EmbeddingGrader(embedder)
    return await extract(question, sources, grader, limit=limit, lexicon=lexicon)


def test_a_row_of_values_is_read_with_its_headings() -> None:
    items = [u.text for u in units(RANGES) if u.kind == "item"]
    assert items == [
        "Range `^2.1` — Matches: `>=2.1.0, <3.0.0`",
        "Range `^0.3` — Matches: `>=0.3.0, <0.4.0`",
        # a line break or a list inside a cell separates its values
        "Range `patch`, `fix` — Matches: `1.0.1`",
        "Range `os` — Matches: linux, win32",
    ]
    # a row that says something in words keeps the short form ("name: meaning")
    words = "| Key | Meaning |\n| --- | --- |\n| `strict` | Fail on the first warning found |\n"
    assert [u.text for u in units(words)] == ["`strict`: Fail on the first warning found"]
    # a key alone, or a row with no headings to read it by, is no claim
    bare = "| | |\n| --- | --- |\n| `a` | `b` |\n| `c` | |\n"
    assert units(bare) == []


def test_a_cells_markup_and_a_rows_shape_do_not_change_what_it_says() -> None:
    table = (
        "| Flag | Since | Effect |\n| --- | --- | --- |\n"
        "| | | |\n"  # an empty row is skipped, not the end of the table
        "|`--x`|`1.2`|`on`|\n"  # no spaces around the pipes
        "| <code>--y</code> | `2.0` |\n"  # a cell short
        "| `--z` | `3.1` | `off` | `extra` |\n"  # a cell more than there are headings
        "| `--w` | `4.0` | ends in a pipe \\|\n"
    )
    assert [u.text for u in units(table)] == [
        "Flag `--x` — Since: `1.2`; Effect: `on`",
        "Flag `--y` — Since: `2.0`",
        "Flag `--z` — Since: `3.1`; Effect: `off`",
        "Flag `--w` — Since: `4.0`; Effect: ends in a pipe \\|",
    ]


async def test_a_fact_only_in_a_row_of_values_is_stated(embedder: Embedder) -> None:
    text, _ = await answered("which versions does ^2.1 match?", [source(RANGES)], embedder, limit=3)
    assert text.startswith("- Range `^2.1` — Matches: `>=2.1.0, <3.0.0`\n")


def test_how_to_questions_include_asking_for_the_setting_or_whether_one_can() -> None:
    for question in [
        "can I turn off the update check only in CI?",
        "I want a quiet build, what's the setting?",
        "what's the recommended way to install it on a build server?",
        "which env var do I set to skip the hooks?",
        "what do I tell fish users to add to their config?",
        "is there an option to keep the temp files?",
    ]:
        assert is_how_to(question), question
    for question in [
        "does the cache survive a restart?",
        "which versions does ^2.1 match?",
        "can I still use the old config file?",
        "what is the default timeout?",
    ]:
        assert not is_how_to(question), question


POINTER = """## Default editor

Tern opens the program named by the `EDITOR` environment variable to write commit messages. \
When it is unset, tern falls back to `vi` on every platform. See the editors page for more."""

EDITOR = """## Editor

You can pick the program tern writes messages in with the `editor` key.

```toml
[commit]
editor = "nano"
```"""


async def test_a_how_to_answer_shows_the_block_naming_the_question_from_another_section(
    embedder: Embedder,
) -> None:
    sources = [source(POINTER, 1), source(CORPUS[2], 2), source(EDITOR, 3)]
    question = "tern opens vi for my commit messages but I like nano, how do I change that?"
    text, picks = await answered(question, sources, embedder)
    # the pointer's section matched the question best; the setting is the other one's code
    assert text.startswith("Tern opens the program named by the `EDITOR`")
    assert '```toml\n[commit]\neditor = "nano"\n```\n[3]' in text
    assert [p.source_id for p in picks if p.kind == "code"] == [3]
    # not asked how: the other section's code is not shown
    told, _ = await answered(
        "what does tern open for commit messages when EDITOR is unset?", sources, embedder
    )
    assert "```" not in told


COUNT = """## Counting

An option may be repeated, and its value is how many times it was given.

```python
@tool.option("-v", "--verbose", count=True)
```"""

STACKING = """## Stacking short options

Short options can be written together, so `-abc` is the same as `-a -b -c`. If the \
last one takes a value, it can follow in the next argument:

```python
@tool.option("-n", type=int)
```"""


async def test_code_a_sentence_announces_gets_company_from_a_block_naming_more(
    embedder: Embedder,
) -> None:
    text, picks = await answered(
        "how can users pass -abc style flags and a verbose flag several times?",
        [source(STACKING, 1), source(COUNT, 2)],
        embedder,
    )
    code = [p.text for p in picks if p.kind == "code"]
    assert any("count=True" in c for c in code), text
    assert len(code) <= 2


RUNNERS = """## CI runners

```yaml
- name: Set up tern
  uses: tern-dev/setup@v2
```

Read the action's page for its inputs."""

DAEMON = """## Daemon

Tern can run in the background and watch the repository. Start it on a build server \
with `tern daemon --detach`."""


async def test_a_blocks_section_title_counts_for_what_it_names(embedder: Embedder) -> None:
    # the block's own words are generic; its section's title says what it is for
    sources = [
        source(DAEMON, 1),
        Source(
            id=2, url="https://docs.example/install#ci", title="Install › CI runners", text=RUNNERS
        ),
    ]
    text, _ = await answered(
        "what's the recommended way to get tern onto a CI runner?", sources, embedder, limit=1
    )
    assert "uses: tern-dev/setup@v2\n```\n[2]" in text


LAZY = """## Lazy plugins

Plugins can be marked "lazy", which means they are not loaded until one of their \
commands runs. For example, suppose that a project draws charts with a plugin it rarely \
uses. This can be written like this:

```toml
[plugins]
charts = { version = "2.1", lazy = true }
```

By default, a lazy plugin still registers its commands under a group that looks like this:

```toml
[groups]
charts = ["plugin:charts"]
```"""


async def test_the_example_the_best_sentence_leads_into_brings_its_code(
    embedder: Embedder,
) -> None:
    question = "how do I stop a plugin from loading until it is needed?"
    text, _ = await answered(question, [source(LAZY, 1)], embedder, limit=3)
    # "This can be written like this:" scores next to nothing alone, but it carries on the
    # best sentence's thought, and the code it announces says how
    assert "This can be written like this: [1]\n\n```toml\n[plugins]\n" in text
    assert "lazy = true }\n```\n[1]" in text
    # a run of sentences that announces no code is not read past the floor
    plain = LAZY.replace("This can be written like this:", "This is rare.")
    told, _ = await answered(question, [source(plain, 1)], embedder, limit=3)
    assert "This is rare." not in told and "lazy = true" not in told
    # nor one that does not lean on the sentence before it
    unled = LAZY.replace("This can be written like this:", "Write the table like this:")
    told, _ = await answered(question, [source(unled, 1)], embedder, limit=3)
    assert "Write the table" not in told and "lazy = true" not in told


SIBLING = """## Sibling packages

Over time a project grows, and parts of it are split into packages that sit side by side.

```toml
[dependencies]
helpers = { path = "../helpers" }
```

This tells tern that the package depends on `helpers`, found in the folder next to it."""


async def test_a_sentence_leaning_on_the_code_before_it_brings_the_code(
    embedder: Embedder,
) -> None:
    question = "can a package depend on one in a folder next to it?"
    text, picks = await answered(question, [source(SIBLING, 1)], embedder, limit=3)
    assert '```toml\n[dependencies]\nhelpers = { path = "../helpers" }\n```\n[1]\n\nThis tells' in (
        text
    )
    assert [p.kind for p in picks].count("code") == 1
    # under another heading, "This …" is not about the block that ends the section before
    headed = SIBLING.replace("\n\nThis tells", "\n\n## Layout\n\nThis tells")
    told, _ = await answered(question, [source(headed, 1)], embedder, limit=3)
    assert "This tells" in told and "```" not in told


RELEASE = """## Release profile

The release profile is what `tern build --release` uses, for builds you ship.

```toml
[profile.release]
strip-symbols = true
overflow-checks = false
```"""


async def test_code_naming_most_of_what_is_asked_is_shown_though_not_asked_how(
    embedder: Embedder,
) -> None:
    text, _ = await answered(
        "are overflow checks on in release builds?", [source(RELEASE)], embedder
    )
    assert text.endswith("overflow-checks = false\n```\n[1]")
    # a block naming little of the question stays out (see the editor test above)
    told, _ = await answered("what do I ship builds with?", [source(RELEASE)], embedder)
    assert "```" not in told


INIT = """## Starting a project

Run `tern init` in an empty folder to start a project. This also writes a `.ternrc` file \
with the settings of your user by default. If you don't want it to do that, pass `--bare`."""


async def test_a_how_to_answer_saying_what_happens_by_default_says_how_to_change_it(
    embedder: Embedder,
) -> None:
    question = "tern init keeps writing a ternrc file for me, can I stop that?"
    text, _ = await answered(question, [source(INIT)], embedder, limit=1)
    assert text.endswith("by default. If you don't want it to do that, pass `--bare`. [1]")
    # not asked how: what happens is the answer
    told, _ = await answered("does tern init write a ternrc file?", [source(INIT)], embedder)
    assert "--bare" not in told
    # the next paragraph, or a sentence naming no other code, is not how to change it
    for other in [
        INIT.replace(" If you don't", "\n\nIf you don't"),
        INIT.replace("pass `--bare`", "pass the bare flag"),
        INIT.replace(" by default", ""),
    ]:
        told, _ = await answered(question, [source(other)], embedder, limit=1)
        assert "If you don't want" not in told, other


def test_a_problem_stated_or_a_trailing_and_how_asks_how() -> None:
    for question in [
        "the sync fails with too many open files, what limit should we raise and how?",
        "the service ignores the variables I set in my shell",
        "I want the web page under /tern on our existing proxy",
    ]:
        assert is_how_to(question), question
    for question in ["does the service read my shell's variables?", "what limit applies?"]:
        assert not is_how_to(question), question


EXPORTS = [
    """## Watching exports

You can see the progress and history of exports with the `exports()` table function:

```sql
SELECT * FROM exports();
```

Example output:""",
    """| Status | Meaning |
| --- | --- |
| `export running` | The export is still writing files |
| `export done` | The export finished and every file is written |
| `export failed` | The export stopped on an error |

To cancel a running export:

```sql
EXPORT CANCEL;
```""",
]


async def test_a_how_to_answer_shows_the_block_a_lead_in_gives_from_any_chunk_of_its_section(
    embedder: Embedder,
) -> None:
    first, second = chunked(EXPORTS, "https://docs.example/exports#watching-exports")
    # the status rows answer best; the section's first chunk, retrieved lower, says how
    sources = [replace(second, id=1), source(CORPUS[1], 2), replace(first, id=3)]
    question = "how do I see whether my export finished or failed?"
    lexicon = Lexicon.build([*(s.text for s in sources), *CORPUS])
    grader = EmbeddingGrader(embedder)
    text, picks = await extract(
        question, sources, grader, limit=2, lexicon=lexicon, support=[1.2, 0.6, 0.9]
    )
    assert "`export done`" in text
    # both blocks name as much of the question: the one whose lead-in answers is shown
    assert [p.text for p in picks if p.kind == "code"] == ["```sql\nSELECT * FROM exports();\n```"]
    # with the sentence that announces it, which says what it shows
    assert (
        "with the `exports()` table function: [3]\n\n```sql\nSELECT * FROM exports();\n```\n[3]"
        in (text)
    )


QUIET = """## Silencing one function

Sometimes one function logs far too much, and you want its lines gone from the output.
Tern drops a function's log lines when a filter on the function name is in the chain.

```python
tern.configure(filters=[tern.DropFunction("noisy")])
```"""

SEEN = """## Colored output

To see the log lines of every function in color in the output, all it takes is:

```python
tern.configure(color=True)
```"""


async def test_another_sections_block_does_not_keep_the_best_sections_code_out(
    embedder: Embedder,
) -> None:
    question = "how do I get rid of the log lines of one function in the output?"
    text, _ = await answered(question, [source(QUIET, 1), source(SEEN, 2)], embedder, limit=4)
    # the other section's sentence brings the code it announces; that is no answer to how,
    # and the best section's code is still shown
    assert "tern.configure(color=True)" in text
    assert 'tern.configure(filters=[tern.DropFunction("noisy")])\n```\n[1]' in text


PRODUCTION = """## High availability mode

When deploying tern in production, deploy the release service in high availability mode.
This creates three replicas of each release service pod, so that it survives a node
failure."""

DEPLOY = """## Install in high availability mode

You can run tern with three replicas of each release service pod in production.

```bash
tern init --enable-ha=true
```

## Install in a custom namespace

The default namespace is `tern-system`.

```bash
tern init -n mynamespace
```"""


PRIORITY = """## Priority class

Each pod of tern can be given a priority class in production.

```bash
tern init --priority=high
```"""


async def test_a_how_to_answer_shows_the_command_a_quoted_sentence_leads_into(
    embedder: Embedder,
) -> None:
    # the best section says why, another says how: its sentence is quoted and the command
    # right under it is what the asker types, though it names none of the question's words
    question = "what's the cli flag to get three replicas of each release service pod?"
    sources = [source(PRODUCTION, 1), source(DEPLOY, 2), source(PRIORITY, 3)]
    text, picks = await answered(question, sources, embedder, limit=4)
    assert picks[0].source_rank == 0 and "You can run tern with three replicas" in text
    assert "```bash\ntern init --enable-ha=true\n```" in text
    # a block under another heading than the quoted sentence is not what it leads into
    assert "tern init -n mynamespace" not in text
    assert [p.source_rank for p in picks if p.kind == "code"] == [1]
    # a quoted sentence answering far less well than the best does not bring its block
    assert "Each pod of tern can be given a priority class" in text
    assert "--priority=high" not in text


BUILDING = """## Building

Invoking the `build` command without any arguments will build the sdist and wheel targets:

```console
$ tern build
[sdist]
dist/demo-1.0.tar.gz
[wheel]
dist/demo-1.0-py3-none-any.whl
```

To only build specific targets, use the `-t`/`--target` option:

```console
$ tern build -t wheel
```

To produce only a binary distribution, name it:

```console
$ tern -v build
```

## Publishing

Publishing uploads what was built. A token is needed:

```console
$ tern publish --token TOKEN
```
"""


async def test_a_how_to_answer_shows_the_variant_the_docs_give_next(embedder: Embedder) -> None:
    # after the bare command, the docs give the option that builds one target: for "just
    # the wheel" that is the answer, though it scores below the bare command's lead-in
    text, _ = await answered(
        "how do I build just the wheel and not the sdist?", [source(BUILDING)], embedder, limit=1
    )
    assert "$ tern build -t wheel" in text and "`-t`/`--target` option:" in text
    # a block under another heading is another subject, not a variant, and neither is one
    # whose lead-in names nothing the question asks
    assert "tern publish" not in text and "tern -v build" not in text
    # not asked how: no variant is brought along
    text, _ = await answered(
        "which targets does the build command build by default?",
        [source(BUILDING)],
        embedder,
        limit=1,
    )
    assert "-t wheel" not in text


def test_a_marker_after_a_closing_fence_stands_on_its_own_line() -> None:
    # "``` [1]" closes no block, as Slack and Discord read it: the block, and every marker
    # after it, would stay open (a celery answer lost three of its four footnotes so)
    from citations import resolve
    from pipeline.extractive import _marker

    assert _marker("- ```\n  T.apply_async(countdown=10)\n  ```", 1) == "\n[1]"
    assert _marker("text\n~~~", 2) == "\n[2]"
    assert _marker("Run `x` then ``` here", 3) == " [3]"
    assert _marker("``", 4) == " [4]"
    sources = [source("make", 1), source("Then deploy.", 2)]
    text = "- ```\n  make\n  ```" + _marker("  ```", 1) + "\n\nThen deploy." + " [2]"
    assert [r.number for r in resolve(text, sources).references] == [1, 2]
