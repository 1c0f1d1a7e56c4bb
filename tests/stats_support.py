"""Stored sessions for the cohort-statistics tests (test_facts, test_summary_cli, test_report*): any mode, wall-clock
figures, and the scorecard's distractor figures (as scoring rules that record them write them)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from store_support import insert_literally, scorecard

from warroom.store.results import ResultsStore, SessionInfo, WallClock


def add(
    store: ResultsStore,
    sid: str,
    trainee: str,
    drill: str,
    outcome: str,
    total: int,
    *,
    ttd: float | None = None,
    all_clear: bool = False,
    mode: str = "assessment",
    wall_ttd: float | None = None,
    shown: int | None = None,
    pulled: tuple[str, ...] | None = None,
    day: int = 1,
    set_id: str | None = None,
) -> None:
    """Store one session; ``shown`` / ``pulled`` (when given) go into its scorecard as ``distractors_shown`` and
    ``distractor_escalations``."""
    info = SessionInfo(
        session_id=sid,
        trainee=trainee,
        drill_id=drill,
        drill_version=1,
        drill_sha256=None,
        drill_path=None,
        started_at=f"2026-11-{day:02d}T10:00:00.000000+00:00",
        all_clear=all_clear,
        mode=mode,
        set_id=set_id,
    )
    card = scorecard(outcome=outcome, total=total, ttd=ttd, drill_id=drill, false_escalations=int(bool(pulled)))
    if shown is not None or pulled is not None:
        card = dataclasses.replace(card, distractors_shown=shown or 0, distractor_escalations=list(pulled or ()))
    insert_literally(store, info, card, [], ended_at=info.started_at, wall=WallClock(wall_time_to_detect=wall_ttd))


#: (trainee, hit outcomes on A and B, outcome on the all-clear drill C): five trainees of different skill.
COHORT = [
    ("ada", ("contained", "contained"), "all_clear_held"),
    ("ben", ("contained", "missed"), "all_clear_held"),
    ("cy", ("contained_late", "contained"), "false_alarm"),
    ("dee", ("wrong_step", "missed"), "false_alarm"),
    ("eve", ("missed", "abandoned"), "all_clear_held"),
]


def cohort(data_dir: Path) -> Path:
    """Five trainees (:data:`COHORT`) on fault drills A and B and all-clear drill C, all assessment sessions, plus
    one practice session; ``cy`` and ``dee`` escalated distractor ``e5`` of drill A. Returns ``data_dir``."""
    totals = {"contained": 90, "contained_late": 55, "wrong_step": 20, "missed": 0, "abandoned": 0}
    with ResultsStore(data_dir) as store:
        for i, (name, (a, b), c) in enumerate(COHORT):
            pulled = ("e5",) if name in ("cy", "dee") else ()
            ttd_a = 5.0 + 4 * i if a.startswith("contained") else None
            add(store, f"{name}-a", name, "A", a, totals[a], ttd=ttd_a, wall_ttd=ttd_a and ttd_a * 2, shown=1,
                pulled=pulled, day=1)  # fmt: skip
            add(store, f"{name}-b", name, "B", b, totals[b], ttd=8.0 if b == "contained" else None, day=2)
            add(store, f"{name}-c", name, "C", c, 100 if c == "all_clear_held" else 30, all_clear=True, day=3)
        add(store, "ada-practice", "ada", "A", "missed", 0, mode="practice", day=4)
    return data_dir


def blind_play(pick: Any, drill: Any) -> Any:
    """The replay of a scripted trainee that reads no event's content: the drill advanced event by event until
    ``pick(replay)`` names an event, then one escalation drafted from it as the war room drafts one (a draft the war
    room refuses, the incident already contained say, is no escalation: the click did nothing), then the rest."""
    import contextlib

    from warroom.core.play import Replay, ReplayError, escalation_draft

    replay = Replay(drill)
    replay.advance_to(0.0)
    while not replay.ended:
        event = pick(replay)
        if event is not None:
            draft = escalation_draft(event, replay.released, drill.schema_version >= 2)
            with contextlib.suppress(ReplayError):
                replay.escalate(draft.target, "blind", draft.cites)
            break
        replay.advance_to(replay.next_event_time or drill.duration)
    return replay


def blind_trainees_below_chance(name: str, pick: Any, seed: int, trainees: int = 5) -> None:
    """Play ``trainees`` scripted trainees ``name`` over every bundled drill in assessment (each session's seed, and
    with it its variant and its trial, drawn from ``random.Random(seed)``; ``pick(drill, replay)``: the event the
    trainee escalates once it is out, or None to watch on: :func:`blind_play`), and assert what the hostile
    campaigns' tests assert: some signal trials won, and d′ as ``warroom scores summary`` computes it below 0 for
    every trainee."""
    import random

    from warroom.core.library import bundled_drills_dir
    from warroom.core.load import load_drill
    from warroom.core.scoring import score
    from warroom.core.stats import SessionFacts, summarize
    from warroom.core.variants import draw_played_as, session_drill

    bank = [load_drill(p) for p in sorted(bundled_drills_dir().glob("*.yaml"))]
    rng = random.Random(seed)
    facts = []
    for trainee in range(trainees):
        for d in bank:
            drawn = rng.randrange(2**31)
            played = session_drill(d, drawn, draw_played_as(d, drawn))
            card = score(played, blind_play(lambda replay, d=played: pick(d, replay), played).actions)
            facts.append(SessionFacts(
                trainee=f"{name}-{trainee}", drill_id=d.id, is_fault_drill=not played.is_all_clear,
                outcome=card.outcome, score=card.total, started_at="2026-12-06T10:00:00.000000+00:00",
                mode="assessment", response=card.response, false_escalations=card.false_escalations,
            ))  # fmt: skip
    stats = summarize(facts)
    assert sum(t.hits for t in stats.trainees) > 0
    assert all(t.enough_trials and t.d_prime is not None and t.d_prime < 0 for t in stats.trainees), [
        (t.trainee, t.hits, t.signal_trials, t.false_alarms, t.noise_trials, t.d_prime) for t in stats.trainees
    ]
