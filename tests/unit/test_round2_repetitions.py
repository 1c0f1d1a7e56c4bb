"""Issue 34, item 6: a repeated event judged as a whole by the fairness rules and ``warroom validate`` (every
repetition, not the first), and the attempt numbers of a repeated retry (tests/fixtures/round2/retry-loop.yaml)."""

from __future__ import annotations

from round2_support import ROUND2, text_of

from warroom.core.author import run_checks
from warroom.core.load import load_drill, load_drill_text
from warroom.core.model import last_repetition_at, repetitions_until
from warroom.core.play import index_calls
from warroom.tui.logic import TraceIndex
from warroom.tui.render import describe_event

DRILL = load_drill(ROUND2 / "retry-loop.yaml")
# e04 retries e02 x40 every 2 s from 6 s; e06 (damage, USD 0.08 each) x30 every 2 s from 22 s: the last at 80 s.


def test_repetitions_are_counted_by_time():
    e06 = DRILL.event("e06")
    assert last_repetition_at(e06) == 80 and last_repetition_at(DRILL.event("e03")) == 4
    assert [repetitions_until(e06, t) for t in (21, 22, 30, 80, 999)] == [0, 1, 5, 30, 30]


def test_the_drill_passes_check_and_the_ideal_trainee_saves_every_repetition():
    report = run_checks(DRILL)
    assert report.passed, report.problems
    assert report.run("never").scorecard.full_damage == 30 * 0.08


def _problems(text: str) -> list[str]:
    return run_checks(load_drill_text(text)).problems


def test_a_deadline_inside_the_loop_is_damage_before_the_deadline_not_nothing_to_save():
    problems = _problems(text_of("retry-loop").replace("deadline: 20", "deadline: 30"))
    assert not any("nothing-to-save" in p for p in problems), problems
    (damage,) = [p for p in problems if p.startswith("fairness rule damage-by-deadline")]
    assert "e06 x5 of 30 repetitions from 22 s to 30 s (0.4 USD billed for over-quota calls)" in damage
    # what the ideal trainee saves is there to save: 25 repetitions after the deadline
    drill = load_drill_text(text_of("retry-loop").replace("deadline: 20", "deadline: 30"))
    ideal = run_checks(drill).run("ideal").scorecard
    assert ideal.damage == 0 and ideal.full_damage == 30 * 0.08  # contained at the evidence: all of it saved


def test_nothing_to_save_reads_the_last_repetition():
    problems = _problems(text_of("retry-loop").replace("deadline: 20", "deadline: 80"))
    assert any(p.startswith("fairness rule nothing-to-save: the deadline (80 s) is at or after the last damage "
                            "event e06 (its last repetition at 80 s)") for p in problems), problems


def test_validate_accepts_a_repeated_damage_event_that_goes_on_after_the_evidence():
    text = text_of("retry-loop")
    line = next(s for s in text.splitlines() if s.startswith("  - {id: e06,"))
    moved = text.replace(line + "\n", "").replace(
        "  - {id: e04,", line.replace("t: 22", "t: 4") + "\n  - {id: e04,")
    drill = load_drill_text(moved)  # the first repetition at the evidence (4 s), 29 after it: some can be saved
    assert drill.event("e06").t == 4
    once = moved.replace("repeat: {count: 30, interval: 2}}", "}")
    try:
        load_drill_text(once, "x.yaml")
    except Exception as exc:  # a single damage event at the evidence's time can never be prevented
        assert "damage event `e06` (t=4 s) comes at the same time as the earliest evidence" in str(exc)
    else:
        raise AssertionError("a damage event at the earliest evidence loaded")


def test_a_repeated_retry_is_one_more_attempt_per_repetition():
    calls = index_calls(DRILL.trace)
    assert calls.attempt("e04") == 2 and calls.attempt("e07") == 42  # after 40 attempts of e04
    index = TraceIndex(DRILL)
    assert "retry     attempts 2 to 6, retries e02" in describe_event(DRILL.event("e04"), index, repeated=5).plain
    assert "retry     attempts 2 to 41, retries e02" in describe_event(DRILL.event("e04"), index).plain
    assert "retry     attempt 42, retries e04" in describe_event(DRILL.event("e07"), index).plain
