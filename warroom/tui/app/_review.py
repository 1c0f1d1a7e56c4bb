"""The app of ``warroom review SESSION_ID``: one stored session's after-action review
(:class:`~warroom.tui.screens.ReviewScreen`) on its own, with no picker and no session written."""

from __future__ import annotations

from warroom.store.review import ReviewData
from warroom.tui.app._look import WarroomLook
from warroom.tui.app._terminal import tolerant_driver_class
from warroom.tui.screens import ReviewScreen


class ReviewApp(WarroomLook):
    """``warroom review``: a stand-alone app showing one :class:`ReviewScreen`."""

    TITLE = "warroom review"

    def __init__(self, data: ReviewData) -> None:
        super().__init__()
        self.data = data
        driver = tolerant_driver_class(self)  # input that is not UTF-8 ignored, not the end of the app
        if driver is not None:
            self.driver_class = driver

    def on_mount(self) -> None:
        self.push_screen(ReviewScreen(self.data))
