"""``warroom validate PATH...``: check drill files and report every problem as ``path:line:col: message``."""

from __future__ import annotations

from pathlib import Path

import click

from warroom.cli.common import format_option


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


@click.command("validate")
@click.argument(
    "paths",
    nargs=-1,
    required=True,
    type=click.Path(exists=True, path_type=Path),
    metavar="PATH...",
)
@format_option(
    "text: one 'path:line:col: message' line per problem, then a summary line. "
    "json: JSON Lines on stdout, one object per problem with keys path, line, column, message "
    "(nothing for a valid drill); the summary goes to stderr."
)
def validate(paths: tuple[Path, ...], fmt: str) -> None:
    """Check drill files: YAML syntax, the drill format's types and its rules (ids, references, times, deadline).

    PATH is a drill file or a folder; folders are searched recursively for *.yaml and *.yml files. Every problem in
    every file is reported (not just the first), each as path:line:col: message, with line and column counting
    from 1, followed by a summary such as "3 drills checked: 2 valid, 1 invalid (4 problems)".

    Exit status: 0 when every drill is valid, 1 when any is invalid, 2 on a usage error (no PATH, a PATH that
    does not exist, or folders without any drill file).
    """
    import json

    from warroom.core.library import find_drill_files
    from warroom.core.loader import DrillLoadError, Problem, load_drill

    files = find_drill_files(paths)
    if not files:
        shown = ", ".join(str(p) for p in paths)
        raise click.UsageError(f"no drill files (*.yaml, *.yml) found in {shown}")

    invalid = 0
    total_problems = 0
    for f in files:
        try:
            load_drill(f)
            problems: list[Problem] = []
        except DrillLoadError as e:
            problems = e.problems
        except Exception as e:  # a bug in warroom, not in the drill: still report it as a problem, never a traceback
            why = f"warroom could not check this file (internal error {type(e).__name__}: {e}); please report it"
            problems = [Problem(str(f), 1, 1, why)]
        if problems:
            invalid += 1
            total_problems += len(problems)
        for p in problems:
            if fmt == "json":
                click.echo(json.dumps(p.to_dict(), ensure_ascii=False))
            else:
                click.echo(str(p))

    valid = len(files) - invalid
    summary = f"{_plural(len(files), 'drill')} checked: {valid} valid, {invalid} invalid"
    if total_problems:
        summary += f" ({_plural(total_problems, 'problem')})"
    click.echo(summary, err=fmt == "json")
    raise SystemExit(1 if invalid else 0)
