"""Built HTML pages are read as the Markdown they stand for, so code, lists, tables,
definitions and admonitions reach the pipeline as they do from Markdown sources.

The pages are written here in the shapes site generators produce (Sphinx with furo or
the Read-the-Docs theme, mkdocs-material, Docusaurus), not copied from any site.
"""

from __future__ import annotations

from connectors.knowledge.documents import Section
from connectors.knowledge.parsing.html import parse_html
from pipeline.units import units


def _page(body: str, title: str = "Guide") -> str:
    return f"<html><head><title>{title}</title></head><body><main>{body}</main></body></html>"


def _sections(body: str) -> tuple[Section, ...]:
    _, sections = parse_html(_page(body), "fallback")
    joined = "\n\n".join(s.text for s in sections)
    assert all(joined[s.start : s.end] == s.text for s in sections)
    return sections


def _text(body: str) -> str:
    return "\n\n".join(s.text for s in _sections(body))


def test_preformatted_code_is_a_fenced_block_with_its_language() -> None:
    text = _text(
        '<h1 id="t">Title</h1><p>Install it:</p>'
        '<div class="highlight-console notranslate"><div class="highlight"><pre>'
        '<span class="gp">$ </span>pip install   acme\n</pre></div></div>'
        '<p>Then:</p><div class="language-toml highlight"><pre><code>[tool.acme]\n'
        "  level = 2\n</code></pre></div><pre>plain\n  indented</pre>"
    )
    assert "Install it:\n\n```console\n$ pip install   acme\n```" in text
    assert "```toml\n[tool.acme]\n  level = 2\n```" in text
    assert "```\nplain\n  indented\n```" in text


def test_line_numbers_are_not_part_of_the_code() -> None:
    text = _text(
        "<h2>Listing</h2><p>Source:</p>"
        '<table class="highlighttable"><tr><td class="linenos"><div class="linenodiv">'
        '<pre>1\n2</pre></div></td><td class="code"><div class="highlight"><pre>'
        "<code>a = 1\nb = 2</code></pre></div></td></tr></table>"
        '<div class="highlight"><pre><span class="linenos">7</span>x = 3</pre></div>'
    )
    assert "```\na = 1\nb = 2\n```" in text
    assert "```\nx = 3\n```" in text
    assert "1\n2" not in text and "7" not in text


def test_code_that_holds_a_fence_gets_a_longer_one() -> None:
    text = _text("<h2>Fences</h2><pre>```\nquoted\n```</pre>")
    assert "````\n```\nquoted\n```\n````" in text


def test_lists_are_items_nested_under_their_parent() -> None:
    text = _text(
        '<h2>Steps</h2><ol start="3"><li><p>Open the <b>file</b>.</p>'
        "<ul><li>first   choice</li><li>second</li></ul></li><li>Save it.</li></ol>"
    )
    assert "3. Open the file.\n   - first choice\n   - second\n4. Save it." in text


def test_tables_are_pipe_rows_under_their_headings() -> None:
    text = _text(
        "<h2>Options</h2><table><thead><tr><th>Name</th><th>Meaning</th></tr></thead>"
        "<tbody><tr><td><code>level</code></td><td>a | b</td></tr>"
        "<tr><td>depth</td></tr></tbody></table>"
        "<table><tr><td>key</td><td>value</td></tr><tr><td>k2</td><td>v2</td></tr></table>"
    )
    assert "| Name | Meaning |\n| --- | --- |\n| `level` | a \\| b |\n| depth |  |" in text
    assert "| key | value |\n| --- | --- |\n| k2 | v2 |" in text


def test_definition_lists_read_as_terms_and_definitions() -> None:
    text = _text(
        '<h2>Glossary</h2><dl class="glossary"><dt id="term-a">Event</dt>'
        "<dd><p>What is logged.</p><p>It has a name.</p></dd>"
        "<dt>Alias</dt><dt>Other</dt><dd>Two terms, one meaning.</dd></dl>"
    )
    assert "Event\n: What is logged.\n  It has a name." in text
    assert "Alias, Other\n: Two terms, one meaning." in text


def test_an_api_entry_signature_is_code_and_its_description_prose() -> None:
    text = _text(
        '<h2>API</h2><dl class="py function"><dt class="sig sig-object py" id="acme.run">'
        '<span class="sig-name descname"><span class="pre">run</span></span>'
        '<span class="sig-paren">(</span><em class="sig-param">n</em>'
        '<span class="sig-paren">)</span><a class="headerlink" href="#acme.run">¶</a></dt>'
        "<dd><p>Runs it <code>n</code> times.</p></dd></dl>"
        '<dl><dt><code class="docutils literal">timeout</code></dt><dd>Seconds.</dd></dl>'
    )
    assert "```\nrun(n)\n```\n\nRuns it `n` times." in text
    # a name alone (a setting, an option) is the term its description needs
    assert "`timeout`\n: Seconds." in text


def test_a_setting_or_option_name_stays_with_its_description() -> None:
    text = _text(
        '<h2>Options</h2><dl class="std option"><dt class="sig sig-object std" id="opt-v">'
        '<span class="sig-name descname"><span class="pre">--verbose</span></span>'
        '<span class="sig-prename descclassname"></span>, '
        '<span class="sig-name descname"><span class="pre">-v</span></span>'
        '<a class="headerlink" href="#opt-v">¶</a></dt><dd><p>Say more.</p></dd></dl>'
        '<dl class="conf option"><dt class="sig sig-object conf" id="conf-keep">'
        '<span class="sig-name descname"><span class="pre">keepCopies</span></span></dt>'
        "<dd><p>How many copies to keep. Set to <code>0</code> to keep none.</p></dd></dl>"
        '<dl class="py class"><dt class="sig sig-object py" id="acme.App">'
        '<em class="property"><span class="pre">class</span> </em>'
        '<span class="sig-name descname"><span class="pre">App</span></span></dt>'
        "<dd><p>The application.</p></dd></dl>"
    )
    assert "`--verbose`, `-v`\n: Say more." in text
    assert "`keepCopies`\n: How many copies to keep. Set to `0` to keep none." in text
    found = [(u.kind, u.text) for u in units(text)]
    assert ("item", "`keepCopies`: How many copies to keep. Set to `0` to keep none.") in found
    # a signature with a prefix or parameters stays code
    assert "```\nclass App\n```\n\nThe application." in text


def test_admonitions_are_fenced_with_their_title_as_a_lead_in() -> None:
    sphinx = _text(
        '<h2>Notes</h2><div class="admonition warning"><p class="admonition-title">Warning</p>'
        "<p>Do not run this as root.</p></div><p>After.</p>"
    )
    assert ":::{admonition} Warning\n\nDo not run this as root.\n\n:::\n\nAfter." in sphinx
    material = _text(
        '<h2>Notes</h2><details class="tip"><summary>Faster builds</summary>'
        "<p>Cache the wheels.</p></details>"
    )
    assert ":::{admonition} Faster builds\n\nCache the wheels.\n\n:::" in material
    docusaurus = _text(
        '<h2>Notes</h2><div class="theme-admonition theme-admonition-info alert">'
        '<div class="admonitionHeading_x1"><span>info</span></div>'
        '<div class="admonitionContent_y2"><p>Keys rotate daily.</p></div></div>'
    )
    assert ":::{admonition} info\n\nKeys rotate daily.\n\n:::" in docusaurus


def test_inline_code_keeps_backticks_and_links_keep_only_their_text() -> None:
    text = _text(
        '<h2>Calls</h2><p>Call <a href="https://example.com/api#x"><code class="xref">'
        '<span class="pre">bind()</span></code></a> or <code>a`b</code>, see '
        '<a href="/guide.html">the guide</a>.<br>Next line.</p>'
    )
    assert "Call `bind()` or ``a`b``, see the guide.\nNext line." in text
    assert "example.com" not in text and "guide.html" not in text


def test_headings_keep_their_level_and_lose_their_permalink() -> None:
    sections = _sections(
        '<h1 id="top">Top<a class="headerlink" href="#top" title="Permanent link">¶</a></h1>'
        '<p>Intro.</p><h3 id="deep">Deep <code>x</code><a class="hash-link" href="#deep">#</a>'
        "</h3><p>Body.</p>"
    )
    assert [(s.heading, s.anchor) for s in sections] == [("Top", "top"), ("Deep x", "deep")]
    assert sections[0].text == "# Top\n\nIntro."
    assert sections[1].text == "### Deep x\n\nBody."


def test_a_sphinx_section_gives_its_heading_its_id() -> None:
    sections = _sections(
        '<section id="getting-started"><h1>Getting started</h1><p>Hi.</p>'
        '<section id="install"><span id="installation"></span><h2>Installation'
        '<a class="headerlink" href="#install">¶</a></h2><p>Use pip.</p></section>'
        '<section id="usage"><h2>Usage</h2><p>Call it.</p></section></section>'
    )
    assert [s.anchor for s in sections] == ["getting-started", "install", "usage"]


def test_what_follows_a_box_of_headed_content_is_the_outer_section_again() -> None:
    sections = _sections(
        "<h1>Apps</h1><details><summary>API Reference</summary>"
        '<div class="doc"><h3 id="acme.App">App</h3><p>The app class.</p></div></details>'
        "<p>Create an app like this.</p><h2>State</h2><p>Store state.</p>"
    )
    assert [(s.heading, s.text.splitlines()[0]) for s in sections] == [
        ("App", "### App"),
        ("Apps", "Create an app like this."),
        ("State", "## State"),
    ]
    assert "API Reference" not in "".join(s.text for s in sections)


def test_a_title_in_its_own_header_keeps_its_section_open() -> None:
    sections = _sections("<header><h1>Title</h1></header><p>Body.</p>")
    assert [(s.heading, s.text) for s in sections] == [("Title", "# Title\n\nBody.")]


def test_content_tabs_are_tab_items_with_their_labels() -> None:
    text = _text(
        '<h2>Install</h2><div class="tabbed-set tabbed-alternate" data-tabs="1:2">'
        '<input type="radio" id="t1"><input type="radio" id="t2">'
        '<div class="tabbed-labels"><label for="t1">pip</label><label for="t2">uv</label></div>'
        '<div class="tabbed-content"><div class="tabbed-block"><pre>pip install a</pre></div>'
        '<div class="tabbed-block"><pre>uv add a</pre></div></div></div>'
    )
    assert (
        ":::{tab-item} pip\n\n```\npip install a\n```\n\n:::\n\n"
        ":::{tab-item} uv\n\n```\nuv add a\n```\n\n:::"
    ) in text
    # labels and panels that do not pair up are read as they stand
    loose = _text(
        '<h2>Loose</h2><div class="tabs"><label>one</label><div class="tab-panel">'
        "<p>Body.</p></div><label>two</label></div>"
    )
    assert "tab-item" not in loose and "Body." in loose


def test_the_pipeline_reads_the_structure_as_it_reads_markdown() -> None:
    (section,) = _sections(
        "<h2>Configure</h2><p>Set the level:</p><pre>acme.configure(level=2)</pre>"
        "<ul><li>Levels go from 0 to 5.</li><li>The default is 3.</li></ul>"
        '<div class="admonition note"><p class="admonition-title">Note</p>'
        "<p>Levels are shared by every logger in the process.</p></div>"
    )
    found = {(u.kind, u.text) for u in units(section.text)}
    assert ("code", "```\nacme.configure(level=2)\n```") in found
    assert ("item", "Levels go from 0 to 5.") in found
    assert ("sentence", "Levels are shared by every logger in the process.") in found
    assert not any("Note" in text or "Configure" in text for _, text in found)


def test_a_heading_whose_slug_sounds_like_site_chrome_is_kept() -> None:
    sections = _sections(
        '<h2 id="set-cookie">Set cookie</h2><p>Sets a cookie on the response.</p>'
        '<section id="sidebar"><h2>Sidebar</h2><p>A sidebar shows related pages.</p></section>'
        '<div id="cookie-banner"><p>We use cookies.</p></div>'
    )
    assert [s.anchor for s in sections] == ["set-cookie", "sidebar"]
    assert "We use cookies" not in "".join(s.text for s in sections)


def test_the_page_title_is_its_title_heading_not_the_site_suffixed_title() -> None:
    markup = "<html><head><title>Install - Acme Docs</title></head><body><main>"
    title, _ = parse_html(markup + "<h1>Install</h1><p>Run it.</p></main></body></html>", "f")
    assert title == "Install"
    untitled, _ = parse_html(markup + "<h2>Steps</h2><p>Run it.</p></main></body></html>", "f")
    assert untitled == "Install - Acme Docs"


def test_inline_and_preformatted_details() -> None:
    text = _text(
        "<h2>Details</h2><p>Use <code>a   b</code>, <code>`x</code> and <code> </code> here.</p>"
        '<pre><code class="language-rust">\n\nfn main()\u00a0{}<br>// end\r\n</code></pre>'
        "<ol><li></li><li>first</li></ol>"
    )
    assert "Use `a b`, `` `x `` and here." in text
    assert "```rust\nfn main() {}\n// end\n```" in text
    assert "1. first" in text and "2." not in text


def test_definition_lists_mixing_signatures_terms_and_loose_definitions() -> None:
    text = _text(
        '<h2>Mixed</h2><dl><dt class="sig">run()</dt><dd><p>Runs.</p></dd>'
        "<dt>Term</dt><dd>Meaning.</dd><dt>Next</dt><dd>Other.</dd><dd>Loose note.</dd></dl>"
    )
    assert text.endswith(
        "```\nrun()\n```\n\nRuns.\n\nTerm\n: Meaning.\n\nNext\n: Other.\n: Loose note."
    )


def test_table_cells_rows_and_captions() -> None:
    text = _text(
        "<h2>Table</h2><table><caption>Limits</caption><tr><td>a</td><td>b</td></tr>"
        "<tr><th>c</th><td><p>d</p><p>e</p></td></tr></table><table></table><p>End.</p>"
    )
    assert text.endswith("Limits\n\n| a | b |\n| --- | --- |\n| c | d e |\n\nEnd.")


def test_a_box_with_only_a_title_is_its_title() -> None:
    text = _text(
        '<h2>Box</h2><div class="admonition note"><p class="admonition-title">See the FAQ</p>'
        "</div><details><p>No summary here.</p></details>"
    )
    assert text.endswith("See the FAQ\n\nNo summary here.")


def test_aria_tabs_with_hidden_panels_and_nested_sets() -> None:
    text = _text(
        '<h2>Tabs</h2><div class="tabs-container"><ul role="tablist">'
        '<li role="tab">npm</li><li role="tab">yarn</li></ul><div>'
        '<div role="tabpanel"><div class="tabs"><label>a</label><label>b</label>'
        '<div class="tab-panel">A</div><div class="tab-panel">B</div></div></div>'
        '<div role="tabpanel" hidden><pre>yarn add x</pre></div></div></div>'
    )
    assert text.startswith(
        "## Tabs\n\n:::{tab-item} npm\n\n:::{tab-item} a\n\nA\n\n:::\n\n"
        ":::{tab-item} b\n\nB\n\n:::\n\n:::\n\n:::{tab-item} yarn\n\n```\nyarn add x\n```\n\n:::"
    )


def test_a_theme_page_footer_is_not_a_section_of_the_page() -> None:
    # Sphinx's alabaster puts "Edit this page" and the version in a div it calls a footer
    # (a role that ARIA does not have) after the page body, and a footer div after that
    page = _page(
        "<div class='body' role='main'><section id='sync'><h1>Sync</h1>"
        "<p>Files sync both ways.</p></section></div>"
        "<div class='body footer-body' role='footer'><a href='https://x.test/edit'>"
        "Edit this page on GitHub</a> Version: v2.1.0</div>"
        "<div class='footer'>© 2024 The authors. Powered by Sphinx.</div>"
    )
    _, sections = parse_html(page, "fallback")
    text = "\n".join(section.text for section in sections)
    assert "Files sync both ways." in text
    assert "Edit this page" not in text and "Version" not in text and "Powered" not in text


def test_the_site_header_goes_and_an_articles_own_header_stays() -> None:
    page = (
        "<html><body><header><p>Acme Docs Home Blog Pricing</p></header>"
        "<article><header><h1>Sync</h1><p>Updated in May.</p></header>"
        "<p>Files sync both ways.</p></article></body></html>"
    )
    _, sections = parse_html(page, "fallback")
    text = "\n".join(section.text for section in sections)
    assert "Pricing" not in text
    assert "Updated in May." in text and "Files sync both ways." in text


def test_a_layout_wrapper_named_after_its_sidebar_still_holds_the_page() -> None:
    # themes wrap the page and its sidebar in one element named for the sidebar
    page = (
        "<html><body><div class='with-sidebar wide'><div class='sidebar'><p>Index of pages"
        "</p></div><div class='content'><h1>Sync</h1><p>Files sync both ways.</p></div>"
        "</div></body></html>"
    )
    _, sections = parse_html(page, "fallback")
    text = "\n".join(section.text for section in sections)
    assert "Files sync both ways." in text and "Index of pages" not in text


def test_without_main_the_site_header_and_hidden_widgets_are_not_the_page() -> None:
    page = (
        "<html><body><header><p>Acme Docs Home Blog Pricing</p></header>"
        "<div><h1>Sync</h1><p>Files sync both ways.</p>"
        "<div hidden><p>Search results appear here.</p></div>"
        "<span aria-hidden='TRUE'>Copy to clipboard</span>"
        "<div role='tabpanel' hidden><p>On Windows, run the installer.</p></div></div>"
        "</body></html>"
    )
    _, sections = parse_html(page, "fallback")
    text = "\n".join(section.text for section in sections)
    assert "Files sync both ways." in text and "run the installer" in text
    assert "Pricing" not in text and "Search results" not in text and "clipboard" not in text


def test_definition_entries_names_and_signatures_each_in_their_own_block() -> None:
    text = _text(
        "<h2>Entries</h2><dl><dt>Term</dt><dd>Meaning.</dd>"
        '<dt class="sig">keep</dt><dd>Keep it.</dd>'
        '<dt>Plain</dt><dd>Text.</dd><dt class="sig">run()</dt><dd>Runs.</dd>'
        '<dt>Orphan</dt><dt class="sig">stop()</dt><dd>Stops.</dd>'
        "<dt>two<br>lines</dt><dd>Joined.</dd>"
        "<dt>order</dt><dd><p>Pick:</p><dl><dt>random</dt><dd>Any.</dd></dl></dd></dl>"
    )
    assert text == (
        "## Entries\n\nTerm\n: Meaning.\n\n`keep`\n: Keep it.\n\nPlain\n: Text.\n\n"
        "```\nrun()\n```\n\nRuns.\n\n```\nstop()\n```\n\nStops.\n\ntwo lines\n: Joined.\n\n"
        "order\n: Pick:\n  random\n  : Any."
    )
