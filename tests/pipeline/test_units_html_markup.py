"""Markup a reader of the rendered page never sees: reference definitions, block quote
markers, raw HTML, comments, template tags, footnotes, alerts and indented code are read the
way the page renders them, and each unit still maps back to the span it quotes."""

from __future__ import annotations

from citations import CitedAnswer, Reference, Segment, Source, verify_quotes
from connectors.knowledge.parsing import parse_markdown
from pipeline.markup import read
from pipeline.text import plain
from pipeline.units import Unit, units


def said(text: str) -> list[str]:
    return [u.text for u in units(text) if u.kind != "code" and u.quotable]


def code(text: str) -> list[str]:
    return [u.text for u in units(text) if u.kind == "code"]


def verifies(unit: Unit, page: str) -> bool:
    """Whether the unit, cited as a sentence, verifies against its page."""
    url = "https://docs.example.org/page"
    source = Source(id=1, url=url, title="page", text=page)
    answer = CitedAnswer(
        segments=(Segment(" ".join(unit.text.split()), (1,)),),
        references=(Reference(1, url, "page", (source,)),),
    )
    checks = verify_quotes(answer, sentences=True).quotes
    return bool(checks) and all(check.verified for check in checks)


def test_link_definitions_are_not_text_and_their_links_read_as_their_text() -> None:
    page = (
        "Releases go to the [package index] unless the [`--index` option][opt] names\n"
        "another one, and [mirrors][] follow within the hour.\n\n"
        "[package index]: https://packages.example.org/\n"
        "[opt]: ../cli/upload.md#index 'The option'\n"
        "[mirrors]: <https://mirrors.example.org/list>\n"
    )
    assert said(page) == [
        "Releases go to the package index unless the `--index` option names\n"
        "another one, and mirrors follow within the hour."
    ]
    # a bracketed word the page does not define is not a link: it stays as written
    assert said("Set the [tool] table in the manifest before you build the project.") == [
        "Set the [tool] table in the manifest before you build the project."
    ]


def test_a_block_quote_is_a_note_without_its_markers() -> None:
    page = (
        "Keys are read from the agent.\n\n"
        "> **Note**: The agent must hold the key before the first fetch runs,\n"
        "> or the clone stops with a permission error.\n"
        ">\n"
        "> > A nested quote is read the same way as its parent.\n\n"
        ">>> print('an interpreter prompt is not a quote')\n"
    )
    found = [u for u in units(page) if u.kind != "code"]
    assert [u.text for u in found][:3] == [
        "Keys are read from the agent.",
        "**Note**: The agent must hold the key before the first fetch runs,\n"
        "or the clone stops with a permission error.",
        "A nested quote is read the same way as its parent.",
    ]
    note = found[1]
    assert page[note.start : note.end].startswith("**Note**") and page[note.end - 1] == "."
    assert verifies(note, page)


def test_an_html_definition_list_is_a_term_and_its_definition() -> None:
    page = (
        "<dl>\n"
        '<dt class="option" id="opt-dry-run"><a class="anchor" href="#opt-dry-run"></a>'
        "<code>--dry-run</code></dt>\n"
        '<dd class="option-desc"><p>Perform all checks without uploading anything to the '
        "server.</p>\n"
        '<p>See the <a href="upload.html">upload command</a> &amp; its flags.</p></dd>\n'
        "</dl>\n"
    )
    found = [u for u in units(page) if u.quotable]
    assert [u.text for u in found] == [
        "`--dry-run`: Perform all checks without uploading anything to the server.",
        "See the upload command & its flags.",
    ]
    # the unit is the span of the source it reads: from the term's code to the full stop
    assert page[found[0].start : found[0].end].startswith("<code>--dry-run</code></dt>")
    assert page[found[0].end - 5 : found[0].end] == "rver."


def test_html_paragraphs_anchors_and_inline_tags_are_not_text() -> None:
    page = (
        '<span id="out-dir"></span>The output folder moves with the <code style="a">'
        "OUT</code> variable.\n"
        "<p>Press <kbd>Ctrl</kbd>+<kbd>C</kbd> to stop the server at any time.<br>\n"
        'The <img src="logo.png" alt="logo"> header <em>always</em> shows the version.</p>\n'
    )
    assert [" ".join(s.split()) for s in said(page)] == [
        "The output folder moves with the `OUT` variable.",
        "Press `Ctrl`+`C` to stop the server at any time.",
        "The header always shows the version.",
    ]
    # a tag inside a code span is the text the span shows
    assert said("Wrap the answer in a `<details>` element to fold it away.") == [
        "Wrap the answer in a `<details>` element to fold it away."
    ]


def test_an_html_table_row_reads_as_its_key_and_cells() -> None:
    page = (
        "<table>\n<tr><th>Setting</th><th>Meaning</th></tr>\n"
        "<tr><td><code>timeout</code></td><td>How long the client waits for a reply."
        "</td></tr>\n</table>\n"
    )
    assert said(page) == ["`timeout`: How long the client waits for a reply."]


def test_a_pipe_table_cell_reads_its_html() -> None:
    page = (
        "| Folder | Holds |\n| --- | --- |\n"
        '| <code style="white-space: nowrap">out/debug/</code> | The output of the debug '
        "profile. |\n"
    )
    assert said(page) == ["`out/debug/`: The output of the debug profile."]


def test_a_pre_block_is_code() -> None:
    page = (
        '<pre><code class="language-console">$ tool build --release &amp;&amp; ls\n'
        "</code></pre>\n"
        "The release build is written to a folder of its own.\n"
    )
    assert code(page) == ["```console\n$ tool build --release && ls\n```"]
    assert said(page) == ["The release build is written to a folder of its own."]


def test_comments_template_tags_and_summaries_are_not_text() -> None:
    page = (
        "<!-- TODO: rewrite this section before the next release -->\n"
        "{% include note.html %}\n"
        "{{< warning >}}\n"
        "The server reads its configuration once, at startup.\n"
        "{{< /warning >}}\n\n"
        "{{#include ../shared/intro.md}}\n"
        "<details>\n<summary>Why does the install fail on old systems?</summary>\n\n"
        "The installer needs a recent C library to link the binary.{# a note #}\n\n"
        "</details>\n"
        "<!--\nA comment of several lines that nobody reads on the page.\n-->\n"
        "{: .note .info}\nThemes can ship their own layouts.\n"
    )
    assert said(page) == [
        "The server reads its configuration once, at startup.",
        "The installer needs a recent C library to link the binary.",
        "Themes can ship their own layouts.",
    ]


def test_escaped_punctuation_reads_as_the_character_the_page_shows() -> None:
    page = (
        "The server creates a NATS subscription \\(with conversion from the MQTT topic\\) "
        "so that the message is delivered.\n\n"
        "Set `tls \\(verify\\)` first; a literal \\*star\\*, a no\\_responder reply and "
        "\\[brackets\\] stay as written.\n"
    )
    found = [u for u in units(page) if u.kind != "code"]
    assert [u.text for u in found] == [
        "The server creates a NATS subscription (with conversion from the MQTT topic) "
        "so that the message is delivered.",
        "Set `tls \\(verify\\)` first; a literal \\*star\\*, a no\\_responder reply and "
        "\\[brackets\\] stay as written.",
    ]
    assert all(verifies(unit, page) for unit in found)


def test_scripts_media_and_custom_elements_are_not_text() -> None:
    # a VitePress page: its Vue setup block, an audio player, a button drawn as an icon, a
    # Vue component; a tag shown as code stays code, and starts nothing hidden
    page = (
        "<script setup>\nimport Player from './Player.vue'\n</script>\n\n"
        '<audio id="intro">\n  <source src="/intro.mp3" type="audio/mpeg">\n</audio>\n\n'
        'Vite (pronounced "veet"<button onclick="play()"><svg><use href="#voice"/></svg>'
        "</button>) is a build tool.\n\n"
        '<svg-image :svg="diagram" /> Bundling is done by Rolldown.\n\n'
        'Add `<script type="module">` to the page before the `</script>` of the app.\n\n'
        "Set `base` first<!-- the docs' own note --> and build again.\n"
    )
    assert said(page) == [
        'Vite (pronounced "veet") is a build tool.',
        "Bundling is done by Rolldown.",
        'Add `<script type="module">` to the page before the `</script>` of the app.',
        "Set `base` first and build again.",
    ]
    # read as a whole, too: a tag in a code span is no start of a hidden element
    assert read("Put `<script>` in<!-- a note --> the `</script>` page.") == (
        "Put `<script>` in the `</script>` page."
    )


def test_footnotes_are_read_without_their_labels() -> None:
    page = (
        "Downloads are cached for a day by default.[^1]\n\n"
        "[^1]: The cache lives in the user's home folder unless moved.\n"
    )
    assert said(page) == [
        "Downloads are cached for a day by default.",
        "The cache lives in the user's home folder unless moved.",
    ]


def test_alerts_and_admonition_fences_are_prose_without_their_labels() -> None:
    page = (
        "> [!WARNING]\n> Deleting a project removes every deployment it has.\n\n"
        ":::tip Faster uploads\n\nUse the dry-run flag to preview the upload first.\n\n:::\n\n"
        "::: details\nThe cache is rebuilt after every upgrade of the tool.\n:::\n"
    )
    assert said(page) == [
        "Deleting a project removes every deployment it has.",
        "Use the dry-run flag to preview the upload first.",
        "The cache is rebuilt after every upgrade of the tool.",
    ]


def test_task_boxes_are_not_text() -> None:
    page = "- [ ] Write the migration for the user table\n- [x] Review the security report\n"
    assert said(page) == [
        "Write the migration for the user table",
        "Review the security report",
    ]


def test_an_indented_block_after_a_paragraph_is_code() -> None:
    page = (
        "Install the tool for your user only:\n\n"
        "    pip install --user example-tool\n"
        "\n"
        "        example-tool --version\n\n"
        "The tool prints its version and exits.\n"
    )
    assert code(page) == ["```\npip install --user example-tool\n\n    example-tool --version\n```"]
    assert said(page) == [
        "Install the tool for your user only:",
        "The tool prints its version and exits.",
    ]
    steps = "1. Add the package to the project:\n\n       tool add regex\n"
    assert code(steps) == ["```\ntool add regex\n```"]


def test_indented_bodies_of_bullets_admonitions_and_terms_are_not_code() -> None:
    page = (
        "1. Open the settings page of the project.\n\n"
        "    Pick the region closest to your users.\n\n"
        '!!! note "Regions"\n\n'
        "    Each region keeps its own copy of the database.\n\n"
        "Cold Start\n"
        "    The first request after an idle period of the service.\n\n"
        "    It takes longer because the worker has to boot first.\n"
    )
    assert code(page) == []
    assert "Pick the region closest to your users." in said(page)
    assert "Each region keeps its own copy of the database." in said(page)
    assert "It takes longer because the worker has to boot first." in said(page)
    # four columns deeper than an admonition's paragraph is code again
    nested = "!!! tip\n\n    Run this once:\n\n        tool init --force\n"
    assert code(nested) == ["```\ntool init --force\n```"]


def test_a_cell_or_definition_reads_its_html_and_reference_links() -> None:
    assert read("A <b>bold</b> claim &mdash; with [a link][x].") == "A bold claim — with a link."


def test_strikethrough_marks_are_not_scored() -> None:
    assert plain("The cache is ~~never~~ **always** cleared by *clean*.") == (
        "The cache is never always cleared by clean."
    )


def test_a_hash_line_inside_an_html_comment_is_no_heading() -> None:
    page = (
        "# Sponsors\n\n<!-- generated:\n# run from the release job\nfor name in names: print(name)\n"
        "-->\nThanks to everyone who supports the project.\n\n## Usage <!-- short -->\n\nText.\n"
    )
    _, sections = parse_markdown(page, "index")
    assert [s.heading for s in sections] == ["Sponsors", "Usage"]
    assert said(sections[0].text) == ["Thanks to everyone who supports the project."]


def test_a_shortcut_link_of_words_or_code_reads_as_its_text_without_its_definition() -> None:
    assert said("Install it with [`tool install`] as the [setup guide] explains it.") == [
        "Install it with `tool install` as the setup guide explains it."
    ]


def test_code_keeps_its_markup_when_a_page_is_read() -> None:
    page = (
        'Wrap the form in a <b>card</b>:\n\n```html\n<div class="card">&amp;</div>\n```\n'
        "Then `<br>` or [box] below.\n"
    )
    assert read(page) == (
        'Wrap the form in a card:\n\n```html\n<div class="card">&amp;</div>\n```\n'
        "Then `<br>` or [box] below.\n"
    )


def test_a_row_of_three_cells_reads_its_values_in_order() -> None:
    page = (
        "<table><tr><td><code>retries</code></td><td>How often a failed call is tried again."
        "</td><td>3</td></tr></table>"
    )
    [unit] = [u for u in units(page) if u.quotable]
    assert unit.text == "`retries`: How often a failed call is tried again.; 3"
    assert page[unit.start :].startswith("<code>retries") and page[unit.end - 1] == "3"
    quit_key = "Press <kbd>Q</kbd> to quit the viewer at any time."
    [unit] = units(quit_key)
    assert (unit.start, unit.end) == (0, len(quit_key))


def test_a_link_whose_text_holds_brackets_in_code_stays_whole() -> None:
    page = "The [`#[bench]` attribute](../unstable.md) is only on the nightly channel for now."
    assert said(page) == [page]
    assert said("Use [`#[test]` functions][tests] for the checks you write first.") == [
        "Use `#[test]` functions for the checks you write first."
    ]
    # a template tag never runs on to the next line's text
    assert said("Render {% if user %} the name {{< icon >}}\n{% endif %} on every page.") == [
        "Render  the name \n on every page."
    ]


def test_lines_of_html_tags_alone_are_a_tables_markup_not_indented_code() -> None:
    # a page that writes its table in HTML with blank lines inside the cells (kramdown reads
    # the whole table as HTML): the indented closing tags after a blank line are no code
    page = (
        "The extension name for the file, e.g.\n        <code>.jpg</code>\n\n"
        "      </p></td>\n    </tr>\n  </tbody>\n</table>\n\n"
        "Note that `file` can be anything.\n\n"
        "    indented = 'still code'\n"
    )
    assert code(page) == ["```\nindented = 'still code'\n```"]
    assert "Note that `file` can be anything." in said(page)
