"""The shape of the settings tree: which keys exist where, and what a misspelt one meant."""

from __future__ import annotations

import difflib
import types
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Union, get_args, get_origin

from pydantic import BaseModel, SecretStr

Path = tuple[str, ...]

#: what is shown in place of a secret's value
MASK = "**********"


@dataclass(frozen=True, slots=True)
class Node:
    """One place in the tree: a section (``model``), a map of named sections, or a value."""

    model: type[BaseModel] | None = None
    #: ``dict[str, Section]``: any key, each holding a ``model``
    named: type[BaseModel] | None = None
    #: a value that is itself a mapping (``access.scopes``): its keys are the user's own
    free_keys: bool = False

    @property
    def is_section(self) -> bool:
        return self.model is not None


def _unwrap(annotation: Any) -> Any:
    if get_origin(annotation) in (Union, types.UnionType):
        args = [a for a in get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return args[0]
    return annotation


def node_of(annotation: Any) -> Node:
    annotation = _unwrap(annotation)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return Node(model=annotation)
    if get_origin(annotation) is dict:
        args = get_args(annotation)
        value = _unwrap(args[1]) if len(args) == 2 else None
        if isinstance(value, type) and issubclass(value, BaseModel):
            return Node(named=value)
        return Node(free_keys=True)
    return Node()


@dataclass(frozen=True, slots=True)
class Unknown:
    """A key that names no setting: where it is, and the names that were possible there."""

    path: Path
    choices: tuple[str, ...]
    is_section: bool

    def suggestion(self) -> str | None:
        close = difflib.get_close_matches(self.path[-1], self.choices, n=1, cutoff=0.6)
        return close[0] if close else None


def walk_keys(model: type[BaseModel], keys: Path) -> tuple[Node, Unknown | None]:
    """Follow ``keys`` down from ``model``; the node reached, or the first key that is unknown."""
    node = Node(model=model)
    for depth, key in enumerate(keys):
        path = keys[: depth + 1]
        if node.model is not None:
            field = node.model.model_fields.get(key)
            if field is None:
                rest_is_section = depth + 1 < len(keys)
                return node, Unknown(path, tuple(node.model.model_fields), rest_is_section)
            node = node_of(field.annotation)
        elif node.named is not None:
            node = Node(model=node.named)
        elif node.free_keys:
            return node, None
        else:
            return node, Unknown(path, (), False)
    return node, None


def unknown_keys(
    model: type[BaseModel], data: dict[str, Any], prefix: Path = ()
) -> Iterator[Unknown]:
    """Every key in nested ``data`` (a TOML document, a JSON value) that names no setting."""
    for key, value in data.items():
        path = (*prefix, str(key))
        node, unknown = walk_keys(model, path)
        if unknown is not None:
            yield Unknown(unknown.path, unknown.choices, isinstance(value, dict))
            continue
        if not isinstance(value, dict):
            continue
        if node.model is not None:
            yield from unknown_keys(model, value, path)
        elif node.named is not None:
            for name, section in value.items():
                if isinstance(section, dict):
                    yield from unknown_keys(model, section, (*path, str(name)))


def leaf_paths(model: type[BaseModel], prefix: Path = ()) -> Iterator[Path]:
    """Every setting that holds a value, as a path from the root."""
    for name, field in model.model_fields.items():
        node = node_of(field.annotation)
        if node.model is not None:
            yield from leaf_paths(node.model, (*prefix, name))
        else:
            yield (*prefix, name)


def _field(model: type[BaseModel], path: Path) -> Any:
    """The field at a non-empty ``path``, or None where no section holds it (an item of a
    list, a key of a map)."""
    parent, _ = walk_keys(model, path[:-1])
    return parent.model.model_fields.get(path[-1]) if parent.model is not None else None


def is_secret(model: type[BaseModel], path: Path) -> bool:
    """Whether the setting at a non-empty ``path`` holds a secret, whose value is never shown."""
    field = _field(model, path)
    return field is not None and _unwrap(field.annotation) is SecretStr


def is_structured(model: type[BaseModel], path: Path) -> bool:
    """Whether the setting at ``path`` (one ``walk_keys`` knows) is a section, a list or a
    map: from the environment, pydantic-settings reads it as JSON."""
    node, _ = walk_keys(model, path)
    if node.model is not None or node.named is not None or node.free_keys:
        return True
    field = _field(model, path)
    return field is not None and get_origin(_unwrap(field.annotation)) in (
        list,
        dict,
        tuple,
        set,
        frozenset,
    )


def section_paths(model: type[BaseModel], prefix: Path = ()) -> Iterator[Path]:
    for name, field in model.model_fields.items():
        node = node_of(field.annotation)
        if node.model is not None:
            yield (*prefix, name)
            yield from section_paths(node.model, (*prefix, name))


def model_at(model: type[BaseModel], path: Path) -> type[BaseModel] | None:
    """The section model at ``path`` (``()`` is the root), or None for a value."""
    node, unknown = walk_keys(model, path)
    return node.model if unknown is None else None
