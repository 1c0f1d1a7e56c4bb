"""The rows of the results store as Python values, the one definition of each shape: what a session is when it
starts (:class:`SessionInfo`, the journal's start line), its wall-clock figures (:class:`WallClock`), a listed row
(:class:`SessionRow`: every column but the scorecard and the action log) and a full row (:class:`StoredSession`, with
them). Their fields name the columns (:data:`START_FIELDS`, :data:`LIST_FIELDS`, :data:`FULL_FIELDS`), from which the
checks of :mod:`warroom.store.results._records` are made. Plain dataclasses: reading the store needs no pydantic.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from warroom.core.model import Action
    from warroom.store.results._history import ScorecardChange
    from warroom.store.results._notes import FacilitatorNote


def older_played_as(all_clear: bool) -> str:
    """The trial a session stored before sessions recorded ``played_as`` was: ``"noise"`` when it played an
    all-clear drill, else ``"signal"`` (a drill with an answer key; there were no twins then)."""
    return "noise" if all_clear else "signal"


@dataclass(frozen=True)
class SessionInfo:
    """What is known about a session when it starts (the journal's start line)."""

    session_id: str
    trainee: str
    drill_id: str
    drill_version: int | None
    drill_sha256: str | None
    drill_path: str | None
    started_at: str
    all_clear: bool = False
    scoring_version: str | None = None
    #: ``"practice"``, ``"assessment"`` (docs/scoring.md, "Practice and assessment") or ``"tutorial"`` (never counted).
    mode: str = "practice"
    #: The id of the drill set the session was played in, if any.
    set_id: str | None = None
    #: The session's seed: the variant played and, for a drill with a twin, whether it was a signal or a noise
    #: trial (None: the drill as written, always the same trial).
    seed: int | None = None
    #: What the session was as a trial (docs/scoring.md, "The trial and its response"): ``"signal"`` (the drill's
    #: fault) or ``"noise"`` (a healthy run: an all-clear drill or a fault drill's twin). None is read as the trial
    #: an older session was: noise when it played an all-clear drill, else signal.
    played_as: str | None = None
    #: True when the trial was **chosen, not drawn** (``warroom run --as`` or ``--seed``, schema version 23): the
    #: session is kept and listed, never counted as a trial (docs/scoring.md, "What counts as a trial"). False for a
    #: session stored before that version (drawn, unless ``scores verify`` finds its seed drawing another trial).
    chosen: bool = False

    def __post_init__(self) -> None:
        if self.played_as is None:  # a session started before sessions recorded it
            object.__setattr__(self, "played_as", older_played_as(self.all_clear))

    def to_dict(self) -> dict[str, Any]:
        """As a JSON-ready dict (the journal's start line without ``type``/``format``/``pid``)."""
        return {k: getattr(self, k) for k in START_FIELDS}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> SessionInfo:
        """From a journal start line (extra keys are ignored), checked with
        :data:`~warroom.store.results._records.StartRecord`. Raises ValueError naming each missing or bad value."""
        from pydantic import ValidationError

        from warroom.store.results._records import StartRecord, describe

        try:
            record = StartRecord.model_validate(d)
        except ValidationError as exc:
            raise ValueError(describe(exc)) from None
        return cls(**record.model_dump())


#: :class:`SessionInfo`'s fields in the order the journal's start line writes them.
START_FIELDS: tuple[str, ...] = (
    "session_id", "trainee", "drill_id", "drill_version", "drill_sha256", "drill_path", "all_clear",
    "scoring_version", "started_at", "mode", "set_id", "seed", "played_as", "chosen",
)  # fmt: skip
assert set(START_FIELDS) == set(SessionInfo.__dataclass_fields__), "a start field is missing from the order"


@dataclass(frozen=True)
class WallClock:
    """The wall-clock figures of a played session, from the journal's action times (all in wall seconds)."""

    #: Times the drill was paused.
    pauses: int = 0
    #: Wall seconds spent paused (None: not recorded).
    paused_seconds: float | None = None
    #: Wall seconds from the start to the escalation that scored (None: none).
    wall_time_to_detect: float | None = None

    def to_dict(self) -> dict[str, Any]:
        """The store columns of these figures."""
        return {
            "pauses": self.pauses,
            "paused_seconds": self.paused_seconds,
            "wall_time_to_detect": self.wall_time_to_detect,
        }


@dataclass(frozen=True)
class SessionRow:
    """One stored session as listed by :meth:`ResultsStore.query` (without the scorecard and action log)."""

    session_id: str
    trainee: str
    drill_id: str
    drill_version: int | None
    drill_sha256: str | None
    drill_path: str | None
    all_clear: bool
    scoring_version: str | None
    started_at: str
    ended_at: str | None
    outcome: str
    total: int
    time_to_detect: float | None
    damage: float | None
    full_damage: float | None
    damage_unit: str | None
    false_escalations: int
    cost_usd: float | None
    recovered: bool
    notes: list[str]
    rescored_at: str | None
    mode: str = "practice"
    set_id: str | None = None
    seed: int | None = None
    #: Times the trainee paused (practice sessions; assessment sessions cannot pause).
    pauses: int = 0
    #: Wall-clock seconds spent paused (None: not recorded).
    paused_seconds: float | None = None
    #: Wall-clock seconds from the session's start to the escalation that scored (None: no such escalation).
    wall_time_to_detect: float | None = None
    #: The trial's response (docs/scoring.md): the scorecard's (rules 4 on), else approximated from the outcome.
    response: str | None = None
    #: ``"signal"`` or ``"noise"``: what the session was as a trial (see :class:`SessionInfo`; None only where a
    #: session that never reached its debrief is shown, the trial hidden).
    played_as: str | None = None
    #: The trial was chosen (``warroom run --as`` / ``--seed``), not drawn: see :class:`SessionInfo`.
    chosen: bool = False

    def to_dict(self) -> dict[str, Any]:
        """As a JSON-ready dict (the ``scores --format json`` row)."""
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


#: The listed columns, in the order of :class:`SessionRow`'s fields (the one list they are derived from).
LIST_FIELDS: tuple[str, ...] = tuple(SessionRow.__dataclass_fields__)
#: The true/false columns (SQLite stores them as 0 and 1): the :class:`SessionRow` fields typed ``bool``, so that a
#: new flag column is read, exported and checked as one by being declared here.
FLAG_FIELDS: tuple[str, ...] = tuple(n for n, f in SessionRow.__dataclass_fields__.items() if f.type in (bool, "bool"))
_LIST_COLUMNS = ", ".join(LIST_FIELDS)
#: The columns a full row has beyond :data:`LIST_FIELDS` (as their JSON text), :class:`StoredSession`'s own fields.
FULL_FIELDS: tuple[str, ...] = ("scorecard", "actions")


@dataclass(frozen=True)
class StoredSession(SessionRow):
    """One stored session with its scorecard (the dict of ``Scorecard.to_dict()``) and full action log."""

    scorecard: dict[str, Any] = field(default_factory=dict)
    actions: list[Action] = field(default_factory=list)
    #: The scorecards re-scores replaced, oldest first (read by :meth:`~warroom.store.results.ResultsStore.get`;
    #: empty in lists of sessions).
    history: list[ScorecardChange] = field(default_factory=list)
    #: The facilitator's notes on the session, oldest first (read by :meth:`~warroom.store.results.ResultsStore.get`;
    #: empty in lists of sessions).
    facilitator_notes: list[FacilitatorNote] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """Every stored field as a JSON-ready dict (the ``scores --format json`` row): the flat fields of
        :class:`SessionRow`, ``scorecard`` (the ``Scorecard.to_dict()`` dict) and ``actions`` (the action log, a list
        of action dicts as in the journal)."""
        out = {k: getattr(self, k) for k in SessionRow.__dataclass_fields__}
        out["scorecard"] = self.scorecard
        out["actions"] = [
            a.model_dump(mode="json", exclude_none=True) if hasattr(a, "model_dump") else a for a in self.actions
        ]
        if self.history:
            out["scorecard_history"] = [change.to_dict() for change in self.history]
        if self.facilitator_notes:
            out["facilitator_notes"] = [note.to_dict() for note in self.facilitator_notes]
        return out

    def info(self) -> SessionInfo:
        """The session's start information."""
        return SessionInfo(**{k: getattr(self, k) for k in SessionInfo.__dataclass_fields__})
