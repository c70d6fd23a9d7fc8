"""The Discord adapter's own harness: real discord.py, fake Discord REST and gateway."""

from tests.discord.conftest import fake, start_bot  # noqa: F401
