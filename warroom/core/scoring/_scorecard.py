"""The scorecard of one session (:class:`Scorecard`, made of :class:`Component` parts) and how it is stored and
read back; :mod:`warroom.core.scoring._score` computes it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from warroom.core.model import Outcome, PlayedAs, Response
from warroom.errors import WarroomError

#: Highest and lowest possible total.
MAX_TOTAL = 100
#: The largest magnitude of any number in a scorecard (points, seconds, damage, USD): a value past it, infinity or
#: NaN makes a scorecard unreadable (:meth:`Scorecard.from_dict`).
MAX_SCORECARD_NUMBER = 1e15


class ScoringError(WarroomError, ValueError):
    """The action log cannot be replayed on this drill (an action names an unknown or unreleased event or step, goes
    back in time, or comes after the drill ended): the log does not belong to this drill or was corrupted.
    ``action`` is the 1-based number of the action refused in the log (None when not one action's fault)."""

    def __init__(self, message: str, action: int | None = None) -> None:
        super().__init__(message)
        self.action = action


@dataclass(frozen=True)
class Component:
    """One part of the total: ``points`` earned (negative for a penalty) of ``max_points`` possible (0 for a
    penalty), and a sentence that shows how the number was computed."""

    name: str
    points: int
    max_points: int
    explanation: str


#: Scorecard keys written by older warrooms -> their current names: ``ended_at`` was the drill time the session
#: ended (seconds; the store's ``ended_at`` column is a wall-clock timestamp), ``escalations`` the number of
#: escalations (a Replay's ``escalations`` is the list of them).
LEGACY_SCORECARD_KEYS: dict[str, str] = {"ended_at": "end_time", "escalations": "escalation_count"}


def current_scorecard_keys(data: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` (a stored scorecard dict) with :data:`LEGACY_SCORECARD_KEYS` renamed to their current names (a
    current key given too wins). Returns a new dict; ``data`` is not changed."""
    out = dict(data)
    for old, new in LEGACY_SCORECARD_KEYS.items():
        if old in out:
            value = out.pop(old)
            out.setdefault(new, value)
    return out


@dataclass(frozen=True)
class Scorecard:
    """The score of one session: a pure function of (drill, action log).

    Times are seconds of drill time; ``damage`` / ``full_damage`` are in ``damage_unit`` (0 and "" in an all-clear
    drill); ``cost_usd`` is every model call released in the session (USD), false-escalation re-plans included;
    ``time_to_detect`` is the containing escalation's time minus the earliest evidence's, None when nothing was
    contained. ``lines`` explain every number for people. ``distractors_shown`` (how many of the drill's distractor
    events the session released) and ``distractor_escalations`` (per escalation that cited a distractor event, the
    first one it cited) are recorded by scoring rules version 2 (0 and [] by version 1) for the cohort statistics.
    ``played_as`` (signal or noise) and ``response`` (the trial's response, read from the first escalation) are
    recorded by scoring rules version 4 (None before).
    """

    drill_id: str
    scoring_version: str
    outcome: Outcome
    outcome_text: str
    total: int
    components: list[Component]
    time_to_detect: float | None
    damage: float
    full_damage: float
    damage_unit: str
    false_escalations: int
    cost_usd: float
    lines: list[str]
    drill_version: int | None = None
    first_evidence_at: float | None = None
    deadline: float | None = None
    contained_at: float | None = None
    end_time: float | None = None
    escalation_count: int = 0
    replan_usd: float = 0.0
    cost_by_role: dict[str, float] = field(default_factory=dict)
    distractors_shown: int = 0
    distractor_escalations: list[str] = field(default_factory=list)
    played_as: PlayedAs | None = None
    response: Response | None = None

    @property
    def max_total(self) -> int:
        """The best possible total (100)."""
        return MAX_TOTAL

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict (str, int, float, None, lists and dicts only); :meth:`from_dict` reads it back."""
        d = {name: getattr(self, name) for name in self.__dataclass_fields__}  # as dataclasses.asdict, 10x faster
        d["components"] = [dict(vars(c)) for c in self.components]  # (asdict deep-copies every string of them)
        d["lines"] = list(self.lines)
        d["cost_by_role"] = dict(self.cost_by_role)
        d["distractor_escalations"] = list(self.distractor_escalations)
        d["outcome"] = self.outcome.value
        for name in ("played_as", "response"):  # recorded from version 4 on; absent before, as stored then
            if d[name] is None:
                del d[name]
            else:
                d[name] = d[name].value
        return d

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Scorecard:
        """The scorecard :meth:`to_dict` wrote (also one written before :data:`LEGACY_SCORECARD_KEYS` were renamed).
        Raises ValueError for a missing or unknown key or a bad outcome."""
        data = current_scorecard_keys(data)
        _check_numbers(data, "scorecard")
        known = {f for f in cls.__dataclass_fields__}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown scorecard keys: {', '.join(sorted(unknown))}")
        try:
            kwargs = dict(data)
            kwargs["outcome"] = Outcome(data["outcome"])
            kwargs["components"] = [Component(**c) for c in data["components"]]
            kwargs["lines"] = list(data["lines"])
            kwargs["cost_by_role"] = dict(data.get("cost_by_role", {}))
            kwargs["distractor_escalations"] = list(data.get("distractor_escalations", []))
            if data.get("played_as") is not None:
                kwargs["played_as"] = PlayedAs(data["played_as"])
            if data.get("response") is not None:
                kwargs["response"] = Response(data["response"])
            return cls(**kwargs)
        except KeyError as exc:
            raise ValueError(f"scorecard is missing {exc.args[0]!r}") from None
        except TypeError as exc:
            raise ValueError(f"malformed scorecard: {exc}") from None


def _check_numbers(value: Any, where: str) -> None:
    """Raise ValueError for a number in ``value`` (a scorecard's dict, its lists and dicts) that is not finite or
    is larger than :data:`MAX_SCORECARD_NUMBER`."""
    import math

    if isinstance(value, bool):
        return
    if isinstance(value, int | float):
        if not ((isinstance(value, int) or math.isfinite(value)) and abs(value) <= MAX_SCORECARD_NUMBER):
            raise ValueError(f"the {where} holds a number out of range: {str(value)[:40]}")
    elif isinstance(value, Mapping):
        for key, item in value.items():
            _check_numbers(item, f"{where}'s {str(key)[:40]}")
    elif isinstance(value, list | tuple):
        for item in value:
            _check_numbers(item, where)
