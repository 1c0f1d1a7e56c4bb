"""Issue 34, item 2 played with Pilot: a trainee goes to a field of an event with ``:``, escalates and cites that
field (tests/fixtures/round2/distractor-field.yaml): the harmless field is judged a distractor (right step,
unsupported), the evidence field contains. Going to a field ticks nothing (issue 35): the dialog opens citing the
event chosen, whole, and its row offers the field, which space ticks once the event is unticked."""

from __future__ import annotations

from pathlib import Path

import pytest

from warroom.tui.room import EscalateScreen
from warroom.tui.widgets import TraceTable

from .conftest import advance, make_app, screen_text, type_text
from .test_shapes_origins_evidence import _debrief_text, _stored

ROUND2 = Path(__file__).parent.parent / "fixtures" / "round2"


@pytest.mark.parametrize(
    ("field", "outcome", "words"),
    [
        ("currency", "contained", "e05:currency (evidence)"),
        ("stale_after", "right_step_unsupported", "e05:stale_after (a distractor)"),
    ],
)
async def test_an_escalation_cites_the_field_the_trainee_went_to(services, field, outcome, words):
    app = make_app(services, ROUND2 / "distractor-field.yaml")
    async with app.run_test(size=(100, 34)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 14)  # e05 (10 s) is out, the deadline is at 30 s
        table = app.screen.query_one(TraceTable)
        await pilot.press("home", *["down"] * table.row_index("e05"))
        assert table.selected_key == "e05"
        await pilot.press("colon")  # go to the field (issue 35's key; `/` finds text)
        await type_text(pilot, field)
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("e")
        dialog = app.screen
        assert isinstance(dialog, EscalateScreen) and dialog.cites == ("e05",)  # going to a field cites nothing
        await pilot.press("tab", "tab", "space")  # the evidence list, on e05: untick the event
        assert dialog.cites == ()
        assert f"[ ] e05:{field}" in screen_text(app)  # the row offers the field gone to
        await pilot.press("space")
        assert dialog.cites == (f"e05:{field}",)
        await pilot.press("shift+tab", "shift+tab")
        await type_text(pilot, "s1")
        await pilot.press("enter", "y")
        await pilot.pause()
        flat = await _debrief_text(pilot)
        assert words in flat
        assert "e05:stale_after" in flat.split("Distractors (odd but harmless)")[1]  # the distractor's field
    stored = _stored(services)
    assert stored.outcome == outcome and stored.actions[-1].cites == (f"e05:{field}",)


async def test_going_to_a_field_ticks_nothing_the_trainee_did_not_cite(services):
    """Reading the distractor's field with ``:`` then pressing ``e`` opens the dialog citing the chosen event whole
    (evidence), not the distractor field read: escalating at once contains."""
    app = make_app(services, ROUND2 / "distractor-field.yaml")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 14)
        table = app.screen.query_one(TraceTable)
        await pilot.press("home", *["down"] * table.row_index("e05"))
        await pilot.press("colon")
        await type_text(pilot, "stale_after")
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("e")
        dialog = app.screen
        assert isinstance(dialog, EscalateScreen) and dialog.cites == ("e05",)
        assert "citing: e05" in screen_text(app) and "[x] e05:" not in screen_text(app)
        await type_text(pilot, "s1")
        await pilot.press("enter", "y")
        await pilot.pause()
    stored = _stored(services)
    assert stored.outcome == "contained" and stored.actions[-1].cites == ("e05",)
