from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from bots.cli import cli
from bots.cli import commands as _commands  # noqa: F401  (registers the commands)
from connectors.knowledge.store import DataDir


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
