"""Shape 14 of issue 15 (a large drill) played to containment by key presses.

The drill is generated in tmp_path (:func:`shape_support.large_drill_text`, as tests/unit/test_shape_drills.py
loads, validates and checks it): shape-12's clinic drill with about 43,000 debug audit lines (9 MiB of YAML, over
the old 8 MiB file limit) all released at 6 s into step s1, before the evidence e05 (11 s). The trainee opens it,
lets the drill clock run (moved by the mock clock, :func:`~tests.tui.conftest.advance`) to halfway between the
evidence and the deadline (34 s), goes to e05 from the newest event (end, then up), flags it, escalates s2 citing
it, and reads the debrief. A war room over such a trace must start and play as a small one does: this test runs in
a few seconds of CPU (the escalation dialog alone took over 20 s when its evidence list laid out every released
event; see warroom/tui/room/_citelist.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from shape_support import SHAPES, large_drill_text

from warroom.core.load import load_drill
from warroom.core.scoring import score
from warroom.store.results import ResultsStore
from warroom.tui.room import EscalateScreen, WarRoomScreen
from warroom.tui.room import _citelist as citelist
from warroom.tui.screens import DebriefScreen
from warroom.tui.widgets import TraceTable

from .conftest import advance, escalate, make_app, screen_text

#: 80 columns (the TUI's narrowest supported width), tall enough for the inspector to show e05 whole.
SIZE = (80, 40)
#: Halfway between the evidence e05 (11 s) and the deadline (e08 at 30 s, + 4 s).
ESCALATE_AT = (11 + 34) / 2


def _flat(app) -> str:
    return " ".join(screen_text(app).replace("│", " ").split())


async def test_a_large_drill_plays_to_containment(services, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    text, n = large_drill_text(9 * 1024 * 1024)
    path = tmp_path / "shape-14-large.yaml"
    path.write_text(text, encoding="utf-8")
    assert path.stat().st_size > 8 * 1024 * 1024
    app = make_app(services, path)
    async with app.run_test(size=SIZE) as pilot:
        assert "Clinic slot release" in _flat(app)  # the briefing
        await pilot.press("enter")
        live = app.screen
        assert isinstance(live, WarRoomScreen)
        await advance(pilot, ESCALATE_AT)
        assert not live.replay.contained and not live.replay.ended
        table = live.query_one(TraceTable)
        # e01-e03, the audit lines (6 s), e04-e07: e08 (30 s) is still to come
        assert table.row_count == n + 7 and table.keys[3] == "a000000" and table.keys[-1] == "e07"
        assert f"a{n - 1:06d}" in table.events and len(live.replay.released) == n + 7
        await pilot.press("end", *["up"] * (table.row_count - 1 - table.row_index("e05")))
        assert table.selected_key == "e05"
        shown = _flat(app)
        assert "replica_lag_s" in shown and "86400" in shown  # the inspector shows the evidence
        await pilot.press("f", "enter")  # flag it, no note
        assert "e05" in live.replay.flagged

        built: list[str] = []  # the evidence list's rows built (each from its event, when drawn)
        row = citelist.cite_row
        monkeypatch.setattr(citelist, "cite_row", lambda ev, *rest: built.append(ev.id) or row(ev, *rest))
        await pilot.press("e")  # the dialog lists every released event; e05, selected and flagged, is cited
        dialog = app.screen
        assert isinstance(dialog, EscalateScreen) and dialog.cites == ("e05",)
        shown = _flat(app)
        assert "[x] e05" in shown and "citing: e05" in shown
        await pilot.press("tab", "tab", "home")  # the evidence list, at its first event
        assert "[ ] e01" in _flat(app)
        cites = dialog.query_one(citelist.CiteList)
        await pilot.press("pagedown", "pagedown")  # two pages of the rows shown at once
        page = cites.scrollable_content_region.height
        assert page >= 1 and cites.highlighted == 2 * page and cites.highlighted_id == table.keys[2 * page]
        assert f"[ ] {table.keys[2 * page]}" in _flat(app)
        await pilot.press("end")
        assert "[ ] e07" in _flat(app)
        assert 0 < len(set(built)) < 50, len(set(built))  # the rows drawn, not one per released event
        await pilot.press("escape")
        assert app.screen is live

        await escalate(pilot, "s2", "evidence", cite="e05")
        assert live.replay.contained and not live.replay.contained_late, live.replay.actions
        for _ in range(10):  # the drill has no re-plan events: the debrief opens at once
            if app.live is None:
                break
            await advance(pilot, 1, step=1)
        assert isinstance(app.screen, DebriefScreen), app.screen
        assert app.screen.scorecard.outcome.value == "contained"
        debrief = _flat(app)
        for _ in range(3):
            await pilot.press("pagedown")
            debrief += " " + _flat(app)
        assert "CONTAINED" in debrief and "contained late" not in debrief.lower()
        assert "before the deadline at 34 s" in debrief

    with ResultsStore(services.data_dir) as store:
        (row,) = store.query(trainee="tester")
        stored = store.get(row.session_id)
    assert (stored.drill_id, stored.outcome, stored.damage) == ("shape-14-large", "contained", 0)
    assert stored.time_to_detect == ESCALATE_AT - 11
    escalation = stored.actions[-1]
    assert (escalation.kind.value, escalation.step, escalation.cites) == ("escalate", "s2", ("e05",))
    # The audit lines have no usage and do no damage: the same actions score the same on shape-12's small drill.
    small = score(load_drill(SHAPES / "shape-12-event-times.yaml"), stored.actions)
    assert (stored.outcome, stored.total) == (small.outcome.value, small.total)
    assert stored.total > 0
