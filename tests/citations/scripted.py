"""Model answers for the end-to-end "links only from sources" properties.

``NASTY`` is what a model or a poisoned document might write: Markdown links, bare
and angle URLs, Slack's ``<url|label>``, every kind of ping, and code that has to
copy as written. ``answers`` draws texts like it (from the fragments of
``test_safe_links``) and a split into deltas.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from hypothesis import strategies as st

from citations import Source, resolve
from tests.citations.test_safe_links import texts

# Code that must reach the reader exactly as the model wrote it.
CODE = (
    "`git@github.com:org/repo.git`",
    "`npm install @scope/pkg@1.0`",
    "```sh\ngit clone git@github.com:org/repo.git\nnpm i @scope/pkg@1.0  # @here http://in.code.example\n```",
)

NASTY = (
    "Read [the docs](http://evil.example/x), http://evil.example/bare, www.evil.example, "
    "<http://evil.example|the guide> and <https://evil.example/angle> [1]. "
    "@everyone @here @channel <@U1> <!here> <!channel> <!subteam^S1> me@evil.example [2].\n\n"
    f"Clone {CODE[0]}, then run {CODE[1]} [1]:\n"
    f"{CODE[2]}\n"
    "Ask <@U1> at [the desk](https://evil.example/desk) [2]."
)


@st.composite
def deltas(draw: st.DrawFn, text: str) -> list[str]:
    """``text`` cut into deltas at up to ten drawn places."""
    cuts = sorted(draw(st.sets(st.integers(0, len(text)), max_size=10)))
    bounds = [0, *cuts, len(text)]
    return [text[a:b] for a, b in itertools.pairwise(bounds)]


# What a model writes: the nasty answer, or drawn text, citing sources 1 and 2.
model_texts = st.one_of(st.just(NASTY), texts.map(lambda t: t + " [1] and @here [2]."))


@st.composite
def answers(draw: st.DrawFn, sources: Sequence[Source]) -> tuple[str, list[str]]:
    """An answer citing sources 1 and 2 with its markers resolved (as the pipeline
    streams it), and the deltas it streams in."""
    raw = draw(model_texts)
    text = resolve(raw, sources).text
    return text, draw(deltas(text))
