"""The escalation dialog: moved like the trace, no step chosen for the trainee, type-ahead, a confirmation, and every
key typed right after `e` reaching it (issue 11 item 7)."""

from __future__ import annotations

from pathlib import Path

from textual import events

from warroom.core.model import ActionKind
from warroom.tui.room import EscalateScreen, match_step

from .conftest import advance, make_app, record_notifications, screen_text, type_text


async def _war_room(pilot):
    await pilot.press("enter")  # leave the briefing
    await advance(pilot, 12)  # e04 (step s1) is the newest event
    return pilot.app.live


async def test_opens_on_no_step_and_moves_with_the_trace_keys_stopping_at_the_ends(services):
    app = make_app(services)
    async with app.run_test(size=(80, 24)) as pilot:
        live = await _war_room(pilot)
        await pilot.press("e")
        screen = app.screen
        assert isinstance(screen, EscalateScreen)
        assert screen.step is None  # following the newest event: no step chosen for the trainee
        assert screen.focused.id == "escalate-steps"
        await pilot.press("j")
        assert screen.step == "s1"
        await pilot.press("k", "k", "up")
        assert screen.step == "s1"  # no wrap-around to the last step
        last = "@setup"  # a format-2 drill: "the plan" and "set-up" come after the plan steps
        await pilot.press(*["j"] * (len(live.drill.plan) + 5))
        assert screen.step == last  # no wrap-around to the first
        await pilot.press("home")
        assert screen.step == "s1"
        await pilot.press("end")
        assert screen.step == last
        assert screen.query_one("#escalate-reason").value == ""  # j and k were moves, not reason text


async def test_e_k_enter_asks_before_escalating_and_n_goes_back(services):
    app = make_app(services)
    async with app.run_test(size=(80, 24)) as pilot:
        live = await _war_room(pilot)
        before = len(live.replay.actions)
        await pilot.press("e", "k", "k", "k", "enter")  # up from no step: set-up, the plan, then the last step
        screen = app.screen
        assert isinstance(screen, EscalateScreen) and screen.asking
        last = live.drill.plan[-1]
        assert f"Escalate step {last.id} to the planner?" in screen.question
        assert "no reason given" in screen.question
        assert f"Escalate step {last.id}" in screen_text(app)
        await pilot.press("enter", "j", "k")  # neither sends nor changes the step the question named
        assert screen.asking and screen.step == last.id
        await pilot.press("n")
        assert app.screen is screen and not screen.asking
        await pilot.press("enter", "escape")  # asked again; escape goes back to the dialog, not out of it
        assert app.screen is screen and not screen.asking
        # nothing sent: the only action is the dialog's pause (practice), and the drill stays paused under it
        assert [a.kind for a in live.replay.actions[before:]] == [ActionKind.PAUSE] and live.paused


async def test_typing_a_step_id_jumps_to_it_and_the_reason_needs_tab(services):
    app = make_app(services)
    async with app.run_test(size=(80, 24)) as pilot:
        live = await _war_room(pilot)
        await pilot.press("e")
        screen = app.screen
        await type_text(pilot, "s3")
        assert screen.step == "s3"
        await pilot.press("tab")
        assert screen.focused.id == "escalate-reason"
        await type_text(pilot, "jk rows")
        assert screen.step == "s3"
        await pilot.press("enter")
        assert "reason: jk rows" in screen.question
        await pilot.press("y")
        await pilot.pause()
        assert app.screen is live
        # the dialog's pause, the (false) escalation, and the resume it brings: the trace runs on
        assert [a.kind for a in live.replay.actions[-3:]] == [ActionKind.PAUSE, ActionKind.ESCALATE, ActionKind.RESUME]
        last = live.replay.actions[-2]
        assert (last.kind, last.step, last.note) == (ActionKind.ESCALATE, "s3", "jk rows")
        assert not live.paused


async def test_enter_with_no_step_chosen_says_so_and_sends_nothing(services):
    app = make_app(services)
    async with app.run_test(size=(80, 24)) as pilot:
        live = await _war_room(pilot)
        before = len(live.replay.actions)
        await pilot.press("e", "enter")
        assert isinstance(app.screen, EscalateScreen)
        assert [a.kind for a in live.replay.actions[before:]] == [ActionKind.PAUSE]  # the dialog's pause alone


async def test_opens_on_the_chosen_events_step_and_never_on_a_flag_in_follow_mode(services):
    app = make_app(services)
    async with app.run_test(size=(80, 24)) as pilot:
        live = await _war_room(pilot)
        await pilot.press("k")  # the trainee moved to an earlier event: its step is their choice
        ev = live.selected_event()
        await pilot.press("e")
        assert app.screen.step == ev.step and app.screen.cites == (ev.id,)
        await pilot.press("escape")
        await pilot.press("G", "f", "enter")  # follow the newest event again, and flag it: a note, not a choice
        newest = live.selected_event()
        assert newest.id in live.replay.flagged
        await pilot.press("e")
        assert app.screen.step is None and app.screen.cites == ()


def _key(name: str) -> events.Key:
    return events.Key(name, name if len(name) == 1 else (" " if name == "space" else None))


async def test_keys_typed_at_once_after_e_all_reach_the_dialog(services):
    app = make_app(services)
    async with app.run_test(size=(80, 24)) as pilot:
        live = await _war_room(pilot)
        before = list(live.replay.actions)
        # As a fast typist (or tmux send-keys) does: the keys arrive together, before the dialog is mounted.
        keys = ["e", "s", "1", "tab"] + ["space" if c == " " else c for c in "rows from a cache f q e"]
        keys += ["enter", "y"]
        for name in keys:
            app.post_message(_key(name))
        for _ in range(10):
            await pilot.pause()
        new = live.replay.actions[len(before):]
        # Nothing reached the war room (space would pause, f flag, q ask to quit, e open a second dialog).
        # (the dialog's pause, the escalation, and its resume, in practice)
        assert [a.kind for a in new] == [ActionKind.PAUSE, ActionKind.ESCALATE, ActionKind.RESUME], new
        assert (new[1].step, new[1].note) == ("s1", "rows from a cache f q e")
        assert live.replay.contained


async def test_a_200_step_plan_is_reached_by_typing_the_id(services, tmp_path: Path):
    ids = [f"s{n}" for n in range(1, 201)]
    assert match_step(ids, "s123") == 122
    assert match_step(ids, "123") == 122  # digits alone: the step with that number
    assert match_step(ids, "S2") == 1  # exact id first, whatever the case
    assert match_step(ids, "s20") == 19
    assert match_step(ids, "x") is None
    assert match_step(["fetch", "f2", "load"], "f") == 0


async def test_n_after_enter_goes_back_to_the_evidence_list_the_trainee_was_in(services):
    """Issue 35 item 2: enter then n keeps the dialog's place (the evidence list, hidden under the question, gets
    the focus back), and the screen shows which list keys go to."""
    app = make_app(services)
    async with app.run_test(size=(80, 24)) as pilot:
        await _war_room(pilot)
        await pilot.press("e", "j")  # step s1
        screen = app.screen
        assert screen.zone == "steps" and screen.query_one("#escalate-steps").has_class("-zone")
        assert "▶ the plan step at fault" in screen_text(app)
        assert "▶ cite the events" not in screen_text(app)
        await pilot.press("tab", "tab")  # the reason box, then the evidence list
        await pilot.pause()
        assert screen.focused.id == "escalate-cites"
        assert "▶ cite the events" in screen_text(app)
        assert "▶ the plan step" not in screen_text(app)
        assert not screen.query_one("#escalate-steps").has_class("-zone")
        await pilot.press("k")  # the trainee moves in the evidence list
        row = screen.query_one("#escalate-cites").highlighted
        await pilot.press("enter")
        assert screen.asking
        await pilot.pause()
        assert "▶" not in screen_text(app)  # the question has the keys (y / n), no list: none is marked
        await pilot.press("n")
        await pilot.pause()
        await pilot.pause()
        assert not screen.asking
        assert screen.zone == "cites" and screen.focused.id == "escalate-cites"
        assert screen.query_one("#escalate-cites").highlighted == row  # where the trainee left it
        assert "▶ cite the events" in screen_text(app)
        await pilot.press("space")  # keys go on to the evidence list: space ticks the highlighted event
        assert screen.query_one("#escalate-cites").highlighted_id in screen.cites
        await pilot.press("tab")  # and tab goes on from there: back to the steps
        assert screen.focused.id == "escalate-steps" and screen.query_one("#escalate-steps").has_class("-zone")


async def test_n_after_enter_from_the_reason_box_goes_back_to_it(services):
    app = make_app(services)
    async with app.run_test(size=(80, 24)) as pilot:
        await _war_room(pilot)
        await pilot.press("e", "j", "tab")
        screen = app.screen
        await type_text(pilot, "stale")
        await pilot.press("enter", "n")
        await pilot.pause()
        await pilot.pause()
        assert screen.zone == "reason" and screen.focused.id == "escalate-reason"
        await type_text(pilot, " rows")
        assert screen.query_one("#escalate-reason").value == "stale rows"


async def test_enter_with_no_step_says_so_in_the_dialog_not_in_a_toast(services):
    app = make_app(services)
    async with app.run_test(size=(80, 24)) as pilot:
        await _war_room(pilot)
        told = record_notifications(app)
        await pilot.press("e", "enter")
        assert "Choose the plan step at fault first" in screen_text(app)
        assert told == []  # no toast over the dialog


async def test_keys_sent_to_the_reason_box_after_a_tab_moved_on_go_to_the_evidence_list(services):
    """Two tabs and an event id typed fast (a browser, a loaded host): the app hands each key to the widget focused
    when it arrives, so the second tab and the id can both reach the reason box before the first tab has moved the
    focus on. They go where the trainee's keys go by then (the evidence list), not into the reason."""
    app = make_app(services)
    async with app.run_test(size=(100, 34)) as pilot:
        await _war_room(pilot)
        await pilot.press("e", "s", "1", "tab")
        screen = app.screen
        assert isinstance(screen, EscalateScreen) and screen.focused.id == "escalate-reason"
        screen.zone = "cites"  # the second tab was handled; the keys after it were already sent to the reason box
        await pilot.press("e", "0", "4", "space")
        assert screen.query_one("#escalate-reason").value == ""
        assert screen.cites == ("e04",)
        assert "citing: e04" in screen_text(app)
        screen.to_zone("reason")  # typing in the reason box itself still types
        await pilot.press("o", "k")
        assert screen.query_one("#escalate-reason").value == "ok" and screen.cites == ("e04",)


async def test_escape_and_g_in_the_inspector_go_back_to_the_trace(services):
    """Enter moves into the inspector to scroll it; from there esc returns to the trace where it was, and G to the
    trace's newest event, following it (the trace's "n new (G)" hint works wherever the keys are)."""
    from warroom.tui.widgets import Inspector, TraceTable

    app = make_app(services)
    async with app.run_test(size=(100, 34)) as pilot:
        await _war_room(pilot)
        table = app.screen.query_one(TraceTable)
        await pilot.press("home", "enter")  # inspect the first event
        assert isinstance(app.focused, Inspector) and table.selected_key == "e01"
        await pilot.press("down")  # scrolls the inspector, the trace stays
        assert table.selected_key == "e01"
        await pilot.press("escape")
        assert app.focused is table and table.selected_key == "e01"
        await pilot.press("enter")
        assert isinstance(app.focused, Inspector)
        await advance(pilot, 6)  # more events arrive below
        await pilot.press("G")
        assert app.focused is table and table.selected_key == table.keys[-1] != "e01"
        assert app.screen is not None and "new" not in (table.border_subtitle or "")


async def test_keys_typed_while_the_dialog_opens_reach_it_at_every_moment_of_its_opening(services):
    """Issue 30: keys typed right after `e` may arrive while the dialog is being pushed and mounted, before its step
    list has the focus (a terminal delivers keys over several reads). Whatever the number of event-loop turns
    between `e` and the next key (0: queued together, the test above; then every stage of the dialog's mounting),
    every key reaches the dialog and none the war room beneath (space would pause it, f flag, q ask to quit)."""
    import asyncio

    stages = set()  # what the next key met: the dialog pushed, its step list mounted, focused
    for turns in (1, 2, 4, 6, 12, 40):
        app = make_app(services)
        async with app.run_test(size=(80, 24)) as pilot:
            live = await _war_room(pilot)
            before = list(live.replay.actions)
            app.post_message(_key("e"))
            for _ in range(turns):
                await asyncio.sleep(0)
            dialog = app.screen
            if isinstance(dialog, EscalateScreen):
                stages.add((bool(dialog.query("#escalate-steps")), dialog.focused is not None))
            for name in ["s", "1", "tab", "f", "space", "q", "enter", "y"]:
                app.post_message(_key(name))
                await asyncio.sleep(0)
            for _ in range(10):
                await pilot.pause()
            new = live.replay.actions[len(before):]
            assert [a.kind for a in new] == [ActionKind.PAUSE, ActionKind.ESCALATE, ActionKind.RESUME], (turns, new)
            assert (new[1].step, new[1].note) == ("s1", "f q"), turns
            app.close_open_session()  # as the app's launcher does: the next app may start the drill again
    assert (False, False) in stages and (True, False) in stages, stages  # keys sent before the dialog had the focus



async def test_a_sigterm_as_the_dialog_opens_stores_the_drill_and_exits_cleanly(services):
    """SIGTERM (a served tab closed, ``kill``) reaches the app as a request on its event loop, which may run right
    after `e`, before the dialog is mounted: the app still stores the drill as abandoned and exits with status 0."""
    import asyncio
    import signal

    from warroom.store.results import ResultsStore

    app = make_app(services)
    async with app.run_test(size=(80, 24)) as pilot:
        await _war_room(pilot)
        app.post_message(_key("e"))
        app.call_later(app.terminate, signal.SIGTERM)  # as the signal handler hands it to the loop
        for _ in range(600):  # the app exits by itself (leaving this block at once would stop it half-way)
            if not app.is_running:
                break
            await asyncio.sleep(0.05)
        assert not app.is_running
    assert app.return_code == 0
    with ResultsStore(services.data_dir) as store:
        assert [r.outcome for r in store.query(trainee="tester")] == ["abandoned"]
