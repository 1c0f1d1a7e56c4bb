"""Entry points that open the terminal UI: the picker (``warroom``) and one drill (``warroom run``)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from warroom.core.settings import Settings
    from warroom.tui.logic import ActiveSet, DrillEntry


def color_environment(environ: Mapping[str, str]) -> dict[str, str]:
    """The environment variables to set before Textual is imported so colours follow the terminal and the trainee.

    ``NO_COLOR`` (https://no-color.org) and ``TERM=dumb`` (or ``unknown``) mean no colour: Textual then draws in
    monochrome (its ``NO_COLOR`` filter) and with the 16 standard colours at most (``TEXTUAL_COLOR_SYSTEM``), never
    24-bit colour, which Textual would otherwise fall back to when it detects no colour support. A
    ``TEXTUAL_COLOR_SYSTEM`` the user set is kept. Returns the variables to add (empty when nothing changes)."""
    changes: dict[str, str] = {}
    term = environ.get("TERM", "").strip().lower()
    no_color = "NO_COLOR" in environ
    if term in ("dumb", "unknown") and not no_color:
        changes["NO_COLOR"] = "1"
        no_color = True
    if no_color and "TEXTUAL_COLOR_SYSTEM" not in environ:
        changes["TEXTUAL_COLOR_SYSTEM"] = "standard"
    return changes


def launch(
    settings: Settings,
    *,
    start: DrillEntry | None = None,
    speed: float = 1.0,
    mode: str = "practice",
    drill_set: ActiveSet | None = None,
    seed: int | None = None,
    played_as: str | None = None,
) -> None:
    """Run the terminal UI until the trainee quits.

    Args:
        settings: trainee, data directory and extra drill folders.
        start: a loaded drill to open at its briefing (skipping the picker), or None for the picker.
        speed: the initial playback speed (drill seconds per real second); assessment sessions play at 1x.
        mode: ``practice`` or ``assessment`` (a drill set in assessment mode makes every session assessment).
        drill_set: the drill set to play (``warroom --set FILE``): the picker offers only its drills.
        seed: the variant seed of every session (``warroom run --seed N``); None: each session draws its own.
        played_as: ``"signal"`` or ``"noise"``: what every session of a drill with a twin plays as (``warroom run
            --as``); None: drawn from each session's seed.

    A drill left mid-play (ctrl+c, the terminal closed (SIGHUP), ``kill`` (SIGTERM)) is stored as an abandoned
    session, its quit at the drill time it was left. Exits with the app's return code (SystemExit) when the app
    failed. Colours follow ``NO_COLOR`` and ``TERM`` (see :func:`color_environment`). The picker keeps its cache in
    the cache directory (:func:`~warroom.core.settings.resolve_cache_dir`: ``$WARROOM_CACHE_DIR`` or the user's).
    """
    os.environ.update(color_environment(os.environ))  # before Textual reads its settings at import
    from warroom.core.settings import resolve_cache_dir
    from warroom.tui.app._app import WarroomApp
    from warroom.tui.logic import Services

    services = Services(
        trainee=settings.trainee,
        data_dir=settings.data_dir,
        drill_dirs=settings.drill_dirs,
        mode=mode,
        drill_set=drill_set,
        seed=seed,
        played_as=played_as,
        cache_dir=resolve_cache_dir(),
    )
    app = WarroomApp(services, start=start, speed=speed, handle_signals=True)
    try:
        app.run()
    finally:
        app.close_open_session()
        _say_exit_notes(app.exit_notes)
    if app.return_code:  # the app failed (its error is printed by Textual): never report success
        raise SystemExit(app.return_code)


def _say_exit_notes(notes: list[str]) -> None:
    """Write what the app could not show before it exited (:attr:`WarroomApp.exit_notes`) to stderr, one line each
    (cleaned of control characters); a terminal that is gone is ignored."""
    import sys

    from warroom.core.text import clean_line

    for note in notes:
        try:
            print(f"warroom: {clean_line(note)}", file=sys.stderr, flush=True)
        except (OSError, ValueError):
            return
