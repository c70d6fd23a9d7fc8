"""The development sets ``test_devsets_eval.py`` evaluates, and the floors each must meet.

Each set's floors sit just under what was measured on it; the comment above them is that
history (what was measured when, and which change moved it). What a set is, and what only it
checks, is in its own ``test_devsetN_eval.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

TESTS = Path(__file__).parents[1]


@dataclass(frozen=True, slots=True)
class Floors:
    """The least share of a set's questions each measure of issue 12 must reach (every set
    must also answer no off-topic question)."""

    hit_at_k: float
    cited_right: float
    fact_stated: float
    #: the share of uncovered questions answered "I couldn't find this" with no source
    uncovered: float
    #: the share of answerable questions whose first footnote is a labelled section (what the
    #: reader is shown first); measured at 489667c, where the passages kept are ordered by
    #: their closeness too (session 16; before it, at 831bb7f: 85.0, 63.2, 60.0, 58.0, 53.7,
    #: 66.7, 65.3, 64.4, 53.6 and 46.4% in the order of the sets below; after: 86.7, 68.4,
    #: 65.0, 66.7, 54.7, 69.0, 66.3, 67.3, 52.4 and 53.6%)
    first_footnote_right: float


@dataclass(frozen=True, slots=True, repr=False)
class DevSet:
    name: str
    folder: Path
    url_base: str
    floors: Floors
    #: seconds for the floors test, whose setup ingests and evaluates the whole set
    timeout: int = 900
    #: the label check came with devset4; the sets before it were never held to it
    labels_checked: bool = True
    #: whether the default run evaluates the set; the largest are evaluated when
    #: ``CITEBOT_ALL_DEVSETS=1`` (as ``.ci/run`` sets it), so the default run stays under ten
    #: minutes on two cores
    every_run: bool = True

    def __repr__(self) -> str:
        # the name is what tells sets apart in --setup-show and in a failed floor's report
        return f"DevSet({self.name!r})"


def _held_out(
    name: str,
    floors: Floors,
    timeout: int = 900,
    labels_checked: bool = True,
    every_run: bool = True,
) -> DevSet:
    # a held-out set keeps the site its pages came from beside them, as the questions name it
    url_base = (TESTS / name / "URL_BASE").read_text(encoding="utf-8").strip()
    return DevSet(name, TESTS / name, url_base, floors, timeout, labels_checked, every_run)


_SETS = (
    DevSet(
        "devset",
        TESTS / "devset",
        "https://www.starlette.io/",
        # Measured when set (offline, MiniLM): hit@6 98%, cited right 90%, fact stated 86.7%,
        # 20/20 uncovered and 5/5 off-topic clean (18/20 before numbers had to be in the cited
        # passage). Before the evidence check: 83%, 68%, 0/20, 3/5; before extraction read on
        # past the chunk and showed code: 90%, 71.7%. Since extraction reads documentation
        # markup and irregular past forms stem with their verbs ("wrote"): cited 91.7%, fact
        # 88.3%. Since code/table answers and a passage's support in sentence choice: 95.0%,
        # 93.3%. Since code naming a good share of a question not asking how is shown: cited
        # 96.7%. Since a chunk that starts inside a code block reads its closing fence as one
        # (session 12): fact 95.0%. Since a chunk cut from the middle of a code block quotes
        # none of it (session 30): cited 96.7%, the one lost having cited its section only
        # through a test fixture's code read as a sentence.
        Floors(
            hit_at_k=0.95,
            cited_right=0.96,
            fact_stated=0.95,
            uncovered=0.9,
            first_footnote_right=0.85,
        ),
        labels_checked=False,
    ),
    DevSet(
        "devset2",
        TESTS / "devset2",
        "https://click.palletsprojects.com/en/stable/",
        # Measured (offline, MiniLM): hit@6 100%, cited right 84%, fact stated 68.4% (63% before
        # table rows were units), 11/11 uncovered and 2/2 off-topic clean; 9/11 before
        # unknown-to-the-model words ("async") weighed as names and amount questions ("is
        # there a limit") needed an amount; cited right 74%, fact 58% before passages within
        # 0.25 of a barely-correct best grade contributed. Before the per-passage evidence the
        # same 9/11 (a different question leaked: "YAML" before, "async" after); before the
        # extraction that reads on past the chunk: cited right 79%, fact stated 53%. Since
        # irregular past forms and -uration / -ity nouns stem with their verbs ("wrote",
        # "verbosity"): cited right 89.5%, fact 73.7%.
        Floors(
            # with 7-bit weights, as on x86 CPUs without VNNI (session 37): hit@6 100.0%, cited
            # right 94.7%, fact 89.5%, 11/11 uncovered, first footnote 68.4%; floors
            # a point under it where it is lower
            hit_at_k=0.95,
            # since reST in {eval-rst} has its tabs and code read as such: cited right 89.5%;
            # "yes or no" searched as "confirm" (session 19, main 308bc44): 94.7%, fact 94.7%
            cited_right=0.93,
            fact_stated=0.88,
            uncovered=0.95,
            first_footnote_right=0.67,
        ),
        timeout=600,
        labels_checked=False,
    ),
    _held_out(
        "devset3",
        # Measured when set (offline, MiniLM, main at 73788b3): hit@6 83.3%, MRR 0.722, cited
        # right 68.3%, fact stated 55.0%, 9/20 uncovered and 4/4 off-topic clean. Well below
        # tests/devset's figures (98%, 90%, 86.7%, 20/20) on questions nobody tuned for: these
        # floors catch a regression; the gap is the work (the table lists every miss).
        # Then (main at 4b59c6f + names no chunk has leave no passage carrying): cited right
        # 68.3%, fact stated 56.7%, 14/20 uncovered clean. Then (names matched as spelled, code
        # names in the passage itself, int8 vectors independent of their batch): cited 70.0%,
        # fact 56.7%, 16/20 uncovered clean; and an amount stated about what is asked: 17/20.
        # Then (definition lists with their term, cross-references scored as their titles,
        # chunks opening mid-thought read back, bullets read to their end): cited 70.0%, fact
        # stated 68.3%. Then (links read as their text, names of several words): 18/20.
        # Titles in the full-text index and a pool of 6 x 16: hit@6 83.3 -> 90.0%. A name only
        # a link's text gives is not one the docs cover (Sentry): 19/20. Since a chunk that
        # starts inside a code block reads its closing fence as one (session 12): cited 86.7
        # -> 85.0%, fact 78.3 -> 75.0%: two facts and a citation had come from a configure()
        # call read as a sentence ("logger_factory=…, cache_logger_on_first_use=True").
        # "below INFO" searched as "filter" and "level" (session 19, main 308bc44): cited
        # 86.7%, fact 76.7%.
        Floors(
            # with 7-bit weights, as on x86 CPUs without VNNI (session 37): hit@6 88.3%, cited
            # right 81.7%, fact 73.3%, 20/20 uncovered, first footnote 61.7%; floors
            # a point under it where it is lower
            hit_at_k=0.87,
            cited_right=0.8,
            # since a chosen sentence brings the next one that carries on from it and the
            # short block it announces (session 34): fact 78.3%
            fact_stated=0.72,
            uncovered=0.95,
            first_footnote_right=0.6,
        ),
        timeout=600,
        labels_checked=False,
    ),
    _held_out(
        "devset4",
        # Measured when set (offline, MiniLM, main at 4c8aec2, questions committed before the
        # first run): hit@6 93.8%, MRR 0.748, cited right 76.5%, fact stated 58.0%, 11/22
        # uncovered and 4/4 off-topic clean (devset3 in the same run: 83.3%, 68.3%, 55.0%,
        # 14/20). These floors catch a regression; the gap to issue 12's acceptance is the work
        # (tests/devset4/ANALYSIS.md classes every miss). Since links are read as their text
        # and names of several words must be written together (main at 509112c): cited 77.8%,
        # fact 60.5%, 14/22 uncovered clean. Since identifiers name their words and a
        # leading-dot file name is a name: cited 79.0%, fact 61.7%, 15/22. Titles in the
        # full-text index and a pool of 6 x 16: hit@6 95.1 -> 97.5%, cited 77.8%, fact 63.0%.
        # Since extraction shows the code a question names unasked and how to change a
        # default: cited 90.1%, fact 79.0%. Since a name the asker says they do not use ("not
        # __version__") need not be in the passage (measured on main before the sentence
        # choice above): cited 91.4%, fact 80.2%; both together (main e0edf87): cited 91.4%,
        # fact 81.5%.
        Floors(
            hit_at_k=0.96,
            cited_right=0.93,
            # since extraction reads content tabs and lead-ins with what they announce: fact
            # 72.8%; since a passage's clear lead in support counts twice in sentence choice:
            # fact 80.2%; with headless table rows quoted whole (session 11, 0852d04) a wheel
            # option's row outranks the "-t/--target" sentence: fact 88.9 -> 87.7%; since a
            # shown block brings the variant announced right after it (session 12, 5d33e6c),
            # `hatch build -t wheel` follows the bare `hatch build`: fact 88.9%; with "env" read as
            # "environment" (session 18, chat clippings): 90.1%
            # since a chosen sentence brings the next one that carries on from it and the
            # short block it announces (session 34): fact 91.4%
            fact_stated=0.91,
            # a question how to run something as a thing needs a passage naming it (session
            # 13: a pre-commit hook, a Jupyter kernel): 17/22
            uncovered=0.77,
            first_footnote_right=0.65,
        ),
    ),
    _held_out(
        "devset5",
        # Measured when set (offline, MiniLM, main at 045acd8, questions committed before the
        # first run): hit@6 76.8%, MRR 0.556, cited right 60.0%, fact stated 36.8%, 12/23
        # uncovered and 4/4 off-topic clean. These floors catch a regression; the gap to issue
        # 12's acceptance is the work (tests/devset5/ANALYSIS.md classes every miss). Raised
        # after names only in code blocks, British spellings and the subject's hyphenated tools
        # (answerability, session 7): cited 63.2%, fact 45.3%, uncovered 17/23. With extraction
        # showing the example a sentence leads into, the block "This …" follows and how to
        # change a default (main 1feaec2 + feebfe8): fact 49.5%.
        Floors(
            # with 7-bit weights, as on x86 CPUs without VNNI (session 37): hit@6 78.9%, cited
            # right 71.6%, fact 69.5%, 17/23 uncovered, first footnote 56.8%; floors
            # a point under it where it is lower
            # chat phrasings searched in the documentation's words too ("newest": latest;
            # session 14, d268ef2): hit@6 78.9%, MRR 0.621, cited 71.6%; passages within 0.15
            # of the evidence threshold adding sentences (session 18; clearing the download
            # cache): 73.7%
            hit_at_k=0.77,
            cited_right=0.7,
            # a name heading's description quoted with its name (session 8, extraction, main
            # 665bd1e): fact stated 51.6%; eight-sentence answers (session 10): 66.3%; since
            # "override" matches "overrides" (session 11, cbb18bd's stem fix) the "[replace] is
            # deprecated" note loses its place to sentences on overrides: 65.3%; each of the best
            # sources read with the chunk before it in its section (session 18): 68.4%; and
            # passages within 0.15 of the threshold adding sentences: 69.5%
            fact_stated=0.68,
            # a question whether there is a thing needs a passage naming it (session 13): 18/23
            uncovered=0.72,
            first_footnote_right=0.53,
        ),
    ),
    _held_out(
        "devset6",
        # Measured when set (offline, MiniLM, main at 70e43a1, questions committed before the
        # first run): hit@6 95.4%, MRR 0.818, cited right 79.3%, fact stated 47.1%, 19/22
        # uncovered and 4/4 off-topic clean. These floors catch a regression; the gap to issue
        # 12's acceptance is the work (tests/devset6/ANALYSIS.md classes every miss).
        # With HTML read as the Markdown it stands for (session 7, the lead, who reads this
        # set; the reader's author did not): hit@6 94.3% (one question fewer), MRR 0.809, cited
        # right 81.6%, fact stated 59.8%, 19/22 and 4/4 clean. A setting's name in a <dt>
        # read as the term of its description (session 8, formats): cited 82.8%, fact 64.4%.
        # Since a passage's clear lead in support counts twice in sentence choice: fact 65.5%.
        # An amount the asker says they have ("has 512MB of RAM") is no number to match, and a
        # rough count ("a few hundred KB/s") no term (answerability, measured at 7b68b64 before
        # the sentence choice): cited 85.1%, fact 65.5%; both together (main e0edf87): 85.1%,
        # 69.0%.
        Floors(
            # with 7-bit weights, as on x86 CPUs without VNNI (session 37): hit@6 93.1%, cited
            # right 83.9%, fact 75.9%, 19/22 uncovered, first footnote 66.7%; floors
            # a point under it where it is lower
            hit_at_k=0.92,
            cited_right=0.82,
            # option descriptions quoted with their names, run-on bullets, "what do I change"
            # as a how-to (session 8, extraction, main 665bd1e): fact stated 67.8%, cited 82.8%;
            # the chunk before each best source read too (session 18): 80.5%; a question
            # whether something can be done needing support 0.92 (session 20) refuses three
            # answered from the right section (hogging all four cores, reflinks on btrfs, where
            # Prometheus scrapes it: support 0.86 to 0.87) and stops five leaks on other sets:
            # cited 89.7 -> 86.2%, fact 77.0%, first footnote right 69.0 -> 65.5%
            fact_stated=0.74,
            # a time of day asked as one the docs state in their own way (session 26: "7:30am"
            # is "7:30 a.m.") lets "sync at night, between 1am and 6am" through, on the
            # nightly builds "published at midnight": 19 -> 18/22, while four answers on
            # other sets gain; a question which licence needs a passage that names one (session
            # 33): 19/22
            uncovered=0.85,
            first_footnote_right=0.65,
        ),
    ),
    _held_out(
        "devset7",
        # Measured when set (offline, MiniLM, main at 4d11659, questions committed before the
        # first run): hit@6 92.1%, MRR 0.743, cited right 73.3%, fact stated 56.4%, 17/24
        # uncovered and 4/4 off-topic clean. At b3740a6 (.mdx read): 91.1%, 0.740, 74.3%, 59.4%,
        # 17/24. At 7b68b64 (a .md page written for an MDX site read as MDX): 92.1%, 0.743,
        # 74.3%, 58.4%, 18/24, 4/4 (one fact lost, one leak fixed; ANALYSIS.md). The floors are
        # from 7b68b64, the newest main measured; they catch a regression, and the gap to issue
        # 12's acceptance is the work (tests/devset7/ANALYSIS.md classes every miss). Since code
        # is found in any chunk of its section, with its lead-in, and a stated problem asks how:
        # fact stated 61.4% (TZ=UTC, backups(), QDB_CAIRO_SQL_COPY_ROOT). With a key heading's
        # description quoted with its key (4636cb2): 93.1%, 0.759, 75.2%, 65.3%, 18/24, 4/4. The
        # asker's estimates, machine and dates as their situation, names only in links' text and
        # "what's the most …" as an amount question: +4 cited with fact, +2 clean (20/24).
        # Session 19 (main 308bc44; official eval at 656b165): an acronym need only be known
        # ("URL" only in code), a throwaway certificate is self-signed, "how much slower" is
        # performance, an expiring certificate is rotated: cited 83.2 -> 87.1%, fact 77.2 ->
        # 81.2%, hit@6 95.0%. A question whether something can be done needs support 0.92
        # (session 20): a stored procedure, full-text search and JSON columns get "I couldn't
        # find this" (23/24 uncovered clean).
        Floors(
            # with 7-bit weights, as on x86 CPUs without VNNI (session 37): hit@6 96.0%, cited
            # right 89.1%, fact 81.2%, 22/24 uncovered, first footnote 69.3%; floors
            # a point under it where it is lower
            hit_at_k=0.92,
            cited_right=0.86,
            fact_stated=0.80,
            uncovered=0.9,
            first_footnote_right=0.65,
        ),
    ),
    _held_out(
        "devset8",
        # Measured when set (offline, MiniLM, main at c25e7df, questions committed before the
        # first run): hit@6 93.1%, MRR 0.744, cited right 78.2%, fact stated 56.4%, 18/24
        # uncovered and 4/4 off-topic clean. The floors sit just under these figures; they catch
        # a regression, and the gap to issue 12's acceptance is the work
        # (tests/devset8/ANALYSIS.md classes every miss). With headless table rows quoted whole
        # (session 11, main 827db03): cited 89.1%, fact 76.2%. A question whether there is a
        # thing needs a passage naming it (session 13: the outbox pattern, a dead letter topic):
        # 20/24 uncovered clean; and one how to run it as a thing (a Windows service): 21/24.
        # The chunk before each best source read too, and passages within 0.15 of the evidence
        # threshold adding sentences (session 18; uploads over 4 MB): cited 90.1%, fact 78.2%.
        # "dev" read as "development" (session 19, main 861938e; podman on "our dev machines"):
        # cited 91.1%, fact 79.2%.
        Floors(
            # with 7-bit weights, as on x86 CPUs without VNNI (session 37): hit@6 92.1%, cited
            # right 87.1%, fact 81.2%, 21/24 uncovered, first footnote 62.4%; floors
            # a point under it where it is lower
            hit_at_k=0.91,
            cited_right=0.86,
            # since a chosen sentence brings the next one that carries on from it and the
            # short block it announces (session 34): fact 83.2%
            fact_stated=0.8,
            uncovered=0.86,
            first_footnote_right=0.61,
        ),
    ),
    _held_out(
        "devset9",
        # Measured when set (offline, MiniLM, main at eb4ee23, questions committed before the
        # first run): hit@6 88.1%, MRR 0.711, cited right 63.1%, fact stated 52.4%, 12/24
        # uncovered and 4/4 off-topic clean. The floors sit just under these figures; they catch
        # a regression, and the gap to issue 12's acceptance is the work
        # (tests/devset9/ANALYSIS.md classes every miss). Since answers quote up to eight
        # sentences and read on to the end of a picked sentence's paragraph (main at 10eefbe):
        # cited 72.6%, fact 63.1%. Since the asker's own setting values and disk size are their
        # situation, "v3" is "3.0", "p95" a percentile (cbb18bd), and headless table rows are
        # quoted whole (0852d04): cited 77.4%, fact 71.4%; with repeated headings titled by their
        # parents (827db03, main): hit@6 86.9% (one follow-up's section leaves the top 6),
        # MRR 0.717, cited 76.2%, fact 71.4%. A paragraph of one code span read as the usage line
        # its description names (479777a): fact 72.6%. A question whether there is a thing
        # needs a passage naming it (session 13: a Helm chart, a Terraform provider, anomaly
        # detection, a support contract): 16/24 uncovered clean. A question searched with the
        # documentation's words for its chat phrasings too ("by itself": automatic, "vanish":
        # persist; session 14, d268ef2): hit@6 89.3%, MRR 0.727, cited 78.6%, fact 75.0%.
        Floors(
            hit_at_k=0.88,
            cited_right=0.78,
            fact_stated=0.74,
            uncovered=0.66,
            first_footnote_right=0.51,
        ),
    ),
    _held_out(
        "devset10",
        # Measured when set (offline, MiniLM, questions committed before the first run): at main
        # eb4ee23 (with 920cb6a's fix, without which a question on these pages hung for minutes)
        # hit@6 85.7%, MRR 0.700, cited right 65.5%, fact stated 56.0%, 14/24 uncovered and 4/4
        # off-topic clean; at main 920cb6a cited 66.7%, fact 65.5%, the rest the same. The
        # floors sit just under these figures (tests/devset10/ANALYSIS.md classes every miss).
        # Since "404s" is 404 (cbb18bd) and headless table rows are quoted whole (0852d04; main
        # 827db03): hit@6 85.7%, MRR 0.694, cited 70.2%, fact 72.6%. A question how to run it as
        # a thing needs a passage naming it (session 13: a Windows service, a non-root user):
        # 16/24 uncovered clean; and one which thing is recommended (an Authelia setup): 17/24.
        # A tool named by what it is to do (session 14, c6fec77: converting nginx configs):
        # 18/24; with chat phrasings searched in the documentation's words: hit@6 86.9%, and
        # "how often" searched as "interval" (3a407a5): fact 73.8%; "how long" as "duration"
        # (how long a certificate choice is remembered): 75.0%. "config" read as
        # "configuration" (session 18, chat clippings; a dynamic config file's edits not
        # picked up): cited 71.4%, fact 76.2%. "prod" read as "production" (session 19,
        # api.insecure in production): cited 72.6%, fact 77.4%; a "mangled" hash searched as
        # "escape" (official eval at 9d11b2a): 73.8%, 78.6%. A question whether something can
        # be done needs support 0.92 (session 20): sending traces straight to Jaeger and caching
        # like Varnish get "I couldn't find this" (20/24), no answerable question is refused.
        Floors(
            hit_at_k=0.86,
            cited_right=0.73,
            fact_stated=0.78,
            uncovered=0.83,
            first_footnote_right=0.52,
        ),
    ),
    _held_out(
        "devset11",
        # Vite's VitePress pages, written from the pages alone before any eval was run on them
        # (session 25). Measured at main 462b939 (offline, MiniLM): hit@6 91.6%, MRR 0.754,
        # cited right 81.2%, fact stated 72.1%, 17/27 uncovered and 4/4 off-topic clean, first
        # footnote right 63.6%; the same at 284e0c8, whose readers no longer index the pages'
        # comments, scripts and icons; fact 72.7% at 24c4f05 (twoslash blocks keep their
        # labels); 73.4% with a line stating a default quoted when the default is asked for.
        # Most leaks name another tool in lower case ("jest", "heroku", "sentry"),
        # which reads as a word, not as a name the docs lack (tests/devset11/ANALYSIS.md).
        # Session 26 read a name where something goes or is compared with ("deploy to
        # heroku", "than turbopack", "get jest to"), a hyphen-joined thing and "is there any
        # difference" as no thing, a quoted message by most of its words (main 00d0065): cited
        # right 83.8%, fact stated 76.0%, 22/27 uncovered, first footnote right 65.6%. This set
        # was read to find those rules, so it is no longer held out.
        Floors(
            # with 7-bit weights, as on x86 CPUs without VNNI (session 37): hit@6 92.9%, cited
            # right 84.4%, fact 79.2%, 22/27 uncovered, first footnote 66.9%; floors
            # a point under it where it is lower
            hit_at_k=0.90,
            cited_right=0.82,
            # since a chosen sentence brings the next one that carries on from it and the
            # short block it announces (session 34): fact 80.5%
            fact_stated=0.78,
            uncovered=0.78,
            first_footnote_right=0.64,
        ),
        every_run=False,
    ),
    _held_out(
        "devset12",
        # Celery's Sphinx sources, written from the pages alone (session 25). Measured at main
        # 462b939: cited right 83.0%, fact stated 74.8%, 19/27 uncovered; at 284e0c8, where
        # the 365 of 796 sections under a ".. contents::" list have their headings again and
        # sidebars are read: hit@6 90.4%, MRR 0.737, cited right 83.0%, fact stated 74.1%,
        # 19/27 uncovered and 4/4 off-topic clean, first footnote right 65.9%; at 24c4f05 (a
        # reference to another page shows that section's title) MRR 0.743, cited 83.7%, fact
        # 73.3%, first footnote right 68.9% (tests/devset12/ANALYSIS.md); fact 74.8% with a
        # line stating a default quoted when the default is asked for ("Default: 4.").
        # Session 26 (main 00d0065), with a time of day stated as the docs state one ("7:30
        # a.m."), "in MB or KB" read as the units' words, a quoted message matched by most of
        # its words and the names above: cited right 86.7%, fact stated 77.8%, 21/27 uncovered,
        # first footnote right 72.6%. Read to find those rules: no longer held out. Session 27
        # (main d25ec5d): 23/27 uncovered, "when is celery 6.0 going to be released?" needing a
        # date and "an official celery docker image" both of its words.
        Floors(
            # with 7-bit weights, as on x86 CPUs without VNNI (session 37): hit@6 90.4%, cited
            # right 86.7%, fact 82.2%, 22/27 uncovered, first footnote 74.1%; floors
            # a point under it where it is lower
            hit_at_k=0.89,
            cited_right=0.85,
            # since a chosen sentence brings the next one that carries on from it and the
            # short block it announces (session 34): fact 83.7%
            fact_stated=0.81,
            uncovered=0.8,
            first_footnote_right=0.70,
        ),
        every_run=False,
    ),
    _held_out(
        "devset13",
        # BorgBackup's Sphinx sources (Borg 2), written from the pages alone before any eval
        # was run on them (session 27). Measured at main 0949a46 (offline, MiniLM), the first
        # run on it: hit@6 85.9%, MRR 0.705, cited right 69.5%, fact stated 60.5%, 20/28
        # uncovered and 4/4 off-topic clean, first footnote right 53.1%. Its misses were then
        # read (tests/devset13/ANALYSIS.md), so it is a development set from here on. With "~40
        # machines" an estimate, "when is 2.0 released?" asking for a date, "sha256" matching
        # "SHA-256", a thing named by 0.8 of its weight and closed compounds read as the docs'
        # two words (session 27, main d25ec5d): cited right 71.2%, fact stated 62.1%, 22/28
        # uncovered, first footnote right 54.2%.
        Floors(
            # with 7-bit weights, as on x86 CPUs without VNNI (session 37): hit@6 86.4%, cited
            # right 70.6%, fact 63.8%, 23/28 uncovered, first footnote 53.1%; floors
            # a point under it where it is lower
            hit_at_k=0.85,
            cited_right=0.69,
            # since a chosen sentence brings the next one that carries on from it and the
            # short block it announces (session 34): fact 65.5%
            fact_stated=0.62,
            uncovered=0.78,
            first_footnote_right=0.52,
        ),
        every_run=False,
    ),
    _held_out(
        "devset14",
        # The NATS documentation's GitBook Markdown, written from the pages alone before any
        # eval was run on them (session 27). Measured at main 0949a46 (offline, MiniLM), the first
        # run on it: hit@6 94.2%, MRR 0.807, cited right 83.9%, fact stated 75.5%, 19/28
        # uncovered and 4/4 off-topic clean, first footnote right 70.3%; the same at d25ec5d,
        # after session 27's rules. Its misses were read in session 28, when devset15 took its
        # place as the held-out set (tests/devset14/ANALYSIS.md): with names by their place,
        # thing questions in chat's words, prices, proposed values and counted nouns (main
        # edc1f06): cited right 85.2%, fact stated 77.4%, 25/28 uncovered, first footnote 71.6%.
        # Since a chunk cut from the middle of a code block quotes none of it (session 30):
        # first footnote 71.0%, the one lost having led with a comment of the websocket block.
        Floors(
            # with 7-bit weights, as on x86 CPUs without VNNI (session 37): hit@6 94.2%, cited
            # right 85.2%, fact 78.7%, 26/28 uncovered, first footnote 72.9%; floors
            # a point under it where it is lower
            hit_at_k=0.93,
            cited_right=0.84,
            # since a chosen sentence brings the next one that carries on from it and the
            # short block it announces (session 34): fact 80.6%
            fact_stated=0.77,
            # a dotted release matched as far as its first part of two digits (session 33: "when
            # did nats-server 2.10 come out?" had its "10" from a log line's time): 26/28
            uncovered=0.91,
            first_footnote_right=0.70,
        ),
        every_run=False,
    ),
    _held_out(
        "devset15",
        # The Jekyll documentation's kramdown Markdown, written from the pages alone before any
        # eval was run on them (session 28). Measured at main e77a998 (offline, MiniLM), the
        # first run on it: hit@6 95.8%, MRR 0.830, cited right 84.0%, fact stated 78.4%, 22/32
        # uncovered and 4/4 off-topic clean, first footnote right 67.6%. At edc1f06, after the
        # rules read from devset14: cited right 83.1%, fact stated 77.5%, 21/32 uncovered (one
        # question each way fewer; the fourteen read sets gained 6 uncovered, 3 cited, 4 facts);
        # at 79f0d1d, with kramdown's heading ids read, fact stated 77.9%. Its misses were read
        # in session 29, when devset16 took its place as the held-out set
        # (tests/devset15/ANALYSIS.md): with symptoms told, offered values, versions in pasted
        # paths and the docs' everyday code names read (main 4f08937), cited right 86.9%, fact
        # stated 82.6%, 21/32 uncovered, first footnote 70.9%.
        Floors(
            hit_at_k=0.95,
            cited_right=0.86,
            # since a chosen sentence brings the next one that carries on from it and the
            # short block it announces (session 34): fact 83.6%
            fact_stated=0.83,
            # "when is jekyll 5 coming out?" needing a date (session 33): 22/32
            uncovered=0.68,
            first_footnote_right=0.70,
        ),
        every_run=False,
    ),
    _held_out(
        "devset16",
        # The mise documentation's VitePress Markdown, written from the pages alone before any
        # eval was run on them (session 29; the helper's 423 answerable questions halved by a
        # script, in file order, before the first run). Measured at main 4eefe62 (offline,
        # MiniLM; the pipeline of 2b86069), the first run on it: hit@6 93.1%, MRR 0.784, cited
        # right 85.7%, fact stated 80.2%, 27/35 uncovered and 4/4 off-topic clean, first
        # footnote right 69.6%; the same at 4f08937, after the rules read from devset15.
        # Held out: only these totals are read, never its misses.
        Floors(
            # with 7-bit weights, as on x86 CPUs without VNNI (session 37): hit@6 91.7%, cited
            # right 83.9%, fact 80.6%, 27/35 uncovered, first footnote 68.7%; floors
            # a point under it where it is lower
            hit_at_k=0.9,
            cited_right=0.82,
            fact_stated=0.79,
            uncovered=0.76,
            first_footnote_right=0.67,
        ),
        every_run=False,
    ),
)

DEVSETS: dict[str, DevSet] = {s.name: s for s in _SETS}
