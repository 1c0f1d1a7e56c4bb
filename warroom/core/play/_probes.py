"""The verification probes of one replay (format 2): which were requested, when each result is due, and which have
been revealed (:class:`ProbeDesk`), and the probe action of :class:`~warroom.core.play.Replay` (:class:`ProbePlay`,
which it inherits). The rules are in :mod:`warroom.core.model._probes`, docs/war-room.md and docs/scoring.md."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from warroom.core.model import (
    Action,
    ActionKind,
    Probe,
    detection_events,
    earliest_evidence_at,
    finding_probes,
    result_event,
)
from warroom.core.play._replayparts import ReplayError, StepState, StepTracker


@dataclass(frozen=True)
class ProbeRequest:
    """One requested probe: the ``probe``, the drill time it was ``requested_at`` and its result is ``due_at``
    (seconds), and whether it ``finds`` the fault (the answer key lists it as evidence)."""

    probe: Probe
    requested_at: float
    due_at: float
    finds: bool


class ProbeDesk:
    """The probes of one drill in one replay. ``requests``: every request in order; ``revealed``: probe id to the
    drill time its result was released."""

    def __init__(self, drill: Any) -> None:
        self.by_id: dict[str, Probe] = {p.id: p for p in getattr(drill, "probes", ()) or ()}
        self.finding: frozenset[str] = frozenset(p.id for p in finding_probes(drill))
        self.requests: list[ProbeRequest] = []
        self.revealed: dict[str, float] = {}
        self._pending: list[ProbeRequest] = []

    def request(self, probe: Probe, now: float) -> ProbeRequest:
        """Note a request of ``probe`` at drill time ``now``; its result is due ``probe.seconds`` later."""
        req = ProbeRequest(probe, now, now + probe.seconds, probe.id in self.finding)
        self.requests.append(req)
        self._pending.append(req)
        self._pending.sort(key=lambda r: r.due_at)
        return req

    def requested(self, probe_id: str) -> bool:
        """True once the probe has been requested in this replay."""
        return any(r.probe.id == probe_id for r in self.requests)

    @property
    def next_due(self) -> float | None:
        """Drill time of the next result to release, or None when none is pending."""
        return self._pending[0].due_at if self._pending else None

    def take_due(self, t: float) -> ProbeRequest | None:
        """The next pending request whose result is due at or before drill time ``t`` (removed), else None."""
        if self._pending and self._pending[0].due_at <= t:
            return self._pending.pop(0)
        return None

    def drop_pending(self) -> None:
        """Forget the results still due (the incident was contained; the planner re-plans)."""
        self._pending.clear()

    def result(self, req: ProbeRequest) -> Any:
        """The result event of ``req`` at its due time (noted as revealed)."""
        self.revealed[req.probe.id] = req.due_at
        return result_event(req.probe, req.due_at)

    @property
    def needless(self) -> list[ProbeRequest]:
        """The requests of probes that do not find the fault, in order."""
        return [r for r in self.requests if not r.finds]


class ProbePlay:
    """The probe action of a :class:`~warroom.core.play.Replay` (mixed into it; moved out of replay.py to keep
    it short). It uses the Replay's state and methods declared below."""

    drill: Any
    now: float
    ended: bool
    released: list[Any]
    contained_at: float | None
    probes: ProbeDesk
    _steps: StepTracker
    _released_at: dict[str, int]
    _evidence_ids: frozenset[str]
    _evidence_seen: bool
    _event_ids: set[str]
    _first_evidence_t: float | None

    @property
    def released_positions(self) -> Mapping[str, int]:
        """Each released event's id and its position in :attr:`released`, as a read-only view that follows the
        play (the escalation dialog looks up citations in it instead of indexing every released event on open)."""
        return MappingProxyType(self._released_at)

    def _init_probes(self, drill: Any) -> None:
        #: Format 2: the verification probes requested and revealed (:meth:`probe`).
        self.probes = ProbeDesk(drill)
        self._event_ids |= set(self.probes.by_id)
        # The events that show an evidence item (a comparison shows with its last event), and the probes listed as
        # evidence (they show the fault with their result).
        key = drill.answer_key
        self._evidence_ids = frozenset(ev.id for _, ev in detection_events(drill)) | frozenset(
            i for i in (key.evidence if key is not None else ()) if isinstance(i, str) and i in self.probes.by_id)
        # The earliest evidence event's time, or the earliest result of a probe that finds the fault.
        self._first_evidence_t = earliest_evidence_at(drill)

    if TYPE_CHECKING:  # provided by Replay, which inherits this mixin; declared for mypy only

        def _check_live(self) -> None: ...

        def _record(self, action: Action) -> Action: ...

        def _charge_event(self, ev: Any) -> None: ...

        def advance_to(self, t: float) -> list[Any]: ...

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
        if ev.id in self._evidence_ids:
            self._evidence_seen = True
        self._charge_event(ev)
        return ev
