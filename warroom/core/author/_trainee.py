"""A scripted trainee's run (:class:`TraineeRun`): a drill played on a :class:`~warroom.core.play.Replay` by a
script, then scored from its action log (:func:`scored_run`, which notes an engine bug when the live replay and the
re-scored log disagree), and what every scripted trainee knows of a drill's answer key: where its earliest evidence
is (:func:`first_evidence`). ``warroom check``'s reference trainees (:mod:`warroom.core.author._check`) and its
gaming battery (:mod:`warroom.core.author._battery`) are both made of these."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from warroom.core.model import Action, Drill, Probe, Response, detection_events, earliest_result_at
from warroom.core.play import Replay
from warroom.core.scoring import Scorecard, score, scorecard_of


@dataclass(frozen=True)
class TraineeRun:
    """One scripted trainee's play: its action log, its scorecard and notes on what it could not do; ``seed`` is
    the seed of a seeded trainee's run (the battery's *random*), else None."""

    trainee: str
    description: str
    actions: list[Action]
    scorecard: Scorecard
    notes: list[str] = field(default_factory=list)
    seed: int | None = None

    @property
    def response(self) -> Response | None:
        """The trial's response, as the scorecard records it (None by rules before version 4)."""
        return self.scorecard.response

    @property
    def hit(self) -> bool:
        """True when the run's response is a hit: it detected the fault, by the rules it was scored with."""
        return self.scorecard.response is Response.HIT

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form: trainee, description, (seed,) total, outcome, response, notes, the scorecard and the
        action log."""
        out: dict[str, Any] = {"trainee": self.trainee, "description": self.description}
        if self.seed is not None:
            out["seed"] = self.seed
        response = self.scorecard.response
        return out | {
            "total": self.scorecard.total,
            "outcome": self.scorecard.outcome.value,
            "response": response.value if response is not None else None,
            "notes": list(self.notes),
            "scorecard": self.scorecard.to_dict(),
            "actions": [a.model_dump(mode="json", exclude_none=True) for a in self.actions],
        }


def scored_run(
    trainee: str, description: str, replay: Replay, notes: list[str], seed: int | None = None, *,
    self_test: bool = True,
) -> TraineeRun:
    """The :class:`TraineeRun` of a scripted trainee's ``replay``: played to its end, scored from its action log
    by the current rules, with ``notes`` (plus an engine-bug note when the live replay scored otherwise:
    ``run_checks`` reports it as a problem). Without ``self_test`` the live replay's scorecard is taken as it is
    (the log is not re-scored: half the work, and no test of the engine itself)."""
    replay.run_to_end()
    live = scorecard_of(replay)
    if not self_test:
        return TraineeRun(trainee, description, list(replay.actions), live, notes, seed)
    card = score(replay.drill, replay.actions)
    if card != live:
        notes.append(
            f"engine bug: the live replay scored {live.total} ({live.outcome.value}) but its action log re-scored "
            f"{card.total} ({card.outcome.value})"
        )
    return TraineeRun(trainee, description, list(replay.actions), card, notes, seed)


def first_evidence(drill: Drill) -> tuple[float, tuple[str, ...], str, Probe | None] | None:
    """The earliest evidence a trainee can see: ``(time, the ids to cite, the id to flag, probe)``. An evidence
    item is cited whole (every event of a comparison) and shows with the event that makes it visible; the probe is
    set when it is a probe's result (at its earliest, requested as soon as its step starts). None when there is
    none."""
    key = drill.answer_key
    if key is None:
        return None
    found: list[tuple[float, int, tuple[str, ...], str, Probe | None]] = [
        (ev.t, 0, tuple(ref.events), ev.id, None) for ref, ev in detection_events(drill)
    ]
    ids = {item for item in key.evidence if isinstance(item, str)}
    for p in drill.probes:
        at = earliest_result_at(drill, p)
        if p.id in ids and at is not None:
            found.append((at, 1, (p.id,), p.id, p))
    if not found:
        return None
    t, _, cites, eid, probe = min(found, key=lambda f: (f[0], f[1]))
    return t, cites, eid, probe
