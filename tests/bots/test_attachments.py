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
        ("notes.txt", None, "text"),
        ("notes.text", None, "text"),
        ("notes.md", None, "text"),
        ("notes.markdown", None, "text"),
        ("data.csv", None, "text"),
        ("data.tsv", None, "text"),
        ("data.json", None, "text"),
        ("conf.yaml", None, "text"),
        ("conf.yml", None, "text"),
        ("events.jsonl", None, "text"),
        ("manual.pdf", None, "pdf"),
        ("noext", "application/pdf", "pdf"),
        ("noext", "text/plain; charset=utf-8", "text"),
        ("noext", "text/markdown", "text"),
        ("noext", "TEXT/CSV", "text"),
        ("noext", "application/json", "text"),
        ("noext", None, None),
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
        (
            offer("shot.png", b"\x89PNG"),
            "only text, Markdown, log, CSV, JSON, YAML and PDF files are read",
        ),
        (offer("big.log", b"x", size=2_000_001), "it is 2.0 MB, over the 2.0 MB limit"),
        (offer("liar.log", b"x" * 2_000_001, size=10), "it is over the 2.0 MB limit"),
        (offer("bin.txt", b"ab\x00cd"), "it does not look like text"),
        (offer("blank.pdf", pdf_with_pages("")), "it has no text layer (a scan?)"),
        (offer("gone.log", ConnectionResetError("peer reset")), "it could not be downloaded"),
    ],
)
async def test_every_refusal_is_one_line_naming_the_file(offered: Offered, why: str) -> None:
    [(name, text, skipped)] = await read(offered)
    assert text == ""
    assert skipped == f"The attachment {name} was not read: {why}."


async def test_a_broken_pdf_is_named_and_the_download_failure_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    [(_, _, skipped)] = await read(offer("broken.pdf", b"%PDF-1.4 not really"))
    assert skipped is not None
    assert skipped.startswith(
        "The attachment broken.pdf was not read: it could not be read as a PDF ("
    )
    [(_, _, skipped)] = await read(offer("gone.log", ConnectionResetError("peer reset")))
    assert "peer reset" not in (skipped or ""), "exception text stays in the log"
    assert (
        "could not download the attachment gone.log: ConnectionResetError: peer reset"
        in caplog.text
    )


async def test_limits_are_inclusive_and_only_the_head_is_sniffed(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level("INFO", "citebot.attachments")
    [(_, text, skipped)] = await read(offer("edge.txt", b"a" * 1000), max_bytes=1000)
    assert (text, skipped) == ("a" * 1000, None), "a file of exactly max_bytes is read"
    [(_, text, _)] = await read(offer("edge.txt", b"b" * 1000), max_chars=1000)
    assert text == "b" * 1000 and "cut to" not in caplog.text
    [(_, text, _)] = await read(offer("long.txt", b"c" * 1001), max_chars=1000)
    assert text == "c" * 1000 and "attachment long.txt cut to 1000 characters" in caplog.text
    late_nul = b"x" * 8192 + b"\x00"
    [(_, text, skipped)] = await read(offer("late.txt", late_nul))
    assert skipped is None and text == late_nul.decode()


async def test_an_encrypted_pdf_is_refused() -> None:
    from io import BytesIO

    from pypdf import PdfWriter

    writer = PdfWriter()
    writer.add_blank_page(width=612, height=792)
    writer.encrypt("secret")
    data = BytesIO()
    writer.write(data)
    [(_, _, skipped)] = await read(offer("locked.pdf", data.getvalue()))
    assert skipped == "The attachment locked.pdf was not read: it is encrypted."


@pytest.mark.parametrize(
    ("size", "shown"),
    [(999, "999 bytes"), (1_000, "1.0 kB"), (999_999, "1000.0 kB"), (1_000_000, "1.0 MB")],
)
async def test_sizes_read_as_people_write_them(size: int, shown: str) -> None:
    [(_, _, skipped)] = await read(offer("s.log", b"", size=size), max_bytes=1)
    assert skipped == f"The attachment s.log was not read: it is {shown}, over the 1 bytes limit."


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
