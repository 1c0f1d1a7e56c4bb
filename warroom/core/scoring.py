"""Scoring: a :class:`Scorecard` is a pure function of a drill and the trainee's action log.

:func:`score` re-runs a :class:`~warroom.core.replay.Replay` over the action log (the clock is moved to each action's
``t`` and the action applied), so the replay's rules and the score can never disagree, and the same drill and log
give the same scorecard, always. A log without a ``quit`` is taken as played to the end of the trace; a ``quit``
before a containment or the end of the trace scores :attr:`Outcome.ABANDONED`.

The formula (docs/scoring.md has it with worked examples; :data:`SCORING_VERSION` names this edition of it, and
:data:`SCORING_VERSIONS` every edition this code still applies, for re-scoring stored sessions by their own rules):

Faulted drill, total = outcome + speed + damage avoided - false escalations, clamped to 0..100:

- **Outcome** (max 50): contained 50, contained late 20, right step unsupported 10 (version 2: the containing
  escalation cited no evidence or accepted event; it gets no speed or damage points), wrong step / false alarm /
  missed / abandoned 0. Version 1 has no citations: every containment counts, whatever was cited.
- **Speed** (max 25, only when contained on time): ``25 x (1 - time_to_detect / window)``, where the window runs
  from the earliest evidence to the deadline (a window of 0 s gives 25).
- **Damage avoided** (max 25, only when contained, on time or late): ``25 x (1 - damage / full_damage)``.
- **False escalations**: minus 10 points each.

All-clear drill: outcome 100 when nobody escalated (all clear held), 50 for a false alarm, 0 when abandoned; minus
10 per false escalation; clamped to 0..100. An abandoned session scores 0 in either kind of drill.

Each component is rounded half up to a whole number of points before they are added.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from warroom.core.actions import Action, ActionKind
from warroom.core.errors import WarroomError
from warroom.core.evidence import describe_citations, distractor_figures, is_supported
from warroom.core.format import amount, damage, damage_amount, round_half_up, seconds, usd
from warroom.core.model import Drill, Role
from warroom.core.outcome import CONTAINED_OUTCOMES, OUTCOME_LABELS, Outcome
from warroom.core.replay import (
    FALSE_ESCALATION_DELAY,
    EndReason,
    EscalationResult,
    EscalationVerdict,
    Replay,
    ReplayError,
)

#: The edition of the scoring rules; a scorecard records the one it was computed with. Bump on any rule change.
#: Version 2: an escalation cites the events that show the fault; a containment that cites none of the evidence
#: (or of the events the author accepts) is "right step, unsupported".
SCORING_VERSION = "2"
#: Every edition of the rules :func:`score` can apply, oldest first (version 1: no citations).
SCORING_VERSIONS: tuple[str, ...] = ("1", "2")

#: Outcome points of a faulted drill.
CONTAINED_POINTS = 50
CONTAINED_LATE_POINTS = 20
#: Outcome points of the right step with no cited evidence (version 2): more than a miss, since the step was right
#: and the cascade stopped, far less than any supported containment, since it showed no detection.
RIGHT_STEP_UNSUPPORTED_POINTS = 10
#: Maximum points for speed (time to detect against the window from the earliest evidence to the deadline).
SPEED_POINTS = 25
#: Maximum points for damage avoided (damage accrued against the full cascade's damage).
DAMAGE_POINTS = 25
#: Points each false escalation costs.
FALSE_ESCALATION_PENALTY = 10
#: Outcome points of an all-clear drill.
ALL_CLEAR_HELD_POINTS = 100
ALL_CLEAR_FALSE_ALARM_POINTS = 50
#: Highest and lowest possible total.
MAX_TOTAL = 100


class ScoringError(WarroomError, ValueError):
    """The action log cannot be replayed on this drill (an action names an unknown or unreleased event or step, goes
    back in time, or comes after the drill ended): the log does not belong to this drill or was corrupted."""


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

    @property
    def max_total(self) -> int:
        """The best possible total (100)."""
        return MAX_TOTAL

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict (str, int, float, None, lists and dicts only); :meth:`from_dict` reads it back."""
        d = asdict(self)
        d["outcome"] = self.outcome.value
        return d

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Scorecard:
        """The scorecard :meth:`to_dict` wrote (also one written before :data:`LEGACY_SCORECARD_KEYS` were renamed).
        Raises ValueError for a missing or unknown key or a bad outcome."""
        data = current_scorecard_keys(data)
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
            return cls(**kwargs)
        except KeyError as exc:
            raise ValueError(f"scorecard is missing {exc.args[0]!r}") from None
        except TypeError as exc:
            raise ValueError(f"malformed scorecard: {exc}") from None


# ---------------------------------------------------------------------------------------------------------------
# Re-running the log
# ---------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ActionResult:
    """What one action of a re-run log did: the ``action``, the trace (or re-plan) events ``released`` by moving
    the drill clock to its time and by the action itself (in order), and for an escalation its
    :class:`~warroom.core.replay.EscalationResult` (``escalation``) and what it did by the scoring rules the log
    was re-run with (``verdict``)."""

    action: Action
    released: list[Any]
    escalation: EscalationResult | None = None
    unsupported: bool = False

    @property
    def verdict(self) -> EscalationVerdict | None:
        """What an escalation did (None for any other action): the replay's verdict, or ``right step,
        unsupported`` for a containment that cited no evidence under rules version 2."""
        if self.escalation is None:
            return None
        return EscalationVerdict.UNSUPPORTED if self.unsupported else self.escalation.verdict


def check_rules(rules: str) -> str:
    """``rules`` when it is an edition of the scoring rules this code applies (:data:`SCORING_VERSIONS`); raises
    ValueError naming the known editions otherwise."""
    if rules not in SCORING_VERSIONS:
        raise ValueError(
            f"scoring rules version {rules!r} is not known to this warroom (it applies {', '.join(SCORING_VERSIONS)})"
        )
    return rules


def cites_count(rules: str) -> bool:
    """True when the scoring rules edition ``rules`` judges what an escalation cites (version 2 on)."""
    return check_rules(rules) != "1"


def escalation_verdict(drill: Drill, result: EscalationResult, rules: str = SCORING_VERSION) -> EscalationVerdict:
    """What one escalation did by the scoring rules ``rules``: the replay's verdict, except that a containment whose
    action cites no evidence or accepted event of ``drill`` is ``right step, unsupported`` from version 2 on.
    Raises ValueError for an unknown rules version."""
    if result.contained and cites_count(rules) and not is_supported(drill, result.action.cites):
        return EscalationVerdict.UNSUPPORTED
    return result.verdict


def replay_actions(
    drill: Drill, actions: Iterable[Action], *, play_to_end: bool = True, rules: str = SCORING_VERSION
) -> tuple[Replay, list[ActionResult]]:
    """Re-run ``actions`` (an action log, in order) on a fresh :class:`Replay` of ``drill``: the one place a log is
    applied to a drill (scoring, recovery of killed sessions and the after-action review all use it).

    For each action the drill clock is moved to the action's ``t`` (seconds of drill time) and the action applied
    through the Replay's own method; then, with ``play_to_end`` (the default) and unless the drill has ended, the
    drill is played to its end. The events released after the last action are in ``replay.released`` (every released
    event is, in order).

    ``rules`` (an edition of :data:`SCORING_VERSIONS`) decides each escalation's ``verdict``. Returns ``(replay,
    results)``, one :class:`ActionResult` per action. Raises :class:`ScoringError` when an action cannot apply (see
    there), naming the action, and ValueError for an unknown ``rules``.
    """
    check_rules(rules)
    replay = Replay(drill)
    replay.advance_to(0.0)
    results: list[ActionResult] = []
    for i, action in enumerate(actions, start=1):
        where = f"action {i} ({action.kind.value} at {seconds(action.t)})"
        if action.t < replay.now:
            raise ScoringError(f"{where} comes before the drill clock ({seconds(replay.now)})")
        try:
            released = replay.advance_to(action.t)
            escalation = _apply(replay, action)
        except (ReplayError, ValueError) as exc:
            raise ScoringError(f"{where}: {exc}") from None
        unsupported = False
        if escalation is not None:
            released = released + escalation.released
            unsupported = escalation_verdict(drill, escalation, rules) is EscalationVerdict.UNSUPPORTED
        results.append(ActionResult(action, released, escalation, unsupported))
    if play_to_end:
        replay.run_to_end()
    return replay, results


def _apply(replay: Replay, action: Action) -> EscalationResult | None:
    kind = action.kind
    if kind is ActionKind.INSPECT:
        replay.inspect(_need(action.event, action, "event"))
    elif kind is ActionKind.FLAG:
        replay.flag(_need(action.event, action, "event"), action.note)
    elif kind is ActionKind.UNFLAG:
        replay.unflag(_need(action.event, action, "event"))
    elif kind is ActionKind.ESCALATE:
        return replay.escalate(_need(action.step, action, "step"), action.note or "", action.cites)
    elif kind is ActionKind.PAUSE:
        replay.pause()
    elif kind is ActionKind.RESUME:
        replay.resume()
    elif kind is ActionKind.SPEED:
        replay.set_speed(_need(action.speed, action, "speed"))
    elif kind is ActionKind.QUIT:
        replay.quit()
    else:  # pragma: no cover - ActionKind is closed
        raise ReplayError(f"unknown action kind {kind!r}")
    return None


def _need(value: Any, action: Action, name: str) -> Any:
    if value is None:
        raise ReplayError(f"a {action.kind.value} action needs a {name}")
    return value


# ---------------------------------------------------------------------------------------------------------------
# The score
# ---------------------------------------------------------------------------------------------------------------


def score(drill: Drill, actions: Iterable[Action], *, rules: str = SCORING_VERSION) -> Scorecard:
    """The :class:`Scorecard` of ``actions`` (an action log, in order) played on ``drill``, by the edition
    ``rules`` of the scoring rules (default the current one; :data:`SCORING_VERSIONS` lists them).

    Pure and deterministic. Raises :class:`ScoringError` when the log cannot be replayed on this drill, ValueError
    for an unknown ``rules``.
    """
    replay, _ = replay_actions(drill, list(actions), rules=rules)
    return scorecard_of(replay, rules=rules)


def scorecard_of(replay: Replay, *, rules: str = SCORING_VERSION) -> Scorecard:
    """The scorecard of an ended :class:`Replay` (what :func:`score` computes after re-running the log), by the
    edition ``rules`` of the scoring rules.

    Raises ValueError when the replay has not ended or ``rules`` is unknown."""
    check_rules(rules)
    if not replay.ended:
        raise ValueError("the drill has not ended yet; play it to the end (Replay.run_to_end) before scoring")
    drill = replay.drill
    outcome = _outcome(replay, rules)
    if drill.is_all_clear:
        components = _all_clear_components(replay, outcome)
    else:
        components = _fault_components(replay, outcome)
    raw = sum(c.points for c in components)
    total = 0 if outcome is Outcome.ABANDONED else max(0, min(MAX_TOTAL, raw))
    text = _outcome_text(replay, outcome)
    lines = [f"Outcome: {OUTCOME_LABELS[outcome]}. {text}"]
    lines += _citation_lines(replay, rules)
    lines += [_component_line(c) for c in components]
    parts = " + ".join(_paren(c.points) for c in components)
    if outcome is Outcome.ABANDONED:
        lines.append(f"Total: 0 of {MAX_TOTAL} (an abandoned session scores 0).")
    elif raw != total:
        lines.append(f"Total: {parts} = {raw}, clamped to 0..{MAX_TOTAL}: {total} of {MAX_TOTAL}.")
    else:
        lines.append(f"Total: {parts} = {total} of {MAX_TOTAL}.")
    cost = replay.cost
    planner_usd = cost.usd_by_role[Role.PLANNER]
    executor_usd = cost.usd_by_role[Role.EXECUTOR]
    cost_line = (
        f"Cost of the agent's model calls in this session: {usd(cost.usd)} "
        f"(planner {usd(planner_usd)}, executor {usd(executor_usd)}; {cost.tokens:,} tokens)"
    )
    if cost.replan_calls:
        cost_line += (
            f", including {cost.replan_calls} planner re-plan call{'s' if cost.replan_calls != 1 else ''} for false "
            f"escalations ({usd(cost.replan_usd)})"
        )
    lines.append(cost_line + ". Cost is shown for information; it is not part of the total.")
    lines.append(f"Scoring rules version {rules} (docs/scoring.md).")
    cites = (r.action.cites for r in replay.escalations)
    shown, pulled = (0, []) if rules == "1" else distractor_figures(drill, (e.id for e in replay.released), cites)
    return Scorecard(
        drill_id=drill.id,
        scoring_version=rules,
        outcome=outcome,
        outcome_text=text,
        total=total,
        components=components,
        # An unsupported containment showed no detection, so it has no time to detect.
        time_to_detect=None if outcome is Outcome.RIGHT_STEP_UNSUPPORTED else replay.time_to_detect,
        damage=replay.damage,
        full_damage=replay.full_damage,
        damage_unit=replay.damage_unit,
        false_escalations=replay.false_escalations,
        cost_usd=round(cost.usd, 10),
        lines=lines,
        drill_version=drill.version,
        first_evidence_at=replay.first_evidence_time,
        deadline=replay.deadline,
        contained_at=replay.contained_at,
        end_time=replay.end_time,
        escalation_count=len(replay.escalations),
        replan_usd=round(cost.replan_usd, 10),
        cost_by_role={r.value: round(v, 10) for r, v in cost.usd_by_role.items()},
        distractors_shown=shown,
        distractor_escalations=pulled,
    )


def _containing(replay: Replay) -> EscalationResult | None:
    return next((e for e in replay.escalations if e.contained), None)


def _citation_lines(replay: Replay, rules: str) -> list[str]:
    """One line per escalation saying what it cited and what each cited event is (rules version 2 on)."""
    if not cites_count(rules):
        return []
    return [
        f"Escalation of {e.action.step} at {seconds(e.action.t)} cited "
        f"{describe_citations(replay.drill, e.action.cites)}."
        for e in replay.escalations
    ]


def _outcome(replay: Replay, rules: str) -> Outcome:
    if replay.drill.is_all_clear:
        if replay.end_reason is EndReason.ABANDONED:
            return Outcome.ABANDONED
        return Outcome.FALSE_ALARM if replay.escalations else Outcome.ALL_CLEAR_HELD
    containing = _containing(replay)
    if containing is not None:
        if escalation_verdict(replay.drill, containing, rules) is EscalationVerdict.UNSUPPORTED:
            return Outcome.RIGHT_STEP_UNSUPPORTED
        return Outcome.CONTAINED_LATE if replay.contained_late else Outcome.CONTAINED
    if replay.end_reason is EndReason.ABANDONED:
        return Outcome.ABANDONED
    if any(e.after_evidence for e in replay.escalations):
        return Outcome.WRONG_STEP
    return Outcome.FALSE_ALARM if replay.escalations else Outcome.MISSED


def _outcome_text(replay: Replay, outcome: Outcome) -> str:
    drill = replay.drill
    key = drill.answer_key
    origin = key.fault.origin_step if key else ""
    n = len(replay.escalations)
    if outcome is Outcome.CONTAINED:
        return (
            f"You escalated {origin}, the fault's origin step, at {seconds(replay.contained_at)}, "
            f"{seconds(replay.time_to_detect)} after the earliest evidence and before the deadline at "
            f"{seconds(replay.deadline)}."
        )
    if outcome is Outcome.CONTAINED_LATE:
        return (
            f"You escalated {origin}, the fault's origin step, at {seconds(replay.contained_at)}, after the deadline "
            f"at {seconds(replay.deadline)}; the damage done by then stands."
        )
    if outcome is Outcome.RIGHT_STEP_UNSUPPORTED:
        containing = _containing(replay)
        cites = containing.action.cites if containing is not None else None
        shown = ", ".join(key.evidence + key.accepted_evidence) if key else ""
        return (
            f"You escalated {origin}, the fault's origin step, at {seconds(replay.contained_at)}, and the cascade "
            f"stopped; but you cited {describe_citations(drill, cites)}: nothing that shows the fault. The events "
            f"that do: {shown}. The right step with no evidence is a guess the scorecard cannot tell from luck."
        )
    if outcome is Outcome.WRONG_STEP:
        named = sorted({e.action.step for e in replay.escalations if e.after_evidence and e.action.step})
        return (
            f"After the evidence appeared you escalated {', '.join(named)}, but the fault was in {origin}; "
            "the cascade ran on."
        )
    if outcome is Outcome.FALSE_ALARM and key is not None:
        return (
            f"You escalated {_times(n)}, {'each time ' if n > 1 else ''}before any evidence of the fault had appeared, "
            f"and never named {origin} after it; the cascade ran on."
        )
    if outcome is Outcome.FALSE_ALARM:
        return f"The trace was healthy (an all-clear drill), but you escalated {_times(n)}."
    if outcome is Outcome.MISSED:
        return "Nobody escalated; the cascade ran to the end of the trace and did all its damage."
    if outcome is Outcome.ALL_CLEAR_HELD:
        return "The trace was healthy (an all-clear drill) and you rightly did not escalate."
    return f"You left the drill at {seconds(replay.end_time)}, before it ended."


def _fault_components(replay: Replay, outcome: Outcome) -> list[Component]:
    contained = outcome in CONTAINED_OUTCOMES
    # Outcome.
    outcome_points = {
        Outcome.CONTAINED: CONTAINED_POINTS,
        Outcome.CONTAINED_LATE: CONTAINED_LATE_POINTS,
        Outcome.RIGHT_STEP_UNSUPPORTED: RIGHT_STEP_UNSUPPORTED_POINTS,
    }.get(outcome, 0)
    outcome_why = {
        Outcome.CONTAINED: "Contained in time with the right step.",
        Outcome.CONTAINED_LATE: "Contained with the right step, but after the deadline.",
        Outcome.RIGHT_STEP_UNSUPPORTED: (
            "The right step, but no cited event shows the fault: no speed or damage points for an escalation that "
            "showed no detection."
        ),
    }.get(outcome, f"{OUTCOME_LABELS[outcome].capitalize()}: the incident was not contained.")
    comps = [Component("Outcome", outcome_points, CONTAINED_POINTS, outcome_why)]

    # Speed.
    first = replay.first_evidence_time
    deadline = replay.deadline
    if outcome is Outcome.CONTAINED and first is not None and deadline is not None:
        ttd = replay.time_to_detect or 0.0
        window = deadline - first
        if window <= 0:
            speed = SPEED_POINTS
            why = f"Time to detect {seconds(ttd)}; the window from the earliest evidence to the deadline is 0 s."
        else:
            raw = SPEED_POINTS * (1 - ttd / window)
            speed = int(round_half_up(max(0.0, min(float(SPEED_POINTS), raw))))
            why = (
                f"Time to detect {seconds(ttd)} (earliest evidence at {seconds(first)}, escalation at "
                f"{seconds(replay.contained_at)}) in a window of {seconds(window)} (to the deadline at "
                f"{seconds(deadline)}): "
                f"{SPEED_POINTS} x (1 - {amount(ttd)}/{amount(window)}) = {amount(raw)}, rounded {speed}."
            )
    elif outcome is Outcome.CONTAINED_LATE:
        speed = 0
        why = f"Escalated after the deadline at {seconds(deadline)}: no speed points."
    elif outcome is Outcome.RIGHT_STEP_UNSUPPORTED:
        speed = 0
        why = "No speed points: no cited event shows the fault, so no detection was shown."
    else:
        speed = 0
        why = "No speed points: the incident was not contained."
    comps.append(Component("Speed", speed, SPEED_POINTS, why))

    # Damage avoided.
    unit = replay.damage_unit
    full = replay.full_damage
    if contained and full > 0:
        raw = DAMAGE_POINTS * (1 - replay.damage / full)
        dmg = int(round_half_up(max(0.0, raw)))
        why = (
            f"Damage {damage_amount(replay.damage, unit)} of a full cascade's {damage(full, unit)}: "
            f"{DAMAGE_POINTS} x (1 - {amount(replay.damage)}/{amount(full)}) = {amount(raw)}, rounded {dmg}."
        )
    elif outcome is Outcome.RIGHT_STEP_UNSUPPORTED:
        dmg = 0
        why = (
            f"No damage points: no cited event shows the fault (the cascade stopped at damage "
            f"{damage_amount(replay.damage, unit)} of a full cascade's {damage(full, unit)})."
        )
    else:
        dmg = 0
        why = (
            f"No damage points: the incident was not contained (damage {damage_amount(replay.damage, unit)} of a full "
            f"cascade's {damage(full, unit)})."
        )
    comps.append(Component("Damage avoided", dmg, DAMAGE_POINTS, why))
    comps.append(_false_escalation_component(replay))
    return comps


def _all_clear_components(replay: Replay, outcome: Outcome) -> list[Component]:
    points = {Outcome.ALL_CLEAR_HELD: ALL_CLEAR_HELD_POINTS, Outcome.FALSE_ALARM: ALL_CLEAR_FALSE_ALARM_POINTS}.get(
        outcome, 0
    )
    why = {
        Outcome.ALL_CLEAR_HELD: "All clear held: no escalation in a healthy trace.",
        Outcome.FALSE_ALARM: "False alarm in a healthy trace.",
    }.get(outcome, "Abandoned before the end of the trace.")
    return [Component("Outcome", points, ALL_CLEAR_HELD_POINTS, why), _false_escalation_component(replay)]


def _false_escalation_component(replay: Replay) -> Component:
    n = replay.false_escalations
    if n == 0:
        return Component("False escalations", 0, 0, "None.")
    points = -FALSE_ESCALATION_PENALTY * n
    return Component(
        "False escalations",
        points,
        0,
        f"{n} x -{FALSE_ESCALATION_PENALTY} = {points}. Each also cost a planner re-plan call "
        f"({usd(replay.cost.replan_usd / n)}) and {seconds(FALSE_ESCALATION_DELAY)} of drill time.",
    )


def _component_line(c: Component) -> str:
    if c.max_points == 0:  # a penalty
        return f"{c.name}: {c.points} points. {c.explanation}"
    return f"{c.name}: {c.points} of {c.max_points} points. {c.explanation}"


def _paren(points: int) -> str:
    return f"({points})" if points < 0 else str(points)


def _times(n: int) -> str:
    return "once" if n == 1 else f"{n} times"
