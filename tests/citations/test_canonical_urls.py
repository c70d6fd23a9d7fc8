"""URL identity: one canonical form for footnotes and for the crawler."""

from __future__ import annotations

from citations import Source, canonical_url, resolve


def test_percent_encoding_is_one_form() -> None:
    assert canonical_url("https://example.com/café") == "https://example.com/caf%C3%A9"
    assert canonical_url("https://example.com/caf%c3%a9") == "https://example.com/caf%C3%A9"
    assert canonical_url("https://example.com/%7Euser/%41") == "https://example.com/~user/A"
    assert canonical_url("https://example.com/a b") == "https://example.com/a%20b"


def test_an_encoded_slash_stays_encoded() -> None:
    assert canonical_url("https://example.com/a%2fb") == "https://example.com/a%2Fb"


def test_dot_segments_are_resolved() -> None:
    assert canonical_url("https://example.com/a/../b") == "https://example.com/b"
    assert canonical_url("https://example.com/a/./b/.") == "https://example.com/a/b"
    assert canonical_url("https://example.com/../../x") == "https://example.com/x"
    assert canonical_url("https://example.com/a/%2E%2E/b") == "https://example.com/b"
    assert canonical_url("https://example.com/.well-known/x") == "https://example.com/.well-known/x"


def test_trailing_slash_is_kept_only_when_asked() -> None:
    assert canonical_url("https://example.com/docs/") == "https://example.com/docs"
    assert (
        canonical_url("https://example.com/docs/", keep_slash=True) == "https://example.com/docs/"
    )
    assert canonical_url("https://example.com/a/../docs/", keep_slash=True) == (
        "https://example.com/docs/"
    )


def test_international_host_is_ascii() -> None:
    assert canonical_url("https://Bücher.Example/x") == "https://xn--bcher-kva.example/x"


def test_fragment_encoding_is_normalised_and_text_directives_dropped() -> None:
    assert canonical_url("https://e.com/p#caf%c3%a9:~:text=x") == "https://e.com/p#caf%C3%A9"
    assert canonical_url("https://e.com/p#a", merge_fragments=True) == "https://e.com/p"


def test_two_spellings_of_one_page_are_one_footnote() -> None:
    sources = [
        Source(1, "https://docs.example.com/café", "Café", "t"),
        Source(2, "https://docs.example.com/x/../caf%C3%A9", "Café again", "t"),
    ]
    answer = resolve("A[1]. B[2].", sources)
    assert [r.number for r in answer.references] == [1]
    assert answer.text == "A[1]. B[1]."
