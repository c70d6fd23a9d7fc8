"""Identifier terms: what a store indexes beside a chunk's text, and searches beside a question."""

from connectors.knowledge.store.identifiers import identifier_terms, with_identifier_terms


def test_snake_case_names_are_also_one_word() -> None:
    text = "If exc_info is set, _from_structlog and `cache_logger_on_first_use=False` apply."
    assert identifier_terms(text) == ["excinfo", "fromstructlog", "cacheloggeronfirstuse"]


def test_camel_case_names_are_also_their_words() -> None:
    assert identifier_terms("Use TimeStamper, then JSONRenderer and getLogger.") == [
        "time",
        "stamper",
        "json",
        "renderer",
        "get",
        "logger",
    ]


def test_plain_words_and_one_part_names_add_nothing() -> None:
    for text in ["Plain prose, with JSON and HTTP in capitals.", "_record and __init__", ""]:
        assert identifier_terms(text) == []
        assert with_identifier_terms(text) == text


def test_terms_come_once_after_the_text() -> None:
    text = "exc_info, then exc_info again and ExcInfo."
    assert with_identifier_terms(text) == f"{text}\nexcinfo exc info"
