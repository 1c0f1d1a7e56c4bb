"""The replay engine: one drill played on an injected drill clock, with the trainee's actions applied.

A :class:`Replay` knows nothing of wall-clock time, playback speed or terminals: the caller advances the drill clock
with :meth:`Replay.advance` (seconds of drill time) or :meth:`Replay.advance_to` (an absolute drill time) and gets
back the trace events released by it. Per call, the work is proportional to the number of events released, never
to the trace's length (the release times are bisected).

Events are released when the drill clock reaches their ``t`` (``t <= now``), so the first ``advance(0)`` releases
the events at t=0. An action taken at drill time ``t`` comes after every event released at ``t``.

Escalation semantics (also in docs/scoring.md):

- **Containment.** Escalating the fault's origin step once the earliest evidence event has been released contains
  the incident: the original trace stops (no further events, so no further damage), the answer key's re-plan events
  play (their ``t`` counts from the escalation), and the drill ends when the last of them is released (at once if
  there are none). An escalation after the deadline still contains, but late: the damage done so far stands.
  Once the incident is contained, further escalations are refused (:class:`ReplayError`).
- **False escalation.** Escalating any other step, escalating before the earliest evidence, or escalating in an
  all-clear drill is a false escalation: the planner re-plans, finds nothing wrong, and the play goes on. It costs
  one planner re-plan call (``models.replan_usage``, else the first planner call's usage, at the planner's prices)
  and :data:`FALSE_ESCALATION_DELAY` seconds of drill time: the drill clock jumps forward by that much at once and
  the trace runs on meanwhile (events are released and may do damage) while the trainee waits for the planner.
- **Deadline.** Once the drill clock passes the answer key's deadline (``now > deadline``) without a containment,
  the damage is done: :attr:`Replay.deadline_passed` turns true. An escalation at exactly the deadline is on
  time. The drill runs on to the end of the trace; damage events released after the deadline still add their damage.
- **End of trace.** When every trace event is released without a containment, the drill ends: a miss in a faulted
  drill, a correct all-clear in a control drill. The drill ends the moment its last event is released.
- **Quit.** :meth:`Replay.quit` ends the drill at once: as abandoned, or as contained when the incident was already
  contained (the trainee left during the re-plan's playback).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from enum import StrEnum
from types import MappingProxyType
from typing import Any

from warroom.core.model import (
    MAX_ACTIONS,
    TARGET_LABELS,
    Action,
    ActionKind,
    Cast,
    Drill,
    Role,
    TraceEvent,
    Usage,
    accepted_ids,
    cited_field_miss,
    damage_per_event,
    detection_events,
    earliest_evidence_at,
    handoff_of,
    is_field_path,
    split_cite,
)
from warroom.core.play._approvals import ApprovalWatch
from warroom.core.play._cost import CostMeter, replan_usage
from warroom.core.play._escalation import FALSE_ESCALATION_DELAY, EscalationResult
from warroom.core.play._probes import ProbeDesk, ProbeRequest
from warroom.core.play._queue import ReleaseQueue
from warroom.core.play._steps import StepState, StepTracker
from warroom.errors import WarroomError


class EndReason(StrEnum):
    """Why a drill ended."""

    CONTAINED = "contained"
    END_OF_TRACE = "end_of_trace"
    ABANDONED = "abandoned"


class ReplayError(WarroomError, ValueError):
    """An action that cannot apply: an unknown event or step id, an unreleased event, a drill that has ended, or a
    second escalation after the incident was contained."""


class ActionLimitReached(ReplayError):
    """The session holds ``MAX_ACTIONS - 1`` actions: it accepts no other action but quitting (its last)."""


def damage_by_event(drill: Drill) -> tuple[dict[str, float], float]:
    """The answer key's damage per trace event id (one occurrence's, in the key's unit: entries for one event added
    up, and format 2's ``spend`` calls at their cost, :func:`~warroom.core.model.damage_per_event`) and the full
    cascade's damage (every repetition of a repeated event counted); ``({}, 0.0)`` with no key."""
    by_event = damage_per_event(drill)
    repeats = {e.id: e.repeat.count for e in drill.trace if e.repeat is not None}
    return by_event, sum(a * repeats.get(ev, 1) for ev, a in by_event.items())


class Replay:
    """One drill played on a drill clock.

    Args:
        drill: a validated :class:`~warroom.core.model.Drill`.
        on_action: called with each :class:`Action` before it is appended to :attr:`actions` and takes effect; the
            session journal hooks in here to persist every action. If it raises, the exception propagates and the
            action is neither recorded nor applied (an action that was not persisted did not happen).
        accepted_evidence_detects: a released accepted-evidence event (or the own answer of a probe listed as
            accepted evidence) makes the fault detectable, as evidence does, from the earliest evidence's time on
            (:attr:`evidence_released`; scoring rules version 5 on: the scoring passes its edition's switch).
        cited_fields_checked: a citation of a field its event does not have is refused (scoring rules version 6 on;
            an earlier edition's log is replayed with it off, as it was played).

    State for a UI, at any moment: :attr:`now`, :attr:`released`, :attr:`step_states`,
    :attr:`damage`, :attr:`full_damage`, :attr:`damage_unit`, :attr:`damage_timeline`, :attr:`cost` (a
    :class:`CostMeter`, by role, model and plan step), :attr:`ended`, :attr:`end_reason`, :attr:`end_time`,
    :attr:`deadline`, :attr:`deadline_passed`, :attr:`evidence_released`, :attr:`first_evidence_time`,
    :attr:`false_escalations`, :attr:`escalations`, :attr:`contained`, :attr:`contained_at`, :attr:`actions`,
    :attr:`flagged`, :attr:`released_positions`, and (format 2) :attr:`probes` (a :class:`ProbeDesk`: the
    verification probes requested and revealed), :attr:`repetitions` and :attr:`approvals`.
    """

    def __init__(
        self,
        drill: Drill,
        on_action: Callable[[Action], None] | None = None,
        *,
        accepted_evidence_detects: bool = True,
        cited_fields_checked: bool = True,
    ) -> None:
        self.drill = drill
        self.on_action = on_action
        #: Whether a released accepted-evidence event makes the fault detectable (the scoring edition's switch of
        #: that name: version 5 on; the default is the current edition's, which a live session plays by).
        self.accepted_evidence_detects = accepted_evidence_detects
        #: Whether a citation of a field its event does not have is refused (the scoring edition's switch of that
        #: name: version 6 on; an earlier edition's log is replayed as it was, the citation judged by the event).
        self.cited_fields_checked = cited_fields_checked
        self.now: float = 0.0
        self.released: list[Any] = []
        self.actions: list[Action] = []
        self.escalations: list[EscalationResult] = []
        self.damage: float = 0.0
        self.cost = CostMeter()
        self.ended: bool = False
        self.end_reason: EndReason | None = None
        self.end_time: float | None = None
        self.contained_at: float | None = None
        self.contained_late: bool = False
        self.false_escalations: int = 0
        #: (drill time, damage accrued so far) after each damaging event, starting at (0, 0).
        self.damage_timeline: list[tuple[float, float]] = [(0.0, 0.0)]

        #: Format 2: repetitions released so far of each repeated event (event id to count, the first one included).
        self.repetitions: dict[str, int] = {}
        #: Format 2: steps that went ahead without the approval they require (``approvals.missing``).
        self.approvals = ApprovalWatch(drill.plan)
        key = drill.answer_key
        self._cast = Cast.of(drill)
        self._queue = ReleaseQueue(drill.trace)
        self._steps = StepTracker(drill.plan)
        self._event_ids = {e.id for e in drill.trace} | {e.id for e in (key.replan if key else ())}
        self._released_at: dict[str, int] = {}  # id -> position in released
        self._flags: dict[str, str | None] = {}
        self._damage_by_event, self.full_damage = damage_by_event(drill)
        self.damage_unit: str = key.damage.unit if key else ""
        self.deadline: float | None = key.deadline if key else None
        #: Format 2: the verification probes requested and revealed (:meth:`probe`).
        self.probes = ProbeDesk(drill)
        self._event_ids |= set(self.probes.by_id)
        # The events that show an evidence item (a comparison shows with its last event), and the probes listed as
        # evidence (they show the fault with their result); by the switch, the accepted evidence too.
        self._evidence_ids = frozenset(ev.id for _, ev in detection_events(drill)) | frozenset(
            i for i in (key.evidence if key is not None else ()) if isinstance(i, str) and i in self.probes.by_id)
        self._evidence_seen = False
        # The earliest evidence event's time, or the earliest result of a probe that finds the fault.
        self._first_evidence_t = earliest_evidence_at(drill)
        # By the switch, the accepted evidence (trace events and probes) and whether any of it was released.
        accepted = accepted_ids(key) if accepted_evidence_detects and key is not None else ()
        self._accepted_ids = frozenset(accepted)
        self._accepted_seen = False
        self._replan_usage = replan_usage(drill)

    # -- the clock ----------------------------------------------------------------------------------------------

    @property
    def first_evidence_time(self) -> float | None:
        """Drill time of the earliest evidence event (None in an all-clear drill)."""
        return self._first_evidence_t

    @property
    def evidence_released(self) -> bool:
        """True once the earliest evidence event has been released (the fault is detectable); with
        ``accepted_evidence_detects``, also once an accepted-evidence event (or a probe listed as accepted evidence,
        with its own answer) has been released and the drill clock has reached the earliest evidence's time
        (:attr:`first_evidence_time`): the symptom of a fault only a probe shows, seen without the probe."""
        if self._evidence_seen:
            return True
        first = self._first_evidence_t
        return self._accepted_seen and first is not None and self.now >= first

    @property
    def deadline_passed(self) -> bool:
        """True once the drill clock passed the answer key's deadline without a containment before it (the damage
        is done). Stays False in an all-clear drill and after an on-time containment."""
        if self.deadline is None or self.now <= self.deadline:
            return False
        return not (self.contained and not self.contained_late)

    @property
    def contained(self) -> bool:
        """True once a correct escalation contained the incident."""
        return self.contained_at is not None

    @property
    def time_to_detect(self) -> float | None:
        """Seconds from the earliest evidence to the containing escalation, or None when nothing was contained."""
        if self.contained_at is None or self._first_evidence_t is None:
            return None
        return self.contained_at - self._first_evidence_t

    @property
    def next_event_time(self) -> float | None:
        """Drill time of the next event to be released, or None when nothing is left to release."""
        return self._queue.next_time

    @property
    def last_event_time(self) -> float | None:
        """Drill time of the last event still to be released (of the trace, or of the re-plan after a
        containment), or None when nothing is left to release."""
        return self._queue.last_time

    def advance(self, dt: float) -> list[TraceEvent]:
        """Move the drill clock forward by ``dt`` seconds and release the events whose time has come.

        Returns the released events in order (possibly empty). Does nothing once the drill has ended.
        Raises ValueError for a negative or non-finite ``dt``.
        """
        if not math.isfinite(dt) or dt < 0:
            raise ValueError(f"cannot advance the drill clock by {dt!r} seconds")
        return self.advance_to(self.now + dt)

    def advance_to(self, t: float) -> list[TraceEvent]:
        """Move the drill clock to the absolute drill time ``t`` (seconds) and release the events up to it.

        Setting the clock exactly (rather than adding small steps) keeps a re-run of an action log bit-for-bit
        identical to the live session. Returns the released events in order. Does nothing once the drill has ended.
        Raises ValueError when ``t`` is before :attr:`now` or not finite.
        """
        if not math.isfinite(t):
            raise ValueError(f"cannot move the drill clock to {t!r}")
        if t < self.now:
            raise ValueError(f"cannot move the drill clock back from {self.now} s to {t} s")
        if self.ended:
            return []
        if (due := self.probes.next_due) is not None and due <= t:  # format 2: a probe's result is due by t
            return self._release_probe_result(t)
        self.now = t
        queue = self._queue
        start, end = queue.take(t)
        out = queue.events[start:end]
        if queue.reps is None:
            for ev in out:
                self._release(ev)
        else:  # a repetition after the first is counted and charged, not listed again
            reps = queue.reps
            for i, ev in enumerate(out):
                self._release(ev, reps[start + i], queue.times[start + i])
            out = [ev for i, ev in enumerate(out) if reps[start + i] == 0]
        if queue.done:
            # The drill ends the moment its last event is released, however far past it this call moved the clock.
            at = queue.times[-1] if queue.times else self.now
            self._end(EndReason.CONTAINED if self.contained else EndReason.END_OF_TRACE, at=min(at, self.now))
        return out

    def run_to_end(self) -> list[TraceEvent]:
        """Advance until the drill ends (the rest of the trace, or of the re-plan after a containment) with no
        further action. Returns the events released. Does nothing once the drill has ended."""
        out: list[Any] = []
        while not self.ended:
            last = self.last_event_time
            out.extend(self.advance_to(max(self.now, last if last is not None else self.now)))
        return out

    def _release(self, ev: TraceEvent, repetition: int = 0, at: float | None = None) -> None:
        if ev.repeat is not None:
            self.repetitions[ev.id] = repetition + 1
        if repetition:
            self._charge_event(ev)
            self._damage(ev, ev.t if at is None else at)
            return
        self._released_at[ev.id] = len(self.released)
        self.released.append(ev)
        self.approvals.see(ev)
        if ev.id in self._evidence_ids:
            self._evidence_seen = True
        self._accepted_seen = self._accepted_seen or ev.id in self._accepted_ids
        self._steps.see(ev)
        self._charge_event(ev)
        self._damage(ev, ev.t)

    def _release_probe_result(self, t: float) -> list[Any]:
        """Move the clock to drill time ``t`` when a probe's result is due by then: the trace events up to the
        result's time, the result, then the rest up to ``t``. Once the incident is contained the results still due
        are dropped (the planner re-plans)."""
        req = self.probes.take_due(t)
        if req is None or self.contained_at is not None:
            self.probes.drop_pending()
            return self.advance_to(t)
        out = self.advance_to(req.due_at)
        if not self.ended:
            out.append(self._reveal(req))
        return out + self.advance_to(t)

    def _reveal(self, req: ProbeRequest) -> Any:
        # A probe's result: released, citable and charged, but no step state, approval or damage changes.
        ev = self.probes.result(req)
        self._released_at[ev.id] = len(self.released)
        self.released.append(ev)
        if req.finds:  # an earlier answer ("nothing wrong yet") shows nothing
            self._evidence_seen = self._evidence_seen or ev.id in self._evidence_ids
            self._accepted_seen = self._accepted_seen or ev.id in self._accepted_ids
        self._charge_event(ev)
        return ev

    def _charge_event(self, ev: TraceEvent) -> None:
        call = self._cast.call(ev)  # its role, agent and model (format 2); None unless a model call with usage
        if call is not None:
            usd = call.spec.cost(call.usage)
            self.cost.charge(call.role, call.spec.name, call.usage, usd, ev.step, call.agent)

    def _damage(self, ev: TraceEvent, at: float) -> None:
        amount = self._damage_by_event.get(ev.id)
        if amount and not self.contained:
            self.damage += amount
            self.damage_timeline.append((at, self.damage))

    def _charge(self, role: Role, usage: Usage, step: str | None) -> float:
        spec = self.drill.models.spec(role)
        usd = spec.cost(usage)
        self.cost.charge(role, spec.name, usage, usd, step, self._cast.planner_name if role is Role.PLANNER else None)
        return usd

    def _end(self, reason: EndReason, at: float | None = None) -> None:
        if not self.ended:
            self.ended = True
            self.end_reason = reason
            self.end_time = self.now if at is None else at

    # -- state --------------------------------------------------------------------------------------------------

    @property
    def step_states(self) -> dict[str, StepState]:
        """Every plan step's state as reported so far, in plan order."""
        return dict(self._steps.states)

    @property
    def released_positions(self) -> Mapping[str, int]:
        """Each released event's id and its position in :attr:`released`, as a read-only view that follows the
        play (the escalation dialog looks up citations in it instead of indexing every released event on open)."""
        return MappingProxyType(self._released_at)

    def is_released(self, event_id: str) -> bool:
        """True once the event has been released."""
        return event_id in self._released_at

    # -- trainee actions ----------------------------------------------------------------------------------------

    def _record(self, action: Action) -> Action:
        if self.on_action is not None:
            self.on_action(action)  # first: an action that could not be persisted is not recorded
        self.actions.append(action)
        return action

    def _check_event(self, event_id: str) -> None:
        if event_id not in self._event_ids:
            raise ReplayError(f"no trace event {event_id!r} in drill {self.drill.id!r}")
        if event_id not in self._released_at:
            raise ReplayError(f"trace event {event_id!r} has not been released yet")

    def _check_cite(self, cite: str) -> None:
        """A citation names a released event and (format 2) a field path of it (any field the inspector shows: the
        output, the arguments, what the model was shown: ``cited_field_miss``; a field the event does not have is
        refused, never judged as the whole event; a field it has that the answer key does not declare is judged by the
        whole event or the declared field around it). A version-1 drill has no citations of a field (its war room
        offers none): ``e04:total`` there is refused, never judged as ``e04`` whole."""
        event_id, path = split_cite(cite)
        self._check_event(event_id)
        if path is None:
            return
        if self.drill.schema_version < 2:
            raise ReplayError(f"{cite!r} cites a field of {event_id!r}, and a version-1 drill has no citations of a "
                              f"field: cite the whole event, {event_id!r} (fields are cited in format 2)")
        if not is_field_path(path):
            raise ReplayError(f"{path!r} is not a field path (data.next_cursor, items[3].id)")
        miss = cited_field_miss(self._cited_event(event_id), path) if self.cited_fields_checked else None
        if miss is not None:  # never judged as the whole event: the trainee named a field, and it is not there
            raise ReplayError(f"{cite!r} cites a field {event_id!r} does not have: {miss}; cite a field it has, or "
                              f"the whole event, {event_id!r}")

    def _cited_event(self, event_id: str) -> TraceEvent | None:
        """The trace or re-plan event ``event_id`` (None: a probe's answer), looked up only when a field is cited."""
        key = self.drill.answer_key
        return next((e for e in (*self.drill.trace, *(key.replan if key else ())) if e.id == event_id), None)

    def _check_live(self) -> None:
        if self.ended:
            raise ReplayError("the drill has ended")
        if len(self.actions) >= MAX_ACTIONS - 1:  # (a log has a bound: the store keeps MAX_ACTIONS, the quit too)
            raise ActionLimitReached(
                f"the session holds {len(self.actions):,} actions, the most one session keeps before its end "
                f"({MAX_ACTIONS:,} with it): only quitting is recorded now"
            )

    def inspect(self, event_id: str) -> Action:
        """Record that the trainee opened a released event in the inspector.

        Raises ReplayError for an unknown or unreleased event, or once the drill has ended."""
        self._check_live()
        self._check_event(event_id)
        return self._record(Action(t=self.now, kind=ActionKind.INSPECT, event=event_id))

    def flag(self, event_id: str, note: str | None = None) -> Action:
        """Record that the trainee flagged a released event as suspicious, with an optional note. Flagging an event
        already flagged replaces its note (it stays one flag).

        Raises ReplayError for an unknown or unreleased event, or once the drill has ended."""
        self._check_live()
        self._check_event(event_id)
        action = self._record(Action(t=self.now, kind=ActionKind.FLAG, event=event_id, note=note or None))
        self._flags[event_id] = action.note
        return action

    def unflag(self, event_id: str) -> Action:
        """Record that the trainee removed their flag from a flagged event.

        Raises ReplayError for an event that is not flagged now, or once the drill has ended."""
        self._check_live()
        if event_id not in self._flags:
            raise ReplayError(f"trace event {event_id!r} is not flagged")
        action = self._record(Action(t=self.now, kind=ActionKind.UNFLAG, event=event_id))
        del self._flags[event_id]
        return action

    @property
    def flagged(self) -> dict[str, str | None]:
        """The events flagged now (flags removed by :meth:`unflag` left out): event id to the flag's note, in the
        order they were first flagged."""
        return dict(self._flags)

    def pause(self) -> Action:
        """Record a pause (the caller stops advancing the clock). Raises ReplayError once the drill has ended."""
        self._check_live()
        return self._record(Action(t=self.now, kind=ActionKind.PAUSE))

    def resume(self) -> Action:
        """Record a resume. Raises ReplayError once the drill has ended."""
        self._check_live()
        return self._record(Action(t=self.now, kind=ActionKind.RESUME))

    def set_speed(self, speed: float) -> Action:
        """Record a playback-speed change (a multiplier of real time, > 0; pydantic's ValidationError otherwise).

        Raises ReplayError once the drill has ended.
        """
        self._check_live()
        return self._record(Action(t=self.now, kind=ActionKind.SPEED, speed=speed))

    def quit(self) -> Action:
        """Record that the trainee left the drill; it ends as abandoned (as contained if it already was)."""
        action = self._record(Action(t=self.now, kind=ActionKind.QUIT))
        self._end(EndReason.CONTAINED if self.contained else EndReason.ABANDONED)
        return action

    def escalate(self, step_id: str, reason: str = "", cites: Sequence[str] | None = None) -> EscalationResult:
        """Escalate to the planner naming ``step_id`` as the step at fault (or ``@plan`` / ``@setup`` / a released
        handoff's ``@handoff:ID``, format 2),
        with a short reason and the ids of the released trace events the trainee ``cites`` as showing the fault
        (recorded in order, repeats dropped; None records no ``cites`` at all, as logs from before citations did).

        Returns an :class:`EscalationResult`. See the module docstring for the rules (whether the citations
        support the escalation is the scoring rules' call: :mod:`warroom.core.play._citations`).
        Raises ReplayError for an unknown step, a cited event that is unknown or not released yet, once the drill
        has ended, or once the incident is contained.
        """
        self._check_live()
        if step_id not in self._steps.states and step_id not in TARGET_LABELS:
            handoff = handoff_of(self.drill, step_id) if self.drill.schema_version >= 2 else None
            if handoff is None:
                raise ReplayError(f"no plan step {step_id!r} in drill {self.drill.id!r}")
            self._check_event(handoff.id)  # a handoff is named once the trainee has seen it
        if self.contained:
            raise ReplayError("the incident is already contained; the planner is re-planning")
        cited = None if cites is None else tuple(dict.fromkeys(cites))
        for cite in cited or ():
            self._check_cite(cite)
        action = self._record(
            Action(t=self.now, kind=ActionKind.ESCALATE, step=step_id, note=reason or None, cites=cited)
        )
        key = self.drill.answer_key
        after_evidence = self.evidence_released
        if key is not None and step_id == key.fault.target and after_evidence:
            late = self.deadline_passed
            self.contained_at = self.now
            self.contained_late = late
            released = self._start_replan(key.replan)
            not_yet = tuple(c for c in cited or () if c in self.probes.not_yet)
            result = EscalationResult(
                action=action, contained=True, late=late, replan_usd=0.0, released=released, after_evidence=True,
                not_yet=not_yet,
            )
        else:
            self.false_escalations += 1
            usd = self._charge(Role.PLANNER, self._replan_usage, None)
            self.cost.replan_calls += 1
            self.cost.replan_usd += usd
            released = self.advance(FALSE_ESCALATION_DELAY)
            result = EscalationResult(
                action=action, contained=False, late=False, replan_usd=usd, released=released,
                after_evidence=after_evidence, resumed_at=self.now,
            )
        self.escalations.append(result)
        return result

    def probe(self, probe_id: str) -> Action:
        """Ask the executor to verify a plan step: request the drill's probe ``probe_id`` (format 2). Its result is
        released as a trace event with the probe's id ``seconds`` later (the trace runs on meanwhile), charged at the
        executor's prices; a probe the answer key lists as evidence makes the fault detectable when revealed.

        Raises ReplayError for an unknown probe, one already requested, one whose plan step has no released event
        yet, once the incident is contained, or once the drill has ended."""
        self._check_live()
        probe = self.probes.by_id.get(probe_id)
        if probe is None:
            raise ReplayError(f"no probe {probe_id!r} in drill {self.drill.id!r}")
        if self.probes.requested(probe_id):
            raise ReplayError(f"probe {probe_id!r} was already requested")
        if self.contained_at is not None:
            raise ReplayError("the incident is already contained; the planner is re-planning")
        if self._steps.states.get(probe.step, StepState.PENDING) is StepState.PENDING:
            raise ReplayError(f"plan step {probe.step!r} has not started yet; there is nothing to verify")
        action = self._record(Action(t=self.now, kind=ActionKind.PROBE, probe=probe_id, step=probe.step))
        self.probes.request(probe, self.now)
        return action

    def _start_replan(self, replan: Iterable[Any]) -> list[Any]:
        # The original trace stops here; the re-plan events take its place, timed from the escalation.
        events = [e.model_copy(update={"t": self.now + e.t}) for e in replan]
        self._queue = ReleaseQueue(events)
        if not events:
            self._end(EndReason.CONTAINED)
            return []
        # Re-plan events at +0 s play at once, like trace events at the clock's current time.
        return self.advance_to(self.now)
