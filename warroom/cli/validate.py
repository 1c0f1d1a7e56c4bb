"""``warroom validate PATH_OR_ID...``: check drill files and report every problem as ``path:line:col: message``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from warroom.cli.common import format_option
from warroom.core.format import clean


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def drill_files_of(ctx: click.Context, names: tuple[str, ...]) -> list[Path]:
    """The drill files that ``warroom validate`` / ``warroom check`` arguments name (files, folders or drill ids).

    Drill ids are looked up in the root command's ``--drills`` folders and the bundled library. Raises a click
    usage error (exit status 2) for a name that is none of these, or when the folders hold no drill file.
    """
    from warroom.core.library import drill_paths, find_drill_files

    dirs = getattr(ctx.find_root().obj, "drill_dirs", ())
    try:
        paths = drill_paths(names, dirs)
    except FileNotFoundError as exc:
        raise click.BadParameter(clean(exc), param_hint="PATH_OR_ID") from None
    files = find_drill_files(paths)
    if not files:
        raise click.UsageError(clean(f"no drill files (*.yaml, *.yml) found in {', '.join(str(p) for p in paths)}"))
    return files


@click.command("validate")
@click.argument("names", nargs=-1, required=True, metavar="PATH_OR_ID...")
@format_option(
    "text: one 'path:line:col: message' line per problem, then a summary line. "
    "json: JSON Lines on stdout, one object per problem with keys path, line, column, message "
    "(nothing for a valid drill); the summary goes to stderr."
)
@click.pass_context
def validate(ctx: click.Context, names: tuple[str, ...], fmt: str) -> None:
    """Check drills: YAML syntax, the drill format's types and its rules (ids, references, times, deadline).

    PATH_OR_ID is a drill file, a folder (searched recursively for *.yaml and *.yml files), or the id of a bundled
    drill or of one in a --drills folder given to warroom (`warroom --drills DIR validate ID`). Every problem in
    every file is reported (not just the first), each as path:line:col: message, with line and column counting
    from 1, followed by a summary such as "3 drills checked: 2 valid, 1 invalid (4 problems)". When a value has
    a type problem, every rule that can run on the rest still runs; a rule that needs that value is listed after
    the file's problems as "path: not checked until the problem on line N is fixed: RULE" (not counted).

    Across the files checked together: a drill's id must equal its file name (without .yaml), and no two drills
    may share an id.

    Exit status: 0 when every drill is valid, 1 when any is invalid, 2 on a usage error (no PATH_OR_ID, a name
    that is neither a file, a folder nor a drill id, or folders without any drill file).
    """
    import json

    from warroom.core.library import cross_file_problems
    from warroom.core.loader import DrillLoadError, Problem, load_drill

    files = drill_files_of(ctx, names)
    problems_of: dict[Path, list[Problem]] = {}
    notes_of: dict[Path, list[str]] = {}
    loaded: list[tuple[Path, Any]] = []
    for f in files:
        try:
            loaded.append((f, load_drill(f)))
            problems_of[f] = []
        except DrillLoadError as e:
            problems_of[f] = list(e.problems)
            notes_of[f] = e.blocked
        except Exception as e:  # a bug in warroom, not in the drill: still report it as a problem, never a traceback
            why = f"warroom could not check this file (internal error {type(e).__name__}: {e}); please report it"
            problems_of[f] = [Problem(str(f), 1, 1, why)]
    for f, extra in cross_file_problems(loaded).items():
        problems_of[f] = sorted([*problems_of[f], *extra], key=lambda p: (p.line, p.column))

    invalid = 0
    total_problems = 0
    for f in files:
        problems = problems_of[f]
        if problems:
            invalid += 1
            total_problems += len(problems)
        for p in problems:
            if fmt == "json":  # ASCII JSON: every control character (C1 too) is a \u escape
                click.echo(json.dumps(p.to_dict()))
            else:  # drill text in the message (a quoted value) or the path: control characters shown as \xNN
                click.echo(clean(p))
        for note in notes_of.get(f, ()):  # rules that wait for a problem above: not counted, on stderr for json
            click.echo(clean(note), err=fmt == "json")

    valid = len(files) - invalid
    summary = f"{_plural(len(files), 'drill')} checked: {valid} valid, {invalid} invalid"
    if total_problems:
        summary += f" ({_plural(total_problems, 'problem')})"
    click.echo(summary, err=fmt == "json")
    raise SystemExit(1 if invalid else 0)
