"""Imports each command module so that it registers itself on ``cli``."""

from bots.cli import (  # noqa: F401
    ask,
    chat,
    config,
    demo,
    discord,
    eval,
    feedback,
    ingest,
    plugins,
    run,
    slack,
    sources,
    store,
)
