"""How long a test waits for something to happen before it fails.

Tests wait on events, never on sleeps; this is only the bound past which an event that has not
come counts as lost. It is generous because the suite runs on every core (pytest-xdist): a
Slack or Discord round trip here can share the machine with a dev set's evaluation, which
keeps both cores busy for a minute.
"""

from __future__ import annotations

#: seconds to wait for an event (an answer, an ack, a bot ready) before the test fails
EVENT = 60.0
