"""Every setting as (env var, default, description) rows, for docs/pages/configuration.md and ``citebot config --table``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel, SecretStr
from pydantic.fields import FieldInfo

from . import CONVENTIONAL_ENV, Settings, env_name
from .schema import node_of


def _default(field: FieldInfo) -> str:
    if field.is_required():
        return "required"
    if field.default_factory is not None:
        value: Any = field.default_factory()  # type: ignore[call-arg]
    else:
        value = field.default
    if isinstance(value, BaseModel):
        return ""
    if value is None:
        return "unset"
    if isinstance(value, SecretStr):
        return "(secret)"
    return json.dumps(value, default=str)


def rows(
    model: type[BaseModel] = Settings, prefix: tuple[str, ...] = ()
) -> Iterator[tuple[str, str, str]]:
    aliases = {v: k for k, v in CONVENTIONAL_ENV.items()}
    for name, field in model.model_fields.items():
        annotation = field.annotation
        path = (*prefix, name)
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            yield from rows(annotation, path)
            continue
        env = env_name(path)
        if len(path) == 2 and (path[0], path[1]) in aliases:
            env += f" (or {aliases[(path[0], path[1])]})"
        if path == ("llm", "api_key"):
            env += " (or OPENAI_API_KEY for openai)"
        yield env, _default(field), (field.description or "").replace("|", "\\|")
        named = node_of(annotation).named
        if named is not None:  # a table per user-chosen key: its fields, as TOML keys
            for key, sub in named.model_fields.items():
                description = (sub.description or "").replace("|", "\\|")
                yield f'{".".join(path)}."KEY".{key}', _default(sub), description


def markdown_table() -> str:
    lines = ["| Variable | Default | Meaning |", "|---|---|---|"]
    lines += [f"| `{env}` | `{default}` | {desc} |" for env, default, desc in rows()]
    return "\n".join(lines)
