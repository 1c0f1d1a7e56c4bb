"""Verification probes (issue 15 item 11): the replay's rules, scoring rules version 3 (a probe that finds the fault
is the detection; a needless probe costs points), validation, the scripted prober and the journal round-trip.

The fixture tests/fixtures/shapes/shape-11-probe.yaml: s1's edit is reported applied (e04, 10 s) but changed
nothing; probe p2 (verify s1, 8 s, askable from 5 s) finds it, probe p1 (verify s2, 6 s, askable from 20 s) and
probe p3 (verify s1, 3 s: it answers first) find nothing; the deadline is 50 s, the damage comes at 70 s and 80 s
(1,250 checkouts)."""

from __future__ import annotations

from pathlib import Path

import pytest

from warroom.core.author import run_checks
from warroom.core.load import DrillLoadError, load_drill
from warroom.core.model import Action, ActionKind, Outcome
from warroom.core.play import Replay, ReplayError
from warroom.core.rules import validate_drill
from warroom.core.scoring import EDITIONS, SCORING_VERSION, ScoringError, replay_actions, score
from warroom.store.journal import SessionRecorder, read_journal, recover_unfinished

#: What a needless probe costs by the current rules.
NEEDLESS_PROBE_PENALTY = EDITIONS[SCORING_VERSION].needless_probe_penalty

SHAPE = Path(__file__).parent.parent / "fixtures" / "shapes" / "shape-11-probe.yaml"


@pytest.fixture(scope="module")
def drill():
    return load_drill(SHAPE)


def probe(t: float, probe_id: str) -> Action:
    return Action(t=t, kind=ActionKind.PROBE, probe=probe_id)


def escalate(t: float, step: str, *cites: str) -> Action:
    return Action(t=t, kind=ActionKind.ESCALATE, step=step, cites=cites)


def test_a_probe_s_result_comes_after_its_wait_and_makes_the_fault_detectable(drill):
    replay = Replay(drill)
    replay.advance_to(5)
    assert replay.first_evidence_time == 13  # p2: askable at 5 s (e02, s1's first event) + 8 s
    replay.probe("p2")
    assert not replay.evidence_released
    assert [e.id for e in replay.advance_to(12.9)] == ["e03", "e04"]
    released = replay.advance_to(13)
    assert [e.id for e in released] == ["p2"] and replay.evidence_released
    result = released[0]
    assert result.step == "s1" and "(no changes)" in result.content and result.t == 13
    assert replay.cost.tokens == 900 + 120 + 1400 + 60 + 1500 + 30 + 1300 + 110  # the probe's tokens charged too
    esc = replay.escalate("s1", "the diff is empty", ["p2"])
    assert esc.contained and replay.time_to_detect == 0


def test_probes_are_refused_before_their_step_twice_and_when_unknown(drill):
    replay = Replay(drill)
    replay.advance_to(10)
    with pytest.raises(ReplayError, match="has not started yet"):
        replay.probe("p1")  # s2 starts at 20 s
    with pytest.raises(ReplayError, match="no probe 'p9'"):
        replay.probe("p9")
    replay.probe("p2")
    with pytest.raises(ReplayError, match="already requested"):
        replay.probe("p2")
    with pytest.raises(ReplayError, match="not been released"):
        replay.escalate("s1", "", ["p2"])  # its result is not in yet: it cannot be cited
    assert [a.kind for a in replay.actions] == [ActionKind.PROBE]


def test_escalating_the_origin_before_the_probe_s_result_is_a_false_escalation(drill):
    card = score(drill, [probe(5, "p2"), escalate(6, "s1")])
    assert card.false_escalations == 1 and card.outcome is Outcome.FALSE_ALARM


def test_a_needed_probe_scores_as_the_detection(drill):
    card = score(drill, [probe(5, "p2"), escalate(13, "s1", "p2")])
    assert (card.outcome, card.total, card.time_to_detect, card.first_evidence_at) == (
        Outcome.CONTAINED, 100, 0, 13)
    assert [c.name for c in card.components][-1] == "Needless probes"
    assert card.components[-1].points == 0
    assert "Probe p2 of step s1 requested at 5 s (result at 13 s): it found the fault." in card.lines


def test_a_late_probe_costs_speed_points(drill):
    card = score(drill, [probe(20, "p2"), escalate(28, "s1", "p2")])
    # time to detect 15 s (28 - 13) in a window of 37 s: 25 x (1 - 15/37) = 14.86, rounded 15
    assert (card.outcome, card.total, card.time_to_detect) == (Outcome.CONTAINED, 90, 15)


def test_needless_probes_cost_points_each(drill):
    card = score(drill, [probe(5, "p2"), probe(20, "p1"), escalate(26, "s1", "p2")])
    needless = card.components[-1]
    assert (needless.name, needless.points) == ("Needless probes", -NEEDLESS_PROBE_PENALTY)
    assert "p1: found nothing wrong" in needless.explanation
    speed = 25 * (1 - 13 / 37)  # escalated at 26 s: 16.2, rounded 16
    assert card.total == 50 + round(speed) + 25 - NEEDLESS_PROBE_PENALTY


def test_older_rules_do_not_charge_probes(drill):
    actions = [probe(5, "p2"), probe(20, "p1"), escalate(26, "s1", "p2")]
    v2 = score(drill, actions, rules="2")
    assert "Needless probes" not in [c.name for c in v2.components]
    assert v2.total == score(drill, actions).total + NEEDLESS_PROBE_PENALTY


def test_a_probe_the_log_cannot_apply_is_a_scoring_error(drill):
    with pytest.raises(ScoringError, match=r"action 1 .*probe.*has not started yet"):
        score(drill, [probe(1, "p1")])
    with pytest.raises(ScoringError, match="needs a probe"):
        score(drill, [Action(t=6, kind=ActionKind.PROBE)])


def test_the_replayed_log_shows_the_probe_result_where_it_was_released(drill):
    _, results = replay_actions(drill, [probe(5, "p2"), escalate(14, "s1", "p2")])
    assert [e.id for e in results[1].released] == ["e03", "e04", "p2"]


def test_check_passes_and_only_the_prober_and_careful_trainees_contain(drill):
    report = run_checks(drill)
    assert report.passed, report.problems
    outcomes = {r.trainee: r.scorecard.outcome for r in report.runs}
    assert outcomes["prober"] is Outcome.CONTAINED and outcomes["ideal"] is Outcome.CONTAINED
    assert outcomes["trigger-happy"] not in (Outcome.CONTAINED, Outcome.CONTAINED_LATE)
    prober = report.run("prober")
    # p3 is needless (-2); p1 comes after containment
    assert [a.probe for a in prober.actions if a.kind is ActionKind.PROBE] == ["p2", "p3"]


def test_check_fails_when_no_probe_reaches_the_fault_in_time(drill):
    slow = drill.model_copy(update={"probes": [p.model_copy(update={"seconds": 60.0}) for p in drill.probes]})
    report = run_checks(slow)
    assert not report.passed
    assert any("cannot be won" in p for p in report.problems)


def test_validation_names_a_probe_s_unknown_step_and_a_clash_with_an_event(drill):
    p0, *others = drill.probes
    bad = drill.model_copy(update={"probes": [p0.model_copy(update={"step": "s22", "id": "e03"}), *others]})
    assert [(i.loc, i.message) for i in validate_drill(bad)] == [
        (("probes", 0, "id"), "probe id `e03` is also a trace event id; a probe's result appears in the trace under "
         "its id, so give it an id of its own"),
        (("probes", 0, "step"), "probe `e03` verifies `s22`, which is not a plan step (did you mean `s2`?); the plan "
         "steps are: s1, s2, s3"),
    ]


def test_a_version_1_drill_has_no_probes(drill):
    issues = validate_drill(drill.model_copy(update={"schema_version": 1}))
    assert any(i.loc == ("probes",) and "`probes` is format 2" in i.message for i in issues)


def test_the_loader_points_at_a_bad_probe_reference(tmp_path):
    text = SHAPE.read_text().replace("evidence: [p2]", "evidence: [p22]").replace("id: shape-11-probe", "id: bad")
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(DrillLoadError) as info:
        load_drill(path)
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if "evidence: [p22]" in ln)
    assert f"bad.yaml:{line}:14: evidence event `p22` is neither a trace event nor a probe (did you mean `p2`?)" in (
        str(info.value))


def test_a_probe_action_round_trips_through_the_journal_and_recovery(tmp_path, drill):
    data_dir = tmp_path / "data"
    rec = SessionRecorder.start(data_dir, "ann", SHAPE, drill)
    replay = Replay(drill, on_action=rec.record)
    replay.advance_to(6)
    replay.probe("p2")
    replay.advance_to(14)
    replay.escalate("s1", "empty diff", ["p2"])
    journal = next((data_dir / "journals").glob("*.jsonl"))
    assert read_journal(journal).actions == replay.actions
    rec.close()  # the process "dies" here, before the session is finished
    (recovered,) = recover_unfinished(data_dir, lambda drill_id, path: SHAPE)
    assert recovered.outcome == "contained"
    assert [a.kind for a in recovered.actions][:2] == [ActionKind.PROBE, ActionKind.ESCALATE]
    assert recovered.actions[0].probe == "p2"


def test_the_review_rows_show_the_probe_asked_and_its_result(drill):
    from warroom.store.review import build_review_rows

    rows = build_review_rows(drill, [probe(5, "p2"), probe(20, "p1"), escalate(26, "s1", "p2")]).rows
    actions = [(r.t, r.text, r.trainee) for r in rows if r.kind == "action"]
    assert actions[0] == (5, "asked for probe p2 (verify step s1)", ["probe found the fault"])
    assert actions[1] == (20, "asked for probe p1 (verify step s2)", ["needless probe"])
    result = next(r for r in rows if r.kind == "event" and r.event.id == "p2")
    assert result.t == 13 and "evidence" in result.key


def test_the_docs_state_the_probe_penalty_the_code_uses():
    root = Path(__file__).parent.parent.parent
    scoring = (root / "docs" / "scoring.md").read_text()
    assert f"costs **{NEEDLESS_PROBE_PENALTY} points** (the edition's `needless_probe_penalty`)" in scoring
    assert f"| Needless probes | −{NEEDLESS_PROBE_PENALTY} each |" in scoring
    assert "| v | ask the executor to verify a plan step" in (root / "docs" / "war-room.md").read_text()
