"""The words a question and a passage are compared in (pipeline/words.py): stems and terms."""

from __future__ import annotations

import pytest

from pipeline.words import inflected, stem, terms


def test_stems_join_plurals_and_derived_forms() -> None:
    assert stem("cookies") == stem("cookie")
    assert stem("pagination") == stem("paginate")
    assert stem("permissions") == stem("permission")
    assert stem("S3") == "s3"
    # -ure and -ose words with their -uration and -osity nouns, irregular past forms
    assert stem("configured") == stem("configuration") == stem("configure")
    assert stem("verbose") == stem("verbosity") and stem("utilities") == stem("utility")
    assert stem("wrote") == stem("written") == stem("write") and stem("sent") == stem("send")
    # an -er verb's -ing and -ed forms join it, and a -ply verb is not an -ly adverb
    assert stem("filtering") == stem("filter") == stem("filters")
    assert stem("ordered") == stem("order") and stem("delivering") == stem("deliver")
    assert stem("reply") != stem("rep") and stem("quickly") == stem("quick")


def test_a_chat_clipping_stems_with_the_word_it_clips() -> None:
    assert stem("config") == stem("configs") == stem("configuration") == stem("configure")
    assert stem("deps") == stem("dep") == stem("dependencies")
    assert stem("repo") == stem("repositories") and stem("dirs") == stem("directory")
    assert stem("env") == stem("environments") and stem("apps") == stem("application")
    assert stem("args") == stem("argument") and stem("params") == stem("parameter")
    assert stem("msg") == stem("messages")
    # "prod" may be either word, which the stemmer makes one
    assert stem("prod") == stem("production") == stem("product") == stem("prods")
    assert stem("dev") == stem("development") == stem("developers") == stem("devs")
    # a clipping that stands for two words, or is a word of its own, stays as written
    assert stem("auth") not in (stem("authentication"), stem("authorization"))
    assert stem("perm") != stem("permission") and stem("info") != stem("information")
    assert stem("app") != stem("apply")


def test_each_irregular_verb_keeps_its_own_forms() -> None:
    # The table lists one verb per "|" and ends a line without one: the verb that ends a line
    # and the one that starts the next are still two verbs ("broke" is not "chose")
    assert stem("broke") == stem("broken") == stem("break") != stem("choose")
    assert stem("threw") == stem("throw") != stem("take")
    assert stem("paid") == stem("pay") != stem("mean")
    assert stem("brought") == stem("bring") != stem("build")
    assert stem("held") == stem("hold") != stem("forget")
    assert stem("overrode") == stem("overridden") == stem("override") != stem("wear")
    assert stem("shook") == stem("shake") != stem("ride")
    assert stem("slept") == stem("sleep") != stem("seek")


@pytest.mark.parametrize(
    ("forms", "kept"),
    [
        # plurals: -ies, -sses and -s, but not the -ss, -us and -is of a word's own ending
        (("queries", "query"), ""),
        (("classes", "class"), ""),
        (("ties", "tie"), ""),
        (("uses", "use"), ""),
        # derived forms join their word
        (("relational", "relate"), ""),
        (("darkness", "dark"), ""),
        (("deployment", "deploy"), ""),
        (("connection", "connect"), ""),
        (("easier", "easy"), ""),
        # kept whole: a word of three letters, a short word's final e, a word's own -s ending
        (("gas",), "gas"),
        (("code",), "code"),
        (("status",), "status"),
        (("access",), "access"),
        (("analysis",), "analysis"),
    ],
)
def test_stem_forms(forms: tuple[str, ...], kept: str) -> None:
    stems = {stem(f) for f in forms}
    assert len(stems) == 1, stems
    if kept:
        assert stems == {kept}


def test_terms_drop_chat_words_and_keep_content() -> None:
    assert terms("How long do I have to wait for my endpoint?") == ["wait", "endpoint"]


def test_a_word_that_only_stems_like_a_stop_word_is_a_term() -> None:
    # "theme" stems as "them" and "worker" as "work", but neither is a form of that stop word
    assert terms("can the web ui use a dark theme?") == ["web", "ui", "dark", stem("theme")]
    assert terms("my thread pool workers lose the real client ip") == [
        "thread", "pool", stem("workers"), "lose", "real", "client", "ip"
    ]  # fmt: skip
    assert terms("the app won't quit") == [stem("app"), "quit"]
    # the regular and irregular forms of a stop word are stop words too
    assert terms("it showed what I needed, kept working and mostly tells others") == []
    assert terms("no longer; thank you, it happened") == []
    # a word for "all of it" names nothing: "the licenses of everything that got bundled"
    assert terms("the licenses of everything, whatever stuff etc") == [stem("licenses")]
    # a doubled consonant, a dropped e; a single letter is no term either
    assert terms("it kept needing, wanted making and getting x") == []
    assert inflected("agree", "ing") == "agreeing" and inflected("agree", "ed") == "agreed"
