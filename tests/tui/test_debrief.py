"""The debrief's timeline: every escalation with its reason and result; times with one decimal at most."""

from __future__ import annotations

import re

from warroom.core.text import clock, seconds
from warroom.tui.room import EscalateScreen
from warroom.tui.screens import MARKS_HEADING, DebriefScreen

from .conftest import advance, escalate, make_app, record_notifications, screen_text


async def _escalate(pilot, step: str, reason: str, cite: str | None = None) -> None:
    await escalate(pilot, step, reason, cite)
    assert not isinstance(pilot.app.screen, EscalateScreen)


async def test_debrief_timeline_shows_both_escalations_with_reasons_and_tenths(services):
    app = make_app(services)
    messages = record_notifications(app)
    async with app.run_test(size=(100, 80)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 5.3, step=5.3)
        await _escalate(pilot, "s3", "odd")  # false: the trace runs on 15 s
        assert any("Charged $0.035 and 15 s." in m for m in messages), messages  # USD as docs/scoring.md writes it
        await advance(pilot, 7.3, step=7.3)
        now = app.live.replay.now
        await _escalate(pilot, "s1", "stale", cite="e06")
        await advance(pilot, 5)
        assert isinstance(app.screen, DebriefScreen)
        text = "\n".join(line.strip("│ ") for line in screen_text(app).splitlines())
        for _ in range(2):
            await pilot.press("pagedown")
            text += "\n".join(line.strip("│ ") for line in screen_text(app).splitlines())
        flat = " ".join(text.split())
        # a moment not on a whole second says what the war room's clock showed then (issue 35's walk-through)
        assert ("5.3 s (00:05) ! you escalated step s3 (false escalation, before the evidence the drill counts): odd"
                in flat)
        assert f"{seconds(now)} ({clock(now)}) ! you escalated step s1 (contained): stale" in flat
        assert f"time to detect {seconds(now - 12)}" in flat
        # No drill time with more than one decimal anywhere in the debrief's own text, and no mm:ss but the clock's
        # reading after a moment in seconds.
        assert not re.search(r"\d+\.\d\d+ s\b", flat)
        # The debrief marks are headed with the glossary's name (docs/architecture.md), never "Timeline".
        assert MARKS_HEADING == "What happened when"
        assert "Timeline" not in flat
        marks = flat[flat.index("What happened when") : flat.index("Damage over time")]
        assert "you escalated step s1" in marks
        assert not re.search(r"\d\d:\d\d [●E!fqv✓■D] ", marks)  # (event data, in full, may hold a 03:00:04Z)


def _flat(app) -> str:
    return " ".join("\n".join(line.strip("│ ") for line in screen_text(app).splitlines()).split())


async def test_debrief_times_agree_and_a_penalty_shows_its_points_alone(services):
    """Contained at 18.25 s: the outcome text (from the scorecard) and the timeline both say 18.3 s (halves round
    up); time to detect 6.25 s shows as 6.3 s. The false escalation's penalty is -10, not -10/0; totals are of the
    scorecard's max_total."""
    app = make_app(services)
    async with app.run_test(size=(100, 80)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 3.25, step=3.25)
        await _escalate(pilot, "s3", "odd")  # false: the clock jumps 15 s to 18.25 s
        assert app.live.replay.now == 18.25
        await _escalate(pilot, "s1", "stale", cite="e06")
        await advance(pilot, 5)  # the re-plan plays, then the debrief opens
        assert isinstance(app.screen, DebriefScreen)
        card = app.screen.scorecard
        assert card.contained_at == 18.25 and card.time_to_detect == 6.25
        text = _flat(app)
        for _ in range(2):
            await pilot.press("pagedown")
            text += " " + _flat(app)
        assert "at 18.3 s (00:18), 6.3 s after the earliest evidence" in text  # the outcome text, with the clock
        assert "18.3 s (00:18) ! you escalated step s1" in text  # the timeline
        assert "time to detect 6.3 s" in text
        assert "18.2 s" not in text and "6.2 s" not in text
        # the speed formula writes time to detect as the sentence does: 6.3, never 6.25 (docs/scoring.md)
        assert "6.25" not in text and "18.25" not in text
        assert f"{card.total}/{card.max_total} total" in text
        penalty = next(c for c in card.components if c.max_points == 0)
        assert penalty.points == -10
        assert f"-10 {penalty.name}" in text and "-10/0" not in text


def test_seconds_have_one_decimal_at_most():
    assert seconds(30.5) == "30.5 s" and seconds(12.0) == "12 s" and seconds(27.649) == "27.6 s"
    assert seconds(18.25) == "18.3 s"


def test_the_first_evidence_mark_of_a_fault_only_a_probe_finds():
    # api-dns-cutover's evidence is the results of probes p2 and p3: the scorecard measures the time to detect from
    # p2's earliest result (s2 starts at 13 s, plus its 20 s), and the debrief's "what happened when" marks it there
    # (it had no first-evidence mark at all).
    from warroom.core.library import bundled_drills_dir
    from warroom.core.load import load_drill
    from warroom.core.play import Replay
    from warroom.tui.screens import debrief_marks

    drill = load_drill(bundled_drills_dir() / "api-dns-cutover.yaml")
    replay = Replay(drill)
    replay.advance(40)
    firsts = [m for m in debrief_marks(drill, replay) if m[1] == "E"]
    assert [(t, what) for t, _, what, _ in firsts] == [
        (33.0, "first evidence: the result of probe p2 (verify step s2), at the earliest: asked as soon as s2 started")
    ]


def test_the_debrief_and_the_review_colour_an_outcome_by_how_it_went():
    """Green for a containment on time or an all clear held, yellow for a late or unsupported containment, red for
    the rest (the debrief's and the review's headlines share the one rule)."""
    from warroom.core.model import Outcome
    from warroom.tui.screens._debrief import outcome_colour

    assert {o.value: outcome_colour(o.value) for o in Outcome} == {
        "contained": "green", "all_clear_held": "green", "contained_late": "yellow",
        "right_step_unsupported": "yellow", "wrong_step": "red", "false_alarm": "red", "missed": "red",
        "abandoned": "red",
    }
