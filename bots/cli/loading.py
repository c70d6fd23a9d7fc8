"""Say at once that something slow is loading, and load it as early and as concurrently as we can.

The knowledge base costs seconds to import and open (LanceDB, LlamaIndex, the
ONNX model); a terminal user sees a spinner from the first tenth of a second.
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import sys
import threading
from collections.abc import Iterator
from typing import IO, TYPE_CHECKING

import click

if TYPE_CHECKING:
    from bots.core.runtime import Runtime
    from bots.settings import Settings

LOADING = "Loading the knowledge base…"
FRAMES = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
#: seconds between spinner frames
TICK = 0.08


@contextlib.contextmanager
def spinner(text: str, stream: IO[str] | None = None) -> Iterator[None]:
    """A spinner with ``text`` on a terminal, erased when the block ends; nothing elsewhere."""
    out = stream if stream is not None else sys.stderr
    if not out.isatty():
        yield
        return
    stop = threading.Event()

    def spin() -> None:
        for frame in itertools.cycle(FRAMES):
            out.write(f"\r{click.style(frame, fg='cyan')} {text}")
            out.flush()
            if stop.wait(TICK):
                break
        out.write("\r\x1b[K")
        out.flush()

    thread = threading.Thread(target=spin, name="citebot-spinner", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


#: seconds an exiting command waits for the models' loading it started
WARM_JOIN_TIMEOUT = 60.0


def start_warming(settings: Settings, *, pipeline: bool = True) -> threading.Thread | None:
    """Start loading the bundled embedding models beside whatever the caller does next:
    the store's, and the pipeline's unless ``pipeline`` is false (ingest needs only the
    store's; with two-tier embeddings that is not MiniLM).

    onnxruntime builds the session without holding the GIL, so it overlaps the
    imports the caller is still doing. The models' modules are imported here, in the
    caller's thread, so that two threads never import the same modules at once.
    """
    from connectors.providers.embeddings import BUNDLED, build_embedding

    embeddings = settings.embeddings
    store = embeddings.documents.strip() or embeddings.provider
    wanted = [(True, store)] + ([(False, embeddings.provider)] if pipeline else [])
    models = [
        build_embedding(embeddings, documents=documents, llama_index=False)
        for documents, name in wanted
        if name.strip().lower() in BUNDLED
    ]
    if not models:
        return None

    def load() -> None:
        with contextlib.suppress(Exception):  # building the pipeline reports any failure
            for model in models:
                model.load()  # type: ignore[attr-defined]

    warm = threading.Thread(target=load, name="citebot-warm", daemon=True)
    warm.start()
    # a command that fails at once (a misspelt source) must not exit under onnxruntime while
    # it builds a session: the C++ runtime aborts the process ("terminate called …")
    atexit.register(warm.join, WARM_JOIN_TIMEOUT)
    return warm


def load_runtime(ctx: click.Context, text: str = LOADING) -> Runtime:
    """The command's runtime, built once, with a spinner and the model loading beside it."""
    from bots.cli.base import settings_from

    obj = ctx.ensure_object(dict)
    if "runtime" in obj:
        runtime: Runtime = obj["runtime"]
        return runtime
    with spinner(text):
        settings = settings_from(ctx)
        warm = start_warming(settings)
        from bots.app import build_runtime

        runtime = build_runtime(settings)
        if warm is not None:
            warm.join()
    obj["runtime"] = runtime
    return runtime
