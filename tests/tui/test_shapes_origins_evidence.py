"""Issue 15 items 9 and 10 played with Pilot: the shape drills in tests/fixtures/shapes/ (a fault in the plan, in the
set-up, evidence by comparison, by absence and at a field path), each escalated to containment from the war room
at 80x24, the dialog offering "the plan" and "set-up" and giving nothing away, and the debrief showing the origin
and the evidence items (a field path highlighted)."""

from __future__ import annotations

import re
from pathlib import Path

from warroom.store.results import ResultsStore
from warroom.tui.room import EscalateScreen
from warroom.tui.screens import DebriefScreen

from .conftest import advance, make_app, screen_text, type_text

SHAPES = Path(__file__).parent.parent / "fixtures" / "shapes"


def _stored(services):
    with ResultsStore(services.data_dir) as store:
        (row,) = store.query(trainee="tester")
        return store.get(row.session_id)


async def _debrief_text(pilot) -> str:
    if not isinstance(pilot.app.screen, DebriefScreen):  # no re-plan events: the debrief opens at once
        await advance(pilot, 3)
    await pilot.pause()
    assert isinstance(pilot.app.screen, DebriefScreen)
    text = screen_text(pilot.app)
    for _ in range(4):
        await pilot.press("pagedown")
        text += "\n" + screen_text(pilot.app)
    # the borders and the scrollbar's thumb (drawn beside a wrapped line) are not the debrief's text
    return " ".join(re.sub(r"[│▁▂▃▄▅▆▇█]+", " ", text).split())


async def _escalate(pilot, target: str, cites: tuple[str, ...]) -> EscalateScreen:
    """Open the dialog, choose ``target`` by typing it, tab twice to the evidence list and make the citations
    exactly ``cites`` (untick what the dialog pre-cited, tick the rest), then enter (the question is asked)."""
    await pilot.press("e")
    dialog = pilot.app.screen
    assert isinstance(dialog, EscalateScreen)
    await type_text(pilot, target)
    await pilot.press("tab", "tab")
    for event_id in [c for c in dialog.cites if c not in cites] + [c for c in cites if c not in dialog.cites]:
        await type_text(pilot, event_id)
        await pilot.press("space")
    assert set(dialog.cites) == set(cites)
    await pilot.press("enter")
    assert dialog.asking
    return dialog


async def test_a_fault_in_the_plan_is_contained_by_escalating_the_plan(services):
    app = make_app(services, SHAPES / "shape-09-planner-origin.yaml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 15)  # e05, the production set built with no exclusion, is out
        await pilot.press("e")
        text = screen_text(app)
        assert "the plan" in text and "set-up" in text  # offered beside the steps, at 80 columns
        assert "s3 Send the production" in text
        assert "e01" not in text.split("cite the events")[0]  # the origin event is not named in the step list
        await pilot.press("escape")
        live = app.live
        dialog = await _escalate(pilot, "plan", ("e05",))
        assert dialog.question.startswith("Escalate the plan to the planner?")
        await pilot.press("y")
        await pilot.pause()
        assert live.replay.contained
        flat = await _debrief_text(pilot)
        assert "CONTAINED" in flat and "you escalated the plan (contained)" in flat
        assert "fault the plan (at e01) · constraint_dropped" in flat
        assert "fault origin: the plan (e01)" in flat
    stored = _stored(services)
    assert stored.outcome == "contained" and stored.total >= 90  # 1 s after the evidence: a point of speed lost
    assert stored.actions[-1].step == "@plan"  # the journal records the target


async def test_a_fault_in_the_set_up_is_contained_by_escalating_set_up(services):
    app = make_app(services, SHAPES / "shape-09-setup-origin.yaml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 3)  # e02, the failed tool discovery, is out
        live = app.live
        dialog = await _escalate(pilot, "setup", ("e02",))
        assert dialog.question.startswith("Escalate set-up to the planner?")
        await pilot.press("y")
        await pilot.pause()
        assert live.replay.contained
        flat = await _debrief_text(pilot)
        assert "you escalated set-up (contained)" in flat and "fault set-up (at e02)" in flat
    assert _stored(services).outcome == "contained"


async def test_escalating_a_step_in_a_set_up_drill_is_the_wrong_step(services):
    app = make_app(services, SHAPES / "shape-09-setup-origin.yaml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 3)
        live = app.live
        await _escalate(pilot, "s1", ("e02",))
        await pilot.press("y")
        await pilot.pause()
        assert not live.replay.contained and live.replay.false_escalations == 1


async def test_a_comparison_counts_only_with_both_events_cited(services):
    app = make_app(services, SHAPES / "shape-10-comparison.yaml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 17)  # e07 (200 exported) is out; e03 (240 approved) came at 5 s
        live = app.live
        await _escalate(pilot, "s2", ("e03", "e07"))
        await pilot.press("y")
        await pilot.pause()
        assert live.replay.contained
        flat = await _debrief_text(pilot)
        assert "cited e03 (evidence), e07 (evidence)" in flat or "cited e07 (evidence), e03 (evidence)" in flat
        assert "evidence e03 + e07 (compared; e07's 200 exported contradicts" in flat
        assert "first evidence: e03 + e07" in flat  # detectable once both are out
    assert _stored(services).outcome == "contained"


async def test_an_absence_at_a_checkpoint_is_cited_by_its_checkpoint_event(services):
    app = make_app(services, SHAPES / "shape-10-absence.yaml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 18)  # e08, the payout call with no approval before it
        live = app.live
        await _escalate(pilot, "s3", ("e08",))
        await pilot.press("y")
        await pilot.pause()
        assert live.replay.contained
        flat = await _debrief_text(pilot)
        assert "evidence e08 (absent: no approval granted for s3" in flat
    assert _stored(services).outcome == "contained"


async def test_a_field_path_is_found_in_the_inspector_and_highlighted_in_the_debrief(services):
    app = make_app(services, SHAPES / "shape-10-field-path.yaml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 7)  # e03, the first page, is the newest event (e04 comes at 12 s)
        live = app.live
        await pilot.press("space")  # pause, to keep e03 selected
        inspector = live.query_one("#inspector")
        await pilot.press("colon")
        await type_text(pilot, "data.next_cursor")
        await pilot.press("enter")
        await pilot.pause()
        lines = inspector.text.splitlines()
        at = next(i for i, line in enumerate(lines) if line.strip().startswith("next_cursor: c_8f2a"))
        top = round(inspector.scroll_y)
        height = inspector.scrollable_content_region.height
        assert top > 0 and top <= at < top + height  # scrolled so that the field is on screen
        assert "next_cursor: c_8f2a" in screen_text(app)
        await pilot.press("colon")
        await type_text(pilot, "data.next_page")
        await pilot.press("enter")
        await pilot.pause()
        assert round(inspector.scroll_y) == top  # a path that is not there moves nothing
        await _escalate(pilot, "s1", ("e03",))
        await pilot.press("y")
        await pilot.pause()
        assert live.replay.contained
        flat = await _debrief_text(pilot)
        assert 'evidence e03 data.next_cursor = "c_8f2a"; A next_cursor means' in flat
    assert _stored(services).outcome == "contained"
