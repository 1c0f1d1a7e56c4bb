"""Reading a running Textual app in tests: the text on its screen and the notifications (toasts) it raised."""

from __future__ import annotations

import html
import re
from typing import Any

from rich.cells import cell_len
from textual.app import App

#: One run of text in Rich's SVG export: its x position (cells times the character width) and its terminal row.
_SVG_TEXT = re.compile(r'<text [^>]*?\bx="([0-9.]+)"[^>]*?clip-path="url\(#[^)]*-line-(\d+)\)">(.*?)</text>', re.S)
#: Rich's SVG export puts each cell ``font_aspect_ratio`` (0.61) times the font size (20 px) apart.
_CELL_WIDTH = 20 * 0.61


def screen_text(app: App[Any]) -> str:
    """Everything visible on the terminal right now, as plain text (one line per row, a screen under a dialog
    included, as the trainee sees it).

    Read with public API only: the app's SVG screenshot (``App.export_screenshot``), whose text runs are placed
    back on their rows and columns."""
    width, height = app.size
    rows: list[list[str]] = [[" "] * width for _ in range(height)]
    for x, line, body in _SVG_TEXT.findall(app.export_screenshot()):
        row, col = rows[int(line)], round(float(x) / _CELL_WIDTH)
        for ch in html.unescape(body).replace("\xa0", " "):
            if col < width:
                row[col] = ch
            for extra in range(1, cell_len(ch)):  # a wide character: the cells it covers hold nothing
                if col + extra < width:
                    row[col + extra] = ""
            col += max(cell_len(ch), 1)
    return "\n".join("".join(row) for row in rows)


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
