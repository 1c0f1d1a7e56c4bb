"""Entry points that open the terminal UI: the picker (``warroom``) and one drill (``warroom run``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from warroom.core.settings import Settings
    from warroom.tui.services import DrillEntry


def launch(settings: Settings, *, start: DrillEntry | None = None, speed: float = 1.0) -> None:
    """Run the terminal UI until the trainee quits.

    Args:
        settings: trainee, data directory and extra drill folders.
        start: a loaded drill to open at its briefing (skipping the picker), or None for the picker.
        speed: the initial playback speed (drill seconds per real second).

    A drill left mid-play (ctrl+c, the terminal closed (SIGHUP), ``kill`` (SIGTERM)) is stored as an abandoned
    session, its quit at the drill time it was left.
    """
    from warroom.tui.app import WarroomApp
    from warroom.tui.services import Services

    services = Services(trainee=settings.trainee, data_dir=settings.data_dir, drill_dirs=settings.drill_dirs)
    app = WarroomApp(services, start=start, speed=speed, handle_signals=True)
    try:
        app.run()
    finally:
        app.close_open_session()
