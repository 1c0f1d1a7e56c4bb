"""Format 2: a drill time given by reference to a trace event, so that retiming a trace cannot move it off its
event (``deadline: {event: e31}``, ``deadline: {event: e31, after: 5}``).

:class:`EventTime` is part of the drill model. :func:`resolve_deadline` turns the answer key's reference into the
number of seconds it stands for when the drill is validated, so every reader of ``answer_key.deadline`` sees drill
seconds; a reference to an event that does not exist stays an :class:`EventTime`, and validation reports it
(:mod:`warroom.core.rules._format2`) at its ``path:line:col``.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from warroom.core.model._types import Identifier, Seconds, _Strict


class EventTime(_Strict):
    """A drill time by reference (format 2): the ``t`` of the trace event ``event``, plus ``after`` seconds."""

    event: Identifier = Field(description="The trace event whose time this is.")
    after: Seconds = Field(default=0, description="Seconds after the event (0: at the event).")


def resolve_deadline(drill: Any) -> None:
    """Replace ``drill.answer_key.deadline`` when it is an :class:`EventTime` of an existing trace event by that
    event's ``t`` plus ``after`` (in place: called once while the drill is validated). Leaves an unknown event's
    reference, and any reference in a version-1 drill (an error there), as it is. Returns nothing; never raises."""
    key = drill.answer_key
    if key is None or drill.schema_version < 2 or not isinstance(key.deadline, EventTime):
        return
    ref = key.deadline
    for ev in drill.trace:
        if ev.id == ref.event:
            object.__setattr__(key, "deadline", ev.t + ref.after)  # the model is frozen once validated
            return
