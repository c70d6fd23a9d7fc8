"""Reading attachments: what is read, what is refused, and the one line that says why."""

from __future__ import annotations

import pytest

from bots.core.attachments import Offered, kind_of, read_attachments
from bots.settings.sections import AttachmentSettings
from tests.fakes.pdf import pdf_with_pages

URL = "https://team.example/files/F1"


def offer(
    name: str, data: bytes | Exception, *, size: int | None = None, ctype: str | None = None
) -> Offered:
    async def download() -> bytes:
        if isinstance(data, Exception):
            raise data
        return data

    length = size if size is not None else (0 if isinstance(data, Exception) else len(data))
    return Offered(name=name, url=URL, size=length, content_type=ctype, download=download)


async def read(*offered: Offered, **settings: object) -> list[tuple[str, str, str | None]]:
    got = await read_attachments(list(offered), AttachmentSettings.model_validate(settings))
    return [(a.name, a.text, a.skipped) for a in got]


@pytest.mark.parametrize(
    ("name", "ctype", "kind"),
    [
        ("build.LOG", None, "text"),
        ("notes.md", None, "text"),
        ("data.csv", "text/csv", "text"),
        ("conf.yaml", None, "text"),
        ("events.jsonl", None, "text"),
        ("manual.pdf", None, "pdf"),
        ("noext", "application/pdf", "pdf"),
        ("noext", "text/plain; charset=utf-8", "text"),
        ("shot.png", "image/png", None),
        ("bundle.zip", "application/zip", None),
        ("page.html", "text/html", None),
    ],
)
def test_what_is_read(name: str, ctype: str | None, kind: str | None) -> None:
    assert kind_of(name, ctype) == kind


async def test_text_is_read_with_its_bom_dropped_and_bad_bytes_replaced() -> None:
    [(name, text, skipped)] = await read(offer("a.log", b"\xef\xbb\xbfline one\nbad \xff byte"))
    assert (name, skipped) == ("a.log", None)
    assert text == "line one\nbad \ufffd byte"


async def test_a_pdf_is_read_page_by_page() -> None:
    data = pdf_with_pages("Rotate keys every 90 days.", "Backups run at 02:00.")
    [(_, text, skipped)] = await read(offer("ops.pdf", data))
    assert skipped is None
    assert text.split("\f") == ["Rotate keys every 90 days.", "Backups run at 02:00."]


@pytest.mark.parametrize(
    ("offered", "why"),
    [
        (offer("shot.png", b"\x89PNG"), "only text, Markdown, log, CSV, JSON, YAML and PDF files"),
        (offer("big.log", b"x", size=2_000_001), "it is 2.0 MB, over the 2.0 MB limit"),
        (offer("liar.log", b"x" * 2_000_001, size=10), "over the 2.0 MB limit"),
        (offer("bin.txt", b"ab\x00cd"), "it does not look like text"),
        (offer("broken.pdf", b"%PDF-1.4 not really"), "it could not be read as a PDF"),
        (offer("blank.pdf", pdf_with_pages("")), "it has no text layer"),
        (offer("gone.log", ConnectionResetError("peer reset")), "it could not be downloaded"),
    ],
)
async def test_every_refusal_is_one_line_naming_the_file(offered: Offered, why: str) -> None:
    [(name, text, skipped)] = await read(offered)
    assert text == ""
    assert skipped is not None and skipped.startswith(f"The attachment {name} was not read: ")
    assert why in skipped and "\n" not in skipped and skipped.endswith(".")
    assert "peer reset" not in skipped, "exception text stays in the log"


async def test_only_max_files_are_read_and_the_rest_are_named() -> None:
    got = await read(*(offer(f"f{i}.txt", b"hi") for i in range(4)), max_files=2)
    assert [(n, t) for n, t, _ in got] == [
        ("f0.txt", "hi"),
        ("f1.txt", "hi"),
        ("f2.txt", ""),
        ("f3.txt", ""),
    ]
    assert got[3][2] == (
        "The attachment f3.txt was not read: only the first 2 attachments of a question are."
    )


async def test_text_is_cut_to_max_chars_and_reading_can_be_off() -> None:
    [(_, text, _)] = await read(offer("long.txt", b"a" * 5000), max_chars=1000)
    assert text == "a" * 1000
    [(_, text, skipped)] = await read(offer("x.txt", b"hi"), read=False)
    assert (
        text == ""
        and skipped == "The attachment x.txt was not read: attachments are not read here."
    )
    assert await read() == []
