"""The app of ``warroom annotate FILE``: the author mode alone (:class:`~warroom.tui.author.AnnotateScreen`), with
no picker, no sessions and no store.

SIGHUP (the terminal closed), SIGTERM (``kill``) and a lost terminal are handled as in the war room
(:mod:`warroom.tui.app._terminal`): the app leaves at once, and marks not saved yet are first written to the drill's
recovery copy (:mod:`warroom.core.author._recovery`), which the next ``warroom annotate`` of the file loads again.
"""

from __future__ import annotations

from pathlib import Path

from textual.binding import Binding
from textual.clock import Clock

from warroom.core.author import AnnotatedFile, KeyWriteError, Recovered, write_recovery
from warroom.tui.app._look import WarroomLook
from warroom.tui.app._notices import DialogAwareNotices
from warroom.tui.app._terminal import ExitGuard, guard_app
from warroom.tui.author import AnnotateScreen
from warroom.tui.widgets import ConfirmScreen


class AnnotateApp(DialogAwareNotices, WarroomLook):
    """The author mode over one drill file.

    Args:
        file: the drill file opened for marking up (:func:`warroom.core.author.open_for_annotation`).
        speed: initial playback speed (drill seconds per real second, > 0).
        clock: the real-time clock the drill clock follows; tests pass a ``textual.clock.MockClock``.
        recovered: what :func:`~warroom.core.author.recover` found for ``file``: a recovered draft opens
            in place of the file's own, unsaved, and its message is shown.
        handle_signals: when True (``warroom annotate``), SIGHUP, SIGTERM and a lost terminal end the app at once,
            unsaved marks first written to the recovery copy (:meth:`terminate`).
    """

    TITLE = "warroom annotate"
    #: ctrl+c leaves like ``q``: with unsaved marks it asks first, and a second ctrl+c at that question leaves. So
    #: does ctrl+q, Textual's own quit key, which left at once and lost the unsaved marks without a recovery copy.
    BINDINGS = [Binding("ctrl+c,ctrl+q", "interrupt", "Quit", show=False, priority=True)]

    def __init__(self, file: AnnotatedFile, *, speed: float = 1.0, clock: Clock | None = None,
                 recovered: Recovered | None = None, handle_signals: bool = False) -> None:
        super().__init__()
        self.file = file
        self.speed = speed
        self.clock = clock if clock is not None else Clock()
        self.recovered = recovered
        #: After a signal or a lost terminal: the recovery copy the unsaved marks were written to (None: nothing was
        #: unsaved, or no signal came).
        self.kept: Path | None = None
        #: After a signal or a lost terminal: why the unsaved marks could not be written (None: they were, or there
        #: were none).
        self.not_kept: str | None = None
        #: The signal that stopped the app (None for a lost terminal, or when none did: see :attr:`stopped`).
        self.stopped_by: int | None = None
        #: True once a signal or a lost terminal stopped the app.
        self.stopped = False
        self.exit_guard: ExitGuard | None = guard_app(self) if handle_signals else None

    def on_mount(self) -> None:
        self.watch_dialogs()
        if self.exit_guard is not None:
            self.exit_guard.start(self)
        screen = AnnotateScreen(self.file, self.clock, self.speed)
        recovered = self.recovered
        if recovered is not None and recovered.draft is not None:
            screen.draft = recovered.draft
            screen.saved = False  # the recovered marks are in no drill file yet
        self.push_screen(screen)
        if recovered is not None and recovered.message is not None:
            self.notify(recovered.message, title="Unsaved marks", markup=False, timeout=20,
                        severity="information" if recovered.draft is not None else "warning")

    def marking(self) -> AnnotateScreen | None:
        """The author mode's screen (under any dialog), or None before it opened."""
        return next((s for s in self.screen_stack if isinstance(s, AnnotateScreen)), None)

    def terminate(self, signum: int | None = None) -> None:
        """Stop for SIGHUP or SIGTERM (``signum``; None for a lost terminal): write marks not saved yet to the
        recovery copy (:attr:`kept`, or why not in :attr:`not_kept`), then exit. The drill file is not touched and
        an open dialog's text is not kept. Runs on the event loop; a second call does nothing more."""
        if self.stopped:
            return
        self.stopped, self.stopped_by = True, signum
        marking = self.marking()
        if marking is not None and not marking.saved:
            try:
                self.kept = write_recovery(self.file, marking.draft)
            except KeyWriteError as exc:
                self.not_kept = str(exc)
        if self.exit_guard is not None:
            self.exit_guard.settled()
        self.exit()

    def action_interrupt(self) -> None:
        """ctrl+c: leave at once when every mark is saved and no dialog is open (or at the quit question, asked
        already); otherwise ask first, over the dialog if one is open, as ``q`` does: a stray ctrl+c never loses
        marks or a dialog's text (answering no goes back to where the author was)."""
        marking = self.marking()
        if isinstance(self.screen, ConfirmScreen) or marking is None or (marking.saved and self.screen is marking):
            self.exit()
            return

        def done(yes: bool | None) -> None:
            if yes:
                self.exit()

        lost = "The marks since the last save (s) are lost." if not marking.saved else "The open dialog's text is lost."
        self.push_screen(ConfirmScreen("Quit without saving?", lost), done)
