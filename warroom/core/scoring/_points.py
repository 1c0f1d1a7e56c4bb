"""The points of a scorecard: the point values of the scoring rules and the
:class:`~warroom.core.scoring._scorecard.Component`
parts of a total, each with the sentence that shows how it was computed."""

from __future__ import annotations

from warroom.core.model import CONTAINED_OUTCOMES, OUTCOME_LABELS, TARGET_LABELS, Outcome, fault_target
from warroom.core.play import FALSE_ESCALATION_DELAY, Replay
from warroom.core.scoring._scorecard import Component
from warroom.core.text import amount, damage, damage_amount, round_half_up, seconds, seconds_figure, usd

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
#: Points each needless verification probe costs (rules version 3): a probe that does not find the fault.
NEEDLESS_PROBE_PENALTY = 2
#: Outcome points of an all-clear drill.
ALL_CLEAR_HELD_POINTS = 100
ALL_CLEAR_FALSE_ALARM_POINTS = 50


def fault_components(replay: Replay, outcome: Outcome) -> list[Component]:
    """The components of a faulted drill's total for ``outcome``: outcome, speed, damage avoided, false escalations."""
    return [
        _outcome_component(outcome, _origin_words(replay)),
        _speed_component(replay, outcome),
        _damage_component(replay, outcome),
        _false_escalation_component(replay),
    ]


def _origin_words(replay: Replay) -> str:
    """What a containment named, in the outcome's words: "the right step", or (format 2) "the plan, the fault's
    origin" / "set-up, the fault's origin" for a fault in the plan or the set-up."""
    key = replay.drill.answer_key
    target = fault_target(key.fault) if key is not None else None
    if target in TARGET_LABELS:
        return f"{TARGET_LABELS[target]}, the fault's origin"
    return "the right step"


def _outcome_component(outcome: Outcome, named: str = "the right step") -> Component:
    outcome_points = {
        Outcome.CONTAINED: CONTAINED_POINTS,
        Outcome.CONTAINED_LATE: CONTAINED_LATE_POINTS,
        Outcome.RIGHT_STEP_UNSUPPORTED: RIGHT_STEP_UNSUPPORTED_POINTS,
    }.get(outcome, 0)
    outcome_why = {
        Outcome.CONTAINED: f"Contained in time with {named}.",
        Outcome.CONTAINED_LATE: f"Contained with {named}, but after the deadline.",
        Outcome.RIGHT_STEP_UNSUPPORTED: (
            f"{named[0].upper()}{named[1:]}, but no cited event shows the fault: no speed or damage points for an "
            "escalation that showed no detection."
        ),
    }.get(outcome, f"{OUTCOME_LABELS[outcome].capitalize()}: the incident was not contained.")
    return Component("Outcome", outcome_points, CONTAINED_POINTS, outcome_why)


def _speed_component(replay: Replay, outcome: Outcome) -> Component:
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
                f"{SPEED_POINTS} x (1 - {seconds_figure(ttd)}/{seconds_figure(window)}) = {amount(raw)}, "
                f"rounded {speed}."
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
    return Component("Speed", speed, SPEED_POINTS, why)


def _damage_component(replay: Replay, outcome: Outcome) -> Component:
    contained = outcome in CONTAINED_OUTCOMES
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
    return Component("Damage avoided", dmg, DAMAGE_POINTS, why)


def all_clear_components(replay: Replay, outcome: Outcome) -> list[Component]:
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


def probe_component(replay: Replay) -> Component:
    """Rules version 3, in a drill with probes: minus :data:`NEEDLESS_PROBE_PENALTY` per requested probe that does
    not find the fault (a probe that finds it is the detection and costs nothing here)."""
    needless = replay.probes.needless
    n = len(needless)
    if n == 0:
        found = any(r.finds for r in replay.probes.requests)
        why = "None." + (" The probe you asked for found the fault." if found else "")
        return Component("Needless probes", 0, 0, why)
    points = -NEEDLESS_PROBE_PENALTY * n
    names = ", ".join(r.probe.id for r in needless)
    tokens = sum(r.probe.usage.input_tokens + r.probe.usage.output_tokens for r in needless)
    return Component(
        "Needless probes",
        points,
        0,
        f"{n} x -{NEEDLESS_PROBE_PENALTY} = {points} ({names}: found nothing wrong; {tokens:,} executor tokens "
        "and the wait for each result).",
    )


def component_line(c: Component) -> str:
    if c.max_points == 0:  # a penalty
        return f"{c.name}: {c.points} points. {c.explanation}"
    return f"{c.name}: {c.points} of {c.max_points} points. {c.explanation}"
