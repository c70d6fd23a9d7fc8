"""Which code block an offline answer shows, and how it is cited: the order among the
retrieved sections' blocks (the best sentence's section first, then how much of the
question a block names, the quoted sections, after the best sentence rather than before,
nearer rather than farther), a second block that names more, and what is never shown."""

from __future__ import annotations

from citations.model import Locator, Source
from pipeline.evidence import Lexicon
from pipeline.extractive import Pick, _Picked
from pipeline.units import units
from pipeline.words import question_terms


def picked(
    *texts: str, how_to: bool = True, lexicon: Lexicon | None = None, question: str = ""
) -> _Picked:
    """The answer's state over ``texts`` (source ``n`` is ``texts[n - 1]``), nothing chosen:
    every prose unit ranked, the earlier sources' higher."""
    sources = [
        Source(id=n, url=f"https://docs.example/{n}", title=f"Part {n}", text=t, locator=Locator())
        for n, t in enumerate(texts, start=1)
    ]
    read = [units(t) for t in texts]
    ranked = [
        Pick(rank, u.start, u.text, rank + 1, 1.0 - rank / 10, u.kind)
        for rank, found in enumerate(read)
        for u in found
        if u.kind != "code"
    ]
    return _Picked(
        ranked,
        sources,
        read,
        limit=4,
        floor=0.3,
        lexicon=lexicon,
        how_to=how_to,
        wanted=question_terms(question),
    )


def sentence(state: _Picked, rank: int, starts: str, score: float | None = None) -> Pick:
    """The prose unit of source ``rank`` that starts with ``starts``, scored ``score``."""
    pick = next(p for (r, _), p in state.scored.items() if r == rank and p.text.startswith(starts))
    if score is None:
        return pick
    return Pick(pick.source_rank, pick.start, pick.text, pick.source_id, score, pick.kind)


def shown(state: _Picked, question: str, best: Pick, *, least: float | None = None) -> list[str]:
    """The first line inside each block shown, in the order they were added (code is
    shown beside the answer's facts: it never counts toward the answer's limit)."""
    counted = state.counted
    wanted = set(question_terms(question))
    if least is None:
        state.show_code(best, wanted)
    else:
        state.show_code(best, wanted, least=least)
    assert state.counted == counted
    return [p.text.split("\n")[1] for p in state.chosen if p.kind == "code"]


def block(line: str) -> str:
    return f"```toml\n{line}\n```"


QUESTION = "how do I set the spool limit for the mailer?"

# one section with a block before its best sentence and two after it, all naming "spool"
SPOOL = f"""The mailer keeps unsent mail in a queue.

{block("spool = 'before'")}

Set the spool limit in the config file.

{block("spool = 'near'")}

The queue is flushed every minute.

{block("spool = 'far'")}"""


def test_the_best_sections_block_after_the_best_sentence_and_nearest_it_is_shown() -> None:
    state = picked(SPOOL)
    best = sentence(state, 0, "Set the spool")
    state.add(best)
    assert shown(state, QUESTION, best) == ["spool = 'near'"]
    # a block before the best sentence, when there is none after it
    state = picked(SPOOL.split("\n\n```toml\nspool = 'near'")[0])
    best = sentence(state, 0, "Set the spool")
    state.add(best)
    assert shown(state, QUESTION, best) == ["spool = 'before'"]


def test_a_block_naming_more_of_the_question_comes_after_the_home_block_once() -> None:
    home = f"Set the spool in the config file.\n\n{block('spool = 1')}"
    richer = f"Mailer settings are read at start.\n\n{block('mailer.spool.limit = 10')}"
    richest_elsewhere = f"Other settings are read later on.\n\n{block('mailer.spool.limit = 20')}"
    # the home block names less than the others, but comes first; then the one of the
    # two naming the most whose section's quoted prose answers better, and no third
    for scores, second in [
        ((0.9, 0.5), "mailer.spool.limit = 10"),
        ((0.5, 0.9), "mailer.spool.limit = 20"),
    ]:
        state = picked(home, richer, richest_elsewhere)
        best = sentence(state, 0, "Set the spool")
        state.add(best)
        state.add(sentence(state, 1, "Mailer settings", scores[0]))
        state.add(sentence(state, 2, "Other settings are", scores[1]))
        assert shown(state, QUESTION, best) == ["spool = 1", second], scores
    # a block already shown (another section's sentence announced it) is not shown twice,
    # and does not keep the best section's own block out: it shows how to do its own thing
    state = picked(home, richer, richest_elsewhere)
    best = sentence(state, 0, "Set the spool")
    state.add(best)
    announced = state.read[1][-1]
    state.add(Pick(1, announced.start, announced.text, 2, 0.9, "code"), counts=False)
    assert shown(state, QUESTION, best) == ["mailer.spool.limit = 10", "spool = 1"]


def test_another_sections_block_is_shown_only_when_it_names_part_of_the_question() -> None:
    prose = "The mailer sends mail in the background."
    # nothing in the best section; the quoted other section's block names nothing asked
    state = picked(prose, f"Quoted from another part here.\n\n{block('retries = 3')}")
    best = sentence(state, 0, "The mailer")
    state.add(best)
    state.add(sentence(state, 1, "Quoted from another", 0.8))
    assert shown(state, QUESTION, best) == []
    # it names a little of it: shown, cited as the other section
    state = picked(prose, f"Quoted from another part here.\n\n{block('spool = 3')}")
    best = sentence(state, 0, "The mailer")
    state.add(best)
    state.add(sentence(state, 1, "Quoted from another", 0.8))
    assert shown(state, QUESTION, best) == ["spool = 3"]
    # not quoted, a little is not enough; a good share is
    for line, expected in [
        ("spool = 3", []),
        ("mailer.spool.limit = 3", ["mailer.spool.limit = 3"]),
    ]:
        state = picked(prose, f"Not quoted by the answer.\n\n{block(line)}")
        best = sentence(state, 0, "The mailer")
        state.add(best)
        assert shown(state, QUESTION, best) == expected, line
    # the best section's block naming nothing beats another quoted one naming a little
    state = picked(
        f"{prose}\n\n{block('retries = 3')}", f"Quoted by the answer here.\n\n{block('spool = 3')}"
    )
    best = sentence(state, 0, "The mailer")
    state.add(best)
    state.add(sentence(state, 1, "Quoted by the answer", 0.8))
    assert shown(state, QUESTION, best) == ["retries = 3", "spool = 3"]
    # but not one naming a good share of the question
    state = picked(
        f"{prose}\n\n{block('retries = 3')}",
        f"Not quoted by the answer.\n\n{block('mailer.spool.limit = 3')}",
    )
    best = sentence(state, 0, "The mailer")
    state.add(best)
    assert shown(state, QUESTION, best) == ["mailer.spool.limit = 3"]


def test_long_listings_diagrams_and_blocks_naming_less_than_asked_are_not_shown() -> None:
    # 25 lines with its fences, 1,400 characters: the most a block shown may have
    listing = "```toml\n" + "\n".join(f"spool_{i} = {i}" for i in range(23)) + "\n```"
    longer = "```toml\n" + "\n".join(f"spool_{i} = {i}" for i in range(24)) + "\n```"
    wide = "```toml\nspool = '" + "x" * 1378 + "'\n```"
    wider = "```toml\nspool = '" + "x" * 1379 + "'\n```"
    diagram = "```mermaid\ngraph LR\n  spool --> mailer\n```"
    cases = [(listing, 1), (longer, 0), (wide, 1), (wider, 0), (diagram, 0)]
    for code, expected in cases:
        state = picked(f"Set the spool limit in the file.\n\n{code}")
        best = sentence(state, 0, "Set the spool")
        state.add(best)
        assert len(shown(state, QUESTION, best)) == expected, code[:40]
    state = picked(f"Set the spool limit in the file.\n\n{block('spool = 1')}")
    best = sentence(state, 0, "Set the spool")
    state.add(best)
    # "spool" is one of the question's four terms
    assert shown(state, QUESTION, best, least=0.3) == []
    assert shown(state, QUESTION, best, least=0.25) == ["spool = 1"]


def test_a_block_is_cited_as_its_section_with_the_score_of_its_quoted_prose() -> None:
    state = picked(
        "Set the spool limit in the file.",
        f"Elsewhere it is set like this.\n\n{block('mailer.spool.limit = 1')}",
    )
    best = sentence(state, 0, "Set the spool")
    state.add(best)
    state.show_code(best, set(question_terms(QUESTION)))
    code = [p for p in state.chosen if p.kind == "code"]
    assert [(p.source_rank, p.source_id, p.score) for p in code] == [(1, 2, 0.0)]
    state = picked(
        "Set the spool limit in the file.",
        f"Elsewhere it is set like this.\n\n{block('mailer.spool.limit = 1')}",
    )
    best = sentence(state, 0, "Set the spool")
    state.add(best)
    state.add(sentence(state, 1, "Elsewhere it is", 0.7))
    state.show_code(best, set(question_terms(QUESTION)))
    code = [p for p in state.chosen if p.kind == "code"]
    assert [(p.source_rank, p.source_id, p.score) for p in code] == [(1, 2, 0.7)]


def test_the_share_a_block_names_weighs_rare_terms_and_ignores_unknown_ones() -> None:
    unit = units(block("spool = 1"))[0]
    state = picked("x")
    wanted = {"spool", "mail"}  # the terms of "spool" and "mailer"
    assert state.shared(unit, set()) == 0.0
    assert state.shared(unit, wanted) == 0.5
    # the section's title names what its block is for
    assert state.shared(unit, wanted, "Mailer") == 1.0
    # with term statistics: a term no chunk has is not asked of code; rarer terms weigh more
    lexicon = Lexicon.build(["spool here", "mailer", "mailer again", "mailer more", "spool"])
    state = picked("x", lexicon=lexicon)
    assert state.shared(unit, {"spool", "unheard"}) == 1.0
    assert 0.5 < state.shared(unit, wanted) < 1.0
    assert 0.0 < state.shared(units(block("mailer = 1"))[0], wanted) < 0.5


def test_of_blocks_before_the_best_sentence_the_nearest_and_no_equal_company() -> None:
    before = f"{block('spool = 1')}\n\nThe queue is flushed every minute.\n\n{block('spool = 2')}"
    state = picked(f"{before}\n\nSet the spool limit in the config file.")
    best = sentence(state, 0, "Set the spool")
    state.add(best)
    assert shown(state, QUESTION, best) == ["spool = 2"]
    # another quoted section whose block names as much, its prose answering better, is
    # not shown with it; one naming more is, and one naming less is not
    for line, expected in [("spool = 9", []), ("spool.limit = 9", ["spool.limit = 9"])]:
        state = picked(
            f"Set the spool limit in the file.\n\n{block('spool = 1')}",
            f"Quoted from another part here.\n\n{block(line)}",
        )
        best = sentence(state, 0, "Set the spool", 0.5)
        state.add(best)
        state.add(sentence(state, 1, "Quoted from another", 0.9))
        assert shown(state, QUESTION, best) == ["spool = 1", *expected], line
    state = picked(
        f"Set the spool limit in the file.\n\n{block('mailer.spool.limit = 1')}",
        f"Quoted from another part here.\n\n{block('spool = 9')}",
    )
    best = sentence(state, 0, "Set the spool")
    state.add(best)
    state.add(sentence(state, 1, "Quoted from another", 0.9))
    assert shown(state, QUESTION, best) == ["mailer.spool.limit = 1"]


def test_a_block_naming_just_the_good_share_of_the_question_counts_as_naming_it() -> None:
    # ten terms, three named: 0.3 of the question
    question = (
        "how do I set the spool limit for the mailer queue retries backoff timeout port host?"
    )
    assert len(question_terms(question)) == 10
    state = picked(
        f"The mailer sends mail in the background.\n\n{block('workers = 3')}",
        f"Not quoted by the answer.\n\n{block('spool.limit.host = 3')}",
    )
    best = sentence(state, 0, "The mailer")
    state.add(best)
    assert shown(state, question, best) == ["spool.limit.host = 3"]


VARIANTS = f"""Set the spool limit in the config file:

{block("spool = 100")}

To cap the spool per domain instead, use a table:

{block("[spool.domains]")}

The queue is flushed every minute:

{block("flush = 60")}"""


def test_a_shown_block_brings_the_variant_announced_right_after_it() -> None:
    state = picked(VARIANTS, question=QUESTION)
    state.add(sentence(state, 0, "Set the spool"))
    said = [p.text.split("\n")[0] for p in state.chosen]
    assert said == [
        "Set the spool limit in the config file:",
        "```toml",
        "To cap the spool per domain instead, use a table:",
        "```toml",
    ]
    # the variant is context: it does not count toward the answer's limit
    assert state.counted == 1
    # the variant may end the section
    last = VARIANTS.split("\n\nThe queue")[0]
    state = picked(last, question=QUESTION)
    state.add(sentence(state, 0, "Set the spool"))
    assert len(state.chosen) == 4 and state.chosen[-1].text == block("[spool.domains]")
    # not asked how, the docs' next block is not brought
    state = picked(VARIANTS, question=QUESTION, how_to=False)
    state.add(sentence(state, 0, "Set the spool"))
    assert [p.text.split("\n")[0] for p in state.chosen][2:] == []
