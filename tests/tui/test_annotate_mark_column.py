"""The author mode shows its marks in the trace's ⚑ column, as the war room shows a trainee's flags: each marked
event's row carries the key that marked it (o origin event, v evidence, d damage, x distractor, l deadline), kept
when the trace is scrubbed back and replayed, gone when the mark is taken back."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from locations import REPO
from textual.clock import MockClock

from warroom.cli import main
from warroom.core.author import open_for_annotation
from warroom.tui.app import AnnotateApp
from warroom.tui.author import AnnotateScreen
from warroom.tui.widgets import TraceTable

from .conftest import screen_text, type_text

EXPORT = REPO / "tests" / "fixtures" / "otel" / "legacy.jsonl"
INCIDENT = "0f8a65358731232d6dc8e7fa93622339"


def _imported(tmp_path: Path) -> Path:
    out = tmp_path / "drills"
    result = CliRunner().invoke(main, ["import", "otel", str(EXPORT), "--trace-id", INCIDENT, "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out / "otel-legacy.yaml"


async def _on(pilot, table: TraceTable, event_id: str, *keys: str) -> None:
    table.move_cursor(table.row_index(event_id))
    await pilot.pause()
    await pilot.press(*keys)


def _column(table: TraceTable) -> dict[str, str]:
    return {k: table.mark_of(k) for k in table.events if table.mark_of(k)}


async def test_each_mark_shows_in_the_flag_column(tmp_path: Path) -> None:
    app = AnnotateApp(open_for_annotation(_imported(tmp_path)), clock=MockClock())
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, AnnotateScreen)
        table = screen.query_one(TraceTable)
        await pilot.press("E")
        assert _column(table) == {}
        await _on(pilot, table, "e0009", "v")
        await _on(pilot, table, "e0014", "x")
        await type_text(pilot, "due invoices")
        await pilot.press("enter")
        await _on(pilot, table, "e0017", "d")
        for answer in ("184.5", "USD", ""):
            await type_text(pilot, answer)
            await pilot.press("enter")
        await _on(pilot, table, "e0011", "l")
        await type_text(pilot, "3")
        await pilot.press("enter")
        await _on(pilot, table, "e0003", "o")  # a planner call: the dialog offers the plan first
        await type_text(pilot, "other")
        await pilot.press("enter")
        await type_text(pilot, "the plan trusted scout")
        await pilot.press("enter")
        assert screen.draft.origin == "plan" and screen.draft.origin_event == "e0003"
        marks = {"e0003": "o", "e0009": "v", "e0011": "l", "e0014": "x", "e0017": "d"}
        assert _column(table) == marks
        lines = screen_text(app).splitlines()
        for shown, row in (("│ v e0009 ", "↳call_inv ok"), ("│ x e0014 ", "↳call_pay ok"),
                           ("│ d e0017 ", "↳call_close")):
            assert any(shown in line and row in line for line in lines), screen_text(app)

        await pilot.press("left_square_bracket", "left_square_bracket", "left_square_bracket")  # back: a replay
        assert "e0017" not in table.events
        await pilot.press("E")
        assert _column(table) == marks  # the marks belong to the events, not the rows

        await _on(pilot, table, "e0009", "v")  # taken back: the row shows nothing again
        await _on(pilot, table, "e0014", "x")
        assert _column(table) == {"e0003": "o", "e0011": "l", "e0017": "d"}
        await _on(pilot, table, "e0009", "l")  # the deadline moves: its old event loses the mark
        await type_text(pilot, "8")
        await pilot.press("enter")
        assert _column(table) == {"e0003": "o", "e0009": "l", "e0017": "d"}
