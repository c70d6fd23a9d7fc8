"""The answering pipeline. ``Pipeline`` is imported lazily: LlamaIndex takes a second to load,
and the contracts in this package (questions, events, ports) must stay cheap to import."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pipeline.runner import Pipeline

__all__ = ["Pipeline"]


def __getattr__(name: str) -> Any:
    if name == "Pipeline":
        from pipeline.runner import Pipeline

        return Pipeline
    raise AttributeError(f"module 'pipeline' has no attribute {name!r}")
