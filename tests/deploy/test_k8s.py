"""Kubernetes manifests: rendered with kustomize when kubectl is here, read with PyYAML always."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from bots.settings import Settings
from tests.deploy.conftest import DEPLOY

BASE = DEPLOY / "k8s" / "base"
SINGLE = DEPLOY / "k8s" / "single"
SLACK_SOCKET = DEPLOY / "k8s" / "slack-socket"


def manifests() -> dict[str, dict[str, Any]]:
    docs: dict[str, dict[str, Any]] = {}
    for path in sorted(BASE.glob("*.yaml")):
        if path.name == "kustomization.yaml":
            continue
        for doc in yaml.safe_load_all(path.read_text()):
            docs[doc["kind"]] = doc
    return docs


def kustomize(path: Path) -> list[dict[str, Any]]:
    kubectl = shutil.which("kubectl")
    if kubectl is None:
        pytest.skip("kubectl is not installed; the structural tests cover the manifests")
    result = subprocess.run(
        [kubectl, "kustomize", str(path)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    return [d for d in yaml.safe_load_all(result.stdout) if d]


def bot_container(docs: dict[str, dict[str, Any]]) -> dict[str, Any]:
    container: dict[str, Any] = docs["Deployment"]["spec"]["template"]["spec"]["containers"][0]
    return container


def test_kustomization_lists_every_manifest_but_the_secret_template() -> None:
    listed = set(yaml.safe_load((BASE / "kustomization.yaml").read_text())["resources"])
    present = {p.name for p in BASE.glob("*.yaml")} - {"kustomization.yaml"}
    assert listed == present - {"secret.example.yaml"}


def test_base_renders_with_kustomize() -> None:
    kinds = sorted(d["kind"] for d in kustomize(BASE))
    assert kinds == [
        "ConfigMap",
        "CronJob",
        "Deployment",
        "PersistentVolumeClaim",
        "PodDisruptionBudget",
        "Service",
    ]


def test_single_replica_overlay_for_discord() -> None:
    docs = {d["kind"]: d for d in kustomize(SINGLE)}
    deployment = docs["Deployment"]["spec"]
    assert deployment["replicas"] == 1
    assert deployment["strategy"] == {"type": "Recreate"}
    assert deployment["template"]["spec"]["containers"][0]["args"] == ["run", "discord"]


def test_single_replica_overlay_for_slack_socket_mode() -> None:
    # one process runs one platform: Socket Mode needs its own args and mode, not ../single's
    docs = {d["kind"]: d for d in kustomize(SLACK_SOCKET)}
    deployment = docs["Deployment"]["spec"]
    assert deployment["replicas"] == 1
    assert deployment["strategy"] == {"type": "Recreate"}
    assert deployment["template"]["spec"]["containers"][0]["args"] == ["run", "slack", "--socket"]
    assert docs["ConfigMap"]["data"]["CITEBOT_SLACK__MODE"] == "socket"


def test_the_docs_name_an_overlay_for_each_one_replica_platform(root: Path) -> None:
    operations = (root / "docs" / "pages" / "operations.md").read_text()
    assert "kubectl apply -k deploy/k8s/slack-socket" in operations
    assert "for Socket Mode and Discord" not in operations, "single runs Discord only"


def test_deployment_probes_resources_and_hardening() -> None:
    docs = manifests()
    spec = docs["Deployment"]["spec"]
    assert spec["replicas"] >= 2
    container = bot_container(docs)
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    assert ports == {"http": 3000, "ops": 9464}
    assert container["livenessProbe"]["httpGet"] == {"path": "/healthz", "port": "ops"}
    assert container["readinessProbe"]["httpGet"] == {"path": "/readyz", "port": "ops"}
    assert container["startupProbe"]["httpGet"]["path"] == "/healthz"
    assert {"cpu", "memory"} <= set(container["resources"]["requests"])
    assert container["securityContext"]["readOnlyRootFilesystem"] is True
    assert spec["template"]["spec"]["securityContext"]["runAsNonRoot"] is True
    assert container["args"][:3] == ["run", "slack", "--http"]
    mounts = {m["mountPath"] for m in container["volumeMounts"]}
    assert {"/data", "/tmp"} <= mounts


def test_settings_come_from_the_configmap_and_secret() -> None:
    docs = manifests()
    sources = bot_container(docs)["envFrom"]
    assert {"configMapRef": {"name": "citebot-settings"}} in sources
    assert {"secretRef": {"name": "citebot-secrets"}} in sources
    data = docs["ConfigMap"]["data"]
    assert all(key.startswith("CITEBOT_") for key in data)
    assert all(isinstance(v, str) for v in data.values())  # ConfigMap values must be strings
    # every key is a real setting: loading them must not fail and must change the settings
    env = {k: v for k, v in data.items()}
    # with the Secret's keys filled in, as a real deployment has them
    env |= {
        key: "redis://redis:6379/0" if key.endswith("REDIS_URL") else "filled-in"
        for key in docs["Secret"]["stringData"]
    }
    settings = Settings(_env_file=None, **_nested(env))  # type: ignore[call-arg]
    assert settings.store.kind == "weaviate" and settings.slack.mode == "http"
    assert (
        settings.ops.metrics_port
        == 9464
        == int(
            docs["Deployment"]["spec"]["template"]["metadata"]["annotations"]["prometheus.io/port"]
        )
    )
    secret = docs["Secret"]
    assert secret["metadata"]["name"] == "citebot-secrets"
    assert all(value == "" for value in secret["stringData"].values()), (
        "the template must hold no values"
    )
    assert all(key.startswith("CITEBOT_") for key in secret["stringData"])


def _nested(env: dict[str, str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in env.items():
        parts = key.removeprefix("CITEBOT_").lower().split("__")
        target = out
        for part in parts[:-1]:
            target = target.setdefault(part, {})
        target[parts[-1]] = value
    return out


def test_pdb_and_service_select_the_bot_pods() -> None:
    docs = manifests()
    pod_labels = docs["Deployment"]["spec"]["template"]["metadata"]["labels"]
    for kind, selector in (
        ("PodDisruptionBudget", docs["PodDisruptionBudget"]["spec"]["selector"]["matchLabels"]),
        ("Service", docs["Service"]["spec"]["selector"]),
    ):
        assert selector.items() <= pod_labels.items(), kind
    assert docs["PodDisruptionBudget"]["spec"]["minAvailable"] == 1


def test_ingest_cronjob() -> None:
    cron = manifests()["CronJob"]["spec"]
    assert cron["concurrencyPolicy"] == "Forbid"
    pod = cron["jobTemplate"]["spec"]["template"]["spec"]
    assert pod["restartPolicy"] == "Never"
    container = pod["containers"][0]
    assert container["args"][0] == "ingest"
    assert {"configMapRef": {"name": "citebot-settings"}} in container["envFrom"]
    assert any(
        v["persistentVolumeClaim"]["claimName"] == "citebot-data"
        for v in pod["volumes"]
        if "persistentVolumeClaim" in v
    )
