"""The warroom Textual app: picker → briefing → war room → debrief.

:class:`WarroomApp` owns the flow between screens, the injected clock and the :class:`~warroom.tui.logic.Services`
(drills, sessions, best scores, scoring), and hands each screen what it needs when it creates it. Screens never
import this module: they post the messages of :mod:`warroom.tui.flow` (``ShowPicker``, ``ShowBriefing``,
``StartDrill``, ``ShowDebrief``, ``LeaveDrill``), which bubble up to the app; its handlers call :meth:`show_picker`,
:meth:`show_briefing`, :meth:`start_drill`, :meth:`show_debrief` and :meth:`leave_drill`, each of which replaces the
current screen.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from textual import events, on
from textual.binding import Binding
from textual.clock import Clock
from textual.errors import NoWidget
from textual.screen import Screen
from textual.widget import Widget

from warroom.core.play import Replay
from warroom.core.settings import KEY_TRACE_ENV, trace_key
from warroom.tui import flow
from warroom.tui.app._look import WarroomLook
from warroom.tui.app._notices import DialogAwareNotices
from warroom.tui.app._relayed import KeyClock, relayed_driver_class, when_handled
from warroom.tui.app._terminal import ExitGuard, guard_app
from warroom.tui.logic import DrillEntry, Services, SessionUnavailable, is_tutorial
from warroom.tui.room import TutorialScreen, WarRoomScreen
from warroom.tui.screens import BriefingScreen, DebriefScreen, PickerScreen

#: What ctrl+c says in a browser tab (``warroom serve``), where it is the copy key and does not quit.
SERVED_CTRL_C_HINT = "ctrl+c copies in a browser and does not quit: press q to quit (it asks first in a drill)"
#: What ctrl+q (Textual's own quit key) says in a browser tab, where it does not quit either (it named ctrl+c).
SERVED_CTRL_Q_HINT = "ctrl+q does not quit in a browser: press q to quit (it asks first in a drill)"


class WarroomApp(DialogAwareNotices, WarroomLook):
    """The terminal UI.

    Args:
        services: drills, sessions, best scores and scoring for one trainee.
        start: a drill to open straight away (its briefing; ``warroom run``); None opens the picker.
        speed: initial playback speed of the drill clock (drill seconds per real second, > 0).
        clock: the real-time clock the drill clock is driven by; tests pass a ``textual.clock.MockClock``.
        handle_signals: when True (``warroom`` and ``warroom run``), SIGTERM, SIGHUP (``kill``, the terminal
            closed) and a terminal whose output fails store a drill being played as abandoned, its quit at the
            current drill time, and exit; a watchdog ends the process if that takes longer than
            :data:`~warroom.tui.app._terminal.EXIT_GRACE` seconds (see :mod:`warroom.tui.app._terminal`).
    """

    TITLE = "warroom"
    #: ctrl+c quits in a terminal; in a browser (served) it is the copy key, so it shows :data:`SERVED_CTRL_C_HINT`.
    #: ctrl+q, Textual's own quit key, quits as ctrl+c in a terminal, and in a browser shows :data:`SERVED_CTRL_Q_HINT`.
    BINDINGS = [Binding("ctrl+c", "quit", "Quit", show=False, priority=True),
                Binding("ctrl+q", "quit_key", "Quit", show=False, priority=True)]

    def __init__(
        self,
        services: Services,
        *,
        start: DrillEntry | None = None,
        speed: float = 1.0,
        clock: Clock | None = None,
        handle_signals: bool = False,
    ) -> None:
        super().__init__()
        self.services = services
        self.start = start
        if start is not None:  # loaded by the command line: refused once its file changes, as a picker's drill is
            services.remember(start)
        self.speed = speed
        if clock is None:  # in a browser tab, keys are timed when the server's relay received them
            clock = KeyClock()
            driver = relayed_driver_class(self, clock)
            if driver is not None:
                self.driver_class = driver
        self.clock = clock
        self.live: WarRoomScreen | None = None  # the war room of the drill being played, if any
        self.from_picker = start is None
        #: The file of the drill last opened (briefing or play); the picker puts its cursor there when it reopens.
        self.last_drill_path: Path | None = start.path if start is not None else None
        self.handle_signals = handle_signals
        #: SIGHUP, SIGTERM and a lost terminal end the app within :data:`~warroom.tui.app._terminal.EXIT_GRACE` seconds.
        self.exit_guard: ExitGuard | None = None
        #: True once the app is on its way out (a quit, a signal, a lost terminal): no drill starts any more.
        self.leaving = False
        #: What the terminal must be told once the app has exited (a session that could not be stored as the app
        #: left): :func:`warroom.tui.app.launch` writes each to stderr.
        self.exit_notes: list[str] = []
        if handle_signals:
            self.exit_guard = guard_app(self)

    async def on_event(self, event: events.Event) -> None:
        """Textual's handling of every event; with ``$WARROOM_KEY_TRACE`` set, each key the app receives (and each app
        blur and focus, which move the focus) is first written to the key trace with the widget holding the focus,
        the screens and, on the picker, its state (docs/serve.md, "Tracing a tab's keys")."""
        if isinstance(event, (events.Key, events.AppBlur, events.AppFocus)) and os.environ.get(KEY_TRACE_ENV):
            what = f"key {event.key!r}" if isinstance(event, events.Key) else type(event).__name__
            screens = " > ".join(type(s).__name__ for s in self.screen_stack)
            state = f"; {self.screen.state_line()}" if isinstance(self.screen, PickerScreen) else ""
            trace_key("app", f"{what}: focus {self.focused!r}, screens {screens}{state}")
        clock = self.clock
        relayed = isinstance(clock, KeyClock) and clock.on_way(event)
        target = self._input_target(event) if relayed else None
        await super().on_event(event)
        if relayed and isinstance(clock, KeyClock):
            # the keys the relay timed have been acted on: the drill clock's ticker goes on (not when merely handed
            # to their widget, which acts on them later: a ticker due in between played the key's wait)
            if target is not None and event.is_forwarded:
                when_handled(target, lambda: clock.delivered(event))
            else:
                clock.delivered(event)

    def _input_target(self, event: events.Event) -> Widget | None:
        """The widget an input event from the driver is handed to (for a key: the focus, or the screen)."""
        if isinstance(event, (events.Key, events.Paste)):
            return self.focused or self.screen
        if isinstance(event, events.MouseEvent):
            if self.mouse_captured is not None:
                return self.mouse_captured
            try:
                return self.get_widget_at(event.x, event.y)[0]
            except NoWidget:
                return self.screen
        return self.screen

    def on_mount(self) -> None:
        self.watch_dialogs()
        if self.exit_guard is not None:
            self.exit_guard.start(self)
        # A session killed mid-drill (kill -9, a lost terminal) is recorded as abandoned on the next start.
        for message in self.services.recover():
            self.notify(message, title="Unfinished session", markup=False, timeout=12)
        if self.start is not None:
            self.show_briefing(self.start)
        else:
            self.show_picker()

    @property
    def mode(self) -> str:
        """The mode drills are played in: ``practice`` or ``assessment`` (see :attr:`Services.session_mode`)."""
        return self.services.session_mode

    def _show(self, screen: Screen[None]) -> None:
        # The app's default screen stays at the bottom; the flow's screens replace each other above it.
        if len(self.screen_stack) > 1:
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def show_picker(self) -> None:
        """Open the drill picker (reloading drills and best scores)."""
        self.from_picker = True
        self._show(PickerScreen(self.services, self.last_drill_path))

    def show_briefing(self, entry: DrillEntry) -> None:
        """Open the briefing of a loaded drill."""
        trace_key("app", f"briefing of {entry.path.name} opened")
        self.last_drill_path = entry.path
        self._show(BriefingScreen(entry, self.mode))

    def start_drill(self, entry: DrillEntry) -> None:
        """Start a session of ``entry`` for the trainee and open the war room (the bundled tutorial: with its lessons,
        :class:`~warroom.tui.room.TutorialScreen`). A store error is shown, not raised."""
        assert entry.drill is not None
        refused = self.services.cannot_start(entry)
        if refused is not None:
            self.notify(f"Cannot start this drill: {refused}.", severity="error", markup=False)
            return
        tutorial = is_tutorial(entry)  # the guided tutorial, whatever the mode (stored as a tutorial session)
        try:
            recorder = self.services.start_session(entry.path, entry.drill)
        except SessionUnavailable as exc:
            from warroom.tui.render import without_server_paths

            message = f"Cannot start a session: {exc}"  # in a browser, the server's paths cut to their names
            self.notify(without_server_paths(message) if self.is_web else message, severity="error", markup=False)
            return
        mode = self.mode
        if tutorial:
            self.live = TutorialScreen(entry, recorder, self.services, self.clock, speed=self.speed)
        else:
            speed = 1.0 if mode == "assessment" else self.speed  # assessment plays at 1x only
            self.live = WarRoomScreen(entry, recorder, self.services, self.clock, speed=speed, mode=mode)
        self._show(self.live)

    def show_debrief(self, entry: DrillEntry, replay: Replay, scorecard: Any, notice: str = "") -> None:
        """Open the debrief of a finished drill (``notice`` on its first line)."""
        self.live = None
        played_in = self.services.drill_set
        noise_rate = played_in.model.noise_rate if played_in is not None else None
        self._show(DebriefScreen(entry, replay, scorecard, notice, noise_rate))

    def leave_drill(self) -> None:
        """After quitting a drill: back to the picker if the trainee came from it, else exit."""
        self.live = None
        if self.from_picker:
            self.show_picker()
        else:
            self.exit()

    # -- the screens' messages (warroom.tui.flow) ------------------------------------------------------------------

    @on(flow.ShowPicker)
    def _picker_asked(self) -> None:
        self.show_picker()

    @on(flow.ShowBriefing)
    def _briefing_asked(self, message: flow.ShowBriefing) -> None:
        self.show_briefing(message.entry)

    @on(flow.StartDrill)
    def _start_asked(self, message: flow.StartDrill) -> None:
        # A drill is being played: a late second request (enter pressed again before the war room replaced the
        # briefing, keys typed ahead, a browser's burst) starts nothing, or its journal would be left unstored.
        if self.live is None and not self.leaving:
            self.start_drill(message.entry)

    @on(flow.ShowDebrief)
    def _debrief_asked(self, message: flow.ShowDebrief) -> None:
        self.show_debrief(message.entry, message.replay, message.scorecard, message.notice)

    @on(flow.LeaveDrill)
    def _leave_asked(self) -> None:
        self.leave_drill()

    def close_open_session(self) -> None:
        """Store the drill being played, if any, as abandoned (called when the app exits mid-drill)."""
        live, self.live = self.live, None
        if live is not None:
            live.abandon()

    def terminate(self, signum: int | None = None) -> None:
        """Stop for a signal (SIGTERM, SIGHUP) or another reason to leave at once: bring the drill clock up to the
        present, store a drill being played as abandoned (a ``quit`` at the current drill time), and exit.

        ``signum`` is None when the terminal was lost. Runs on the event loop; a second call does nothing more.
        From here on no drill starts (:attr:`leaving`): a start asked before the terminal went (keys typed ahead,
        still queued) would otherwise open a session after this one was stored."""
        self.leaving = True
        live = self.live
        if live is not None:
            live.tick(at_key=False)
        self.close_open_session()
        if self.exit_guard is not None:
            self.exit_guard.settled()
        self.exit()

    async def action_quit_key(self) -> None:
        """ctrl+q: as ctrl+c in a terminal. Served in a browser it does not quit either, and says so of itself: it
        showed ctrl+c's hint, "ctrl+c copies in a browser", to a trainee who had pressed ctrl+q."""
        if self.is_web:
            self.notify(SERVED_CTRL_Q_HINT, timeout=6)
            return
        await self.action_quit()

    async def action_quit(self) -> None:
        """ctrl+c: in a terminal, leave at once (a drill being played is stored as abandoned). Served in a browser
        (``warroom serve``: :attr:`is_web`), where ctrl+c is the copy key, it only says how to quit: a trainee copying
        a line never loses their drill."""
        if self.is_web:
            self.notify(SERVED_CTRL_C_HINT, timeout=6)
            return
        self.leaving = True
        self.close_open_session()
        self.exit()
