"""warroom check: scripted trainees, the winnable and ranking rules, all-clear drills, the CLI and its exit codes."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner
from core_support import all_clear_drill, drill_yaml, make_drill

from warroom.cli import main
from warroom.core.author import run_checks
from warroom.core.author._check import TRAINEES, play_scripted
from warroom.core.model import Outcome


def key_with(**changes):
    key = make_drill().answer_key.model_dump()
    key.update(changes)
    return key


def test_a_fair_drill_passes_and_ranks_the_trainees():
    report = run_checks(make_drill())
    assert report.passed and report.ok and report.problems == []
    assert [r.trainee for r in report.runs] == list(TRAINEES)
    outcomes = {r.trainee: r.scorecard.outcome for r in report.runs}
    assert outcomes == {
        "ideal": Outcome.CONTAINED,
        "late": Outcome.CONTAINED_LATE,
        "never": Outcome.MISSED,
        "trigger-happy": Outcome.WRONG_STEP,
        "wrong-step": Outcome.WRONG_STEP,
        "prober": Outcome.CONTAINED,  # a drill without probes: the prober escalates at the evidence like ideal
    }
    assert report.total("ideal") == 100 > report.total("late") > report.total("never") == 0
    assert report.total("ideal") > report.total("trigger-happy")


def test_scripted_trainees_do_exactly_what_the_docs_say():
    drill = make_drill()  # evidence e03 @10, deadline 28, end 60, distractor e06 @25 (s2), origin s1, cascade s2,s3

    def moves(trainee):
        return [(a.t, a.kind.value, a.step or a.event) for a in play_scripted(drill, trainee).actions]

    assert moves("ideal") == [(10, "flag", "e03"), (10, "escalate", "s1")]
    assert moves("late") == [(38, "escalate", "s1")]  # 28 + min(10, (60 - 28) / 2)
    assert moves("never") == []
    # first event e01 (no step -> s1) at 0 s, clock -> 15 s; distractor e06 at 25 s in s2
    assert moves("trigger-happy") == [(0, "escalate", "s1"), (25, "flag", "e06"), (25, "escalate", "s2")]
    assert moves("wrong-step") == [(10, "escalate", "s2")]  # the first cascade step
    with pytest.raises(KeyError):
        play_scripted(drill, "lucky")


def test_late_escalates_halfway_to_the_end_when_the_trace_ends_soon():
    trace = make_drill().model_dump(mode="json", exclude_none=True)["trace"]
    trace[-1]["t"] = 32
    for e in trace[-4:-1]:
        e["t"] = min(e["t"], 31)
    report = run_checks(make_drill(trace=trace))
    late = report.run("late")
    assert late.actions[0].t == 30  # 28 + min(10, (32 - 28) / 2)


def test_unwinnable_when_the_evidence_comes_after_the_deadline():
    report = run_checks(make_drill(answer_key=key_with(deadline=8)))
    assert not report.passed
    assert any("cannot be won" in p and "after the deadline" in p for p in report.problems)


def test_unwinnable_when_the_only_evidence_is_the_last_event():
    drill = make_drill(answer_key=key_with(evidence=["e10"], deadline=70))
    report = run_checks(drill)
    assert not report.passed
    assert any("ideal trainee did not contain" in p for p in report.problems)
    assert report.run("ideal").notes  # says the drill ended before the escalation


def test_unwinnable_by_a_person_when_the_deadline_leaves_no_time_to_react():
    """The ideal trainee reacts in zero time; a person needs MIN_REACTION_WINDOW seconds after the evidence."""
    from warroom.core.author import MIN_REACTION_WINDOW

    tight = run_checks(make_drill(answer_key=key_with(deadline=10 + MIN_REACTION_WINDOW - 1)))  # evidence e03 @10
    assert not tight.passed
    assert any("cannot be won by a person" in p and "only 4 s after the earliest evidence (10 s)" in p
               for p in tight.problems)
    assert run_checks(make_drill(answer_key=key_with(deadline=10 + MIN_REACTION_WINDOW))).passed


def test_ranking_fails_when_the_trace_ends_at_the_deadline():
    report = run_checks(make_drill(answer_key=key_with(deadline=60)))
    assert any(p.startswith("ranking: late must score more than never") and "no escalation can be late" in p
               for p in report.problems)


def test_the_check_fails_when_trigger_happy_wins():
    # The only distractor sits at the evidence's time in the origin step, so trigger-happy contains at once
    # after its first false escalation... and the first event is the evidence itself: it scores like ideal, and it
    # is a hit (rule trigger-happy-contains says so, rather than the ranking).
    trace = make_drill().model_dump(mode="json", exclude_none=True)["trace"]
    trace[0]["step"] = "s1"
    drill = make_drill(trace=trace, answer_key=key_with(evidence=["e01"]))
    report = run_checks(drill)
    assert report.total("trigger-happy") == report.total("ideal") == 100 and report.run("trigger-happy").hit
    assert any(p.startswith("fairness rule trigger-happy-contains: the trigger-happy trainee") for p in report.problems)
    assert not any(p.startswith("ranking: ideal must score more than trigger-happy") for p in report.problems)


def test_all_clear_drill_passes_when_never_wins():
    report = run_checks(all_clear_drill())
    assert report.passed and report.all_clear
    assert report.run("never").scorecard.outcome is Outcome.ALL_CLEAR_HELD and report.total("never") == 100
    assert report.run("ideal").actions == []
    for name in ("late", "trigger-happy", "wrong-step"):
        run = report.run(name)
        assert run.scorecard.outcome is Outcome.FALSE_ALARM and run.scorecard.total < 100


def test_report_is_json_safe_and_deterministic():
    a, b = run_checks(make_drill()).to_dict(), run_checks(make_drill()).to_dict()
    assert a == b
    json.dumps(a)


# -- the command ----------------------------------------------------------------------------------------------------


def test_check_command_passes_on_a_fair_drill(tmp_path):
    (tmp_path / "tiny.yaml").write_text(drill_yaml())
    result = CliRunner().invoke(main, ["check", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "PASS tiny" in result.output
    assert "ideal" in result.output and "trigger-happy" in result.output
    assert "1 drill checked: 1 passed, 0 failed." in result.output


def test_check_command_fails_on_an_unfair_drill_and_says_why(tmp_path):
    (tmp_path / "unfair.yaml").write_text(drill_yaml(id="unfair").replace("deadline: 28", "deadline: 60"))
    result = CliRunner().invoke(main, ["check", str(tmp_path / "unfair.yaml")])
    assert result.exit_code == 1
    assert "FAIL unfair" in result.output
    # each problem at the drill's key it is about: a ranking at the deadline
    assert re.search(r"problem: \S+unfair\.yaml:\d+:\d+: ranking: late must score more than never", result.output)


def test_check_command_reports_load_errors_with_line_and_column(tmp_path):
    bad = tmp_path / "bad.yaml"
    text = drill_yaml().replace("difficulty: 1", "difficulty: 9")
    bad.write_text(text)
    line = text.splitlines().index("difficulty: 9") + 1
    (tmp_path / "tiny.yaml").write_text(drill_yaml())
    result = CliRunner().invoke(main, ["check", str(tmp_path)])
    assert result.exit_code == 1
    assert f"{bad}:{line}:13: `difficulty` must be at most 5" in result.output  # path:line:col: message
    assert "PASS tiny" in result.output and "2 drills checked: 1 passed, 1 failed." in result.output
    assert "Traceback" not in result.output


def test_check_command_usage_errors_exit_2(tmp_path):
    runner = CliRunner()
    assert runner.invoke(main, ["check"]).exit_code == 2
    assert runner.invoke(main, ["check", str(tmp_path / "missing.yaml")]).exit_code == 2
    result = runner.invoke(main, ["check", str(tmp_path)])  # an empty folder
    assert result.exit_code == 2 and "no drill files" in result.output


def test_check_command_json(tmp_path):
    (tmp_path / "tiny.yaml").write_text(drill_yaml())
    (tmp_path / "clear.yaml").write_text(
        drill_yaml(id="clear", answer_key=None, all_clear={"debrief": "fine"})
    )
    result = CliRunner().invoke(main, ["check", "--format", "json", str(tmp_path)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["passed"] and data["checked"] == 2 and data["failed"] == 0
    drills = {d["drill_id"]: d for d in data["drills"]}
    assert drills["clear"]["all_clear"] is True
    runs = {r["trainee"]: r for r in drills["tiny"]["runs"]}
    assert runs["ideal"]["total"] == 100 and runs["ideal"]["scorecard"]["outcome"] == "contained"
    assert runs["ideal"]["actions"][-1] == {
        "t": 10.0, "kind": "escalate", "step": "s1", "note": "ideal trainee", "cites": ["e03"]
    }


def test_check_command_on_the_seed_example():
    from warroom.core.author import seed_example_path

    result = CliRunner().invoke(main, ["check", str(seed_example_path())])
    assert result.exit_code == 0, result.output


def test_check_command_takes_bundled_drill_ids():
    result = CliRunner().invoke(main, ["check", "duplicate-charge-refunds"])
    assert result.exit_code == 0, result.output
    assert "PASS duplicate-charge-refunds" in result.output and "1 drill checked: 1 passed, 0 failed." in result.output
    result = CliRunner().invoke(main, ["check", "no-such-drill"])
    assert result.exit_code == 2 and "no file, folder or drill id 'no-such-drill'" in result.output


def test_check_command_takes_ids_from_a_drills_folder(tmp_path):
    (tmp_path / "tiny.yaml").write_text(drill_yaml())
    result = CliRunner().invoke(main, ["--drills", str(tmp_path), "check", "tiny"])
    assert result.exit_code == 0, result.output
    assert f"PASS tiny  {tmp_path / 'tiny.yaml'}" in result.output


def test_check_command_fails_a_drill_whose_id_is_not_its_file_name(tmp_path):
    f = tmp_path / "renamed.yaml"
    f.write_text(drill_yaml())
    result = CliRunner().invoke(main, ["check", str(f)])
    assert result.exit_code == 1
    assert f"{f}:2:5: drill id `tiny` does not match the file name `renamed.yaml`" in result.stderr
    assert "FAIL tiny" in result.stdout and "1 drill checked: 0 passed, 1 failed." in result.stdout
    data = json.loads(CliRunner().invoke(main, ["check", "--format", "json", str(f)]).stdout)
    (drill,) = data["drills"]
    assert data["passed"] is False and drill["passed"] is False
    (problem,) = drill["file_problems"]
    assert problem["line"] == 2 and "does not match the file name" in problem["message"]


def test_check_command_fails_the_second_drill_with_the_same_id(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "tiny.yaml").write_text(drill_yaml())
    (tmp_path / "b" / "tiny.yaml").write_text(drill_yaml())
    result = CliRunner().invoke(main, ["check", str(tmp_path)])
    assert result.exit_code == 1
    first, second = tmp_path / "a" / "tiny.yaml", tmp_path / "b" / "tiny.yaml"
    assert f"{second}:2:5: drill id `tiny` is already the id of {first} (line 2)" in result.stderr
    assert "2 drills checked: 1 passed, 1 failed." in result.stdout
