"""What every warroom app shares on screen: the one stylesheet, no command palette, the footer's key labels."""

from __future__ import annotations

import os
from typing import Any

from textual.app import App
from textual.binding import Binding

from warroom.tui.app._terminal import require_terminal
from warroom.tui.widgets import footer_label


class WarroomLook(App[None]):
    """Base of warroom's apps (the war room, ``warroom annotate``, ``warroom review``): the one stylesheet,
    warroom/tui/warroom.tcss, and no command palette. The apps are keyboard-first with their own keys on every
    screen (? lists them); the command palette would offer a Quit that skips the quit confirmation, and its footer
    entry crowds 80 columns."""

    CSS_PATH = "../warroom.tcss"
    ENABLE_COMMAND_PALETTE = False

    def run(self, *args: Any, **kwargs: Any) -> Any:
        """Textual's ``run``, refused with :class:`NoTerminal` in a terminal driver whose standard input or output is
        not a terminal (``< /dev/null``, a pipe, a cron job): the app drew its screen into the pipe and waited for
        keys that never came, for ever. Served (Textual's web driver) and headless runs are not refused."""
        if not kwargs.get("headless") and not os.environ.get("TEXTUAL_DRIVER"):
            require_terminal()
        return super().run(*args, **kwargs)

    def on_mount(self) -> None:
        """Under ``NO_COLOR`` (Textual's monochrome), the stylesheet's ``-no-color`` rules: borders that keep their
        brightness (a blue one blended toward the background is drawn black there, on black)."""
        if self.no_color:
            self.add_class("-no-color")

    def get_key_display(self, binding: Binding) -> str:
        """A key as the footer shows it: :func:`~warroom.tui.widgets.footer_label`."""
        return footer_label(super().get_key_display(binding), binding.key)
