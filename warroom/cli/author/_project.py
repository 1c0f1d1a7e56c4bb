"""``warroom project``: fault drills (with their twins) projected into healthy traces (docs/authoring.md,
"Projection"): one at a time (``FILE --template NAME [--at EVENT]``), where each template applies (``--list
FILE``), or every applicable projection of a folder (``--all DIR --out DIR``, with a progress bar)."""

from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click

from warroom.cli.common import FiniteFloat, GivenPath, WholeNumber, file_progress, say, table_lines, text_table
from warroom.core.text import clean_name, plural, shown_path

#: Most distractors a projection may add (one of each distractor template).
MAX_DISTRACTORS = 3


#: The longest --window: an hour to read one result (far longer leaves the drill clock's 1,000,000 s behind).
MAX_WINDOW = 3600


def _options(damage: tuple[str, ...], window: float, distractors: int) -> tuple[Any, list[Any]]:
    """The engine's options and damage rules from the command's (ProjectionError for a bad ``--damage``)."""
    from warroom.core.author import MIN_REACTION_WINDOW
    from warroom.core.projection import Options, damage_rules, parse_damage

    if window < MIN_REACTION_WINDOW:
        raise click.BadParameter(f"at least {MIN_REACTION_WINDOW:g} s (the fairness rules' reading window)",
                                 param_hint="--window")
    if window > MAX_WINDOW:
        raise click.BadParameter(f"at most {MAX_WINDOW:,} s (an hour to read one result)", param_hint="--window")
    rules, _ = damage_rules([parse_damage(d) for d in damage])
    return Options(window=window, distractors=distractors), rules


def _write(projection: Any, out: Path, force: bool) -> Path | None:
    """Write ``projection`` as ``out/<id>.yaml`` (whole or not at all; through a symbolic link into the file it points
    to, the link kept); None when the file exists and ``force`` is not given. A read-only file is refused
    (:class:`click.ClickException`), never replaced."""
    from warroom.core.files import read_only_mode, real_path, replace_files
    from warroom.importers.kit import dump_drill_yaml

    path = out / f"{projection.id}.yaml"
    if path.exists() and not force:
        return None
    mode = read_only_mode(path)
    if mode is not None:
        raise click.ClickException(f"{shown_path(path)}: the file is read-only (mode {mode}): make it writable (chmod "
                                   "u+w) or write into another --out folder; nothing was written")  # fmt: skip
    try:  # without --force never over a drill another process wrote since the look above
        replace_files([(real_path(path), dump_drill_yaml(projection.data, projection.header))], create=not force)
    except FileExistsError:
        return None
    except OSError as exc:
        raise click.ClickException(f"{shown_path(path)}: cannot write the drill: {exc.strerror or exc}") from None
    return path


def _out_folder(out: Path) -> Path:
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise click.ClickException(f"{shown_path(out)}: cannot create the folder: {exc.strerror or exc}") from None
    if not out.is_dir():
        raise click.ClickException(f"{shown_path(out)}: not a folder")
    return out


def _one(file: Path, template: str, at_event: str | None, out: Path, options: Any, rules: list[Any],
         force: bool) -> None:
    from warroom.core.projection import project, read_source, survey, verify

    projection = project(survey(read_source(file), rules), template, at_event, options)
    warnings: list[str] = []
    problems = verify(projection, warnings)
    if problems:
        for p in problems:
            say(f"{shown_path(file)}: {p}", err=True)
        raise click.ClickException(f"{shown_path(file)}: the projection of {template} at {projection.site.event} "
                                   "would not pass warroom validate and warroom check (above); try another event "
                                   "with --at")
    path = _write(projection, _out_folder(out), force)
    if path is None:
        raise click.ClickException(f"{clean_name(out / (projection.id + '.yaml'))}: exists; --force overwrites it")
    site = projection.site
    say(f"Wrote {shown_path(path)}: a fault drill ({template} at {site.event}, the result of {site.tool} in plan step "
        f"{site.step}; difficulty {projection.difficulty}) with its twin.")
    for note in projection.notes:
        say(f"  {note}")
    for warning in warnings:
        say(f"{shown_path(path)}: warning: {warning}", err=True)
    shown = shown_path(path)
    say(f"Refine its answer key with `warroom annotate {shown}`; play it with `warroom run {shown}`.")


def _listing(file: Path, rules: list[Any], fmt: str) -> None:
    from warroom.core.projection import TEMPLATES, read_source, sites_of, survey

    sites = sites_of(survey(read_source(file), rules))
    if fmt == "json":
        say(json.dumps([{"template": s.template, "event": s.event, "step": s.step, "tool": s.tool, "field": s.field,
                         "damage": list(s.damage), "problem": s.problem} for s in sites], indent=2))
        return
    rows = [(s.template, s.event, s.step or "-", s.tool, s.field,
             (f"{s.damage[0]}" + (f" +{len(s.damage) - 1}" if len(s.damage) > 1 else "")) if s.ok else "-",
             "yes" if s.ok else f"no: {s.problem}") for s in sites]
    header = ("template", "event", "step", "tool", "field it changes", "first damage", "projectable")
    for line in table_lines(text_table(header, rows)):
        say(line)
    missing = [name for name in TEMPLATES if all(s.template != name for s in sites)]
    for name in missing:
        say(f"{name}: applies nowhere here (it needs {TEMPLATES[name].shapes})")
    ok = sum(1 for s in sites if s.ok)
    say(f"{plural(len(sites), 'site')} in {shown_path(file)}, {ok} projectable.")


@dataclass
class _Tally:
    """What ``--all`` made of a folder, for its summary."""

    sources: int = 0
    written: int = 0
    skipped: int = 0
    duplicates: int = 0
    guessable: int = 0  # drills written that a blind newest guess wins too often (no site of the shape did better)
    unprojectable: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)  # projections a check refused (file: template at event: why)
    failed_sources: list[str] = field(default_factory=list)  # files that are not healthy runs (path:line:col: ...)
    barren: list[str] = field(default_factory=list)  # healthy runs that gave no drill (file: why)
    levels: dict[int, int] = field(default_factory=dict)
    runs: dict[str, tuple[Any, int]] = field(default_factory=dict)  # file -> (its run: run_events, projections)

    def add(self, file: str, outcome: Any) -> None:
        """Count ``outcome`` (a file's, not yet written) in."""
        self.duplicates += outcome.duplicates
        self.guessable += outcome.guessable
        self.unprojectable.update(site.reason for site in outcome.unprojectable)
        self.failures += [f"{shown_path(file)}: {s.template} at {s.event}: {p[0]}" for s, p in outcome.failed]
        barren = _barren(file, outcome)
        self.barren += [barren] if barren is not None else []
        if outcome.projections:  # grouped by run as the set check groups them: one run saved twice is one run
            self.runs[file] = (_run_of(outcome.projections[0]), len(outcome.projections))

    def _first_files(self) -> list[tuple[str, str]]:
        """Each file with projections, in name order, with the first file (in name order) of its run."""
        from warroom.core.library import run_groups

        files = sorted(self.runs)
        groups = run_groups([self.runs[f][0] for f in files])
        return [(f, files[g]) for f, g in zip(files, groups, strict=True)]

    @property
    def per_run(self) -> dict[str, int]:
        """The projections each healthy run gave, by the first of its files (in name order)."""
        out: dict[str, int] = {}
        for file, first in self._first_files():
            out[first] = out.get(first, 0) + self.runs[file][1]
        return out

    @property
    def repeated(self) -> list[tuple[str, str]]:
        """Each file holding a healthy run an earlier file (in name order) holds too, with that file."""
        return [(f, first) for f, first in self._first_files() if f != first]


def _run_of(projection: Any) -> Any:
    """The healthy run a projection was made from, as the set check compares runs
    (:func:`~warroom.core.library.run_events`)."""
    from warroom.core.library import run_events
    from warroom.core.model import Drill

    return run_events(Drill.model_validate(projection.data))


def _all(folder: Path, out: Path, templates: list[str], options: Any, rules: list[Any], force: bool,
         verbose: bool, jobs: int) -> None:
    from warroom.cli.common import drill_files_of
    from warroom.core.projection import ProjectionError, project_files

    files, unreadable = drill_files_of((folder,))
    if out.exists() and not out.is_dir():
        raise click.ClickException(f"{shown_path(out)}: not a folder")
    made = False  # the folder is created with the first drill written: a refusal leaves nothing behind
    tally = _Tally(sources=len(files))
    with file_progress(len(files), "projecting") as advance:
        for file, outcome in project_files([str(f) for f in files], rules, options, templates or None, jobs):
            if isinstance(outcome, ProjectionError):
                tally.failed_sources.append(str(outcome))
                advance()
                continue
            tally.add(file, outcome)
            for projection in outcome.projections:
                if not made:
                    made = bool(_out_folder(out))
                path = _write(projection, out, force)
                if path is None:
                    tally.skipped += 1
                    continue
                tally.written += 1
                tally.levels[projection.difficulty] = tally.levels.get(projection.difficulty, 0) + 1
                if verbose:
                    say(f"{shown_path(path)}  {projection.site.template} at {projection.site.event}, difficulty "
                        f"{projection.difficulty}")
            advance()
    _summary(folder, out, tally)
    if tally.failed_sources or unreadable or (files and not tally.written + tally.skipped):
        raise SystemExit(1)


def _barren(file: str, outcome: Any) -> str | None:
    """Why the healthy run in ``file`` gave no drill (its ``outcome`` has no projection and no failed one), or None
    when it gave one or a check refused it (reported with the check's problem)."""
    if outcome.projections or outcome.failed:
        return None
    hint = f"`warroom project --list {shown_path(file)}` shows what each template needs"
    if not outcome.unprojectable:
        return (f"{shown_path(file)}: no template applies to any of its tool results (they need JSON records or "
                f"lists: a mapping, a list of records, money amounts, ids the call asked for ...); {hint}")
    reasons = Counter(site.reason for site in outcome.unprojectable)
    count = sum(reasons.values())
    which = "its only site cannot" if count == 1 else f"none of its {count} sites can"
    return f"{shown_path(file)}: {which} be projected ({_reasons(reasons)}); {hint}"


def _left_out(unprojectable: dict[str, int]) -> str:
    """The sites that cannot be projected, counted by reason: "3 sites that cannot be projected (2 no consequential
    call after it, 1 outside any plan step)"."""
    reasons = _reasons(unprojectable)
    total = plural(sum(unprojectable.values()), "site")
    return f"{total} that cannot be projected" + (f" ({reasons})" if reasons else "")


def _reasons(counts: dict[str, int]) -> str:
    """Reasons with their counts, most first: "2 no consequential call after it, 1 outside any plan step"."""
    return ", ".join(f"{n} {reason}" for reason, n in sorted(counts.items(), key=lambda r: (-r[1], r[0])))


def _summary(folder: Path, out: Path, tally: _Tally) -> None:
    from warroom.core.author import NEWEST_GUESS_WARN

    for line in tally.failed_sources:
        say(line, err=True)
    for line in tally.failures + tally.barren:
        say(f"not projected: {line}", err=True)
    by_level = ", ".join(f"{n} of difficulty {d}" for d, n in sorted(tally.levels.items()))
    say(f"{plural(tally.written, 'fault drill')} with their twins written to {shown_path(out)} from "
        f"{plural(tally.sources - len(tally.failed_sources), 'healthy run')} in {shown_path(folder)}"
        + (f" ({by_level})" if by_level else "") + ".")
    say(f"Left out: {plural(tally.duplicates, 'duplicate site')} (the same template on the same result shape), "
        f"{_left_out(tally.unprojectable)}, "
        f"{plural(len(tally.failures), 'projection')} that would fail warroom check"
        + (f", {plural(tally.skipped, 'file')} that exist (--force overwrites them)" if tally.skipped else "") + ".")
    if tally.guessable:
        say(f"warning: in {plural(tally.guessable, 'drill')} of these a blind newest guess (the newest event's step, "
            f"citing it) wins more than {NEWEST_GUESS_WARN:.0%} of the time, and no other site of the same template "
            "and result shape did better: `warroom check` names them", err=True)
    if tally.barren:
        say(f"{plural(len(tally.barren), 'healthy run')} gave no drill (above).", err=True)
    if tally.failed_sources:
        say(f"{plural(len(tally.failed_sources), 'file')} could not be projected (above).", err=True)
    for file, first in tally.repeated:
        say(f"{_in(folder, file)} is the same healthy run as {_in(folder, first)}: its projections are counted with "
            "it.")
    if tally.per_run:
        say(_per_run(folder, tally.per_run))


def _in(folder: Path, file: str) -> str:
    """``file`` as the summary names it: relative to ``folder`` when it is in it (as given when it is the file
    ``--all`` named, not a folder: relative to itself it was ".")."""
    path = Path(file)
    return clean_name(str(path.relative_to(folder)) if path.is_relative_to(folder) and path != folder else file)


#: Healthy runs :func:`_per_run` names, at most; the others are counted.
PER_RUN_NAMED = 10


def _per_run(folder: Path, per_run: dict[str, int]) -> str:
    """How many projections each healthy run gave (the most first; past :data:`PER_RUN_NAMED` runs, counted), and
    that at most one of a run goes into a drill set that counts (docs/authoring.md, "Every projection of a
    folder")."""
    runs = sorted(per_run.items(), key=lambda r: (-r[1], r[0]))
    listed = ", ".join(f"{_in(folder, f)} {n}" for f, n in runs[:PER_RUN_NAMED])
    rest = runs[PER_RUN_NAMED:]
    if rest:
        low, high = rest[-1][1], rest[0][1]
        listed += f" and {plural(len(rest), 'more run')} ({low if low == high else f'{low} to {high}'} each)"
    return (f"Projections per healthy run: {listed}.\n"
            "Drills projected from one run share every event but the fault's, so a trainee who has seen one finds "
            "another's fault by the event that differs: put at most one projection of each run in a drill set that "
            "counts (an assessment set holding two is refused) and keep the others for practice.")


@click.command("project")
@click.argument("file", required=False, type=GivenPath(path_type=Path))
@click.option("--template", "templates", multiple=True, metavar="NAME",
              help="The fault template: pagination-truncated, error-flag-ignored, stale-data, wrong-record, "
              "partial-write, unit-confusion, timeout-as-empty, rate-limit-swallowed. One for FILE; with --all, "
              "repeat it to project only these.")
@click.option("--at", "at_event", metavar="EVENT", help="The tool result to change (its event id); default: the "
              "first result the template can be projected at.")
@click.option("--list", "listing", is_flag=True, help="Show where each template applies in FILE: the event, its "
              "plan step and tool, the field it would change, the first damage call, and whether it can be projected.")
@click.option("--all", "folder", type=GivenPath(path_type=Path), metavar="DIR",
              help="Project every healthy drill in DIR (searched for *.yaml): every applicable projection, one per "
              "template and result shape, each with an estimated difficulty; needs --out.")
@click.option("--out", type=GivenPath(file_okay=False, path_type=Path), default=None, metavar="DIR",
              help="Folder for the projected drills, one <id>.yaml each (created if missing; default: the current "
              "folder for FILE).")
@click.option("--damage", multiple=True, metavar="PATTERN=AMOUNT[:UNIT]",
              help="Calls of tools matching PATTERN (a glob on tool names) after the changed result do AMOUNT of "
              "damage each, in UNIT (one unit per drill). Repeatable. Default: every write-like tool (cancel*, "
              "modify*, update*, return*, exchange*, refund*, send*, delete*, create* ...), 1 each.")
@click.option("--window", type=FiniteFloat(), default=10.0, show_default=True, metavar="SECONDS",
              help="Seconds between the evidence and the deadline, at least (events are released later where the "
              "trace leaves less; at least 5, the fairness rules' reading window; at most 3,600).")
@click.option("--distractors", type=WholeNumber(0, MAX_DISTRACTORS), default=1, show_default=True,
              help="How many distractors to add (a retried 429, a slow call, a deprecation warning), to the fault "
              "drill and its twin alike.")
@click.option("--force", is_flag=True, help="Overwrite drill files that already exist in --out.")
@click.option("-v", "--verbose", is_flag=True, help="With --all: list every drill written.")
@click.option("--jobs", type=WholeNumber(min=1), default=None, metavar="N",
              help="With --all: project the files in N worker processes (default and most: one per CPU; 1: none).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="With --list: a table, or JSON.")
def project(file: Path | None, templates: tuple[str, ...], at_event: str | None, listing: bool, folder: Path | None,
            out: Path | None, damage: tuple[str, ...], window: float, distractors: int, force: bool, verbose: bool,
            jobs: int | None, fmt: str) -> None:
    """Project a silent failure into a healthy trace: write a fault drill and its twin.

    FILE is a healthy drill: an imported trace with no answer key yet (`warroom import`), an all-clear drill, or a
    drill with a twin. The template changes one tool result so that it shows a silent failure and leaves the rest
    of the trace as it was; the answer key is generated (origin: the result's plan step; evidence: the field the
    template made; damage: the consequential calls after it; deadline: just before the first of them) and can be
    refined with `warroom annotate`. The twin is the healthy run.

    Examples: warroom project --list drills/imported/chat-0.yaml;
    warroom project drills/imported/chat-0.yaml --template stale-data --at m011 --out drills/projected;
    warroom project --all drills/imported --out drills/projected.

    Exit status: 0 when everything asked was written, 1 when a file could not be projected (with --all: a file
    that is not a healthy run, or a folder that gave no drill at all), 2 on usage errors.
    """
    from warroom.core.projection import ProjectionError

    try:
        options, rules = _options(damage, window, distractors)
        if folder is not None:
            if file is not None or listing or at_event is not None:
                raise click.UsageError("--all projects a folder: give no FILE, --list or --at with it")
            if out is None:
                raise click.UsageError("--all needs --out DIR: the folder for the projected drills")
            _all(folder, out, list(templates), options, rules, force, verbose, jobs or os.cpu_count() or 1)
        elif file is None:
            raise click.UsageError("give a healthy drill FILE (with --template or --list), or --all DIR --out DIR")
        elif listing:
            _listing(file, rules, fmt)
        elif len(templates) != 1:
            raise click.UsageError("give one --template NAME for FILE (`--list FILE` shows where each applies)")
        else:
            _one(file, templates[0], at_event, out or Path("."), options, rules, force)
    except ProjectionError as exc:
        for line in str(exc).splitlines():
            say(line, err=True)
        raise SystemExit(1) from None
