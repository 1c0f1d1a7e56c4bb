"""``warroom tutorial``: the guided first drill (its briefing, the war room with lessons, then the debrief)."""

from __future__ import annotations

import click

from warroom.cli.common import data_dir_setting, pass_settings, trainee_setting
from warroom.core.settings import Settings
from warroom.core.text import plural
from warroom.tui.logic import LESSONS


def _help() -> str:
    """The command's help, naming the lessons as the code has them (their number, names and keys)."""
    names = [f"{lesson.name.lower()} ({lesson.key})" for lesson in LESSONS]
    lessons = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]
    return (
        "Play the tutorial: a short guided drill that teaches the war room's keys one lesson at a time, each prompt "
        "waiting for you (the drill clock is held meanwhile), and ends in a debrief.\n\n"
        f"Its {plural(len(LESSONS), 'lesson')}: {lessons}. Done exactly as they say, it scores 100.\n\n"
        "The session is stored as a tutorial: `warroom scores` lists it, the cohort statistics (`warroom scores "
        "summary`, `warroom report`) never count it. The drill picker (`warroom`) offers it too, first until you "
        "finish a drill."
    )


@click.command("tutorial", help=_help())
@trainee_setting
@data_dir_setting
@pass_settings
def tutorial(settings: Settings) -> None:
    """Play the tutorial (the help is :func:`_help`: it names the lessons from the code)."""
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
