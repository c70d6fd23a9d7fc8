"""An example citebot plugin: a team glossary command and two rules.

- ``/ask glossary TERM`` on Slack and ``/glossary term:TERM`` on Discord look up
  team jargon (one definition, both platforms).
- ``before_question`` refuses messages that carry a credential and spells out
  the team's abbreviations so that retrieval finds the long form too.
- ``after_answer`` marks answers that came from the web, and adds unanswered
  questions to a file the maintainers read (``unanswered.jsonl`` in the data
  dir). It tells the asker so only once the question is really in the file.

It imports nothing but the public plugin API, ``bots.plugins``.
"""

from __future__ import annotations

import json
import logging
import re
import time
from dataclasses import replace
from pathlib import Path

from bots.plugins import (
    ChatCommand,
    CommandOption,
    CommandReply,
    Done,
    Outcome,
    PluginContext,
    Question,
    Refusal,
    Route,
    add_note,
    hookimpl,
    unanswered,
)

log = logging.getLogger("citebot_example_plugin")

GLOSSARY: dict[str, dict[str, str]] = {
    "rag": {
        "en": "Retrieval-augmented generation: answer from retrieved documents, not from memory.",
        "de": "Retrieval-augmented Generation: Antworten aus gefundenen Dokumenten statt aus dem Gedächtnis.",
    },
    "crag": {
        "en": "Corrective RAG: grade what was retrieved and search the web when it is not good enough.",
        "de": "Corrective RAG: Treffer bewerten und im Web suchen, wenn sie nicht reichen.",
    },
    "embedding": {
        "en": "A vector that places a text so that similar meanings sit close together.",
        "de": "Ein Vektor, der ähnliche Bedeutungen nahe beieinander ablegt.",
    },
    "footnote": {
        "en": "A numbered marker like [1] that links a claim to the source it came from.",
        "de": "Eine nummerierte Marke wie [1], die eine Aussage mit ihrer Quelle verbindet.",
    },
}
RELATED: dict[str, tuple[str, ...]] = {
    "rag": ("crag", "embedding", "footnote"),
    "crag": ("rag",),
    "embedding": ("rag",),
    "footnote": ("rag",),
}
ABBREVIATIONS: dict[str, str] = {"k8s": "Kubernetes", "crag": "corrective RAG"}

_SECRET = re.compile(
    r"\b(?:xox[abpr]-[A-Za-z0-9-]{10,}|sk-[A-Za-z0-9_-]{20,}|ghp_[A-Za-z0-9]{30,}|AKIA[0-9A-Z]{16})\b"
)
_ABBREVIATION = re.compile(r"\b(" + "|".join(map(re.escape, ABBREVIATIONS)) + r")\b", re.IGNORECASE)


async def glossary(context: PluginContext) -> CommandReply:
    term = str(context.options["term"]).strip().lower()
    lang = context.options.get("lang") or "en"
    entry = GLOSSARY.get(term)
    if entry is None:
        known = ", ".join(sorted(GLOSSARY))
        return CommandReply(f"“{term}” is not in the glossary. Known terms: {known}.")
    lines = [f"*{term}*: {entry[lang]}"]
    related = int(context.options.get("related") or 0)
    if related > 0:
        lines.append("See also: " + ", ".join(RELATED.get(term, ())[:related]))
    return CommandReply("\n".join(lines), ephemeral=not context.options.get("public"))


@hookimpl
def register_commands() -> list[ChatCommand]:
    return [
        ChatCommand(
            "glossary",
            "Look up a term in the team glossary.",
            glossary,
            options=(
                CommandOption("term", "The term to look up", required=True),
                CommandOption(
                    "lang", "Language of the definition", choices=("en", "de"), default="en"
                ),
                CommandOption("related", "How many related terms to list", type="int", default=0),
                CommandOption(
                    "public", "Show the answer to the whole channel", type="bool", default=False
                ),
            ),
        )
    ]


@hookimpl
def before_question(question: Question) -> Question | Refusal | None:
    if _SECRET.search(question.text):
        return Refusal(
            "Your message looks like it contains a secret token. Please revoke it, "
            "and ask again without it.",
            reason="credential",
        )
    expanded = _ABBREVIATION.sub(
        lambda m: f"{m.group(0)} ({ABBREVIATIONS[m.group(0).lower()]})", question.text
    )
    return replace(question, text=expanded) if expanded != question.text else None


#: Where unanswered questions go, in the data dir; the maintainers read it.
UNANSWERED = "unanswered.jsonl"
WEB_NOTE = "_This answer comes from the web, not from our docs._"
NOTED = "I've added this question to the list of unanswered questions the maintainers review."


@hookimpl
async def after_answer(question: Question, done: Done, context: PluginContext) -> Done | None:
    if done.route is Route.WEB and done.outcome is Outcome.ANSWERED:
        return add_note(done, WEB_NOTE)
    if not unanswered(done):
        return None
    try:
        _append(Path(context.settings.data_dir) / UNANSWERED, question, context)
    except OSError as exc:  # not written: the answer must not claim that it was
        log.warning("could not note unanswered question %s: %s", question.id, exc)
        return None
    where = context.place.platform + (f" {context.place.channel}" if context.place.channel else "")
    log.info("noted unanswered question %s from %s for the maintainers", question.id, where)
    return add_note(done, NOTED)


def _append(path: Path, question: Question, context: PluginContext) -> None:
    record = {
        "id": question.id,
        "question": question.text,
        "platform": context.place.platform,
        "channel": context.place.channel,
        "asker": context.user,
        "at": round(time.time()),
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as out:
        out.write(json.dumps(record, ensure_ascii=False) + "\n")
