"""Trainee actions: what a trainee does during a drill, timestamped on the drill clock.

The action log (a list of :class:`Action`, in the order they happened) is, with the drill, all a
:class:`~warroom.core.scoring.Scorecard` needs; it is what the session journal appends and the results store keeps.
Each action serialises to one JSON object (``Action.model_dump_json()``), one per journal line.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field


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

    t: float = Field(ge=0, description="Drill time of the action, seconds.")
    kind: ActionKind = Field(description="What the trainee did.")
    event: str | None = Field(default=None, description="The trace event inspected, flagged or unflagged.")
    step: str | None = Field(
        default=None,
        description="The plan step named in an escalation (format 2: or `@plan`, `@setup`, `@handoff:ID`).",
    )
    note: str | None = Field(default=None, description="A flag's note or an escalation's reason.")
    cites: tuple[str, ...] | None = Field(
        default=None,
        description=(
            "The trace event ids an escalation cites as showing the fault, in the trainee's order (format 2: or a "
            "field of an event, `e05:currency`; empty: none cited; absent: a log from before escalations cited "
            "events)."
        ),
    )
    speed: float | None = Field(default=None, gt=0, description="New playback speed for a `speed` action.")
    probe: str | None = Field(default=None, description="The verification probe requested by a `probe` action.")
