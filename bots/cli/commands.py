"""Imports each command module so that it registers itself on ``cli``."""

from bots.cli import config  # noqa: F401
