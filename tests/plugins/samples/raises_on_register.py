"""A plugin whose registration fails but whose question rule still works."""

from __future__ import annotations

from dataclasses import replace

from bots.plugins import ChatCommand, hookimpl
from pipeline.question import Question


@hookimpl
def register_commands() -> list[ChatCommand]:
    raise KeyError("no commands today")


@hookimpl
def before_question(question: Question) -> Question:
    return replace(question, text=question.text + " (checked)")
