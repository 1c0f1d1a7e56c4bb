"""Trainee actions: what a trainee does during a drill, timestamped on the drill clock.

The action log (a list of :class:`Action`, in the order they happened) is, with the drill, all a
:class:`~warroom.core.scoring.Scorecard` needs; it is what the session journal appends and the results store keeps.
Each action serialises to one JSON object (``Action.model_dump_json()``), one per journal line.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, field_validator

from warroom.core.model._fields import MAX_DRILL_SECONDS

#: Latest drill time of an action (seconds): the latest deadline plus room for false-escalation delays.
MAX_ACTION_SECONDS = 2 * MAX_DRILL_SECONDS
#: Longest note of an action (a flag's note, an escalation's reason), in characters: the war room's inputs take
#: 200; older or other clients' journals get some room.
MAX_NOTE_CHARS = 2_000
#: Longest event, step or probe id an action names (a drill's ids have at most 80 characters).
MAX_ACTION_ID_CHARS = 200
#: Most trace events one escalation may cite.
MAX_CITES = 1_000
#: Most actions one session keeps, its quit included: the war room accepts no other action past
#: ``MAX_ACTIONS - 1`` (only quitting), and the store and an import refuse a longer log (a 16 MB log, hundreds of
#: thousands of pauses, took ``warroom scores verify`` 91 s and 910 MB). A trainee who reads a trace makes hundreds.
MAX_ACTIONS = 10_000
#: Longest stored action log, in characters of its JSON text: the journal that holds a session's actions is read only
#: up to 64 MiB (``warroom.store.journal``'s ``MAX_JOURNAL_BYTES``), so no session played holds a longer log; a row a
#: trainee role writes by SQL may (PostgreSQL keeps up to 1 GB), and is refused before it is parsed.
MAX_LOG_CHARS = 64 * 1024 * 1024
#: Fastest playback speed an action may set (the war room offers up to 32x).
MAX_SPEED = 1_000.0

_Id = Annotated[str, Field(max_length=MAX_ACTION_ID_CHARS)]


class ActionKind(StrEnum):
    """The kinds of trainee action.

    - ``inspect``: open a trace event in the inspector (``event``).
    - ``flag``: mark a trace event as suspicious (``event``, optional ``note``). Flagging an event already flagged
      replaces its note (journals written before ``unflag`` existed may flag an event twice).
    - ``unflag``: remove the trainee's flag from a flagged trace event (``event``).
    - ``escalate``: escalate to the planner naming the plan step at fault (``step``, ``note`` = the reason,
      ``cites`` = the trace events the trainee cites as showing the fault; absent in action logs written before
      escalations cited events, which the scoring rules read as citing nothing).
    - ``pause`` / ``resume``: stop or restart the drill clock (playback only; no effect on the score).
    - ``speed``: change playback speed (``speed``, a multiplier of real time; no effect on the score).
    - ``quit``: leave the drill before it ended; the session is scored as abandoned.
    - ``probe``: ask the executor to verify a plan step (``probe`` = the probe's id, format 2); its result is
      released as a trace event with the probe's id, the probe's ``seconds`` later.
    """

    INSPECT = "inspect"
    FLAG = "flag"
    UNFLAG = "unflag"
    ESCALATE = "escalate"
    PAUSE = "pause"
    RESUME = "resume"
    SPEED = "speed"
    QUIT = "quit"
    PROBE = "probe"


class Action(BaseModel):
    """One trainee action at drill time ``t`` (seconds)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    t: float = Field(
        strict=True,  # a number: true or "12" in a journal or an action log is refused, never read as 1 or 12
        description="Drill time of the action, seconds (finite, from 0 to MAX_ACTION_SECONDS).",
    )
    kind: ActionKind = Field(description="What the trainee did.")
    event: _Id | None = Field(default=None, description="The trace event inspected, flagged or unflagged.")
    step: _Id | None = Field(
        default=None,
        description="The plan step named in an escalation (format 2: or `@plan`, `@setup`, `@handoff:ID`).",
    )
    note: str | None = Field(
        default=None, max_length=MAX_NOTE_CHARS, description="A flag's note or an escalation's reason."
    )
    cites: tuple[_Id, ...] | None = Field(
        default=None,
        max_length=MAX_CITES,
        description=(
            "The trace event ids an escalation cites as showing the fault, in the trainee's order (format 2: or a "
            "field of an event, `e05:currency`; empty: none cited; absent: a log from before escalations cited "
            "events)."
        ),
    )
    speed: float | None = Field(
        default=None, gt=0, le=MAX_SPEED, allow_inf_nan=False, strict=True,
        description="New playback speed for a `speed` action.",
    )
    probe: _Id | None = Field(default=None, description="The verification probe requested by a `probe` action.")

    @field_validator("t")
    @classmethod
    def _drill_time(cls, t: float) -> float:
        if not (0 <= t <= MAX_ACTION_SECONDS):  # also refuses NaN and infinity
            raise ValueError(f"the drill time {t!r} is not between 0 and {MAX_ACTION_SECONDS:,} s")
        return t
