"""``warroom check PATH...``: play each drill headless with scripted trainees and check it is fair and winnable."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, NamedTuple

import click

from warroom.cli.common import (
    DrillParam,
    WholeNumber,
    cleaned,
    drill_files_of,
    drills_setting,
    file_progress,
    format_option,
)
from warroom.core.text import clean, damage_amount, plural, seconds, shown_path

#: Most seeds ``--variants`` checks in one run. Each seed plays its variant with every scripted trainee (the whole
#: battery, about 30 plays): about 0.1 s of CPU a seed on the largest bundled drill, so 1,000 seeds are a few minutes
#: a drill, and a typo (``100000000``) would run for days. docs/authoring.md "warroom check" says it.
MAX_CHECK_VARIANTS = 1000

#: The gaming battery's trainees shown in the table (``--format json`` has every one, and every seed of random).
SHOWN_BATTERY = ("until-accepted", "cite-everything", "random")


def _row(report: Any, run: Any, name: str) -> tuple[str, ...]:
    from warroom.core.model import RESPONSE_LABELS, outcome_label

    card = run.scorecard
    unit = card.damage_unit
    harm = "-"
    if not report.all_clear:
        harm = f"{damage_amount(card.damage, unit)} of {damage_amount(card.full_damage, unit)}"
    response = RESPONSE_LABELS[card.response] if card.response is not None else "-"
    return (
        name, f"{card.total}/{card.max_total}", outcome_label(card.outcome, report.all_clear), response,
        seconds(card.time_to_detect), str(card.false_escalations), harm,
    )  # fmt: skip


def _table(report: Any) -> list[str]:
    """The scripted trainees' results (:func:`~warroom.cli.common.text_table`), indented two spaces: the reference
    trainees, then a few of the gaming battery (random: its best-scoring seed)."""
    from warroom.cli.common import table_lines, text_table

    header = ("trainee", "score", "outcome", "response", "detect", "false esc.", "damage")
    rows = [_row(report, run, run.trainee) for run in report.runs]
    for name in SHOWN_BATTERY:
        runs = report.seeded(name)
        if runs:
            best = max(runs, key=lambda r: (r.scorecard.total, -(r.seed or 0)))
            rows.append(_row(report, best, name if best.seed is None else f"{name} (seed {best.seed})"))
    return table_lines(text_table(header, rows, right={1, 5}), indent=2)


def _battery_line(report: Any) -> str:
    """One line on the whole gaming battery: its hits (none on a fair drill) or, in an all-clear drill, its false
    alarms, over all its runs (the random trainee once per seed)."""
    from warroom.core.model import Response

    runs = len(report.battery)
    seeds = len(report.seeded("random"))
    what = f"{plural(runs, 'run')}: {len({r.trainee for r in report.battery})} trainees, random over {seeds} seeds"
    if report.all_clear:
        alarms = sum(1 for r in report.battery if r.scorecard.response is Response.FALSE_ALARM)
        return f"  gaming battery: {plural(alarms, 'false alarm')} in {what}"
    hits = len(report.battery_hits)
    return f"  gaming battery: {'no hit' if not hits else plural(hits, 'hit')} in {what}"


def _newest_guess_line(report: Any) -> list[str]:
    """The chance that a guess reading nothing is a hit (a drill with a fault only): moving onto the newest event at
    a random moment and confirming what the escalation dialog offers; a warning above
    :data:`~warroom.core.author.NEWEST_GUESS_WARN` (docs/scoring.md, "The gaming battery")."""
    from warroom.core.author import newest_guess_sentence

    if report.all_clear:
        return []
    line, warned = newest_guess_sentence(report.newest_guess_share, report.newest_guess)
    return [f"  warning: {line}" if warned else f"  {line}"]


#: Where the drill writes what a check problem is about, by how the problem's message starts: the problem is
#: reported at that key's line and column (``path:line:col: message``, as validate reports).
PROBLEM_KEYS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("fairness rule cascade-names-origin", ("answer_key", "cascade")),
    ("fairness rule distractor-", ("distractors",)),
    ("fairness rule damage-by-deadline", ("answer_key", "deadline")),
    ("fairness rule nothing-to-save", ("answer_key", "deadline")),
    ("fairness rule trigger-happy-contains: the earliest evidence", ("answer_key", "evidence")),
    ("fairness rule trigger-happy-contains", ("answer_key", "fault")),
    ("fairness rule battery-hit", ("answer_key", "evidence")),
    ("cannot be won", ("answer_key", "deadline")),
    ("ranking", ("answer_key", "deadline")),
    ("never should hold", ("trace",)),
)


def problem_place(path: Path, message: str, loc: tuple[str, ...] | None = None) -> str:
    """``path:line:col: `` of the drill's key a check problem is about (:func:`problem_position`), to put before the
    problem's message."""
    line, column = problem_position(path, message, loc)
    return f"{shown_path(path)}:{line}:{column}: "


def problem_position(path: Path, message: str, loc: tuple[str, ...] | None = None) -> tuple[int, int]:
    """The 1-based ``(line, column)`` of the drill's key a check problem is about (``loc``, else by
    :data:`PROBLEM_KEYS`; the file's first line for any other)."""
    from warroom.core.load import position_of

    about = message.split(": ", 1)[1] if message.startswith("seed ") and ": " in message else message
    if loc is None:
        loc = next((loc for start, loc in PROBLEM_KEYS if about.startswith(start)),
                   ("variants",) if about is not message else None)  # a seed's own problem: its variants
    line, column = position_of(path, loc) if loc is not None else (1, 1)
    if (line, column) == (1, 1) and loc is not None and len(loc) > 1:
        line, column = position_of(path, loc[:1])  # the key itself, when the value is not written there
    return line, column


def _check_one(
    path: Path, drill: Any, problems: list[Any], own: list[Any], *, text: bool, variants: int = 0
) -> tuple[dict[str, Any], list[str]]:
    """Check one drill file: its JSON result (``passed`` among its keys) and, with ``text``, its lines of the text
    report (its load and file problems are printed on stderr at once). ``drill`` is None when it did not load
    (``problems`` say why); ``own`` are its cross-file problems; ``variants`` (--variants N): also check the
    variants of seeds 0 to N-1."""
    from warroom.core.author import check_twin, check_variants, run_checks

    lines: list[str] = []
    if drill is None:
        if text:
            for p in problems:
                click.echo(clean(p), err=True)
            lines += [f"FAIL {shown_path(path)}: does not load ({plural(len(problems), 'problem')}, above)", ""]
        return {"path": str(path), "loaded": False, "passed": False,
                "load_problems": [p.to_dict() for p in problems]}, lines
    report = run_checks(drill)
    seeded = check_variants(drill, variants)
    twin = check_twin(drill, variants)  # the healthy run, as the all-clear drill a noise trial plays
    passed = report.passed and not own and not seeded.problems and (twin is None or twin.passed)
    result = {"path": str(path), "loaded": True, **report.to_dict()}
    result["passed"] = passed
    result["problem_positions"] = [dict(zip(("line", "column"), problem_position(path, p), strict=True))
                                   for p in report.problems]  # each problem's place, in the order of problems
    if variants:
        result["variants"] = seeded.to_dict()
    if twin is not None:
        result["twin"] = twin.to_dict()
    if own:
        result["passed"] = False
        result["file_problems"] = [p.to_dict() for p in own]
    if text:
        for p in own:
            click.echo(clean(p), err=True)
        kind = " (all-clear drill)" if report.all_clear else ""
        lines.append(f"{'PASS' if passed else 'FAIL'} {drill.id}{kind}  {shown_path(path)}")
        lines += _table(report)
        lines.append(_battery_line(report))
        lines += _newest_guess_line(report)
        lines += [f"  problem: {problem_place(path, p)}{p}" for p in report.problems]
        lines += _variant_lines(drill, seeded, variants, path)
        lines += _twin_lines(twin, path)
        lines += [f"  problem: {p}" for p in own]
        lines.append("")
    return result, lines


def _twin_lines(twin: Any, path: Path) -> list[str]:
    """What ``check`` says of a drill's twin (None: the drill has none): its scripted trainees' table, played as
    the all-clear drill of a noise trial, and its problems (each starting ``twin:``)."""
    if twin is None:
        return []
    lines = ["  twin (the healthy run, played as a noise trial: an all-clear drill):"]
    if twin.report is not None:
        lines += ["  " + line for line in _table(twin.report)]
    return lines + [f"  problem: {problem_place(path, p, ('twin',))}{p}" for p in twin.problems]


def _variant_lines(drill: Any, seeded: Any, asked: int, path: Path) -> list[str]:
    """What ``check`` says of a drill's variants: the seeds checked and their problems (``asked`` = --variants N)."""
    if seeded.seeds:
        bad = len({p.split(":", 1)[0] for p in seeded.problems})
        return [
            f"  variants: {len(seeded.seeds)} seeds checked, {bad} failed",
            *(f"  problem: {problem_place(path, p)}{p}" for p in seeded.problems),
        ]
    if asked:
        return ["  variants: none (the drill has no variants section): one trace, checked above"]
    if drill.variants is not None:
        return ["  variants: not checked (add --variants N to play the variants of N seeds)"]
    return []


def _bounded_variants(value: int) -> int:
    """``--variants``' value, refused below 0 or over :data:`MAX_CHECK_VARIANTS` with why and what to do."""
    if value < 0:
        raise click.BadParameter(f"{value} is not a number of seeds; give 0 (none) to {MAX_CHECK_VARIANTS}")
    if value > MAX_CHECK_VARIANTS:
        raise click.BadParameter(
            f"{value:,} seeds is more than the {MAX_CHECK_VARIANTS:,} one run checks: each seed plays the whole "
            "battery of scripted trainees (about 0.1 s a seed on the largest bundled drill, for each drill checked); "
            f"give --variants {MAX_CHECK_VARIANTS} or fewer"
        )
    return value


@click.command("check")
@click.argument("names", nargs=-1, required=True, metavar="PATH_OR_ID...", type=DrillParam(folders=True))
@click.option(
    "--variants",
    "variants",
    type=WholeNumber(),
    metavar="N",
    default=0,
    show_default=True,
    callback=lambda ctx, param, value: _bounded_variants(value),
    help="Also check the variants of seeds 0 to N-1 of each drill that has a variants section (each problem says "
    f"its seed: play it with `warroom run --seed S`). At most {MAX_CHECK_VARIANTS:,}: each seed plays the whole "
    "battery of scripted trainees (about 0.1 s a seed on the largest bundled drill).",
)
@format_option("Output: a table per drill, or one JSON document.")
@drills_setting
def check(names: tuple[Path, ...], variants: int, fmt: str) -> None:
    """Play each drill headless with scripted trainees and check that it is winnable and scores fairly.

    PATH_OR_ID is a drill file, a folder (searched for *.yaml / *.yml), or the id of a bundled drill or of one in
    a --drills folder given to warroom. The scripted trainees are ideal, late, never, trigger-happy, wrong-step
    and prober, and the gaming battery of trainees that do not read the trace: until-accepted, flag-and-confirm,
    cite-everything, step-sweep, probe-sweep, random (20 seeds), quit-when-losing and step-report (docs/scoring.md
    defines them; the table shows a few, --format json every one). A drill with a fault passes when the ideal trainee
    contains it in time, the scores rank ideal > late > never and ideal above trigger-happy and every battery
    trainee, and it keeps the fairness rules (docs/authoring.md, "What makes a drill fair"): no trainee of the
    battery, nor trigger-happy, is a hit (the trial's response, read from the first escalation); every damage event
    comes strictly after the deadline (an escalation at the deadline is on time but comes after the events released
    then); the deadline comes before the last damage event; the cascade does not name the origin step; citing a
    distractor alone does not contain (a distractor may share an evidence event's kind and plan step: telling them
    apart by content is the skill); no distractor is a damage event. An all-clear
    drill passes when never holds the all clear and every escalation scores less. A drill with a twin (its
    healthy run, played as a noise trial) passes only when its twin passes as an all-clear drill too (its
    problems start "twin:").

    For a drill with a fault it also shows the newest guess: the chance that a trainee who reads nothing, at a
    random moment moving onto the newest event and confirming what the escalation dialog offers (its step, citing
    it), is a hit; above 10% it is a warning, which does not fail the drill.

    With --variants N, a drill with a variants section is also played as the variants of seeds 0 to N-1 and fails
    when any of them fails a check above ("seed S: ..."); a drill without one has a single trace, checked once.

    A drill also fails when it does not load, when its id differs from its file name, or when another drill
    checked with it has the same id. Every problem starts with path:line:col, as warroom validate's do.

    Exit status: 0 when every drill passes, 1 when a drill fails a check or fails to load or a folder could not be
    read, 2 on usage errors (a name that is neither a file, a folder nor a drill id; no drill files).
    """
    files, unreadable = drill_files_of(names)
    results, text_out, failed = _check_all(files, fmt, variants)
    if fmt == "json":
        passed = failed == 0 and not unreadable
        click.echo(json.dumps({"passed": passed, "checked": len(files), "failed": failed, "drills": results}, indent=2))
    else:
        for line in cleaned(text_out):  # drill text (paths, problems naming steps): control characters as \xNN
            click.echo(line)
        n = len(files)
        folders = ""
        if unreadable:
            folders = f" {plural(unreadable, 'folder')} could not be read (above)."
        click.echo(f"{plural(n, 'drill')} checked: {n - failed} passed, {failed} failed.{folders}")
    if failed or unreadable:
        raise SystemExit(1)


def _check_all(files: list[Path], fmt: str, variants: int) -> tuple[list[dict[str, Any]], list[str], int]:
    """Check each file, one drill in memory at a time: the JSON results (kept with ``fmt`` json only: a drill's
    result holds every scripted trainee's), the text lines, and how many failed."""
    from warroom.core.library import DrillLibrary

    file_problems = _cross_file_problems(files)
    results: list[dict[str, Any]] = []
    text_out: list[str] = []
    failed = 0
    with file_progress(len(files), "checking") as advance:
        for path in files:
            drill, problems = DrillLibrary.load_or_problems(path)
            own = file_problems.get(path, [])
            result, lines = _check_one(path, drill, problems, own, text=fmt == "text", variants=variants)
            failed += not result["passed"]
            if fmt == "json":
                results.append(result)
            text_out.extend(lines)
            del drill, result  # before the next drill is loaded
            advance()
    return results, text_out, failed


def _cross_file_problems(files: list[Path]) -> dict[Path, list[Any]]:
    """The problems between files (two drills of one id, an id that is not its file name), by file: each drill
    loaded once, with a progress bar, and only its id kept (a folder of 2,000 drills held every one of them: 300 MB);
    the check loads each again, one at a time."""
    from warroom.core.library import DrillLibrary, cross_file_problems

    ids: list[tuple[Path, Any]] = []
    with file_progress(len(files), "loading") as advance:
        for path in files:
            ids.append((path, _id_of(DrillLibrary.load_or_problems(path)[0])))
            advance()
    return cross_file_problems(ids)


class _IdOnly(NamedTuple):
    """What :func:`warroom.core.library.cross_file_problems` reads of a loaded drill: its id."""

    id: str


def _id_of(drill: Any) -> _IdOnly | None:
    return None if drill is None else _IdOnly(drill.id)
