"""``warroom validate PATH_OR_ID...``: check drill files and report every problem as ``path:line:col: message``."""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

import click

from warroom.cli.common import (
    DrillParam,
    drill_files_of,
    drills_setting,
    file_progress,
    format_option,
    settings_of,
)
from warroom.core.text import clean, plural


def _set_problems(path: Path, drill_dirs: tuple[Path, ...]) -> tuple[list[Any], list[Any]]:
    """The problems of a drill set file (its own, its format's and those of the drills it names, all at once) and
    its warnings (a practice set's drills of one healthy run)."""
    from warroom.core.library import drill_set_problems

    found = drill_set_problems(path, drill_dirs, warnings=True)
    return [p for p in found if p.severity != "warning"], [p for p in found if p.severity == "warning"]


def _load_all(
    files: list[Path], drill_dirs: tuple[Path, ...], aliases: dict[Path, Path]
) -> tuple[dict[Path, list[Any]], dict[Path, list[Any]], dict[Path, list[str]], list[Path]]:
    """Load every file: its problems (with the rules across the files: an id that differs from its file name, an id
    two files share), its warnings, and the notes on rules that wait for a problem to be fixed, each by path; and
    the drill set files among them, checked as sets (their drills found in ``drill_dirs``, then the bundled
    library). A file's other names (``aliases``: a symbolic link to it) are loaded once, with it; each is checked
    against the drill's id (``warroom run OTHER`` plays the drill by that name)."""
    from warroom.core.library import cross_file_problems
    from warroom.core.load import is_drill_set_file

    sets = [f for f in files if is_drill_set_file(f)]

    problems_of: dict[Path, list[Any]] = {}
    warnings_of: dict[Path, list[Any]] = {}
    notes_of: dict[Path, list[str]] = {}
    loaded: list[tuple[Path, Any]] = []
    with file_progress(len(files), "validating") as advance:
        for f in files:
            _load_one(f, f in sets, drill_dirs, (problems_of, warnings_of, notes_of), loaded)
            advance()
    for f, extra in cross_file_problems(loaded).items():
        problems_of[f] = sorted([*problems_of[f], *extra], key=lambda p: (p.line, p.column))
    ids = dict(loaded)
    for alias, f in aliases.items():
        drill = ids.get(f)
        problems_of[alias] = [] if drill is None else cross_file_problems([(alias, drill)]).get(alias, [])
    return problems_of, warnings_of, notes_of, sets


def _with_aliases(files: list[Path], aliases: dict[Path, Path]) -> list[Path]:
    """``files`` with each one's other names (``aliases``) after it, in the order they were found."""
    after: dict[Path, list[Path]] = {}
    for alias, f in aliases.items():
        after.setdefault(f, []).append(alias)
    return [name for f in files for name in (f, *after.get(f, ()))]


def _load_one(
    f: Path, is_set: bool, drill_dirs: tuple[Path, ...], found: tuple[dict[Path, Any], ...], loaded: list[Any]
) -> None:
    """Load the file ``f`` for :func:`_load_all`: its problems, warnings and notes go into the three dicts of
    ``found``, and ``(f, drill)`` onto ``loaded`` when it loads."""
    from warroom.core.load import DrillLoadError, Problem, drill_advice, load_drill_with_warnings

    problems_of, warnings_of, notes_of = found
    if is_set:
        problems_of[f], warnings_of[f] = _set_problems(f, drill_dirs)
        return
    try:
        drill, warnings_of[f] = load_drill_with_warnings(f)
        warnings_of[f] += drill_advice(f, drill)
        # the rules across files read the id only: a folder of thousands of drills is checked in the memory of
        # one drill, not of all of them held until the end (2,000 drills: 315 MB)
        loaded.append((f, _IdOnly(drill.id)))
        problems_of[f] = []
    except DrillLoadError as e:
        problems_of[f] = list(e.problems)
        warnings_of[f] = list(e.warnings)
        notes_of[f] = e.blocked
    except Exception as e:  # a bug in warroom, not in the drill: still report it as a problem, never a traceback
        why = f"warroom could not check this file (internal error {type(e).__name__}: {e}); please report it"
        problems_of[f] = [Problem(str(f), 1, 1, why)]


class _IdOnly(NamedTuple):
    """What :func:`warroom.core.library.cross_file_problems` reads of a loaded drill: its id."""

    id: str


@click.command("validate")
@click.argument("names", nargs=-1, required=True, metavar="PATH_OR_ID...", type=DrillParam(folders=True))
@format_option(
    "text: one 'path:line:col: message' line per problem, then a summary line. "
    "json: JSON Lines on stdout, one object per problem or warning with keys path, line, column, severity "
    "(error or warning), message (nothing for a valid drill without warnings); the summary goes to stderr."
)
@click.option("--all-warnings", "all_warnings", is_flag=True,
              help="List every warning on its own line (by default more than 3 warnings of one rule in a file are "
                   "one line: their count and first places).")
@drills_setting
def validate(names: tuple[Path, ...], fmt: str, all_warnings: bool) -> None:
    """Check drills: YAML syntax, the drill format's types and its rules (ids, references, times, deadline).

    PATH_OR_ID is a drill file, a folder (searched recursively for *.yaml and *.yml files), or the id of a bundled drill
    or of one in a --drills folder (`warroom --drills DIR validate ID` or `warroom validate --drills DIR ID`). Every
    problem in every file is reported (not just the first), each as path:line:col: message, with line and column
    counting from 1, followed by a summary such as "3 drills checked: 2 valid, 1 invalid (4 problems)". When a value has
    a type problem, every rule that can run on the rest still runs; a rule that needs that value is listed after the
    file's problems as "path: not checked until the problem on line N is fixed: RULE" (or "... until the problems
    above are fixed: RULE" for a rule that needs the whole drill; not counted).

    Warnings (path:line:col: warning: message) flag what loads but may not say what was meant: an unquoted
    value other YAML readers read differently (no, 1.10, 12:30), text cut short by a ` #` comment, a briefing or
    domain tag that hints at the answer (says when to escalate, names a fault kind or the damage unit, says
    whether there is a fault), a twin that changes none of the events that show the fault or replaces one with the
    same content. They do not change the exit status. Each falls under a rule (yaml-data-number, comment-cut,
    briefing-hint, ...): more than 3 warnings of one rule in a file are one line, at the first one's place, with
    their count and the next places ("529 warnings of one kind (yaml-data-number), the first: ...; also at 41:19,
    42:19, 43:19 and 525 more"), so the others are not buried; --all-warnings lists each. JSON Lines always has
    every warning, with its "rule".

    A drill with a twin (its healthy run, played as a noise trial; docs/authoring.md, "Twins: signal and noise
    trials") is checked twice: as written, and its twin built and checked as an all-clear drill, each problem of the
    twin reported at its line of the twin section.

    Across the files checked together: a drill's id must equal its file name (without .yaml), each of its names
    (a symbolic link to it under another name is read once and checked by its name too), and no two drills may
    share an id.

    A drill set file (a top-level `set` key, in any layout; docs/drill-sets.md) is checked as a set: its format,
    that every drill it names is found and loads, and that no two of its drills are of one healthy run (projections
    of one run, or twins that are one run: a trainee who has seen one finds the other's fault by the event that
    differs): a warning in a practice set, a problem in an assessment set.

    A file that is not a regular file (a FIFO, a device) is a problem, never read; a folder that cannot be read
    is reported on stderr and fails the command.

    Exit status: 0 when every drill is valid, 1 when any is invalid or a folder could not be read, 2 on a usage
    error (no PATH_OR_ID, a name that is neither a file, a folder nor a drill id, or folders without any drill file).
    """
    aliases: dict[Path, Path] = {}
    files, unreadable = drill_files_of(names, aliases)
    drill_dirs = settings_of(click.get_current_context()).drill_dirs
    problems_of, warnings_of, notes_of, sets = _load_all(files, drill_dirs, aliases)
    # a drill's other names are checked against its id; a set's are the same set, read and counted once
    files = _with_aliases(files, {alias: f for alias, f in aliases.items() if f not in sets})
    invalid, counts = _print_all(files, (problems_of, warnings_of, notes_of), fmt, all_warnings)
    click.echo(_summary(len(files), len(sets), invalid, counts, unreadable), err=fmt == "json")
    raise SystemExit(1 if invalid or unreadable else 0)


def _print_all(
    files: list[Path], found: tuple[Any, Any, Any], fmt: str, all_warnings: bool
) -> tuple[int, tuple[int, int]]:
    """Print each file's problems, warnings and notes (``found``: each of the three by file); return the number of
    invalid files and the numbers of problems and warnings."""
    problems_of, warnings_of, notes_of = found
    invalid = total_problems = total_warnings = 0
    for f in files:
        problems = problems_of[f]
        if problems:
            invalid += 1
            total_problems += len(problems)
        total_warnings += len(warnings_of.get(f, ()))
        _print_file([*problems, *warnings_of.get(f, ())], fmt, all_warnings)
        for note in notes_of.get(f, ()):  # rules that wait for a problem above: not counted, on stderr for json
            click.echo(clean(note), err=fmt == "json")
    return invalid, (total_problems, total_warnings)


def _print_file(found: list[Any], fmt: str, all_warnings: bool) -> None:
    """Print one file's problems and warnings in line order: JSON Lines, one object each; or text, one
    ``path:line:col: message`` line each, with repeated warnings of a rule grouped unless ``all_warnings``."""
    import json

    from warroom.core.load import group_warnings

    found = sorted(found, key=lambda p: (p.line, p.column))
    if fmt == "json":  # ASCII JSON: every control character (C1 too) is a \u escape
        for p in found:
            click.echo(json.dumps(p.to_dict()))
        return
    for line in found if all_warnings else group_warnings(found):
        click.echo(clean(line))  # drill text in the message (a quoted value) or the path: controls shown as \xNN


def _summary(n_files: int, n_sets: int, invalid: int, counts: tuple[int, int], unreadable: int) -> str:
    """The summary line of a run: what was checked (drills, drill sets), how many are valid and invalid, the
    ``counts`` of (problems, warnings) and the folders that could not be read."""
    total_problems, total_warnings = counts
    valid = n_files - invalid
    kinds = [plural(n_files - n_sets, "drill")] if n_sets < n_files else []
    checked = " and ".join([*kinds, *([plural(n_sets, "drill set")] if n_sets else [])])
    summary = f"{checked} checked: {valid} valid, {invalid} invalid"
    found = [plural(n, word) for n, word in ((total_problems, "problem"), (total_warnings, "warning")) if n]
    if found:
        summary += f" ({', '.join(found)})"
    if unreadable:
        summary += f"; {plural(unreadable, 'folder')} could not be read (above)"
    return summary
