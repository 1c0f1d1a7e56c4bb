"""A drill read by path for the semantic rules, whether it passed type validation or not.

:class:`Reader` reads values of a drill by path (keys and list indexes), from a type-valid
:class:`~warroom.core.model.Drill` (attributes) or from the plain data of one that is not (dict keys), and gives
:class:`Unloaded` for a value whose path, or a path above it, had a type problem. The rules of
:mod:`warroom.core.rules._events` and :mod:`warroom.core.rules._answerkey` run on what did load and name the rules that
need an :class:`Unloaded` value.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from warroom.core.rules._issues import Loc


class Unloaded:
    """A value of the drill that did not load (it has a type problem); ``loc`` is where."""

    __slots__ = ("loc",)

    def __init__(self, loc: Loc) -> None:
        self.loc = loc


_ABSENT = object()


class Reader:
    """Reads values of a drill by path, from a :class:`Drill` (attributes) or its plain data (dict keys), and
    gives :class:`Unloaded` for a value whose path (or a path above it) is in ``bad``."""

    def __init__(self, bad: Iterable[Loc] = ()) -> None:
        self.bad = set(bad)

    def child(self, obj: Any, loc: Loc, el: str | int, default: Any = None) -> Any:
        """The value at ``(*loc, el)`` in ``obj`` (the value at ``loc``)."""
        if isinstance(obj, Unloaded):
            return obj
        full = (*loc, el)
        if self.bad and full in self.bad:
            return Unloaded(full)
        if isinstance(el, int):
            return obj[el] if isinstance(obj, (list, tuple)) and 0 <= el < len(obj) else Unloaded(full)
        if obj.__class__ is dict:
            value = obj.get(el, _ABSENT)
        elif hasattr(obj.__class__, "__pydantic_fields__"):  # a pydantic model of the drill: its fields' values
            value = obj.__dict__.get(el, _ABSENT)  # are in its __dict__ (a missing one is absent, not an error)
        elif isinstance(obj, dict):
            value = obj.get(el, _ABSENT)
        else:  # a value of another type where a mapping belongs (its own problem is reported)
            value = _ABSENT
        return default if value is _ABSENT or value is None else value

    def items(self, obj: Any, loc: Loc, key: str) -> tuple[list[tuple[Loc, Any]], Loc | None]:
        """The items of the list at ``(*loc, key)`` as ``(loc, value)`` pairs, and the loc of the list when it did
        not load as a whole (else None)."""
        value = self.child(obj, loc, key, [])
        base = (*loc, key)
        if isinstance(value, Unloaded):
            return [], value.loc
        if not isinstance(value, (list, tuple)):
            return [], base
        if not self.bad:  # nothing below is unloaded: the items as they are
            return [((*base, i), item) for i, item in enumerate(value)], None
        return [((*base, i), self.child(value, base, i)) for i in range(len(value))], None

    def loaded_events(self, obj: Any, loc: Loc, key: str) -> list[Ev] | None:
        """What the rules read of each event of the list at ``(*loc, key)`` (as :meth:`items` then :meth:`events`
        give it), when nothing is unloaded and every item is a loaded event, read at once; else None."""
        if self.bad or not hasattr(obj.__class__, "__pydantic_fields__"):
            return None
        value = obj.__dict__.get(key)
        if value.__class__ is not list or not all(hasattr(e.__class__, "__pydantic_fields__") for e in value):
            return None
        base = (*loc, key)
        return [Ev((*base, i), f["id"], f["t"], f["step"], f["kind"], f.get("call"))
                for i, f in enumerate(e.__dict__ for e in value)]

    def events(self, items: list[tuple[Loc, Any]]) -> list[Ev]:
        """What the rules read of each trace or re-plan event of ``items`` (``(loc, event)`` pairs, as
        :meth:`items` gives them); a loaded event's fields are read at once."""
        if self.bad:
            return [self.event(obj, loc) for loc, obj in items]
        out: list[Ev] = []
        append = out.append
        for loc, obj in items:
            if hasattr(obj.__class__, "__pydantic_fields__"):
                fields = obj.__dict__
                append(Ev(loc, fields["id"], fields["t"], fields["step"], fields["kind"], fields.get("call")))
            else:
                append(self.event(obj, loc))
        return out

    def event(self, obj: Any, loc: Loc) -> Ev:
        """What the rules read of the trace or re-plan event ``obj`` at ``loc`` (see :class:`Ev`)."""
        if not self.bad and hasattr(obj.__class__, "__pydantic_fields__"):  # a loaded event: its fields at once
            fields = obj.__dict__
            return Ev(loc, fields["id"], fields["t"], fields["step"], fields["kind"], fields.get("call"))
        child = self.child
        return Ev(loc, child(obj, loc, "id"), child(obj, loc, "t"), child(obj, loc, "step"), child(obj, loc, "kind"),
                  child(obj, loc, "call"))


@dataclass(slots=True)
class Ev:
    """What the rules read of one trace or re-plan event; each field a value or :class:`Unloaded`."""

    loc: Loc
    id: Any
    t: Any
    step: Any
    kind: Any
    call: Any


def known(value: Any) -> bool:
    """False for an :class:`Unloaded` value."""
    return not isinstance(value, Unloaded)
