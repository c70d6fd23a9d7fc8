"""The Slack adapter's own harness: real Bolt over signed HTTP, fake Slack Web API."""

from tests.slack.conftest import fake, make_harness  # noqa: F401
