"""How documentation is laid out, read as a person reads it: content tabs are labelled
sub-units and the one the question names is read, a lead-in brings what it introduces,
admonition bodies are prose, and badges and attribute lists are never quoted."""

from __future__ import annotations

from collections.abc import Callable

from pipeline.ports import Embedder
from pipeline.text import is_prose, plain
from pipeline.units import asked_tabs, block_end, tab_sets, units
from pipeline.words import question_terms, terms
from tests.pipeline.test_extractive import answer, source

SHELLS = """## Shell setup

The tool prints a script that your shell runs when it starts.

=== "Bash"
    Write the script to a file:

    ```console
    _TOOL_SETUP=bash_hook tool > ~/.tool-setup.bash
    ```

=== "Z shell"
    Write the script to a file:

    ```console
    _TOOL_SETUP=zsh_hook tool > ~/.tool-setup.zsh
    ```

=== "PowerShell"
    Write the script to a file:

    ```powershell
    tool --setup powershell > $PROFILE.tool
    ```
"""

SPHINX_TABS = """Pick the platform that you use.

.. tab:: Linux

    Install the daemon with your distribution's package manager first.

.. tab:: Windows

    Run the installer as an administrator and reboot the machine afterwards.
"""


def asked_by(question: str) -> Callable[[str], set[str]]:
    wanted = set(question_terms(question))
    return lambda text: wanted.intersection(terms(text))


def test_a_tab_label_is_never_glued_onto_the_sentence_under_it() -> None:
    prose = [u.text for u in units(SHELLS) if u.kind != "code"]
    assert prose.count("Write the script to a file:") == 3
    assert not any("===" in text or "Bash" in text for text in prose)
    sphinx = [u.text for u in units(SPHINX_TABS)]
    assert sphinx[1] == "Install the daemon with your distribution's package manager first."
    assert not any(".." in text or "tab" in text for text in sphinx)


def test_tabs_are_grouped_in_sibling_sets_nested_ones_apart() -> None:
    nested = '=== "pyproject.toml"\n\n    === "Simple"\n        One.\n\n    === "Complex"\n        Two.\n'
    assert [[t.label for t in group] for group in tab_sets(nested)] == [
        ["pyproject.toml"],
        ["Simple", "Complex"],
    ]
    assert [[t.label for t in group] for group in tab_sets(SPHINX_TABS)] == [["Linux", "Windows"]]
    myst = "::::{tab-set}\n:::{tab-item} pip\nUse pip.\n:::\n:::{tab-item} conda\nUse conda.\n:::\n::::"
    [group] = tab_sets(myst)
    assert [t.label for t in group] == ["pip", "conda"]
    assert myst[group[0].start : group[0].end].endswith("Use pip.\n:::")


def test_the_tab_the_question_names_is_the_one_read() -> None:
    found = units(SHELLS)
    kept = asked_tabs(found, SHELLS, asked_by("how do I set the tool up in zsh?"))
    code = [u.text for u in kept if u.kind == "code"]
    assert len(code) == 1 and "zsh_hook" in code[0]
    # the sentence before the tabs is no tab's: always kept
    assert kept[0].text.startswith("The tool prints a script")
    windows = asked_tabs(
        units(SPHINX_TABS), SPHINX_TABS, asked_by("how do I install it on Windows?")
    )
    assert [u.text for u in windows][-1].startswith("Run the installer")
    assert not any("package manager" in u.text for u in windows)
    # a question naming no tab's own terms reads them all ("script" is in every tab)
    assert asked_tabs(found, SHELLS, asked_by("where does the script go?")) == found


async def test_the_answer_shows_the_named_tabs_code(embedder: Embedder) -> None:
    text = await answer("how do I set the tool up in zsh?", [source(SHELLS)], embedder)
    assert "_TOOL_SETUP=zsh_hook" in text
    assert "bash_hook" not in text and "powershell" not in text


ORDER = """## Default file selection

When no file selection is configured, the package to ship is found in the following order:

1. `<NAME>/__init__.py`
2. `src/<NAME>/__init__.py`
3. `<NAME>.py`

If none of these exist, the build fails with an error."""


def test_a_list_item_too_short_to_quote_is_kept_for_its_lead_in() -> None:
    items = [u for u in units(ORDER) if u.kind == "item"]
    assert [u.text for u in items] == [
        "`<NAME>/__init__.py`",
        "`src/<NAME>/__init__.py`",
        "`<NAME>.py`",
    ]
    assert not any(u.quotable for u in items)
    assert all(u.quotable for u in units(ORDER) if u.kind == "sentence")


async def test_a_lead_in_is_never_quoted_without_its_list(embedder: Embedder) -> None:
    text = await answer(
        "if I configure nothing, which package does the build ship?", [source(ORDER)], embedder
    )
    assert "in the following order:\n- `<NAME>/__init__.py`" in text
    assert "- `src/<NAME>/__init__.py`" in text
    # never quoted on its own: a short item is a claim only after what announces it
    lone = await answer("which package is `src/<NAME>/__init__.py`?", [source(ORDER)], embedder)
    assert not lone.startswith("- ")


NOTES = """## Standalone binaries

The binary builder bundles the app with an interpreter.

!!! note
    This requires a Rust toolchain on the build machine.
    The toolchain is downloaded on first use.

Builds land in the `dist` directory."""


def test_an_admonition_body_is_one_block_of_prose() -> None:
    found = units(NOTES)
    body = next(u for u in found if u.text.startswith("This requires"))
    assert body.kind == "sentence"
    end = block_end(NOTES, body.start)
    assert NOTES[:end].endswith("downloaded on first use.")
    after = next(u for u in found if u.text.startswith("Builds land"))
    assert block_end(NOTES, after.start) == after.start


def test_a_myst_admonition_fenced_with_backticks_is_prose_not_code() -> None:
    text = (
        "Intro sentence of the section here.\n\n```{warning}\n:class: dropdown\n"
        "The runner is not thread-safe at all.\nUse processes instead of threads.\n```\n\n"
        "```{code-block} python\nrunner = Runner()\n```\n"
    )
    found = units(text)
    assert [u.kind for u in found] == ["sentence", "sentence", "sentence", "code"]
    assert found[1].text == "The runner is not thread-safe at all."
    assert text[: block_end(text, found[1].start)].endswith("instead of threads.\n")


def test_badges_and_attribute_lists_are_not_prose() -> None:
    badge = (
        "[![CI - Test](https://ci.example/badge.svg){ loading=lazy .off-glb }](https://ci.example) "
        "[![PyPI - Version](https://pypi.example/v.svg){ loading=lazy }](https://pypi.example)"
    )
    assert not is_prose(badge)
    assert not is_prose('![The logo of the project](assets/logo.svg){ role="img" }')
    # the piece of a long table row that a chunk boundary cut from its table
    assert not is_prose("the release workflow badge for builds |\n| Docs | the docs badge here |")
    assert is_prose("Read the [install guide](install.md){ .md-button } before you start.")
    assert plain("Read the [guide](g.md){ .md-button } first.") == "Read the guide first."


REST_TABS = """## Enabling completion

Add the line below to your shell's startup file and start a new shell.

```{eval-rst}
.. tabs::

    .. group-tab:: Bash

        Add this to ``~/.bashrc``:

        .. code-block:: bash

            eval "$(_APP_COMPLETE=bash_source app)"

    .. group-tab:: Zsh

        Add this to ``~/.zshrc``:

        .. code-block:: zsh
            :caption: zshrc

            eval "$(_APP_COMPLETE=zsh_source app)"

A literal block follows a paragraph that ends in a double colon::

    app --install-completion

That is all there is to it, really.
```"""


def test_rest_in_myst_is_prose_whose_directive_bodies_are_code() -> None:
    found = units(REST_TABS)
    code = [u.text for u in found if u.kind == "code"]
    assert code[:2] == [
        '```bash\neval "$(_APP_COMPLETE=bash_source app)"\n```',
        '```zsh\neval "$(_APP_COMPLETE=zsh_source app)"\n```',
    ]
    prose = [u.text for u in found if u.kind != "code"]
    assert "Add this to ``~/.zshrc``:" in prose
    assert not any(".." in t or "caption" in t or "eval" in t for t in prose)
    # a paragraph's "::" introduces a literal block; the paragraph stays prose
    assert code[2] == "```\napp --install-completion\n```"
    assert "That is all there is to it, really." in prose


async def test_the_rest_tab_the_question_names_is_answered(embedder: Embedder) -> None:
    text = await answer(
        "what do zsh users add so that completion works?", [source(REST_TABS)], embedder
    )
    assert "zsh_source" in text and "bash_source" not in text


REST_MIXED = """```{eval-rst}
.. currentmodule:: app

.. note::
    :class: tip

    Run the setup command once per machine, before anything else.

.. code-block:: console

    $ app setup
    .. this line is code too

.. code-block:: console

    $ app run

Then check the result like this::

    $ app status

The status names every running job by its name.
```"""


def test_rest_options_are_masked_and_each_code_block_is_its_own_unit() -> None:
    found = units(REST_MIXED)
    code = [u for u in found if u.kind == "code"]
    assert [u.text for u in code] == [
        "```console\n$ app setup\n.. this line is code too\n```",
        "```console\n$ app run\n```",
        "```\n$ app status\n```",
    ]
    # a directive's block starts at its directive line; a literal block under its paragraph
    assert REST_MIXED[code[0].start :].startswith(".. code-block:: console")
    assert REST_MIXED[: code[2].start].endswith("Then check the result like this::\n")
    prose = [u.text for u in found if u.kind != "code"]
    assert prose == [
        "Run the setup command once per machine, before anything else.",
        "Then check the result like this::",
        "The status names every running job by its name.",
    ]


def test_an_admonition_a_chunk_cut_from_its_indentation_still_reads_its_list_as_items() -> None:
    # the chunk began at the opener, which sat 4 deep in the page; its list sits 8 deep
    text = (
        '??? info "More resources"\n\n'
        "        - The first article explains how the socket can be exposed safely.\n"
        "        - The second article is a thread about sharing the socket file.\n\n"
        "    Keep the socket away from containers that do not need it.\n"
    )
    found = units(text)
    assert [u.kind for u in found] == ["item", "item", "sentence"]
    assert found[0].text.startswith("The first article")
    # code in an admonition's body is indented four deeper than the body
    code = '!!! tip "Try it"\n\n    Run this command once first:\n\n        tool init --force\n'
    assert [u.kind for u in units(code)] == ["sentence", "code"]
    assert next(u for u in units(code) if u.kind == "code").text == "```\ntool init --force\n```"


def test_a_link_alone_is_not_prose() -> None:
    # a "further reading" entry names where to read, not what is true
    assert not is_prose(
        "[A thread on Hacker News about sharing the socket file](https://n.example)"
    )
    assert not is_prose('"[Paranoid about mounting the socket?](https://m.example)"')
    assert is_prose("See [the socket guide](https://g.example) before you mount it.")
    assert is_prose("[The socket guide](https://g.example) explains why mounting it is risky.")
