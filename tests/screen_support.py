"""Reading a running Textual app in tests: the text on its screen and the notifications (toasts) it raised."""

from __future__ import annotations

from typing import Any

from textual.app import App


def screen_text(app: App[Any]) -> str:
    """Everything visible on the terminal right now, as plain text (one line per row)."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def record_notifications(app: App[Any]) -> list[str]:
    """Spy on ``app.notify``: returns a list that collects the message of every notification raised from now on
    (by the app or any of its screens and widgets, which all call ``app.notify``); each is still shown."""
    messages: list[str] = []
    show = app.notify

    def notify(message: str, *args: Any, **kwargs: Any) -> None:
        messages.append(str(message))
        show(message, *args, **kwargs)

    app.notify = notify  # type: ignore[method-assign]
    return messages
