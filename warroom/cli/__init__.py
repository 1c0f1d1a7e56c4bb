"""The ``warroom`` command line.

Subcommands are loaded lazily (click's documented LazyGroup pattern): ``warroom --help`` and commands that need no
terminal UI never import Textual, and each command's module imports what it needs inside its function body, so
start-up stays fast. A command is listed once its module exists.
"""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path

import click

from warroom import __version__
from warroom.cli.common import (
    data_dir_option,
    drills_option,
    mode_option,
    resolved_settings,
    store_option,
    trainee_option,
    use_store,
)

#: command name -> "module:attribute" of its click command.
LAZY_COMMANDS: dict[str, str] = {
    "validate": "warroom.cli.validate:validate",
    "schema": "warroom.cli.schema:schema",
    "migrate": "warroom.cli.migrate:migrate",
    "check": "warroom.cli.check:check",
    "cost": "warroom.cli.cost:cost",
    "run": "warroom.cli.run:run",
    "new": "warroom.cli.new:new",
    "scores": "warroom.cli.scores:scores",
    "review": "warroom.cli.review:review",
    "report": "warroom.cli.report:report",
    "import": "warroom.cli.import_cmd:import_group",
    "store": "warroom.cli.store_cmd:store_group",
    "serve": "warroom.cli.serve:serve",
    "annotate": "warroom.cli.annotate:annotate",
    "tutorial": "warroom.cli.tutorial:tutorial",
}


class LazyGroup(click.Group):
    """A click group whose subcommands are imported only when used or listed."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        names = [n for n, target in LAZY_COMMANDS.items() if importlib.util.find_spec(target.split(":")[0])]
        return sorted(set(super().list_commands(ctx)) | set(names))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = LAZY_COMMANDS.get(cmd_name)
        if target is None:
            return super().get_command(ctx, cmd_name)
        module_name, attr = target.split(":")
        if importlib.util.find_spec(module_name) is None:
            return None
        command: click.Command = getattr(importlib.import_module(module_name), attr)
        return command


@click.group(cls=LazyGroup, invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", "-V", prog_name="warroom")
@drills_option
@trainee_option
@data_dir_option
@store_option
@mode_option
@click.option(
    "--set",
    "set_file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Play a drill set: the picker offers only its drills, in its order, with your progress; the set's mode and "
    "attempts apply and results carry its id (docs/drill-sets.md).",
)
@click.pass_context
def main(
    ctx: click.Context,
    drill_dirs: tuple[Path, ...],
    trainee: str | None,
    data_dir: Path | None,
    store_url: str | None,
    mode: str | None,
    set_file: Path | None,
) -> None:
    """War Room: incident drills for planner-executor AI agents.

    With no command, opens the drill picker in the terminal UI: pick a drill, read the briefing, watch the agent's
    trace replay and escalate to the planner, naming the plan step at fault, before the cascade does its damage.
    """
    use_store(store_url)  # every part of this process reads the store URL from $WARROOM_STORE
    settings = resolved_settings(trainee=trainee, data_dir=data_dir, drill_dirs=drill_dirs)
    ctx.obj = settings
    if ctx.invoked_subcommand is None:
        from warroom.cli.common import check_store, load_set_option
        from warroom.tui.launch import launch

        drill_set = load_set_option(set_file, settings) if set_file is not None else None
        check_store(settings)  # a damaged store or an unusable data directory: a message and exit 1, not the UI
        launch(settings, mode=mode or "practice", drill_set=drill_set)
    elif set_file is not None:
        raise click.UsageError("--set opens the drill picker on a drill set: give it without a command")
