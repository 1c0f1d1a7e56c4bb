"""The app of ``warroom annotate FILE``: the author mode alone (:class:`~warroom.tui.annotate.AnnotateScreen`), with
no picker, no sessions and no store."""

from __future__ import annotations

from textual.app import App
from textual.binding import Binding
from textual.clock import Clock

from warroom.core.annotatefile import AnnotatedFile
from warroom.tui.annotate import AnnotateScreen
from warroom.tui.keyhelp import footer_label

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
    BINDINGS = [Binding("ctrl+c", "quit", "Quit", show=False, priority=True)]

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
