"""The effective settings as a ``citebot.toml`` that can be pasted back (``citebot config``).

Secrets and unset values are written as comments: TOML has no null, and a
masked token pasted back would replace the real one.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from pydantic import BaseModel, SecretStr

from .origins import Origins, env_name
from .schema import MASK, Path, node_of

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")
#: keys of free-form options (reader args) whose values are credentials
_SECRET_KEY = re.compile(r"(?i)token|secret|password|api_?key|credential")


def toml_key(key: str) -> str:
    return key if _BARE_KEY.match(key) else json.dumps(key, ensure_ascii=False)


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value if v is not None) + "]"
    if isinstance(value, dict):
        items = [f"{toml_key(str(k))} = {toml_value(v)}" for k, v in value.items() if v is not None]
        return "{ " + ", ".join(items) + " }" if items else "{}"
    return json.dumps(str(value), ensure_ascii=False)


class _Writer:
    def __init__(self, origins: Origins | None) -> None:
        self.origins = origins
        self.lines: list[str] = []

    def comment_for(self, path: Path) -> str:
        if self.origins is None:
            return ""
        origin = self.origins.of(path)
        return f"  # {origin}" if origin else "  # default"

    def section(self, model: BaseModel, path: Path) -> None:
        later: list[tuple[BaseModel, Path]] = []
        if path:
            self.lines += ["", f"[{'.'.join(toml_key(p) for p in path)}]"]
        for name, field in type(model).model_fields.items():
            value = getattr(model, name)
            here = (*path, name)
            node = node_of(field.annotation)
            if node.model is not None and isinstance(value, BaseModel):
                later.append((value, here))
            elif node.named is not None and isinstance(value, dict) and value:
                later += [(v, (*here, str(k))) for k, v in value.items()]
            else:
                self.value(name, value, here)
        for sub, sub_path in later:
            self.section(sub, sub_path)

    def value(self, name: str, value: Any, path: Path) -> None:
        key = toml_key(name)
        if isinstance(value, SecretStr):
            origin = self.origins.of(path) if self.origins else None
            where = f", from {origin}" if origin else f", e.g. from env {env_name(path)}"
            self.lines.append(f'# {key} = "{MASK}"  # secret{where}')
        elif value is None:
            self.lines.append(f"# {key} = (unset)")
        else:
            self.lines.append(f"{key} = {toml_value(_plain(value))}{self.comment_for(path)}")


def _plain(value: Any) -> Any:
    """Paths, enums and nested models as the JSON-like values TOML can hold."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, dict):
        return {str(k): MASK if _SECRET_KEY.search(str(k)) else _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    return str(value)


def to_toml(settings: BaseModel, origins: Origins | None = None) -> str:
    """``settings`` as TOML; with ``origins``, each line says which source set it."""
    writer = _Writer(origins)
    writer.section(settings, ())
    return "\n".join(writer.lines).lstrip("\n") + "\n"


__all__ = ["to_toml", "toml_value"]
