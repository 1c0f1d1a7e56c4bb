"""Issue 34, item 7 played with Pilot: a step whose approval gates only the wire shows "⚠ no approval" in the plan
panel when the wire goes out, not at the harmless delegation before the evidence
(tests/fixtures/round2/approval-scope.yaml)."""

from __future__ import annotations

from pathlib import Path

from .conftest import advance, make_app, screen_text

ROUND2 = Path(__file__).parent.parent / "fixtures" / "round2"


async def test_no_approval_is_marked_at_the_gated_call_only(services):
    app = make_app(services, ROUND2 / "approval-scope.yaml")
    async with app.run_test(size=(100, 34)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 15)  # the delegation (10 s) and the request (14 s) are out
        assert app.live.replay.now >= 14
        assert "no approval" not in screen_text(app)
        await advance(pilot, 20)  # the wire (34 s) went out without a granted approval
        assert app.live.replay.now >= 34
        assert "s2 ⚠ no approval" in screen_text(app)
