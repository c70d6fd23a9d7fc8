"""The bundled samples against questions written after the samples were tuned
(``tests/samples/questions.yaml``): issue 12's lines on the samples, held out from the tuning
that ``bots/samples/eval.yaml`` saw. Near misses a team would ask its bot ("how many vacation
days do new hires get?") and Relay features the samples never mention get "I couldn't find
this" with no source; follow-ups whose own words say little reach the section they ask about."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from bots.cli import cli
from bots.cli import commands as _commands  # noqa: F401  (registers every command)
from tests.pipeline.devset_eval import mislabelled

QUESTIONS = Path(__file__).parents[1] / "samples" / "questions.yaml"
URL_BASE = "https://docs.example.com/"


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    env = {
        "CITEBOT_DATA_DIR": str(tmp_path_factory.mktemp("samples")),
        "CITEBOT_PLUGINS__ENTRY_POINTS": "false",
    }
    runner = CliRunner()
    with resources.as_file(resources.files("bots") / "samples") as folder:
        ingest = runner.invoke(cli, ["ingest", str(folder), "--url-base", URL_BASE], env=env)
        assert ingest.exit_code == 0, ingest.output
    result = runner.invoke(cli, ["eval", "--json", str(QUESTIONS)], env=env)
    assert result.exit_code == 0, result.output
    parsed: dict[str, Any] = json.loads(result.stdout)
    return parsed


def test_every_label_names_a_sample_section_that_states_its_phrases() -> None:
    with resources.as_file(resources.files("bots") / "samples") as folder:
        wrong = mislabelled(folder, QUESTIONS, URL_BASE)
    assert not wrong, "\n".join(wrong)


def test_near_misses_and_what_the_samples_never_say_get_no_answer(report: dict[str, Any]) -> None:
    by_kind = report["metrics"]["by_kind"]
    assert by_kind["near_miss"]["of"] >= 10 and by_kind["uncovered"]["of"] >= 9
    unanswered = [r for r in report["results"] if r["expect"] == "no_answer"]
    leaks = [r for r in unanswered if r["route"] != "no_answer" or r["cited"]]
    # among them a follow-up asking what the samples never say ("and how do I delete it?"
    # after creating an endpoint), refused as a question of its own would be
    assert not leaks, leaks


def test_answers_cite_the_section_and_follow_ups_reach_theirs(report: dict[str, Any]) -> None:
    m = report["metrics"]
    # measured when written (session 21): 17 of 18 cited right, 16 of 18 stating the fact;
    # refused: "a key ends up in a public git repo" (support 0.75: "public", "git" and "ends"
    # are words no sample has); "and what if I go over it?" after a hand-written answer cites
    # the rate limits but not the sentence on going over them (after the bot's own answer,
    # which has it, the answer states it)
    assert m["cited_right"] >= 17 / 18, report["misses"]
    assert m["fact_stated"] >= 16 / 18, report["misses"]
    follow_ups = {
        "and how do I see whether it arrived?",
        "and how do I get them delivered again?",
        "can I make it shorter?",
        "can I raise it?",
        "ok and how do I turn it back on?",
        "what about after that, how do I get rid of the old one?",
    }
    missed = {r["question"] for r in report["misses"]}
    assert not follow_ups & missed, report["misses"]
    # and in threads whose assistant turn is the bot's own answer, asked first
    own = {r["id"]: r for r in report["results"] if r["id"].startswith("own-")}
    assert sorted(own) == ["own-over-limit", "own-undo-410", "own-undo-key"]
    assert all(r["miss"] is None and len(r["replies"]) == 1 for r in own.values()), own
