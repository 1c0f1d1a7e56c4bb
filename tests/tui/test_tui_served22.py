"""A served war room's tab closed the moment its escalation was confirmed (issue 30, campaign 22, the served room)."""

from __future__ import annotations

from textual import events

from warroom.core.model import ActionKind
from warroom.tui.logic import Services
from warroom.tui.room import EscalateScreen

from .conftest import make_app, type_text, war_room


async def test_an_escalation_confirmed_as_the_app_closes_is_recorded_without_a_traceback(tmp_path):
    """Found under `warroom serve`: a trainee pressed y to confirm an escalation and closed the tab at once. The app
    was closing (its widgets gone) when the dialog's answer came: the escalation was journalled, then the war room's
    redraw queried its status bar and raised NoMatches, a Textual traceback in the server's log, the app ending
    with it. The answer is applied (the escalation recorded) without drawing the screen; the drill is stored as
    abandoned as the served app exits (its quit: ``WarroomApp.terminate``)."""
    services = Services(trainee="ann", data_dir=tmp_path / "data", mode="practice")
    app = make_app(services)
    async with war_room(app, size=(100, 34), seconds=3) as (pilot, live):
        await pilot.press("e")
        await pilot.pause()
        assert isinstance(app.screen, EscalateScreen)
        await type_text(pilot, "s1")
        await pilot.press("enter")  # the confirmation: "Escalate step s1 to the planner?"
        await pilot.pause()
        key = events.Key("y", "y")
        key.set_sender(app)
        app.post_message(key)  # y, and the tab closes before the app has read it
        app.exit()
        await pilot.pause()
    kinds = [a.kind for a in live.replay.actions]
    assert kinds == [ActionKind.PAUSE, ActionKind.ESCALATE, ActionKind.RESUME], kinds
