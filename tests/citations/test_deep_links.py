"""Verified quotes deep-link from their marker; the Sources list keeps the reference URL."""

from __future__ import annotations

from urllib.parse import unquote

from citations import CitedAnswer, Source, deep_link, resolve, verify_quotes
from citations.model import Locator
from citations.render import render_discord, render_slack, render_text

PAGE = "https://example.org/guide#keys"
TEXT = "Old keys keep working for 24 hours after a rotation. Then they are revoked for good."


def _answer() -> CitedAnswer:
    source = Source(id=1, url=PAGE, title="Guide › Keys", text=TEXT)
    answer = resolve('The guide says "Old keys keep working for 24 hours" [1].', [source])
    return verify_quotes(answer)


def test_a_verified_quote_links_its_marker_to_the_text_fragment() -> None:
    answer = _answer()
    (check,) = answer.quotes
    assert check.verified and check.deep_link
    assert check.deep_link.startswith(PAGE + ":~:text=")

    slack = render_slack(answer)[0]
    body = str(slack.blocks[0])
    assert f"<{check.deep_link}|[1]>" in body
    sources = str(slack.blocks[-1]) + str(slack.blocks[-2])
    assert f"<{PAGE}|" in sources, "the Sources list keeps the reference URL"

    discord = render_discord(answer)[0]
    assert f"[[1]](<{check.deep_link}>)" in discord.content


def test_an_unverified_quote_links_to_the_reference() -> None:
    source = Source(id=1, url=PAGE, title="Guide › Keys", text=TEXT)
    answer = verify_quotes(resolve('It says "old keys work for 48 hours" [1].', [source]))
    assert not answer.quotes[0].verified
    discord = render_discord(answer)[0]
    assert f"[[1]](<{PAGE}>)" in discord.content
    assert ":~:text=" not in render_text(answer)


def test_a_cited_sentence_is_checked_whole_across_dots_in_numbers_and_abbreviations() -> None:
    text = "Python 3.11 starts faster, e.g. by freezing core modules at build time."
    source = Source(id=1, url="https://example.org/py", title="Py", text=text)
    answer = verify_quotes(resolve(text + " [1]", [source]), sentences=True)
    (check,) = answer.quotes
    assert check.kind == "sentence" and check.verified
    assert check.quote == text


def test_a_text_fragment_is_the_words_the_page_shows_not_its_markdown() -> None:
    text = "The **rotation** of `app.log` happens [every night](cron.md) at <b>midnight</b>."
    source = Source(id=1, url=PAGE, title="Guide › Logs", text=text)
    link = deep_link(source, 0, len(text))
    assert link is not None
    shown = unquote(link.split(":~:text=", 1)[1])
    # a fragment the page does not show matches nothing: the browser finds no words to mark
    assert shown == "The rotation of app.log,every night at midnight."


def _fragment(url: str, text: str, page: int | None = None) -> str | None:
    source = Source(id=1, url=url, title="T", text=text, locator=Locator(page=page))
    return deep_link(source, 0, len(text))


def test_a_pdf_links_its_page_and_only_a_page() -> None:
    assert _fragment("https://d.example/guide.pdf", "Keys rotate.", page=3) == (
        "https://d.example/guide.pdf#page=3"
    )
    # the URL already names the page and the quote does not know better
    assert _fragment("https://d.example/g#page=2", "Keys rotate.") == "https://d.example/g#page=2"
    assert _fragment("https://d.example/guide.pdf", "Keys rotate.") is None
    # a page is no web page: nothing to mark in a file or a mail
    assert _fragment("file:///srv/guide.md", "Keys rotate.") is None


def test_a_fragment_replaces_an_older_one_and_keeps_the_anchor() -> None:
    link = _fragment("http://d.example/p#keys:~:text=old", "Keys rotate.")
    assert link == "http://d.example/p#keys:~:text=Keys%20rotate."


def test_up_to_eight_words_are_quoted_whole_then_the_first_and_last_four() -> None:
    eight = "one two three four five six seven eight"
    assert unquote(_fragment(PAGE, eight).split("=", 1)[1]) == eight
    nine = eight + " nine"
    assert (
        unquote(_fragment(PAGE, nine).split("=", 1)[1]) == "one two three four,six seven eight nine"
    )


def test_cjk_text_is_quoted_whole_up_to_24_characters_then_by_its_ends() -> None:
    whole = "鍵は二十四時間後に無効になりますので早めに更新してください"[:24]
    assert unquote(_fragment(PAGE, whole).split("=", 1)[1]) == whole
    longer = whole + "ね"
    ends = unquote(_fragment(PAGE, longer).split("=", 1)[1])
    assert ends == f"{longer[:10]},{longer[-10:]}"
