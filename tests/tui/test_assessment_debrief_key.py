"""Assessment (issue 35 item 6): after a containment `d` opens the debrief instead of waiting for the re-plan at 1x,
with the same score; the picker's best column in assessment shows assessment scores only."""

from __future__ import annotations

from store_support import scorecard
from textual.widgets import DataTable

from warroom.store.results import ResultsStore, SessionInfo
from warroom.tui.logic import Services
from warroom.tui.screens import DebriefScreen

from .conftest import STALE, advance, escalate, make_app, picker_ready, record_notifications, screen_text


def _services(tmp_path, mode: str) -> Services:
    return Services(trainee="ann", data_dir=tmp_path / "data", mode=mode)


async def test_d_after_a_containment_opens_the_debrief_with_the_score_of_the_whole_re_plan(tmp_path):
    app = make_app(_services(tmp_path, "assessment"))
    async with app.run_test(size=(80, 24)) as pilot:
        told = record_notifications(app)
        await pilot.press("enter")
        await advance(pilot, 13)
        live = app.live
        assert "d Debrief" not in screen_text(app)  # nothing to skip before a containment
        await pilot.press("d")  # refused: the drill goes on
        assert not live.replay.ended
        await escalate(pilot, "s1", cite="e04")
        assert live.replay.contained and not live.replay.ended  # the re-plan plays, at 1x
        assert any("d opens the debrief now" in m for m in told)
        assert "d Debrief" in screen_text(app)  # the footer offers it
        end = live.replay.last_event_time
        assert end is not None and end > live.replay.now  # the re-plan's events are still to come
        await pilot.press("d")
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, DebriefScreen)
        assert live.replay.now == end  # the re-plan was released whole: the drill ended as it would have
        skipped = app.screen.scorecard
    # the same drill, the re-plan watched to its end: the same scorecard
    app = make_app(_services(tmp_path / "again", "assessment"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 13)
        await escalate(pilot, "s1", cite="e04")
        await advance(pilot, 60)
        assert isinstance(app.screen, DebriefScreen)
        watched = app.screen.scorecard
    assert (skipped.outcome, skipped.total, skipped.time_to_detect) == (watched.outcome, watched.total,
                                                                          watched.time_to_detect)


def _store_sessions(tmp_path) -> None:
    drill = "duplicate-charge-refunds"
    with ResultsStore(tmp_path / "data") as store:
        for sid, mode, total in (("p1", "practice", 90), ("a1", "assessment", 40)):
            info = SessionInfo(session_id=sid, trainee="ann", drill_id=drill, drill_version=1, drill_sha256=None,
                               drill_path=str(STALE), started_at="2026-11-01T10:00:00.000000+00:00", all_clear=False,
                               mode=mode)
            card = scorecard(drill_id=drill, outcome="contained", total=total)
            assert store.insert(info, card, [], ended_at="2026-11-01T10:00:00.000000+00:00")


async def _best_of(app, pilot, drill_id: str) -> str:
    picker = await picker_ready(pilot)
    table = picker.query_one("#picker-table", DataTable)
    row = next(i for i, e in enumerate(picker.entries) if e.card is not None and e.card.id == drill_id)
    return str(table.get_cell(str(row), "best"))


async def test_the_best_column_in_assessment_shows_assessment_scores_only(tmp_path):
    _store_sessions(tmp_path)
    app = make_app(_services(tmp_path, "assessment"), None)
    async with app.run_test(size=(120, 40)) as pilot:
        assert await _best_of(app, pilot, "duplicate-charge-refunds") == "40"
        assert "(best: assessment scores)" in screen_text(app)
    app = make_app(_services(tmp_path, "practice"), None)
    async with app.run_test(size=(120, 40)) as pilot:
        assert await _best_of(app, pilot, "duplicate-charge-refunds") == "90"
