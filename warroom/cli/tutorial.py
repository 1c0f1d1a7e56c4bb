"""``warroom tutorial``: the guided first drill (its briefing, the war room with lessons, then the debrief)."""

from __future__ import annotations

import click

from warroom.cli.common import data_dir_setting, pass_settings, trainee_setting
from warroom.core.settings import Settings


@click.command("tutorial")
@trainee_setting
@data_dir_setting
@pass_settings
def tutorial(settings: Settings) -> None:
    """Play the tutorial: a short guided drill that teaches the war room's keys one at a time (pause, inspect,
    flag, escalate), each prompt waiting for you, and ends in a debrief.

    The session is stored as a tutorial: `warroom scores` lists it, the cohort statistics (`warroom scores summary`,
    `warroom report`) never count it. The drill picker (`warroom`) offers it too, first until you finish a drill.
    """
    from warroom.cli.common import check_store
    from warroom.core.text import clean
    from warroom.tui.app import launch
    from warroom.tui.logic import load_entry, tutorial_path

    entry = load_entry(tutorial_path())
    if not entry.ok:  # a broken installation: say what is wrong, never a traceback
        for problem in entry.problems:
            click.echo(clean(problem), err=True)
        raise SystemExit(1)
    check_store(settings)  # a damaged store or an unusable data directory: a message and exit 1, not the UI
    launch(settings, start=entry)
