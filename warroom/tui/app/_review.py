"""The app of ``warroom review SESSION_ID``: one stored session's after-action review
(:class:`~warroom.tui.screens.ReviewScreen`) on its own, with no picker and no session written."""

from __future__ import annotations

from warroom.store.review import ReviewData
from warroom.tui.app._look import WarroomLook
from warroom.tui.app._terminal import ExitGuard, guard_app, tolerant_driver_class
from warroom.tui.screens import ReviewScreen


class ReviewApp(WarroomLook):
    """``warroom review``: a stand-alone app showing one :class:`ReviewScreen`.

    With ``handle_signals`` (the command line), SIGHUP, SIGTERM and a lost terminal end it as they end the war room
    (:class:`~warroom.tui.app._terminal.ExitGuard`): the terminal is given back as it was. Python's own SIGTERM
    ended the process at once, leaving the terminal in the review's alternate screen, unechoed and with the mouse
    reported, so the shell's prompt and what was typed were not seen."""

    TITLE = "warroom review"

    def __init__(self, data: ReviewData, *, handle_signals: bool = False) -> None:
        super().__init__()
        self.data = data
        self.exit_guard: ExitGuard | None = guard_app(self) if handle_signals else None
        driver = tolerant_driver_class(self)  # input that is not UTF-8 ignored, not the end of the app
        if self.exit_guard is None and driver is not None:
            self.driver_class = driver

    def on_mount(self) -> None:
        if self.exit_guard is not None:
            self.exit_guard.start(self)
        self.push_screen(ReviewScreen(self.data))

    def terminate(self, signum: int | None = None) -> None:
        """Stop for SIGHUP or SIGTERM (``signum``; None for a lost terminal): nothing is kept, so just exit."""
        if self.exit_guard is not None:
            self.exit_guard.settled()
        self.exit()
