"""Issue 34, item 1 played with Pilot: a fault in a handoff between agents (tests/fixtures/round2/
handoff-origin.yaml) escalated from the war room at 80x24: the dialog offers the handoff once it is released, and
the debrief names it as the fault's origin."""

from __future__ import annotations

from pathlib import Path

from warroom.tui.room import EscalateScreen

from .conftest import advance, make_app, screen_text
from .test_shapes_origins_evidence import _debrief_text, _escalate, _stored

ROUND2 = Path(__file__).parent.parent / "fixtures" / "round2"


async def test_a_fault_in_a_handoff_is_contained_by_escalating_the_handoff(services):
    app = make_app(services, ROUND2 / "handoff-origin.yaml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 8)  # before the handoff at 12 s: not offered yet
        await pilot.press("e")
        assert isinstance(app.screen, EscalateScreen)
        assert "handoff" not in screen_text(app).split("cite the events")[0]
        await pilot.press("escape")
        await advance(pilot, 8)  # e05 is out
        live = app.live
        dialog = await _escalate(pilot, "handoff", ("e05",))
        assert dialog.choices[-1][0] == "@handoff:e05"
        assert "lead's handoff to booker (e05) Book the cheapest" in screen_text(app)  # scrolled to it
        assert dialog.question.startswith("Escalate lead's handoff to booker (e05) to the planner?")
        await pilot.press("y")
        await pilot.pause()
        assert live.replay.contained
        flat = await _debrief_text(pilot)
        assert "CONTAINED" in flat and "you escalated lead's handoff to booker (e05) (contained)" in flat
        assert "fault lead's handoff to booker (e05) (at e05) · dropped_handoff" in flat
    stored = _stored(services)
    assert stored.outcome == "contained" and stored.actions[-1].step == "@handoff:e05"
