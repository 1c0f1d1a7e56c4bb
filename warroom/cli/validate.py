"""``warroom validate PATH_OR_ID...``: check drill files and report every problem as ``path:line:col: message``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from warroom.cli.common import drills_option, format_option
from warroom.core.format import clean


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def drill_files_of(
    ctx: click.Context, names: tuple[str, ...], extra_dirs: tuple[Path, ...] = ()
) -> tuple[list[Path], int]:
    """The drill files that ``warroom validate`` / ``warroom check`` arguments name (files, folders or drill ids),
    and how many folders under them could not be read.

    Drill ids are looked up in the ``--drills`` folders (the root command's, then ``extra_dirs``, the command's
    own) and the bundled library. A sub-folder that
    cannot be listed is reported on stderr (``folder: cannot read this folder (permission denied) ...``); the
    command must then fail (exit status 1). Raises a click usage error (exit status 2) for a name that is none of
    these, or when the folders hold no drill file.
    """
    from warroom.cli.common import drill_dirs_of
    from warroom.core.library import drill_paths, find_drill_files

    dirs = drill_dirs_of(ctx, extra_dirs)
    try:
        paths = drill_paths(names, dirs)
    except FileNotFoundError as exc:
        raise click.BadParameter(clean(exc), param_hint="PATH_OR_ID") from None
    errors: list[OSError] = []
    files = find_drill_files(paths, errors=errors)
    for err in errors:
        click.echo(clean(folder_problem(err)), err=True)
    if not files:
        raise click.UsageError(clean(f"no drill files (*.yaml, *.yml) found in {', '.join(str(p) for p in paths)}"))
    return files, len(errors)


def hint_warnings(path: Path, drill: Any) -> list[Any]:
    """``path:line:col: warning:`` problems for briefing text that hints at the answer
    (:func:`warroom.core.hygiene.briefing_hints`), each at the field that hints."""
    from warroom.core.hygiene import briefing_hints
    from warroom.core.loader import Problem, position_of

    out = []
    for hint in briefing_hints(drill):
        line, column = position_of(path, hint.loc)
        out.append(Problem(str(path), line, column, hint.message, "warning"))
    return out


def folder_problem(exc: OSError) -> str:
    """``folder: cannot read this folder (permission denied); the drills in it were not checked`` for a folder
    that could not be listed."""
    why = (exc.strerror or str(exc)).lower() if not isinstance(exc, PermissionError) else "permission denied"
    return f"{exc.filename}: cannot read this folder ({why}); the drills in it were not checked"


@click.command("validate")
@click.argument("names", nargs=-1, required=True, metavar="PATH_OR_ID...")
@format_option(
    "text: one 'path:line:col: message' line per problem, then a summary line. "
    "json: JSON Lines on stdout, one object per problem or warning with keys path, line, column, severity "
    "(error or warning), message (nothing for a valid drill without warnings); the summary goes to stderr."
)
@drills_option
@click.pass_context
def validate(ctx: click.Context, names: tuple[str, ...], fmt: str, drill_dirs: tuple[Path, ...]) -> None:
    """Check drills: YAML syntax, the drill format's types and its rules (ids, references, times, deadline).

    PATH_OR_ID is a drill file, a folder (searched recursively for *.yaml and *.yml files), or the id of a bundled drill
    or of one in a --drills folder (`warroom --drills DIR validate ID` or `warroom validate --drills DIR ID`). Every
    problem in every file is reported (not just the first), each as path:line:col: message, with line and column
    counting from 1, followed by a summary such as "3 drills checked: 2 valid, 1 invalid (4 problems)". When a value has
    a type problem, every rule that can run on the rest still runs; a rule that needs that value is listed after the
    file's problems as "path: not checked until the problem on line N is fixed: RULE" (not counted).

    Warnings (path:line:col: warning: message) flag what loads but may not say what was meant: an unquoted
    value other YAML readers read differently (no, 1.10, 12:30), text cut short by a ` #` comment, a briefing or
    domain tag that hints at the answer (says when to escalate, names a fault kind or the damage unit, says
    whether there is a fault). They do not change the exit status.

    Across the files checked together: a drill's id must equal its file name (without .yaml), and no two drills
    may share an id.

    A file that is not a regular file (a FIFO, a device) is a problem, never read; a folder that cannot be read
    is reported on stderr and fails the command.

    Exit status: 0 when every drill is valid, 1 when any is invalid or a folder could not be read, 2 on a usage
    error (no PATH_OR_ID, a name that is neither a file, a folder nor a drill id, or folders without any drill file).
    """
    import json

    from warroom.core.library import cross_file_problems
    from warroom.core.loader import DrillLoadError, Problem, load_drill_with_warnings

    files, unreadable = drill_files_of(ctx, names, drill_dirs)
    problems_of: dict[Path, list[Problem]] = {}
    warnings_of: dict[Path, list[Problem]] = {}
    notes_of: dict[Path, list[str]] = {}
    loaded: list[tuple[Path, Any]] = []
    for f in files:
        try:
            drill, warnings_of[f] = load_drill_with_warnings(f)
            warnings_of[f] += hint_warnings(f, drill)
            loaded.append((f, drill))
            problems_of[f] = []
        except DrillLoadError as e:
            problems_of[f] = list(e.problems)
            warnings_of[f] = list(e.warnings)
            notes_of[f] = e.blocked
        except Exception as e:  # a bug in warroom, not in the drill: still report it as a problem, never a traceback
            why = f"warroom could not check this file (internal error {type(e).__name__}: {e}); please report it"
            problems_of[f] = [Problem(str(f), 1, 1, why)]
    for f, extra in cross_file_problems(loaded).items():
        problems_of[f] = sorted([*problems_of[f], *extra], key=lambda p: (p.line, p.column))

    invalid = 0
    total_problems = 0
    total_warnings = 0
    for f in files:
        problems = problems_of[f]
        if problems:
            invalid += 1
            total_problems += len(problems)
        total_warnings += len(warnings_of.get(f, ()))
        for p in sorted([*problems, *warnings_of.get(f, ())], key=lambda p: (p.line, p.column)):
            if fmt == "json":  # ASCII JSON: every control character (C1 too) is a \u escape
                click.echo(json.dumps(p.to_dict()))
            else:  # drill text in the message (a quoted value) or the path: control characters shown as \xNN
                click.echo(clean(p))
        for note in notes_of.get(f, ()):  # rules that wait for a problem above: not counted, on stderr for json
            click.echo(clean(note), err=fmt == "json")

    valid = len(files) - invalid
    summary = f"{_plural(len(files), 'drill')} checked: {valid} valid, {invalid} invalid"
    counts = [_plural(n, word) for n, word in ((total_problems, "problem"), (total_warnings, "warning")) if n]
    if counts:
        summary += f" ({', '.join(counts)})"
    if unreadable:
        summary += f"; {_plural(unreadable, 'folder')} could not be read (above)"
    click.echo(summary, err=fmt == "json")
    raise SystemExit(1 if invalid or unreadable else 0)
