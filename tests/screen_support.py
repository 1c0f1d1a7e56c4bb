"""Reading a running Textual app in tests: the text on its screen and the notifications (toasts) it raised."""

from __future__ import annotations

from typing import Any
from unittest.mock import patch

from rich.cells import cell_len
from rich.console import Console
from textual.app import App


def screen_text(app: App[Any]) -> str:
    """Everything visible on the terminal right now, as plain text (one line per row, a screen under a dialog
    included, as the trainee sees it).

    Read with public API only: ``App.export_screenshot`` renders the whole screen into a recording Rich console and
    exports it with ``Console.export_svg``; here that console exports its plain text instead (``Console.export_text``:
    the rows, without styles or cursor moves), the same text an SVG would hold at several times less work."""
    with patch.object(Console, "export_svg", _export_plain_text):
        exported = app.export_screenshot()
    assert exported.startswith(_TEXT_MARK), "App.export_screenshot no longer exports through Console.export_svg"
    width, height = app.size
    rows = exported[len(_TEXT_MARK) :].replace("\xa0", " ").split("\n")
    return "\n".join(_fit(row, width) for row in (rows + [""] * height)[:height])


#: Marks a screenshot exported as plain text (never the start of an SVG document).
_TEXT_MARK = "\x00text\x00"


def _export_plain_text(console: Console, **_: Any) -> str:
    return _TEXT_MARK + console.export_text(styles=False)


def lasting_notices(app: App[Any], seconds: float = 60) -> None:
    """Notices on ``app`` stay ``seconds`` instead of their own few (2 s, 4 s, Textual's default 5 s): a test that
    reads a toast off the screen (:func:`screen_text`) finds it there however long a loaded machine took to get to
    its assertion (CI lost a 2-second "Re-plan written." once). For a test of what a toast covers or what clears it,
    not of how long it lasts; a test of what was said records it instead (:func:`record_notifications`)."""
    show = app.notify

    def notify(message: str, *args: Any, **kwargs: Any) -> None:
        kwargs["timeout"] = seconds
        show(message, *args, **kwargs)

    app.notify = notify  # type: ignore[method-assign]


def _fit(row: str, width: int) -> str:
    """``row`` padded with spaces to ``width`` cells (a wide character takes two)."""
    return row + " " * max(width - cell_len(row), 0)


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

