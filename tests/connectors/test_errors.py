from __future__ import annotations

from connectors.errors import one_line


def test_one_line_keeps_the_first_line_folded() -> None:
    exc = RuntimeError("\n  Client error  '404'\tfor url\nFor more information check: https://x")
    assert one_line(exc) == "Client error '404' for url"


def test_one_line_names_the_type_when_there_is_no_message() -> None:
    assert one_line(ValueError("  \n ")) == "ValueError"


def test_one_line_cuts_a_long_message() -> None:
    text = one_line(OSError("x" * 500), limit=50)
    assert len(text) == 50 and text.endswith("…")
