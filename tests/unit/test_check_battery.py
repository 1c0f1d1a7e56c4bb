"""The gaming battery of `warroom check` (issue 31, warroom.core.author._battery): scripted trainees that do not read
the trace are never a hit, on any bundled drill, in any variant, while the ideal trainee still scores 100; each
plays as docs/scoring.md says; a drill where one of them is a hit fails by name."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from locations import FAIRNESS

from warroom.cli import main
from warroom.core.author import _battery as battery
from warroom.core.author import run_checks
from warroom.core.author._battery import BATTERY, RANDOM_SEEDS, play_battery_trainee, specific_moments
from warroom.core.library import bundled_drills_dir
from warroom.core.load import load_drill
from warroom.core.model import ActionKind, Response
from warroom.core.play import EscalationDraft
from warroom.core.variants import apply_variant

DRILLS = bundled_drills_dir()
BUNDLED = sorted(DRILLS.glob("*.yaml"))
REFUNDS = load_drill(DRILLS / "duplicate-charge-refunds.yaml")


def _escalations(run):
    return [(a.t, a.step, a.cites) for a in run.actions if a.kind is ActionKind.ESCALATE]


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_no_battery_trainee_is_a_hit_on_a_bundled_drill_or_its_variants_and_the_ideal_scores_100(path):
    drill = load_drill(path)
    played = [drill] + ([apply_variant(drill, seed) for seed in range(5)] if drill.variants else [])
    for variant in played:
        report = run_checks(variant)
        assert report.passed, report.problems
        assert len(report.battery) == len(BATTERY) - 1 + RANDOM_SEEDS
        assert [(r.trainee, r.seed) for r in report.battery if r.hit] == []
        assert report.total("ideal") == 100
        if not drill.is_all_clear:
            assert report.run("ideal").response is Response.HIT
            assert max(r.scorecard.total for r in report.battery) < report.total("late")
            assert specific_moments(variant) == []


def test_until_accepted_escalates_every_event_in_turn_citing_it_and_is_no_hit():
    run = play_battery_trainee(REFUNDS, "until-accepted")
    # e01 (the plan at 0 s) then, after the re-plan's 15 s, the events released meanwhile in turn: e02 (s1) stops
    # the cascade as the right step cited with no evidence
    assert _escalations(run) == [(0.0, "@plan", ("e01",)), (15.0, "s1", ("e02",))]
    assert (run.scorecard.outcome.value, run.scorecard.total, run.response) == (
        "right_step_unsupported", 0, Response.LOCALISATION_ERROR
    )


def test_flag_and_confirm_flags_everything_and_the_dialog_offers_nothing_to_confirm():
    run = play_battery_trainee(REFUNDS, "flag-and-confirm")
    # every event but the last, whose release ends the drill
    assert [a.event for a in run.actions if a.kind is ActionKind.FLAG] == [e.id for e in REFUNDS.trace][:-1]
    assert _escalations(run) == [] and run.response is Response.MISS
    assert run.notes == [
        "the escalation dialog offered no step and no citation (nothing chosen): nothing to confirm"
    ]


def test_cite_everything_knows_where_and_when_and_is_not_specific():
    run = play_battery_trainee(REFUNDS, "cite-everything")
    assert _escalations(run) == [(12.0, "s1", ("e01", "e02", "e03", "e04"))]  # 1 of 4 is evidence
    assert (run.scorecard.outcome.value, run.scorecard.total, run.response) == (
        "right_step_unsupported", 10, Response.LOCALISATION_ERROR
    )


def test_step_sweep_escalates_each_target_in_turn_citing_everything():
    run = play_battery_trainee(REFUNDS, "step-sweep")
    targets = [s.id for s in REFUNDS.plan] + ["@plan", "@setup"]
    escalations = _escalations(run)
    assert [step for _, step, _ in escalations] == targets[: len(escalations)]
    assert escalations[0] == (0.0, "s1", ("e01",)) and escalations[1][0] == 15.0  # after the re-plan's wait
    assert run.response is Response.LOCALISATION_ERROR


def test_random_is_seeded_and_draws_one_to_three_escalations():
    runs = [play_battery_trainee(REFUNDS, "random", seed) for seed in range(RANDOM_SEEDS)]
    assert [_escalations(r) for r in runs] == [
        _escalations(play_battery_trainee(REFUNDS, "random", seed)) for seed in range(RANDOM_SEEDS)
    ]
    assert all(1 <= len(_escalations(r)) <= 3 or r.scorecard.contained_at is not None for r in runs)
    assert {r.seed for r in runs} == set(range(RANDOM_SEEDS)) and not any(r.hit for r in runs)
    assert len({tuple(_escalations(r)) for r in runs}) > RANDOM_SEEDS // 2  # the seeds differ


def test_quit_when_losing_quits_once_the_re_plan_found_nothing():
    run = play_battery_trainee(REFUNDS, "quit-when-losing")
    assert [a.kind for a in run.actions] == [ActionKind.ESCALATE, ActionKind.QUIT]
    assert (run.scorecard.outcome.value, run.scorecard.total, run.response) == (
        "abandoned", 0, Response.LOCALISATION_ERROR
    )


def test_a_dialog_that_offered_the_answer_would_fail_every_drill_by_name(monkeypatch):
    key = REFUNDS.answer_key
    monkeypatch.setattr(battery, "escalation_draft", lambda chosen, released, format2: EscalationDraft(
        key.fault.target, ("e04",)) if any(e.id == "e04" for e in released) else EscalationDraft(None, ()))
    problems = run_checks(REFUNDS).problems
    assert any(p.startswith(
        "fairness rule battery-hit: the flag-and-confirm trainee is a hit without reading the trace: its first "
        "escalation named s1 at 12 s citing e04, which the escalation dialog offered with nothing chosen"
    ) for p in problems), problems


def test_check_json_has_every_battery_run_and_the_table_a_few():
    result = CliRunner().invoke(main, ["check", "duplicate-charge-refunds", "--format", "json"])
    assert result.exit_code == 0, result.output
    (drill,) = json.loads(result.output)["drills"]
    runs = drill["battery"]["runs"]
    assert drill["battery"]["hits"] == 0 and len(runs) == len(BATTERY) - 1 + RANDOM_SEEDS
    assert [r["seed"] for r in runs if r["trainee"] == "random"] == list(range(RANDOM_SEEDS))
    assert {r["response"] for r in runs} <= {"localisation_error", "miss"}
    assert all(r["response"] for r in drill["runs"])
    table = CliRunner().invoke(main, ["check", "duplicate-charge-refunds"]).output
    assert "  until-accepted     0/100  right step, unsupported  localisation error" in table
    assert "  cite-everything   10/100  right step, unsupported  localisation error" in table
    assert "  random (seed " in table
    assert "  gaming battery: no hit in 25 runs: 6 trainees, random over 20 seeds" in table


def test_specific_moments_name_when_citing_everything_would_be_specific():
    drill = load_drill(FAIRNESS / "citing-everything-is-specific.yaml")
    assert specific_moments(drill) == [(12.0, ("e01", "e02", "e03", "e04"))]


@pytest.mark.parametrize("name", ["duplicate-charge-refunds", "retail-office-chair-exchange", "tutorial"])
def test_without_the_engine_self_test_the_checks_find_the_same_runs_and_problems(name, monkeypatch):
    # warroom project's verify leaves out only the re-scoring of each log (a test of the engine): the runs, their
    # scorecards and the drill's problems are those of the full check, on the drill and on its twin
    from warroom.core.author import _trainee as trainee
    from warroom.core.author import check_twin

    drill = load_drill(DRILLS / f"{name}.yaml")
    full, fast = run_checks(drill), run_checks(drill, self_test=False)
    assert [(r.trainee, r.seed, r.scorecard, r.actions) for r in (*fast.runs, *fast.battery)] == [
        (r.trainee, r.seed, r.scorecard, r.actions) for r in (*full.runs, *full.battery)]
    assert fast.problems == full.problems == []
    twin_full, twin_fast = check_twin(drill), check_twin(drill, self_test=False)
    assert twin_full is not None and twin_fast is not None and twin_fast.problems == twin_full.problems == []
    # the self-test is what finds an engine whose log re-scores otherwise; without it nothing is re-scored
    calls = []
    monkeypatch.setattr(trainee, "score", lambda *a, **k: calls.append(a) or pytest.fail("re-scored"))
    run_checks(drill, self_test=False)
    assert calls == []
