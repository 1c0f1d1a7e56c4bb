"""The escalation dialog's lists' shared keys: the step list and the evidence list move alike.

:class:`KeyedList` is an option list moved with the trace's keys (↑ ↓ and k j, stopping at the ends; home / end)
whose keys are routed by :class:`~warroom.tui.room._escalate.EscalateScreen` as they arrive, and where typing an id
highlights the option it names (type-ahead). Subclasses say which dialog zone they are and how a typed id is matched.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from textual import events
from textual.widgets import OptionList

#: Real seconds after which a typed id starts afresh (type-ahead in the escalation dialog's lists).
TYPE_AHEAD_RESET = 1.0


class ListKeys:
    """What the escalation dialog's two lists share, as a mixin for a focusable widget: keys routed by
    :class:`~warroom.tui.room._escalate.EscalateScreen` as they arrive, focus selecting the list's dialog zone, and
    type-ahead (typing an id highlights the row it names).

    Subclasses set :attr:`ZONE` and implement :meth:`typed_index` (the row an id names, or None) and the
    ``highlighted`` row; :class:`KeyedList` is the option-list form (the step list), the evidence list
    (:class:`~warroom.tui.room._citelist.CiteList`) a scroll view that builds only the rows on screen.
    """

    #: The escalation dialog's zone this list is (one of ``escalate.ZONES``).
    ZONE = ""
    _typed = ""
    _typed_at = 0.0
    highlighted: int | None

    if TYPE_CHECKING:  # supplied by each list (declared here for mypy only)

        def typed_index(self, typed: str) -> int | None:
            """The row the typed id ``typed`` names, or None."""

    def on_key(self, event: events.Key) -> None:
        from warroom.tui.room._escalate import EscalateScreen

        screen = self.screen  # type: ignore[attr-defined]
        if isinstance(screen, EscalateScreen) and screen.route_key(event):
            event.stop()
            event.prevent_default()

    def on_focus(self) -> None:
        from warroom.tui.room._escalate import EscalateScreen

        screen = self.screen  # type: ignore[attr-defined]
        if isinstance(screen, EscalateScreen):
            screen.zone = self.ZONE

    def continues_id(self, char: str) -> bool:
        """True when ``char`` goes on with the id being typed (typed less than :data:`TYPE_AHEAD_RESET` ago) to one
        that names a row: then ``j`` and ``k`` are letters of it, not moves (an imported drill's event ids hold
        them: ``call_OvvEcj3Vwmo...``)."""
        if not self._typed or time.monotonic() - self._typed_at > TYPE_AHEAD_RESET:
            return False
        return self.typed_index(self._typed + char) is not None

    def type_ahead(self, char: str) -> None:
        """A printable character extends the typed id and highlights the row it names; a character that names
        nothing starts a new id (and rings the bell when that names nothing either)."""
        now = time.monotonic()
        typed = char if now - self._typed_at > TYPE_AHEAD_RESET else self._typed + char
        self._typed_at = now
        found = self.typed_index(typed)
        if found is None and typed != char:
            typed, found = char, self.typed_index(char)
        self._typed = typed
        if found is not None:
            self.highlighted = found
        else:
            self.app.bell()  # type: ignore[attr-defined]


class KeyedList(ListKeys, OptionList):
    """An option list of the escalation dialog, moved with the trace's keys; typing an id jumps to it.

    Subclasses set :attr:`ZONE` (the dialog zone focusing the list selects) and implement
    :meth:`~ListKeys.typed_index` (the option a typed id names, or None).
    """

    #: Keys handled as they arrive (in :meth:`EscalateScreen.route_key`, not as bindings, which would run only after
    #: the key bubbled up to the app: after keys typed behind it). Key -> (action name, argument).
    MOVES = {"down": ("move", 1), "j": ("move", 1), "up": ("move", -1), "k": ("move", -1),
             "home": ("move_to", 0), "end": ("move_to", -1)}

    def action_move(self, direction: int) -> None:
        """Move the highlight one option down (+1) or up (-1), stopping at the ends; from no highlight, down goes to
        the first option and up to the last."""
        self._typed = ""
        count = self.option_count
        if not count:
            return
        if self.highlighted is None:
            self.highlighted = 0 if direction > 0 else count - 1
        else:
            self.highlighted = min(max(self.highlighted + direction, 0), count - 1)

    def action_move_to(self, index: int) -> None:
        """Highlight the option at ``index`` (negative counts from the end)."""
        self._typed = ""
        if self.option_count:
            self.highlighted = index % self.option_count
