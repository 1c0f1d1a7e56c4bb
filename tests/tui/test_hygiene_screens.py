"""Answer-key hygiene on screen: the picker (every drill selected in turn), each briefing, and the war room from the
start to just before the trace ends without an escalation, scanned for the answer key's strings
(tests/hygiene_support.py). The briefings are shown, and the war room is played, for a set of bundled drills that
together use every feature of the bundled drills (tests/cover_support.py), plus the tallest briefing; what every
drill's briefing, plan and events show is checked for every bundled drill, every trial and a variant by
tests/unit/test_hygiene_trace.py."""

from __future__ import annotations

import io
import math
from functools import cache
from pathlib import Path

import pytest
from cover_support import covering_drills
from hygiene_support import bundled, leaks, normalise, visible_text
from library_support import load_bundled
from rich.console import Console
from textual.clock import MockClock
from textual.containers import VerticalScroll

from warroom.core.library import TUTORIAL_ID
from warroom.core.model import ESCALATION_INSTRUCTION
from warroom.tui.app import WarroomApp
from warroom.tui.logic import Services, load_entry
from warroom.tui.room import WarRoomScreen
from warroom.tui.screens import BriefingScreen, briefing_text
from warroom.tui.widgets import HelpScreen

from .conftest import advance, picker_ready, screen_text

BUNDLED = bundled()
DRILLS = [load_bundled(p) for p in BUNDLED]


class _NullRecorder:
    """Keeps a session's actions in memory: these tests look at screens only."""

    session_id = "null"

    def __init__(self) -> None:
        self.actions: list[object] = []

    def record(self, action: object) -> None:
        self.actions.append(action)

    def close(self) -> None:
        pass

    def finish(self, scorecard: object) -> None:
        pass


class _NoStore(Services):
    def start_session(self, drill_path, drill):
        return _NullRecorder()


def _leaks_any(text: str) -> dict[str, list[str]]:
    """Each drill's answer strings on a screen that shows every drill, less those that another drill shows by
    design (``control`` of the all-clear drill's tags is a word of the access-review drill's plan)."""
    out = {}
    for i, d in enumerate(DRILLS):
        found = [s for s in leaks(text, d) if s not in _shown_by_others(i)]
        if found:
            out[d.id] = found
    return out


@cache
def _shown_by_others(i: int) -> frozenset[str]:
    """The answer strings of ``DRILLS[i]`` that the other drills show by design (worked out once per drill, not
    again for every screen)."""
    d = DRILLS[i]
    return frozenset(leaks("\n".join(visible_text(o) for o in DRILLS if o is not d), d))


async def test_the_picker_shows_no_answer_whichever_drill_is_selected(tmp_path: Path):
    app = WarroomApp(_NoStore(trainee="t", data_dir=tmp_path / "data"), clock=MockClock())
    async with app.run_test(size=(160, 50)) as pilot:
        await picker_ready(pilot)  # the drills are read in a worker thread: a screen before that shows none of them
        seen = set()
        for _ in BUNDLED:
            text = screen_text(app)
            assert not _leaks_any(text), _leaks_any(text)
            seen.add(text)
            await pilot.press("down")
            await pilot.pause()
        assert len(seen) == len(BUNDLED)  # each drill's preview was on screen


def _briefing_rows(drill) -> int:
    """The rows the text of ``drill``'s briefing takes at the width of a 120-column terminal."""
    console = Console(width=118, file=io.StringIO())
    return len(console.render_lines(briefing_text(drill), console.options, pad=False))


#: The briefings shown on screen: the drills that cover every feature of the bundled drills, and the one whose
#: briefing is the tallest (each briefing's text, for every bundled drill: tests/unit/test_hygiene_trace.py).
_BRIEFED = set(covering_drills(BUNDLED, cost="one")) | {max(BUNDLED, key=lambda p: _briefing_rows(load_bundled(p)))}
BRIEFED = [(p, d) for p, d in zip(BUNDLED, DRILLS, strict=True) if p in _BRIEFED]


@pytest.mark.parametrize("mode", ["practice", "assessment"])
async def test_every_briefing_shows_no_answer_and_the_same_instruction(tmp_path: Path, mode: str):
    app = WarroomApp(_NoStore(trainee="t", data_dir=tmp_path / "data", mode=mode), clock=MockClock())
    async with app.run_test(size=(120, 100)) as pilot:  # the longest briefing takes 65 rows at this width
        for path, drill in BRIEFED:
            app.show_briefing(load_entry(path))
            await pilot.pause()
            assert isinstance(app.screen, BriefingScreen) and app.screen.mode == mode
            assert app.screen.query_one("#briefing", VerticalScroll).max_scroll_y == 0, drill.id  # all on screen
            text = screen_text(app)
            assert not leaks(text, drill), (drill.id, leaks(text, drill))
            assert normalise(ESCALATION_INSTRUCTION) in normalise(text), drill.id


#: The war room of the bundled drills that cover every feature of the bundled drills but the tutorial, whose lessons
#: hold the drill clock until the trainee acts and name the faulty step on purpose (tests/tui/test_tutorial.py plays
#: it). Each played drill costs its duration: the cover prefers short drills.
_COVER = set(covering_drills(p for p, d in zip(BUNDLED, DRILLS, strict=True) if d.id != TUTORIAL_ID))
PLAYED = [(p, d) for p, d in zip(BUNDLED, DRILLS, strict=True) if p in _COVER]


#: Seconds of drill time between two scans of the war room: its panels and meters (what only the screen can show)
#: are scanned as the drill goes on; each event's own text, as the table and the inspector show it, is checked for
#: every drill by tests/unit/test_hygiene_trace.py.
SCAN = 24


@pytest.mark.parametrize(("path", "drill"), PLAYED, ids=[p.stem for p, _ in PLAYED])
async def test_the_war_room_shows_no_answer_until_the_debrief(tmp_path: Path, path: Path, drill) -> None:
    # Opened at the drill's briefing (the picker and the briefings are scanned by the tests above), started with enter.
    app = WarroomApp(_NoStore(trainee="t", data_dir=tmp_path / "data"), start=load_entry(path), clock=MockClock(),
                     speed=16)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        live = app.screen
        assert isinstance(live, WarRoomScreen)
        await pilot.press("question_mark")  # the war room's help is a pre-debrief surface too
        assert isinstance(app.screen, HelpScreen)
        assert not leaks(screen_text(app), drill), (drill.id, "help")
        await pilot.press("escape")
        checked = 0
        while live.replay.now + 8 < drill.duration:  # 0.5 s of real time is 8 s of drill time at 16x
            text = screen_text(app)
            assert not leaks(text, drill), (drill.id, live.replay.now, leaks(text, drill))
            checked += 1
            before = live.replay.now
            # ticked every 8 s of drill time, drawn and scanned every SCAN s, and never to the trace's end
            ticks = min(SCAN // 8, math.ceil((drill.duration - live.replay.now) / 8) - 1)
            await advance(pilot, ticks * 0.5, step=0.5)
            assert live.replay.now > before, (drill.id, "the drill clock did not move")
        assert not live.replay.ended and not live.replay.escalations
        text = screen_text(app)
        assert not leaks(text, drill), (drill.id, "end", leaks(text, drill))
        if drill.answer_key is not None:
            assert live.replay.damage > 0, drill.id  # the meter had an amount to show, and showed no unit
        assert checked > 2, drill.id
