"""Where a question names the thing it asks about (pipeline/things.py)."""

from __future__ import annotations

import pytest

from pipeline.things import Named, named


@pytest.mark.parametrize(
    ("question", "thing"),
    [
        # whether there is one, up to where its purpose starts
        (
            "is there an official Helm chart to install it?",
            Named("official Helm chart", purpose="install it"),
        ),
        ("does dapr support the outbox pattern between state and pubsub?", Named("outbox pattern")),
        ("do you have a Terraform provider?", Named("Terraform provider")),
        ("does the product have a Terraform provider?", Named("Terraform provider")),
        # how to run something as one, after a verb of running or installing
        ("how do I run it as a Windows service so it starts on boot?", Named("Windows service")),
        ("how do I run it as a non-root user and still bind port 80?", Named("non-root user")),
        # which one is recommended
        ("what's the recommended Authelia setup with labels?", Named("Authelia setup", "labels")),
        ("which php client library should we use to talk to it?", Named("php client library")),
        ("what vm size would you recommend for a node?", Named("vm size")),
        # chat's "got an example …?" asks whether there is one
        (
            "got an example systemd unit file for running it?",
            Named("example systemd unit file", of="running it"),
        ),
        ("any sample config with TLS?", Named("sample config", of="TLS")),
        ("does the tool include tests?", Named("tests")),
        # the form something is to be written in
        ("can it write its logs as json lines for our pipeline?", Named("json lines")),
        ("can I get the result as a csv file?", Named("csv file")),
        # a kind, and what it is for
        ("is there support for websockets?", Named("support", of="websockets")),
        ("is there a built-in backup command?", Named("builtin backup command")),
        # what a made thing is to do, the asker's own words dropped
        (
            "is there a tool to convert our existing nginx configs?",
            Named("tool", purpose="convert nginx configs"),
        ),
        ("is there a plugin that exports traces?", Named("plugin", purpose="exports traces")),
        # which licence: documentation that states one names it as a licence
        ("what licence is it released under, can we ship it?", Named("licence")),
        ("under which license are the docs?", Named("license")),
        ("what's the open source license?", Named("license")),
        # none of these asks about a thing: what the asker may or must do is theirs
        ("do I have to restart it?", None),
        ("can we ship it inside our product?", None),
        ("does the folder ID have to be identical?", None),
        ("my app as a plain process can't reach the sidecar", None),
        # what the asker would use something as is their purpose, in their words ("a job
        # queue" where the docs say "a work queue")
        ("want to use it as a job queue, which retention?", None),
        ("how do I rotate the log file?", None),
        # what a page does, told, not asked for: a symptom
        ("my markdown page renders the nav html as a code block", None),
        # the word after an article is a noun, not the verb of "does it include …?"
        ("nav tree of arbitrary depth, can an include call itself?", None),
        # asking how many, not whether there is one
        ("how many unacked messages can a consumer have outstanding?", None),
        ("which one should I use?", None),
        ("can I get it as well as the other one?", None),
        ("got a million ids to process, can it batch them?", None),
        # "is there" asking for a judgement, not for a thing the docs name
        ("is there any difference between vite, vite dev and vite serve?", None),
        ("is there a performance penalty for using it?", None),
        # the licence the asker has, not one they ask about
        ("our license key stopped working after the upgrade", None),
        ("how do I renew the enterprise license?", None),
        ("are there any drawbacks to pinning it?", None),
    ],
)
def test_the_thing_a_question_names(question: str, thing: Named | None) -> None:
    assert named(question) == thing
