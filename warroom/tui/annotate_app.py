"""The app of ``warroom annotate FILE``: the author mode alone (:class:`~warroom.tui.annotate.AnnotateScreen`), with
no picker, no sessions and no store."""

from __future__ import annotations

from textual.app import App
from textual.binding import Binding
from textual.clock import Clock

from warroom.core.annotatefile import AnnotatedFile
from warroom.tui.annotate import AnnotateScreen
from warroom.tui.keyhelp import footer_label
from warroom.tui.modals import ConfirmScreen

__all__ = ["AnnotateApp"]


class AnnotateApp(App[None]):
    """The author mode over one drill file.

    Args:
        file: the drill file opened for marking up (:func:`warroom.core.annotatefile.open_for_annotation`).
        speed: initial playback speed (drill seconds per real second, > 0).
        clock: the real-time clock the drill clock follows; tests pass a ``textual.clock.MockClock``.
    """

    CSS_PATH = "warroom.tcss"
    TITLE = "warroom annotate"
    ENABLE_COMMAND_PALETTE = False
    #: ctrl+c leaves like ``q``: with unsaved marks it asks first, and a second ctrl+c at that question leaves.
    BINDINGS = [Binding("ctrl+c", "interrupt", "Quit", show=False, priority=True)]

    def get_key_display(self, binding: Binding) -> str:
        """A key as the footer shows it: :func:`~warroom.tui.keyhelp.footer_label`."""
        return footer_label(super().get_key_display(binding), binding.key)

    def __init__(self, file: AnnotatedFile, *, speed: float = 1.0, clock: Clock | None = None) -> None:
        super().__init__()
        self.file = file
        self.speed = speed
        self.clock = clock if clock is not None else Clock()

    def on_mount(self) -> None:
        self.push_screen(AnnotateScreen(self.file, self.clock, self.speed))

    def action_interrupt(self) -> None:
        """ctrl+c: leave at once when every mark is saved and no dialog is open (or at the quit question, asked
        already); otherwise ask first, over the dialog if one is open, as ``q`` does: a stray ctrl+c never loses
        marks or a dialog's text (answering no goes back to where the author was)."""
        marking = next((s for s in self.screen_stack if isinstance(s, AnnotateScreen)), None)
        if isinstance(self.screen, ConfirmScreen) or marking is None or (marking.saved and self.screen is marking):
            self.exit()
            return

        def done(yes: bool | None) -> None:
            if yes:
                self.exit()

        lost = "The marks since the last save (s) are lost." if not marking.saved else "The open dialog's text is lost."
        self.push_screen(ConfirmScreen("Quit without saving?", lost), done)
