"""A probe whose answer depends on when it is asked (issue 34, item 4), in the war room with Pilot, on
tests/fixtures/round2/probe-by-time.yaml: asked at 32 s, before the executor releases batch B-7 (e09, 40 s), probe
p1 shows what was true then, nothing paid yet, and the debrief says it found nothing (a needless probe, -2)."""

from __future__ import annotations

from pathlib import Path

from warroom.core.model import ActionKind
from warroom.store.results import ResultsStore
from warroom.tui.room import ProbeScreen

from .conftest import advance, make_app, screen_text

DRILL = Path(__file__).parent.parent / "fixtures" / "round2" / "probe-by-time.yaml"


async def test_a_probe_asked_before_the_release_answers_nothing_paid_yet(services):
    app = make_app(services, DRILL)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 32)  # s3 started (e07, 30 s); the release (e09) comes at 40 s
        await pilot.press("v")
        await pilot.pause()
        assert isinstance(app.screen, ProbeScreen)
        await pilot.press("enter")  # p1, on s3 (the selected event's step)
        await pilot.pause()
        await advance(pilot, 6)  # its answer comes 5 s after the request
        replay = app.live.replay
        assert replay.is_released("p1") and replay.probes.requests[0].not_yet
        shown = " ".join(screen_text(app).split())
        assert "nothing has been paid" in shown and "went out without an approval" not in shown
        assert not replay.evidence_released
        await pilot.press("q", "y")
        await pilot.pause()
    with ResultsStore(services.data_dir) as store:
        (row,) = store.query(trainee="tester")
        stored = store.get(row.session_id)
    assert stored.outcome == "abandoned"
    assert [a.probe for a in stored.actions if a.kind is ActionKind.PROBE] == ["p1"]
    assert any("it found nothing wrong" in line for line in stored.scorecard["lines"])
