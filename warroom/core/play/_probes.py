"""The verification probes of one replay (format 2): which were requested, when each result is due, and which have
been revealed (:class:`ProbeDesk`, the :attr:`~warroom.core.play.Replay.probes` of a replay). The rules are in
:mod:`warroom.core.model` (``Probe``), docs/war-room.md and docs/scoring.md."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from warroom.core.model import Probe, answer_at, finding_probes, result_event


@dataclass(frozen=True)
class ProbeRequest:
    """One requested probe: the ``probe``, the drill time it was ``requested_at`` and its result is ``due_at``
    (seconds), and whether it ``finds`` the fault (the answer key lists it as evidence, and it gave its own answer).
    Format 2: ``reveals``, the answer it gave (an earlier answer when asked early:
    :func:`~warroom.core.model.answer_at`); ``not_yet``: a probe that finds the fault, asked before it could
    ("nothing wrong yet"): it found nothing."""

    probe: Probe
    requested_at: float
    due_at: float
    finds: bool
    reveals: str = ""
    not_yet: bool = False


class ProbeDesk:
    """The probes of one drill in one replay. ``requests``: every request in order; ``revealed``: probe id to the
    drill time its result was released."""

    def __init__(self, drill: Any) -> None:
        self.drill = drill
        self.by_id: dict[str, Probe] = {p.id: p for p in getattr(drill, "probes", ()) or ()}
        self.finding: frozenset[str] = frozenset(p.id for p in finding_probes(drill))
        self.requests: list[ProbeRequest] = []
        self.revealed: dict[str, float] = {}
        self._pending: list[ProbeRequest] = []

    def request(self, probe: Probe, now: float) -> ProbeRequest:
        """Note a request of ``probe`` at drill time ``now``; its result is due ``probe.seconds`` later, with the
        answer it gives when asked at ``now``."""
        early = answer_at(self.drill, probe, now)
        finding = probe.id in self.finding
        reveals = early.reveals if early is not None else probe.reveals
        req = ProbeRequest(probe, now, now + probe.seconds, finding and early is None, reveals,
                           finding and early is not None)
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
        return result_event(req.probe, req.due_at, req.reveals)

    @property
    def not_yet(self) -> frozenset[str]:
        """The ids of probes that find the fault but were asked before they could (their answer: nothing wrong
        yet); citing such a result supports nothing."""
        return frozenset(r.probe.id for r in self.requests if r.not_yet)

    @property
    def needless(self) -> list[ProbeRequest]:
        """The requests of probes that do not find the fault, in order."""
        return [r for r in self.requests if not r.finds]
