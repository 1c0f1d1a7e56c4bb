"""Messages a screen posts to move the trainee on: picker → briefing → war room → debrief.

Screens never import the app (:mod:`warroom.tui.app`): they post one of these messages (it bubbles from the screen
to the app, Textual's message pattern) and :class:`~warroom.tui.app.WarroomApp` handles it by replacing the current
screen. So the app imports its screens and no screen imports the app (import-linter contracts in pyproject.toml
keep it so; see docs/architecture.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.message import Message

if TYPE_CHECKING:
    from warroom.core.play import Replay
    from warroom.tui.logic import DrillEntry


class ShowPicker(Message):
    """Open the drill picker (it reloads the drills and the best scores)."""


class ShowBriefing(Message):
    """Open the briefing of ``entry`` (a loaded drill)."""

    def __init__(self, entry: DrillEntry) -> None:
        super().__init__()
        self.entry = entry


class StartDrill(Message):
    """Start a session of ``entry`` (a loaded drill) and open the war room."""

    def __init__(self, entry: DrillEntry) -> None:
        super().__init__()
        self.entry = entry


class ShowDebrief(Message):
    """Open the debrief of a finished drill: its ``replay``, the ``scorecard`` the scoring function gave and a
    ``notice`` for its first line."""

    def __init__(self, entry: DrillEntry, replay: Replay, scorecard: Any, notice: str = "") -> None:
        super().__init__()
        self.entry = entry
        self.replay = replay
        self.scorecard = scorecard
        #: What the debrief says on its first line ("" for nothing: the tutorial's "Tutorial done").
        self.notice = notice


class LeaveDrill(Message):
    """The trainee quit a drill (already stored as abandoned): back to the picker if they came from it, else exit."""
