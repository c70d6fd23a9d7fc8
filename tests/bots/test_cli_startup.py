"""``--help`` answers at once: no command module imports pydantic, LlamaIndex or LanceDB up front."""

from __future__ import annotations

import json
import subprocess
import sys

import click

HEAVY = ("pydantic", "pydantic_settings", "llama_index", "lancedb", "onnxruntime", "citations")

#: Runs every ``--help`` in one fresh interpreter and reports the first one that imported
#: something heavy (a module stays imported, so later ones would not tell).
PROBE = """
import json, sys
import click
from bots.cli import cli, main

def every_help(group, path):
    yield [*path, "--help"]
    for name, command in sorted(group.commands.items()):
        if isinstance(command, click.Group):
            yield from every_help(command, [*path, name])
        else:
            yield [*path, name, "--help"]

heavy = set(json.loads(sys.argv[1]))
sys.argv = ["citebot", "--help"]
try:
    main()  # imports every command module
except SystemExit:
    pass
report = {"helps": 0, "culprit": None}
for argv in every_help(cli, []):
    try:
        cli.main(argv, prog_name="citebot")
    except SystemExit:
        pass
    report["helps"] += 1
    loaded = sorted({m.split(".")[0] for m in sys.modules} & heavy)
    if loaded:
        report["culprit"] = [argv, loaded]
        break
print("REPORT=" + json.dumps(report))
"""


def test_no_help_imports_anything_heavy() -> None:
    result = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(HEAVY)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "Usage: citebot" in result.stdout
    report = json.loads(result.stdout.rsplit("REPORT=", 1)[1])
    assert report["culprit"] is None, "citebot {} imported {}".format(*report["culprit"])
    assert report["helps"] >= 15, "every command and group was asked for its help"


def test_no_command_summary_is_cut_mid_sentence() -> None:
    from click.testing import CliRunner

    from bots.cli import cli
    from bots.cli import commands as _commands  # noqa: F401  (registers every command)

    groups = [[]] + [[name] for name, c in cli.commands.items() if isinstance(c, click.Group)]
    for path in groups:
        result = CliRunner().invoke(cli, [*path, "--help"], terminal_width=80)
        assert result.exit_code == 0, result.output
        listed = result.output.partition("Commands:")[2].splitlines()
        cut = [line for line in listed if line.rstrip().endswith("...")]
        assert cut == [], f"citebot {' '.join(path)} --help cuts: {cut}"
