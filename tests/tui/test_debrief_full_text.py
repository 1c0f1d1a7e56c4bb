"""The debrief shows its text in full and the habit in its own place (issue 35 item 4): evidence items one per line
(each field with its value and note), the first evidence's and each distractor's event summary wrapped, never cut with
"…", every probe's answer whole, and "The habit that would have caught it" under its own heading; only the
distractors the trainee saw are explained (issue 35 item 3)."""

from __future__ import annotations

from pathlib import Path

from locations import TESTS

from warroom.core.library import bundled_drills_dir
from warroom.tui.screens import DebriefScreen

from .conftest import advance, escalate, make_app, screen_text

SHAPES = TESTS / "fixtures" / "shapes"

HABIT = "Read the paging fields of every list result before counting what it holds."
LONG_LOG = ("retry budget for helpdesk.search refreshed after the nightly window; connection pool recycled, "
            "12 idle sockets closed, 3 warm sockets kept, keep-alive 75 s, TLS session tickets rotated")


def _drill(tmp_path: Path) -> Path:
    """Shape 10 (evidence at a field path) with a second field item and notes, a long distractor log line released
    before the evidence, a distractor released after the end, and a habit."""
    text = (SHAPES / "shape-10-field-path.yaml").read_text()
    text = text.replace(
        "      note: A next_cursor means there is another page.\n",
        "      note: A next_cursor means there is another page.\n"
        "    - event: e03\n      path: data.total\n      note: 41 open tickets, three listed.\n",
    )
    text = text.replace(
        "  - {id: e03p, t: 9,",
        f'  - {{id: e03b, t: 7, step: s1, kind: log, source: helpdesk-client, level: warning, content: "{LONG_LOG}"}}\n'
        "  - {id: e03p, t: 9,",
    )
    text = text.replace("  debrief: Read the paging fields", f"  habit: {HABIT}\n  debrief: Read the paging fields")
    text += ("distractors:\n  - {event: e03b, why_harmless: Connection housekeeping; the search answered.}\n"
             "  - {event: e07, why_harmless: The report is what it is.}\n")
    path = tmp_path / "shape-10-field-path.yaml"
    path.write_text(text)
    return path


async def _debrief_text(pilot) -> str:
    text = ""
    for _ in range(6):
        text += "\n" + "\n".join(line.strip("│ ") for line in screen_text(pilot.app).splitlines())
        await pilot.press("pagedown")
    return text


async def test_the_debrief_shows_evidence_one_per_line_summaries_in_full_and_the_habit(services, tmp_path):
    app = make_app(services, _drill(tmp_path))
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 7.5)  # e03 and the long log line are out
        await escalate(pilot, "s1", "paging", cite="e03")  # contained: no re-plan, the debrief opens
        assert isinstance(app.screen, DebriefScreen)
        text = await _debrief_text(pilot)
    lines = [ln.strip() for ln in text.splitlines()]
    # each evidence item on a line of its own, with its value and note
    assert 'e03 data.next_cursor = "c_8f2a"; A next_cursor means there is another page.' in lines
    assert "e03 data.total = 41; 41 open tickets, three listed." in lines
    flat = " ".join(text.split())
    assert lines[lines.index("evidence") + 1].startswith("e03 data.next_cursor")
    # the distractor's summary in full (its last words are there), no "…" in it
    assert "TLS session tickets rotated" in flat
    assert "Connection housekeeping; the search answered." in flat
    # the distractor after the end is not explained (the trainee never saw it)
    assert "The report is what it is." not in flat and "e07" not in flat.split("Distractors")[1]
    # the habit, under its own heading, after what happened
    assert "The habit that would have caught it" in lines
    assert flat.index("The habit that would have caught it") > flat.index("What happened")
    assert HABIT in flat


async def test_every_probe_answer_is_shown_whole(services):
    drill = bundled_drills_dir() / "api-dns-cutover.yaml"
    app = make_app(services, drill, speed=32.0)
    async with app.run_test(size=(120, 50)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 30, step=2)  # the whole trace at 32x: the drill ends, the debrief opens
        assert isinstance(app.screen, DebriefScreen)
        text = await _debrief_text(pilot)
        habit = app.screen.drill.answer_key.habit
    flat = " ".join(text.split())
    # the last sentence of p1's answer (a multi-line text of about 300 characters)
    assert "The new load balancer can take the traffic." in flat
    assert " ".join(habit.split()) in flat
