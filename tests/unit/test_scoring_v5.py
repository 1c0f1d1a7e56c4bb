"""Scoring rules version 5 (docs/scoring.md, "Accepted evidence detects"): a released accepted-evidence event makes the
fault detectable, so in a drill whose fault only a probe's answer shows, escalating the origin after the accepted
symptom (citing it) contains; version 4 keeps scoring such a session as an early escalation. Scores worked by hand.

tests/fixtures/round2/audit-flag-probe.yaml: only probe p1's answer (on screen from 17 s at the earliest) is evidence;
the symptom e09 (48 s, the damage: 410 orders) is accepted evidence; deadline 40 s (window 23 s).
tests/fixtures/round2/probe-only-symptom.yaml: the same fault, with an earlier symptom e09 at 30 s (accepted
evidence, no damage) and the damage at e10 (48 s); deadline 40 s."""

from __future__ import annotations

import inspect

import pytest
from round2_support import ROUND2, esc

from warroom.core.author import run_checks
from warroom.core.library import bundled_drills_dir
from warroom.core.load import load_drill
from warroom.core.model import Action, ActionKind, Outcome, Response, accepted_ids, detection_events
from warroom.core.play import Replay
from warroom.core.scoring import EDITIONS, SCORING_VERSION, score

FLAG = load_drill(ROUND2 / "audit-flag-probe.yaml")
SYMPTOM = load_drill(ROUND2 / "probe-only-symptom.yaml")


def probe(t: float, probe_id: str) -> Action:
    return Action(t=t, kind=ActionKind.PROBE, probe=probe_id)


def scored(drill, actions, rules):
    card = score(drill, actions, rules=rules)
    return card.outcome, card.total, card.response


@pytest.mark.parametrize(("drill", "actions", "v4", "v5"), [
    # the probe asked once its own answer applies (12 s, result 17 s), escalated at 18 s: 25 x (1 - 1/23) = 23.9 -> 24
    (FLAG, [probe(12, "p1"), esc(18, "s1", "p1")], (Outcome.CONTAINED, 99, Response.HIT),
     (Outcome.CONTAINED, 99, Response.HIT)),
    # no probe; the origin escalated at 50 s citing the symptom e09 (48 s), after the deadline: contained late, 20
    # points, the 410 orders already lost (damage avoided 0); the first escalation after the deadline is a miss
    (FLAG, [esc(50, "s1", "e09")], (Outcome.FALSE_ALARM, 0, Response.MISS),
     (Outcome.CONTAINED_LATE, 20, Response.MISS)),
    # before anything: an early escalation (-10, clamped to 0) in both editions
    (FLAG, [esc(10, "s1")], (Outcome.FALSE_ALARM, 0, Response.LOCALISATION_ERROR),
     (Outcome.FALSE_ALARM, 0, Response.LOCALISATION_ERROR)),
    (SYMPTOM, [probe(12, "p1"), esc(18, "s1", "p1")], (Outcome.CONTAINED, 99, Response.HIT),
     (Outcome.CONTAINED, 99, Response.HIT)),
    # no probe; the origin escalated at 32 s citing the symptom e09 (30 s), on time: the earliest evidence is still
    # p1's earliest answer (17 s): 25 x (1 - 15/23) = 8.7 -> 9; no damage yet: 25; 50 + 9 + 25 = 84, a hit
    (SYMPTOM, [esc(32, "s1", "e09")], (Outcome.FALSE_ALARM, 0, Response.LOCALISATION_ERROR),
     (Outcome.CONTAINED, 84, Response.HIT)),
    # a field e09 does not have (its text holds no `content`): versions 4 and 5 judge it as e09 whole, as released
    # (version 6 refuses it: tests/unit/test_hostile_campaign7_left.py)
    (SYMPTOM, [esc(32, "s1", "e09:content")], (Outcome.FALSE_ALARM, 0, Response.LOCALISATION_ERROR),
     (Outcome.CONTAINED, 84, Response.HIT)),
    # the symptom's step is the wrong one: after the evidence, a wrong step by version 5
    (SYMPTOM, [esc(32, "s2", "e09")], (Outcome.FALSE_ALARM, 0, Response.LOCALISATION_ERROR),
     (Outcome.WRONG_STEP, 0, Response.LOCALISATION_ERROR)),
    # the origin after the symptom, citing nothing that shows the fault: right step, unsupported (10)
    (SYMPTOM, [esc(32, "s1", "e08")], (Outcome.FALSE_ALARM, 0, Response.LOCALISATION_ERROR),
     (Outcome.RIGHT_STEP_UNSUPPORTED, 10, Response.LOCALISATION_ERROR)),
    (SYMPTOM, [esc(25, "s1")], (Outcome.FALSE_ALARM, 0, Response.LOCALISATION_ERROR),
     (Outcome.FALSE_ALARM, 0, Response.LOCALISATION_ERROR)),
])
def test_a_probe_only_fault_by_each_edition(drill, actions, v4, v5):
    assert scored(drill, actions, "4") == v4
    assert scored(drill, actions, "5") == v5


def test_the_symptom_contains_and_the_trace_stops():
    card = score(SYMPTOM, [esc(32, "s1", "e09")], rules="5")
    assert (card.contained_at, card.time_to_detect, card.first_evidence_at, card.damage) == (32, 15, 17, 0)
    assert card.lines[0] == ("Outcome: contained. You escalated s1, the fault's origin step, at 32 s, 15 s after the "
                             "earliest evidence and before the deadline at 40 s.")


def test_an_early_escalation_says_what_would_have_shown_the_fault_by_its_edition():
    v4 = score(SYMPTOM, [esc(25, "s1")], rules="4").lines[0]
    v5 = score(SYMPTOM, [esc(25, "s1")], rules="5").lines[0]
    assert "only probe p1's answer shows it, and you never had that answer" in v4
    assert v5 == ("Outcome: early escalation. You escalated once, before any evidence of the fault had appeared, and "
                  "never named s1 after it; the cascade ran on.")


def test_accepted_evidence_detects_only_from_the_earliest_evidence_time():
    # probe-only-symptom made with p1 answering only from 35 s (asked from 30 s, 5 s wait): the symptom e09 (30 s)
    # comes before the fault could be detected, so the origin escalated at 32 s is an early escalation; at 36 s it
    # contains: 25 x (1 - 1/5) = 20; 50 + 20 + 25 = 95 (the window is unchanged: from 35 s to 40 s)
    late_probe = SYMPTOM.model_copy(update={"probes": [
        SYMPTOM.probes[0].model_copy(update={"answers": [SYMPTOM.probes[0].answers[0].model_copy(
            update={"until": 30.0})]}), SYMPTOM.probes[1]]})
    early = score(late_probe, [esc(32, "s1", "e09")], rules="5")
    assert (early.outcome, early.total) == (Outcome.FALSE_ALARM, 0), early.lines
    card = score(late_probe, [esc(36, "s1", "e09")], rules="5")
    assert (card.first_evidence_at, card.time_to_detect, card.total) == (35, 1, 95), card.lines


def test_accepted_evidence_before_the_earliest_evidence_detects_nothing_early():
    # dependabot-merge-train (bundled): accepted e02 (tool discovery, before step 1) and e11 come before the evidence
    # e12 (36 s); @setup at 10 s citing e02 is an early escalation by version 5 as by version 4, and at 40 s citing
    # e02 it scores 99 as before: 25 x (1 - 4/74) = 23.6 -> 24
    drill = load_drill(bundled_drills_dir() / "dependabot-merge-train.yaml")
    for rules in ("4", "5"):
        assert scored(drill, [esc(10, "@setup", "e02")], rules)[:2] == (Outcome.FALSE_ALARM, 0)
        assert scored(drill, [esc(40, "@setup", "e02")], rules)[:2] == (Outcome.CONTAINED, 99)


def test_both_drills_pass_check_by_the_current_edition():
    for drill in (FLAG, SYMPTOM):
        report = run_checks(drill)
        assert report.passed, report.problems


def test_a_live_replay_plays_by_the_current_edition():
    default = inspect.signature(Replay).parameters["accepted_evidence_detects"].default
    assert default is EDITIONS[SCORING_VERSION].accepted_evidence_detects is True
    live = Replay(SYMPTOM)
    live.advance_to(32)
    assert live.escalate("s1", "", ["e09"]).contained


def test_a_replay_is_scored_only_by_an_edition_with_its_replay_rules():
    from warroom.core.scoring import scorecard_of

    replay = Replay(FLAG)
    replay.run_to_end()
    assert scorecard_of(replay, rules="5").outcome is Outcome.MISSED
    with pytest.raises(ValueError, match="not played by the replay rules of scoring rules version 4"):
        scorecard_of(replay, rules="4")


BUNDLED = sorted(p.name for p in bundled_drills_dir().glob("*.yaml"))


@pytest.mark.parametrize("name", BUNDLED)
def test_no_bundled_drill_scores_otherwise_by_version_5_but_by_its_switches(name):
    """Every run of `warroom check` (the reference trainees, the ideal one the expert, and the gaming battery with its
    seeds) on a bundled drill, re-scored from its action log by versions 4 and 5: the same total and response. An
    outcome may differ only by the accepted-evidence switch: an early escalation (version 4) after an accepted
    symptom of a fault only a probe shows."""
    drill = load_drill(bundled_drills_dir() / name)
    report = run_checks(drill, self_test=False)
    probe_only = drill.answer_key is not None and not detection_events(drill) and any(
        i in {e.id for e in drill.trace} for i in accepted_ids(drill.answer_key))
    for run in (*report.runs, *report.battery):
        v4, v5 = score(drill, run.actions, rules="4"), score(drill, run.actions, rules="5")
        assert (v4.total, v4.response) == (v5.total, v5.response), (run.trainee, v4.lines, v5.lines)
        if v4.outcome is not v5.outcome:
            assert probe_only and v4.outcome is Outcome.FALSE_ALARM, (run.trainee, v4.lines, v5.lines)


def test_the_review_marks_each_citation_by_the_sessions_own_rules():
    """A version-4 session citing a distractor's field beside the comparison's other event: version 4 read the
    field as completing the comparison (``e10`` evidence), version 5 does not (``e10`` part of it); the review of
    each session marks the citations as its own edition judged them, not by the current rules."""
    from warroom.store.review import build_review_rows

    drill = load_drill(ROUND2 / "audit-fx-by-position.yaml")
    cites = ("e05:stale_after", "e10")
    action = Action(t=60, kind=ActionKind.ESCALATE, step=drill.answer_key.fault.target, cites=cites)

    def marks(rules: str | None) -> list[str]:
        rows = build_review_rows(drill, [action], rules).rows
        return [m for row in rows if row.kind == "action" for m in row.trainee if m.startswith("cited")]

    assert marks("4") == ["cited e05:stale_after (distractor)", "cited e10 (evidence)"]
    assert marks("5") == marks(None) == ["cited e05:stale_after (distractor)", "cited e10 (part)"]
