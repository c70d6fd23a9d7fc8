from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from bots.cli import cli
from bots.cli import commands as _commands  # noqa: F401  (registers the commands)
from connectors.knowledge.sources.folder import published
from connectors.knowledge.store import DataDir, Manifest


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    root = tmp_path / "docs"
    root.mkdir()
    (root / "setup.md").write_text("# Setup\n\n## Ports\n\nAcme listens on port 8443 by default.\n")
    return root


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_ingest_prints_a_summary_and_is_incremental(docs: Path, tmp_path: Path) -> None:
    data = str(tmp_path / "data")
    code, out, err = _run(
        "--data-dir", data, "ingest", str(docs), "--url-base", "https://d.example/"
    )
    assert code == 0, err
    assert "1 added, 0 updated, 0 unchanged, 0 removed, 0 skipped; 1 chunks written" in out
    code, out, _ = _run("--data-dir", data, "ingest", str(docs))
    assert code == 0 and "0 added, 1 updated" in out  # the URL base changed the links
    code, out, _ = _run("--data-dir", data, "ingest", str(docs), "--collection", "team")
    assert code == 0 and "ingested into 'team': 1 added" in out


def test_a_missing_path_is_one_line_and_touches_nothing(docs: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    code, out, err = _run("--data-dir", str(data), "ingest", str(docs), str(tmp_path / "nope"))
    assert code != 0
    assert err.strip().count("\n") == 0 and "no such file or directory" in err
    assert "Traceback" not in err + out
    assert not data.exists()


def test_a_corrupt_file_warns_ingests_the_rest_and_exits_non_zero(
    docs: Path, tmp_path: Path
) -> None:
    (docs / "bad.pdf").write_bytes(b"%PDF-1.7\nnope")
    code, out, err = _run("--data-dir", str(tmp_path / "data"), "ingest", str(docs))
    assert code == 1
    assert "warning: skipped bad.pdf: not a readable PDF" in err
    assert "1 added" in out and "1 skipped" in out


def test_a_locked_data_dir_is_one_line(docs: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    with DataDir(data).writing(store="lancedb", embedding="MiniLMEmbedding:all-MiniLM-L6-v2-int8"):
        code, _, err = _run("--data-dir", str(data), "ingest", str(docs))
    assert code != 0
    assert err.startswith("citebot: data dir") and "locked" in err
    assert err.strip().count("\n") == 0
    assert not (data / "lancedb").exists()


def test_an_unwritable_data_dir_is_one_line(docs: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    code, _, err = _run("--data-dir", str(blocker / "data"), "ingest", str(docs))
    assert code != 0 and ("not writable" in err or "not a directory" in err)
    assert err.strip().count("\n") == 0


def test_an_incompatible_store_is_one_line(docs: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "store-format.json").write_text(json.dumps({"format": 0}))
    code, _, err = _run("--data-dir", str(data), "ingest", str(docs))
    assert code != 0 and "format 0" in err and err.strip().count("\n") == 0
    assert not (data / "lancedb").exists()


@pytest.mark.parametrize(
    ("style", "page", "index"),
    [
        ("path", "guide/install.md", "index.md"),
        ("html", "guide/install.html", "index.html"),
        ("clean", "guide/install", ""),
        ("directory", "guide/install/", ""),
    ],
)
def test_url_style_links_pages_where_their_site_publishes_them(
    tmp_path: Path, style: str, page: str, index: str
) -> None:
    # a footnote to "…/guide/install.md#ports" is a 404 on the site MkDocs or Docusaurus
    # builds from the folder; the style says where the generator puts each page
    root = tmp_path / "docs"
    (root / "guide").mkdir(parents=True)
    (root / "index.md").write_text("# Acme\n\nAcme serves files.\n")
    (root / "guide" / "install.md").write_text("# Install\n\n## Ports\n\nAcme uses 8443.\n")
    data = tmp_path / "data"
    code, _, err = _run(
        "--data-dir", str(data), "ingest", str(root), "--url-base", "https://d.example/docs/",
        "--url-style", style,
    )  # fmt: skip
    assert code == 0, err
    with Manifest(data, "lancedb") as manifest:
        urls = {e.url for e in manifest.entries()}
    assert urls == {f"https://d.example/docs/{page}", f"https://d.example/docs/{index}"}


def test_a_misspelt_url_style_is_one_line(docs: Path, tmp_path: Path) -> None:
    code, out, err = _run(
        "--data-dir", str(tmp_path / "data"), "ingest", str(docs), "--url-style", "pretty"
    )
    assert code != 0 and "Traceback" not in err + out
    assert "'pretty' is not one of 'path', 'html', 'clean', 'directory'" in err


@pytest.mark.parametrize(
    ("relative", "html", "clean", "directory"),
    [
        ("api/README.md", "api/index.html", "api/", "api/"),
        ("ref/config.rst", "ref/config.html", "ref/config", "ref/config/"),
        ("blog/post.mdx", "blog/post.html", "blog/post", "blog/post/"),
        ("site/page.html", "site/page.html", "site/page", "site/page/"),
        ("manual.pdf", "manual.pdf", "manual.pdf", "manual.pdf"),
        ("notes/v1.2", "notes/v1.2", "notes/v1.2", "notes/v1.2"),
    ],
)
def test_each_style_publishes_pages_and_leaves_other_files_as_they_are(
    relative: str, html: str, clean: str, directory: str
) -> None:
    assert published(relative, "path") == relative
    assert (published(relative, "html"), published(relative, "clean")) == (html, clean)
    assert published(relative, "directory") == directory


def test_the_help_names_every_file_kind_and_source_form() -> None:
    from connectors.knowledge.parsing import KINDS

    result = CliRunner().invoke(cli, ["ingest", "--help"], terminal_width=200)
    assert result.exit_code == 0, result.output
    usage = result.output.splitlines()[0]
    assert usage.endswith("PATH|URL|reader:NAME|plugin:NAME..."), usage
    help_text = " ".join(result.output.split())
    for kind in set(KINDS.values()):
        suffixes = [s for s, k in KINDS.items() if k == kind]
        assert any(f"{s}," in help_text or f"{s})" in help_text for s in suffixes), kind
    assert "(plugin:NAME)" in help_text
