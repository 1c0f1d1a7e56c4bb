"""What kind of value the drill format expects at each place of a drill file, for the YAML builder.

The builder (:mod:`warroom.core.load._yaml.build`) reads an unquoted scalar differently by what the format expects
there:

- :data:`TEXT`: a free-form text field (``title``, ``objective``, ``content``, ``debrief``, ``tags``, ``note``...):
  the scalar is taken as the text written, whatever YAML would make of it (``title: 1.10`` is "1.10");
- :data:`DATA`: free-form tool data (``tool_call`` arguments, ``tool_result`` output): YAML 1.2 core meanings, and
  a number is kept only when it reads back as written (``1.10``, ``04413`` and ``0x1F`` stay text);
- :data:`TYPED`: everything else (numbers, booleans, ids, vocabularies): YAML 1.2 core meanings.

A shape is one of those three names, or ``("model", cls)``, ``("union", {kind: cls})`` (the trace events, chosen
by ``kind``), ``("list", shape)`` or ``("dict", shape)``. Shapes are derived from the pydantic models, so a new
field gets the right reading without touching the builder.
"""

from __future__ import annotations

import types
import typing
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pydantic import BaseModel

TEXT = "text"
DATA = "data"
TYPED = "typed"

Shape = Any


def _has_pattern(metadata: typing.Iterable[Any]) -> bool:
    """True when the constraints restrict the text to a form (an id), not only to "not blank"."""
    from warroom.core.model import TEXT_PATTERN

    return any(getattr(m, "pattern", None) not in (None, TEXT_PATTERN) or _has_pattern(getattr(m, "metadata", ()) or ())
               for m in metadata)


def shape_of(annotation: Any, metadata: tuple[Any, ...] = ()) -> Shape:
    """The shape of a value with type ``annotation`` (and the field's constraint ``metadata``)."""
    while True:
        origin = typing.get_origin(annotation)
        if origin is typing.Annotated:
            annotation, *extra = typing.get_args(annotation)
            metadata = (*metadata, *extra)
            continue
        if origin in (typing.Union, types.UnionType):
            members = [a for a in typing.get_args(annotation) if a is not type(None)]
            if len(members) == 1:
                annotation = members[0]
                continue
            from warroom.core.load._loctypes import kind_of

            kinds = {kind_of(m): m for m in members}
            if None not in kinds:
                return ("union", kinds)
            return TYPED
        break
    if annotation is Any:
        return DATA
    if isinstance(annotation, type) and hasattr(annotation, "model_fields"):
        return ("model", annotation)
    if origin in (list, tuple):
        return ("list", shape_of((typing.get_args(annotation) or (Any,))[0]))
    if origin is dict:
        return ("dict", shape_of((typing.get_args(annotation) or (Any, Any))[-1]))
    if annotation is str and not _has_pattern(metadata):
        return TEXT
    return TYPED


@cache
def field_shape(model: type[BaseModel], key: str) -> Shape:
    """The shape of field ``key`` of the pydantic ``model``; :data:`TYPED` for a key the model does not have."""
    field = model.model_fields.get(key)
    if field is None:
        return TYPED
    return shape_of(field.annotation, tuple(field.metadata))


def drill_shape() -> Shape:
    """The shape of a whole drill file."""
    from warroom.core.model import Drill

    return ("model", Drill)
