"""The fairness rules of ``warroom check``: a drill with a fault must be won by detection, not by luck or by rote.

:func:`fairness_problems` applies six rules to a drill with an answer key and returns one message per breach, each
starting ``fairness rule NAME:`` (the names are in :data:`RULES`) and saying what is wrong and what to change. The
rules (docs/authoring.md, "What makes a drill fair", explains them to authors):

1. ``trigger-happy-contains``: the scripted *trigger-happy* trainee (it escalates the first event's plan step and
   the plan step of every distractor, as each is released, citing the event it reacted to) must not contain the
   incident, on time or late, nor stop it by naming the origin step with only a distractor (or the first event)
   cited (the outcome "right step, unsupported"): a drill where escalating every odd-looking event lands on the
   origin step rewards the wrong reason, even when the scorecard marks it down.
2. ``damage-by-deadline``: every damage event must be released strictly after the deadline. An escalation at
   the deadline itself still counts as on time, but an action taken at a drill time comes after every event
   released at that time, so a damage event at or before the deadline does its damage even to a trainee who
   escalates on time.
3. ``nothing-to-save``: the deadline must come before the last damage event; a deadline at or after all the
   damage leaves an on-time escalation nothing to save (this replaces rule 2's messages for that drill).
4. ``cascade-names-origin``: the cascade (the plan steps that build on the bad result) must not name the origin
   step.
5. ``distractor-like-evidence``: no distractor may have the same event kind and the same plan step as an evidence
   event (both outside any plan step counts as the same step): a trainee must be able to tell distractors from
   evidence by what they are, not only by their content.
6. ``distractor-does-damage``: no distractor may be a damage event: a distractor is harmless by definition, so an
   event that does cascade damage is part of the incident, not noise beside it.

All-clear drills have no answer key and so no fairness rule here (``run_checks`` holds them to the all-clear rule).
"""

from __future__ import annotations

from typing import Any

from warroom.core.model import TARGET_LABELS, Drill, Outcome, earliest_evidence_at, event_target, evidence_ids
from warroom.core.text import amount, seconds

#: The fairness rules' names, in the order they are checked.
RULES: tuple[str, ...] = (
    "trigger-happy-contains",
    "damage-by-deadline",
    "nothing-to-save",
    "cascade-names-origin",
    "distractor-like-evidence",
    "distractor-does-damage",
)

#: At most this many events are listed by name in one message; the rest are counted.
MAX_LISTED = 5


def trigger_happy_targets(drill: Drill) -> list[tuple[Any, bool]]:
    """The events the trigger-happy trainee escalates at, in order: ``(event, is_distractor)`` for the first trace
    event and then each distractor's event by drill time (ties keep the order of the ``distractors`` list)."""
    events = {e.id: e for e in drill.trace}
    distractors = sorted((events[d.event] for d in drill.distractors if d.event in events), key=lambda e: e.t)
    return [(drill.trace[0], False), *((e, True) for e in distractors)]


def _origin(key: Any) -> str:
    """The fault's origin as the messages name it: its step id, or "the plan" / "set-up" (format 2)."""
    return str(TARGET_LABELS.get(key.fault.target, key.fault.target))


def _origin_words(key: Any) -> str:
    """``origin step s1``, or (format 2) ``origin, the plan`` / ``origin, set-up``."""
    if key.fault.origin_step is not None:
        return f"origin step {key.fault.origin_step}"
    return f"origin, {TARGET_LABELS[key.fault.target]}"


def _where(event: Any) -> str:
    return f"in plan step {event.step}" if event.step is not None else "outside any plan step"


def _trigger_happy_problem(drill: Drill, actions: list[Any], outcome: Outcome) -> str | None:
    """Rule 1, from the trigger-happy run's action log and outcome."""
    if outcome not in (Outcome.CONTAINED, Outcome.CONTAINED_LATE, Outcome.RIGHT_STEP_UNSUPPORTED):
        return None
    key = drill.answer_key
    assert key is not None
    escalations = [a for a in actions if a.kind.value == "escalate"]
    targets = trigger_happy_targets(drill)
    # The trainee's escalations follow its targets in order; the last one made is the one that contained.
    event, is_distractor = targets[min(len(escalations), len(targets)) - 1]
    at = escalations[-1].t
    if outcome is Outcome.RIGHT_STEP_UNSUPPORTED:
        head = (
            "fairness rule trigger-happy-contains: the trigger-happy trainee stopped the incident (right step, "
            f"unsupported: it cited only {event.id}) by escalating the {_origin_words(key)} at "
            f"{seconds(at)}"
        )
    else:
        how = "on time" if outcome is Outcome.CONTAINED else "late"
        head = (
            f"fairness rule trigger-happy-contains: the trigger-happy trainee contained the incident ({how}) by "
            f"escalating {_origin(key)} at {seconds(at)}"
        )
    if is_distractor:
        origin = _origin(key)
        target = event_target(drill, event)
        named = f"the first, {origin}" if target == drill.plan[0].id else TARGET_LABELS.get(target, target)
        outside = "" if event.step is not None else f" (an event outside any plan step counts as {named})"
        verb = "land on the origin step" if outcome is Outcome.RIGHT_STEP_UNSUPPORTED else "win a drill"
        return (
            f"{head}, because of distractor {event.id} ({event.kind} {_where(event)}, at {seconds(event.t)}). "
            f"Escalating every odd-looking event must not {verb}. Move distractor {event.id} to a plan step "
            f"other than the {_origin_words(key)}{outside}, or list it as evidence if it really shows the fault"
        )
    return (
        f"{head}, at the first trace event {event.id}: the evidence is already out when the drill starts, so "
        "escalating anything in the first step wins. Release the earliest evidence after the first trace event"
    )


def _deadline_advice(drill: Drill, first_damage: Any, reaction_window: float) -> tuple[str, bool]:
    """Where the deadline can go: ``(advice, fits)``; ``fits`` is False when no deadline leaves ``reaction_window``
    seconds after the earliest evidence and still comes before the first damage event."""
    key = drill.answer_key
    assert key is not None
    first = earliest_evidence_at(drill)  # every evidence item, and a probe's earliest result (format 2)
    times = [first] if first is not None else []
    if not times:
        return f"Move the deadline before {seconds(first_damage.t)} (the first damage event, {first_damage.id})", True
    lo = min(times) + reaction_window
    if lo < first_damage.t:
        return (
            f"Move the deadline to between {seconds(lo)} and just before {seconds(first_damage.t)} (at least "
            f"{reaction_window:g} s after the earliest evidence at {seconds(min(times))}, before the first damage "
            f"event {first_damage.id})",
            True,
        )
    return (
        f"No deadline fits: the first damage event {first_damage.id} ({seconds(first_damage.t)}) comes less than "
        f"{reaction_window:g} s after the earliest evidence ({seconds(min(times))}), so release the damage events "
        "later",
        False,
    )


def _damage_problems(drill: Drill, reaction_window: float) -> list[str]:
    """Rules 2 and 3: when damage is released relative to the deadline."""
    key = drill.answer_key
    assert key is not None
    events = {e.id: e for e in drill.trace}
    damage = sorted(
        ((events[d.event], d.amount) for d in key.damage.entries if d.event in events), key=lambda p: p[0].t
    )
    if not damage:
        return []
    deadline, unit = key.deadline, key.damage.unit
    last = damage[-1][0]
    advice, fits = _deadline_advice(drill, damage[0][0], reaction_window)
    if deadline >= last.t:
        return [
            f"fairness rule nothing-to-save: the deadline ({seconds(deadline)}) is at or after the last damage event "
            f"{last.id} ({seconds(last.t)}), so all the damage is done before an on-time escalation can save any "
            f"of it. {advice}" + (", or release the damage events later" if fits else "")
        ]
    early = [(e, a) for e, a in damage if e.t <= deadline]
    if not early:
        return []
    listed = ", ".join(f"{e.id} at {seconds(e.t)} ({amount(a)} {unit})" for e, a in early[:MAX_LISTED])
    if len(early) > MAX_LISTED:
        listed += f" and {len(early) - MAX_LISTED} more"
    them = "that event" if len(early) == 1 else "those events"
    return [
        f"fairness rule damage-by-deadline: damage is released at or before the deadline ({seconds(deadline)}): "
        f"{listed}. An escalation at the deadline still counts as on time but comes after the events released "
        f"by then, so every damage event must come strictly after the deadline. {advice}"
        + (f", or release {them} after the deadline" if fits else "")
    ]


def _distractor_problems(drill: Drill) -> list[str]:
    """Rule 5: distractors that share kind and plan step with an evidence event."""
    key = drill.answer_key
    assert key is not None
    events = {e.id: e for e in drill.trace}
    evidence = [events[i] for i in evidence_ids(key) if i in events]
    out = []
    for d in drill.distractors:
        ev = events.get(d.event)
        if ev is None:
            continue
        twins = [e for e in evidence if type(e) is type(ev) and e.step == ev.step]
        if twins:
            out.append(
                f"fairness rule distractor-like-evidence: distractor {ev.id} is a {ev.kind} {_where(ev)}, like "
                f"evidence {', '.join(e.id for e in twins)}, so a trainee cannot tell it from the evidence by what "
                f"it is. Move {ev.id} to another plan step, make it a different kind of event, or drop it from the "
                "distractors"
            )
    return out


def _damaging_distractor_problems(drill: Drill) -> list[str]:
    """Rule 6: distractors that are damage events."""
    key = drill.answer_key
    assert key is not None
    damage: dict[str, float] = {}
    for entry in key.damage.entries:
        damage[entry.event] = damage.get(entry.event, 0.0) + entry.amount
    return [
        f"fairness rule distractor-does-damage: distractor {d.event} is a damage event ({amount(damage[d.event])} "
        f"{key.damage.unit}), so it is part of the incident, not a harmless event. Drop {d.event} from "
        "the distractors (explain its odd look in the debrief instead), or pick a harmless event as the distractor"
        for d in drill.distractors
        if d.event in damage
    ]


def fairness_problems(
    drill: Drill, trigger_happy_actions: list[Any], trigger_happy_outcome: Outcome, reaction_window: float
) -> list[str]:
    """The fairness rules' messages for ``drill`` (empty when it is fair, and always for an all-clear drill).

    ``trigger_happy_actions`` and ``trigger_happy_outcome`` are the scripted trigger-happy trainee's action log
    (:class:`~warroom.core.model.Action` list) and outcome on this drill; ``reaction_window`` is the least drill
    time (seconds) a person needs between the earliest evidence and the deadline, used to say where the deadline
    can go. Pure; never raises for a valid drill.
    """
    key = drill.answer_key
    if key is None:
        return []
    problems: list[str] = []
    contained = _trigger_happy_problem(drill, trigger_happy_actions, trigger_happy_outcome)
    if contained:
        problems.append(contained)
    problems += _damage_problems(drill, reaction_window)
    if key.fault.origin_step in key.cascade:
        problems.append(
            f"fairness rule cascade-names-origin: the cascade names the origin step {key.fault.origin_step}; the "
            "cascade is the plan steps that build on the bad result, after the step where the fault happened. "
            f"Remove {key.fault.origin_step} from answer_key.cascade"
        )
    problems += _distractor_problems(drill)
    problems += _damaging_distractor_problems(drill)
    return problems
