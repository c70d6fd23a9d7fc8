"""What a crawled page contributes to the index: its content, not the site around it."""

from __future__ import annotations

from connectors.knowledge.parsing.html import parse_html

PAGE = """<!doctype html><html><head><title>Install guide</title></head><body>
<div id="onetrust-banner-sdk" class="otFlat"><p>We use cookies to improve your experience.</p>
<button>Accept all</button></div>
<div class="cookie-consent">Cookies help us. <a href="/privacy">Privacy policy</a></div>
<header class="site-header"><a href="/">ExampleDocs</a> Products Pricing Sign in</header>
<div class="layout with-sidebar">
  <div class="md-sidebar" role="navigation"><ul><li>Getting started</li><li>Reference</li></ul></div>
  <main>
    <article>
      <header><h1 id="install">Install guide</h1></header>
      <p>Run pip install citebot to install it.</p>
      <h2 id="configure">Configure</h2>
      <p>Set the token in the environment.</p>
      <div class="toc"><h2>On this page</h2><ul><li>Install</li><li>Configure</li></ul></div>
      <h2>On this page</h2><ul><li><a href="#install">Install</a></li></ul>
      <div class="feedback-widget"><p>Was this page helpful?</p><button>Yes</button></div>
      <div hidden><p>Hidden promo text.</p></div>
    </article>
  </main>
  <aside class="right-rail"><p>Related: Pricing plans</p></aside>
</div>
<footer>Copyright 2026 Example</footer>
</body></html>"""


def test_boilerplate_is_not_indexed() -> None:
    title, sections = parse_html(PAGE, "fallback")
    text = "\n".join(s.text for s in sections)
    assert title == "Install guide"
    for noise in (
        "cookies",
        "Accept all",
        "Sign in",
        "Getting started",
        "On this page",
        "helpful",
        "Hidden promo",
        "Related: Pricing",
        "Copyright",
    ):
        assert noise not in text, noise
    assert "Run pip install citebot to install it." in text
    assert "Set the token in the environment." in text


def test_sections_and_anchors_survive() -> None:
    _, sections = parse_html(PAGE, "fallback")
    assert [(s.heading, s.anchor) for s in sections] == [
        ("Install guide", "install"),
        ("Configure", "configure"),
    ]


def test_a_wrapper_named_like_boilerplate_keeps_the_content_it_holds() -> None:
    markup = (
        '<html><body><div class="page with-sidebar"><h1>Title</h1>'
        "<p>The real content.</p></div></body></html>"
    )
    _, sections = parse_html(markup, "fallback")
    assert "The real content." in sections[0].text
