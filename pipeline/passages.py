"""Which retrieved passage leads an offline answer, before any sentence is chosen.

Each passage's support (``pipeline/evidence.py``: its grade plus the share of the question's
terms it contains) says how well it answers as a whole. The extractive answerer ranks
sentences one by one, each less ``extract_support_weight`` times the gap between its
passage's support and the best one's. When supports are close that is right: the sentence
decides. When one passage answers clearly better than every other, a single sentence of a
neighbouring section that repeats the question's words ("… connect through a relay …" in a
section about slow syncing) can still outrank the answering section, whose sentences leave
the subject to its heading ("Why do my Windows computers always connect through a relay?":
"Windows sets a new network to Public, which blocks …"). So the lead of a passage whose
support is ahead of every other's by at least ``passage_lead_margin`` counts twice: its
sentences lead more often, and the others' still follow when they are relevant (a
second section that adds to the answer is not pushed out of it).
"""

from __future__ import annotations

from collections.abc import Sequence

#: how many times over a clear lead counts again
LEAD = 1.0


def standing(support: Sequence[float], *, lead_margin: float) -> list[float]:
    """``support``, with the best passage's lead over the next best counted ``1 + LEAD``
    times when it is at least ``lead_margin`` (``pipeline.passage_lead_margin``; 0 turns it
    off). Passages of equal support (chunks of one section) do not lead each other."""
    if len(support) < 2 or lead_margin <= 0:
        return list(support)
    best = max(support)
    others = [s for s in support if s < best]
    if len(others) + 1 < len(support):
        return list(support)
    lead = best - max(others)
    if lead < lead_margin:
        return list(support)
    return [s + LEAD * lead if s == best else s for s in support]
