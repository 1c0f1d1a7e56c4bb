"""Verification probes in the war room (issue 15 item 11), played with Pilot on the shape-11 fixture: the executor
reports s1's config edit applied (e04, 10 s) but it changed nothing; only probe p2 (verify s1, 8 s) shows it before
the damage (e10, 70 s; deadline 50 s). Probe p1 (verify s2) finds nothing."""

from __future__ import annotations

from pathlib import Path

from warroom.core.model import ActionKind
from warroom.store.results import ResultsStore
from warroom.tui.room import ProbeScreen
from warroom.tui.screens import DebriefScreen

from .conftest import advance, escalate, make_app, screen_text

SHAPE = Path(__file__).parent.parent / "fixtures" / "shapes" / "shape-11-probe.yaml"


def _stored(services):
    with ResultsStore(services.data_dir) as store:
        (row,) = store.query(trainee="tester")
        return store.get(row.session_id)


async def test_v_then_escalating_with_the_probes_result_contains(services):
    app = make_app(services, SHAPE)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 11)  # e04: s1 reported done; nothing on screen is wrong yet
        assert "v Probe" in " ".join(screen_text(app).split()) or "Probe" in screen_text(app)  # the footer
        await pilot.press("v")
        dialog = app.screen
        assert isinstance(dialog, ProbeScreen)
        text = screen_text(app)
        assert "Show the diff of config/checkout.yaml" in text and "step not started" in text  # p1's s2 not yet
        assert "no changes" not in text and "matched nothing" not in text  # what a probe reveals stays hidden
        await pilot.press("enter")  # p2, on s1 (the selected event's step)
        await pilot.pause()
        assert app.live.replay.probes.requested("p2")
        await advance(pilot, 7)
        assert not app.live.replay.is_released("p2")  # the answer takes 8 s of drill time
        await advance(pilot, 2)
        assert app.live.replay.is_released("p2") and "git diff config/checkout" in screen_text(app)
        await escalate(pilot, "s1", "the edit matched nothing", cite="p2")  # no re-plan: the debrief opens
        assert isinstance(app.screen, DebriefScreen)
        flat = " ".join(screen_text(app).split())
        for _ in range(4):
            await pilot.press("pagedown")
            flat += " " + " ".join(screen_text(app).split())
        assert "CONTAINED" in flat and "you asked for probe p2" in flat and "it found the fault" in flat
    stored = _stored(services)
    # speed: 25 x (1 - 7/37): the earliest evidence counts from 13 s (p2 askable at 5 s, plus its 8 s)
    assert (stored.outcome, stored.total) == ("contained", 95)
    kinds = [a.kind for a in stored.actions]
    assert ActionKind.PROBE in kinds and stored.actions[kinds.index(ActionKind.PROBE)].probe == "p2"


async def test_a_needless_probe_costs_points_and_a_probe_is_refused_twice(services):
    app = make_app(services, SHAPE)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 21)  # s2 started (e05 at 20 s)
        await pilot.press("v")
        await pilot.pause()
        assert isinstance(app.screen, ProbeScreen)
        assert app.screen.query_one("#probe-list").highlighted == 0  # p1, the selected event's step (s2)
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("v")
        await pilot.pause()
        assert "[asked]" in screen_text(app)
        await pilot.press("escape")
        await advance(pilot, 8)
        assert "systemctl status checkout" in screen_text(app)
        await pilot.press("q", "y")
        await pilot.pause()
    stored = _stored(services)
    assert stored.outcome == "abandoned"
    assert [a.probe for a in stored.actions if a.kind is ActionKind.PROBE] == ["p1"]


async def test_v_is_in_the_help_and_the_footer_at_80_columns_only_where_the_drill_has_probes(services):
    from warroom.tui.widgets import HelpScreen

    from .conftest import STALE

    app = make_app(services, SHAPE)
    async with app.run_test(size=(80, 50)) as pilot:
        assert "ask the executor to verify" in screen_text(app)  # the briefing's list of keys
        await pilot.press("enter")
        await advance(pilot, 1)
        footer = screen_text(app).splitlines()[-1]
        assert "v Probe" in footer and "? Help" in footer  # the keys fit in 80 columns
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen) and "ask the executor to verify a plan step" in screen_text(app)
    app = make_app(services, STALE)  # a drill without probes: no `v`, anywhere
    async with app.run_test(size=(80, 50)) as pilot:
        assert "verify" not in screen_text(app)
        await pilot.press("enter")
        await advance(pilot, 1)
        assert "Probe" not in screen_text(app)
        await pilot.press("v")
        await pilot.pause()
        assert not isinstance(app.screen, ProbeScreen)
        await pilot.press("question_mark")
        assert "verify" not in screen_text(app)


def test_both_modes_offer_v():
    from warroom.tui.logic import ASSESSMENT, PRACTICE, hidden_actions

    assert "probe" not in hidden_actions(PRACTICE) and "probe" not in hidden_actions(ASSESSMENT)
