"""The facilitator's console's views, from their inputs (no web server): the live class's lines and statuses, a drill
set's completion grid, the gradebook CSV, a trainee's progress, the counting sentence, a review's lines."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from warroom.console import (
    completion_grid,
    counting_sentence,
    gradebook_csv,
    live_counts,
    live_lines,
    progress,
    review_lines,
)
from warroom.core.stats import SessionFacts
from warroom.store.live import LiveTab

NOW = datetime(2026, 12, 1, 14, 10, 0, tzinfo=UTC)


def _at(seconds_ago: float) -> str:
    return (NOW - timedelta(seconds=seconds_ago)).isoformat().replace("+00:00", "Z")


def _tab(trainee: str, state: str, **kw) -> LiveTab:
    values = {"host": "h1:8000#abc", "tab": trainee, "trainee": trainee, "state": state,
              "connected_at": _at(300), "heartbeat_at": _at(1)} | kw  # fmt: skip
    return LiveTab(**values)


def test_live_lines_say_who_plays_who_is_stuck_gone_or_absent_and_the_drill_time_now():
    rows = [
        _tab("ana", "playing", drill_id="d1", drill_time=30.0, clock_at=_at(10), speed=2.0, last_action="speed",
             last_action_at=_at(10), actions=3),
        _tab("ben", "playing", drill_id="d1", drill_time=5.0, clock_at=_at(200), speed=1.0, paused=True),
        _tab("cy", "finished", drill_id="d2", outcome="contained", total=92, ended_at=_at(5)),
        _tab("dee", "disconnected", ended_at=_at(5)),
        _tab("eve", "picker", heartbeat_at=_at(60)),  # its host stopped answering
    ]
    lines = live_lines(rows, ["ana", "ben", "cy", "dee", "eve", "fay"], NOW, stuck_after=90, stale_after=10)
    by = {line.trainee: line for line in lines}
    assert by["ana"].status == "playing" and by["ana"].drill_time == 50.0 and by["ana"].clock == "00:50 at 2x"
    assert by["ben"].status == "stuck" and by["ben"].drill_time == 5.0 and by["ben"].clock == "00:05 paused"
    assert by["ben"].idle == 200.0
    assert (by["cy"].status, by["cy"].outcome, by["cy"].total) == ("finished", "contained", 92)
    assert by["dee"].status == "disconnected" and by["eve"].status == "lost" and by["fay"].status == "absent"
    assert [line.trainee for line in lines] == ["ana", "ben", "cy", "dee", "eve", "fay"]  # the roster's order
    counts = live_counts(lines)
    assert (counts["playing"], counts["stuck"], counts["absent"], counts["lost"]) == (1, 1, 1, 1)


@dataclass
class Row:
    trainee: str
    drill_id: str
    outcome: str
    total: int
    session_id: str
    set_id: str | None = "week-1"
    mode: str = "assessment"
    started_at: str = "2026-11-30T10:00:00Z"


def test_a_completion_grid_counts_attempts_progress_past_due_and_who_has_not_started():
    sessions = [
        Row("ana", "A", "abandoned", 0, "s1"),
        Row("ana", "A", "contained", 80, "s2"),
        Row("ana", "A", "contained", 90, "s3", set_id="other"),  # another set's: not this grid's
        Row("ben", "A", "abandoned", 0, "s4"),
        Row("ben", "A", "abandoned", 0, "s5"),
        Row("zed", "B", "missed", 0, "s6"),  # not on the roster, but played in the set
    ]
    grid = completion_grid("week-1", "Week 1", "assessment", 2, date(2026, 11, 30), [("A", "a"), ("B", "b")],
                           ["ana", "ben", "cy"], sessions, {("ben", "B")}, date(2026, 12, 1))  # fmt: skip
    cells = {name: cells for name, cells in grid.rows}
    assert [name for name, _ in grid.rows] == ["ana", "ben", "cy", "zed"]
    a = cells["ana"][0]
    # the first attempt (abandoned: 0) is what the gradebook and the figures count; the done cell says so
    assert (a.state, a.attempts, a.left, a.outcome, a.score, a.session_id) == ("done", 2, 0, "abandoned", 0, "s1")
    assert a.text == "done · abandoned · 0 (2 attempts, best 80) · 0 left" and not a.past_due
    assert cells["ana"][1].text == "not started · 2 left · past due"
    assert cells["ben"][0].state == "none" and cells["ben"][0].text == "no attempts left · past due"
    assert cells["ben"][1].state == "progress" and cells["ben"][1].text == "in progress · 1 left · past due"
    assert cells["zed"][1].text == "done · missed · 0 · 1 left"
    assert grid.not_started == ["cy"] and grid.past_due


def test_the_gradebook_is_one_row_per_trainee_with_each_drills_first_attempt_and_its_best_beside_it():
    sessions = [
        Row("ana", "A", "contained", 95, "s2", started_at="2026-11-30T11:00:00Z"),  # a replay: not the first
        Row("ana", "A", "contained", 80, "s1", started_at="2026-11-30T10:00:00Z"),
        Row("ana", "B", "abandoned", 0, "s3"),
        Row("=cmd|' /C calc'!A0", "A", "missed", 10, "s4"),
        Row("ben", "C", "all_clear_held", 100, "s5"),
    ]
    rows = list(csv.reader(io.StringIO(gradebook_csv(sessions, ["A", "B"], ["cy", "ana"]))))
    assert rows[0] == ["trainee", "A", "B", "C", "drills_done", "sessions", "mean_first"]
    assert rows[1] == ["cy", "", "", "", "0", "0", ""]
    assert rows[2] == ["ana", "80 (2 attempts, best 95)", "0", "", "1", "3", "40.0"]
    assert rows[3][0] == "'=cmd|' /C calc'!A0"  # never a formula in a spreadsheet
    assert rows[4] == ["ben", "", "", "100", "1", "1", "100.0"]


def test_the_gradebook_cannot_be_raised_by_abandoning_reading_the_review_and_replaying():
    """Issue 30: a trainee abandons a drill (0), reads its after-action review with the answer key, and replays it
    twice (100, then 90): the cell stays the first attempt, what the figures count; the replays show beside it."""
    sessions = [
        Row("ana", "A", "abandoned", 40, "s1", started_at="2026-11-30T10:00:00Z"),
        Row("ana", "A", "contained", 100, "s2", started_at="2026-11-30T10:05:00Z"),
        Row("ana", "A", "contained", 90, "s3", started_at="2026-11-30T10:09:00Z"),
        Row("ben", "A", "contained", 62, "s4", started_at="2026-11-30T10:00:00Z"),
    ]
    rows = list(csv.reader(io.StringIO(gradebook_csv(sessions, ["A"]))))
    assert rows[1:] == [["ana", "0 (3 attempts, best 100)", "1", "3", "0.0"], ["ben", "62", "1", "1", "62.0"]]


def _fact(trainee: str, drill: str, fault: bool, outcome: str, n: int, mode: str = "assessment") -> SessionFacts:
    return SessionFacts(trainee, drill, fault, outcome, 100 if outcome in ("contained", "all_clear_held") else 0,
                        f"2026-11-{n:02d}T10:00:00Z", mode=mode, session_id=f"s{n:02d}",
                        time_to_detect_s=4.0 if outcome == "contained" else None)  # fmt: skip


def test_progress_follows_the_figures_after_each_counted_session_and_counts_by_fault_kind():
    facts = [
        _fact("ana", "A", True, "contained", 1),
        _fact("ana", "N", False, "all_clear_held", 2),
        _fact("ana", "B", True, "missed", 3),
        _fact("ana", "N", False, "false_alarm", 4),
        _fact("ana", "A", True, "contained", 5, mode="practice"),  # left out: ana has assessment sessions
        _fact("ben", "A", True, "contained", 6),
    ]
    made = progress("ana", facts, {"A": "stale_data", "B": "truncated_tool_output"}.get)
    assert made.label == "assessment" and made.left_out == 1
    assert [p.n for p in made.points] == [1, 2, 3, 4]
    # d′ needs 10 signal and 5 noise trials (docs/sessions.md, "Cohort statistics"): until then it is not shown
    assert all(p.stats.d_prime is None for p in made.points)
    assert "false-alarm rate rests on 1 noise trial (5 needed)" in made.points[1].stats.warnings
    last = made.points[-1].stats
    # the trials: each drill's first attempt (ana's second N is a replay, not a trial)
    assert (last.hits, last.signal_trials, last.false_alarms, last.noise_trials) == (1, 2, 0, 1)
    assert made.overall == last
    kinds = {k.kind: k for k in made.by_kind}
    assert (kinds["stale_data"].hits, kinds["stale_data"].signal) == (1, 1)
    assert (kinds["truncated_tool_output"].hits, kinds["truncated_tool_output"].signal) == (0, 1)
    # the trials the rates count: ana's second N, a replay, is none (it was counted here: 1 of 2 beside a rate of 0/1)
    assert (kinds["all-clear (no fault)"].false_alarms, kinds["all-clear (no fault)"].noise) == (0, 1)
    assert [k.kind for k in made.by_kind][-1] == "all-clear (no fault)"


def test_the_counting_sentence_says_when_only_assessment_sessions_count():
    assert counting_sentence(11, 53) == (
        "The figures count assessment sessions only: 11 of the 64 stored sessions are assessments; 53 practice "
        "sessions left out (as warroom scores summary and warroom report do; their --mode all counts every session)."
    )
    assert counting_sentence(0, 4).startswith("The figures count every session (4 practice sessions; no assessment")


def test_review_lines_show_each_event_literally_with_its_fields():
    from warroom.core.library import bundled_drills_dir
    from warroom.core.load import load_drill
    from warroom.core.model import Action, ActionKind
    from warroom.store.review import build_review_rows

    drill = load_drill(bundled_drills_dir() / "duplicate-charge-refunds.yaml")
    actions = [Action(t=12, kind=ActionKind.ESCALATE, step="s1", note="stale <b>snapshot</b>", cites=("e04",))]
    lines = review_lines(build_review_rows(drill, actions).rows)
    e04 = next(line for line in lines if line.event_id == "e04")
    assert e04.kind == "tool result" and "evidence" in e04.key and e04.trainee == ["cited"]
    assert e04.summary.startswith("call: e03 · output:") and '"id": "e04"' in e04.detail
    escalation = next(line for line in lines if line.action)
    assert escalation.summary == "escalated step s1: stale <b>snapshot</b>"  # the page escapes it
    assert escalation.trainee[0] == "contained"


def test_a_tab_closed_after_its_drill_ended_is_finished_not_disconnected():
    """A new facilitator's class: three trainees finished their drill and pressed q; the live class said "0 finished,
    3 disconnected" in red, as for tabs lost mid-drill. A tab closed after its drill ended is **finished, tab
    closed**, counted with the finished; one closed mid-drill (abandoned, or not stored yet) stays disconnected."""
    from warroom.console import render

    rows = [
        _tab("ada", "disconnected", drill_id="d1", session_id="s1", outcome="contained", total=91, ended_at=_at(5)),
        _tab("ben", "disconnected", drill_id="d1", session_id="s2", outcome="abandoned", total=0, ended_at=_at(5)),
        _tab("cy", "disconnected", drill_id="d1", ended_at=_at(5)),
        _tab("dee", "finished", drill_id="d1", session_id="s4", outcome="missed", total=0, ended_at=_at(5)),
    ]
    lines = live_lines(rows, ["ada", "ben", "cy", "dee"], NOW, stuck_after=90, stale_after=10)
    by = {line.trainee: line for line in lines}
    assert (by["ada"].status, by["ada"].label) == ("left", "finished, tab closed")
    assert by["ben"].status == "disconnected" and by["cy"].status == "disconnected" and by["dee"].status == "finished"
    counts = live_counts(lines)
    head = " ".join(render("live_head.html", counts=counts, stuck_after=90, problem=None).split())
    assert "2 finished (1 with the tab closed since)" in head and "2 disconnected" in head
    row = render("live_row.html", l=by["ada"])
    assert 'href="/console/sessions/s1"' in row and "finished, tab closed" in row


def test_an_early_escalation_reads_as_the_cli_says_it_not_false_alarm():
    """A new facilitator's class: a trainee escalated the wrong step before the evidence of a fault; `warroom scores`
    said "early escalation" (a false alarm is an escalation on a noise trial only, docs/scoring.md) and the console's
    sessions, review, trainee pages and completion grid said "false alarm"."""
    from types import SimpleNamespace

    from warroom.console._grid import DONE, GridCell
    from warroom.console._html import environment

    page = environment().from_string("{{ s|outcome }}")
    assert page.render(s=SimpleNamespace(outcome="false_alarm", all_clear=False)) == "early escalation"
    assert page.render(s=SimpleNamespace(outcome="false_alarm", all_clear=True)) == "false alarm"
    assert page.render(s=SimpleNamespace(outcome="contained_late", all_clear=False)) == "contained late"
    cell = GridCell(DONE, 1, None, "false_alarm", 0, "s1", all_clear=False)
    assert cell.text == "done · early escalation · 0"
    assert GridCell(DONE, 1, None, "first attempt not verified", None, "s2").text.startswith(
        "done · first attempt not verified")
    for name in ("compare.html", "mine.html", "review.html", "sessions.html", "trainee.html"):
        source = (Path(__file__).parents[2] / "warroom" / "console" / "templates" / name).read_text(encoding="utf-8")
        assert 'outcome|replace("_", " ")' not in source, name  # every session's outcome through the filter


def test_the_live_class_says_an_early_escalation_as_the_cli_does():
    """The live class's outcome column said "false alarm" for a signal trial's escalation before the evidence (the
    end line's outcome as stored); it is said as `warroom scores` says it, from the trial the scorecard records."""
    from warroom.serve._live import _applied

    row = _tab("al", "playing", drill_id="d1", session_id="s1")
    end = {"type": "end", "ended_at": _at(1), "outcome": "false_alarm", "total": 0,
           "scorecard": {"played_as": "signal"}}
    assert _applied(row, end).outcome == "early escalation"
    assert _applied(row, end | {"scorecard": {"played_as": "noise"}}).outcome == "false alarm"
    assert _applied(row, end | {"outcome": "contained_late", "scorecard": {}}).outcome == "contained late"
    gone = _applied(_tab("al", "disconnected", ended_at=_at(3)), end | {"outcome": "abandoned"})
    assert gone.outcome == "abandoned"
    lines = live_lines([_applied(_tab("al", "disconnected", ended_at=_at(3)), end)], ["al"], NOW)
    assert lines[0].status == "left" and lines[0].outcome == "early escalation"
