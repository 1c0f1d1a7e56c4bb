"""The gaming battery of `warroom check` (issue 31, warroom.core.author._battery): scripted trainees that do not read
the trace are never a hit, on any bundled drill, in any variant, while the ideal trainee still scores 100; each
plays as docs/scoring.md says; a drill where one of them is a hit fails by name. The newest guess (a blind guess
`warroom check` only warns of) wins at most NEWEST_GUESS_WARN of any bundled drill and of its first 5 variants."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from locations import ALL_CLEAR, FAIRNESS

from warroom.cli import main
from warroom.core.author import _battery as battery
from warroom.core.author import run_checks
from warroom.core.author._battery import (
    BATTERY,
    RANDOM_SEEDS,
    play_battery_trainee,
    specific_moments,
    step_report_cues,
)
from warroom.core.library import bundled_drills_dir
from warroom.core.load import load_drill
from warroom.core.model import ActionKind, Response, twin_of
from warroom.core.play import EscalationDraft
from warroom.core.variants import apply_variant

DRILLS = bundled_drills_dir()
BUNDLED = sorted(DRILLS.glob("*.yaml"))
REFUNDS = load_drill(DRILLS / "duplicate-charge-refunds.yaml")


def _battery_size(drill) -> int:
    """How many runs the battery plays on ``drill``: one per trainee, but random (once per seed) and step-report (once
    per cue)."""
    return len(BATTERY) - 2 + RANDOM_SEEDS + len(step_report_cues(drill))


def _escalations(run):
    return [(a.t, a.step, a.cites) for a in run.actions if a.kind is ActionKind.ESCALATE]


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_no_battery_trainee_is_a_hit_on_a_bundled_drill_or_its_variants_and_the_ideal_scores_100(path):
    drill = load_drill(path)
    played = [drill] + ([apply_variant(drill, seed) for seed in range(5)] if drill.variants else [])
    for variant in played:
        report = run_checks(variant)
        assert report.passed, report.problems
        assert len(report.battery) == _battery_size(variant)
        assert [(r.trainee, r.seed) for r in report.battery if r.hit] == []
        # nor the reference trainees that do not read the evidence (fairness rule trigger-happy-contains)
        assert [r.trainee for r in report.runs if r.hit and r.trainee in ("trigger-happy", "never", "wrong-step")] == []
        assert report.total("ideal") == 100
        if not drill.is_all_clear:
            assert report.run("ideal").response is Response.HIT
            assert max(r.scorecard.total for r in report.battery) < report.total("late")
            assert specific_moments(variant) == []


def _newest_guess_over_warn(drill, variants=5):
    """The plays of ``drill`` (itself, and its first ``variants`` seeded variants) whose *newest guess* is a hit for
    more than NEWEST_GUESS_WARN of the trace, as ``(seed, share)`` (seed None: the drill as written)."""
    from warroom.core.author import NEWEST_GUESS_WARN, newest_guess_share, newest_guess_windows

    seeds = range(variants) if drill.variants else range(0)
    played = [(None, drill), *((seed, apply_variant(drill, seed)) for seed in seeds)]
    shares = [(seed, newest_guess_share(newest_guess_windows(v), v)) for seed, v in played]
    return [(seed, round(share, 4)) for seed, share in shares if share > NEWEST_GUESS_WARN]


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_the_newest_guess_wins_at_most_10_percent_of_a_bundled_drill_or_its_first_5_variants(path):
    # the blind guess `warroom check` only warns of (docs/scoring.md, "The gaming battery") is a failure for the
    # bundled library: CI runs this test, so a bundled drill whose evidence stays the newest event too long fails it
    assert _newest_guess_over_warn(load_drill(path)) == []


def test_the_newest_guess_guard_fails_a_drill_over_the_threshold(tmp_path):
    # the guard above is no test that cannot fail: a drill whose evidence is the newest event for 25 s of 60 s is caught
    path = tmp_path / "early-tell.yaml"
    path.write_text(EARLY_TELL, encoding="utf-8")
    assert _newest_guess_over_warn(load_drill(path)) == [(None, round(25 / 60, 4))]
    assert _newest_guess_over_warn(REFUNDS) == []  # 4 s of 92 s

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


def test_flag_and_confirm_copies_the_flags_once_not_per_event(monkeypatch: pytest.MonkeyPatch):
    """Issue 30: the battery's CPU per event grew with the drill (1.25-1.9x at 9 MiB against 1 MiB): the
    flag-and-confirm trainee asked `Replay.flagged`, a copy of every flag so far, for each event it saw (quadratic).
    It now reads it once; the flags it makes are the same (the test above)."""
    from warroom.core.play import Replay

    reads: list[int] = []
    real = Replay.flagged

    def counted(replay):
        reads.append(1)
        return real.fget(replay)

    monkeypatch.setattr(Replay, "flagged", property(counted))
    run = play_battery_trainee(REFUNDS, "flag-and-confirm")
    assert len([a for a in run.actions if a.kind is ActionKind.FLAG]) == len(REFUNDS.trace) - 1 > 10
    assert len(reads) <= 2  # once for the trainee (scoring may read it once more), not once per event


def test_cite_everything_knows_where_and_when_and_is_not_specific():
    run = play_battery_trainee(REFUNDS, "cite-everything")
    # 1 of 6 is evidence (the count query e30-e31 comes before the duplicate query)
    assert _escalations(run) == [(12.0, "s1", ("e01", "e02", "e30", "e31", "e03", "e04"))]
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
    assert drill["battery"]["hits"] == 0 and len(runs) == _battery_size(REFUNDS)
    assert [r["seed"] for r in runs if r["trainee"] == "random"] == list(range(RANDOM_SEEDS))
    assert {r["response"] for r in runs} <= {"localisation_error", "miss"}
    assert all(r["response"] for r in drill["runs"])
    table = CliRunner().invoke(main, ["check", "duplicate-charge-refunds"]).output
    assert "  until-accepted     0/100  right step, unsupported  localisation error" in table
    assert "  cite-everything   10/100  right step, unsupported  localisation error" in table
    assert "  random (seed " in table
    assert "  gaming battery: no hit in 28 runs: 8 trainees, random over 20 seeds" in table


def test_specific_moments_name_when_citing_everything_would_be_specific():
    drill = load_drill(FAIRNESS / "citing-everything-is-specific.yaml")
    assert specific_moments(drill) == [(12.0, ("e01", "e02", "e03", "e04"))]


#: A drill of the auditor's (issue 31): its one evidence event stays the newest event for 25 s of a 60 s trace, all
#: of it before the deadline, so moving onto the newest event at a random moment and confirming what the escalation
#: dialog offers (s1, citing e02) is a hit 25/60 of the time, though every battery trainee is no hit.
EARLY_TELL = """\
schema_version: 2
id: early-tell
title: Inventory sync with an early tell
version: 1
difficulty: 1
author: auditor
briefing: {goal: Sync the inventory., watching: An inventory agent., context: Nightly sync.}
models:
  planner: {name: big, input_usd_per_mtok: 5.0, output_usd_per_mtok: 25.0}
  executor: {name: small, input_usd_per_mtok: 1.0, output_usd_per_mtok: 5.0}
plan:
  - {id: s1, title: Read the counts, objective: Counts for every SKU from today's export.}
  - {id: s2, title: Compute the deltas, objective: One delta per SKU.}
  - {id: s3, title: Push to the storefront, objective: Every delta applied.}
trace:
  - {id: e01, t: 0, kind: planner_call, content: "Plan: s1, s2, s3.", usage: {input_tokens: 1000, output_tokens: 200}}
  - {id: e00b, t: 1, step: s1, kind: executor_message, content: "Reading today's export."}
  - {id: e00c, t: 1.5, step: s1, kind: log, source: export, level: info, content: "export service up"}
  - {id: e01b, t: 2, step: s1, kind: tool_call, tool: export.read, arguments: {day: today}}
  - {id: e02, t: 5, step: s1, kind: tool_result, call: e01b, status: ok, output: {note: "export is from last month"}}
  - {id: e03, t: 30, step: s2, kind: executor_report, status: success, content: "s2 done: 5000 deltas."}
  - {id: e04, t: 40, step: s3, kind: log, source: storefront, level: info, content: "applied batch 1"}
  - {id: e05, t: 50, step: s3, kind: log, source: storefront, level: info, content: "applied batch 2"}
  - {id: e06, t: 60, step: s3, kind: executor_report, status: success, content: "s3 done."}
answer_key:
  fault: {origin_step: s1, kind: stale_data, summary: "Last month's export was read."}
  evidence: [e02]
  cascade: [s2, s3]
  damage: {unit: rows, entries: [{event: e04, amount: 2500}, {event: e05, amount: 2500}]}
  deadline: 35
  debrief: The export was last month's.
"""


def test_the_newest_guess_is_computed_exactly_and_shown_for_every_drill_with_a_fault(tmp_path):
    from warroom.core.author import newest_guess_share, newest_guess_windows

    # duplicate-charge-refunds: e04 (the evidence, 12 s) is the newest event until e05 at 16 s: 4 s of 93 s
    spans = newest_guess_windows(REFUNDS)
    assert spans == [(12.0, 16.0, "e04")]
    assert newest_guess_share(spans, REFUNDS) == pytest.approx(4 / REFUNDS.duration)
    clear = load_drill(ALL_CLEAR / "clickstream-backfill.yaml")  # an all-clear drill: no hit to win
    assert newest_guess_windows(clear) == []
    assert newest_guess_windows(twin_of(load_drill(DRILLS / f"{clear.id}.yaml"))) == []  # its noise trial, alike
    path = tmp_path / "early-tell.yaml"
    path.write_text(EARLY_TELL, encoding="utf-8")
    drill = load_drill(path)
    report = run_checks(drill)
    assert report.passed and report.battery_hits == []  # the battery does not see it...
    assert report.newest_guess == [(5.0, 30.0, "e02")]  # ...the newest guess does: e02 is the newest from 5 s to 30 s
    assert report.newest_guess_share == pytest.approx(25 / 60)
    # and it is what `warroom score` says of the guess at any moment of that span
    log = tmp_path / "guess.jsonl"
    log.write_text(json.dumps({"t": 17.5, "kind": "escalate", "step": "s1", "cites": ["e02"]}) + "\n")
    scored = CliRunner().invoke(main, ["score", "--json", str(path), str(log)])
    assert json.loads(scored.output)["response"] == "hit"
    result = CliRunner().invoke(main, ["check", str(path), str(DRILLS / "duplicate-charge-refunds.yaml")])
    assert result.exit_code == 0, result.output
    assert (
        "  warning: newest guess (the newest event's step, citing it, at a random moment): a hit for 42% of the trace "
        "(e02 at 5-30 s), more than 10%" in result.output
    )
    assert "  newest guess (the newest event's step, citing it, at a random moment): a hit for 4% of the trace " \
        "(e04 at 12-16 s)\n" in result.output
    as_json = json.loads(CliRunner().invoke(main, ["check", "--format", "json", str(path)]).output)
    assert as_json["drills"][0]["newest_guess"] == {
        "share": pytest.approx(25 / 60), "spans": [{"start": 5.0, "end": 30.0, "event": "e02"}],
    }  # fmt: skip


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


@pytest.mark.parametrize(("share", "shown", "warned"), [(0.104, "10.4%", True), (0.1, "10%", False),
                                                         (0.096, "9.6%", False), (0.25, "25%", True)])
def test_the_newest_guess_line_never_says_10_percent_is_more_than_10_percent(share, shown, warned):
    from types import SimpleNamespace

    from warroom.cli.author._check import _newest_guess_line

    report = SimpleNamespace(all_clear=False, newest_guess_share=share, newest_guess=[(5.0, 9.0, "e04")])
    (line,) = _newest_guess_line(report)
    assert f"a hit for {shown} of the trace (e04 at 5-9 s)" in line
    assert line.strip().startswith("warning:") is warned


def test_author_mode_s_save_shows_the_newest_guess_warning_check_gives(tmp_path):
    from warroom.core.author import KeyDraft, findings
    from warroom.tui.author._panel import findings_text, key_text

    path = tmp_path / "early-tell.yaml"
    path.write_text(EARLY_TELL, encoding="utf-8")
    found = findings(path)
    assert found.ok and len(found.check_warnings) == 1
    assert "a hit for 42% of the trace" in found.check_warnings[0]
    assert "check: passed\ncheck: 1 warning" in key_text(KeyDraft(), found, saved=True).plain
    assert "warning: newest guess" in findings_text(found).plain


def _skeleton(healthy_first_step: bool):
    """The skeleton of `warroom new` as a drill, with or without its healthy first step s0 (e14-e16): without it,
    s1 is the first step to report, its evidence e03 among its last events, as in the skeleton before the
    step-report trainee."""
    import yaml

    from warroom.core.author import skeleton_text
    from warroom.core.load import load_drill_text

    data = yaml.safe_load(skeleton_text("blind"))
    if not healthy_first_step:
        data["plan"] = [s for s in data["plan"] if s["id"] != "s0"]
        data["trace"] = [e for e in data["trace"] if e.get("step") != "s0"]
        data["trace"][0]["content"] = "Plan: s1 query signups; s2 chart; s3 post to #growth; s4 email the leads."
    return load_drill_text(yaml.safe_dump(data, sort_keys=False), "blind.yaml")


def test_step_report_wins_a_drill_whose_silent_step_reports_first_and_check_says_so():
    """The helper's other blind script: at the first executor report (or when the work first moves on to another
    step), escalate that step citing its last four released events, unread: a hit on 4 bundled drills, the skeleton
    and `--example full`, whose fault was in the first step to report. It is the battery's step-report."""
    unfair = _skeleton(healthy_first_step=False)
    assert step_report_cues(unfair) == [(12.0, "s1")]  # the report and the next step's first event come together
    run = play_battery_trainee(unfair, "step-report", 0)
    assert _escalations(run) == [(12.0, "s1", ("e02", "e03", "e04"))] and run.hit
    (problem,) = [p for p in run_checks(unfair).problems if "step-report" in p]
    assert problem.startswith(
        "fairness rule battery-hit: the step-report trainee is a hit without reading the trace: its first escalation "
        "named s1 at 12 s citing e02, e03, e04, that step's last events when it first reported (or the work first "
        "moved on), never read"
    ) and problem.endswith("Let a healthy step report before the origin does, or release more of the origin step's "
                           "healthy events between the evidence and its report")
    fair = _skeleton(healthy_first_step=True)
    assert step_report_cues(fair) == [(3.0, "s0"), (4.0, "s0")]
    runs = [play_battery_trainee(fair, "step-report", i) for i in range(2)]
    assert [_escalations(r) for r in runs] == [
        [(3.0, "s0", ("e14", "e15", "e16"))], [(4.0, "s0", ("e14", "e15", "e16"))]
    ]
    assert not any(r.hit for r in runs)


@pytest.mark.parametrize("example", ["full", "loop"])
def test_the_examples_are_not_won_by_the_step_report_play(example):
    from warroom.core.author._examples import example_path

    drill = load_drill(example_path(example))
    report = run_checks(drill)
    assert report.passed, report.problems
    assert [r.trainee for r in report.battery if r.hit] == []
    assert len(report.seeded("step-report")) == len(step_report_cues(drill))


def _first_of_kind_hits(drill) -> list[str]:
    """A blind play `warroom check` does not yet make: for each kind of trace event, escalate the target of the first
    event of that kind at its release, citing it, unread (the trace's first event is trigger-happy's). The ids of
    those that are a hit."""
    from warroom.core.author._trainee import scored_run
    from warroom.core.model import event_target
    from warroom.core.play import Replay

    firsts: dict[str, object] = {}
    for ev in drill.trace[1:]:
        firsts.setdefault(ev.kind, ev)
    hits = []
    for ev in firsts.values():
        replay = Replay(drill)
        replay.advance_to(ev.t)
        replay.escalate(event_target(drill, ev), "first of its kind", (ev.id,))
        if scored_run("first-of-kind", "", replay, [], self_test=False).hit:
            hits.append(ev.id)
    return hits


@pytest.mark.parametrize(
    ("name", "first"),
    [
        ("duplicate-charge-refunds", "e30"),  # e31, the count query's result, is the first tool result
        ("dental-recall-calls", "e30"),  # the lead's handoff to the coordinator comes before the dialer's
        ("derm-clinic-rebooking-calls", "e60"),  # the executor's message once slots are found
        ("winback-sms-lapsed-members", "e40"),  # the git pull's result is the first command result
    ],
)
def test_the_first_event_of_a_kind_is_not_the_evidence_of_these_bundled_drills(name, first):
    """A campaign helper's blind script escalated the first tool result (handoff, executor message, command
    result) of each of these drills at its release, citing it, unread: a hit, 100 points, on all four (the
    evidence was that first event). Each now has a healthy event of that kind before its evidence."""
    drill = load_drill(DRILLS / f"{name}.yaml")
    assert first in [e.id for e in drill.trace] and _first_of_kind_hits(drill) == []
    # as the refunds drill was before its count query: its evidence e04 the first tool result, won blind
    before = _refunds_without_the_count_query() if name == "duplicate-charge-refunds" else None
    assert before is None or _first_of_kind_hits(before) == ["e04"]


def _refunds_without_the_count_query():
    """duplicate-charge-refunds as it was before version 2: without its count query (e30, e31), the evidence e04 is
    the trace's first tool result."""
    import yaml

    from warroom.core.load import load_drill_text

    data = yaml.safe_load((DRILLS / "duplicate-charge-refunds.yaml").read_text(encoding="utf-8"))
    data["trace"] = [e for e in data["trace"] if e["id"] not in ("e30", "e31")]
    return load_drill_text(yaml.safe_dump(data, sort_keys=False), "refunds.yaml")
