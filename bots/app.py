"""Settings in, collaborators out: the one place that assembles a working bot."""

from __future__ import annotations

import logging
from functools import partial
from typing import TYPE_CHECKING

from connectors.factory import open_store
from connectors.providers.embeddings import AsyncEmbedder, build_embedding
from connectors.providers.llms import build_llm
from connectors.providers.web_search import build_web_search

if TYPE_CHECKING:
    from bots.core.runtime import Runtime
    from bots.plugins.manager import PluginHost
    from bots.settings import Settings
    from pipeline import Pipeline
    from pipeline.ports import Grader

log = logging.getLogger("citebot.app")


def plugin_graders(settings: Settings, plugins: PluginHost | None) -> dict[str, Grader]:
    """Graders contributed by plugins, built now; a factory that fails is skipped and logged."""
    graders: dict[str, Grader] = {}
    if plugins is None:
        return graders
    for name, factory in plugins.graders().items():
        try:
            graders[name] = factory(settings)
        except Exception:
            log.exception("plugin grader %r could not be built; it is not available", name)
    return graders


def build_answerer(settings: Settings, plugins: PluginHost | None = None) -> Pipeline:
    from pipeline import Pipeline

    # answering needs no LlamaIndex embedding: the bundled model comes without the import
    embedder = AsyncEmbedder(build_embedding(settings.embeddings, llama_index=False))
    web, web_off = build_web_search(settings.web)
    return Pipeline(
        open_store(settings, llama_index=False),
        embedder=embedder,
        llm=build_llm(settings.llm),
        web=web,
        web_disabled_reason=web_off,
        settings=settings.pipeline,
        graders=plugin_graders(settings, plugins) or None,
    )


def build_runtime(settings: Settings, *, with_plugins: bool = True, eager: bool = True) -> Runtime:
    """A runtime with every service the settings ask for.

    ``eager`` builds the pipeline now, so that a bad setting (a missing key, an
    unknown embedding class, an incompatible store) stops the command with one
    line for the operator. Otherwise it is built on the first question, and such
    a failure becomes a visible error answer there.
    """
    from bots.core.dedupe import build_dedupe
    from bots.core.feedback import FeedbackStore
    from bots.core.limits import build_limiter
    from bots.core.runtime import Runtime
    from bots.plugins.manager import PluginHost

    plugins = PluginHost(settings.plugins) if with_plugins else None
    return Runtime(
        settings,
        answerer=build_answerer(settings, plugins) if eager else None,
        build_answerer=partial(build_answerer, settings, plugins),
        feedback=FeedbackStore(settings.data_dir / "feedback.sqlite3", settings.feedback),
        dedupe=build_dedupe(settings),
        limiter=build_limiter(settings),
        plugins=plugins,
    )
