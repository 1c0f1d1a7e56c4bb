"""Notices that cover nothing: the apps' toasts keep out of dialogs.

A toast sits in the bottom right corner for seconds, over whatever is there; over a dialog it hides the dialog's own
lines ("No field snapshot in e04." over the escalation dialog's evidence list, "Re-plan written." over the author's
``i`` dialog). :class:`DialogAwareNotices`, mixed into an app:

- clears the toasts still on screen when a dialog (a ``ModalScreen``) opens: they were about the screen under it;
- while a screen that has its own line for notices is active (a ``show_notice(text) -> bool`` method: the
  escalation dialog's hint line, the author dialogs' error line, the debrief's notice line), a notice goes there
  instead of into a toast. Errors are still toasts (they must not be missed).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.screen import ModalScreen, Screen

if TYPE_CHECKING:
    from textual.app import App
    from textual.notifications import SeverityLevel

    _Base = App[Any]
else:
    _Base = object


class DialogAwareNotices(_Base):
    """Mix into an :class:`~textual.app.App` (before it) and call :meth:`watch_dialogs` from ``on_mount``."""

    def watch_dialogs(self) -> None:
        """Clear the toasts each time a dialog becomes the active screen."""
        self.screen_change_signal.subscribe(self, self._screen_changed, immediate=True)

    def _screen_changed(self, screen: Screen[Any]) -> None:
        if isinstance(screen, ModalScreen):
            self.clear_notifications()

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = True) -> None:
        """A notice: into the active screen's own notice line when it has one (not for errors), else a toast."""
        show = getattr(self.screen, "show_notice", None) if self.screen_stack else None
        if severity != "error" and callable(show):
            text = message if not markup else _plain(message)
            if show(f"{title}: {text}" if title else text):
                return
        if timeout is None:
            super().notify(message, title=title, severity=severity, markup=markup)
        else:
            super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)


def _plain(message: str) -> str:
    """The text of a notice written in Textual's content markup, without its tags."""
    from textual.content import Content
    from textual.markup import MarkupError

    try:
        return Content.from_markup(message).plain
    except MarkupError:  # not valid markup: shown as written
        return message
