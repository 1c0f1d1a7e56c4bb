"""Practice and assessment (issue 14 item 3), played with Pilot: assessment refuses pause and speeds and never stops
the drill clock; a practice session's pauses and wall-clock time to detect reach `warroom scores` and the review."""

from __future__ import annotations

import json
import re

from click.testing import CliRunner
from textual.widgets import Static

from warroom.cli import main
from warroom.core.model import ActionKind
from warroom.store.results import ResultsStore
from warroom.store.review import load_review
from warroom.tui.logic import ASSESSMENT_NOTES, Services
from warroom.tui.screens import DebriefScreen
from warroom.tui.widgets import HelpScreen

from .conftest import advance, escalate, make_app, record_notifications, screen_text, until


async def test_an_assessment_session_refuses_pause_and_speed_and_its_clock_never_stops(tmp_path):
    services = Services(trainee="ann", data_dir=tmp_path / "data", mode="assessment")
    app = make_app(services, speed=4.0)  # --speed does not apply in assessment
    async with app.run_test(size=(110, 34)) as pilot:
        await pilot.press("end")  # the briefing's end: the keys and the assessment rules
        body = app.screen.query_one("#briefing")
        await until(pilot, lambda: body.max_scroll_y > 0 and body.scroll_y == body.max_scroll_y, "at the end")
        briefing = " ".join(screen_text(app).split())
        assert "Assessment: the drill clock runs at 1x" in briefing and "e escalate to the planner" in briefing
        assert "pause / resume" not in briefing and "playback speed" not in briefing
        # The rules say what a correct escalation needs, as the practice help does: the step and the evidence cited
        # (naming the step alone scores as the right step, unsupported).
        assert "name the step whose result is wrong and cite the event that shows it" in briefing
        await pilot.press("enter")
        live = app.live
        told = record_notifications(app)
        assert live.speed == 1.0 and live.assessment
        assert "1x, no pause" in screen_text(app).splitlines()[-1]
        await advance(pilot, 3)
        await pilot.press("space")
        await pilot.pause()
        assert not live.paused
        assert told[-1] == "Assessment: the drill clock runs at 1x and cannot be paused or sped up."
        await pilot.press("plus", "minus")
        await pilot.pause()
        assert live.speed == 1.0 and len(told) == 3
        now = live.replay.now
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        help_text = screen_text(app)
        assert "(assessment)" in help_text and "pause / resume" not in help_text
        assert app.screen.notes == ASSESSMENT_NOTES  # the briefing showed these words already
        await advance(pilot, 5)
        assert live.replay.now == now + 5  # the help does not stop the clock
        await pilot.press("escape")
        await advance(pilot, 6)  # past the evidence (e06 at 12 s)
        await escalate(pilot, "s1", "stale snapshot", cite="e06")
        assert live.replay.contained
        await advance(pilot, 30)
        assert isinstance(app.screen, DebriefScreen)
    kinds = {a.kind for a in live.replay.actions}
    assert ActionKind.PAUSE not in kinds and ActionKind.SPEED not in kinds
    with ResultsStore(tmp_path / "data") as store:
        [row] = store.query()
    assert row.mode == "assessment" and row.pauses == 0 and row.outcome == "contained"
    assert row.wall_time_to_detect is not None


async def test_the_drill_ends_under_an_open_dialog_in_assessment(tmp_path):
    services = Services(trainee="ann", data_dir=tmp_path / "data", mode="assessment")
    app = make_app(services)
    async with app.run_test(size=(110, 34)) as pilot:
        await pilot.press("enter")
        live = app.live
        await pilot.press("question_mark")
        await advance(pilot, live.drill.duration + 5)  # the trace runs out while the help is open
        assert live.replay.ended
        assert isinstance(app.screen, DebriefScreen)
        assert [type(s).__name__ for s in app.screen_stack][-2:] != ["HelpScreen", "DebriefScreen"]
        assert not any(isinstance(s, HelpScreen) for s in app.screen_stack)


async def test_practice_pauses_show_in_scores_and_the_review(tmp_path):
    data = tmp_path / "data"
    app = make_app(Services(trainee="ann", data_dir=data))
    async with app.run_test(size=(110, 34)) as pilot:
        await pilot.press("enter")
        live = app.live
        for _ in range(2):
            await advance(pilot, 4)
            await pilot.press("space")
            assert live.paused
            await pilot.press("space")
            assert not live.paused
        await advance(pilot, 6)
        await escalate(pilot, "s1", "stale snapshot", cite="e06")
        await advance(pilot, 30)
        assert isinstance(app.screen, DebriefScreen)
    with ResultsStore(data) as store:
        [row] = store.query()
        session = store.get(row.session_id)
    assert row.mode == "practice" and row.pauses == 3  # two with space, and the escalation dialog's
    assert row.paused_seconds is not None and row.paused_seconds >= 0
    assert row.wall_time_to_detect is not None and row.wall_time_to_detect > 0

    runner = CliRunner()
    table = runner.invoke(main, ["scores", "--data-dir", str(data)], env={"COLUMNS": "200"})
    assert table.exit_code == 0, table.output
    assert "mode" in table.stdout and "practice, 3 pauses" in table.stdout
    exported = runner.invoke(main, ["scores", "--data-dir", str(data), "--format", "json"])
    [item] = json.loads(exported.stdout)
    assert (item["mode"], item["pauses"]) == ("practice", 3)
    assert item["wall_time_to_detect"] == row.wall_time_to_detect
    only = runner.invoke(main, ["scores", "--data-dir", str(data), "--mode", "assessment"])
    assert only.stdout.strip() == (
        "No sessions match --mode assessment: 1 session is stored (`warroom scores` without these options lists them).")

    from warroom.tui.app import ReviewApp

    review = ReviewApp(load_review(session))
    async with review.run_test(size=(160, 50)):
        head = str(review.screen.query_one("#review-head", Static).content)
    assert "practice" in head and "3 pauses" in head and "wall-clock time to detect" in head


async def test_the_quit_question_in_assessment_says_quitting_counts(tmp_path):
    """A new trainee's `warroom run --mode assessment`: q asked "The session is kept, scored as abandoned.", as in
    practice, though an abandoned assessment session counts (a miss, or like a false alarm on a noise trial); the
    question now says so, without telling which trial this is. Practice keeps the short question."""
    for mode, said in (("assessment", "In assessment quitting is not neutral: it counts as a miss on a drill with a "
                                      "fault, and against you like a false alarm on one without."),
                       ("practice", "The session is kept, scored as abandoned.")):
        app = make_app(Services(trainee="ann", data_dir=tmp_path / mode, mode=mode))
        async with app.run_test(size=(110, 34)) as pilot:
            await pilot.press("enter")
            await advance(pilot, 2)
            await pilot.press("q")
            await until(pilot, lambda app=app: "Quit this drill?" in screen_text(app), "the quit question")
            text = " ".join(re.sub("[\u2500-\u259f]", " ", screen_text(app)).split())  # no borders, no blocks
            assert "Quit this drill?" in text and said in text, text
            assert mode == "assessment" or "not neutral" not in text
