"""Drill text is shown literally, and the answer key stays hidden until the debrief."""

from __future__ import annotations

from pathlib import Path

import yaml

from warroom.tui.screens import DebriefScreen
from warroom.tui.widgets import TraceTable

from .conftest import advance, escalate, make_app, screen_text

#: Rich markup, a hyperlink, an SGR colour sequence and an OSC terminal-title sequence ending in BEL, then the same
#: in C1 form (U+009B is a one-character CSI, U+009D an OSC, U+009C its string terminator), then a right-to-left
#: override (U+202E) that would reorder the rest of the line on a bidi-aware terminal.
HOSTILE = "[bold red]B[/] [link=https://x.test]L[/link] \x1b[31mR \x1b]0;T\x07 \x9b31m \x9d0;title\x9c \u202eZ"
#: How it must look on screen: brackets as typed, control characters as visible escapes.
SHOWN = "[bold red]B[/] [link=https://x.test]L[/link] \\x1b[31mR \\x1b]0;T\\x07 \\x9b31m \\x9d0;title\\x9c \\u202eZ"
#: Inside pretty-printed JSON (tool arguments and output), C0 control characters are JSON escapes; json.dumps leaves
#: C1 ones alone, so they are cleaned like any other text.
SHOWN_JSON = (
    "[bold red]B[/] [link=https://x.test]L[/link] \\u001b[31mR \\u001b]0;T\\u0007 \\x9b31m \\x9d0;title\\x9c \\u202eZ"
)
#: Control characters that must never reach the terminal.
RAW = ("\x1b", "\x07", "\x9b", "\x9c", "\x9d", "\u202e")


def hostile_drill(tmp_path: Path) -> Path:
    drill = {
        "schema_version": 1,
        "id": "hostile",
        "title": f"T {HOSTILE}",
        "difficulty": 1,
        "tags": ["test"],
        "author": "tests",
        "briefing": {"goal": f"G {HOSTILE}", "watching": "the trace"},
        "models": {
            "planner": {"name": "big", "input_usd_per_mtok": 5, "output_usd_per_mtok": 25},
            "executor": {"name": "small", "input_usd_per_mtok": 1, "output_usd_per_mtok": 5},
        },
        "plan": [
            {"id": "s1", "title": f"S {HOSTILE}", "objective": f"O {HOSTILE}"},
            {"id": "s2", "title": "second", "objective": "done"},
        ],
        "trace": [
            {"id": "e1", "t": 0, "kind": "planner_call", "content": "plan",
             "usage": {"input_tokens": 1000, "output_tokens": 100}},
            {"id": "e2", "t": 1, "step": "s1", "kind": "tool_call", "tool": "x.y", "arguments": {"q": HOSTILE}},
            {"id": "e3", "t": 2, "step": "s1", "kind": "tool_result", "call": "e2", "output": {"rows": [HOSTILE]}},
            {"id": "e4", "t": 3, "step": "s1", "kind": "executor_report", "status": "success",
             "content": f"R {HOSTILE}"},
            {"id": "e5", "t": 4, "step": "s1", "kind": "tool_result", "call": "e2", "output": f"plain {HOSTILE}"},
            {"id": "e6", "t": 30, "step": "s2", "kind": "log", "source": "mon", "content": "x"},
        ],
        "answer_key": {
            "fault": {"origin_step": "s1", "kind": "other", "summary": f"F {HOSTILE}"},
            "evidence": ["e3"],
            "damage": {"unit": "things", "entries": [{"event": "e6", "amount": 1}]},
            "deadline": 20,
            "debrief": f"D {HOSTILE}",
        },
    }
    path = tmp_path / "hostile.yaml"
    path.write_text(yaml.safe_dump(drill, allow_unicode=False), encoding="utf-8")
    return path


async def test_markup_and_escapes_in_a_drill_render_literally(services, tmp_path):
    app = make_app(services, hostile_drill(tmp_path))
    async with app.run_test(size=(160, 48)) as pilot:
        briefing = screen_text(app)
        for shown in (f"T {SHOWN}", f"G {SHOWN}", f"S {SHOWN}", f"O {SHOWN}"):
            assert shown in briefing, shown
        await pilot.press("enter")
        live = app.screen
        await advance(pilot, 5)
        timeline = live.query_one(TraceTable)
        seen = {}
        for key in ("e5", "e4", "e3", "e2"):
            seen[key] = screen_text(app)
            await pilot.press("up")
        assert f"T {SHOWN}" in seen["e5"]  # the status bar
        assert f"S {SHOWN}"[:20] in seen["e5"]  # the plan panel (cut to its width)
        assert f"O {SHOWN}" in seen["e2"]  # the inspector's objective line
        assert SHOWN in seen["e2"]  # tool call arguments (a structured block: strings as they are, cleaned)
        assert SHOWN in seen["e3"]  # tool output
        assert f"R {SHOWN}" in seen["e4"]  # executor report
        assert f"plain {SHOWN}" in seen["e5"]  # tool output (a string)
        assert timeline.row_count == 5
        # the timeline's one-line summaries (cut to the column's width), with the same visible escapes
        summaries = " ".join(str(timeline.row_cells(i)[-1]) for i in range(timeline.row_count))
        assert "\\u001b]0;T\\u0007 \\x9b31m \\x9d0;title\\x9c" in summaries  # tool call arguments (JSON)
        assert f"R {SHOWN}" in summaries and f"plain {SHOWN}" in summaries  # executor report, tool output text
        assert not any(c in summaries for c in RAW)
        for text in seen.values():
            assert not any(c in text for c in RAW)
        await escalate(pilot, "s1")
        assert isinstance(app.screen, DebriefScreen)
        debrief = screen_text(app)
        assert f"F {SHOWN}" in debrief and f"D {SHOWN}" in debrief
        assert not any(c in debrief for c in RAW)


async def test_a_drill_name_with_markup_is_safe_in_dialogs(services, tmp_path):
    app = make_app(services, hostile_drill(tmp_path))
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 2)
        await pilot.press("f")
        assert SHOWN_JSON[:14] in screen_text(app)  # the flag dialog quotes the event's summary
        await pilot.press("escape")
        await pilot.press("e")
        await pilot.pause()
        assert f"s1 S {SHOWN}"[:40] in screen_text(app)  # the escalation dialog lists the plan steps


#: Pieces of the stale-refund drill's answer key: fault summary, debrief, distractor explanations, re-plan.
ANSWER_KEY_FRAGMENTS = (
    "silently answered from the 20 November",  # fault summary
    "The fault was in s1",  # debrief text
    "nobody had refunded any of these charges",  # distractor
    "queued behind the rate limiter",  # distractor
    "Escalation accepted: s1 read a cache snapshot",  # the re-plan event
    "stale_data",  # the fault kind
    "deadline",
    "evidence",
    "full cascade",
)


async def test_the_answer_key_is_absent_before_the_debrief(services):
    app = make_app(services, speed=1)
    async with app.run_test(size=(160, 48)) as pilot:
        assert not any(f in screen_text(app) for f in ANSWER_KEY_FRAGMENTS[:5])  # the briefing
        await pilot.press("enter")
        live = app.screen
        replay = live.replay
        seen = 0
        helped = False
        # What the war room shows changes only when events are released: step the clock from one to the next.
        while not replay.ended:
            nxt = replay.next_event_time
            dt = 1.0 if nxt is None else max(nxt - replay.now, 0.0)
            await advance(pilot, dt, step=max(dt, 1e-3))  # at 1x, real seconds = drill seconds
            if replay.ended:
                break
            text = screen_text(app)
            leaked = [f for f in ANSWER_KEY_FRAGMENTS if f in text]
            assert not leaked, (replay.now, leaked)
            seen += 1
            if replay.now >= 60 and not helped:
                helped = True
                await pilot.press("question_mark")  # the help too
                assert not [f for f in ANSWER_KEY_FRAGMENTS if f in screen_text(app)]
                await pilot.press("escape")
        # every release was seen but the one at the start (before the loop) and the last (it ends the drill)
        assert helped and seen >= len({e.t for e in live.drill.trace}) - 2
        assert isinstance(app.screen, DebriefScreen)
        await pilot.pause()
        debrief = screen_text(app)
        for _ in range(6):
            await pilot.press("pagedown")
            debrief += screen_text(app)
        # The same search finds the answer key once the debrief is open (so the search above can fail).
        for fragment in ANSWER_KEY_FRAGMENTS[:3]:
            assert fragment in debrief, fragment
