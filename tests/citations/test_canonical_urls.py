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


def test_a_footnote_links_the_path_its_source_was_read_from_slash_and_all() -> None:
    # a directory-style site (and a crawled /docs/) may answer only the URL it was read at
    sources = [
        Source(1, "https://docs.example.com/guide/install/#linux-setup", "Install", "t"),
        Source(2, "https://docs.example.com/guide/install#linux-setup", "Install again", "t"),
        Source(3, "https://docs.example.com/docs/", "Docs", "t"),
    ]
    answer = resolve("A[1]. B[2]. C[3].", sources)
    assert [r.url for r in answer.references] == [
        "https://docs.example.com/guide/install/#linux-setup",
        "https://docs.example.com/docs/",
    ]
    assert answer.text == "A[1]. B[1]. C[2]."


def test_each_scheme_drops_only_its_own_default_port() -> None:
    # default ports: RFC 7230 (http 80, https 443), RFC 6455 (ws 80, wss 443), RFC 959 (ftp 21)
    for scheme, port in [("http", 80), ("https", 443), ("ws", 80), ("wss", 443), ("ftp", 21)]:
        assert canonical_url(f"{scheme}://a.com:{port}/x") == f"{scheme}://a.com/x"
        assert canonical_url(f"{scheme}://a.com:{port + 1}/x") == f"{scheme}://a.com:{port + 1}/x"
    assert canonical_url("http://a.com:443/x") == "http://a.com:443/x"


def test_every_tracking_parameter_goes_and_the_rest_stay_sorted() -> None:
    url = "https://a.com/x?b=2&a=1&utm_Source=x&FBCLID=1&gclid=1&dclid=1&msclkid=1&mc_eid=1&e="
    assert canonical_url(url) == "https://a.com/x?a=1&b=2&e="
    assert canonical_url("https://a.com/x?utm=1&autm_x=2") == "https://a.com/x?autm_x=2&utm=1"


def test_host_user_and_ipv6_survive_normalisation() -> None:
    assert canonical_url("https://user:pw@A.com/x") == "https://user:pw@a.com/x"
    assert canonical_url("http://[::1]:8080/x") == "http://[::1]:8080/x"
    assert canonical_url("HTTPS://A.com") == "https://a.com/"
    assert canonical_url("https://a.com") == "https://a.com/"


def test_escapes_in_path_and_fragment_are_one_form() -> None:
    assert canonical_url("https://a.com/%e2%82%ac#%7e") == "https://a.com/%E2%82%AC#~"
    assert canonical_url("https://a.com/%41%2f") == "https://a.com/A%2F"


def test_dot_segments_at_the_end_and_repeated_slashes() -> None:
    assert canonical_url("https://a.com/a/b/..") == "https://a.com/a"
    assert canonical_url("https://a.com/a/b/..", keep_slash=True) == "https://a.com/a/"
    assert canonical_url("https://a.com/a/.", keep_slash=True) == "https://a.com/a/"
    assert canonical_url("https://a.com/x//") == "https://a.com/x"
    assert canonical_url("https://a.com/", keep_slash=True) == "https://a.com/"
    assert canonical_url("https://a.com/x", keep_slash=True) == "https://a.com/x"


def test_relative_references_keep_their_path_and_lose_text_directives() -> None:
    assert canonical_url("/p/./q") == "/p/./q"
    assert canonical_url("a.html#x:~:text=y") == "a.html#x"
    assert canonical_url("a.html#:~:text=y") == "a.html"
    assert canonical_url("a.html") == "a.html"


def test_only_slashes_and_the_last_letter_of_a_path_are_kept_as_written() -> None:
    assert canonical_url("https://a.com//") == "https://a.com/"
    assert canonical_url("https://a.com/FAX/") == "https://a.com/FAX"


def test_a_host_idna_cannot_encode_is_kept_lowercase() -> None:
    host = "Ü" * 64 + ".com"  # a label over 63 characters: not valid IDNA
    assert canonical_url(f"https://{host}/x") == f"https://{host.lower()}/x"


def test_a_url_without_a_host_is_still_normalised() -> None:
    assert canonical_url("file:///srv/./docs/x.md") == "file:///srv/docs/x.md"
