"""Text search in the inspector, as in ``less``: ``/`` asks for a text, ``n`` and ``N`` go to its next and previous
place. The war room and the author mode bind these keys (``:`` goes to a field path instead:
:mod:`warroom.tui.widgets._fieldjump`).

:class:`SearchScreen` asks for the text; :func:`open_search` opens it over a screen and searches the screen's
inspector with the answer (:meth:`~warroom.tui.widgets.Inspector.search`); :func:`search_again` is ``n`` / ``N``.
Where the search stands shows in the inspector's bottom border (``/cursor 2 of 7``); a search that finds nothing
says so. Nothing here knows the answer key.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Label

from warroom.core.text import clean_line, visible_name
from warroom.tui.widgets._dialogs import Dialog
from warroom.tui.widgets._inspector import Inspector
from warroom.tui.widgets._textinput import TextInput

#: Longest text searched for, in characters.
SEARCH_MAX = 200
#: The keys of the search (``/``, ``n``, ``N``), bound by the war room and the author mode to their ``search`` and
#: ``search_next`` actions.
SEARCH_BINDINGS = [
    Binding("slash", "search", "Find", key_display="/", show=False, priority=True,
            tooltip="find a text in the inspector, as in less (highlighted; the bottom border counts them)"),
    Binding("n", "search_next(1)", "Next match", show=False, priority=True,
            tooltip="the next place of the text found with / (wraps around)"),
    Binding("N", "search_next(-1)", "Previous match", key_display="N", show=False, priority=True,
            tooltip="the previous place of the text found with /"),
]


class SearchScreen(Dialog["str | None"]):
    """Ask for a text to find in the inspector (the last one searched is offered). Dismisses with the text typed or
    None (escape)."""

    ANSWERED_BY = frozenset({"search-text"})
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, what: str, last: str = "") -> None:
        super().__init__()
        self.what = what
        self.last = last

    def compose(self) -> ComposeResult:
        with Vertical(id="search-box", classes="dialog"):
            title = Text("Find in ")
            title.append(clean_line(self.what), style="bold")
            yield Label(title, classes="dialog-title")
            yield TextInput(value=self.last, placeholder="text to find, e.g. cursor or total", max_length=SEARCH_MAX,
                        id="search-text")
            yield Label("enter finds it · then n the next place, N the previous one · escape cancels",
                        classes="dialog-hint")

    @on(Input.Submitted, "#search-text")
    def submit(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)


def _searched(screen: Any, inspector: Inspector, what: str, text: str | None) -> None:
    """The answer of :class:`SearchScreen` on ``screen`` (a war-room or author-mode screen: ``notify``)."""
    if text is None:
        return
    found = inspector.search(text)  # (an empty text clears the last search)
    if text and not found:
        screen.notify(f"No “{visible_name(text)}” in {clean_line(what)}.", severity="warning", markup=False)


def open_search(screen: Any, inspector: Inspector, what: str) -> None:
    """Ask for a text and search ``inspector`` for it; ``what`` names what the inspector shows (``e06``). The screen
    opens the dialog with its ``open_dialog`` when it has one (the war room: a dialog stops the drill clock in
    practice), else ``app.push_screen``."""
    dialog = SearchScreen(what, inspector.query_text)
    done = partial(_searched, screen, inspector, what)
    opener = getattr(screen, "open_dialog", None)
    if opener is not None:
        opener(dialog, done)
    else:
        screen.app.push_screen(dialog, done)


def search_again(screen: Any, inspector: Inspector, direction: int) -> None:
    """``n`` (``direction`` 1) or ``N`` (-1): the next or previous place of the last search, wrapping around (and
    saying so); without a search, or without a match in what is shown now, say that."""
    if not inspector.query_text:
        screen.notify("No search yet: / finds a text in the inspector.", severity="warning", markup=False)
        return
    if not inspector.matches:
        screen.notify(f"No “{visible_name(inspector.query_text)}” here.", severity="warning", markup=False)
        return
    if inspector.search_next(direction):
        where = "top" if direction > 0 else "bottom"
        screen.notify(f"Search wrapped to the {where}.", markup=False, timeout=2)
