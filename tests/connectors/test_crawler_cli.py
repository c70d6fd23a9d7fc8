"""``citebot ingest URL``, ``citebot ingest reader:NAME`` and ``citebot sources`` end to end."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner, Result

from bots.cli import (
    cli,
    commands,  # noqa: F401  (registers every command)
)
from tests.fakes.website import Website, page, running_in_thread


def citebot(data_dir: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["--data-dir", str(data_dir), *args], catch_exceptions=False)


def listing(data_dir: Path) -> list[dict[str, object]]:
    result = citebot(data_dir, "sources", "list", "--json")
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_ingest_a_site_list_it_and_prune_it(tmp_path: Path) -> None:
    Path("citebot.toml").write_text("[ingest.crawl]\nper_host_delay = 0\ntimeout = 2\n")
    site = Website()
    site.put("/", page("Home", ("Intro", "Welcome to the docs."), links=("/a", "/b")))
    site.put("/a", page("A", ("Alpha", "Alpha facts.")))
    site.put("/b", page("B", ("Beta", "Beta facts.")))
    with running_in_thread(site):
        first = citebot(tmp_path, "ingest", site.url("/"), "--collection", "web")
        assert first.exit_code == 0, first.output
        assert "3 new, 0 changed, 0 unchanged, 0 removed pages" in first.output
        assert "ingested into 'web': 3 added" in first.output

        rows = listing(tmp_path)
        assert {(r["collection"], r["url"]) for r in rows} == {
            ("web", site.url(p)) for p in ("/", "/a", "/b")
        }
        assert all(r["chunks"] == 1 and r["updated"] for r in rows)

        again = citebot(tmp_path, "ingest", site.url("/sitemap.xml"), "--collection", "web")
        assert "0 new, 0 changed, 3 unchanged" in again.output

    removed = citebot(tmp_path, "sources", "remove", site.url("/a"))
    assert removed.exit_code == 0 and "removed 1 documents (1 chunks)" in removed.output
    assert len(listing(tmp_path)) == 2

    nothing = citebot(tmp_path, "sources", "remove", "https://nowhere.example/")
    assert nothing.exit_code == 1 and "nothing matches" in nothing.output

    dropped = citebot(tmp_path, "sources", "remove", "--collection", "web", "--yes")
    assert dropped.exit_code == 0 and "removed 2 documents" in dropped.output
    assert listing(tmp_path) == []
    assert not (tmp_path / "crawl" / "web.json").exists()


def test_ingest_a_configured_llamahub_reader(tmp_path: Path) -> None:
    Path("citebot.toml").write_text(
        "[ingest.readers.wiki]\n"
        'reader_module = "tests.connectors.test_llamahub"\n'
        'reader_class = "WikiReader"\n'
        'args = { space = "ENG" }\n'
        'url_template = "https://wiki.example.com/{space}/{page_id}"\n'
        'collection = "wiki"\n'
    )
    result = citebot(tmp_path, "ingest", "reader:wiki")
    assert result.exit_code == 0, result.output
    assert "2 added" in result.output
    assert {r["url"] for r in listing(tmp_path)} == {
        "https://wiki.example.com/ENG/p1",
        "https://wiki.example.com/ENG/p2",
    }
    assert {r["collection"] for r in listing(tmp_path)} == {"wiki"}

    unknown = CliRunner().invoke(cli, ["--data-dir", str(tmp_path), "ingest", "reader:notion"])
    assert unknown.exit_code == 1
    assert unknown.output.strip() == "citebot: no reader named 'notion' in ingest.readers (wiki)"


def test_sources_list_on_an_empty_data_dir(tmp_path: Path) -> None:
    result = citebot(tmp_path, "sources", "list")
    assert result.exit_code == 0 and "nothing ingested yet" in result.output
    usage = CliRunner().invoke(cli, ["sources", "remove"])
    assert usage.exit_code == 2 and "--collection" in usage.output
