"""Helpers for the terminal UI tests: an app over a temporary data directory, a mock clock, the war room entered
and its clock advanced (:func:`war_room`), screen text, a spy on notifications (the last two from
tests/screen_support.py, shared with the importer's test)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from screen_support import record_notifications, screen_text
from serve_support import warm_picker_cache
from textual.clock import MockClock
from textual.events import Key
from textual.keys import ASCII_KEY_NAMES, KEY_NAME_REPLACEMENTS
from textual.pilot import Pilot
from textual.widgets import DataTable

from warroom.core.author import AnnotatedFile, open_for_annotation
from warroom.core.library import bundled_drills_dir
from warroom.tui.app import AnnotateApp, WarroomApp
from warroom.tui.author import AnnotateScreen
from warroom.tui.logic import Services, load_entry
from warroom.tui.room import WarRoomScreen
from warroom.tui.screens import PickerScreen

__all__ = [
    "STALE", "advance", "author_mode", "cold_services", "escalate", "make_app", "picker_ready", "record_notifications",
    "screen_text", "services", "type_text", "until", "war_room",
]

STALE = bundled_drills_dir() / "duplicate-charge-refunds.yaml"


@pytest.fixture
def services(tmp_path: Path) -> Services:
    """The services of a trainee ``tester`` over a data directory of the test's own, with a picker cache (in a folder
    of the test's own) that already lists the bundled drills, as every start after warroom's first finds it
    (tests/serve_support.py's :func:`warm_picker_cache`: the library read once per test worker). Without it each
    picker of a test read and checked all the bundled drills again (about 0.6 s of CPU each, some 60 pickers). A test
    about how the picker reads drill files that are not in the cache takes :func:`cold_services`."""
    cache = tmp_path / "picker-cache"
    warm_picker_cache(cache)
    return Services(trainee="tester", data_dir=tmp_path / "data", cache_dir=cache)


@pytest.fixture
def cold_services(tmp_path: Path) -> Services:
    """:func:`services` without a picker cache: every picker reads and checks each drill file itself."""
    return Services(trainee="tester", data_dir=tmp_path / "data")


def make_app(services: Services, drill_path: Path | None = STALE, speed: float = 1.0) -> WarroomApp:
    """An app on a MockClock, opened at ``drill_path``'s briefing (None: the picker)."""
    entry = load_entry(drill_path) if drill_path is not None else None
    if entry is not None:
        assert entry.ok, entry.problems
    return WarroomApp(services, start=entry, speed=speed, clock=MockClock())


def without_twin(path: Path, folder: Path) -> Path:
    """A copy of the drill at ``path`` in ``folder`` without its ``twin`` section (a fault drill that is always a
    signal trial, so that the war room may say an escalation came before the evidence)."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.startswith("twin:"))
    end = next((i for i in range(start + 1, len(lines)) if re.match(r"[a-z_]+:", lines[i])), len(lines))
    out = folder / path.name
    out.write_text("".join(lines[:start] + lines[end:]), encoding="utf-8")
    return out


async def picker_ready(pilot: Pilot) -> PickerScreen:
    """Wait until the drill picker on screen has read its drills (in a worker thread) and shows them; return it."""
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    picker = pilot.app.screen
    assert isinstance(picker, PickerScreen) and not picker.loading, picker
    # its columns are fitted to the table's width once the first layout is done, which a loaded machine delays past
    # one pause: wait until the fixed columns have the widths the table's present width gives
    await until(pilot, lambda: _columns_fitted(picker), "the picker's columns fitted", required=False)
    return picker


def _columns_fitted(picker: PickerScreen) -> bool:
    table = picker.query_one("#picker-table", DataTable)
    fixed, _ = picker._widths()
    have = {str(key.value): column.width for key, column in table.columns.items()}
    return table.scrollable_content_region.width > 0 and all(have.get(k) == w for k, w in fixed.items())


async def advance(pilot: Pilot, seconds: float, step: float = 0.5) -> None:
    """Move the mock clock forward by ``seconds`` of real time, ticking the war room every ``step`` seconds; when the
    drill ends meanwhile, let the app replace the war room (the debrief) before returning."""
    app = pilot.app
    live = app.live
    assert live is not None, "no drill is being played"
    clock = app.clock
    target = clock.time + seconds
    ended = live.replay.ended
    while clock.time < target - 1e-9:
        clock.set_time(min(clock.time + step, target))
        live.tick()
    await pilot.pause()
    if live.replay.ended and not ended:  # the debrief replaces the war room through a posted message: wait for it
        await until(pilot, lambda: app.live is not live, "past the war room", required=False)


async def until(pilot: Pilot, ready: Callable[[], bool], what: str, rounds: int = 400, required: bool = True) -> None:
    """Let the app run (one :meth:`Pilot.pause` at a time, never a fixed sleep) until ``ready()`` holds: for a state
    the app reaches after a refresh, as a scroll does (Textual's ``scroll_to``/``scroll_end`` without ``immediate``
    run after the next refresh, which a loaded machine delays past a single pause). Fails naming ``what`` when it
    still does not hold after ``rounds`` pauses (``required`` False: returns, the caller's assertions say what is
    wrong)."""
    for _ in range(rounds):
        if ready():
            return
        await pilot.pause()
    assert ready() or not required, f"still not {what} after {rounds} pauses"


@asynccontextmanager
async def war_room(app: WarroomApp, size: tuple[int, int] = (100, 30),
                   seconds: float = 0) -> AsyncIterator[tuple[Pilot, WarRoomScreen]]:
    """Run ``app`` (from :func:`make_app`, open at a briefing) at ``size``, start its drill with enter as a trainee
    does, check that its war room (the tutorial's, for the tutorial) is the screen, advance the drill's mock clock by
    ``seconds`` of real time (:func:`advance`) and yield the pilot and the war room."""
    async with app.run_test(size=size) as pilot:
        await pilot.press("enter")
        live = app.live
        assert isinstance(live, WarRoomScreen) and app.screen is live, screen_text(app)
        if seconds:
            await advance(pilot, seconds)
        yield pilot, live


@asynccontextmanager
async def author_mode(
    drill: Path | AnnotatedFile, size: tuple[int, int] = (100, 30), *, whole_trace: bool = False,
    notifications: bool = False,
) -> AsyncIterator[tuple[AnnotateApp, Pilot, AnnotateScreen]]:
    """``warroom annotate`` over ``drill`` (a drill file, or one already opened for annotation) run headless at
    ``size`` on a mock clock and settled (``whole_trace``: the whole trace released with ``E``); yields the app, its
    pilot and the author-mode screen (``notifications``: toasts drawn, as Textual's ``run_test`` takes it). The app
    stays readable after the block (``app.stopped``...)."""
    file = open_for_annotation(drill) if isinstance(drill, Path) else drill
    app = AnnotateApp(file, clock=MockClock())
    async with app.run_test(size=size, notifications=notifications) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, AnnotateScreen), screen
        if whole_trace:
            await pilot.press("E")
        yield app, pilot, screen


async def type_text(pilot: Pilot, text: str) -> None:
    """Type ``text`` into the focused widget key by key, as a fast typist (or a paste) does: each character's key
    event goes to the app as the terminal driver sends it, one after another and handled in order, without waiting
    for the app to go idle and repaint between keys as ``Pilot.press`` does. For text typed into one input (a key that
    opens a screen or moves the focus: ``pilot.press``).

    Then two pauses: each waits until every widget on the screen has handled the messages queued to it when the pause
    began (``Pilot.pause``). The app handles the keys before the first pause's mark and forwards each to the focused
    widget then, so by the second pause they are all in that widget's queue ahead of its mark: handled."""
    app = pilot.app
    for ch in text:
        key = Key(_key_name(ch), ch)
        key.set_sender(app)
        app.post_message(key)
    await pilot.pause()
    await pilot.pause()


async def type_keys(pilot: Pilot, *names: str) -> None:
    """Send the keys ``names`` (key names: ``f``, ``enter``, ``up``) to the app one after another without waiting
    between them, as :func:`type_text` does for characters (a fast typist, a paste), then let every widget handle
    them and the screens they open or close (four pauses: a dialog's held keys are given back after it closes)."""
    app = pilot.app
    for name in names:
        key = Key(name, name if len(name) == 1 else None)
        key.set_sender(app)
        app.post_message(key)
    for _ in range(4):
        await pilot.pause()


def _key_name(character: str) -> str:
    """The key name Textual gives a typed character (as ``Pilot.press`` names it: ``a``, ``space``, ``full_stop``)."""
    if character.isalnum():
        return character
    try:
        key = unicodedata.name(character).lower().replace("-", "_").replace(" ", "_")
    except ValueError:
        key = ASCII_KEY_NAMES.get(character, character)
    return KEY_NAME_REPLACEMENTS.get(key, key)


async def escalate(pilot: Pilot, step: str, reason: str = "", cite: str | None = None) -> None:
    """Escalate ``step`` from the war room as a trainee does: e, type the step id, tab and the reason (if any),
    (with ``cite``: tab to the evidence list, type the event id and tick it with space, unless it is cited already),
    enter, and y to confirm; when that ends the drill, let the app open the debrief before returning."""
    live = pilot.app.live
    ended = live is not None and live.replay.ended
    await pilot.press("e")
    await type_text(pilot, step)
    if reason or cite is not None:
        await pilot.press("tab")
        await type_text(pilot, reason)
    if cite is not None and cite not in pilot.app.screen.cites:
        await pilot.press("tab")
        await type_text(pilot, cite)
        await pilot.press("space")
    await pilot.press("enter", "y")
    await pilot.pause()
    if live is not None and live.replay.ended and not ended:
        await until(pilot, lambda: pilot.app.live is not live, "past the war room", required=False)
