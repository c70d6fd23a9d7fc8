"""Compose files: ``docker compose config`` when a compose CLI is present, else structure."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.deploy.conftest import DEPLOY

SCALE_OUT = DEPLOY / "docker-compose.yml"
EMBEDDED = DEPLOY / "docker-compose.embedded.yml"


def load(path: Path) -> dict[str, Any]:
    data = yaml.safe_load(path.read_text())
    assert isinstance(data, dict)
    return data


def compose_cli() -> list[str] | None:
    docker = shutil.which("docker")
    if (
        docker
        and subprocess.run(
            [docker, "compose", "version"], capture_output=True, timeout=30
        ).returncode
        == 0
    ):
        return [docker, "compose"]
    legacy = shutil.which("docker-compose")
    return [legacy] if legacy else None


@pytest.mark.parametrize("path", [SCALE_OUT, EMBEDDED], ids=lambda p: p.name)
def test_docker_compose_config_validates(path: Path, tmp_path: Path) -> None:
    cli = compose_cli()
    if cli is None:
        pytest.skip("no docker compose CLI here; the structural tests below cover the files")
    result = subprocess.run(
        [
            *cli,
            "-f",
            str(path),
            "--profile",
            "slack",
            "--profile",
            "discord",
            "--profile",
            "ingest",
            "config",
            "-q",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr


def test_scale_out_stack_has_bot_profiles_weaviate_redis_and_named_volumes() -> None:
    data = load(SCALE_OUT)
    services = data["services"]
    assert {"slack", "discord", "ingest", "weaviate", "redis"} <= set(services)
    assert services["slack"]["profiles"] == ["slack"]
    assert services["discord"]["profiles"] == ["discord"]
    assert services["slack"]["command"][:3] == ["run", "slack", "--http"]
    assert services["discord"]["command"] == ["run", "discord"]
    # the bot waits for healthy dependencies and points at them by service name
    for name in ("slack", "discord", "ingest"):
        svc = services[name]
        env = svc["environment"]
        assert env["CITEBOT_STORE__KIND"] == "weaviate"
        assert env["CITEBOT_STORE__WEAVIATE_URL"] == "http://weaviate:8080"
        assert env["CITEBOT_OPS__REDIS_URL"] == "redis://redis:6379/0"
        assert svc["depends_on"]["weaviate"]["condition"] == "service_healthy"
        assert svc["depends_on"]["redis"]["condition"] == "service_healthy"
        assert svc["build"] == {"context": "..", "dockerfile": "deploy/Dockerfile"}
    for dep in ("weaviate", "redis"):
        assert "test" in services[dep]["healthcheck"]
    assert set(data["volumes"]) == {"citebot-data", "weaviate-data", "redis-data"}
    _volumes_are_declared(data)


def test_ingest_is_a_one_shot_service() -> None:
    for path in (SCALE_OUT, EMBEDDED):
        ingest = load(path)["services"]["ingest"]
        assert ingest["command"][0] == "ingest"
        assert ingest["restart"] == "no"
        assert ingest["profiles"] == ["ingest"]
        assert any(v.endswith(":/docs:ro") for v in ingest["volumes"])
        assert "citebot-data:/data" in ingest["volumes"]


def test_embedded_file_runs_citebot_alone() -> None:
    data = load(EMBEDDED)
    assert set(data["services"]) == {"slack", "discord", "ingest"}
    for svc in data["services"].values():
        assert svc["environment"]["CITEBOT_STORE__KIND"] == "lancedb"
        assert "CITEBOT_OPS__REDIS_URL" not in svc["environment"]
        assert "depends_on" not in svc
    assert set(data["volumes"]) == {"citebot-data"}
    _volumes_are_declared(data)


def test_no_secrets_in_compose_files() -> None:
    for path in (SCALE_OUT, EMBEDDED):
        text = path.read_text()
        for marker in (
            "xoxb-",
            "xapp-",
            "sk-",
            "tvly-",
            "SIGNING_SECRET:",
            "BOT_TOKEN:",
            "API_KEY:",
        ):
            assert marker not in text, f"{path.name} holds {marker}"
        for svc in load(path)["services"].values():
            if "env_file" in svc:
                assert svc["env_file"] == [{"path": "../.env", "required": False}]


def _volumes_are_declared(data: dict[str, Any]) -> None:
    declared = set(data.get("volumes") or {})
    for name, svc in data["services"].items():
        for volume in svc.get("volumes", []):
            source = volume.split(":", 1)[0]
            if not source.startswith(("/", ".", "$")):
                assert source in declared, f"{name} uses undeclared volume {source}"


def test_the_env_file_the_compose_files_name_exists_and_holds_real_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bots.settings import load_settings

    named = {
        line.split("cp ", 1)[1].split()[0]
        for path in (SCALE_OUT, EMBEDDED)
        for line in path.read_text().splitlines()
        if "cp " in line
    }
    assert named == {"deploy/env.example"}
    example = DEPLOY / "env.example"
    (tmp_path / ".env").write_text(example.read_text())
    monkeypatch.chdir(tmp_path)
    for name in list(os.environ):
        if name.startswith("CITEBOT_"):
            monkeypatch.delenv(name)
    load_settings()  # every name a setting, every empty line unset: no SettingsError


@pytest.mark.parametrize("path", [SCALE_OUT, EMBEDDED], ids=lambda p: p.name)
def test_no_two_services_publish_the_same_host_port(path: Path) -> None:
    published: dict[str, str] = {}
    for name, svc in load(path)["services"].items():
        for mapping in svc.get("ports", []):
            host = str(mapping).split(":")[0]
            assert host not in published, f"{name} and {published[host]} both publish {host}"
            published[host] = name
