"""The all-clear tell (issue 30; docs/authoring.md "Twins: signal and noise trials"; docs/scoring.md "What trainees
that do not read get"): an all-clear drill is always a noise trial, so a trainee who recognised the library's four
held the all clear on them for free. Each is now a fault drill whose twin is the healthy run it was, and every
bundled drill is played as either trial by the same draw."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from library_support import load_bundled
from locations import ALL_CLEAR

from warroom.core.library import bundled_drills_dir
from warroom.core.load import load_drill
from warroom.core.model import Action, ActionKind, Drill, PlayedAs, earliest_evidence_at
from warroom.core.play import Replay
from warroom.core.variants import draw_played_as, session_drill

BANK = [load_bundled(p) for p in sorted(bundled_drills_dir().glob("*.yaml"))]
FORMER = sorted(p.stem for p in ALL_CLEAR.glob("*.yaml"))


def _shown(drill: Drill) -> tuple:
    """What the picker and the briefing show of a played drill before its first event."""
    domains = [t for t in drill.tags if t.startswith("domain:")]
    plan = [(s.id, s.title, s.objective) for s in drill.plan]
    return (drill.id, drill.title, drill.version, drill.difficulty, drill.briefing, plan, domains, drill.models,
            drill.agents, [(p.id, p.ask, p.step) for p in drill.probes])  # fmt: skip


def _before(drill: Drill, until: float) -> list[tuple[str, float, str]]:
    """The ids, times and kinds of the events released before ``until`` (what a trainee who reads no content sees)."""
    replay = Replay(drill)
    replay.advance_to(until - 1e-6)
    return [(e.id, e.t, e.kind) for e in replay.released]


def test_the_library_has_no_all_clear_drill_left():
    assert FORMER == ["clickstream-backfill", "dataroom-change-of-control", "node-pool-upgrade-prod-eu",
                      "outage-callback-calls"]  # fmt: skip
    assert not [d.id for d in BANK if d.is_all_clear]


@pytest.mark.parametrize("drill", [d for d in BANK if not d.id.startswith("tutorial")], ids=lambda d: d.id)
def test_every_bundled_drill_reaches_both_trials_and_they_look_alike_until_the_evidence(drill: Drill, real_noise_draw):
    """Over 200 seeds both trials are drawn (about a quarter noise), by the one rule every drill with a twin uses; and
    for each seed the two trials show the same title, briefing, plan, metadata, ids and event count at every moment
    before the earliest evidence."""
    draws = [draw_played_as(drill, seed) for seed in range(200)]
    assert 30 <= draws.count(PlayedAs.NOISE) <= 70, draws.count(PlayedAs.NOISE)
    for seed in (None, 0, 1, 7):
        signal, noise = session_drill(drill, seed, PlayedAs.SIGNAL), session_drill(drill, seed, PlayedAs.NOISE)
        assert signal.answer_key is not None and noise.is_all_clear
        assert _shown(signal) == _shown(noise)
        first = earliest_evidence_at(signal)
        assert first is not None
        assert _before(signal, first) == _before(noise, first)
        early = [[e.model_dump() for e in played.trace if e.t < first] for played in (signal, noise)]
        assert early[0] == early[1]


@pytest.mark.parametrize("name", FORMER)
def test_the_noise_trial_of_a_former_all_clear_drill_is_that_drill(name: str):
    """The twin is the healthy run the drill was: every event, distractor and the debrief, for any seed (its ids by
    position are the authored ones, in release order already); only clickstream-backfill's dbt call comes 2 s later,
    after the deadline, so that 5 s stay between the evidence and the deadline under its 2 s jitter."""
    old = load_drill(ALL_CLEAR / f"{name}.yaml")
    new = load_drill(bundled_drills_dir() / f"{name}.yaml")
    assert new.answer_key is not None and "projected" in new.tags
    moved = {"clickstream-backfill": "e29"}  # its dbt call 2 s later, after the deadline, in both trials
    for seed in (None, 0, 3, 11):
        a, b = session_drill(old, seed, PlayedAs.NOISE), session_drill(new, seed, PlayedAs.NOISE)
        assert [e.model_dump(exclude={"t"} if e.id == moved.get(name) else None) for e in a.trace] == [
            e.model_dump(exclude={"t"} if e.id == moved.get(name) else None) for e in b.trace
        ]
        assert (a.distractors, a.all_clear, a.title, a.briefing) == (b.distractors, b.all_clear, b.title, b.briefing)


def test_a_session_recorded_on_the_all_clear_drill_rescores_and_verifies_unchanged(tmp_path: Path):
    """A session played on ``outage-callback-calls`` when it was an all-clear drill (a false alarm at 40 s) is
    rebuilt from the drill file as it is now: its noise trial, the same run, so re-scored against the changed file
    (``--allow-changed``) its scorecard is unchanged, and it verifies."""
    from warroom.core.scoring import score
    from warroom.store.journal import SessionRecorder
    from warroom.store.results import ResultsStore
    from warroom.store.review import RescoreStatus, default_drill_resolver, rescore, verify_sessions

    path = tmp_path / "drills" / "outage-callback-calls.yaml"
    path.parent.mkdir()
    shutil.copyfile(ALL_CLEAR / path.name, path)
    rec = SessionRecorder.start(tmp_path / "data", "ann", path, load_drill(path))
    replay = Replay(rec.drill, on_action=rec.record)
    replay.advance_to(40.0)
    replay.escalate("s3", "blind", ["e17"])
    replay.run_to_end()
    rec.finish(score(rec.drill, rec.actions))
    shutil.copyfile(bundled_drills_dir() / path.name, path)  # the drill as bundled now
    with ResultsStore(tmp_path / "data") as store:
        stored = store.get(rec.session_id)
        assert (stored.outcome, stored.played_as) == ("false_alarm", "noise")
        again = rescore(store, default_drill_resolver(), allow_changed=True)
        assert [r.status for r in again] == [RescoreStatus.UPDATED]  # the changed file's SHA-256 recorded, and:
        assert again[0].message.startswith("scorecard unchanged")
        assert [r.verdict.value for r in verify_sessions(store, default_drill_resolver())] == ["verified"]
        assert store.get(rec.session_id).scorecard == stored.scorecard
    assert Action(t=40.0, kind=ActionKind.ESCALATE, step="s3", note="blind", cites=("e17",)) in rec.actions
