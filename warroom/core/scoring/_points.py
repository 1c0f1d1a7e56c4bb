"""The points of a scorecard: the :class:`~warroom.core.scoring._scorecard.Component` parts of a total, each with the
sentence that shows how it was computed, by the point values of an
:class:`~warroom.core.scoring._editions.Edition` of the scoring rules."""

from __future__ import annotations

from warroom.core.model import CONTAINED_OUTCOMES, TARGET_LABELS, Outcome, fault_target, handoff_of, target_label
from warroom.core.play import FALSE_ESCALATION_DELAY, Replay
from warroom.core.scoring._editions import Edition
from warroom.core.scoring._scorecard import Component
from warroom.core.text import (
    amount,
    damage,
    damage_amount,
    is_usd_unit,
    round_half_up,
    seconds,
    seconds_figure,
    usd,
)


def fault_components(replay: Replay, outcome: Outcome, edition: Edition, label: str) -> list[Component]:
    """The components of a faulted drill's total for ``outcome`` (called ``label`` in the lines): outcome, speed,
    damage avoided, false escalations."""
    return [
        _outcome_component(outcome, _origin_words(replay), edition, label),
        _speed_component(replay, outcome, edition),
        _damage_component(replay, outcome, edition),
        _false_escalation_component(replay, edition),
    ]


def _origin_words(replay: Replay) -> str:
    """What a containment named, in the outcome's words: "the right step", or (format 2) "the plan, the fault's
    origin" / "set-up, the fault's origin" for a fault in the plan or the set-up."""
    key = replay.drill.answer_key
    target = fault_target(key.fault) if key is not None else None
    if target in TARGET_LABELS or handoff_of(replay.drill, target) is not None:
        return f"{target_label(replay.drill, target)}, the fault's origin"
    return "the right step"


def _outcome_component(outcome: Outcome, named: str, edition: Edition, label: str) -> Component:
    outcome_points = {
        Outcome.CONTAINED: edition.contained,
        Outcome.CONTAINED_LATE: edition.contained_late,
        Outcome.RIGHT_STEP_UNSUPPORTED: edition.right_step_unsupported,
    }.get(outcome, 0)
    outcome_why = {
        Outcome.CONTAINED: f"Contained in time with {named}.",
        Outcome.CONTAINED_LATE: f"Contained with {named}, but after the deadline.",
        Outcome.RIGHT_STEP_UNSUPPORTED: (
            f"{named[0].upper()}{named[1:]}, but no cited event shows the fault: no speed or damage points for an "
            "escalation that showed no detection."
        ),
    }.get(outcome, f"{label.capitalize()}: the incident was not contained.")
    return Component("Outcome", outcome_points, edition.contained, outcome_why)


def _speed_component(replay: Replay, outcome: Outcome, edition: Edition) -> Component:
    first = replay.first_evidence_time
    deadline = replay.deadline
    if outcome is Outcome.CONTAINED and first is not None and deadline is not None:
        ttd = replay.time_to_detect or 0.0
        window = deadline - first
        if window <= 0:
            speed = edition.speed
            why = f"Time to detect {seconds(ttd)}; the window from the earliest evidence to the deadline is 0 s."
        else:
            raw = edition.speed * (1 - ttd / window)
            speed = whole_points(max(0.0, min(float(edition.speed), raw)), edition)
            why = (
                f"Time to detect {seconds(ttd)} (earliest evidence at {seconds(first)}, escalation at "
                f"{seconds(replay.contained_at)}) in a window of {seconds(window)} (to the deadline at "
                f"{seconds(deadline)}): "
                f"{edition.speed} x (1 - {seconds_figure(ttd)}/{seconds_figure(window)}) = {amount(raw)}, "
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
    return Component("Speed", speed, edition.speed, why)


def _figure(value: float, unit: str | None) -> str:
    """A damage figure in a formula, written as the figure beside it: below a dollar of USD damage (a runaway
    loop's spend) with :func:`usd`'s digits (``0.945``, not ``0.94``; ``0.018``, not ``0.02``), else
    :func:`amount` (``4,413``)."""
    if is_usd_unit(unit) and 0 < value < 1:
        return usd(value).lstrip("$")
    return amount(value)


def whole_points(raw: float, edition: Edition) -> int:
    """``raw`` points rounded to whole points, halves up; by an edition that ``drops_float_noise`` (version 5 on),
    once the float noise below 1e-9 is dropped: a spend made of many call costs that is exactly half the full damage
    gives 12.5 points (13), where version 4 rounds the summed costs' 12.4999... to 12."""
    return int(round_half_up(round(raw, 9) if edition.drops_float_noise else raw))


def _damage_component(replay: Replay, outcome: Outcome, edition: Edition) -> Component:
    contained = outcome in CONTAINED_OUTCOMES
    unit = replay.damage_unit
    full = replay.full_damage
    if contained and full > 0:
        raw = edition.damage * (1 - replay.damage / full)
        dmg = whole_points(max(0.0, raw), edition)
        why = (
            f"Damage {damage_amount(replay.damage, unit)} of a full cascade's {damage(full, unit)}: "
            f"{edition.damage} x (1 - {_figure(replay.damage, unit)}/{_figure(full, unit)}) = {amount(raw)}, "
            f"rounded {dmg}."
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
    return Component("Damage avoided", dmg, edition.damage, why)


def all_clear_components(replay: Replay, outcome: Outcome, edition: Edition) -> list[Component]:
    points = {Outcome.ALL_CLEAR_HELD: edition.all_clear_held, Outcome.FALSE_ALARM: edition.all_clear_false_alarm}.get(
        outcome, 0
    )
    why = {
        Outcome.ALL_CLEAR_HELD: "All clear held: no escalation in a healthy trace.",
        Outcome.FALSE_ALARM: "False alarm in a healthy trace.",
    }.get(outcome, "Abandoned before the end of the trace.")
    return [Component("Outcome", points, edition.all_clear_held, why), _false_escalation_component(replay, edition)]


def _false_escalation_component(replay: Replay, edition: Edition) -> Component:
    n = replay.false_escalations
    if n == 0:
        return Component("False escalations", 0, 0, "None.")
    points = -edition.false_escalation_penalty * n
    return Component(
        "False escalations",
        points,
        0,
        f"{n} x -{edition.false_escalation_penalty} = {points}. Each also cost a planner re-plan call "
        f"({usd(replay.cost.replan_usd / n)}) and {seconds(FALSE_ESCALATION_DELAY)} of drill time.",
    )


def probe_component(replay: Replay, edition: Edition) -> Component:
    """In a drill with probes, by an edition where probes count (version 3 on): minus the edition's
    ``needless_probe_penalty`` per requested probe that does not find the fault (a probe that finds it is the
    detection and costs nothing here)."""
    needless = replay.probes.needless
    n = len(needless)
    if n == 0:
        found = any(r.finds for r in replay.probes.requests)
        shown = (" The probe you asked for found the fault." if replay.contained_at is not None else
                 " The probe you asked for showed the fault, but no escalation contained it.")
        why = "None." + (shown if found else "")
        return Component("Needless probes", 0, 0, why)
    points = -edition.needless_probe_penalty * n
    names = ", ".join(r.probe.id for r in needless)
    tokens = sum(r.probe.usage.input_tokens + r.probe.usage.output_tokens for r in needless)
    return Component(
        "Needless probes",
        points,
        0,
        f"{n} x -{edition.needless_probe_penalty} = {points} ({names}: found nothing wrong; {tokens:,} executor tokens "
        "and the wait for each result).",
    )


def component_line(c: Component) -> str:
    if c.max_points == 0:  # a penalty
        return f"{c.name}: {c.points} points. {c.explanation}"
    return f"{c.name}: {c.points} of {c.max_points} points. {c.explanation}"
