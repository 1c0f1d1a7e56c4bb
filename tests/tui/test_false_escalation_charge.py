"""The war room's message at a false escalation of a drill whose re-plan call has no tokens to charge (a chat imported
by `warroom import chat`: no planner call in the trace, no `models.replan_usage`): it said "Charged $0.00" and not
why, where `warroom cost` says why; it now says the same words."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from import_support import refund_chat

from warroom.cli import main
from warroom.tui.room import EscalateScreen

from .conftest import advance, escalate, make_app, record_notifications


def chat_drill(folder: Path) -> Path:
    """A chat of one tool call imported by `warroom import chat`, marked up as a healthy run."""
    chat = refund_chat(folder / "chat.json")
    imported = CliRunner().invoke(main, ["import", "chat", str(chat), "--out", str(folder / "drills")])
    assert imported.exit_code == 0, imported.output
    path = folder / "drills" / "chat.yaml"
    path.write_text(path.read_text() + "all_clear: {debrief: The refund was right.}\n")
    return path


async def test_a_false_escalation_without_re_plan_tokens_says_why_it_is_charged_nothing(services, tmp_path: Path):
    app = make_app(services, chat_drill(tmp_path))
    messages = record_notifications(app)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 1)
        await escalate(pilot, "u01", "odd")
        assert not isinstance(app.screen, EscalateScreen)
        said = [m for m in messages if "Charged" in m]
        assert len(said) == 1, messages
        assert said[0].endswith(
            " Charged $0.00 (no tokens to charge: the trace has no planner call to take them from and the drill gives "
            "no models.replan_usage) and 15 s."
        ), said
