"""A description keeps the name it describes; a bullet that runs on brings the next one."""

from __future__ import annotations

from citations.model import Locator, Source
from pipeline.evidence import Lexicon
from pipeline.extractive import extract
from pipeline.graders import EmbeddingGrader
from pipeline.ports import Embedder
from pipeline.text import leans_back
from pipeline.units import units

# an options reference as an HTML reader renders it: each <dt> a one-line block
OPTIONS = """## Folder options

```
maxBackups
```

Check the backup folder after this many hours. The oldest copies are removed once \
there are more than this many backups. Set to `0` to keep every copy.

```
syncSlowly
```

When set to `true`, files are copied one at a time to save memory.
"""

NAMED = """### `tool::notice=TEXT` {#tool-notice}

The notice instruction prints a line of text for the person running the build.

Notices from dependencies are hidden unless the build fails.

# shareOwners

When enabled, the owners of files are copied between machines as well.
"""


def source(text: str, n: int = 1) -> Source:
    return Source(
        id=n, url=f"https://docs.example/{n}", title=f"Page {n}", text=text, locator=Locator()
    )


def test_a_signature_blocks_paragraph_describes_its_name() -> None:
    found = [(u.kind, u.term, u.text.split()[0]) for u in units(OPTIONS)]
    assert found == [
        ("code", "", "```"),
        ("sentence", "maxBackups", "Check"),
        ("sentence", "maxBackups", "The"),
        ("sentence", "maxBackups", "Set"),
        ("code", "", "```"),
        ("sentence", "syncSlowly", "When"),
    ]


def test_a_name_heading_is_the_term_of_its_first_paragraph_only() -> None:
    found = [(u.term, u.text.split()[0]) for u in units(NAMED)]
    assert found == [("tool::notice=TEXT", "The"), ("", "Notices"), ("shareOwners", "When")]


# a reference entry lists fields (its type, its default, where to read more) before the
# paragraph that describes it; a field whose value is code or a link is not that paragraph
FIELDS = """## build.sourcemap

- **Type:**
  `boolean | 'inline' | 'hidden'`
- **Default:** `false`
- **Related:** [server.sourcemapIgnoreList](./server#ignore), **Reloadable**: No

Generate production source maps. If `true`, a separate file is written.

The maps are uploaded with the rest of the build.

## build.minify

- **Type:** `boolean` | `'terser'` | `'esbuild'`

Set to `false` to keep the output readable.

## build.target

- **Note:** older browsers need a lower target than the one set by default.

Set it to `es2015` for the oldest browsers.
"""


def test_a_reference_entrys_fields_come_before_its_description() -> None:
    found = [(u.term, u.text.split()[0]) for u in units(FIELDS)]
    assert found == [
        ("build.sourcemap", "**Type:**"),
        ("build.sourcemap", "**Default:**"),
        ("build.sourcemap", "**Related:**"),
        ("build.sourcemap", "Generate"),
        ("build.sourcemap", "If"),
        ("", "The"),
        ("build.minify", "**Type:**"),
        ("build.minify", "Set"),
        # a labelled item that says something in words is the description itself
        ("build.target", "**Note:**"),
        ("", "Set"),
    ]


def test_a_name_heading_at_the_very_start_names_its_paragraph() -> None:
    found = [(u.term, u.text.split()[0]) for u in units("# `maxAge`\n\nHow long a reply is kept.")]
    assert found == [("maxAge", "How")]


def test_a_command_or_a_word_names_no_description() -> None:
    text = """## Building

```
$ tool build
```

This compiles the project and its tests.

## Overview

The overview explains the tool in a few words.

```
configure
```

The configure step reads `configure` options from the file.
"""
    # a command is not a name, a plain word heading is not one, and a sentence that says
    # its name needs no other
    assert [u.term for u in units(text) if u.kind != "code"] == ["", "", ""]


async def test_a_quoted_description_carries_its_name(embedder: Embedder) -> None:
    sources = [source(OPTIONS)]
    answer, picks = await extract(
        "how many old backups does it keep before deleting?",
        sources,
        EmbeddingGrader(embedder),
        limit=1,
        lexicon=Lexicon.build(s.text for s in sources),
    )
    assert picks[0].term == "maxBackups"
    assert answer.startswith("`maxBackups`: ")
    # the name once, before the run of its description's sentences
    answer, picks = await extract(
        "how many old backups does it keep, and can I keep all of them?",
        sources,
        EmbeddingGrader(embedder),
        limit=3,
        lexicon=Lexicon.build(s.text for s in sources),
    )
    assert len([p for p in picks if p.term == "maxBackups"]) >= 2
    assert answer.count("`maxBackups`: ") == 1


def test_in_other_words_leans_back() -> None:
    assert leans_back("In other words, two packages may not link the same library.")
    assert not leans_back("Other words are allowed here.")


PROXY = """### Why does the dashboard say "origin rejected"?

The dashboard only answers requests whose origin is its own address. Behind a proxy:

- Look for the rejected origin in the service log first.
- Have the proxy pass the original `Origin` header through, or
- Set `dashboard.trustedOrigins` to the proxy's public address, or
- Serve the dashboard on a port of its own.
- Reload the dashboard after each change.

Restart the service after changing the configuration, and
"""


async def test_a_bullet_ending_in_or_brings_the_one_it_runs_on_into(embedder: Embedder) -> None:
    sources = [source(PROXY)]
    answer, _ = await extract(
        "the dashboard rejects my requests through the proxy, should it pass the Origin header?",
        sources,
        EmbeddingGrader(embedder),
        limit=1,
        lexicon=Lexicon.build(s.text for s in sources),
    )
    assert "- Have the proxy pass the original `Origin` header through, or" in answer
    # the alternative it leads into, and that one's own, are the rest of the sentence
    assert "- Set `dashboard.trustedOrigins` to the proxy's public address, or" in answer
    assert "- Serve the dashboard on a port of its own." in answer
    # neither the bullet before nor the one after the last alternative
    assert "Look for the rejected origin" not in answer
    assert "Reload the dashboard" not in answer
    assert "Restart the service" not in answer


async def test_a_last_bullet_ending_in_and_brings_no_paragraph(embedder: Embedder) -> None:
    text = """## Cleaning up

- Remove the cache folder by hand, and

Empty folders are removed by the next scan of the service.
"""
    sources = [source(text)]
    answer, _ = await extract(
        "can I remove the cache folder by hand?",
        sources,
        EmbeddingGrader(embedder),
        limit=1,
        lexicon=Lexicon.build(s.text for s in sources),
    )
    assert answer.startswith("- Remove the cache folder by hand, and")
    assert "Empty folders" not in answer
    # a chunk that ends on such a bullet ends there
    sources = [source(text.split("\n\nEmpty")[0])]
    answer, _ = await extract(
        "can I remove the cache folder by hand?",
        sources,
        EmbeddingGrader(embedder),
        limit=1,
        lexicon=Lexicon.build(s.text for s in sources),
    )
    assert answer == "- Remove the cache folder by hand, and [1]"


# a configuration reference: each key a heading, its fields listed before its description
KEYS = """## Logging

### server.log.zone

- **Default**: `UTC`
- **Reloadable**: no

Sets the time zone the log's timestamps are written in.

Use a zone ID or `SystemDefault` for the machine's own zone.
"""


def test_a_key_headings_description_comes_after_its_fields() -> None:
    found = [(u.term, u.text.split()[0]) for u in units(KEYS) if u.quotable]
    # the key's fields ("Default: UTC") are not its description: the paragraph after them is
    assert found == [("server.log.zone", "Sets"), ("", "Use")]


async def test_a_key_headings_description_is_quoted_with_the_key(embedder: Embedder) -> None:
    sources = [source(KEYS)]
    answer, _ = await extract(
        "can the log timestamps be written in another time zone?",
        sources,
        EmbeddingGrader(embedder),
        limit=1,
        lexicon=Lexicon.build(s.text for s in sources),
    )
    assert answer.startswith("`server.log.zone`: Sets the time zone")
