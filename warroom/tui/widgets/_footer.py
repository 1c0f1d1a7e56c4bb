"""Textual's Footer, rebuilt only when the keys it shows change: the footer of every screen."""

from __future__ import annotations

from typing import Any

from textual.screen import Screen
from textual.widgets import Footer


class KeyFooter(Footer):
    """Textual's Footer, rebuilt only when the keys it shows change.

    Textual's Footer recomposes all its keys (new widgets, styled again: several milliseconds) whenever the
    screen's active bindings may have changed, e.g. on every focus change; in the war room that is every ``enter``
    (focus to the inspector) and every ``space`` (pause becomes resume). This one compares what it would show (key,
    action, description, enabled) with what it shows, and rebuilds only when they differ.
    """

    _shown: tuple[tuple[str, str, str, bool], ...] | None = None

    def bindings_changed(self, screen: Screen[Any]) -> None:
        shown = tuple(
            (binding.key, binding.action, binding.description, enabled)
            for _node, binding, enabled, _tooltip in screen.active_bindings.values()
            if binding.show
        )
        if shown == self._shown:
            return
        if screen.app.app_focus:  # Textual's Footer waits for the app to have the focus again before it rebuilds
            self._shown = shown
        super().bindings_changed(screen)
