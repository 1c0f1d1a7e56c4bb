"""Escalations cite the events that show the fault (issue 14 item 1), played with Pilot on the bundled
duplicate-charge-refunds drill: its evidence is e06 (12 s, step s1), its distractor e09 (23 s, an empty refunds list
in s2), the fault is in s1. The dialog cites only the event the trainee chose to begin with (moved onto or
inspected; following the newest event, none), never the flagged ones (issue 31); the trainee adds and removes
citations with the keyboard; the stored outcome follows the answer key."""

from __future__ import annotations

from warroom.core.model import ActionKind
from warroom.core.scoring import SCORING_VERSION
from warroom.store.results import ResultsStore
from warroom.tui.room import EscalateScreen
from warroom.tui.screens import DebriefScreen

from .conftest import advance, make_app, screen_text, type_text


def _stored(services):
    with ResultsStore(services.data_dir) as store:
        (row,) = store.query(trainee="tester")
        return store.get(row.session_id)


async def _debrief_text(pilot) -> str:
    await advance(pilot, 5)  # the re-plan plays, then the debrief opens
    assert isinstance(pilot.app.screen, DebriefScreen)
    text = screen_text(pilot.app)
    for _ in range(3):
        await pilot.press("pagedown")
        text += "\n" + screen_text(pilot.app)
    return " ".join(text.replace("│", " ").split())


async def test_escalating_s1_citing_the_evidence_contains(services):
    app = make_app(services)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 12)  # e06, the evidence, is the newest event: the trace follows it
        await pilot.press("e")
        dialog = app.screen
        assert isinstance(dialog, EscalateScreen)
        assert dialog.cites == () and dialog.step is None  # following: the trainee chose nothing
        assert "[ ] e06" in screen_text(app) and "citing no event" in screen_text(app)
        await pilot.press("escape")
        await pilot.press("enter")  # inspect e06: the trainee reads it (and the trace stops following)
        await pilot.press("e")
        dialog = app.screen
        assert dialog.cites == ("e06",) and dialog.step == "s1"  # the event the trainee chose, and its step
        text = screen_text(app)
        assert "[x] e06" in text and "[ ] e05" in text and "citing: e06" in text
        assert "evidence" not in text.lower() and "distractor" not in text  # the dialog gives nothing away
        await type_text(pilot, "s1")
        await pilot.press("enter")
        assert "citing e06 · no reason given" in dialog.question
        await pilot.press("y")
        await pilot.pause()
        flat = await _debrief_text(pilot)
        assert "CONTAINED" in flat and "cited e06 (evidence)" in flat
    stored = _stored(services)
    assert (stored.outcome, stored.total, stored.scorecard["response"]) == ("contained", 100, "hit")
    # practice: each dialog paused the drill (the cancelled one resumed it); the escalation resumed it (the re-plan
    # plays)
    assert [a.kind for a in stored.actions] == [
        ActionKind.PAUSE, ActionKind.RESUME, ActionKind.INSPECT, ActionKind.PAUSE, ActionKind.ESCALATE,
        ActionKind.RESUME,
    ]
    assert stored.actions[2].event == "e06" and stored.actions[4].cites == ("e06",)


async def test_escalating_s1_citing_only_the_distractor_is_the_right_step_unsupported(services):
    app = make_app(services)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 24)  # e09, the distractor (an empty refunds list), is the newest event
        await pilot.press("k", "j")  # the trainee moves onto e09: chosen, the trace no longer follows
        await advance(pilot, 1)
        assert app.live.query_one("#trace-table").selected_key == "e09"
        await pilot.press("e")
        assert app.screen.cites == ("e09",)
        await type_text(pilot, "s1")
        await pilot.press("enter", "y")
        await pilot.pause()
        assert app.live.replay.contained  # the cascade stopped: the planner re-plans s1
        flat = await _debrief_text(pilot)
        assert "RIGHT STEP UNSUPPORTED" in flat and "10/100" in flat
        assert "you escalated step s1 (right step, unsupported), no reason given; cited e09 (a distractor)" in flat
        assert "but you cited e09 (a distractor): nothing that shows the fault. The events that do: e06." in flat
    stored = _stored(services)
    assert (stored.outcome, stored.total) == ("right_step_unsupported", 10)
    assert [a.kind for a in stored.actions] == [ActionKind.PAUSE, ActionKind.ESCALATE, ActionKind.RESUME]
    assert stored.actions[1].cites == ("e09",)
    assert stored.scorecard["scoring_version"] == SCORING_VERSION and stored.time_to_detect is None
    assert stored.scorecard["response"] == "localisation_error"


async def test_citations_are_added_and_removed_with_the_keyboard_and_flags_are_never_cited_for_the_trainee(services):
    app = make_app(services)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 12)
        await pilot.press("f", "enter")  # flag e06, the newest event, with no note (flagging is no choice: it follows)
        await advance(pilot, 12)  # 24 s: e09 is the newest event, the trace still follows
        await pilot.press("e")
        dialog = app.screen
        assert dialog.cites == () and dialog.step is None  # neither the newest event nor the flag is cited
        await pilot.press("tab", "tab")  # the reason box, then the evidence list (on the newest event, e09)
        assert dialog.focused.id == "escalate-cites" and dialog.zone == "cites"
        await pilot.press("space")  # tick e09
        assert dialog.cites == ("e09",) and "citing: e09" in screen_text(app)
        await pilot.press("space")  # untick it
        assert dialog.cites == () and "citing no event" in screen_text(app)
        await type_text(pilot, "e06")
        await pilot.press("space")  # tick e06, the flagged event
        await type_text(pilot, "e09")
        await pilot.press("space")  # and the distractor: cited last
        assert dialog.cites == ("e06", "e09")
        await type_text(pilot, "e05")
        await pilot.press("space")  # tick e05 (a tool call): one of three is evidence, not specific
        assert dialog.cites == ("e06", "e09", "e05") and "[x] e05" in screen_text(app)
        await pilot.press("space")  # untick it again
        await pilot.press("shift+tab", "shift+tab")  # back to the steps: typing names a step again
        assert dialog.zone == "steps"
        await type_text(pilot, "s1")
        await pilot.press("enter")
        assert "citing e06, e09" in dialog.question
        await pilot.press("y")
        await pilot.pause()
        assert app.live.replay.contained
        await advance(pilot, 5)  # the re-plan plays; the session is stored as the debrief opens
    stored = _stored(services)
    assert stored.outcome == "contained" and [a.kind for a in stored.actions] == [
        ActionKind.PAUSE, ActionKind.FLAG, ActionKind.RESUME, ActionKind.PAUSE, ActionKind.ESCALATE, ActionKind.RESUME,
    ]
    assert stored.actions[4].cites == ("e06", "e09")  # one of two is evidence: specific (scoring rules 4)
    assert stored.scorecard["response"] == "hit"


async def test_citing_everything_in_sight_is_the_right_step_unsupported(services):
    app = make_app(services)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 24)  # e01-e09 are out
        await pilot.press("e", "tab", "tab")
        for event in ("e01", "e02", "e05", "e06", "e07"):
            await type_text(pilot, event)
            await pilot.press("space")
        await pilot.press("shift+tab", "shift+tab")
        await type_text(pilot, "s1")
        await pilot.press("enter", "y")
        await pilot.pause()
        assert app.live.replay.contained  # the planner was given the right step: the cascade stops
        await advance(pilot, 5)
    stored = _stored(services)
    assert stored.actions[1].cites == ("e01", "e02", "e05", "e06", "e07")
    assert (stored.outcome, stored.total, stored.scorecard["response"]) == (
        "right_step_unsupported", 10, "localisation_error"
    )


async def test_citing_nothing_is_possible_and_says_so(services):
    app = make_app(services)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 12)
        await pilot.press("enter", "e")  # inspect e06, then escalate: e06 is ticked
        dialog = app.screen
        assert dialog.cites == ("e06",)
        await pilot.press("tab", "tab", "space")  # untick the chosen event
        assert dialog.cites == () and "citing no event" in screen_text(app)
        await pilot.press("shift+tab", "shift+tab")
        await type_text(pilot, "s1")
        await pilot.press("enter")
        assert "citing no event" in dialog.question
        await pilot.press("y")
        await pilot.pause()
        await advance(pilot, 5)
    stored = _stored(services)
    assert stored.outcome == "right_step_unsupported"
    assert [a.kind for a in stored.actions] == [
        ActionKind.INSPECT, ActionKind.PAUSE, ActionKind.ESCALATE, ActionKind.RESUME
    ]
    assert stored.actions[2].cites == ()


async def test_the_evidence_list_pages_and_a_click_highlights_an_event(services):
    app = make_app(services)
    async with app.run_test(size=(100, 24)) as pilot:  # 24 rows: a page of the list is shorter than the 9 events
        await pilot.press("enter")
        await advance(pilot, 24)  # e01-e09 released; e09 selected
        await pilot.press("k", "j", "e")  # the trainee moves onto e09: it is cited to begin with
        dialog = app.screen
        cites = dialog.query_one("#escalate-cites")
        await pilot.press("tab", "tab", "home")
        assert cites.highlighted_id == "e01"
        page = cites.scrollable_content_region.height
        await pilot.press("pagedown")
        assert cites.highlighted == page and cites.highlighted_id == f"e{page + 1:02d}"
        await pilot.press("pageup", "pageup")  # stops at the first event
        assert cites.highlighted_id == "e01"
        await pilot.click(cites, offset=(4, 2))  # the border, then the second row shown: e02
        assert cites.highlighted_id == "e02"
        await pilot.press("space")
        assert dialog.cites == ("e09", "e02") and "[x] e02" in screen_text(app)



async def test_a_taller_terminal_shows_every_step_and_more_events_to_cite(services):
    """At 24 rows the dialog shows 2 events to cite and scrolls its 7 choices (it must fit); at 40 rows it showed
    the same, with 16 rows to spare. The rows beyond 24 now go to the two lists; the dialog still fits."""
    for size, events, steps_scroll in (((80, 24), 2, True), ((120, 40), 9, False)):
        app = make_app(services)
        async with app.run_test(size=size) as pilot:
            await pilot.press("enter")
            await advance(pilot, 24)  # e01-e09 released; 5 steps, the plan and set-up to choose from
            await pilot.press("e")
            await pilot.pause()
            dialog = app.screen
            assert isinstance(dialog, EscalateScreen)
            text = screen_text(app)
            assert len([ln for ln in text.splitlines() if "] e0" in ln]) == events, text
            assert (dialog.query_one("#escalate-steps").max_scroll_y > 0) is steps_scroll
            box = dialog.query_one("#escalate-box").region
            assert box.y >= 0 and box.bottom <= size[1]
            await pilot.press("escape")
        app.close_open_session()  # as the app's launcher does: the next app may start the drill again
