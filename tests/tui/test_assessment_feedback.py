"""In assessment, a false escalation's answer does not tell when the evidence comes or whether the drill has a fault
at all: an escalation before the evidence gets the same words as any other. Practice keeps the teaching words."""

from __future__ import annotations

import pytest

from warroom.tui.logic import Services

from .conftest import STALE, advance, escalate, make_app, screen_text, without_twin


@pytest.mark.parametrize(("mode", "early"), [("assessment", False), ("practice", True)])
async def test_an_early_false_escalation_says_as_much_as_the_mode_allows(tmp_path, mode, early):
    services = Services(trainee="ann", data_dir=tmp_path / "data", mode=mode)
    app = make_app(services, without_twin(STALE, tmp_path))  # (a drill with a twin never says so: see below)
    async with app.run_test(size=(160, 40)) as pilot:
        await pilot.press("enter")
        live = app.live
        assert live is not None and live.assessment == (mode == "assessment")
        await advance(pilot, 2)
        await escalate(pilot, "s1")  # before any evidence of the drill's fault
        await pilot.pause()
        assert app.live is live and not live.replay.ended  # a false escalation: play goes on
        text = " ".join(screen_text(app).split())
        assert ("before the evidence this drill counts" in text) == early, text
        assert ("found nothing wrong" in text) == (not early), text


@pytest.mark.parametrize("mode", ["assessment", "practice"])
async def test_an_early_false_escalation_in_a_drill_with_a_twin_says_nothing_of_the_evidence(tmp_path, mode):
    # a drill with a twin plays as a signal or a noise trial: "before the evidence" would tell which
    app = make_app(Services(trainee="ann", data_dir=tmp_path / "data", mode=mode))
    async with app.run_test(size=(160, 40)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 2)
        await escalate(pilot, "s1")
        await pilot.pause()
        text = " ".join(screen_text(app).split())
        assert "before the evidence" not in text and "found nothing wrong" in text, text
