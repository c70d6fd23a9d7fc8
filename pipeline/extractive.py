"""The offline answerer: the sentences of the sources that answer the question, each cited.

It never writes a word the sources do not contain, so its answers are grounded
by construction; it is also the fallback whenever the LLM is down.

How it reads (the units are in ``pipeline/units.py``):

- sentences and list items are scored by their similarity to the question plus
  how much of the question's (IDF-weighted) terms they contain, less how much worse
  their passage answers than the best one (its support: grade plus evidence), so
  that a neighbouring section's sentence that echoes the question does not lead;
- a question of several sentences is read for what it asks: its last sentence that
  asks ("… How do I check Y?") counts twice, what the asker already did once;
- they are scored as a reader sees them: a cross-reference (``{func}`~a.b.f```,
  ``:class:`C```, ``{doc}`title <page>```) is its title or last name, a link its text;
  the answer still quotes them as written;
- the best one is read in context: the sentence it refers back to ("This …",
  "For example …", or the last of the paragraph before), the sentences after it,
  the list or code it announces ("… by default:"), and the rest of the bullet or
  admonition it sits in ("This has two drawbacks:" then 1. and 2.);
- a definition list's entry is one item with its term ("`dict_tracebacks`: Uses …"), and a
  sentence of an option's description (under its signature block or its name heading) is
  quoted with the name it describes ("`maxConflicts`: The maximum number …");
- a bullet ending in "or", "and" or a comma runs on into the next one;
- a sentence that opens steps brings every step, and a later step ("Second, …") the steps
  before it back to the first; a sentence saying that a name the answer quotes from its
  source is deprecated comes with it ("`[replace]` is deprecated. Use `[patch]` instead.");
- when the question asks how to do something, the code of the best section is
  the answer's second half, shown as a fenced block and cited like a sentence; when it
  does not, only code naming a good share of what it asks is (a key in a defaults
  listing, a signature), and so is the block a shown sentence leans on ("This tells …"),
  and the example the best sentence leads into ("For example, … like this:").
"""

from __future__ import annotations

import logging
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from itertools import pairwise

from citations.markers import without_markers
from citations.model import Source
from citations.render.pieces import outside_code
from citations.sentences import sentences
from pipeline.config import PipelineSettings
from pipeline.evidence import Lexicon, evidence
from pipeline.graders import EmbeddingGrader
from pipeline.text import (
    carries_on,
    first_step,
    is_prose,
    last_step,
    later_step,
    leans_back,
    next_step,
    opens_steps,
    plain,
    shown,
)
from pipeline.units import (
    HEADING_LINE,
    Kind,
    Unit,
    asked_tabs,
    block_end,
    states_default,
    tab_start,
    units,
)
from pipeline.words import question_terms, terms

#: how much a sentence's share of the question's (IDF-weighted) terms adds to its score
COVERAGE_WEIGHT = 0.5
#: how much a sentence loses per unit of its passage's support below the best passage's
#: (``pipeline.extract_support_weight``, whose default is this)
SUPPORT_WEIGHT: float = PipelineSettings.model_fields["extract_support_weight"].default
#: list items an announcing sentence ("… the following:") may bring beyond the limit
LIST_ITEMS = 6
#: sentences before the best one that it may lean on ("This …" after the sentence it means)
REFERS_BACK = 2
#: the share of the question's (IDF-weighted) terms a block must name to be shown unasked
#: (another section's, for a how-to question; any, for a question not asking how)
SIGNATURE_SHARE = 0.3
#: the share of the question's (IDF-weighted) terms the sentence after a shown block must
#: name to bring the variant it announces ("To only build specific targets, use `-t`:");
#: below it, the next block is the page's next subject ("Let's look at `Cargo.toml`:")
VARIANT_SHARE = 0.15
#: how far below the best sentence's score a quoted sentence may be for the block right
#: under it to be shown as the how-to answer's code (another section's, naming none of it)
LEAD_MARGIN = 0.1
#: a code block longer than this is a listing, not an answer to show
CODE_LINES = 25
CODE_CHARS = 1400

log = logging.getLogger("citebot.pipeline.extractive")

NOT_FOUND = "I couldn't find this in the knowledge base."
NOT_FOUND_ANYWHERE = "I couldn't find this in the knowledge base or on the web."

# Questions whose answer is something to do or to write, where a section's code (or the
# setting it names) shows how: "how do I …", "can I turn … off", "what's the setting",
# "which option/env var …", "what do I add …", "is there a way …", "what does … look like".
_HOW_TO = re.compile(
    r"\b(?:how\s+(?:do|can|could|should|would|will|to)\b|how\s+\w+\s+i\b|"
    r"(?:can|could)\s+(?:i|we)\s+(?!still\b|be\b)\w+|"
    r"what(?:'s|\s+is|\s+are)\s+the\s+(?:\w+\s+)?(?:way|syntax|code|commands?|settings?|"
    r"options?|flags?|keys?|variables?)\b|"
    r"(?:which|what)\s+(?:\w+\s+)?(?:settings?|options?|flags?|keys?|commands?|"
    r"env(?:ironment)?\s+var(?:iable)?s?)\s+(?:do|does|should|can|must|will|would|is|are|to)\b|"
    r"what\s+(?:\w+\s+)?(?:do|should|must)\s+(?:i|we)\s+(?:\w+\s+){0,4}"
    r"(?:add|put|write|set|type|run|call|change|fix|configure|enable|disable|raise|"
    r"increase|edit|install)\b|\band\s+how\s*\?|"
    r"is\s+there\s+an?\s+(?:way|setting|option|flag|command)\b|is\s+it\s+possible\b|"
    r"example\s+of\b|show\s+me\b|\bone[- ]?liner\b|\bsnippet\b|\bcommand\s+(?:to|for|that)\b|"
    # what a URL, a config line or a unit file looks like is shown by one; steps are done
    r"what\s+(?:does|do|should|would)\s+(?:\S+\s+){1,6}look\s+like\b|\bsteps?\s+(?:to|for)\b|"
    # "example systemd unit …?", "got an example config …?" (not "the example passes …")
    r"(?:^|[,:;]\s*|\b(?:an?|any|some)\s+)(?:example|sample)\s+(?!of\b)[a-z]\w*)",
    re.I,
)
# a question what value something takes ("what port does vite preview use?", "which
# file is read?"), which the value it takes unless told otherwise answers; not what it
# does or what happens
_AUXILIARY = r"(?:do|does|did|is|are|was|were|will|would|should|can|could)"
_ASKS_VALUE = re.compile(
    rf"\s*(?:what|which)\s+(?!{_AUXILIARY}\b|happens?\b)[a-z][\w-]*\s+{_AUXILIARY}\b", re.I
)
#: a run of backticks, split out with the text around it
_TICKS = re.compile(r"(`+)")
# a diagram's source (a fenced mermaid or graphviz block) draws; it does not show how
_DIAGRAM = re.compile(r"[ \t]*(?:```|~~~)[ \t]*\{?(?:mermaid|plantuml|graphviz|dot)\b", re.I)
# a sentence stating what happens unless told otherwise
_BY_DEFAULT = re.compile(r"\bby\s+default\b", re.I)
_CODE_SPAN = re.compile(r"`[^`\n]+`")
# a sentence saying that what it names is on its way out ("`[replace]` is deprecated")
_DEPRECATED = re.compile(
    r"\b(?:deprecated|obsolete|no\s+longer\s+(?:supported|recommended))\b",
    re.I,
)
# a list item that runs on into the next one: it ends in a conjunction or a comma
_GOES_ON = re.compile(r"(?:[,;]|\b(?:or|and))[ \t]*$", re.I)


@dataclass(frozen=True, slots=True)
class Pick:
    source_rank: int
    start: int
    text: str
    source_id: int
    score: float
    kind: Kind = "sentence"
    #: the name the pick's paragraph describes, when the pick does not say it
    term: str = ""


def asks(question: str) -> str:
    """The question's last sentence that asks something, or the whole question when that
    is all it says: what the asker already has or did is context, not what they ask."""
    said = [question[span.start : span.end] for span in sentences(question)]
    asking = [sentence for sentence in said if sentence.rstrip().endswith("?")]
    return asking[-1] if asking else question


async def _relevance(
    question: str, said: Sequence[str], grader: EmbeddingGrader, lexicon: Lexicon | None
) -> list[float]:
    """Each sentence's similarity to ``question``, plus, by how much of the question it
    answers (not by similarity alone), its IDF-weighted share of the question's terms."""
    scores = await grader.sentence_scores(question, said)
    if lexicon is None:
        return scores
    wanted = question_terms(question)
    return [
        s + COVERAGE_WEIGHT * evidence(wanted, text, lexicon).coverage
        for s, text in zip(scores, said, strict=True)
    ]


def _bare_default(text: str) -> bool:
    """A line that only states a default ("Default: 4."), too short to quote otherwise: it
    says nothing without the name it is the default of."""
    return states_default(text) and not is_prose(text)


def _asks_default(question: str, wanted: Collection[str]) -> bool:
    """Whether a bare "Default: 4." may answer ``question``: it asks the default, or what
    value something takes (not how to set it)."""
    if "default" in wanted:
        return True
    return _ASKS_VALUE.match(asks(question)) is not None and not is_how_to(question)


def is_how_to(question: str) -> bool:
    """Whether the question asks how to do something (its answer may be code): it says so,
    or it asks nothing but states a problem or a wish ("the service ignores my environment",
    "I want the UI under /sync"), whose answer is what to do about it."""
    return _HOW_TO.search(question) is not None or "?" not in question


async def extract(
    question: str,
    sources: Sequence[Source],
    grader: EmbeddingGrader,
    *,
    limit: int = 3,
    floor: float = 0.3,
    lexicon: Lexicon | None = None,
    support: Sequence[float] | None = None,
    support_weight: float = SUPPORT_WEIGHT,
) -> tuple[str, list[Pick]]:
    """Answer text with a marker after each run of sentences, and the units picked.

    ``sources`` come best first. Only sentences that score at least ``floor``
    are used; with none, the answer is empty (nothing relevant). Picks are shown
    in source order, then in reading order, so that they read as written.
    ``support``, per source, is how well its passage as a whole answers (its grade plus
    its evidence): a sentence of a weaker passage loses ``support_weight`` times the gap.
    """
    wanted = question_terms(question)
    default_asked = _asks_default(question, wanted)

    def asked(text: str) -> set[str]:
        return set(wanted).intersection(terms(text))

    read = [asked_tabs(units(source.text), source.text, asked) for source in sources]
    candidates: list[Pick] = []
    seen: set[str] = set()
    for rank, (source, found) in enumerate(zip(sources, read, strict=True)):
        for unit in found:
            key = " ".join(unit.text.casefold().split())
            if unit.kind == "code" or key in seen:
                continue
            # a bare "Default: 4." answers only what the default (or the value) is
            if not (unit.quotable or (default_asked and _bare_default(unit.text))):
                continue
            seen.add(key)
            candidates.append(
                Pick(rank, unit.start, unit.text, source.id, 0.0, unit.kind, unit.term)
            )
    if not candidates:
        return "", []
    # scored as a reader sees them: cross-reference markup and link targets dilute a
    # sentence's embedding and lend it the terms of dotted paths it never says (a
    # description is scored without its name: a name heading shares words with questions
    # about its neighbours, "rustc-env" with "which rustc"; but a bare "Default: 4." is
    # nothing without it)
    said = [
        plain(f"{c.term} {c.text}" if c.term and _bare_default(c.text) else c.text)
        for c in candidates
    ]
    scores = await _relevance(question, said, grader, lexicon)
    ask = asks(question)
    if ask != question.strip():
        # "I enabled X. How do I check Y?": the sentence before says what the asker has,
        # the question what they want; it counts twice, so sentences about X do not win
        asked_scores = await _relevance(ask, said, grader, lexicon)
        scores = [(s + a) / 2 for s, a in zip(scores, asked_scores, strict=True)]
    if support:
        # a sentence that echoes the question's words in a neighbouring section must not
        # outrank the answering sentence of the passage that answers as a whole
        best = max(support)
        scores = [
            s - support_weight * (best - support[c.source_rank])
            for s, c in zip(scores, candidates, strict=True)
        ]
    ranked = sorted(
        (
            Pick(c.source_rank, c.start, c.text, c.source_id, s, c.kind, c.term)
            for c, s in zip(candidates, scores, strict=True)
        ),
        key=lambda p: -p.score,
    )
    if not ranked or ranked[0].score < floor:
        return "", []
    log.debug("extract: %s", [(round(p.score, 3), p.source_rank, p.text[:60]) for p in ranked[:8]])
    how_to = is_how_to(question)
    picked = _Picked(
        ranked,
        sources,
        read,
        limit=limit,
        floor=floor,
        lexicon=lexicon,
        how_to=how_to,
        lift=_section_lift(sources, support, support_weight),
        wanted=wanted,
    )
    picked.read_around(ranked[0])
    for pick in ranked[1:]:
        if picked.full or pick.score < floor:
            break
        if how_to and picked.procedure not in (None, pick.source_rank):
            # the steps of a procedure, first to last, answer how; other sections' sentences
            # that score lower only dilute them
            continue
        picked.add_leaning(pick)
        if pick.kind == "sentence":
            picked.read_paragraph(pick)
        if pick.text.rstrip().endswith(":"):
            # what it announces carries on to the end of its bullet ("This has two drawbacks:")
            picked.read_block(pick)
    if how_to:
        picked.read_overrides()
        picked.show_code(ranked[0], set(wanted))
    elif not any(p.kind == "code" for p in picked.chosen):
        # not asked how, code is shown only where it names a good share of the question
        # (a key's default in the defaults listing, a signature's parameter)
        picked.show_code(ranked[0], set(wanted), least=SIGNATURE_SHARE)
    picked.carry_on()
    picked.show_announced()
    picked.read_deprecations()
    chosen = _once(sorted(picked.chosen, key=lambda p: (p.source_rank, p.start)))
    # code left out between two sentences does not part them: they read on for the reader
    position = {
        (r, u.start): i
        for r, found in enumerate(read)
        for i, u in enumerate(u for u in found if u.kind != "code")
    }
    return _cited(chosen, position), chosen


class _Picked:
    """The units chosen so far; a list brought in by the sentence announcing it counts once."""

    def __init__(
        self,
        ranked: Sequence[Pick],
        sources: Sequence[Source],
        read: Sequence[Sequence[Unit]],
        *,
        limit: int,
        floor: float,
        lexicon: Lexicon | None,
        how_to: bool,
        lift: Sequence[float] = (),
        wanted: Collection[str] = (),
    ) -> None:
        self.how_to = how_to
        self.wanted = set(wanted)
        self.lift = list(lift) or [0.0] * len(sources)
        self.lexicon = lexicon
        self.texts = [source.text for source in sources]
        self.ids = [source.id for source in sources]
        self.titles = [source.title for source in sources]
        self.urls = [source.url for source in sources]
        self.offsets = [source.locator.start or 0 for source in sources]
        self.limit = limit
        self.floor = floor
        self.read = read
        self.scored = {(p.source_rank, p.start): p for p in ranked}
        self.chosen: list[Pick] = []
        self.counted = 0
        #: the source whose steps were quoted to the last, if any: a how-to answer is done
        self.procedure: int | None = None

    @property
    def full(self) -> bool:
        return self.counted >= self.limit

    def has(self, rank: int, start: int) -> bool:
        return any(p.source_rank == rank and p.start == start for p in self.chosen)

    def add(self, pick: Pick, *, counts: bool = True) -> None:
        if self.has(pick.source_rank, pick.start):
            return
        self.chosen.append(pick)
        self.counted += counts
        if pick.kind != "code" and pick.text.rstrip().endswith(":"):
            self._announced(pick)
        elif pick.kind == "sentence" and opens_steps(pick.text):
            self._steps(pick)
        elif pick.kind == "sentence" and later_step(pick.text):
            self._earlier_steps(pick)
        elif pick.kind == "item" and _GOES_ON.search(pick.text):
            self._runs_on(pick)
        if pick.kind == "item":
            self._lead_in(pick)

    def _lead_in(self, item: Pick) -> None:
        """The sentence announcing the list ``item`` is in ("The following files are always
        included and cannot be excluded:"), which brings the list: quoted alone, an item
        loses what it is a case of, and the answer what the list says as a whole."""
        order = self.read[item.source_rank]
        at = _index(order, item)
        while at > 0 and order[at - 1].kind == "item" and not order[at - 1].announces:
            at -= 1
        if at == 0 or not order[at - 1].announces:
            return
        lead = order[at - 1]
        if HEADING_LINE.search(self.texts[item.source_rank][lead.end : order[at].start]):
            return
        said = self.scored.get((item.source_rank, lead.start))
        if said is not None:
            self.add(said, counts=False)

    def _runs_on(self, item: Pick) -> None:
        """The item after one that ends in "or", "and" or a comma: one sentence in two bullets
        ("Make sure the proxy sets the header, or" then "Set the option instead")."""
        order = self.read[item.source_rank]
        at = _index(order, item)
        if at + 1 < len(order) and order[at + 1].kind == "item":
            after = order[at + 1]
            more = self.scored.get((item.source_rank, after.start))
            self.add(more or _unit_pick(item, after), counts=False)

    def _order(self, rank: int) -> list[Unit]:
        """The source's units that may be shown: code, and prose that was scored."""
        return [u for u in self.read[rank] if u.kind == "code" or (rank, u.start) in self.scored]

    def _placed(self, pick: Pick) -> tuple[list[Unit], int]:
        """The units that may be shown of ``pick``'s source, and where ``pick`` is among them."""
        order = self._order(pick.source_rank)
        return order, _index(order, pick)

    def _announced(self, lead: Pick) -> None:
        """The list, or the short code block, that a sentence ending in a colon introduces."""
        order = self.read[lead.source_rank]
        at = _index(order, lead)
        following = order[at + 1 :]
        if following and following[0].kind == "code":
            # another section's example is noise unless the question asks how to do it
            home = not self.chosen or lead.source_rank == self.chosen[0].source_rank
            if _short(following[0].text) and (home or self.how_to):
                self.add(_unit_pick(lead, following[0]), counts=False)
                self._variant(lead, following[0], following[1:])
            return
        for unit in following[:LIST_ITEMS]:
            if unit.kind != "item":
                return
            self.add(_unit_pick(lead, unit), counts=False)

    def _variant(self, lead: Pick, shown: Unit, after: Sequence[Unit]) -> None:
        """For a how-to answer, the sentence right after a shown block when it announces a
        block of its own and names the question's terms (:data:`VARIANT_SHARE`): the
        variant the docs give next ("To only build specific targets, use the `-t` option:"
        after a bare `hatch build`), which scores below the lead-in it follows."""
        if not self.how_to or len(after) < 2 or after[0].kind != "sentence":
            return
        sentence, block = after[0], after[1]
        pick = self.scored.get((lead.source_rank, sentence.start))
        if (
            pick is None
            or block.kind != "code"
            or not _short(block.text)
            or not pick.text.rstrip().endswith(":")
            or pick.score < self.floor
            or self.shared(pick, self.wanted) < VARIANT_SHARE
            or HEADING_LINE.search(self.texts[lead.source_rank][shown.end : sentence.start])
        ):
            return
        self.add(pick, counts=False)

    def _steps(self, lead: Pick) -> None:
        """The steps after a sentence that opens them ("… in three steps. First … Then …
        Finally …"): a later step shares few of the question's words, yet the answer is all
        of them, so they count as one."""
        order, at = self._placed(lead)
        text = self.texts[lead.source_rank]
        for before, unit in pairwise(order[at:]):
            pick = self.scored.get((lead.source_rank, unit.start))
            if (
                pick is None
                or pick.kind != "sentence"
                or HEADING_LINE.search(text[before.end : unit.start])
                or not (next_step(pick.text) or opens_steps(pick.text))
            ):
                return
            # a step that would have been picked on its own counts as it would have
            self.add(pick, counts=pick.score >= self.floor)
            if last_step(pick.text):
                self.procedure = lead.source_rank
                return

    def _earlier_steps(self, later: Pick) -> None:
        """The steps before a later one ("Second, …" needs "First of all, …"), back to the
        first step of its section: quoted alone, a second step reads as the first, and the
        first is often what the asker should check before anything else."""
        order, at = self._placed(later)
        text = self.texts[later.source_rank]
        steps: list[Pick] = []
        for unit, after in reversed(list(pairwise(order[: at + 1]))):
            if HEADING_LINE.search(text[unit.end : after.start]):
                return
            pick = self.scored.get((later.source_rank, unit.start))
            if pick is None or pick.kind != "sentence":
                continue
            if later_step(pick.text):
                steps.append(pick)
            elif first_step(pick.text):
                # placed, not added: the run they open is already being quoted
                for step in (pick, *reversed(steps)):
                    if not self.has(step.source_rank, step.start):
                        self.chosen.append(step)
                return

    def add_leaning(self, pick: Pick, *, best: bool = False) -> None:
        """``pick`` with the sentences before it that it leans on ("This …" means the one
        before it, or the last of the paragraph before when it opens a paragraph). The
        best may lean on two, which count; a later pick on one, which does not (it is
        context, and the answer's facts are what the limit is for)."""
        order, at = self._placed(pick)
        text = self.texts[pick.source_rank]
        back = at
        reach = REFERS_BACK if best else 1
        while (
            leans_back(pick.text)
            and back > 0
            and at - back < reach
            and order[back - 1].kind == "sentence"
        ):
            gap = text[order[back - 1].end : order[back].start]
            if HEADING_LINE.search(gap) or ("\n\n" in gap and back < at):
                break
            back -= 1
            if "\n\n" in gap:
                break
        for unit in order[back:at]:
            self.add(self.scored[(pick.source_rank, unit.start)], counts=best)
        if back == at and at > 0 and leans_back(pick.text):
            # "This tells the tool that …" right after a block is about that block
            block = order[at - 1]
            if (
                block.kind == "code"
                and _short(block.text)
                and not _DIAGRAM.match(block.text)
                and not HEADING_LINE.search(text[block.end : pick.start])
            ):
                self.add(_unit_pick(pick, block), counts=False)
        self.add(pick)

    def read_around(self, best: Pick) -> None:
        """The best unit in context: the sentences it leans on ("This …", "For example …"),
        then the relevant units after it (a best sentence often announces what follows, and
        what follows scores lower on its own), to the end of the bullet or admonition."""
        order, at = self._placed(best)
        self.add_leaning(best, best=True)
        lead = best
        for i, unit in enumerate(order[at + 1 :], start=at + 1):
            # what a sentence ending in a colon announces is its continuation, and is in
            if lead.kind != "code" and lead.text.rstrip().endswith(":"):
                break
            pick = self.scored.get((best.source_rank, unit.start))
            if pick is None or self.has(best.source_rank, unit.start):
                continue
            if pick.score < self.floor and not self.full:
                # "For example, … This can be written like this:" scores low on its own,
                # but it is how the best sentence is done, and it brings the code
                for step in self._example(best.source_rank, order, i):
                    self.add(step, counts=False)
                break
            # the items of a list are parallel facts, not a continuation of each other
            if self.full or (best.kind == pick.kind == "item"):
                break
            self.add(pick)
            lead = pick
        self.read_block(best)

    def read_paragraph(self, pick: Pick) -> None:
        """The rest of ``pick``'s paragraph while it stays on the question (each sentence at
        least the floor): a paragraph goes on with what its sentence leads to ("The Cargo home
        is a download cache. … You can alter its location by setting `CARGO_HOME`."), and
        the next sentence of a picked one, context rather than a fact of its own, does not
        count against the limit."""
        order, at = self._placed(pick)
        text = self.texts[pick.source_rank]
        for before, unit in pairwise(order[at:]):
            gap = text[before.end : unit.start]
            if unit.kind != "sentence" or "\n\n" in gap or HEADING_LINE.search(gap):
                return
            more = self.scored.get((pick.source_rank, unit.start))
            if more is None or more.score < self.floor:
                return
            self.add(more, counts=False)

    def _example(self, rank: int, order: Sequence[Unit], at: int) -> list[Pick]:
        """The sentences of source ``rank`` from ``order[at]`` on that each lean on the one
        before, when the last of them announces the code right after it; none otherwise."""
        run: list[Pick] = []
        for unit, after in pairwise(order[at:]):
            pick = self.scored.get((rank, unit.start))
            if pick is None or pick.kind != "sentence" or not leans_back(pick.text):
                return []
            run.append(pick)
            if pick.text.rstrip().endswith(":"):
                return run if after.kind == "code" else []
        return []

    def carry_on(self) -> None:
        """For each chosen sentence, the sentence right after it under the same heading when
        it carries on from it (:func:`~pipeline.text.carries_on`), in the next paragraph too
        ("No, it can't. …" then "So, if you need that, consider RAID."): what to do about a
        problem ("To force such values as strings, quote them.") shares few of the question's
        words, yet it answers the sentence that names the problem, and is part of it."""
        for pick in list(self.chosen):
            following = self._next_sentence(pick)
            if following is None:
                continue
            carried, gap = following
            if carries_on(carried.text) and not HEADING_LINE.search(gap):
                self.add(carried, counts=False)

    def _next_sentence(self, pick: Pick) -> tuple[Pick, str] | None:
        """The sentence right after sentence ``pick`` in its source, with the text between
        them; none when ``pick`` is not a sentence or the next unit is not one."""
        if pick.kind != "sentence":
            return None
        order, at = self._placed(pick)
        after = order[at + 1] if at + 1 < len(order) else None
        more = None if after is None else self.scored.get((pick.source_rank, after.start))
        if more is None or more.kind != "sentence":
            return None
        return more, self.texts[pick.source_rank][order[at].end : more.start]

    def show_announced(self) -> None:
        """The short block that each chosen sentence ending in a colon announces, once
        the code that shows how has been chosen: quoted without it, "You can list the
        active tasks using `active()`:" points at nothing."""
        for pick in list(self.chosen):
            if not pick.text.rstrip().endswith(":"):
                continue
            order = self.read[pick.source_rank]
            at = _index(order, pick)
            shown = order[at + 1] if at + 1 < len(order) else None
            if shown is not None and shown.kind == "code" and _short(shown.text):
                self.add(_unit_pick(pick, shown), counts=False)

    def read_overrides(self) -> None:
        """For each chosen sentence saying what happens by default, the next sentence of its
        paragraph when it names code the first does not: how to change the default ("This
        also creates a repository by default. If you don't want that, pass `--vcs none`.")."""
        for pick in list(self.chosen):
            following = self._next_sentence(pick) if _BY_DEFAULT.search(pick.text) else None
            if following is None:
                continue
            override, gap = following
            if "\n\n" not in gap and set(_CODE_SPAN.findall(override.text)) - set(
                _CODE_SPAN.findall(pick.text)
            ):
                self.add(override, counts=False)

    def read_deprecations(self) -> None:
        """Each quoted source's sentence saying that a name of the question, which the answer
        quotes from that source, is deprecated, with the next sentence of its paragraph (what
        to use instead): an answer that quotes how to use ``[replace]`` without its section's
        "`[replace]` is deprecated" looks checked and misleads."""
        for rank in sorted({p.source_rank for p in self.chosen}):
            quoted = {
                name.lower()
                for p in self.chosen
                if p.source_rank == rank and p.kind != "code"
                for name in _CODE_SPAN.findall(p.text)
                if self.wanted.intersection(terms(name))
            }
            order = self._order(rank)
            for at, unit in enumerate(order):
                pick = self.scored.get((rank, unit.start))
                if (
                    pick is None
                    or not _DEPRECATED.search(pick.text)
                    or quoted.isdisjoint(n.lower() for n in _CODE_SPAN.findall(pick.text))
                ):
                    continue
                self.add(pick, counts=False)
                after = order[at + 1] if at + 1 < len(order) else None
                if pick.kind != "sentence" or after is None:
                    continue
                more = self.scored.get((rank, after.start))
                gap = self.texts[rank][unit.end : after.start]
                if more is not None and more.kind == "sentence" and "\n\n" not in gap:
                    self.add(more, counts=False)

    def read_block(self, pick: Pick) -> None:
        """The rest of the bullet or admonition ``pick`` is in: one thought, whose later
        sentences, and the list one of them announces, carry on what the pick started
        ("… cached for future uses:", the code, then "This has two drawbacks:" and 1., 2.)."""
        order, at = self._placed(pick)
        text = self.texts[pick.source_rank]
        end = block_end(text, pick.start)
        # a content tab is read whole: its earlier steps set up the pick ("Save the script
        # somewhere:" and its code, before "Source the file in ~/.zshrc:"), as context
        begin = tab_start(text, pick.start)
        for unit in order[:at]:
            step = self.scored.get((pick.source_rank, unit.start))
            if unit.start >= begin and step is not None:
                self.add(step, counts=False)
        for unit in order[at + 1 :]:
            if unit.start >= end or self.full:
                break
            more = self.scored.get((pick.source_rank, unit.start))
            if more is not None:
                self.add(more)

    def show_code(self, best: Pick, wanted: set[str], *, least: float = 0.0) -> None:
        """The code that shows how: the block naming most of the question's (IDF-weighted)
        terms, with its section's title (a block under "GitHub Actions" is about GitHub
        Actions). The best sentence's section comes first, after it rather than before; then
        the sections the answer quotes, and any other retrieved section whose code names a
        good share of the question, cited for it: the prose that matches a how-to question
        best is often a pointer ("See this blog post"), and the setting that answers it is
        another section's block. A section is all its retrieved chunks (its code is often in
        another chunk than its best sentence), and of blocks naming as much, the one whose
        lead-in ("… using the `f()` function:") answers best comes first. A block naming
        more than the one shown (or than the code a sentence announced) comes with it, once.
        Only blocks naming at least ``least`` of the question are shown."""
        home = self.urls[best.source_rank]
        sections = {home, *(self.urls[p.source_rank] for p in self.chosen)}
        blocks = [
            (rank, unit, self.shared(unit, wanted, self.titles[rank]))
            for rank, found in enumerate(self.read)
            for unit in found
            if unit.kind == "code"
            and _short(unit.text)
            and not _DIAGRAM.match(unit.text)
            and not self.has(rank, unit.start)
        ]
        blocks = [
            b
            for b in blocks
            if (self.urls[b[0]] in sections or b[2] >= SIGNATURE_SHARE) and b[2] >= least
        ]
        shown = [
            self.shared(p, wanted, self.titles[p.source_rank])
            for p in self.chosen
            if p.kind == "code"
        ]
        # of blocks naming as much, the one whose section's quoted prose answers best
        quoted: dict[str, float] = {}
        for pick in self.chosen:
            url = self.urls[pick.source_rank]
            quoted[url] = max(quoted.get(url, 0.0), pick.score)
        at = self.offsets[best.source_rank] + best.start
        # a lead-in that answers about as well as the best sentence
        led = best.score - LEAD_MARGIN

        def order(block: tuple[int, Unit, float]) -> tuple[int, float, float, float, bool, int]:
            rank, unit, share = block
            ours = self.urls[rank] == home
            tier = _code_tier(ours, share, self.follows_chosen(rank, unit, led))
            where = self.offsets[rank] + unit.start if ours else unit.start
            return (
                tier,
                -share,
                -quoted.get(self.urls[rank], 0.0),
                -self.lead(rank, unit),
                where < at,
                abs(where - at),
            )

        # code another section's sentence brought along (its announced example, the output
        # it explains) shows how to do that section's thing, not what the best one says
        home_shown = any(p.kind == "code" and self.urls[p.source_rank] == home for p in self.chosen)
        if not home_shown and blocks:
            rank, unit, share = min(blocks, key=order)
            if self.urls[rank] != home and not share and not self.follows_chosen(rank, unit, led):
                return
            self._show(rank, unit)
            shown.append(share)
        more = [b for b in blocks if b[2] > max(shown, default=0.0)]
        if more:
            rank, unit, _ = min(more, key=lambda b: (-b[2], *order(b)[2:]))
            self._show(rank, unit)

    def _show(self, rank: int, unit: Unit) -> None:
        """Code ``unit`` of source ``rank``, with the sentence that announces it when there
        is one ("You can check progress with the `jobs()` function:"): what it shows."""
        self.add(self._shown(rank, unit), counts=False)
        at = self._announcer(rank, unit)
        said = None if at is None else self.scored.get((rank, self.read[rank][at].start))
        if said is not None:
            self.add(said, counts=False)

    def _announcer(self, rank: int, unit: Unit) -> int | None:
        """Where among source ``rank``'s units is the sentence announcing code ``unit``: the
        one right before it, ending in a colon, under the same heading."""
        order = self.read[rank]
        at = next(i for i, u in enumerate(order) if u.start == unit.start)
        if not at or not order[at - 1].announces:
            return None
        if HEADING_LINE.search(self.texts[rank][order[at - 1].end : unit.start]):
            return None
        return at - 1

    def lead(self, rank: int, unit: Unit) -> float:
        """How well the paragraph announcing code ``unit`` answers: the best score of its
        sentences (as its section's best chunk would score them); zero for a block nothing
        announces."""
        order = self.read[rank]
        text = self.texts[rank]
        at = self._announcer(rank, unit)
        best = 0.0
        for i in range(-1 if at is None else at, -1, -1):
            pick = self.scored.get((rank, order[i].start))
            best = max(best, pick.score + self.lift[rank] if pick is not None else 0.0)
            gap = text[order[i - 1].end : order[i].start] if i else ""
            if not i or order[i - 1].kind == "code" or "\n\n" in gap or HEADING_LINE.search(gap):
                break
        return best

    def follows_chosen(self, rank: int, unit: Unit, least: float) -> bool:
        """Whether code ``unit`` comes right after a quoted sentence of its section that
        scored at least ``least``, under the same heading: the command that does what a
        sentence answering as well as the best one says."""
        order = self.read[rank]
        at = next(i for i, u in enumerate(order) if u.start == unit.start)
        lead = order[at - 1] if at else None
        if lead is None or lead.kind == "code":
            return False
        said = next(
            (p for p in self.chosen if p.source_rank == rank and p.start == lead.start), None
        )
        if said is None or said.score < least:
            return False
        return not HEADING_LINE.search(self.texts[rank][lead.end : unit.start])

    def _shown(self, rank: int, unit: Unit) -> Pick:
        """``unit`` of source ``rank`` shown for what it is (code), cited as its source."""
        lead = next((p for p in self.chosen if p.source_rank == rank), None)
        if lead is not None:
            return _unit_pick(lead, unit)
        return Pick(rank, unit.start, unit.text, self.ids[rank], 0.0, unit.kind, unit.term)

    def shared(self, unit: Unit | Pick, wanted: set[str], title: str = "") -> float:
        """The IDF-weighted share of the question's terms a unit (or its title) names."""
        if not wanted:
            return 0.0
        lexicon = self.lexicon
        if lexicon is not None:
            # a term no chunk has cannot be named by any code: it only says the docs lack it
            wanted = {t for t in wanted if lexicon.known(t)}
        found = wanted & set(terms(f"{title}\n{unit.text}"))
        weight = lexicon.idf if lexicon is not None else (lambda _: 1.0)
        return sum(weight(t) for t in found) / (sum(weight(t) for t in wanted) or 1.0)


def _code_tier(home: bool, share: float, follows: bool) -> int:
    """Which block a how-to answer shows first (lowest): the best section's own code, unless
    it names none of the question and another block names a good share of it; then the block
    a quoted sentence leads straight into ("You can run three replicas of each pod." over
    ``dapr init -k --enable-ha=true``); then any other."""
    if home and share:
        return 0
    if share >= SIGNATURE_SHARE:
        return 1
    if home:
        return 2
    return 3 if follows else 4


def _section_lift(
    sources: Sequence[Source], support: Sequence[float] | None, weight: float
) -> list[float]:
    """Per source, what its sentences lost for its passage's support below that of the best
    retrieved chunk of its section: the chunks of one section are one answer, whose lead-ins
    compare as written, not as well as the chunk they fell into was retrieved."""
    if not support:
        return [0.0] * len(sources)
    best: dict[str, float] = {}
    for source, grade in zip(sources, support, strict=True):
        best[source.url] = max(best.get(source.url, grade), grade)
    return [weight * (best[s.url] - g) for s, g in zip(sources, support, strict=True)]


def _index(order: Sequence[Unit], pick: Pick) -> int:
    return next(i for i, u in enumerate(order) if u.start == pick.start)


def _short(code: str) -> bool:
    return len(code) <= CODE_CHARS and code.count("\n") + 1 <= CODE_LINES


def _unit_pick(lead: Pick, unit: Unit) -> Pick:
    """A unit shown because of ``lead`` (the list it announces, the code that shows how)."""
    return Pick(
        lead.source_rank, unit.start, unit.text, lead.source_id, lead.score, unit.kind, unit.term
    )


def _once(chosen: list[Pick]) -> list[Pick]:
    """``chosen`` without a unit another one already says: documents repeat a paragraph on
    two pages, once as a sentence and once inside a list item, and the answer would say it
    twice."""
    said = [" ".join(p.text.casefold().split()) if p.kind != "code" else "" for p in chosen]

    def repeated(i: int) -> bool:
        return bool(said[i]) and any(
            j != i and said[i] in other and (said[i] != other or j < i)
            for j, other in enumerate(said)
        )

    return [p for i, p in enumerate(chosen) if not repeated(i)]


def _cited(picks: Sequence[Pick], position: dict[tuple[int, int], int]) -> str:
    """The picks in reading order with one marker after each run of consecutive units of
    one source. List items go one to a line; code is a block with its marker after it."""
    out = ""
    for i, pick in enumerate(picks):
        before = picks[i - 1] if i else None
        after = picks[i + 1] if i + 1 < len(picks) else None
        if pick.kind == "code":
            block = pick.text.startswith(("```", "~~~"))
            out += ("\n\n" if out else "") + pick.text
            out += f"\n[{pick.source_id}]" if block else _marker(out, pick.source_id)
            continue
        if before is None:
            pass
        elif pick.kind == "item":
            out += "\n"
        elif before.kind != "sentence":
            out += "\n\n"
        else:
            out += " "
        out += "- " if pick.kind == "item" else ""
        # the name is said once: by the unit before it that has the same name, or by the
        # name's own block shown right above it
        said = before is not None and (
            (before.term == pick.term and _next(before, pick, position))
            or (
                before.kind == "code"
                and before.source_rank == pick.source_rank
                and pick.term in before.text
            )
        )
        if pick.term and not said:
            out += f"`{pick.term}`: "
        # a document's own "[2]" would read as this answer's footnote 2
        out += _flat(outside_code(_closed_code(shown(pick.text)), without_markers))
        if after is None or after.kind == "code" or not _next(pick, after, position):
            out += _marker(out, pick.source_id)
    return out


def _marker(text: str, source_id: int) -> str:
    """The marker that follows ``text``: on a line of its own after a list item's closing
    fence, which closes only standing alone (``` [1] would leave the block, and every marker
    after it, open)."""
    last = text[text.rfind("\n") + 1 :].strip()
    fence = len(last) >= 3 and (set(last) == {"`"} or set(last) == {"~"})
    return f"\n[{source_id}]" if fence else f" [{source_id}]"


def _next(first: Pick, second: Pick, position: dict[tuple[int, int], int]) -> bool:
    """Whether ``second`` is the unit right after ``first`` in the same source."""
    at = position.get((first.source_rank, first.start))
    return (
        first.source_rank == second.source_rank
        and at is not None
        and position.get((second.source_rank, second.start)) == at + 1
    )


def _flat(sentence: str) -> str:
    return " ".join(sentence.split())


def _closed_code(sentence: str) -> str:
    """``sentence`` without the backtick runs that no run of as many closes (reStructuredText's
    `` `name <url>`_ `` cut at a sentence's end): CommonMark reads those as text (and so does
    the citation stream), but shown alone they are markup left over, not words."""
    parts = _TICKS.split(sentence)
    kept: list[str] = []
    k = 0
    while k < len(parts):
        part = parts[k]
        if k % 2 == 0:
            kept.append(part)
            k += 1
            continue
        close = next((j for j in range(k + 2, len(parts), 2) if parts[j] == part), None)
        if close is None:
            k += 1
            continue
        kept.extend(parts[k : close + 1])
        k = close + 1
    return "".join(kept)
