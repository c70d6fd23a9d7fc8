"""Imports each command module so that it registers itself on ``cli``."""

from bots.cli import config, run  # noqa: F401
from bots.cli import plugins  # noqa: F401
from bots.cli import slack  # noqa: F401
from bots.cli import discord  # noqa: F401
from bots.cli import ask, chat, demo  # noqa: F401
from bots.cli import ingest  # noqa: F401
from bots.cli import sources  # noqa: F401
from bots.cli import store  # noqa: F401
