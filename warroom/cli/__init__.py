"""The ``warroom`` command line.

Subcommands are loaded lazily (click's documented LazyGroup pattern): ``warroom --help`` and commands that need no
terminal UI never import Textual, and each command's module imports what it needs inside its function body, so
start-up stays fast. A command is listed once its module exists.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from typing import Any

import click

from warroom import __version__
from warroom.cli.common import (
    GivenPath,
    data_dir_option,
    drills_option,
    mode_option,
    resolved_settings,
    store_setting,
    trainee_option,
)

#: command name -> ("module:attribute" of its click command, its short help in ``warroom --help``). The short help
#: is the command's own (the first sentence of its docstring, or its ``short_help``), written here so that listing
#: the commands imports none of them; tests/cli/test_startup.py checks each one against the command's.
LAZY_COMMANDS: dict[str, tuple[str, str]] = {
    "validate": (
        "warroom.cli.author:validate",
        "Check drills: YAML syntax, the drill format's types and its rules (ids, references, times, deadline).",
    ),
    "schema": (
        "warroom.cli.author:schema",
        "Print the drill format's JSON Schema (draft-07), with a description on every field.",
    ),
    "migrate": (
        "warroom.cli.author:migrate",
        "Rewrite version-1 drill FILES as format version 2, comments and layout kept.",
    ),
    "check": (
        "warroom.cli.author:check",
        "Play each drill headless with scripted trainees and check that it is winnable and scores fairly.",
    ),
    "cost": (
        "warroom.cli.author:cost",
        "Show what DRILL's trace costs: by role, by model, by plan step, and against the flat loop.",
    ),
    "project": (
        "warroom.cli.author:project",
        "Project a silent failure into a healthy trace: write a fault drill and its twin.",
    ),
    "score": (
        "warroom.cli.score:score_command",
        "Score action logs (session journals or JSON Lines of actions) with the rules the war room uses.",
    ),
    "run": (
        "warroom.cli.run:run",
        "Play one drill: its briefing, the war room, then the debrief (skips the drill picker).",
    ),
    "new": (
        "warroom.cli.author:new",
        "Write ID.yaml: a commented skeleton drill that validates and passes `warroom check` as written.",
    ),
    "scores": (
        "warroom.cli.scores:scores",
        "Stored sessions: trainee, drill, when, outcome, score, time to detect, damage, false escalations.",
    ),
    "review": (
        "warroom.cli.review:review",
        "Review a stored session: the whole trace with the answer key, the trainee's flags and escalations where "
        "they happened, and the scorecard beside it.",
    ),
    "report": (
        "warroom.cli.report:report",
        "Write the facilitator's report: one HTML page with each trainee in hit-rate vs false-alarm-rate space, "
        "per-drill difficulty and discrimination, time-to-detect distributions and the distractors that pulled "
        "escalations, and the tables of `warroom scores summary`.",
    ),
    "import": ("warroom.cli.imports.commands:import_group", "Turn real agent traces into drills."),
    "store": (
        "warroom.cli.store_cmd:store_group",
        "The results store: which back end (SQLite or PostgreSQL), its schema version, how many sessions it holds.",
    ),
    "serve": (
        "warroom.cli.serve:serve",
        "Serve the war room to browsers: sign-in, the drill picker, the war room, the debrief.",
    ),
    "annotate": (
        "warroom.cli.author:annotate",
        "Mark up FILE's answer key in the war room's author mode: replay and scrub the trace, mark the fault's "
        "origin, the evidence, distractors, damage and the deadline, write the debrief, the habit and the re-plan, "
        "set the title, difficulty and briefing, and save into FILE (its comments and layout kept); then see what "
        "`warroom validate` and `warroom check` say of it.",
    ),
    "tutorial": (
        "warroom.cli.tutorial:tutorial",
        "Play the tutorial: a short guided drill that teaches the war room's keys one lesson at a time, each "
        "prompt waiting for you (the drill clock is held meanwhile), and ends in a debrief.",
    ),
}


class LazyGroup(click.Group):
    """A click group whose subcommands are imported only when used (click's documented "Lazily Loading
    Subcommands" pattern). Listing them (``warroom --help``) imports none: each one's short help is taken from
    :data:`LAZY_COMMANDS` ("Further Deferring Imports" in click's documentation), so ``warroom --help`` and every
    command pay only for the modules they use."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        """Click's ``main``, but a write to standard output or error that fails (a full disk, ``> /dev/full``) ends
        the command with one line saying so, never a traceback (:func:`warroom.cli.common.exit_on_lost_output`), and
        so does a :class:`~warroom.errors.WarroomError` no command turned into a message of its own (the terminal UI
        started without a terminal: ``warroom review ID < /dev/null``), with its exit status."""
        from warroom.errors import WarroomError

        try:
            return super().main(*args, **kwargs)
        except WarroomError as exc:  # one a command did not turn into its own message: said, never a traceback
            from warroom.cli.common import failure

            failure(exc).show()
            sys.exit(exc.exit_code)
        except OSError as exc:
            from warroom.cli.common import exit_on_lost_output

            exit_on_lost_output(exc)
            raise

    def list_commands(self, ctx: click.Context) -> list[str]:
        names = [n for n, (target, _) in LAZY_COMMANDS.items() if importlib.util.find_spec(target.split(":")[0])]
        return sorted(set(super().list_commands(ctx)) | set(names))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        entry = LAZY_COMMANDS.get(cmd_name)
        if entry is None:
            return super().get_command(ctx, cmd_name)
        module_name, attr = entry[0].split(":")
        if importlib.util.find_spec(module_name) is None:
            return None
        command = getattr(importlib.import_module(module_name), attr)
        if not isinstance(command, click.Command):
            raise TypeError(f"{entry[0]} is not a click command")
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The "Commands" section of the help: every command with its short help, as click writes it (cut to the
        terminal's width), without importing the commands' modules."""
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(n) for n in names)
        rows = []
        for name in names:
            entry = LAZY_COMMANDS.get(name)
            if entry is None:
                command = self.get_command(ctx, name)
                if command is None or command.hidden:
                    continue
                rows.append((name, command.get_short_help_str(limit)))
            else:
                # a stand-in command with the same help: click shortens it exactly as it would the real one's
                rows.append((name, click.Command(name, help=entry[1]).get_short_help_str(limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)


def _printable_streams() -> None:
    """Standard output and error in an encoding that cannot write every character (a terminal set to Latin-1,
    ``LANG=de_DE.ISO-8859-1`` or ``PYTHONIOENCODING=latin-1``) write what it cannot as escapes (``\\u65e5``) instead
    of ending the command in a ``UnicodeEncodeError`` traceback at the first trainee name, drill title or ``d′``
    it cannot write. (click already writes UTF-8 to a stream it finds set to ASCII.)"""
    for stream in (sys.stdout, sys.stderr):
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("_", "-")
        if not encoding.startswith("utf") and getattr(stream, "errors", None) == "strict":
            reconfigure = getattr(stream, "reconfigure", None)
            if reconfigure is not None:
                reconfigure(errors="backslashreplace")


def _plain_terminal_size() -> None:
    """``$COLUMNS`` and ``$LINES`` that are not a plain number (ASCII digits, at most 6) are dropped: Rich and the
    tables read them with ``str.isdigit``, which takes ``²`` (and 5,000 digits), then ``int`` refuses it, a
    traceback in every command that prints a table. The terminal's own size is used instead."""
    import os

    for name in ("COLUMNS", "LINES"):
        value = os.environ.get(name)
        if value is not None and not (value.isascii() and value.isdigit() and len(value) <= 6):
            del os.environ[name]


@click.group(cls=LazyGroup, invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", "-V", prog_name="warroom")
@drills_option
@trainee_option
@data_dir_option
@store_setting
@mode_option
@click.option(
    "--set",
    "set_file",
    type=GivenPath(dir_okay=False, path_type=Path),
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
    mode: str | None,
    set_file: Path | None,
) -> None:
    """War Room: incident drills for planner-executor AI agents.

    With no command, opens the drill picker in the terminal UI: pick a drill, read the briefing, watch the agent's
    trace replay and escalate to the planner, naming the plan step at fault, before the cascade does its damage.
    """
    _printable_streams()
    _plain_terminal_size()
    settings = resolved_settings(trainee=trainee, data_dir=data_dir, drill_dirs=drill_dirs)
    ctx.obj = settings
    if ctx.invoked_subcommand is None:
        from warroom.cli.common import check_store, load_set_option
        from warroom.tui.app import launch

        drill_set = load_set_option(set_file, settings, mode) if set_file is not None else None
        check_store(settings)  # a damaged store or an unusable data directory: a message and exit 1, not the UI
        launch(settings, mode=mode or "practice", drill_set=drill_set)
    elif set_file is not None:
        raise click.UsageError("--set opens the drill picker on a drill set: give it without a command")
    elif mode is not None and ctx.invoked_subcommand != "run":  # (the tutorial and the other commands have none)
        raise click.UsageError(
            f"--mode applies to playing a drill: give it without a command (`warroom --mode {mode}`, the picker) "
            f"or with `run` (`warroom run --mode {mode} DRILL`); the tutorial has a mode of its own, `tutorial`"
        )
