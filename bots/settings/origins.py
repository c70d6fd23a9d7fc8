"""Where each setting came from, and strictness: a key that names no setting is an error.

pydantic-settings merges its sources silently and drops what it does not know,
so a typo (``[acces.scopes]``) would leave a security setting at its default.
Each source is read here as well, to refuse unknown keys with a suggestion and
to name the file key or variable behind every value and every error.
"""

from __future__ import annotations

import difflib
import json
import re
import tomllib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path as FilePath
from typing import Any

from pydantic import BaseModel

from .schema import (
    MASK,
    Path,
    is_secret,
    is_structured,
    leaf_paths,
    model_at,
    section_paths,
    unknown_keys,
    walk_keys,
)

ENV_PREFIX = "CITEBOT_"
DELIMITER = "__"
TABLE_HINT = "`citebot config --table` lists every setting"

#: ``CITEBOT_*`` names that are not settings: docker compose reads the first two, the tests the
#: rest
NOT_SETTINGS = frozenset(
    {
        "CITEBOT_IMAGE",
        "CITEBOT_DOCS",
        "CITEBOT_HYPOTHESIS",
        "CITEBOT_ALL_DEVSETS",
        "CITEBOT_DEVSET3_HTML",
    }
)


@dataclass(frozen=True, slots=True)
class Origin:
    """One source's value for ``path``; a higher ``rank`` wins, as in pydantic-settings."""

    path: Path
    source: str
    #: the key in that source: a TOML key, a variable name
    name: str
    rank: int

    def __str__(self) -> str:
        if self.source == "env":
            return f"env {self.name}"
        if self.source == "argument":
            return f"argument {self.name}"
        return f"{self.source}: {self.name}"

    def where(self, path: Path) -> str:
        """The value at ``path`` named by this source (a TOML key already is the path)."""
        if self.source in ("env", "argument") or self.source.endswith(".env"):
            return f"{self} (setting {dotted(path)})"
        return f"{self.source}: {dotted(path)}"


RANK = {"citebot.toml": 0, ".env": 1, "vendor": 2, "env": 3, "argument": 4}


def dotted(path: Iterable[str | int]) -> str:
    return ".".join(str(p) for p in path)


def env_name(path: Iterable[str | int]) -> str:
    return ENV_PREFIX + DELIMITER.join(str(p).upper() for p in path if not isinstance(p, int))


class Origins:
    """Every value the sources set, to answer "where did this come from?"."""

    def __init__(self, entries: Iterable[Origin] = ()) -> None:
        self.entries = list(entries)

    def of(self, path: Path) -> Origin | None:
        """The winning source of the value at ``path`` (itself or a section holding it)."""
        found = [e for e in self.entries if path[: len(e.path)] == e.path]
        return max(found, key=lambda e: (e.rank, len(e.path)), default=None)

    def under(self, path: Path) -> list[Origin]:
        return [e for e in self.entries if e.path[: len(path)] == path]

    def of_values(self, path: Path) -> Origin | None:
        """Where the value at ``path`` came from, a map whose keys a source set one by one
        (``[channels."slack:*/#help-*"]`` in citebot.toml) included."""
        found = self.of(path)
        if found is not None:
            return found
        return max(self.under(path), key=lambda e: (e.rank, -len(e.path)), default=None)


def read_toml(path: FilePath) -> tuple[dict[str, Any], list[str]]:
    if not path.is_file():
        return {}, []
    try:
        with path.open("rb") as f:
            return tomllib.load(f), []
    except tomllib.TOMLDecodeError as exc:
        return {}, [f"{path}: not valid TOML: {exc}"]
    except UnicodeDecodeError as exc:
        return {}, [f"{path}: not valid TOML: not UTF-8 (byte {exc.start})"]
    except OSError as exc:
        return {}, [f"{path}: cannot be read: {exc.strerror}"]


def without_empty_secrets(
    model: type[BaseModel], data: dict[str, Any], prefix: Path = ()
) -> dict[str, Any]:
    """``data`` without its secrets written as ``""``: a file leaves a secret out that way,
    as ``KEY=`` does in the environment (``env_ignore_empty``), and an empty token is no token."""
    kept: dict[str, Any] = {}
    for key, value in data.items():
        path = (*prefix, key)
        if isinstance(value, dict):
            kept[key] = without_empty_secrets(model, value, path)
        elif not (value == "" and is_secret(model, path)):
            kept[key] = value
    return kept


def read_dotenv(path: FilePath) -> dict[str, str]:
    if not path.is_file():
        return {}
    from dotenv import dotenv_values

    return {k: v for k, v in dotenv_values(path).items() if v is not None}


def _suggest_env(name: str, valid: list[str]) -> str | None:
    tail = name[len(ENV_PREFIX) :]
    close = difflib.get_close_matches(tail, [v[len(ENV_PREFIX) :] for v in valid], n=1, cutoff=0.6)
    return ENV_PREFIX + close[0] if close else None


def valid_env_names(model: type[BaseModel]) -> list[str]:
    return [env_name(p) for p in (*leaf_paths(model), *section_paths(model))]


def check_env(
    model: type[BaseModel], environ: Mapping[str, str], where: str
) -> tuple[list[str], dict[Path, str]]:
    """Problems with ``CITEBOT_*`` variables, and each good one's path -> its name."""
    problems: list[str] = []
    names: dict[Path, str] = {}
    valid: list[str] | None = None
    for raw, value in environ.items():
        name = raw.upper()
        if not name.startswith(ENV_PREFIX) or name in NOT_SETTINGS:
            continue
        keys = tuple(name[len(ENV_PREFIX) :].lower().split(DELIMITER))
        node, unknown = walk_keys(model, keys)
        if unknown is None and node.model is not None:
            unknown = _unknown_in_json(model, keys, value)
        if unknown is None:
            # an empty value leaves the setting unset (``env_ignore_empty``)
            if value:
                names[keys] = raw
                flaw = _not_json(model, keys, value)
                if flaw is not None:
                    problems.append(
                        f"{where}{raw}: a list, a map or a section is written as JSON "
                        f'(["a", "b"] or {{"key": "value"}}): {flaw}'
                    )
            continue
        if unknown.path[: len(keys)] == keys and unknown.path != keys:  # inside a JSON value
            fix = unknown.suggestion()
            problems.append(
                f"{where}{raw}: unknown key {dotted(unknown.path)!r} in its JSON value"
                + (f"; did you mean {fix!r}?" if fix else f"; {TABLE_HINT}")
            )
            continue
        valid = valid or valid_env_names(model)
        hint = _suggest_env(name, valid)
        problems.append(
            f"{where}{raw}: no such setting"
            + (f"; did you mean {hint}?" if hint else f"; {TABLE_HINT}")
        )
    return problems, names


def _not_json(model: type[BaseModel], keys: Path, value: str) -> str | None:
    """Why ``value`` cannot be the JSON that a section, list or map at ``keys`` is read
    from (pydantic-settings would only name the section), or None."""
    if not is_structured(model, keys):
        return None
    try:
        json.loads(value)
    except ValueError as exc:
        return str(exc)
    return None


def _unknown_in_json(model: type[BaseModel], keys: Path, value: str) -> Any:
    try:
        data = json.loads(value)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    return next(iter(unknown_keys(model, data, keys)), None)


def toml_problems(model: type[BaseModel], data: dict[str, Any], file: str) -> list[str]:
    problems = []
    for unknown in unknown_keys(model, data):
        fix = unknown.suggestion()
        parent = unknown.path[:-1]
        if fix is None and not parent:
            fix = _elsewhere(model, unknown.path[-1])
        elif fix is not None:
            fix = dotted((*parent, fix))
        what = f"[{dotted(unknown.path)}]" if unknown.is_section else dotted(unknown.path)
        kind = "section" if unknown.is_section else "key"
        if fix is not None and unknown.is_section:
            fix = f"[{fix}]"
        problems.append(
            f"{file}: unknown {kind} {what}"
            + (f"; did you mean {fix}?" if fix else f"; {TABLE_HINT}")
        )
    return problems


def _elsewhere(model: type[BaseModel], key: str) -> str | None:
    """A top-level key that is a setting of some section (``top_k`` for ``pipeline.top_k``)."""
    paths = {p[-1]: p for p in leaf_paths(model) if len(p) > 1}
    close = difflib.get_close_matches(key, list(paths), n=1, cutoff=0.8)
    return dotted(paths[close[0]]) if close else None


def flatten(model: type[BaseModel], data: Mapping[str, Any], prefix: Path = ()) -> Iterator[Path]:
    """The paths of the values in nested ``data``, down to single settings."""
    for key, value in data.items():
        path = (*prefix, str(key))
        node, unknown = walk_keys(model, path)
        if unknown is None and isinstance(value, dict) and node.model is not None:
            yield from flatten(model, value, path)
        elif unknown is None and isinstance(value, dict) and node.named is not None:
            for name, section in value.items():
                if isinstance(section, dict):
                    yield from flatten(model, section, (*path, str(name)))
                else:
                    yield (*path, str(name))
        else:
            yield path


def describe_error(model: type[BaseModel], error: Mapping[str, Any], origins: Origins) -> str:
    """One line for a pydantic error, naming the setting, where its value came from, and why."""
    loc = tuple(str(p) for p in error["loc"] if p != "function-after")
    msg = str(error["msg"]).removeprefix("Value error, ")
    if "input" in error and not isinstance(error["input"], dict | list):
        shown = MASK if is_secret(model, loc) else repr(error["input"])
        msg = f"{msg} (got {shown})"
    section = model_at(model, loc)
    if section is None:
        # a check of a whole map (channels) has no origin of its own: its keys have
        origin = origins.of_values(loc)
        where = origin.where(loc) if origin else f"setting {dotted(loc)} (default)"
        return f"{where}: {msg}"
    # a check across several settings of one section: name them and their sources
    fields = _named_in(model, loc, section, msg)
    sources = [f"{dotted(p)} from {origins.of(p) or 'default'}" for p in fields]
    names = " and ".join(dotted(p) for p in fields) or (dotted(loc) or "settings")
    return f"settings {names}: {msg}" + (f" [{'; '.join(sources)}]" if sources else "")


def _named_in(model: type[BaseModel], loc: Path, section: type[BaseModel], msg: str) -> list[Path]:
    words = set(re.findall(r"[a-z_][a-z0-9_.]*", msg))
    found: list[Path] = []
    for path in leaf_paths(section, loc):
        if dotted(path) in words or (len(loc) and path[-1] in words):
            found.append(path)
    return found


__all__ = [
    "DELIMITER",
    "ENV_PREFIX",
    "RANK",
    "Origin",
    "Origins",
    "check_env",
    "describe_error",
    "dotted",
    "env_name",
    "flatten",
    "read_dotenv",
    "read_toml",
    "toml_problems",
]
