"""The Grafana dashboard queries only metrics (and labels) that bots/ops/metrics.py exports."""

from __future__ import annotations

import json
import re
from pathlib import Path

from prometheus_client.metrics import MetricWrapperBase

from bots.ops import metrics

DASHBOARD = Path(__file__).resolve().parents[2] / "deploy" / "grafana" / "citebot-dashboard.json"
# Prometheus' own suffixes: counters are exposed as <name>_total, histograms as _bucket/_sum/_count
SUFFIXES = ("_total", "_bucket", "_sum", "_count")


def exported() -> dict[str, set[str]]:
    families: dict[str, set[str]] = {}
    for value in vars(metrics).values():
        if isinstance(value, MetricWrapperBase):
            labels = set(value._labelnames)
            families[value._name] = labels | ({"le"} if value._type == "histogram" else set())
    return families


def test_every_queried_metric_exists() -> None:
    families = exported()
    dashboard = json.loads(DASHBOARD.read_text(encoding="utf-8"))
    exprs = [t["expr"] for p in dashboard["panels"] for t in p["targets"]]
    assert len(exprs) >= 10
    for expr in exprs:
        names = re.findall(r"\bcitebot_[a-z_]+", expr)
        assert names, expr
        for name in names:
            base = next((name.removesuffix(s) for s in SUFFIXES if name.endswith(s)), name)
            assert base in families, f"{name} in {expr!r} is not a citebot metric"
            used = set(re.findall(r"by \(([a-z_, ]+)\)", expr)) | set(
                re.findall(r"\{([a-z_]+)=", expr)
            )
            for group in used:
                for label in (x.strip() for x in group.split(",")):
                    assert label in families[base] | {"le"}, f"{base} has no label {label!r}"
