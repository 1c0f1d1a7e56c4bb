"""The fairness rules of ``warroom check``: a drill with a fault must be won by detection, not by luck or by rote.

:func:`fairness_problems` applies seven rules to a drill with an answer key and returns one message per breach, each
starting ``fairness rule NAME:`` (the names are in :data:`RULES`) and saying what is wrong and what to change. The
rules (docs/authoring.md, "What makes a drill fair", explains them to authors):

1. ``trigger-happy-contains``: the scripted *trigger-happy* trainee (it escalates the first event's plan step and
   the plan step of every distractor, as each is released, citing the event it reacted to) and the battery's
   *until-accepted* (every event's step, in turn, until one is accepted) and *quit-when-losing* trainees (who play
   as trigger-happy does) must not be a **hit**: the trial's response, read from the first escalation (scoring
   rules version 4), must not say that escalating whatever appears first detected the fault; nor may the earliest
   evidence come with the first trace event (out when the drill starts) when they miss it only because that event
   is of another step. Stopping the damage
   later, by a containment after false escalations or by the right step for the wrong reason, is not a hit, and
   the scorecard marks it down.
2. ``damage-by-deadline``: every damage event must be released strictly after the deadline (format 2's ``spend``,
   the cost of model calls, is exempt: a runaway loop spends from its first call, before any deadline). An escalation at
   the deadline itself still counts as on time, but an action taken at a drill time comes after every event
   released at that time, so a damage event at or before the deadline does its damage even to a trainee who
   escalates on time.
3. ``nothing-to-save``: the deadline must come before the last damage event (and the last call counted as spend); a
   deadline at or after all the
   damage leaves an on-time escalation nothing to save (this replaces rule 2's messages for that drill).
4. ``cascade-names-origin``: the cascade (the plan steps that build on the bad result) must not name the origin
   step.
5. ``distractor-like-evidence``, judged by what a scripted trainee scores: a trainee who escalates the fault's
   origin citing only a distractor (its field, for a distractor with a ``path``) must not contain the incident.
   Telling a distractor from the evidence by its content is the skill a drill trains: a distractor may be an event
   of the same kind in the same step as the evidence, or a field of the evidence event itself.
6. ``distractor-does-damage``: no distractor may be a damage event: a distractor is harmless by definition, so an
   event that does cascade damage is part of the incident, not noise beside it.
7. ``battery-hit``: no other trainee of the gaming battery (:mod:`warroom.core.author._battery`: flag-and-confirm,
   cite-everything, step-sweep, probe-sweep, random over its seeds, step-report) may be a hit: each wins only by
   not reading, typically by citing every event released when so few are out that the citation is specific,
   (probe-sweep) by escalating the step of the first probe answer unread, or (step-report) by citing the last few
   events of the first step to report. Nor may there be
   any moment from the earliest evidence to the deadline when citing everything released is specific
   (:func:`~warroom.core.author._battery.specific_moments`): whatever the random trainee's seeds, a guess of the
   origin then is a hit.

All-clear drills have no answer key and so no fairness rule here (``run_checks`` holds them to the all-clear rule).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from warroom.core.model import (
    HANDOFF_PREFIX,
    TARGET_LABELS,
    Drill,
    Outcome,
    damage_occurrences,
    detection_events,
    earliest_evidence_at,
    field_cite,
    last_repetition_at,
    repetitions_until,
)
from warroom.core.play import SUPPORTING, Replay, ReplayError, judge_citations
from warroom.core.scoring import EDITIONS, SCORING_VERSION, score
from warroom.core.text import amount, exact_seconds, seconds

#: The fairness rules' names, in the order they are checked.
RULES: tuple[str, ...] = (
    "trigger-happy-contains",
    "damage-by-deadline",
    "nothing-to-save",
    "cascade-names-origin",
    "distractor-like-evidence",
    "distractor-does-damage",
    "battery-hit",
)

#: At most this many events are listed by name in one message; the rest are counted.
MAX_LISTED = 5

#: The trainees judged by rule 1, ``trigger-happy-contains``: each begins by escalating the first event it sees.
FIRST_EVENT_JUDGED: tuple[str, ...] = ("trigger-happy", "until-accepted", "quit-when-losing")
#: The gaming battery's trainees judged by rule ``battery-hit`` (the others are judged by rule 1), in order.
BATTERY_JUDGED: tuple[str, ...] = (
    "flag-and-confirm", "cite-everything", "step-sweep", "probe-sweep", "random", "step-report",
)  # fmt: skip


def trigger_happy_targets(drill: Drill) -> list[tuple[Any, bool, str]]:
    """The events the trigger-happy trainee escalates at, in order: ``(event, is_distractor, what it cites)`` for
    the first trace event (citing it) and then each distractor's event by drill time (ties keep the order of the
    ``distractors`` list), citing the distractor: its event, or (format 2) its field (``e05:stale_after``)."""
    events = {e.id: e for e in drill.trace}
    distractors = sorted(((events[d.event], field_cite(d.event, d.path)) for d in drill.distractors
                          if d.event in events), key=lambda p: p[0].t)
    return [(drill.trace[0], False, drill.trace[0].id), *((e, True, cite) for e, cite in distractors)]


def _origin(key: Any) -> str:
    """The fault's origin as the messages name it: its step id, or "the plan" / "set-up" / "the handoff h1"
    (format 2)."""
    target = str(key.fault.target)
    if target.startswith(HANDOFF_PREFIX):
        return f"the handoff {target[len(HANDOFF_PREFIX):]}"
    return str(TARGET_LABELS.get(target, target))


def _first_escalation(run: Any) -> Any:
    """The first escalation of a scripted trainee's run (its action): the trial's response reads it."""
    return next(a for a in run.actions if a.kind.value == "escalate")


def _trigger_happy_problem(drill: Drill, runs: Sequence[Any]) -> str | None:
    """Rule 1, from the runs of the trainees that escalate the first event they see (:data:`FIRST_EVENT_JUDGED`,
    TraineeRuns): none may be a hit. One message naming every one that is, else None (the drill itself may still
    break the rule: :func:`_evidence_at_start`)."""
    hits = [r for r in runs if r.hit]
    if not hits:
        return None
    key = drill.answer_key
    assert key is not None
    first = _first_escalation(hits[0])
    cited = ", ".join(first.cites or ()) or "nothing"
    others = f" (and {', '.join(r.trainee for r in hits[1:])})" if len(hits) > 1 else ""
    return (
        f"fairness rule trigger-happy-contains: the {hits[0].trainee} trainee{others} is a hit: its first "
        f"escalation, of {_origin(key)} at {seconds(first.t)} citing {cited}, the first trace event it saw, "
        "detected the fault without reading the trace: the evidence is out when the drill starts, so escalating "
        "whatever comes first wins. Release the earliest evidence after the first trace event"
    )


def _evidence_at_start(drill: Drill) -> str | None:
    """Rule 1 for a drill whose earliest evidence (a trace event) is released with its first trace event: it is on
    screen when the drill starts, before a trainee has read anything; None otherwise."""
    start = min((e.t for e in drill.trace), default=None)
    at = earliest_evidence_at(drill)
    if start is None or at is None or at > start:
        return None
    event = min((e for _, e in detection_events(drill)), key=lambda e: e.t)
    return (
        f"fairness rule trigger-happy-contains: the earliest evidence, {event.id}, is out at {seconds(at)}, with the "
        "first trace event: it is on screen when the drill starts, before the trainee has read anything, so "
        "escalating at once wins without reading (the trigger-happy trainee missed only because the first event it "
        "saw is of another step). Release the earliest evidence after the first trace event"
    )


def _battery_problem(drill: Drill, runs: Sequence[Any], edition: Any) -> str:
    """Rule 7, for the runs of one battery trainee that are hits (TraineeRuns, several for the seeds of *random*):
    what the first one's first escalation cited and what to change."""
    key = drill.answer_key
    assert key is not None
    run = runs[0]
    first = _first_escalation(run)
    cites = list(dict.fromkeys(first.cites or ()))
    seeds = [r.seed for r in runs if r.seed is not None]
    named = f" (seed{'s' if len(seeds) > 1 else ''} {', '.join(map(str, seeds))})" if seeds else ""
    head = (
        f"fairness rule battery-hit: the {run.trainee} trainee{named} is a hit without reading the trace: its first "
        f"escalation named {_origin(key)} at {seconds(first.t)} citing {_listed(cites)}"
    )
    if run.trainee == "flag-and-confirm":
        return (
            f"{head}, which the escalation dialog offered with nothing chosen: the dialog must offer only what the "
            "trainee chose (a bug in warroom, not in the drill)"
        )
    if run.trainee == "step-report":
        return (
            f"{head}, that step's last events when it first reported (or the work first moved on), never read: a "
            "trainee who escalates the first step to report citing its own last events wins. Let a healthy step "
            "report before the origin does, or release more of the origin step's healthy events between the "
            "evidence and its report"
        )
    if run.trainee == "probe-sweep":
        return (
            f"{head}, the first probe answer to come in, asked for as soon as its step started and never read: a "
            "trainee who asks for every probe and escalates the step of the first answer wins. Add a needless probe "
            "(an honest answer that finds nothing) whose answer comes in first, of another plan step, or let the "
            "finding probe answer later (its `seconds`) than a needless one asked as early"
        )
    return (
        f"{head}: only {len(cites)} events were out by then, so citing all of them is specific (at least "
        f"{edition.min_citation_precision:.0%} evidence, at most {edition.max_cited} events). Release more of the "
        "trace before the earliest evidence (the planner's call, the step's tool call, another step's events), "
        f"so that more than {edition.max_cited} events are out when it appears"
    )


def _listed(ids: list[str]) -> str:
    """Event ids for a message: at most :data:`MAX_LISTED` by name, the rest counted."""
    if not ids:
        return "nothing"
    shown = ", ".join(ids[:MAX_LISTED])
    return shown + (f" and {len(ids) - MAX_LISTED} more" if len(ids) > MAX_LISTED else "")


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
        shown = seconds if seconds(lo) != seconds(first_damage.t) else exact_seconds  # never "between 13 s and 13 s"
        return (
            f"Move the deadline to between {shown(lo)} and just before {shown(first_damage.t)} (at least "
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
    # a repeated damage event is judged by all its repetitions: damage goes on until its last one
    last = max((e for e, _ in damage), key=last_repetition_at)
    advice, fits = _deadline_advice(drill, damage[0][0], reaction_window)
    if deadline >= last_repetition_at(last):
        when = seconds(last.t) if last.repeat is None else f"its last repetition at {seconds(last_repetition_at(last))}"
        return [
            f"fairness rule nothing-to-save: the deadline ({seconds(deadline)}) is at or after the last damage event "
            f"{last.id} ({when}), so all the damage is done before an on-time escalation can save any "
            f"of it. {advice}" + (", or release the damage events later" if fits else "")
        ]
    early = [(e, a, repetitions_until(e, deadline)) for e, a in damage if e.t <= deadline]
    if not early:
        return []
    listed = ", ".join(_early_damage(e, a, k, deadline, unit) for e, a, k in early[:MAX_LISTED])
    if len(early) > MAX_LISTED:
        listed += f" and {len(early) - MAX_LISTED} more"
    them = "that event" if len(early) == 1 else "those events"
    return [
        f"fairness rule damage-by-deadline: damage is released at or before the deadline ({seconds(deadline)}): "
        f"{listed}. An escalation at the deadline still counts as on time but comes after the events released "
        f"by then, so every damage event must come strictly after the deadline. {advice}"
        + (f", or release {them} after the deadline" if fits else "")
    ]


def _spend_problems(drill: Drill) -> list[str]:
    """Rule 3 for format 2's spend damage (the cost of model calls, from the first call on: rule 2 does not apply
    to it): the deadline must come before the last call counted as spend, or an on-time escalation saves none."""
    key = drill.answer_key
    assert key is not None
    spend = set(key.damage.spend)
    calls = [(t, e) for t, e, _ in damage_occurrences(drill) if e in spend]
    if not calls or key.deadline < calls[-1][0]:
        return []
    t, last = calls[-1]
    return [
        f"fairness rule nothing-to-save: the deadline ({seconds(key.deadline)}) is at or after the last call counted "
        f"as spend ({last} at {seconds(t)}), so the whole spend is made before an on-time escalation can save any of "
        "it. Move the deadline earlier (a lower budget), or let the calls run on after it"
    ]
def _early_damage(event: Any, each: float, k: int, deadline: float, unit: str) -> str:
    """One damage event released at or before the deadline, in words: ``e07 at 24 s (1 wrong reports published)``;
    a repeated one with the repetitions that come by the deadline: ``e07 x11 of 40 from 10 s to 30 s (0.33 USD)``."""
    if event.repeat is None:
        return f"{event.id} at {seconds(event.t)} ({amount(each)} {unit})"
    until = event.t + (k - 1) * event.repeat.interval
    return (f"{event.id} x{k:,} of {event.repeat.count:,} repetitions from {seconds(event.t)} to {seconds(until)} "
            f"({amount(each * k)} {unit})")


def _distractor_problems(drill: Drill) -> list[str]:
    """Rule 5, judged by what a scripted trainee scores: the *distractor-citing* trainee escalates the fault's
    origin once the earliest evidence and a distractor are both out, citing only that distractor (its field, for a
    distractor with a ``path``). It must not contain the incident: a trainee who read only the odd-but-harmless
    thing must not score as one who found the fault."""
    key = drill.answer_key
    assert key is not None
    first = earliest_evidence_at(drill)
    events = {e.id: e for e in drill.trace}
    out = []
    for d in drill.distractors:
        ev = events.get(d.event)
        if ev is None or first is None:
            continue
        cite = field_cite(d.event, d.path)
        replay = Replay(drill)
        replay.advance_to(max(ev.t, first))
        if replay.ended or replay.contained:
            continue
        try:
            replay.escalate(key.fault.target, "distractor-citing trainee", (cite,))
        except ReplayError:  # the origin's handoff is not out yet: nothing to judge
            continue
        replay.run_to_end()
        card = score(drill, list(replay.actions))
        if card.outcome in (Outcome.CONTAINED, Outcome.CONTAINED_LATE):
            shown = [c for c, kind in judge_citations(drill, (cite,)) if kind in SUPPORTING]
            out.append(
                f"fairness rule distractor-like-evidence: a trainee who escalates {_origin(key)} at "
                f"{seconds(max(ev.t, first))} citing only distractor {cite} contains the incident "
                f"({card.outcome.value}, {card.total}/100): {', '.join(shown)} shows the fault by the answer key, so "
                "one who read only the odd-but-harmless thing scores as one who found it. Point the distractor at a "
                "field that holds no evidence (its own `path`), or drop it from the distractors"
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


def _moment_problem(drill: Drill, moments: list[tuple[float, tuple[str, ...]]], edition: Any) -> str:
    """Rule 7, for the moments when citing everything released is specific (``moments``, non-empty)."""
    key = drill.answer_key
    assert key is not None
    t, released = moments[0]
    until = f" (and until {seconds(moments[-1][0])})" if len(moments) > 1 else ""
    return (
        f"fairness rule battery-hit: at {seconds(t)}{until} citing every event released ({_listed(list(released))}) "
        f"is a specific citation (at least {edition.min_citation_precision:.0%} evidence or accepted, at most "
        f"{edition.max_cited} events), so a guess of {_origin(key)} then, citing everything, is a hit without "
        "reading the trace. Release more of the trace before the earliest evidence (the planner's call, the step's "
        f"tool call, another step's events), or the events after it together, so that more than "
        f"{edition.max_cited} events are out whenever the evidence can be cited"
    )


def fairness_problems(
    drill: Drill,
    runs: Sequence[Any],
    reaction_window: float,
    moments: list[tuple[float, tuple[str, ...]]] | None = None,
) -> list[str]:
    """The fairness rules' messages for ``drill`` (empty when it is fair, and always for an all-clear drill).

    ``runs`` are the scripted trainees' runs on this drill (:class:`~warroom.core.author._trainee.TraineeRun`:
    trigger-happy's and the gaming battery's are judged, by their response); ``reaction_window`` is the least drill
    time (seconds) a person needs between the earliest evidence and the deadline, used to say where the deadline
    can go; ``moments`` are the times when citing everything released is specific
    (:func:`~warroom.core.author._battery.specific_moments`). Pure; never raises for a valid drill.
    """
    key = drill.answer_key
    if key is None:
        return []
    problems: list[str] = []
    # rule 1: a trainee escalating the first event it sees is a hit, or (none is) the evidence is out at the start
    first_event = (_trigger_happy_problem(drill, [r for r in runs if r.trainee in FIRST_EVENT_JUDGED])
                   or _evidence_at_start(drill))
    problems += [first_event] if first_event else []
    edition = EDITIONS[SCORING_VERSION]
    for trainee in BATTERY_JUDGED:
        hits = [r for r in runs if r.trainee == trainee and r.hit]
        problems += [_battery_problem(drill, hits, edition)] if hits else []
    if moments:
        problems.append(_moment_problem(drill, moments, edition))
    problems += _damage_problems(drill, reaction_window) + _spend_problems(drill)
    if key.fault.origin_step in key.cascade:
        problems.append(
            f"fairness rule cascade-names-origin: the cascade names the origin step {key.fault.origin_step}; the "
            "cascade is the plan steps that build on the bad result, after the step where the fault happened. "
            f"Remove {key.fault.origin_step} from answer_key.cascade"
        )
    problems += _distractor_problems(drill)
    problems += _damaging_distractor_problems(drill)
    return problems
