"""The Textual terminal UI: the drill picker, briefing, war room and debrief (see :mod:`warroom.tui.app`).

Nothing in :mod:`warroom.core` imports this package; the UI is a thin view over :class:`warroom.core.play.Replay`.
"""
