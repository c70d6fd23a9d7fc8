"""Quote verification: precision/recall on a generated set, and speed on 1 MB sources.

Baselines in the same run: the naive difflib ``SequenceMatcher`` partial-ratio
approach (fuzzywuzzy style) and plain rapidfuzz ``partial_ratio_alignment`` on
the whole normalised source, both with the same >= 90 threshold and no
meaning check. Run with::

    uv run pytest tests/benchmarks/bench_citations_quotes.py -m benchmark -s
"""

from __future__ import annotations

import random
import re
import statistics
import time
from collections.abc import Callable
from difflib import SequenceMatcher

import pytest
from rapidfuzz import fuzz

from citations import match_quote
from citations.normalize import fold
from tests.benchmarks.summary import spread, summary

pytestmark = pytest.mark.benchmark

THRESHOLD = 90.0

_NAMES = ["Alice Martin", "Bruno Costa", "Chen Wei", "Dana Okafor", "Emil Novak", "Farah Haddad"]
_UNITS = [
    ("MB", "GB"),
    ("days", "weeks"),
    ("ms", "seconds"),
    ("percent", "points"),
    ("km", "miles"),
]
_NOUNS = [
    "service",
    "cluster",
    "backup",
    "request",
    "policy",
    "report",
    "endpoint",
    "dashboard",
    "gateway",
    "scheduler",
]
_VERBS = [
    "stores",
    "rejects",
    "processes",
    "approves",
    "retains",
    "exports",
    "schedules",
    "encrypts",
]
_ADJ = ["new", "legacy", "primary", "regional", "internal", "public", "nightly", "manual"]

_JA = [
    "この制度は{n}年に導入されました。",
    "東京都の人口は約{n}万人です。",
    "申請の処理には{n}日かかります。",
    "データは{n}日間保存されます。",
    "会議は毎週{n}回開かれます。",
]
_KO = [
    "이 서비스는 {n}년에 출시되었습니다.",
    "데이터는 {n}일 동안 보관됩니다.",
    "요청은 {n}초 안에 처리됩니다.",
    "회의는 매주 {n}번 열립니다.",
]


def _sentence(rng: random.Random) -> str:
    unit = rng.choice(_UNITS)[0]
    return (
        f"The {rng.choice(_ADJ)} {rng.choice(_NOUNS)} {rng.choice(_VERBS)} "
        f"{rng.randint(2, 990)} {unit} of {rng.choice(_NOUNS)} data for "
        f"{rng.choice(_NAMES)} every {rng.choice(['week', 'month', 'quarter'])}."
    )


def _doc(rng: random.Random, sentences: int = 12) -> list[str]:
    return [_sentence(rng) for _ in range(sentences)]


def _typo(word: str, rng: random.Random) -> str:
    if len(word) < 5 or not word.isalpha():
        return word
    i = rng.randint(1, len(word) - 3)
    return word[:i] + word[i + 1] + word[i] + word[i + 2 :]


def generate(seed: int = 3, per_kind: int = 60) -> list[tuple[str, str, str, bool]]:
    """(kind, quote, source text, should_verify)."""
    rng = random.Random(seed)
    cases: list[tuple[str, str, str, bool]] = []
    for _ in range(per_kind):
        sents = _doc(rng)
        text = " ".join(sents)
        s = rng.choice(sents)
        s2 = rng.choice([x for x in sents if x != s])
        words = s.split()
        cases.append(("exact", s, text, True))
        cases.append(
            ("punctuation/case", s.lower().rstrip(".").replace(" for ", ", for "), text, True)
        )
        # the source has the typo; the quote fixes it
        w = rng.randrange(len(words))
        typo_source = text.replace(
            s, " ".join(_typo(x, rng) if i == w else x for i, x in enumerate(words))
        )
        cases.append(("fixed typo", s, typo_source, True))
        units = {u for pair in _UNITS for u in pair}
        droppable = [
            i for i, x in enumerate(words) if x.isalpha() and x.islower() and x not in units
        ]
        d = rng.choice(droppable)
        cases.append(
            ("dropped word", " ".join(x for i, x in enumerate(words) if i != d), text, True)
        )
        cases.append(("ellipsis", " ".join(words[:5]) + " … " + " ".join(words[-4:]), text, True))
        # negatives
        cases.append(
            ("stitched", " ".join(s.split()[:7]) + " " + " ".join(s2.split()[:7]), text, False)
        )
        num = re.search(r"\d+", s)
        assert num is not None
        changed = str(int(num.group()) + rng.choice([1, 10, 100]))
        cases.append(("changed number", s.replace(num.group(), changed, 1), text, False))
        verb = words[3]
        negated = s.replace(f" {verb} ", f" does not {verb.rstrip('s')} ", 1)
        cases.append(("inserted negation", negated, text, False))
        name = next(n for n in _NAMES if n in s)
        other = rng.choice([n for n in _NAMES if n != name])
        cases.append(("changed name", s.replace(name, other), text, False))
        unit, swap = next((u, v) for u, v in _UNITS if f" {u} " in s)
        cases.append(("changed unit", s.replace(f" {unit} ", f" {swap} ", 1), text, False))
        cases.append(("not in source", _sentence(rng), text, False))
    for _ in range(per_kind):
        ja = [t.format(n=rng.randint(2, 2000)) for t in _JA]
        ko = [t.format(n=rng.randint(2, 2000)) for t in _KO]
        ja_text, ko_text = "".join(ja), " ".join(ko)
        j, k = rng.choice(ja), rng.choice(ko)
        cases.append(("japanese exact", j.rstrip("。"), ja_text, True))
        cases.append(("japanese punctuation", j.replace("。", "．"), ja_text, True))
        cases.append(("korean exact", k, ko_text, True))
        jn = re.search(r"\d+", j)
        kn = re.search(r"\d+", k)
        assert jn is not None and kn is not None
        cases.append(
            (
                "japanese changed number",
                j.replace(jn.group(), str(int(jn.group()) + 3), 1),
                ja_text,
                False,
            )
        )
        negated = j.replace("ました", "ませんでした").replace("です", "ではありません")
        if negated == j:
            negated = j.replace("ます", "ません")
        cases.append(("japanese negation", negated, ja_text, False))
        cases.append(
            (
                "korean changed number",
                k.replace(kn.group(), str(int(kn.group()) + 7), 1),
                ko_text,
                False,
            )
        )
    return cases


def naive_difflib(quote: str, text: str) -> float:
    """fuzzywuzzy's partial_ratio: SequenceMatcher blocks, then windows."""
    short, long = fold(quote), fold(text)
    if len(short) > len(long):
        short, long = long, short
    best = 0.0
    for block in SequenceMatcher(None, short, long, autojunk=False).get_matching_blocks():
        start = max(block[1] - block[0], 0)
        window = long[start : start + len(short)]
        best = max(best, SequenceMatcher(None, short, window, autojunk=False).ratio() * 100)
        if best >= 99.5:
            break
    return best


def plain_rapidfuzz(quote: str, text: str) -> float:
    return float(fuzz.partial_ratio_alignment(fold(quote), fold(text)).score)


def _scores(
    cases: list[tuple[str, str, str, bool]], verdict: Callable[[str, str], bool]
) -> tuple[float, float, dict[str, int]]:
    tp = fp = fn = 0
    misses: dict[str, int] = {}
    for kind, quote, text, should in cases:
        got = verdict(quote, text)
        if got and should:
            tp += 1
        elif got and not should:
            fp += 1
            misses[kind] = misses.get(kind, 0) + 1
        elif should:
            fn += 1
            misses[kind] = misses.get(kind, 0) + 1
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    return precision, recall, misses


def test_precision_recall() -> None:
    cases = generate()
    ours = _scores(cases, lambda q, t: match_quote(q, t, threshold=THRESHOLD).verified)
    rapid = _scores(cases, lambda q, t: plain_rapidfuzz(q, t) >= THRESHOLD)
    naive = _scores(
        cases[:: max(len(cases) // 300, 1)], lambda q, t: naive_difflib(q, t) >= THRESHOLD
    )
    kinds = sorted({c[0] for c in cases})
    print(
        f"\nquote verification on {len(cases)} generated cases ({len(kinds)} kinds), threshold {THRESHOLD:.0f}"
    )
    for name, (p, r, misses) in (
        ("citebot match_quote", ours),
        ("plain rapidfuzz (no meaning check)", rapid),
        ("naive difflib (subsample)", naive),
    ):
        print(f"  {name:<36} precision {p:.3f}  recall {r:.3f}  errors by kind: {misses or '-'}")
    p, r, _ = ours
    summary(
        f"quote verification, {len(cases)} cases",
        f"precision {p:.3f} recall {r:.3f}",
        f"plain rapidfuzz {rapid[0]:.3f} / {rapid[1]:.3f}",
        None,
        ">= 0.99 / >= 0.95",
        p >= 0.99 and r >= 0.95,
    )
    assert p >= 0.99 and r >= 0.95


def _megabyte(seed: int, cjk: bool = False) -> str:
    rng = random.Random(seed)
    out, size = [], 0
    while size < 1_000_000:
        s = (rng.choice(_JA).format(n=rng.randint(2, 9999))) if cjk else _sentence(rng) + " "
        out.append(s)
        size += len(s)
    return "".join(out)


def _timed(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    """Median (wall, CPU) milliseconds of ``repeat`` calls.

    CPU time is the figure on a shared machine: a call of a few milliseconds that the
    scheduler pre-empts once (a 20-30 ms slice when other processes want the cores) shows
    that slice in its wall time, not its own work. On an idle machine both agree.
    """
    wall, cpu = [], []
    for _ in range(repeat):
        began, began_cpu = time.perf_counter(), time.process_time()
        fn()
        cpu.append(time.process_time() - began_cpu)
        wall.append(time.perf_counter() - began)
    return statistics.median(wall) * 1e3, statistics.median(cpu) * 1e3


def test_speed_on_one_megabyte() -> None:
    rng = random.Random(11)
    for label, text in (("English", _megabyte(5)), ("Japanese", _megabyte(6, cjk=True))):
        quotes = []
        for _ in range(40):
            start = rng.randrange(0, len(text) - 400)
            start = text.find(" ", start) + 1 if label == "English" else start
            quotes.append(text[start : start + 200])
        cold_began = time.perf_counter()
        assert match_quote(quotes[0], text).verified
        cold_ms = (time.perf_counter() - cold_began) * 1e3
        ours: list[tuple[float, float]] = []
        rapid: list[tuple[float, float]] = []
        for i, q in enumerate(quotes):  # the baseline interleaved with ours, quote by quote
            ours.append(_timed(lambda q=q, text=text: match_quote(q, text), 3))
            if i % 8 == 0:
                rapid.append(_timed(lambda q=q, text=text: plain_rapidfuzz(q, text), 1))
        found = sum(match_quote(q, text).verified for q in quotes)
        naive = _timed(lambda q=quotes[0], text=text: naive_difflib(q, text), 1)
        ours_cpu = [c for _, c in ours]
        m_ours, m_wall = statistics.median(ours_cpu), statistics.median(w for w, _ in ours)
        m_rapid = statistics.median(c for _, c in rapid)
        m_naive = naive[1]
        print(f"\n200-char quote in a 1 MB {label} source (median, CPU ms):")
        print(
            f"  citebot match_quote        {m_ours:9.2f} ms  (min {min(ours_cpu):.2f}, max "
            f"{max(ours_cpu):.2f}; wall median {m_wall:.2f}; first call on a new source: "
            f"{cold_ms:.1f} ms)"
        )
        print(f"  plain rapidfuzz, whole     {m_rapid:9.2f} ms  ({m_rapid / m_ours:.0f}x slower)")
        print(f"  naive difflib, whole       {m_naive:9.2f} ms  ({m_naive / m_ours:.0f}x slower)")
        summary(
            f"quote in 1 MB, {label}",
            f"{spread(ours_cpu)} CPU (wall median {m_wall:.1f} ms)",
            f"plain rapidfuzz {m_rapid:.1f} ms",
            m_rapid / m_ours,
            "<= 10 ms median",
            m_ours <= 10.0,
            faster=True,
        )
        assert m_ours <= 10.0
        assert found >= len(quotes) * 0.95
