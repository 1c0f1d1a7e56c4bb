"""Headless checks of a drill: scripted trainees play it and their scores must rank as a fair drill's would.

:func:`run_checks` plays the drill with each scripted trainee in :data:`TRAINEES` on a :class:`Replay` (no
terminal, no wall clock), scores each action log with :func:`~warroom.core.scoring.score`, and lists the
problems that make the drill unfit to play. ``warroom check PATH...`` prints the result.

The scripted trainees (docs/scoring.md defines them too). In a drill with a fault:

- **ideal** (the careful trainee): at the earliest evidence event's time, flags it and escalates the fault's
  origin step citing it (format 2: the origin may be "the plan" or "set-up"; a comparison is cited whole, every
  event of it, and counts once its last event is out).
- **late**: escalates the origin step after the deadline, at ``deadline + min(LATE_DELAY, (end - deadline) / 2)``
  where ``end`` is the last trace event's time (so strictly after the deadline and before the trace ends), citing
  the earliest evidence.
- **never**: does nothing.
- **trigger-happy**: at the first trace event escalates that event's plan step citing that event, then at each
  distractor's event flags it and escalates its plan step citing the distractor: it cites what it saw first, never
  the evidence (an event outside any step names the first plan step; in format 2 a planner call names "the plan"
  and an event before step 1 "set-up"); each escalation waits until the drill clock
  has reached its event (a false escalation moves the clock on).
- **wrong-step**: at the earliest evidence, escalates a step other than the origin, citing the evidence: the first
  cascade step that is not the origin, else the first plan step that is not the origin.
- **prober** (format 2 verification probes): requests every probe of the drill as soon as its plan step has started
  (its first trace event; a probe with earlier ``answers`` once its own answer applies, as *ideal* does), then
  escalates the origin step at the earliest evidence (an evidence event or the result of a probe that finds the
  fault), citing it. It pays for every needless probe.

Where the earliest evidence is a probe's result (a fault only a probe finds before the damage), *ideal* requests
that probe as soon as its step starts (format 2: once its own answer applies, after its earlier ``answers``) and
escalates when the result comes in, citing it (so "cannot be won"
also means the prober, who asks for that probe just as early, cannot contain it; trigger-happy never asks for a
probe, so rule ``trigger-happy-contains`` fails such a drill only if an evidence event gives the fault away);
*late* and *wrong-step* cite the probe's result too (late requests it at the deadline and escalates once the result
is in, at the earliest).

In an all-clear drill: ideal and never do nothing; prober requests every probe and does not escalate; late
escalates the last plan step halfway through the trace (citing nothing); trigger-happy is as above; wrong-step
escalates the first plan step at the first distractor's event citing it (halfway through the trace, citing nothing,
when there is none).

A drill with a fault fails when it cannot be won (no evidence at or before the deadline, fewer than
:data:`MIN_REACTION_WINDOW` seconds between the earliest evidence and the deadline, or the ideal trainee does not
contain in time), when the scores do not rank ``ideal > late > never`` and ideal above trigger-happy and every
trainee of the gaming battery (:mod:`warroom.core.author._battery`, played beside these six: trainees that do not
read the trace), or when it breaks a fairness rule of :mod:`warroom.core.author._fairness`, judged by the trial's
response (trigger-happy, or a battery trainee, is a hit; citing everything released is specific at some moment;
damage at or before the deadline; a deadline at or after all the damage; the cascade names the origin step; a
distractor of the same kind in the same plan step as evidence; a distractor that does damage). An all-clear drill
fails unless *never* holds the all clear with the top score and every trainee who escalated (the battery's too)
scores less. Any drill fails if a live replay and the re-scored action log disagree (an engine bug).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from warroom.core.author._battery import newest_guess_share, newest_guess_windows, play_battery, specific_moments
from warroom.core.author._fairness import fairness_problems, trigger_happy_targets
from warroom.core.author._trainee import TraineeRun, first_evidence, scored_run
from warroom.core.model import (
    Drill,
    Outcome,
    earliest_evidence_at,
    event_target,
    finds_from,
    outcome_label,
)
from warroom.core.play import Replay
from warroom.core.text import exact_seconds
from warroom.core.variants import VariantError, apply_variant

#: Seconds of drill time a person needs, at the least, between the earliest evidence and the deadline to read the
#: evidence and escalate (the scripted ideal trainee reacts in zero time; people do not).
MIN_REACTION_WINDOW = 5.0

#: The scripted trainees, in the order they are played and shown.
TRAINEES: tuple[str, ...] = ("ideal", "late", "never", "trigger-happy", "wrong-step", "prober")

#: How long after the deadline the *late* trainee escalates, at most (seconds of drill time).
LATE_DELAY = 10.0

#: One line per scripted trainee, for tables and help.
TRAINEE_DESCRIPTIONS: dict[str, str] = {
    "ideal": "escalates the fault's origin step at the earliest evidence, citing it",
    "late": "escalates the origin step just after the deadline, citing the evidence",
    "never": "never acts",
    "trigger-happy": "escalates at the first event and at every distractor, citing what it saw",
    "wrong-step": "escalates a step other than the origin at the earliest evidence, citing it",
    "prober": "asks for every verification probe as its step starts, escalates the origin at the first evidence",
}


@dataclass(frozen=True)
class CheckReport:
    """The result of :func:`run_checks` on one drill: every reference trainee's run (``runs``), the gaming battery's
    (``battery``: :mod:`warroom.core.author._battery`, the *random* trainee once per seed) and the problems found
    (none = passed)."""

    drill_id: str
    all_clear: bool
    runs: list[TraineeRun]
    problems: list[str]
    battery: list[TraineeRun] = field(default_factory=list)
    #: The spans of drill time in which the *newest-guess* is a hit (:func:`~warroom.core.author.newest_guess_windows`).
    newest_guess: list[tuple[float, float, str]] = field(default_factory=list)
    #: Its chance of a hit: their length over the drill's duration (0 in an all-clear drill).
    newest_guess_share: float = 0.0

    @property
    def passed(self) -> bool:
        """True when no problem was found."""
        return not self.problems

    @property
    def ok(self) -> bool:
        """Same as :attr:`passed`."""
        return self.passed

    def run(self, trainee: str) -> TraineeRun:
        """The run of the named scripted trainee, of the reference trainees or the battery (the *random* trainee's
        of seed 0); raises KeyError for an unknown name."""
        for r in (*self.runs, *self.battery):
            if r.trainee == trainee:
                return r
        raise KeyError(trainee)

    def seeded(self, trainee: str) -> list[TraineeRun]:
        """Every run of the named battery trainee (one per seed for *random*, one per cue for *step-report*, else
        one), in seed (cue) order."""
        return [r for r in self.battery if r.trainee == trainee]

    @property
    def battery_hits(self) -> list[TraineeRun]:
        """The battery's runs whose response is a hit (none on a fair drill)."""
        return [r for r in self.battery if r.hit]

    def total(self, trainee: str) -> int:
        """The named trainee's total score (0 to the scorecard's ``max_total``, 100)."""
        return self.run(trainee).scorecard.total

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form, as ``warroom check --format json`` prints it (with the file's path added there)."""
        return {
            "drill_id": self.drill_id,
            "all_clear": self.all_clear,
            "passed": self.passed,
            "problems": list(self.problems),
            "runs": [r.to_dict() for r in self.runs],
            "battery": {
                "hits": len(self.battery_hits),
                "runs": [r.to_dict() for r in self.battery],
            },
            "newest_guess": {
                "share": self.newest_guess_share,
                "spans": [{"start": a, "end": b, "event": e} for a, b, e in self.newest_guess],
            },
        }


# A script is a list of (drill time, what, argument, cited event ids): ("flag", event id, ()) or ("escalate",
# step id, the events the escalation cites).
_Script = list[tuple[float, str, str, tuple[str, ...]]]


def _prober_moves(drill: Drill) -> _Script:
    """The prober's requests: every probe as soon as its plan step has started, a probe with earlier answers
    (format 2) once its own answer applies, as *ideal* asks it: asked while it answers "nothing wrong yet", a probe
    that finds the fault finds nothing, and a probe is asked once."""
    moves: _Script = []
    for p in drill.probes:
        at = finds_from(drill, p)
        if at is not None:
            moves.append((at, "probe", p.id, ()))
    return moves


def _script(drill: Drill, trainee: str) -> tuple[_Script, list[str]]:
    """The scripted trainee's planned moves on ``drill`` and notes on moves it cannot make."""
    key = drill.answer_key
    end = drill.duration
    midpoint = end / 2
    events = {e.id: e for e in drill.trace}
    distractor_events = sorted(
        (events[d.event] for d in drill.distractors if d.event in events), key=lambda e: e.t
    )
    notes: list[str] = []
    script: _Script = _prober_moves(drill) if trainee == "prober" else []
    if trainee == "never":
        return script, notes
    if trainee == "trigger-happy":
        for ev, is_distractor, cite in trigger_happy_targets(drill):
            if is_distractor:
                script.append((ev.t, "flag", ev.id, ()))
            script.append((ev.t, "escalate", event_target(drill, ev), (cite,)))
        return script, notes
    if key is None:  # all-clear drill
        if trainee == "late":
            script.append((midpoint, "escalate", drill.plan[-1].id, ()))
        elif trainee == "wrong-step":
            first = distractor_events[0] if distractor_events else None
            cites: tuple[str, ...]
            at, cites = (first.t, (first.id,)) if first is not None else (midpoint, ())
            script.append((at, "escalate", drill.plan[0].id, cites))
        return sorted(script, key=lambda m: m[0]), notes
    origin = key.fault.target
    found = first_evidence(drill)
    if found is None:
        notes.append("no evidence event in the trace")
        return script, notes
    at, cites, eid, probe = found
    ask = [(finds_from(drill, probe) or 0.0, "probe", probe.id, ())] if probe is not None else []
    if trainee in ("ideal", "prober"):
        script += ask if trainee == "ideal" else []
        if probe is None:
            script.append((at, "flag", eid, ()))
        script.append((at, "escalate", origin, cites))
    elif trainee == "late":
        if end <= key.deadline:
            notes.append(f"the trace ends at {exact_seconds(end)}, at or before the deadline "
                         f"({exact_seconds(key.deadline)}): no escalation can be late")
            return script, notes
        late = key.deadline + min(LATE_DELAY, (end - key.deadline) / 2)
        if probe is not None:  # asks for the probe at the deadline and escalates once its result is in
            script.append((max(key.deadline, ask[0][0]), "probe", probe.id, ()))
            late = max(late, script[-1][0] + probe.seconds)
        script.append((late, "escalate", origin, cites))
    elif trainee == "wrong-step":
        others = [s for s in key.cascade if s != origin] + [s.id for s in drill.plan if s.id != origin]
        if not others:
            notes.append("the plan has no step other than the origin")
            return script, notes
        script += ask
        script.append((at, "escalate", others[0], cites))
    return sorted(script, key=lambda m: m[0]), notes


def play_scripted(drill: Drill, trainee: str, *, self_test: bool = True) -> TraineeRun:
    """Play ``drill`` with the named scripted trainee (one of :data:`TRAINEES`) and score it.

    The run is live (a :class:`Replay` advanced to each move) and then re-scored from its action log; when the two
    disagree a note says so (``run_checks`` reports it as a problem). Without ``self_test`` it is not re-scored.
    Raises KeyError for an unknown trainee.
    """
    if trainee not in TRAINEE_DESCRIPTIONS:
        raise KeyError(trainee)
    script, notes = _script(drill, trainee)
    replay = Replay(drill)
    replay.advance_to(0.0)
    for t, what, arg, cites in script:
        if replay.ended:
            notes.append(f"the drill ended at {exact_seconds(replay.end_time or 0.0)}, before the planned {what} "
                         f"of {arg} at {exact_seconds(t)}")
            break
        replay.advance_to(max(t, replay.now))
        if replay.ended:
            notes.append(f"the drill ended at {exact_seconds(replay.end_time or 0.0)}, before the planned {what} "
                         f"of {arg} at {exact_seconds(t)}")
            break
        if what == "flag":
            if not replay.is_released(arg):  # an earlier escalation stopped the trace before this event
                notes.append(f"{arg} was never released: the trace had stopped before {exact_seconds(t)}")
                continue
            replay.flag(arg, f"{trainee} trainee: this looks wrong")
        elif what == "probe":
            if replay.contained:
                notes.append(f"the incident was already contained; no probe {arg} at {exact_seconds(replay.now)}")
            else:
                replay.probe(arg)
        elif replay.contained:
            notes.append(f"the incident was already contained; no escalation of {arg} at {exact_seconds(replay.now)}")
        else:
            replay.escalate(arg, f"{trainee} trainee", cites)
    return scored_run(trainee, TRAINEE_DESCRIPTIONS[trainee], replay, notes, self_test=self_test)


def _all_clear_problems(runs: list[TraineeRun], label: Callable[[str], str]) -> list[str]:
    """The problems of an all-clear drill's ``runs``: never must hold the all clear with full points, and every
    trainee who escalated must score less than never. ``label`` names a trainee's score in a message."""
    problems: list[str] = []
    never = next(r for r in runs if r.trainee == "never").scorecard
    if never.outcome is not Outcome.ALL_CLEAR_HELD or never.total != never.max_total:
        problems.append(
            f"never should hold the all clear with {never.max_total} points, but scored {label('never')}"
        )
    for r in runs:
        if r.scorecard.escalation_count and not r.scorecard.total < never.total:
            problems.append(
                f"{r.trainee} escalated in an all-clear drill but scored {label(r.trainee)}, not less than never"
            )
    return problems


def run_checks(drill: Drill, *, self_test: bool = True) -> CheckReport:
    """Play ``drill`` with every scripted trainee and check that it can be won and ranks them fairly.

    Returns a :class:`CheckReport` (its ``problems`` say what is wrong, in words an author can act on). Pure and
    deterministic; never raises for a valid drill. ``self_test`` (the default) also re-scores each run from its
    action log and reports an engine bug when the two disagree: a test of the engine, not of the drill, which a
    caller checking many drills the engine has already been tested on may leave out (half the work).
    """
    runs = [play_scripted(drill, t, self_test=self_test) for t in TRAINEES]
    battery = play_battery(drill, self_test=self_test)
    by = {r.trainee: r for r in runs}
    problems: list[str] = []
    for r in (*runs, *battery):
        problems += [n for n in r.notes if n.startswith("engine bug")]

    def tot(name: str) -> int:
        return by[name].scorecard.total

    def label(name: str) -> str:
        card = by[name].scorecard
        return f"{name} {card.total} ({outcome_label(card.outcome, drill.is_all_clear)})"

    if drill.is_all_clear:
        return CheckReport(drill.id, True, runs, problems + _all_clear_problems([*runs, *battery], label), battery)

    key = drill.answer_key
    assert key is not None  # a drill is either all-clear or has an answer key
    first = earliest_evidence_at(drill)  # every evidence item, or the earliest result of a probe that finds it
    if first is None or first > key.deadline:
        at = ("no evidence event in the trace" if first is None
              else f"the earliest evidence comes at {exact_seconds(first)}")
        problems.append(f"cannot be won: {at}, after the deadline ({exact_seconds(key.deadline)})")
    elif key.deadline - first < MIN_REACTION_WINDOW:
        problems.append(
            f"cannot be won by a person: the deadline ({exact_seconds(key.deadline)}) leaves only "
            f"{exact_seconds(key.deadline - first)} "
            f"after the earliest evidence ({exact_seconds(first)}); "
            f"give at least {exact_seconds(MIN_REACTION_WINDOW)} to read it and escalate"
        )
    elif by["ideal"].scorecard.outcome is not Outcome.CONTAINED:
        why = "; ".join(by["ideal"].notes) or "see its scorecard"
        problems.append(f"cannot be won: the ideal trainee did not contain in time ({label('ideal')}: {why})")
    if not tot("ideal") > tot("late"):
        problems.append(f"ranking: ideal must score more than late, but {label('ideal')} <= {label('late')}")
    if not tot("late") > tot("never"):
        why = "; ".join(by["late"].notes)
        problems.append(
            f"ranking: late must score more than never, but {label('late')} <= {label('never')}"
            + (f" ({why})" if why else "")
        )
    if not by["trigger-happy"].hit and not tot("ideal") > tot("trigger-happy"):  # (a hit: rule 1 says it)
        problems.append(
            f"ranking: ideal must score more than trigger-happy, but {label('ideal')} <= {label('trigger-happy')}"
        )
    problems += _battery_ranking(battery, tot("ideal"), label("ideal"))
    moments = specific_moments(drill)
    problems += fairness_problems(drill, [by["trigger-happy"], *battery], MIN_REACTION_WINDOW, moments)
    spans = newest_guess_windows(drill)
    return CheckReport(drill.id, False, runs, problems, battery, spans, newest_guess_share(spans, drill))


def _battery_ranking(battery: list[TraineeRun], ideal: int, ideal_label: str) -> list[str]:
    """The ranking problems of a drill with a fault's gaming battery: the ideal trainee (who scored ``ideal``,
    described as ``ideal_label``) must score more than each battery run that is no hit (a hit is a fairness problem:
    rule battery-hit says it)."""
    problems = []
    for r in battery:
        if not r.hit and not ideal > r.scorecard.total:
            seed = f" (seed {r.seed})" if r.seed is not None else ""
            problems.append(
                f"ranking: ideal must score more than {r.trainee}{seed}, who does not read the trace, but "
                f"{ideal_label} <= {r.trainee}{seed} {r.scorecard.total} "
                f"({outcome_label(r.scorecard.outcome, all_clear=False)})"
            )
    return problems


@dataclass(frozen=True)
class VariantCheck:
    """``warroom check --variants N`` on one drill: the ``seeds`` checked and the ``problems`` found, each
    starting ``seed S:`` (play that variant with ``warroom run --seed S``)."""

    seeds: tuple[int, ...]
    problems: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``seeds`` and ``problems``."""
        return {"seeds": list(self.seeds), "problems": list(self.problems)}


def check_variants(drill: Drill, n: int) -> VariantCheck:
    """Play the variants of seeds ``0 .. n-1`` with the scripted trainees (:func:`warroom.core.author.run_checks`).

    A drill without ``variants`` has one trace only: nothing more is checked (no seeds). Never raises for a valid
    drill; a variant that cannot be made is a problem of its seed.
    """
    if drill.variants is None or n <= 0:
        return VariantCheck((), ())
    problems: list[str] = []
    for seed in range(n):
        try:
            variant = apply_variant(drill, seed)
        except VariantError as exc:
            problems.append(f"seed {seed}: {exc}")
            continue
        report = run_checks(variant)
        problems += [f"seed {seed}: {p}" for p in report.problems]
    return VariantCheck(tuple(range(n)), tuple(problems))
