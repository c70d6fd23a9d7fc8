"""``python -m tests.devset_html [devset devset3]``: Markdown vs built HTML, same run."""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

from pipeline.config import PipelineSettings
from pipeline.evaluation import Report
from tests.devset_html.sets import SETS, ingest
from tests.pipeline.devset_eval import eval_devset


def _row(label: str, report: Report) -> str:
    m = report.metrics()
    unc = m["by_kind"].get("uncovered", {})
    off = m["by_kind"].get("off_topic", {})
    return (
        f"| {label} | {m['hit_at_k']:.1%} | {m['mrr']:.3f} | {m['cited_right']:.1%} | "
        f"{m['fact_stated']:.1%} | {unc.get('clean')}/{unc.get('of')} | "
        f"{off.get('clean')}/{off.get('of')} |"
    )


def main(names: list[str]) -> None:
    from connectors.providers.embeddings import AsyncEmbedder, MiniLMEmbedding
    from pipeline.graders import CachedEmbedder

    rows: list[str] = []
    out: dict[str, object] = {}
    for name in names:
        html_set = SETS[name]
        for label, folder, url_map in (
            (f"{name} md", html_set.markdown, None),
            (f"{name} html", html_set.html, html_set.url),
        ):
            with tempfile.TemporaryDirectory() as tmp:
                kb = ingest(folder, html_set.url_base, Path(tmp))
                embedder = MiniLMEmbedding()
                embedder.load()
                grader = CachedEmbedder(AsyncEmbedder(embedder), size=50_000)
                report = eval_devset(
                    html_set.markdown, kb, grader, PipelineSettings(), url_map=url_map
                )
                kb.close()
            rows.append(_row(label, report))
            if os.environ.get("MISSES"):
                print(f"## {label}\n{report.table()}\n", flush=True)
            out[label] = report.data()
    print("| set | hit | MRR | cited | fact | uncovered | off |\n|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    if os.environ.get("JSON"):
        Path(os.environ["JSON"]).write_text(json.dumps(out, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1:] or list(SETS))
