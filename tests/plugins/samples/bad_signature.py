"""A plugin whose hook asks for an argument the spec does not have."""

from bots.plugins import hookimpl


@hookimpl
def before_question(question, colour):  # type: ignore[no-untyped-def]
    return None
