"""Hypothesis budgets for the citation tests.

The default keeps ``tests/citations`` well under a minute; set
``CITEBOT_HYPOTHESIS=thorough`` for a long hunt; the mutation tool sets
``CITEBOT_HYPOTHESIS=mutation`` (few examples, the same for every mutant).
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, Phase, settings

_THOROUGH = os.environ.get("CITEBOT_HYPOTHESIS") == "thorough"
# mutation runs (tests/mutation) want the same few examples for every mutant
_MUTATION = os.environ.get("CITEBOT_HYPOTHESIS") == "mutation"
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
    "citations-mutation",
    max_examples=30,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "citations-thorough",
    max_examples=3000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


PROPERTY = settings.get_profile(
    "citations-thorough" if _THOROUGH else "citations-mutation" if _MUTATION else "citations"
)
HEAVY = settings.get_profile(
    "citations-thorough" if _THOROUGH else "citations-mutation" if _MUTATION else "citations-small"
)

# End-to-end properties (a real bot against fake servers) cost a tenth of a second or more
# an example: a few each, the same ones under CI. They do not shrink: a failing example
# may wait out a timeout, and shrinking would repeat that hundreds of times (the pure
# properties above shrink the same texts)
_NO_SHRINK = [Phase.explicit, Phase.reuse, Phase.generate]
settings.register_profile(
    "citations-e2e",
    max_examples=8,
    deadline=None,
    derandomize=_CI,
    database=None,
    phases=_NO_SHRINK,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "citations-e2e-thorough",
    max_examples=200,
    deadline=None,
    database=None,
    phases=_NO_SHRINK,
    suppress_health_check=[HealthCheck.too_slow],
)
E2E = settings.get_profile("citations-e2e-thorough" if _THOROUGH else "citations-e2e")
# through the real pipeline and the fake LLM an example costs a second or more
E2E_LLM = E2E if _THOROUGH else settings(E2E, max_examples=3)
