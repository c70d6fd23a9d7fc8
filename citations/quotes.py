"""Check that quoted (and optionally every cited) text really is in its source.

A quote verifies when three things hold:

1. ``rapidfuzz.fuzz.partial_ratio_alignment`` finds it in a cited source with
   a score of at least ``threshold`` after normalising both sides (NFKC,
   casefold, folded whitespace, straight quotes, one kind of dash);
2. every meaning-bearing token (numbers, negations, units, names, CJK numerals
   and negation morphemes) that differs between the quote and the aligned
   source span is... not there: such tokens must match exactly, because a
   fabricated quote keeps the wording and changes exactly these;
3. a quote stitched together with an ellipsis verifies part by part, in order.

Long sources are not scanned whole: distinctive pieces of the quote (long
words, or short runs of CJK characters) vote for candidate regions, and the
alignment runs only there.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from rapidfuzz import fuzz
from rapidfuzz.distance import OSA, Levenshtein

from citations.deeplinks import deep_link
from citations.model import CitedAnswer, QuoteCheck, Reference, Segment, Source
from citations.normalize import coarse, fold, normalize_map, normalize_map_cached
from citations.sentences import sentences as split_sentences
from citations.words import CJK, CJK_CHAR, CJK_MEANING, NEGATIONS, UNITS, is_cjk_heavy

Policy = Literal["mark", "unquote"]
UNVERIFIED_MARK = " (unverified quote)"

# Quotes shorter than this (normalised) are emphasis, not quotations.
MIN_QUOTE_CHARS = 12
MIN_CJK_QUOTE_CHARS = 5
# Sources up to this size are normalised and aligned whole.
WHOLE_SOURCE_LIMIT = 6_000
# With nothing distinctive to look for, sources up to this size are scanned whole.
SCAN_WHOLE_LIMIT = 50_000
_MAX_HITS_PER_ANCHOR = 64
_MAX_REGIONS = 4

_QUOTE_PAIRS = re.compile(
    r'"(?P<a>[^"\n]{2,2000}?)"'
    r"|“(?P<b>[^“”\n]{2,2000}?)”"
    r"|„(?P<c>[^„“”\n]{2,2000}?)[“”]"
    r"|«\s?(?P<d>[^«»\n]{2,2000}?)\s?»"
    r"|「(?P<e>[^「」\n]{2,2000}?)」"
    r"|『(?P<f>[^『』\n]{2,2000}?)』"
)
_ELLIPSIS = re.compile(r"\s*(?:\.\s?\.\s?\.|…|\[\s*(?:\.\.\.|…)\s*\])\s*")

_TOKEN = re.compile(
    rf"[{CJK}]|\d+(?:[.,:/]\d+)*|[^\W\d_{CJK}]+|[%$€£¥°‰]",
)
_CONTRACTION = re.compile(r"n['’]t\b", re.IGNORECASE)
_WORD_CHAR = re.compile(r"\w")


@dataclass(frozen=True, slots=True)
class _Match:
    score: float
    start: int
    end: int
    reason: str = ""


@dataclass(frozen=True, slots=True)
class _Claim:
    text: str  # the quoted words, without the quote marks
    segment: int
    start: int  # offsets of the quote marks in the segment text
    end: int
    citations: tuple[int, ...]
    kind: str


def _long_enough(text: str) -> bool:
    normalized = fold(text)
    if is_cjk_heavy(normalized):
        return len(normalized) >= MIN_CJK_QUOTE_CHARS
    return len(normalized) >= MIN_QUOTE_CHARS and len(normalized.split()) >= 2


def _claims(answer: CitedAnswer, sentences: bool) -> Iterator[_Claim]:
    for index, seg in enumerate(answer.segments):
        if not seg.citations:
            continue
        for m in _QUOTE_PAIRS.finditer(seg.text):
            words = next(g for g in m.groups() if g is not None)
            if _long_enough(words):
                yield _Claim(words, index, m.start(), m.end(), seg.citations, "quote")
        if sentences:
            parts = split_sentences(seg.text)
            if parts:
                last = parts[-1].text
                unquoted = _QUOTE_PAIRS.sub(lambda m: next(g for g in m.groups() if g), last)
                if _long_enough(unquoted):
                    yield _Claim(unquoted, index, -1, -1, seg.citations, "sentence")


# -- tokens that carry meaning -------------------------------------------------


def _tokens(text: str) -> list[str]:
    text = fold(_CONTRACTION.sub(" not", text), casefold=False)
    return _TOKEN.findall(text)


def _meaningful(token: str) -> bool:
    lowered = token.casefold()
    if any(c.isdigit() for c in token) or lowered in NEGATIONS or lowered in UNITS:
        return True
    # CJK meaning (negation morphemes span characters) is found by _hits in the joined tokens
    return token[:1].isupper() and not CJK_CHAR.match(token)


def _hits(tokens: Sequence[str]) -> list[str]:
    hits = [t for t in tokens if _meaningful(t)]
    joined = "".join(tokens)
    if not hits and CJK_MEANING.search(joined):
        hits = [joined]
    return hits


def _meaning_mismatch(quote: str, span: str) -> str:
    """Why ``quote`` misstates ``span``, or ``""`` when every meaning-bearing
    token agrees.

    Source words past either end of the quote are ignored; quote words past
    either end of the span are words the source does not say (a changed first
    name, "within 90 days plus"). Inside, every difference that touches a
    number, negation, unit or name is a mismatch.
    """
    q_tokens = _tokens(quote)
    s_tokens = _tokens(span)
    q_fold = [t.casefold() for t in q_tokens]
    s_fold = [t.casefold() for t in s_tokens]
    ops = list(Levenshtein.opcodes(q_fold, s_fold))
    equal = [k for k, op in enumerate(ops) if op.tag == "equal"]
    if not equal:  # no word in common: each must be a typo fixed
        pairs = zip(q_tokens, s_tokens, strict=False)
        if len(q_tokens) == len(s_tokens) and all(_is_typo([a], [b]) for a, b in pairs):
            return ""
        return _reason(q_tokens, s_tokens)
    first, last = ops[equal[0]], ops[equal[-1]]
    extra = _extra_words(
        q_tokens[: first.src_start], s_tokens[: first.dest_start], before=True
    ) or _extra_words(q_tokens[last.src_end :], s_tokens[last.dest_end :], before=False)
    if extra:
        return extra
    for op in ops[equal[0] + 1 : equal[-1]]:
        if op.tag == "equal":
            continue
        q_part = q_tokens[op.src_start : op.src_end]
        s_part = s_tokens[op.dest_start : op.dest_end]
        if op.tag == "replace" and _is_typo(q_part, s_part):
            continue
        if _hits(q_part) or _hits(s_part):
            return _reason(q_part, s_part)
        # CJK negation morphemes span characters that did not change
        # (ま|せん|した): compare them with two tokens of context a side.
        q_ctx = "".join(q_tokens[max(op.src_start - 2, 0) : op.src_end + 2])
        s_ctx = "".join(s_tokens[max(op.dest_start - 2, 0) : op.dest_end + 2])
        if Counter(CJK_MEANING.findall(q_ctx)) != Counter(CJK_MEANING.findall(s_ctx)):
            return _reason(q_part, s_part)
    return ""


def _extra_words(said: Sequence[str], source: Sequence[str], *, before: bool) -> str:
    """Quote words ``said`` past one end of the span (``before`` its first
    matching word, or after its last), against the source words there.

    Only a quote word the span cuts in half, or one with the source's typo
    fixed, is the source's own: any other is a word the source does not say.
    """
    real = list(said)
    folded = [t.casefold() for t in source]
    if before and real and any(t.endswith(real[0].casefold()) for t in folded):
        real = real[1:]
    if not before and real and any(t.startswith(real[-1].casefold()) for t in folded):
        real = real[:-1]
    near = source[-len(said) :] if before else source[: len(said)]
    if not real or _is_typo(real, near[-1:] if before else near[:1]):
        return ""
    return _reason(said, near)


def _is_typo(said: Sequence[str], source: Sequence[str]) -> bool:
    """One word against one word, a slip of one letter (or two swapped) in a
    word of five or more letters: a typo fixed, not a fact changed. Numbers,
    negations and units never count as typos."""
    if len(said) != 1 or len(source) != 1:
        return False
    a, b = said[0].casefold(), source[0].casefold()
    if min(len(a), len(b)) < 5 or not a.isalpha() or not b.isalpha():
        return False
    if {a, b} & (NEGATIONS | UNITS):
        return False
    return OSA.distance(a, b) <= 1


def _reason(said: Sequence[str], source: Sequence[str]) -> str:
    return (
        f"the quote says {' '.join(said) or 'nothing'!r} "
        f"where the source says {' '.join(source) or 'nothing'!r}"
    )


# -- finding the quote in a source ----------------------------------------------


def _anchors(quote_norm: str) -> list[tuple[str, int]]:
    """Pieces of the quote to look for, rarest-looking first: runs of three
    words, then short runs of CJK characters, then single long words."""
    words = [(m.start(), m.end()) for m in re.finditer(r"\S+", quote_norm)]
    runs: list[tuple[str, int]] = []
    for k in range(len(words) - 2):
        start, end = words[k][0], words[k + 2][1]
        if end - start >= 12 and not CJK_CHAR.search(quote_norm[start:end]):
            runs.append((quote_norm[start:end], start))
    # Runs with digits in them are the rarest; then the longest.
    runs.sort(key=lambda r: (not any(c.isdigit() for c in r[0]), -len(r[0])))
    cjk: list[tuple[str, int]] = []
    single: list[tuple[str, int]] = []
    for m in re.finditer(r"\w+", quote_norm):
        token, at = m.group(), m.start()
        if CJK_CHAR.search(token):
            for k in range(0, max(len(token) - 3, 1), 4):
                piece = token[k : k + 6]
                if len(piece) >= 3:
                    cjk.append((piece, at + k))
        elif len(token) >= 5:
            single.append((token, at))
    single.sort(key=lambda a: -len(a[0]))
    anchors: list[tuple[str, int]] = []
    seen: set[str] = set()
    for text, at in [*runs[:8], *cjk[:10], *single[:4]]:
        if text not in seen:
            seen.add(text)
            anchors.append((text, at))
    return anchors


def _regions(quote_norm: str, text: str) -> list[tuple[int, int]] | None:
    """Candidate ``(start, end)`` ranges of ``text`` that may hold the quote,
    best first; ``None`` when the quote has nothing distinctive to look for."""
    anchors = _anchors(quote_norm)
    if not anchors:
        return None
    folded = coarse(text)
    scale = len(text) / max(len(folded), 1)
    drift = abs(len(text) - len(folded))
    width = max(len(quote_norm) // 2, 16)
    votes: Counter[int] = Counter()
    for anchor, at in anchors:
        positions: list[int] = []
        pos = folded.find(anchor)
        while pos >= 0 and len(positions) <= _MAX_HITS_PER_ANCHOR:
            positions.append(pos)
            pos = folded.find(anchor, pos + 1)
        if not positions or len(positions) > _MAX_HITS_PER_ANCHOR:
            continue
        for bucket in {(p - at) // width for p in positions}:
            votes[bucket] += 1
        if max(votes.values()) >= 3:
            break  # three distinctive pieces agree: that is the place
    if not votes:
        return []
    regions = []
    pad = len(quote_norm) + 32
    for bucket, _count in votes.most_common(_MAX_REGIONS):
        start = int(bucket * width * scale) - pad - drift
        end = int((bucket + 1) * width * scale) + pad + len(quote_norm) + drift
        regions.append((max(start, 0), min(end, len(text))))
    return regions


def _widen(text: str, start: int, end: int) -> tuple[int, int]:
    """Grow a span out to word edges."""
    limit = 40
    while start > 0 and limit and text[start - 1].isalnum() and not CJK_CHAR.match(text[start - 1]):
        start -= 1
        limit -= 1
    limit = 40
    while end < len(text) and limit and text[end].isalnum() and not CJK_CHAR.match(text[end]):
        end += 1
        limit -= 1
    return start, end


@dataclass(frozen=True, slots=True)
class QuoteMatch:
    """Where a quote sits in a text, and whether it counts as verified."""

    verified: bool
    score: float
    start: int | None = None
    end: int | None = None
    reason: str = ""


def _best(quote_norm: str, text: str, threshold: float) -> _Match | None:
    cutoff = min(threshold, 60.0)
    best: _Match | None = None
    if len(text) <= WHOLE_SOURCE_LIMIT:
        candidates: list[tuple[int, int]] = [(0, len(text))]
    else:
        regions = _regions(quote_norm, text)
        if regions is None:
            regions = [(0, len(text))] if len(text) <= SCAN_WHOLE_LIMIT else []
        candidates = regions
    for lo, hi in candidates:
        index: Sequence[int]
        if (lo, hi) == (0, len(text)):
            region, index = normalize_map_cached(text)
        else:
            region, index = normalize_map(text[lo:hi])
        found = _align(quote_norm, region, cutoff)
        if found is None or found[2] <= found[1]:
            continue
        score, ds, de = _stretch(quote_norm, region, *found)
        match = _Match(score, lo + index[ds], lo + index[de - 1] + 1)
        if best is None or match.score > best.score:
            best = match
        if score >= 100.0:
            break  # no later region can score higher
    return best


def match_quote(quote: str, text: str, *, threshold: float = 90.0) -> QuoteMatch:
    """Find ``quote`` in ``text``; verified only if the fuzzy score reaches
    ``threshold`` and every meaning-bearing token agrees."""
    parts = [p for p in _ELLIPSIS.split(quote) if fold(p)]
    if len(parts) > 1:
        return _match_parts(parts, text, threshold)
    quote_norm = fold(quote)
    if not quote_norm:
        return QuoteMatch(False, 0.0, reason="empty quote")
    found = _best(quote_norm, text, threshold)
    if found is None:
        return QuoteMatch(False, 0.0, reason="not found in the source")
    if found.score < threshold:
        return QuoteMatch(
            False,
            found.score,
            found.start,
            found.end,
            reason=f"closest source text scores {found.score:.0f} < {threshold:.0f}",
        )
    # The aligned span, out to whole words: a wider margin would let the
    # token alignment pair quote words with look-alikes further away.
    start, end = _widen(text, found.start, found.end)
    mismatch = _meaning_mismatch(quote, text[start:end])
    if mismatch:
        return QuoteMatch(False, found.score, found.start, found.end, reason=mismatch)
    return QuoteMatch(True, found.score, start, end)


def _match_parts(parts: Sequence[str], text: str, threshold: float) -> QuoteMatch:
    """A quote with ellipses: every part must verify, in order."""
    matches: list[QuoteMatch] = []
    after = 0
    for part in parts:
        if len(fold(part)) < 3:
            continue
        # Look for each part after the previous one first: short parts can
        # occur in several places.
        match = match_quote(part, text[after:], threshold=threshold) if after else None
        if (
            match is not None
            and match.verified
            and match.start is not None
            and match.end is not None
        ):
            match = replace(match, start=match.start + after, end=match.end + after)
        else:
            match = match_quote(part, text, threshold=threshold)
        matches.append(match)
        if match.end is not None:
            after = match.end
    if not matches:
        return QuoteMatch(False, 0.0, reason="empty quote")
    score = min(m.score for m in matches)
    failed = next((m for m in matches if not m.verified), None)
    if failed is not None:
        return QuoteMatch(False, score, failed.start, failed.end, reason=failed.reason)
    starts = [m.start or 0 for m in matches]
    if starts != sorted(starts):
        return QuoteMatch(False, score, reason="the quoted parts appear in a different order")
    return QuoteMatch(True, score, matches[0].start, matches[-1].end)


# -- the public entry point ---------------------------------------------------------


def _cited_sources(answer: CitedAnswer, numbers: Sequence[int]) -> list[tuple[Reference, Source]]:
    pairs: list[tuple[Reference, Source]] = []
    for number in numbers:
        ref = answer.reference(number)
        if ref is not None:
            pairs.extend((ref, source) for source in ref.sources)
    return pairs


def _check(claim: _Claim, answer: CitedAnswer, threshold: float) -> QuoteCheck:
    best: tuple[QuoteMatch, Reference, Source] | None = None
    for ref, source in _cited_sources(answer, claim.citations):
        match = match_quote(claim.text, source.text, threshold=threshold)
        if best is None or (match.verified, match.score) > (best[0].verified, best[0].score):
            best = (match, ref, source)
        if match.verified and match.score >= 100.0:
            break  # no later source can do better
    if best is None:
        return QuoteCheck(
            quote=claim.text,
            reference=claim.citations[0],
            verified=False,
            score=0.0,
            reason="the cited reference has no source text",
            kind=claim.kind,
        )
    match, ref, source = best
    link = None
    if match.verified and match.start is not None and match.end is not None:
        link = deep_link(source, match.start, match.end)
    return QuoteCheck(
        quote=claim.text,
        reference=ref.number,
        verified=match.verified,
        score=round(match.score, 2),
        source_id=source.id,
        start=match.start,
        end=match.end,
        reason=match.reason,
        deep_link=link,
        kind=claim.kind,
    )


def verify_quotes(
    answer: CitedAnswer,
    *,
    threshold: float = 90.0,
    policy: Policy = "mark",
    sentences: bool = False,
    mark: str = UNVERIFIED_MARK,
) -> CitedAnswer:
    """Check every quoted span (and, with ``sentences``, every cited sentence)
    against the sources it cites.

    Unverified quotes are handled by ``policy``: ``"mark"`` keeps the quote and
    appends ``mark`` after it; ``"unquote"`` drops the quote marks, so the words
    no longer claim to be verbatim. Cited sentences are only reported.
    """
    if policy not in ("mark", "unquote"):
        raise ValueError(f"unknown quote policy {policy!r}; use 'mark' or 'unquote'")
    checks: list[QuoteCheck] = []
    failed: dict[int, list[_Claim]] = {}
    warnings = list(answer.warnings)
    for claim in _claims(answer, sentences):
        check = _check(claim, answer, threshold)
        checks.append(check)
        if not check.verified and claim.kind == "quote":
            failed.setdefault(claim.segment, []).append(claim)
            warnings.append(f"unverified quote cited as [{check.reference}]: {check.reason}")
    if not failed:
        return replace(answer, quotes=(*answer.quotes, *checks), warnings=tuple(warnings))
    segments = list(answer.segments)
    for index, claims in failed.items():
        text = segments[index].text
        for claim in sorted(claims, key=lambda c: -c.start):
            if policy == "mark":
                text = text[: claim.end] + mark + text[claim.end :]
            else:
                text = text[: claim.start] + claim.text + text[claim.end :]
        segments[index] = Segment(text, segments[index].citations)
    return replace(
        answer,
        segments=tuple(segments),
        quotes=(*answer.quotes, *checks),
        warnings=tuple(warnings),
    )


def _stretch(
    quote_norm: str, region: str, score: float, ds: int, de: int
) -> tuple[float, int, int]:
    """partial_ratio compares windows exactly as long as the quote, so a quote
    that leaves out a word scores low against the longer span it came from.
    Try windows up to a fifth longer at either end and keep the best; then
    reach out to the quote's own first and last words if the best window
    stops short of them, so that the meaning check sees them in the span."""
    extra = len(quote_norm) // 5
    if not extra:
        return score, ds, de
    best = (score, ds, de)
    for grow_start in (0, extra // 2, extra):
        for grow_end in (0, extra // 2, extra):
            if not grow_start and not grow_end:
                continue
            lo, hi = max(ds - grow_start, 0), min(de + grow_end, len(region))
            ratio = fuzz.ratio(quote_norm, region[lo:hi], score_cutoff=best[0])
            if ratio > best[0]:
                best = (ratio, lo, hi)
    score, lo, hi = best
    words = re.findall(r"\w+", quote_norm)
    if not words:
        return best
    lo = _reach(words[0], region, lo, extra, back=True)
    return score, lo, _reach(words[-1], region, hi, extra, back=False)


def _reach(word: str, region: str, edge: int, extra: int, *, back: bool) -> int:
    """The span's ``edge`` moved out to the quote's first (``back``) or last
    ``word`` when every place of that word near the edge lies outside the span."""
    near = _word_at(word, region, edge - extra - len(word), edge + extra)
    outside = [at for at in near if (at + len(word) <= edge if back else at >= edge)]
    if not near or outside != near:
        return edge
    return outside[-1] if back else outside[0] + len(word)


def _word_at(word: str, text: str, first: int, last: int) -> list[int]:
    """Where ``word`` starts in ``text``, as a whole word, from ``first`` to ``last``."""
    found: list[int] = []
    at = text.find(word, max(first, 0))
    while 0 <= at <= last:
        end = at + len(word)
        if (at == 0 or not _WORD_CHAR.match(text[at - 1])) and (
            end == len(text) or not _WORD_CHAR.match(text[end])
        ):
            found.append(at)
        at = text.find(word, at + 1)
    return found


def _align(quote_norm: str, region: str, threshold: float) -> tuple[float, int, int] | None:
    if not region:
        return None
    if len(quote_norm) > len(region):
        # The whole source is shorter than the quote: score the quote's words
        # against it, so words past the source's end count against the quote.
        score = fuzz.ratio(quote_norm, region, score_cutoff=threshold)
        return (score, 0, len(region)) if score else None
    result = fuzz.partial_ratio_alignment(quote_norm, region, score_cutoff=threshold)
    if result is None:
        return None
    return result.score, result.dest_start, result.dest_end
