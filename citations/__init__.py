"""citebot's citation engine: pure, streaming, and strict about footnotes.

No I/O, no settings, no SDKs: sources go in, a ``CitedAnswer`` comes out, and
``citations.render`` draws it for a console, Markdown, HTML, Slack or Discord.
"""

from citations.deeplinks import deep_link
from citations.filters import afilter_by_llm, filter_by_llm, filter_by_similarity
from citations.model import (
    CitedAnswer,
    Locator,
    Origin,
    QuoteCheck,
    Reference,
    Segment,
    Source,
)
from citations.quotes import QuoteMatch, match_quote, verify_quotes
from citations.refusal import is_refusal
from citations.stream import MAX_HOLDBACK, CitationStream, resolve
from citations.urls import canonical_url

__all__ = [
    "MAX_HOLDBACK",
    "CitationStream",
    "CitedAnswer",
    "Locator",
    "Origin",
    "QuoteCheck",
    "QuoteMatch",
    "Reference",
    "Segment",
    "Source",
    "afilter_by_llm",
    "canonical_url",
    "deep_link",
    "filter_by_llm",
    "filter_by_similarity",
    "is_refusal",
    "match_quote",
    "resolve",
    "verify_quotes",
]
