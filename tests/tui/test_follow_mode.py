"""Follow mode decides nothing (issue 35 item 1, issue 31): reading an event (moving onto it with the arrows or
j/k, inspecting it) leaves follow mode; keys then act on the event the trainee chose, never on one that just
arrived; the escalation dialog ticks only that event, never the newest event follow mode moved onto, nor the flags;
the journal's escalate line cites only what the trainee ticked. Played with Pilot on the bundled
duplicate-charge-refunds drill: evidence e06 at 12 s (s1), e07 at 16 s (s1's report), e08 at 20 s, distractor e09
at 23 s (s2)."""

from __future__ import annotations

import json

from warroom.core.model import ActionKind
from warroom.store.results import ResultsStore
from warroom.tui.logic import Services
from warroom.tui.room import EscalateScreen
from warroom.tui.widgets import Inspector, TraceTable

from .conftest import advance, make_app, screen_text, type_text


def _journal_lines(services: Services) -> list[dict]:
    (path,) = (services.data_dir / "journals" / "done").glob("*.jsonl")
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


async def test_moving_onto_an_event_leaves_follow_mode_and_the_cursor_stays_on_it(services):
    app = make_app(services)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 12)
        table = app.live.query_one(TraceTable)
        assert table.following and table.selected_key == "e06"  # the newest event
        await pilot.press("k")  # the trainee moves onto e05 to read it
        assert not table.following and table.selected_key == "e05"
        await advance(pilot, 12)  # e07, e08 and e09 arrive: the cursor stays where the trainee put it
        assert table.selected_key == "e05" and table.unseen == 3
        assert "3 new" in screen_text(app)
        await pilot.press("j")  # down onto e06: still the trainee's choice (no longer following at the bottom)
        assert table.selected_key == "e06" and not table.following
        assert table.unseen == 3 and "3 new" in screen_text(app)  # e07 to e09, all below the cursor
        await pilot.press("j", "j")  # onto e08: e07 and e08 read, e09 below
        assert table.unseen == 1 and "1 new" in screen_text(app)
        await pilot.press("k", "k")  # back up: what was read stays read
        assert table.unseen == 1
        await pilot.press("e")
        dialog = app.screen
        assert isinstance(dialog, EscalateScreen)
        assert dialog.step == "s1" and dialog.cites == ("e06",)  # the event the trainee is on
        assert "[x] e06  00:12" in screen_text(app)  # its time as the trace shows it
        await pilot.press("escape")
        await pilot.press("G")  # follows the newest event again
        assert table.following and table.selected_key == "e09" and table.unseen == 0
        await pilot.press("e")
        assert app.screen.step is None and app.screen.cites == ()  # following: the trainee chose nothing


async def test_enter_opens_the_event_the_trainee_is_on_not_the_one_that_arrived_since(services):
    app = make_app(services)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 12)
        live = app.live
        table = live.query_one(TraceTable)
        await pilot.press("enter")  # inspect e06, the newest event: reading it leaves follow mode
        assert isinstance(app.focused, Inspector) and not table.following
        await advance(pilot, 12)  # e07-e09 arrive while the trainee reads e06
        assert table.selected_key == "e06"
        assert "e06" in live.query_one(Inspector).text.splitlines()[0]  # still the event being read
        await pilot.press("shift+tab", "enter")  # back to the trace, enter again: e06 again, never e09
        inspected = [a.event for a in live.replay.actions if a.kind is ActionKind.INSPECT]
        assert inspected == ["e06", "e06"]


async def test_in_assessment_an_event_arriving_while_the_trainee_reads_is_never_cited(tmp_path):
    """The issue's case: in assessment the clock never stops; the trainee reads the evidence while a distractor
    arrives, and escalates: only the evidence is cited, as the journal's escalate line records."""
    services = Services(trainee="ann", data_dir=tmp_path / "data", mode="assessment")
    app = make_app(services)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 13)
        live = app.live
        await pilot.press("k", "j")  # onto e06, the evidence (e05 then back down): chosen
        await advance(pilot, 11)  # 24 s: e07-e09 arrive while the trainee reads; e09 is a distractor
        assert live.query_one(TraceTable).selected_key == "e06"
        await pilot.press("e")
        assert app.screen.cites == ("e06",)
        await type_text(pilot, "s1")
        await pilot.press("enter", "y")
        await pilot.pause()
        assert live.replay.contained
        await advance(pilot, 5)
    (escalate,) = [line for line in _journal_lines(services) if line.get("action", {}).get("kind") == "escalate"]
    assert escalate["action"]["cites"] == ["e06"]
    with ResultsStore(services.data_dir) as store:
        (row,) = store.query()
        stored = store.get(row.session_id)
    assert (stored.outcome, stored.scorecard["response"]) == ("contained", "hit")


async def test_flagging_every_event_and_confirming_the_dialog_escalates_nothing(services):
    """The issue's flag-and-confirm trainee: it flags every event as it arrives and confirms what the dialog offers.
    Following the newest event, the dialog offers no step and cites nothing (flags are notes): enter only says to
    choose a step, and the journal holds flags and no escalation."""
    app = make_app(services)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter")
        live = app.live
        for t in (4, 7, 12, 16):  # e02, e05, e06, e07 as each arrives
            await advance(pilot, t - live.replay.now)
            await pilot.press("f", "enter")  # flag the newest event, no note
            await pilot.press("e")
            dialog = app.screen
            assert isinstance(dialog, EscalateScreen) and dialog.cites == () and dialog.step is None
            await pilot.press("enter")  # "choose the plan step at fault first": no question is asked
            assert not dialog.asking
            await pilot.press("y", "escape")
        assert list(live.replay.flagged) == ["e02", "e05", "e06", "e07"]
        assert not live.replay.escalations
        await pilot.press("q", "y")
    kinds = [line["action"]["kind"] for line in _journal_lines(services) if line.get("type") == "action"]
    assert "escalate" not in kinds and kinds.count("flag") == 4
