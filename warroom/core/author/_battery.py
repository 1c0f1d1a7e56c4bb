"""The gaming battery of ``warroom check``: scripted trainees that do not read the trace, each trying a way to win
without detecting anything. None of them may ever be a **hit** (the trial's response, read from the first
escalation: docs/scoring.md, "The trial and its response"), on any drill, in any variant; ``run_checks`` reports a
hit as a fairness problem (:mod:`warroom.core.author._fairness`). The strategies (docs/scoring.md lists them too):

- **until-accepted**: as each trace event is released (every event: tool calls and results, reports, logs, ...),
  escalates its plan step citing that event, again and again, until an escalation is accepted (events released
  while the planner re-plans a false escalation are taken in turn, each its own escalation).
- **flag-and-confirm**: flags every event as it arrives and, after each, opens the escalation dialog and confirms
  what it offers (:func:`warroom.core.play.escalation_draft` for no chosen event: following the newest event, the
  trainee chose nothing, so the dialog offers no step and no citation and there is nothing to confirm).
- **cite-everything**: escalates the fault's origin at the ideal trainee's moment (the earliest evidence), citing
  every event released by then: it knows where and when, and tests only that citing is a judgement.
- **step-sweep**: from 0 s escalates s1, s2, ... in turn (then, in format 2, the plan and set-up), one every
  :data:`SWEEP_INTERVAL` seconds (or at once after a false escalation's wait), citing every released event.
- **probe-sweep**: asks for every verification probe as soon as its plan step has started and escalates the step
  of the first answer to come in, citing that answer, which it never reads: the probe that answers first must not
  be a hit (asking for proof shows judgement only when a needless probe may answer first).
- **random**: for each seed of ``0 .. RANDOM_SEEDS - 1``, 1 to 3 escalations of a random target at random drill
  times (uniform over the trace), each citing every released event.
- **quit-when-losing**: plays like trigger-happy and quits as soon as a re-plan says nothing was found or damage is
  shown (a quit is a response too: what it did until then).
- **step-report**: two runs: at the first executor report, and when the work first moves on from the first plan
  step to another, escalates that step citing its last :data:`STEP_REPORT_CITES` (or fewer) released events,
  unread. The first step to report must not give itself away by its own last few events.

Each is played live on a :class:`~warroom.core.play.Replay` and scored from its action log by the current rules,
as every scripted trainee is (:func:`warroom.core.author._trainee.scored_run`).

The random trainee samples; :func:`specific_moments` makes its zero a certainty rather than luck of the seeds: the
drill times, from the earliest evidence to the deadline, when every event released so far, cited together, would
be a specific citation (at least half evidence or accepted, at most a few events). At such a moment an escalation
of the origin citing everything is a hit, whoever makes it, so a fair drill has none (rule ``battery-hit``).
"""

from __future__ import annotations

import random as _random
from collections import deque
from collections.abc import Callable

from warroom.core.author._fairness import trigger_happy_targets
from warroom.core.author._trainee import TraineeRun, first_evidence, scored_run
from warroom.core.model import (
    PLAN,
    SETUP,
    Drill,
    earliest_evidence_at,
    event_target,
    finds_from,
    handoff_of,
    handoff_targets,
)
from warroom.core.play import Replay, StepState, escalation_draft, is_specific
from warroom.core.scoring import EDITIONS, SCORING_VERSION
from warroom.core.text import EXACT_PLACES, exact_figure, exact_seconds

#: The battery's trainees, in the order they are played and shown.
BATTERY: tuple[str, ...] = (
    "until-accepted", "flag-and-confirm", "cite-everything", "step-sweep", "probe-sweep", "random",
    "quit-when-losing", "step-report",
)  # fmt: skip

#: The seeds the *random* trainee plays: ``0 .. RANDOM_SEEDS - 1``.
RANDOM_SEEDS = 20

#: Seconds of drill time between the *step-sweep* trainee's escalations (when no false escalation's wait is longer).
SWEEP_INTERVAL = 5.0

#: How many of its step's latest released events the *step-report* trainee cites.
STEP_REPORT_CITES = 4

#: One line per battery trainee, for tables, help and JSON.
BATTERY_DESCRIPTIONS: dict[str, str] = {
    "until-accepted": "escalates each event's step as it is released, citing it, until one is accepted",
    "flag-and-confirm": "flags every event as it arrives and confirms what the escalation dialog offers",
    "cite-everything": "escalates the origin at the earliest evidence, citing every released event",
    "step-sweep": f"escalates s1, s2, ... in turn from 0 s, one every {exact_seconds(SWEEP_INTERVAL)}, citing "
                  "everything",
    "probe-sweep": "asks every probe as soon as it can and escalates the step of the first answer, citing it",
    "random": f"1-3 escalations of random steps at random times, citing everything (seeds 0-{RANDOM_SEEDS - 1})",
    "quit-when-losing": "plays like trigger-happy and quits once a re-plan finds nothing or damage shows",
    "step-report": f"at the first report (or the first step's end) escalates that step citing its last "
                   f"{STEP_REPORT_CITES} events",
}


def specific_moments(drill: Drill) -> list[tuple[float, tuple[str, ...]]]:
    """The drill times from the earliest evidence to the deadline (event times: what is released changes only
    then) at which citing every trace event released so far is specific by the current rules, each with those
    events; empty for a fair drill, and always for an all-clear drill."""
    key = drill.answer_key
    first = earliest_evidence_at(drill)
    if key is None or first is None:
        return []
    edition = EDITIONS[SCORING_VERSION]
    moments = []
    for t in sorted({e.t for e in drill.trace if first <= e.t <= key.deadline} | {first}):
        released = tuple(dict.fromkeys(e.id for e in drill.trace if e.t <= t))
        if len(released) > edition.max_cited:
            break  # (more events only come later)
        if is_specific(drill, released, min_precision=edition.min_citation_precision, max_cited=edition.max_cited,
                       once_per_event=edition.evidence_event_once):
            moments.append((t, released))
    return moments


def _everything(replay: Replay) -> tuple[str, ...]:
    """Every event released so far, by id (trace events and probe results): what citing everything cites; of a
    trace with more than an action may cite (:data:`~warroom.core.model.MAX_CITES`), the latest that many."""
    from warroom.core.model import MAX_CITES

    return tuple(dict.fromkeys(e.id for e in replay.released))[-MAX_CITES:]


def _targets(drill: Drill) -> list[str]:
    """What the escalation dialog offers, in its order: the plan steps, then (format 2) the plan and set-up, and the
    handoffs outside any plan step (each offered once released: :func:`_offered`)."""
    return [s.id for s in drill.plan] + ([PLAN, SETUP, *handoff_targets(drill)] if drill.schema_version >= 2 else [])


def _offered(replay: Replay, target: str) -> bool:
    """True when the escalation dialog offers ``target`` now: a handoff only once it is released."""
    handoff = handoff_of(replay.drill, target)
    return handoff is None or handoff.id in replay.released_positions


def _until_accepted(drill: Drill, replay: Replay, notes: list[str]) -> None:
    pending = deque(replay.released)
    while not replay.ended and not replay.contained:
        if not pending:
            nxt = replay.next_event_time
            if nxt is None:
                break
            pending.extend(replay.advance_to(max(nxt, replay.now)))
            continue
        ev = pending.popleft()
        result = replay.escalate(event_target(drill, ev), "until-accepted trainee", (ev.id,))
        if not result.contained:
            pending.extend(result.released)


def _flag_and_confirm(drill: Drill, replay: Replay, notes: list[str]) -> None:
    format2 = drill.schema_version >= 2
    arrived = list(replay.released)
    flagged = set(replay.flagged)  # kept here: `replay.flagged` is a copy, and asking it per event was quadratic
    while not replay.ended and not replay.contained:
        for ev in arrived:
            if ev.id not in flagged:
                replay.flag(ev.id, "flag-and-confirm trainee")
                flagged.add(ev.id)
        draft = escalation_draft(None, replay.released, format2)  # following the newest event: nothing chosen
        if draft.target is not None:
            arrived = replay.escalate(draft.target, "flag-and-confirm trainee", draft.cites).released
            continue
        if not notes:
            notes.append("the escalation dialog offered no step and no citation (nothing chosen): nothing to confirm")
        nxt = replay.next_event_time
        if nxt is None:
            break
        arrived = replay.advance_to(max(nxt, replay.now))


def _cite_everything(drill: Drill, replay: Replay, notes: list[str]) -> None:
    key = drill.answer_key
    found = first_evidence(drill)
    if key is None or found is None:
        notes.append("no evidence to time the escalation by: it does nothing")
        return
    at, _, _, probe = found
    if probe is not None:  # asks for the finding probe as early as the ideal trainee
        replay.advance_to(finds_from(drill, probe) or 0.0)
        replay.probe(probe.id)
    replay.advance_to(max(at, replay.now))
    if replay.ended:
        notes.append(f"the drill ended at {exact_seconds(replay.end_time or 0.0)}, before the escalation at "
                     f"{exact_seconds(at)}")
        return
    replay.escalate(key.fault.target, "cite-everything trainee", _everything(replay))


def _step_sweep(drill: Drill, replay: Replay, notes: list[str]) -> None:
    t = 0.0
    for target in _targets(drill):
        replay.advance_to(max(t, replay.now))
        if replay.ended or replay.contained:
            break
        if _offered(replay, target):
            replay.escalate(target, "step-sweep trainee", _everything(replay))
        t += SWEEP_INTERVAL


def _ask_every_probe(drill: Drill, replay: Replay, asked: set[str]) -> None:
    """Ask for each probe not yet asked for whose plan step has started (the war room offers no other)."""
    started = replay.step_states
    for probe in drill.probes:
        if probe.id not in asked and started.get(probe.step, StepState.PENDING) is not StepState.PENDING:
            replay.probe(probe.id)
            asked.add(probe.id)


def _probe_sweep(drill: Drill, replay: Replay, notes: list[str]) -> None:
    if not drill.probes:
        notes.append("the drill has no verification probe to ask for: it does nothing")
        return
    steps = {p.id: p.step for p in drill.probes}
    asked: set[str] = set()
    while not replay.ended and not replay.contained:
        _ask_every_probe(drill, replay, asked)
        nxt = replay.next_event_time
        if nxt is None:
            return
        answer = next((e.id for e in replay.advance_to(max(nxt, replay.now)) if e.id in steps), None)
        if answer is not None:  # the first answer: its escalation is the trial's response
            replay.escalate(steps[answer], "probe-sweep trainee", (answer,))
            return


def _random_moves(drill: Drill, seed: int) -> list[tuple[float, str]]:
    """The *random* trainee's escalations for ``seed``: 1 to 3 (drill time, target), in time order. Drawn with
    ``random.Random(seed).random()`` alone, the one draw Python keeps the same across versions for a seed."""
    draw = _random.Random(seed).random
    targets = _targets(drill)
    n = 1 + int(draw() * 3)
    moves = []
    for _ in range(n):
        t = draw() * drill.duration
        moves.append((t, targets[int(draw() * len(targets))]))
    return sorted(moves)


def _quit_when_losing(drill: Drill, replay: Replay, notes: list[str]) -> None:
    def losing() -> bool:
        return replay.damage > 0 or any(not e.contained for e in replay.escalations)

    for ev, _, cite in trigger_happy_targets(drill):
        while not replay.ended and replay.now < ev.t:  # event by event, to see damage the moment it shows
            nxt = replay.next_event_time
            replay.advance_to(ev.t if nxt is None else max(replay.now, min(nxt, ev.t)))
            if losing():
                break
        if replay.ended or replay.contained:
            return
        if losing():
            replay.quit()
            return
        replay.escalate(event_target(drill, ev), "quit-when-losing trainee", (cite,))
        if losing() and not replay.ended:
            replay.quit()
            return


_PLAYS: dict[str, Callable[[Drill, Replay, list[str]], None]] = {
    "until-accepted": _until_accepted,
    "flag-and-confirm": _flag_and_confirm,
    "cite-everything": _cite_everything,
    "step-sweep": _step_sweep,
    "probe-sweep": _probe_sweep,
    "quit-when-losing": _quit_when_losing,
}


def step_report_cues(drill: Drill) -> list[tuple[float, str]]:
    """The *step-report* trainee's cues, ``(drill time, plan step)``: the first executor report's time and step, and
    the time the work first moves on from the first plan step to another (with that first step); each once."""
    cues: list[tuple[float, str]] = []
    report = next((e for e in drill.trace if e.kind == "executor_report" and e.step is not None), None)
    if report is not None:
        cues.append((report.t, str(report.step)))
    stepped = [e for e in drill.trace if e.step is not None]
    moved = next((e for e in stepped if e.step != stepped[0].step), None)
    if moved is not None and (moved.t, str(stepped[0].step)) not in cues:
        cues.append((moved.t, str(stepped[0].step)))
    return cues


def _step_report(drill: Drill, replay: Replay, notes: list[str], index: int) -> None:
    t, step = step_report_cues(drill)[index]
    replay.advance_to(max(t, replay.now))
    if replay.ended or replay.contained:
        return
    own = tuple(dict.fromkeys(e.id for e in replay.released if getattr(e, "step", None) == step))
    notes.append(f"at {exact_seconds(t)}, {step}'s last events")
    replay.escalate(step, "step-report trainee", own[-STEP_REPORT_CITES:])


#: The battery trainees played once per cue (a moment), by how many cues a drill has and how each is played.
_PER_CUE: dict[str, tuple[Callable[[Drill], int], Callable[[Drill, Replay, list[str], int], None]]] = {
    "step-report": (lambda d: len(step_report_cues(d)), _step_report),
}


def play_battery_trainee(drill: Drill, trainee: str, seed: int = 0, *, self_test: bool = True) -> TraineeRun:
    """Play ``drill`` with the battery trainee named ``trainee`` (one of :data:`BATTERY`; ``seed`` is the *random*
    trainee's, or the cue's index of a trainee played once per cue: *step-report*) and score it
    (``self_test``: as :func:`~warroom.core.author._trainee.scored_run`). Raises KeyError for an unknown name."""
    description = BATTERY_DESCRIPTIONS[trainee]
    replay = Replay(drill)
    replay.advance_to(0.0)
    notes: list[str] = []
    if trainee in _PER_CUE:
        _PER_CUE[trainee][1](drill, replay, notes, seed)
        return scored_run(trainee, description, replay, notes, self_test=self_test)
    if trainee != "random":
        _PLAYS[trainee](drill, replay, notes)
        return scored_run(trainee, description, replay, notes, self_test=self_test)
    for t, target in _random_moves(drill, seed):
        replay.advance_to(max(t, replay.now))
        if replay.ended or replay.contained:
            break
        if _offered(replay, target):
            replay.escalate(target, f"random trainee, seed {seed}", _everything(replay))
    return scored_run(trainee, description, replay, notes, seed, self_test=self_test)


def play_battery(drill: Drill, seeds: int = RANDOM_SEEDS, *, self_test: bool = True) -> list[TraineeRun]:
    """Every battery trainee's run on ``drill``, in :data:`BATTERY` order: *step-report* once per cue, the
    *random* trainee once per seed of ``0 .. seeds - 1`` (``self_test``: as
    :func:`~warroom.core.author._trainee.scored_run`)."""
    runs: list[TraineeRun] = []
    for trainee in BATTERY:
        if trainee == "random":
            runs += [play_battery_trainee(drill, trainee, seed, self_test=self_test) for seed in range(seeds)]
        elif trainee in _PER_CUE:
            cues = range(_PER_CUE[trainee][0](drill))
            runs += [play_battery_trainee(drill, trainee, cue, self_test=self_test) for cue in cues]
        else:
            runs.append(play_battery_trainee(drill, trainee, self_test=self_test))
    return runs


#: The share of a drill's trace above which ``warroom check`` warns of the *newest-guess* (see
#: :func:`newest_guess_windows`): a blind guess that wins this often is a detection test only in name.
NEWEST_GUESS_WARN = 0.10


def newest_guess_windows(drill: Drill) -> list[tuple[float, float, str]]:
    """The *newest-guess*: at a moment drawn uniformly over the trace (0 s to the drill's duration), the trainee
    moves onto the newest released event and confirms what the escalation dialog offers for it (that event's target,
    citing that event: :func:`~warroom.core.play.escalation_draft`), reading nothing. Returns the spans of drill
    time ``(start, end, event id)`` in which that guess is a **hit** by the current rules, in time order (empty for
    an all-clear drill). Exact, not sampled: what is released changes only at event times, and a hit must come at
    or before the deadline. The guess's chance of a hit is their total length over the duration
    (:func:`newest_guess_share`)."""
    from warroom.core.model import Action, ActionKind, Response
    from warroom.core.scoring import score

    key = drill.answer_key
    if key is None or drill.duration <= 0:
        return []
    from warroom.core.play import SUPPORTING, judge_citations

    trace = drill.trace  # in drill-time order (the loader's rule)
    format2 = drill.schema_version >= 2
    spans: list[tuple[float, float, str]] = []
    for k, newest in enumerate(trace):
        if newest.t > key.deadline:
            break
        if k + 1 < len(trace) and trace[k + 1].t == newest.t:
            continue  # (not the newest once the events of its time are out)
        if judge_citations(drill, (newest.id,))[0][1] not in SUPPORTING:
            continue  # (citing it alone supports nothing: never a hit, no need to score it)
        draft = escalation_draft(newest, trace[: k + 1], format2)
        if draft.target != key.fault.target:
            continue
        guess = Action(t=newest.t, kind=ActionKind.ESCALATE, step=draft.target, cites=draft.cites)
        if score(drill, [guess]).response is Response.HIT:
            end = min(trace[k + 1].t if k + 1 < len(trace) else drill.duration, key.deadline)
            spans.append((newest.t, max(end, newest.t), newest.id))
    return spans


def newest_guess_share(spans: list[tuple[float, float, str]], drill: Drill) -> float:
    """The chance that the *newest-guess* (:func:`newest_guess_windows`, whose ``spans`` these are) is a hit: their
    total length over the drill's duration (0 for a drill of no duration)."""
    return sum(end - start for start, end, _ in spans) / drill.duration if drill.duration > 0 else 0.0


def newest_guess_sentence(share: float, spans: list[tuple[float, float, str]]) -> tuple[str, bool]:
    """What ``warroom check`` (and author mode's save) says of the *newest-guess* of a drill with a fault: the
    sentence, and whether it is a warning (the chance over :data:`NEWEST_GUESS_WARN`, with what to do about it). A
    chance that rounds to the threshold is given to a tenth of a percent, so that 10.4% is never "10%, more than
    10%"."""
    listed = ", ".join(f"{e} at {exact_figure(a, EXACT_PLACES)}-{exact_seconds(b)}" for a, b, e in spans[:4])
    more = f" and {len(spans) - 4} more" if len(spans) > 4 else ""
    where = f" ({listed}{more})" if listed else ""
    chance = "under 1%" if 0 < share < 0.005 else f"{share:.0%}"
    if f"{share:.0%}" == f"{NEWEST_GUESS_WARN:.0%}" and share != NEWEST_GUESS_WARN:
        chance = f"{share:.1%}"
    line = f"newest guess (the newest event's step, citing it, at a random moment): a hit for {chance} of the trace"
    if share <= NEWEST_GUESS_WARN:
        return f"{line}{where}", False
    return (f"{line}{where}, more than {NEWEST_GUESS_WARN:.0%}: a guess that reads nothing wins that often (release "
            "other events between the evidence and the deadline, so that the newest event is less often the "
            "evidence)"), True
