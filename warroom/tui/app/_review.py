"""The app of ``warroom review SESSION_ID``: one stored session's after-action review
(:class:`~warroom.tui.screens.ReviewScreen`) on its own, with no picker and no session written."""

from __future__ import annotations

from textual.app import App
from textual.binding import Binding

from warroom.store.review import ReviewData
from warroom.tui.app._terminal import tolerant_driver_class
from warroom.tui.screens import ReviewScreen
from warroom.tui.widgets import footer_label


class ReviewApp(App[None]):
    """``warroom review``: a stand-alone app showing one :class:`ReviewScreen`."""

    TITLE = "warroom review"
    CSS_PATH = "../warroom.tcss"  # the one stylesheet, warroom/tui/warroom.tcss
    # Keyboard-first like the war room (? lists the keys); no command palette.
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, data: ReviewData) -> None:
        super().__init__()
        self.data = data
        driver = tolerant_driver_class(self)  # input that is not UTF-8 ignored, not the end of the app
        if driver is not None:
            self.driver_class = driver

    def get_key_display(self, binding: Binding) -> str:
        """A key as the footer shows it: :func:`~warroom.tui.widgets.footer_label`."""
        return footer_label(super().get_key_display(binding), binding.key)

    def on_mount(self) -> None:
        self.push_screen(ReviewScreen(self.data))
