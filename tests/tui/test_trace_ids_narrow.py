"""Author mode at 80x24 (issue 35's walk-through): an imported drill's long event ids share their start
(``call_lookup1``, ``call_user1``, ``call_refund1``), so the id column shows their end, the part that tells them
apart (``…lookup1``), not three ``call_lo…``."""

from __future__ import annotations

from warroom.tui.widgets._tracetable import id_shown

from .conftest import author_mode, screen_text
from .test_annotate import imported


def test_a_long_id_shows_its_end():
    assert id_shown("e06") == "e06" and id_shown("call_use") == "call_use"
    assert id_shown("call_lookup1") == "…lookup1" and id_shown("call_user1") == "…l_user1"
    assert id_shown("a\x1bb_very_long") == "…ry_long"  # literal, control characters escaped before cutting


async def test_imported_ids_can_be_told_apart_in_author_mode_at_80x24(tmp_path):
    path = imported(tmp_path, "chat", "chat/refund.json", "chat-refund.yaml")
    async with author_mode(path, size=(80, 24), whole_trace=True) as (_app, pilot, _screen):
        await pilot.pause()
        text = screen_text(pilot.app)
        for shown in ("…lookup1", "…l_user1", "…refund1"):
            assert shown in text, text
        assert "call_lo…" not in text


async def test_the_trace_summary_keeps_a_readable_width_in_author_mode_at_80x24(tmp_path):
    from warroom.tui.widgets import TraceTable

    path = imported(tmp_path, "chat", "chat/refund.json", "chat-refund.yaml")
    async with author_mode(path, size=(80, 24), whole_trace=True) as (_app, pilot, screen):
        await pilot.pause()
        panel, trace = screen.query_one("#key-panel"), screen.query_one(TraceTable)
        assert panel.outer_size.width == 21 and trace.outer_size.width == 80 - 21  # the key gives way, as the plan does
        text = screen_text(pilot.app)
        row = next(line for line in text.splitlines() if "…lookup1" in line)
        summary = row.split("tool call", 1)[1].strip(" │")
        assert len(summary) >= 15, row  # the war room's at 80 columns; it was 9 ("billing_g…")
