"""``warroom run PATH_OR_ID``: open one drill (a file, or a drill id from the library) in the terminal UI."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from warroom.cli.common import (
    DrillParam,
    FiniteFloat,
    WholeNumber,
    data_dir_setting,
    drills_setting,
    mode_option,
    pass_settings,
    trainee_setting,
)
from warroom.core.load.limits import MAX_SEED
from warroom.core.settings import Settings
from warroom.core.text import PLAYBACK_SPEEDS, clean, exact_figure

if TYPE_CHECKING:
    from warroom.core.library import LoadedDrill
    from warroom.core.model import Drill

_SPEED_LIST = ", ".join(f"{s:g}" for s in PLAYBACK_SPEEDS)


def _speed(ctx: click.Context, param: click.Parameter, value: float) -> float:
    """``--speed`` must be one of the war room's speeds (+ and - step through the same list)."""
    if value not in PLAYBACK_SPEEDS:
        raise click.BadParameter(f"{exact_figure(value)} is not a speed the war room offers: use one of {_SPEED_LIST}")
    return value


@click.command("run")
@click.argument("path_or_id", type=DrillParam())
@drills_setting
@trainee_setting
@data_dir_setting
@mode_option
@click.option(
    "--speed",
    type=FiniteFloat(),
    default=1.0,
    show_default=True,
    callback=_speed,
    help=f"Initial playback speed, one of {_SPEED_LIST}: drill seconds per real second (+ and - step through the "
    "same speeds during the drill).",
)
@click.option(
    "--seed",
    type=WholeNumber(min=0, max=MAX_SEED),
    default=None,
    help="Play the session of this seed: its variant (a drill with variants) and, for a drill with a twin, its "
    "signal or noise trial (see `warroom scores` for a session's seed). Default: each session draws a seed, so a "
    "replay shows another variant. Not in assessment mode, whose sessions draw their seed unseen. For a drill with "
    "a twin the session is kept as a chosen trial: never counted in the cohort figures (`scores summary`, "
    "`report`); so is a seed of a drill with variants (it chooses the variant), twin or not.",
)
@click.option(
    "--as",
    "played_as",
    type=click.Choice(["signal", "noise"]),
    default=None,
    help="For authors, in practice: play a drill with a twin as a signal trial (its fault) or a noise trial (its "
    "healthy twin) instead of drawing it from the session's seed (docs/authoring.md, \"Twins: signal and noise "
    "trials\"). The session is kept as a chosen trial: never counted in the cohort figures, and a first attempt, so "
    "later sessions of the drill are replays. `--as signal` on a drill without a twin (its only trial) chooses "
    "nothing: that session is a drawn trial.",
)
@pass_settings
def run(
    settings: Settings, path_or_id: LoadedDrill, mode: str | None, speed: float, seed: int | None, played_as: str | None
) -> None:
    """Play one drill: its briefing, the war room, then the debrief (skips the drill picker).

    PATH_OR_ID is a drill file or the id of a bundled drill (or of one in a --drills folder; --drills, --trainee
    and --data-dir may be given before or after `run`). An unknown path or id, or a folder, is a usage error (exit
    status 2), and so are --seed for a drill without variants or a twin, --as noise for a drill without a twin,
    --as signal for an all-clear drill, and --as or --seed in assessment mode.

    A drill with a twin (its healthy run) plays each session as a signal trial (its fault) or a noise trial (its
    twin), drawn from the session's seed (25% noise); nothing before the debrief says which.

    A drill that cannot be loaded, or whose id differs from its file name (as `warroom validate` reports), is
    reported as path:line:col: message lines on stderr, with exit status 1.
    """
    from warroom.core.library import cross_file_problems
    from warroom.tui.logic import DrillEntry

    path, drill = path_or_id
    problems = cross_file_problems([path_or_id]).get(path, [])
    if problems:  # the same rule as validate and the picker: a drill is found by its file name
        for p in problems:
            click.echo(clean(p), err=True)
        raise SystemExit(1)

    from warroom.cli.common import check_store
    from warroom.tui.app import launch

    check_store(settings)  # a damaged store or an unusable data directory: a message and exit 1, not the UI
    root = click.get_current_context().find_root()
    mode = mode or root.params.get("mode") or "practice"  # `warroom --mode assessment run ID` too
    if mode == "assessment" and speed != 1.0:
        raise click.UsageError("--speed: assessment sessions play at 1x only")
    if seed is not None and mode == "assessment":  # a seed picks the variant and the trial: one known beforehand
        raise click.UsageError(
            "--seed: an assessment session draws its seed, unseen (a seed picks the variant and whether the session "
            "is a signal or a noise trial); --seed is for replaying a session in practice"
        )
    if seed is not None and drill.variants is None and drill.twin is None:  # ignored, and the session stores none
        raise click.UsageError(
            f"--seed: the drill {drill.id!r} has no variants (no `variants` section) and no twin, so it always plays "
            "as written"
        )
    _check_played_as(drill, played_as, mode)
    launch(settings, start=DrillEntry(path, drill), speed=speed, mode=mode, seed=seed, played_as=played_as)


def _check_played_as(drill: Drill, played_as: str | None, mode: str) -> None:
    """Refuse ``--as`` (a usage error) in assessment mode, and for a trial the drill cannot be played as."""
    if played_as is None:
        return
    if mode == "assessment":
        raise click.UsageError(
            "--as: an assessment session draws signal or noise from its seed, unseen; --as is for trying a drill in "
            "practice"
        )
    from warroom.core.model import PlayedAs
    from warroom.core.variants import can_play_as

    if PlayedAs(played_as) not in can_play_as(drill):
        why = "an all-clear drill has no fault" if drill.is_all_clear else "it has no twin (no `twin` section)"
        raise click.UsageError(
            f"--as {played_as}: the drill {drill.id!r} cannot be played as a {played_as} trial: {why}"
        )
