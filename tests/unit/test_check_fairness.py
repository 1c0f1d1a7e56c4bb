"""warroom check's fairness rules (issue 14 item 2, warroom.core.author._fairness): each rule fails a drill that breaks
it,
with a message that names the events or steps, the rule and what to change; fair drills (the standard test drill,
the skeleton, the bundled library: see test_drill_library.py and test_cli_new.py) pass.

The drills in tests/fairness/ are the skeleton of ``warroom new`` with one change each, and each fails exactly one
rule, but trigger-happy-wins.yaml, issue 14's case (the skeleton's distractor moved into the origin step): it failed
until scoring rules version 4, which judges the trainees by the trial's response (issue 31), and passes now.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from core_support import drill_dict, make_drill
from locations import FAIRNESS, WHO_AND_WHEN

from warroom.cli import main
from warroom.core.author import run_checks
from warroom.core.author._fairness import RULES
from warroom.core.load import load_drill
from warroom.core.model import Action, ActionKind, Outcome, Response
from warroom.core.scoring import score

FAIRNESS = FAIRNESS

TRIGGER_HAPPY_HITS = (
    "fairness rule trigger-happy-contains: the trigger-happy trainee (and until-accepted, quit-when-losing) is a hit: "
    "its first escalation, of the plan at 0 s citing e01, the first trace event it saw, detected the fault without "
    "reading the trace: the evidence is out when the drill starts, so escalating whatever comes first wins. Release "
    "the earliest evidence after the first trace event"
)

#: file stem -> (rule, the first problem it must report; every problem is of that rule)
EXPECTED = {
    "trigger-happy-hits": ("trigger-happy-contains", TRIGGER_HAPPY_HITS),
    "citing-everything-is-specific": (
        "battery-hit",
        "fairness rule battery-hit: the random trainee (seed 6) is a hit without reading the trace: its first "
        "escalation named s1 at 13.1 s citing e01, e02, e03, e04: only 4 events were out by then, so citing all of "
        "them is specific (at least 50% evidence, at most 4 events). Release more of the trace before the earliest "
        "evidence (the planner's call, the step's tool call, another step's events), so that more than 4 events are "
        "out when it appears",
    ),
    "damage-on-deadline": (
        "damage-by-deadline",
        "fairness rule damage-by-deadline: damage is released at or before the deadline (24 s): e07 at 24 s "
        "(1 wrong reports published). An escalation at the deadline still counts as on time but comes after the "
        "events released by then, so every damage event must come strictly after the deadline. Move the deadline "
        "to between 13 s and just before 24 s (at least 5 s after the earliest evidence at 8 s, before the first "
        "damage event e07), or release that event after the deadline",
    ),
    "nothing-to-save": (
        "nothing-to-save",
        "fairness rule nothing-to-save: the deadline (47 s) is at or after the last damage event e12 (47 s), so "
        "all the damage is done before an on-time escalation can save any of it. Move the deadline to between 13 s "
        "and just before 24 s (at least 5 s after the earliest evidence at 8 s, before the first damage event e07), "
        "or release the damage events later",
    ),
    "cascade-names-origin": (
        "cascade-names-origin",
        "fairness rule cascade-names-origin: the cascade names the origin step s1; the cascade is the plan steps "
        "that build on the bad result, after the step where the fault happened. Remove s1 from answer_key.cascade",
    ),
    "distractor-like-evidence": (
        "distractor-like-evidence",
        "fairness rule distractor-like-evidence: a trainee who escalates s1 at 8 s citing only distractor "
        "e03:detail contains the incident (contained, 100/100): e03:detail shows the fault by the answer key, so one "
        "who read only the odd-but-harmless thing scores as one who found it. Point the distractor at a field that "
        "holds no evidence (its own `path`), or drop it from the distractors",
    ),
    "distractor-does-damage": (
        "distractor-does-damage",
        "fairness rule distractor-does-damage: distractor e07 is a damage event (1 wrong reports published), so it "
        "is part of the incident, not a harmless event. Drop e07 from the distractors (explain its odd look in the "
        "debrief instead), or pick a harmless event as the distractor",
    ),
}


#: Drills in tests/fairness/ that pass: issue 14's case, fair by the trial's response since scoring rules version 4.
FAIR_NOW = {"trigger-happy-wins"}


def test_every_rule_has_a_test_drill():
    assert sorted(rule for rule, _ in EXPECTED.values()) == sorted(RULES)
    assert {p.stem for p in FAIRNESS.glob("*.yaml")} == set(EXPECTED) | FAIR_NOW


@pytest.mark.parametrize("stem", sorted(EXPECTED))
def test_each_test_drill_fails_exactly_its_rule(stem):
    rule, message = EXPECTED[stem]
    report = run_checks(load_drill(FAIRNESS / f"{stem}.yaml"))
    assert report.problems[0] == message
    assert all(p.startswith(f"fairness rule {rule}: ") for p in report.problems), report.problems


def test_the_battery_rule_names_every_moment_citing_everything_is_specific():
    (_, moment) = run_checks(load_drill(FAIRNESS / "citing-everything-is-specific.yaml")).problems
    assert moment == (
        "fairness rule battery-hit: at 12 s citing every event released (e01, e02, e03, e04) is a specific citation "
        "(at least 50% evidence or accepted, at most 4 events), so a guess of s1 then, citing everything, is a hit "
        "without reading the trace. Release more of the trace before the earliest evidence (the planner's call, the "
        "step's tool call, another step's events), or the events after it together, so that more than 4 events are "
        "out whenever the evidence can be cited"
    )


def test_the_issue_case_passes_by_the_response_and_the_first_event_case_fails_in_the_cli():
    result = CliRunner().invoke(main, ["check", str(FAIRNESS / "trigger-happy-wins.yaml")])
    assert result.exit_code == 0, result.output
    report = run_checks(load_drill(FAIRNESS / "trigger-happy-wins.yaml"))
    happy = report.run("trigger-happy").scorecard
    # Scoring rules version 1 (the step alone) contained it with 78, beating a careful trainee who escalates a few
    # seconds later; version 2 sees it cited only the distractor: -10 (the first event) + 10 = 0; version 4 reads
    # the response from the first escalation (at the first event, the plan): a localisation error, no hit.
    assert (happy.outcome, happy.total, happy.response) == (
        Outcome.RIGHT_STEP_UNSUPPORTED, 0, Response.LOCALISATION_ERROR
    )
    drill = load_drill(FAIRNESS / "trigger-happy-wins.yaml")
    assert score(drill, report.run("trigger-happy").actions, rules="1").total == 78
    assert report.run("trigger-happy").actions[-1].cites == ("e05",)
    result = CliRunner().invoke(main, ["check", str(FAIRNESS / "trigger-happy-hits.yaml")])
    assert result.exit_code == 1 and "FAIL trigger-happy-hits" in result.output
    assert f": {TRIGGER_HAPPY_HITS}" in result.output


def test_the_standard_drill_passes_every_rule():
    assert run_checks(make_drill()).problems == []


def _damage_at(deadline: float):
    return make_drill(answer_key={**drill_dict()["answer_key"], "deadline": deadline})


def test_damage_on_the_deadline_event_itself_fails_and_just_after_passes():
    # damage: e07 at 30 s, e09 at 50 s; the earliest evidence is at 10 s
    assert run_checks(_damage_at(29.5)).problems == []
    problems = run_checks(_damage_at(30)).problems
    assert len(problems) == 1 and problems[0].startswith(
        "fairness rule damage-by-deadline: damage is released at or before the deadline (30 s): e07 at 30 s "
        "(100 rows corrupted)."
    )


def test_damage_rule_lists_every_early_event_and_nothing_to_save_replaces_it():
    key = drill_dict()["answer_key"]
    trace = drill_dict()["trace"]
    for e in trace:
        if e["id"] == "e09":
            e["t"] = 52
    entries = [{"event": "e07", "amount": 100}, {"event": "e08", "amount": 7}, {"event": "e09", "amount": 300}]
    drill = make_drill(trace=trace, answer_key={**key, "deadline": 45, "damage": {"unit": "rows", "entries": entries}})
    (problem,) = [p for p in run_checks(drill).problems if p.startswith("fairness rule")]
    assert "e07 at 30 s (100 rows), e08 at 40 s (7 rows)." in problem and "release those events" in problem
    drill = make_drill(trace=trace, answer_key={**key, "deadline": 52, "damage": {"unit": "rows", "entries": entries}})
    rules = [p.split(":")[0] for p in run_checks(drill).problems if p.startswith("fairness rule")]
    assert rules == ["fairness rule nothing-to-save"]


def test_trigger_happy_stopping_the_cascade_late_is_no_hit_and_the_drill_passes():
    trace = drill_dict()["trace"]
    at = next(i for i, e in enumerate(trace) if e["id"] == "e07")
    trace.insert(at, {"id": "e20", "t": 29, "step": "s1", "kind": "log", "source": "app", "content": "cache warmed"})
    distractors = [*drill_dict()["distractors"], {"event": "e20", "why_harmless": "Cache warm-up."}]
    report = run_checks(make_drill(trace=trace, distractors=distractors))
    happy = report.run("trigger-happy").scorecard
    assert (happy.outcome, happy.response) == (Outcome.RIGHT_STEP_UNSUPPORTED, Response.LOCALISATION_ERROR)
    assert report.problems == []


def test_trigger_happy_winning_at_the_first_event_says_to_release_the_evidence_later():
    key = {**drill_dict()["answer_key"], "evidence": ["e01"]}
    problems = run_checks(make_drill(answer_key=key)).problems
    assert (
        "fairness rule trigger-happy-contains: the trigger-happy trainee (and until-accepted, quit-when-losing) is a "
        "hit: its first escalation, of s1 at 0 s citing e01, the first trace event it saw, detected the fault without "
        "reading the trace: the evidence is out when the drill starts, so escalating whatever comes first wins. "
        "Release the earliest evidence after the first trace event"
    ) in problems


@pytest.mark.parametrize("distractor_step", [None, "s2"])
def test_a_distractor_like_the_evidence_by_kind_and_step_is_fair(distractor_step):
    """Issue 34: telling a distractor from the evidence by its content is the skill trained; rule 5 judges by what
    the distractor-citing trainee scores, not by kind and step (a log beside a log, inside or outside a step)."""
    trace = drill_dict()["trace"]
    at = next(i for i, e in enumerate(trace) if e["id"] == "e04")
    trace.insert(at, {"id": "e20", "t": 11, "kind": "log", "source": "app", "content": "audit: stale snapshot served"})
    trace.insert(at, {"id": "e21", "t": 11, "kind": "log", "source": "app", "content": "gc pause 80 ms"})
    if distractor_step:
        trace[at]["step"] = distractor_step
    key = {**drill_dict()["answer_key"], "evidence": ["e03", "e20"]}
    drill = make_drill(trace=trace, answer_key=key, distractors=[{"event": "e21", "why_harmless": "GC."}])
    problems = [p for p in run_checks(drill).problems if p.startswith("fairness rule distractor-like-evidence")]
    assert problems == []
    citing = score(drill, [Action(t=12, kind=ActionKind.ESCALATE, step="s1", cites=("e21",))])
    assert citing.outcome is Outcome.RIGHT_STEP_UNSUPPORTED  # citing the distractor alone shows nothing


def test_all_clear_drills_have_no_fairness_rules():
    drill = make_drill(id="tiny-clear", answer_key=None, all_clear={"debrief": "Nothing was wrong."})
    assert not [p for p in run_checks(drill).problems if p.startswith("fairness rule")]


def test_damage_rule_names_five_events_and_counts_the_rest():
    entries = [{"event": e, "amount": 1} for e in ("e04", "e05", "e06", "e07", "e08", "e09", "e10")]  # 12-60 s
    key = {**drill_dict()["answer_key"], "deadline": 59, "damage": {"unit": "rows", "entries": entries}}
    drill = make_drill(answer_key=key, distractors=[])
    problems = [p for p in run_checks(drill).problems if p.startswith("fairness rule")]
    assert len(problems) == 1
    assert (
        "(59 s): e04 at 12 s (1 rows), e05 at 20 s (1 rows), e06 at 25 s (1 rows), e07 at 30 s (1 rows), "
        "e08 at 40 s (1 rows) and 1 more. An escalation" in problems[0]
    )


def test_imported_drills_pass_every_fairness_rule(tmp_path):
    from warroom.importers import who_and_when as ww

    good = WHO_AND_WHEN / "good"
    report = ww.import_records([good], tmp_path)
    # (two records are refused: their mistake is the second event, tests/cli/test_import_cli.py, UNFAIR_GOOD)
    assert report.imported and all("fairness rule battery-hit" in r.error for r in report.failed)
    failing = {r.output.stem: run_checks(load_drill(r.output)).problems for r in report.imported}
    assert {stem: problems for stem, problems in failing.items() if problems} == {}


def test_damage_rule_says_when_no_deadline_fits_before_the_first_damage():
    # evidence e03 at 10 s, damage on e04 at 12 s: less than MIN_REACTION_WINDOW (5 s) between them
    key = {**drill_dict()["answer_key"], "damage": {"unit": "rows", "entries": [{"event": "e04", "amount": 3}]}}
    problems = [p for p in run_checks(make_drill(answer_key=key)).problems if p.startswith("fairness rule")]
    assert problems == [
        "fairness rule nothing-to-save: the deadline (28 s) is at or after the last damage event e04 (12 s), so all "
        "the damage is done before an on-time escalation can save any of it. No deadline fits: the first damage "
        "event e04 (12 s) comes less than 5 s after the earliest evidence (10 s), so release the damage events later"
    ]


def test_a_distractor_outside_any_step_named_as_the_origin_is_no_hit():
    # format 1: an event outside any step names the first plan step, here the origin s1; trigger-happy stops the
    # cascade there citing the distractor: right step, unsupported, and its first escalation was at the first event
    trace = drill_dict()["trace"]
    at = next(i for i, e in enumerate(trace) if e["id"] == "e07")
    trace.insert(at, {"id": "e20", "t": 26, "kind": "log", "source": "app", "content": "cache warmed"})
    distractors = [{"event": "e20", "why_harmless": "Cache warm-up."}]
    report = run_checks(make_drill(trace=trace, distractors=distractors))
    assert report.run("trigger-happy").scorecard.outcome is Outcome.RIGHT_STEP_UNSUPPORTED
    assert report.run("trigger-happy").response is Response.LOCALISATION_ERROR
    assert [p for p in report.problems if "fairness" in p] == []


def test_the_issue_reproduction_from_a_fresh_skeleton_passes_by_the_response():
    """`warroom new th-wins`, move the skeleton's distractor (e05) into the origin step, `warroom check`: it failed
    until scoring rules version 4; trigger-happy's escalation of s1 citing e05 is no hit (its first escalation, of the
    plan at 0 s, is its response), and the scorecard gives it 0."""
    from warroom.core.author import skeleton_text
    from warroom.core.load import load_drill_text

    text = skeleton_text("th-wins")
    moved = text.replace("  - id: e05\n    t: 12\n    step: s2\n", "  - id: e05\n    t: 12\n    step: s1\n")
    assert moved != text
    report = run_checks(load_drill_text(moved, "th-wins.yaml"))
    happy = report.run("trigger-happy")
    assert happy.scorecard.outcome is Outcome.RIGHT_STEP_UNSUPPORTED and happy.actions[-1].cites == ("e05",)
    assert happy.response is Response.LOCALISATION_ERROR and happy.scorecard.total == 0
    assert report.total("ideal") > report.total("trigger-happy")
    assert report.problems == []


def test_trigger_happy_stopping_the_trace_early_is_reported_not_a_crash():
    # A distractor outside any step (so escalated as the origin s1) stops the trace at 26 s; the trigger-happy
    # trainee's next target, distractor e10 at 60 s, is then never released: run_checks reports the rule instead of
    # raising ReplayError("trace event 'e10' has not been released yet").
    trace = drill_dict()["trace"]
    at = next(i for i, e in enumerate(trace) if e["id"] == "e07")
    trace.insert(at, {"id": "e20", "t": 26, "kind": "log", "source": "app", "content": "cache warmed"})
    distractors = [{"event": "e20", "why_harmless": "Cache warm-up."}, {"event": "e10", "why_harmless": "A report."}]
    replan = [{"id": "r01", "t": 60, "kind": "planner_call", "content": "Re-plan: redo s1 from the primary."}]
    key = {**drill_dict()["answer_key"], "replan": replan}  # the re-plan plays on past e10's 60 s
    report = run_checks(make_drill(trace=trace, distractors=distractors, answer_key=key))
    run = report.run("trigger-happy")
    assert run.scorecard.outcome is Outcome.RIGHT_STEP_UNSUPPORTED
    assert "e10 was never released: the trace had stopped before 60 s" in run.notes
    assert report.problems == []  # no hit: the first escalation, at the first event, was a localisation error


def test_a_check_problem_starts_at_the_line_of_the_key_it_is_about(tmp_path):
    """Issue 35's walk-through: check's problems carried no path:line:col; a deadline rule points at the deadline."""
    text = (FAIRNESS / "trigger-happy-hits.yaml").read_text()
    path = tmp_path / "trigger-happy-hits.yaml"
    path.write_text(text)
    result = CliRunner().invoke(main, ["check", str(path)])
    line = next(n for n, row in enumerate(text.splitlines(), 1) if row == "  fault:")
    problem = next(row for row in result.output.splitlines() if "fairness rule trigger-happy-contains" in row)
    assert problem.startswith(f"  problem: {path}:{line}:"), problem


def test_check_json_gives_each_problem_its_position(tmp_path):
    text = (FAIRNESS / "trigger-happy-hits.yaml").read_text()
    path = tmp_path / "trigger-happy-hits.yaml"
    path.write_text(text)
    result = CliRunner().invoke(main, ["check", str(path), "--format", "json"])
    (drill,) = json.loads(result.output)["drills"]
    line = next(n for n, row in enumerate(text.splitlines(), 1) if row == "  fault:")
    at = drill["problems"].index(next(p for p in drill["problems"] if p.startswith("fairness rule trigger-happy")))
    assert len(drill["problem_positions"]) == len(drill["problems"]) and drill["problem_positions"][at]["line"] == line


def test_deadline_advice_keeps_two_close_moments_apart():
    """The advice's range is written to a tenth of a second; when its two ends round alike it read "between 13 s and
    just before 13 s" (evidence at 8 s, a 5 s window, the first damage at 13.04 s): they are written exactly then."""
    from types import SimpleNamespace

    from warroom.core.author._fairness import _deadline_advice

    drill = load_drill(FAIRNESS / "damage-on-deadline.yaml")
    advice, fits = _deadline_advice(drill, SimpleNamespace(t=13.04, id="e07"), 5.0)
    assert fits
    assert advice.startswith("Move the deadline to between 13 s and just before 13.04 s (at least 5 s after the "
                             "earliest evidence at 8 s"), advice  # fmt: skip
    advice, _ = _deadline_advice(drill, SimpleNamespace(t=24.0, id="e07"), 5.0)
    assert advice.startswith("Move the deadline to between 13 s and just before 24 s"), advice
