"""Hypothesis budgets for the citation tests.

The default keeps ``tests/citations`` well under a minute; set
``CITEBOT_HYPOTHESIS=thorough`` for a long hunt.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

_THOROUGH = os.environ.get("CITEBOT_HYPOTHESIS") == "thorough"
# CI runs the same examples every time, so a landing does not depend on the draw; the
# hunt for new counterexamples happens in development runs and with "thorough"
_CI = bool(os.environ.get("CI")) and not _THOROUGH

settings.register_profile(
    "citations",
    max_examples=120,
    deadline=None,
    derandomize=_CI,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "citations-small",
    max_examples=40,
    deadline=None,
    derandomize=_CI,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "citations-thorough",
    max_examples=3000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


PROPERTY = settings.get_profile("citations-thorough" if _THOROUGH else "citations")
HEAVY = settings.get_profile("citations-thorough" if _THOROUGH else "citations-small")
