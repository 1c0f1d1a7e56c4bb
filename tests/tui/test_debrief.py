"""The debrief's timeline: every escalation with its reason and result; times with one decimal at most."""

from __future__ import annotations

import re

from warroom.tui.debrief import DebriefScreen
from warroom.tui.modals import EscalateScreen
from warroom.tui.text import seconds

from .conftest import advance, make_app, screen_text, type_text


async def _escalate(pilot, step: str, reason: str) -> None:
    await pilot.press("e")
    modal = pilot.app.screen
    assert isinstance(modal, EscalateScreen)
    while modal.step != step:
        await pilot.press("down")
    await type_text(pilot, reason)
    await pilot.press("enter")


async def test_debrief_timeline_shows_both_escalations_with_reasons_and_tenths(services):
    app = make_app(services)
    async with app.run_test(size=(100, 80)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 5.3, step=5.3)
        await _escalate(pilot, "s3", "odd")  # false: the trace runs on 15 s
        messages = [n.message for n in app._notifications]
        assert any("Charged $0.0350 and 15 s." in m for m in messages), messages
        await advance(pilot, 7.3, step=7.3)
        now = app.live.replay.now
        await _escalate(pilot, "s1", "stale")
        await advance(pilot, 5)
        assert isinstance(app.screen, DebriefScreen)
        text = "\n".join(line.strip("│ ") for line in screen_text(app).splitlines())
        for _ in range(2):
            await pilot.press("pagedown")
            text += "\n".join(line.strip("│ ") for line in screen_text(app).splitlines())
        flat = " ".join(text.split())
        assert "5.3 s ! you escalated step s3 (false alarm: nothing wrong found): odd" in flat
        assert f"{seconds(now)} ! you escalated step s1 (contained): stale" in flat
        assert f"time to detect {seconds(now - 12)}" in flat
        # No drill time with more than one decimal, and no mm:ss, anywhere in the debrief's own text.
        assert not re.search(r"\d+\.\d\d+ s\b", flat)
        timeline = flat[flat.index("Timeline") : flat.index("Damage over time")]
        assert not re.search(r"\d\d:\d\d", timeline)


def test_seconds_have_one_decimal_at_most():
    assert seconds(30.5) == "30.5 s" and seconds(12.0) == "12 s" and seconds(27.649) == "27.6 s"
