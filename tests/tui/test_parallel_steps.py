"""Plan steps that run at once (issue 34, item 5), in the war room with Pilot, on
tests/fixtures/round2/parallel-specialists.yaml: legal (s2) and finance (s3, `parallel`) work at the same time and
their events interleave; the plan shows both in progress, never `?` (moved on without a report), a false cue in a
drill with no fault. The same trace without `parallel` shows the cue, as before."""

from __future__ import annotations

from pathlib import Path

from warroom.tui.widgets import PlanPanel

from .conftest import advance, make_app

DRILL = Path(__file__).parent.parent / "fixtures" / "round2" / "parallel-specialists.yaml"


def _plan_text(app) -> str:  # type: ignore[no-untyped-def]
    panel = app.screen.query_one(PlanPanel)
    return str(panel.render())


async def _plan_at(services, path: Path, t: float) -> tuple[str, dict[str, str]]:
    app = make_app(services, path)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("enter")
        await advance(pilot, t)
        states = {k: v.value for k, v in app.live.replay.step_states.items()}
        return _plan_text(app), states


async def test_parallel_steps_both_show_in_progress_and_no_moved_on_cue(services):
    text, states = await _plan_at(services, DRILL, 22)  # e10 (s3) came after e09 (s2): both still working
    assert (states["s2"], states["s3"]) == ("in_progress", "in_progress")
    assert "?" not in text, text


async def test_without_parallel_the_same_trace_shows_the_cue(services, tmp_path):
    serial = tmp_path / "parallel-specialists.yaml"
    serial.write_text(DRILL.read_text(encoding="utf-8").replace(", parallel: true}", "}"), encoding="utf-8")
    text, states = await _plan_at(services, serial, 22)
    assert states["s2"] == "no_report" and "?" in text
