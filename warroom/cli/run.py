"""``warroom run PATH_OR_ID``: open one drill (a file, or a drill id from the library) in the terminal UI."""

from __future__ import annotations

from pathlib import Path

import click

from warroom.cli.common import data_dir_option, drills_option, settings_from, trainee_option
from warroom.core.format import PLAYBACK_SPEEDS, clean

_SPEED_LIST = ", ".join(f"{s:g}" for s in PLAYBACK_SPEEDS)


def _speed(ctx: click.Context, param: click.Parameter, value: float) -> float:
    """``--speed`` must be one of the war room's speeds (+ and - step through the same list)."""
    if value not in PLAYBACK_SPEEDS:
        raise click.BadParameter(f"{value:g} is not a speed the war room offers: use one of {_SPEED_LIST}")
    return value


@click.command("run")
@click.argument("path_or_id")
@drills_option
@trainee_option
@data_dir_option
@click.option(
    "--speed",
    type=float,
    default=1.0,
    show_default=True,
    callback=_speed,
    help=f"Initial playback speed, one of {_SPEED_LIST}: drill seconds per real second (+ and - step through the "
    "same speeds during the drill).",
)
@click.option(
    "--seed",
    type=click.IntRange(min=0),
    default=None,
    help="Play the variant of this seed (a drill with variants; see `warroom scores` for a session's seed). "
    "Default: each session draws a seed, so a replay shows another variant.",
)
@click.pass_context
def run(
    ctx: click.Context,
    path_or_id: str,
    drill_dirs: tuple[Path, ...],
    trainee: str | None,
    data_dir: Path | None,
    speed: float,
    seed: int | None,
) -> None:
    """Play one drill: its briefing, the war room, then the debrief (skips the drill picker).

    PATH_OR_ID is a drill file or the id of a bundled drill (or of one in a --drills folder; --drills, --trainee
    and --data-dir may be given before or after `run`). An unknown path or id, or a folder, is a usage error (exit
    status 2). A drill that cannot be loaded, or whose id differs from its file name (as `warroom validate`
    reports), is reported as path:line:col: message lines on stderr, with exit status 1.
    """
    from warroom.core.library import cross_file_problems, resolve_drill
    from warroom.tui.services import DrillEntry, DrillProblem, load_drill

    settings = settings_from(ctx, trainee=trainee, data_dir=data_dir, drill_dirs=drill_dirs)
    try:
        path = resolve_drill(path_or_id, settings.drill_dirs)
    except FileNotFoundError as exc:  # an unknown drill path or id, or a folder, is a usage error (exit status 2)
        raise click.BadParameter(clean(exc.args[0] if exc.args else exc), param_hint="PATH_OR_ID") from None
    try:
        drill = load_drill(path)
    except DrillProblem as exc:
        for line in exc.problems:
            click.echo(clean(line), err=True)
        ctx.exit(1)
    problems = cross_file_problems([(path, drill)]).get(path, [])
    if problems:  # the same rule as validate and the picker: a drill is found by its file name
        for p in problems:
            click.echo(clean(p), err=True)
        ctx.exit(1)

    from warroom.cli.common import check_store
    from warroom.tui.launch import launch

    check_store(settings)  # a damaged store or an unusable data directory: a message and exit 1, not the UI
    launch(settings, start=DrillEntry(path, drill), speed=speed, seed=seed)
