"""The fault tests drive the real Slack bot through the harness of tests/slack."""

from tests.slack.conftest import fake, make_harness

__all__ = ["fake", "make_harness"]
