"""Every shape drill of tests/fixtures/shapes (issue 15, "Done when") played to containment by key presses.

One small format-2 drill per shape of real agent failures lives in tests/fixtures/shapes/ (``shape-NN-NAME.yaml``).
Each one validates, passes ``warroom check`` (tests/unit/test_shape_drills.py) and is played here as a trainee would:
start it, let the drill clock run to halfway between the earliest evidence and the deadline, look at the event that
shows the shape (the cursor moved there with keys), move to the earliest evidence, flag it, escalate the fault's
origin step citing it, and read the debrief, which must say *contained*.

The script comes from the file's answer key (the origin step, the earliest evidence, the deadline), so every file in
the folder is played, including shapes written later. What must be on screen at the escalation is in
:data:`ON_SCREEN` for the shapes written with this test; a later file adds its own by comment lines
``# on screen: TEXT`` (each TEXT must be on screen, inspector included, while the cursor is on the earliest
evidence).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from locations import TESTS
from textual.pilot import Pilot

from warroom.core.load import load_drill
from warroom.core.model import Drill
from warroom.tui.room import WarRoomScreen
from warroom.tui.screens import DebriefScreen
from warroom.tui.widgets import TraceTable

from .conftest import advance, escalate, make_app, screen_text

SHAPES = TESTS / "fixtures" / "shapes"
#: Shapes 9-11 (a fault in the plan or set-up, comparison / absence / field-path evidence, probes) need moves this
#: generic script does not make ("the plan" in the dialog, citing a whole comparison, asking for a probe): they are
#: played to containment by tests/tui/test_shapes_origins_evidence.py and tests/tui/test_probe.py. Shape 14 (a large
#: drill) is generated, not stored: tests/tui/test_shape_large.py plays it (its evidence is reached from the end).
OWN_TESTS = ("shape-09", "shape-10", "shape-11")
SHAPE_FILES = sorted(p for p in SHAPES.glob("shape-*.yaml") if not p.stem.startswith(OWN_TESTS))
#: 80 columns (the TUI's narrowest supported width), tall enough for the inspector to show a whole event.
SIZE = (80, 40)
#: Shapes whose on-screen texts are in the agent column, which folds away at 80 columns: played wider.
WIDE = {"shape-01-agents", "shape-07-approvals"}

#: What each shape shows that only it has: (the event to put the cursor on, texts on screen while it is selected).
ON_SCREEN: dict[str, tuple[str, tuple[str, ...]]] = {
    # 1: the agent column, and a handoff as an event of its own.
    "shape-01-agents": ("e05", ("step  agent    kind", "lead → refunder: Refund the 12 tickets in queue refunds-nov")),
    # 2: a sub-agent's call priced at its own model (not the executor's).
    "shape-02-models": ("e04", ("analyst · sub-agent", "sub-agent gemini-2.5-flash at $0.30 /")),
    # 3: a batch whose results came in completion order, and its call without a result ("not returned yet" mid-replay).
    "shape-03-batches": ("e05", ("↳e06 {", "↳e04 {", "batch     b1 with e04, e06", "result    not returned yet")),
    # 4: a result the model saw cut short beside the full output, with its size.
    "shape-04-metadata": ("e03", ("size      9,210 bytes", "shown to the model (cut short)", "output (raw, in full)")),
    # 5: a runaway call collapsed into one row with its repetitions so far.
    "shape-05-repetition": ("e05", ("×58 ", "58 so far:")),
    # 6: a retry marked in the table and named in the inspector.
    "shape-06-retries": ("e06", ("↻e04", "retry     attempt 2, retries e04")),
    # 7: the approval denied, and the step that went ahead without one.
    "shape-07-approvals": ("e07", ("s2 ⚠ no approval", "priya")),
    # 8: a command's exit code, stdout and stderr apart.
    "shape-08-command": ("e06", ("exit 1", "exit code 1", "stdout", "stderr", "Disk quota exceeded")),
    # 12: the deadline given by an event is resolved to its time (shown in the debrief: see _DEBRIEF).
    "shape-12-event-times": ("e05", ("replica_lag_s",)),
    # 13: a fault kind of format 2's vocabulary (named in the debrief: see _DEBRIEF).
    "shape-13-kinds": ("e06", ("only by registered letter",)),
}

#: Texts the debrief of a shape shows beside its outcome.
_DEBRIEF: dict[str, tuple[str, ...]] = {
    "shape-12-event-times": ("before the deadline at 34 s", "34 s D deadline"),  # e08 (30 s) + 4 s
    "shape-13-kinds": ("Summarise renewal terms · invented_constraint",),
}

_ON_SCREEN_COMMENT = re.compile(r"^# on screen: (.+)$", re.MULTILINE)


def test_the_folder_holds_one_drill_per_shape_of_this_slice():
    stems = {p.stem for p in SHAPE_FILES}
    assert set(ON_SCREEN) <= stems, sorted(set(ON_SCREEN) - stems)
    assert not (SHAPES / "shape-14-large.yaml").exists()  # generated in tmp_path: tests/tui/test_shape_large.py


def _flat(app) -> str:
    return " ".join(screen_text(app).split())


async def _select(pilot: Pilot, table: TraceTable, event_id: str) -> None:
    """Move the trace table's cursor to ``event_id``'s row by keys: home, then down row by row."""
    await pilot.press("home", *["down"] * table.row_index(event_id))
    assert table.selected_key == event_id, (table.selected_key, event_id)


async def _debrief_text(pilot: Pilot) -> str:
    text = _flat(pilot.app)
    for _ in range(3):
        await pilot.press("pagedown")
        text += " " + _flat(pilot.app)
    return text


def _script(drill: Drill) -> tuple[str, str, float]:
    """(origin step, earliest evidence, drill time to escalate at) from the answer key."""
    key = drill.answer_key
    assert key is not None, "a shape drill has a fault"
    first = min((drill.event(e) for e in key.evidence), key=lambda e: e.t)
    return key.fault.origin_step, first.id, (first.t + key.deadline) / 2


@pytest.mark.parametrize("path", SHAPE_FILES, ids=lambda p: p.stem)
async def test_a_shape_drill_plays_to_containment_with_its_shape_on_screen(services, path: Path):
    drill = load_drill(path)
    origin, evidence, at = _script(drill)
    look_at, texts = ON_SCREEN.get(path.stem, (evidence, ()))
    commented = _ON_SCREEN_COMMENT.findall(path.read_text(encoding="utf-8"))
    app = make_app(services, path)
    async with app.run_test(size=(100, 40) if path.stem in WIDE else SIZE) as pilot:
        await pilot.press("enter")
        live = app.screen
        assert isinstance(live, WarRoomScreen)
        await advance(pilot, at)
        assert not live.replay.contained and not live.replay.ended
        table = live.query_one(TraceTable)
        await _select(pilot, table, look_at)
        shown = screen_text(app)
        for text in texts:
            assert text in shown, f"{text!r} not on screen:\n{shown}"
        await _select(pilot, table, evidence)
        shown = screen_text(app)
        for text in commented:
            assert text in shown, f"{text!r} not on screen:\n{shown}"
        await pilot.press("f", "enter")  # flag it, no note
        assert evidence in live.replay.flagged
        await escalate(pilot, origin, "evidence", cite=evidence)
        assert live.replay.contained and not live.replay.contained_late, live.replay.actions
        for _ in range(60):  # the re-plan plays, then the debrief opens
            if app.live is None:
                break
            await advance(pilot, 1, step=1)
        assert isinstance(app.screen, DebriefScreen), app.screen
        assert app.screen.scorecard.outcome.value == "contained"
        text = await _debrief_text(pilot)
        assert "contained" in text.lower() and "contained late" not in text.lower()
        for expected in _DEBRIEF.get(path.stem, ()):
            assert expected in text, f"{expected!r} not in the debrief:\n{text}"
