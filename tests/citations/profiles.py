"""Hypothesis budgets for the citation tests.

The default keeps ``tests/citations`` well under a minute; set
``CITEBOT_HYPOTHESIS=thorough`` for a long hunt.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "citations", max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "citations-small", max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "citations-thorough",
    max_examples=3000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

_THOROUGH = os.environ.get("CITEBOT_HYPOTHESIS") == "thorough"

PROPERTY = settings.get_profile("citations-thorough" if _THOROUGH else "citations")
HEAVY = settings.get_profile("citations-thorough" if _THOROUGH else "citations-small")
