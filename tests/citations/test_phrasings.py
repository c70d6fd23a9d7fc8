import pytest

from citations.phrasings import phrasing_terms, with_phrasing_terms


@pytest.mark.parametrize(
    ("question", "words"),
    [
        ("how do I turn the colours off?", ["disable"]),
        ("can I switch it off for one folder", ["disable"]),
        ("how do I turn compression on", ["enable"]),
        ("how do I get rid of old snapshots", ["remove", "delete"]),
        ("stop clients connecting with anything older than tls 1.2", ["minimum"]),
        ("reject uploads bigger than 10MB", ["maximum", "limit"]),
        ("test against the newest versions of my deps", ["latest"]),
        ("how do I find dependencies I don't use anymore", ["unused"]),
        ("have prometheus pick up changes by itself", ["automatic"]),
        ("how do I delete them by hand", ["manual"]),
        ("run backups every night at 2am", ["schedule", "scheduled"]),
        ("what happens if that server goes down", ["unhealthy", "unavailable"]),
        ("how often does it check the backend", ["interval"]),
        ("how long does it remember that choice", ["timeout", "duration"]),
        ("my metrics vanish whenever the container restarts", ["persist"]),
        ("how do I ask the user yes or no before deleting", ["confirm", "confirmation"]),
        ("is there a quick way to get a throwaway certificate?", ["self-signed"]),
        ("which algorithm does it use out of the box?", ["default"]),
        ("where does it store them if I don't configure anything?", ["default"]),
        ("what format do I get if I never call configure?", ["default"]),
        ("how much slower do inserts get with an index?", ["performance"]),
        ("does logging slow the app down?", ["performance"]),
        ("how do I swap the token later without downtime?", ["rotate", "rotation"]),
        ("I replaced the cert file on disk", ["rotate", "rotation"]),
        ("we need to change our signing keys", ["rotate", "rotation"]),
        ("and when the cert expires, do I need a restart?", ["rotate", "rotation"]),
        ("whats the safest way to back up a running server?", ["backup"]),
        ("we are backing up the data folder", ["backup"]),
        ("how do I set up tls", ["setup"]),
        ("how do I roll back a release", ["rollback"]),
        ("it shuts down before the events are sent", ["shutdown"]),
        ("it takes long to start up", ["startup"]),
        ("how do I skip everything below INFO?", ["filter", "level"]),
        ("only log messages lower than warning", ["filter", "level"]),
        ("the password hash seems mangled in my labels", ["escape", "escaped"]),
        ("the dollar signs vanish from the value", ["escape", "escaped", "persist"]),
        ("I only need a dummy TLS cert on my laptop", ["self-signed"]),
    ],
)
def test_a_chat_phrasing_brings_the_documentations_words(question: str, words: list[str]) -> None:
    assert phrasing_terms(question) == words


@pytest.mark.parametrize(
    "question",
    [
        "how do I turn one page into two",  # "on" only as a whole word
        "can I switch to the new resolver",
        "is the cache on by default",
        "why is my target directory so huge",
        "where do I put the certificate for the test server",
        "how do I get test certificates from the staging server",
        "how do I change the config key for the port",  # a setting's key is not a secret
        "if I set both, which one wins",
        "go back to the upper menu",  # "back" and "up" apart
        "set the level to info",
        "",
    ],
)
def test_other_words_bring_nothing(question: str) -> None:
    assert phrasing_terms(question) == []
    assert with_phrasing_terms(question) == question


def test_terms_come_once_after_the_text() -> None:
    question = "turn it off, or switch the cache off, and get rid of it"
    assert with_phrasing_terms(question) == question + "\ndisable remove delete"
