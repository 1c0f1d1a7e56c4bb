"""Pydantic error locations (``loc``) read against the drill model: the data path they name (union tags
stripped) and the type expected at each step. The walk is cached by the shape of the loc (list indexes do not change
types), so thousands of errors cost one walk per shape."""

from __future__ import annotations

import functools
import types
import typing
from typing import Any

from warroom.core.model import MappingForm


def unwrap(tp: Any) -> Any:
    """Strip ``Annotated`` and ``| None`` from a type annotation."""
    while True:
        origin = typing.get_origin(tp)
        if origin is typing.Annotated:
            tp = typing.get_args(tp)[0]
            continue
        if origin in (typing.Union, types.UnionType):
            args = [a for a in typing.get_args(tp) if a is not type(None)]
            if len(args) == 1:
                tp = args[0]
                continue
        return tp


def union_members(tp: Any) -> list[Any]:
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        return [unwrap(a) for a in typing.get_args(tp) if a is not type(None)]
    return []


def kind_of(model: Any) -> str | None:
    """The ``kind`` tag of a trace event model (``"tool_call"``...), or None for any other type."""
    field = getattr(model, "model_fields", {}).get("kind")
    if field is not None and typing.get_origin(field.annotation) is typing.Literal:
        tag = typing.get_args(field.annotation)[0]
        return tag if isinstance(tag, str) else None
    return None


def is_model(tp: Any) -> bool:
    return isinstance(tp, type) and hasattr(tp, "model_fields")


def walk_loc(loc: tuple[Any, ...]) -> tuple[tuple[Any, ...], list[Any]]:
    """Split a pydantic ``loc`` into the data path (union tags stripped) and the type expected at each step.

    Returns ``(data_path, types)``: ``types[i]`` is the (unwrapped) type that holds ``data_path[i]``, and
    ``types[-1]`` the type expected at the end of the path. The type walk is cached by the loc's shape (list
    indexes do not change types), so thousands of errors cost one walk per shape.
    """
    names = _model_names()
    shape = tuple((el if el in names or "[" in el else "\0") if isinstance(el, str) else 0 for el in loc)
    kept, owners = walk_shape(shape)
    return tuple(loc[i] for i in kept), list(owners)


@functools.lru_cache(maxsize=1)
def _model_names() -> frozenset[str]:
    """Every field name, kind tag and model name of the drill models: the only keys that change a type walk (any
    other key, e.g. an unknown one or a key of a tool's arguments, walks the same, so it shares a cache entry)."""
    from warroom.core.model import Drill

    names: set[str] = set()
    todo: list[Any] = [Drill]
    seen: set[int] = set()
    while todo:
        tp = todo.pop()
        if id(tp) in seen:
            continue
        seen.add(id(tp))
        if is_model(tp):
            names.add(tp.__name__)
            names.update(tp.model_fields)
            names.add(kind_of(tp) or "")
            todo.extend(f.annotation for f in tp.model_fields.values())
        todo.extend(typing.get_args(tp))
    names.add("str")  # the tag of a string member of a callable-discriminated union (evidence items)
    return frozenset(names - {""})


@functools.lru_cache(maxsize=1024)
def walk_shape(loc: tuple[Any, ...]) -> tuple[tuple[int, ...], tuple[Any, ...]]:
    """:func:`walk_loc` for a loc whose indexes are all 0: the positions kept in the data path, and the types."""
    from warroom.core.model import Drill

    tp: Any = Drill
    path: list[int] = []
    owners: list[Any] = []
    form: Any = None  # the mapping form of the field just walked into, if it has one
    for pos, el in enumerate(loc):
        tp = unwrap(tp)
        if form is not None and isinstance(el, str) and not is_model(tp):  # a key of the field's mapping form
            tp = form
        form = None
        members = union_members(tp)
        if members:
            match = next((m for m in members if kind_of(m) == el), None)
            if match is not None:  # a discriminated union's tag: not part of the data
                tp = match
                continue
            member_names = {getattr(m, "__name__", str(m)) for m in members}
            if isinstance(el, str) and (el in member_names or "[" in el):  # a plain union's member name
                tp = next((m for m in members if getattr(m, "__name__", None) == el), tp)
                continue
        owners.append(tp)
        path.append(pos)
        if is_model(tp):
            field = tp.model_fields.get(el) if isinstance(el, str) else None
            tp = field.annotation if field is not None else Any
            form = next((m.model for m in field.metadata if isinstance(m, MappingForm)), None) if field else None
        elif typing.get_origin(tp) in (list, tuple):
            tp = (typing.get_args(tp) or (Any,))[0]
        elif typing.get_origin(tp) is dict:
            tp = (typing.get_args(tp) or (Any, Any))[-1]
        else:
            tp = Any
    owners.append(unwrap(tp))
    return tuple(path), tuple(owners)
