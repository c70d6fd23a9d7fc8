"""The Slack harness (real slack-bolt against the strict fake) for feedback tests."""

from tests.slack.conftest import fake, make_harness  # noqa: F401
