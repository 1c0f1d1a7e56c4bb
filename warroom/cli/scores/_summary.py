"""``warroom scores summary`` (old spelling ``warroom scores --summary``): the cohort statistics per trainee and per
drill (docs/sessions.md, "Cohort statistics"), as tables with compact bars, CSV or JSON.

What is printed is all in :func:`show_summary`, the one function the command calls; the statistics' rendering
(tables, bars, CSV rows) is in :mod:`warroom.cli.scores._statistics`.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from warroom.cli.common import emit_csv, emit_json, say, settings_from, store_errors
from warroom.cli.scores._options import (
    Filters,
    check_output,
    export_format_option,
    filter_options,
    filters_of,
    open_store,
    output_option,
    subcommand_options,
    unknown_trainees,
)
from warroom.cli.scores._statistics import SUMMARY_CSV_COLUMNS, tutorial_matches, unverified_sentence
from warroom.core.settings import Settings
from warroom.core.text import clean_name, plural

if TYPE_CHECKING:
    from warroom.store.errors import CorruptSession
    from warroom.store.results import ResultsStore


def summarise(
    settings: Settings,
    filters: Filters,
    fmt: str = "table",
    output: Path | None = None,
    include_unverified: bool = False,
    all_drills: bool = False,
) -> None:
    """Print the summary of the matching sessions (:func:`show_summary`), then name the rows it left out because
    they cannot be counted (stderr, exit status 1 via click.ClickException); click.UsageError for ``--mode tutorial``
    (the statistics never count the tutorial's sessions)."""
    if filters.mode == "tutorial":
        raise click.UsageError(
            "the statistics never count tutorial sessions; `warroom scores list --mode tutorial` lists them"
        )
    from warroom.store.journal import sessions_in_progress

    live = sessions_in_progress(settings.data_dir, filters.trainee, filters.drill)
    store = open_store(settings)
    if store is None:
        if fmt == "table":
            say(f"No sessions recorded yet in {clean_name(settings.data_dir)}.")
            _say_in_progress(live)
        else:
            show_summary(None, filters, fmt, output, in_progress=live)
        return
    with store, store_errors():
        _report_skipped(show_summary(store, filters, fmt, output, include_unverified, live, all_drills))


def _say_in_progress(live: int) -> None:
    from warroom.cli.scores._statistics import in_progress_line

    line = in_progress_line(live)
    if line:
        say(line)


def show_summary(
    store: ResultsStore | None,
    filters: Filters,
    fmt: str,
    output: Path | None,
    include_unverified: bool = False,
    in_progress: int = 0,
    all_drills: bool = False,
) -> list[CorruptSession]:
    """Print (``output``: write) the cohort statistics of the sessions ``filters`` match, as a table (Rich tables
    and compact bars), CSV or JSON (``fmt``); ``store`` None when no session was ever recorded (an empty summary).

    ``filters.mode`` chooses the sessions counted (:func:`warroom.store.cohort.counted_modes`): None or ``auto``
    counts the assessment sessions when any match, else all of them; ``all`` every session; ``practice`` or
    ``assessment`` that mode only. The sessions that are not verified are left out unless ``include_unverified``
    (how many, in the table's first line, the JSON's ``unverified`` and on stderr). ``in_progress``: the matching
    sessions being played now (a line of the table, the JSON's ``in_progress``). The table's per-drill part shows
    the first :data:`~warroom.cli.scores._statistics.SHOWN_DRILLS` drills unless ``all_drills``. Returns the
    :class:`~warroom.store.errors.CorruptSession` of every matching row left out (the caller reports them); raises
    :class:`~warroom.store.errors.StoreError` when the store cannot be read."""
    from warroom.cli.scores._statistics import compute_summary, csv_rows, print_tables, summary_of
    from warroom.store.cohort import FactsQuery, cohort_stats, tutorial_sessions, unverified_sessions

    query = FactsQuery(filters.trainee, filters.drill, filters.since, filters.set_id,
                       include_unverified=include_unverified)  # fmt: skip
    if store is None:
        summary, problems, matched = compute_summary([], filters.mode or "auto"), [], 0
    else:  # counted inside the database: a few GROUP BY queries, not a row per session
        result = cohort_stats(store, query, filters.mode or "auto")
        unverified = unverified_sessions(store, query)
        summary, problems, matched = summary_of(result, unverified), result.problems, result.matched
        summary = replace(summary, tutorial=tutorial_sessions(store, query, filters.mode))
        if fmt != "table" and unverified.count:
            say(f"note:{unverified_sentence(unverified)}", err=True)
    summary = replace(summary, in_progress=in_progress)
    asked = filters.trainee if store is not None and not matched else None
    unknown = unknown_trainees(store, [asked]) if store is not None and asked else []
    if fmt != "table" and unknown:
        say(f"note: {unknown[0]}", err=True)
    if fmt == "json":
        emit_json(summary.to_dict(), output)
    elif fmt == "csv":
        emit_csv(SUMMARY_CSV_COLUMNS, csv_rows(summary), output)
    elif not matched:
        nothing = f"No sessions match {filters.options()}: {unknown[0]}." if unknown else None
        say((nothing or _nothing_counted(store is not None, filters, summary.tutorial))
            + unverified_sentence(summary.unverified))  # fmt: skip
        _say_in_progress(in_progress)
    else:
        print_tables(summary, filters.scope(), all_drills)
    return problems


def _nothing_counted(stored: bool, filters: Filters, tutorial: int = 0) -> str:
    """The line printed when no session is counted: none recorded, none matching the filters (or only ``tutorial``
    sessions of the guided tutorial), or (no filter given) only sessions the statistics never count, the
    tutorial's."""
    if not stored:
        return "No sessions recorded yet."
    if filters.given() and tutorial:
        return f"No sessions to count: {tutorial_matches(tutorial)}."
    if filters.given():
        return "No sessions match."
    return (
        "No sessions to count yet: the statistics count practice and assessment sessions, never the tutorial's "
        "(`warroom scores` lists every session)."
    )


def _report_skipped(problems: list[Any]) -> None:
    """Name each stored session that was left out on stderr, then exit 1; nothing when none was."""
    for problem in problems:
        say(f"skipped: {problem}", err=True)
    if problems:
        raise click.ClickException(
            f"{plural(len(problems), 'stored session')} could not be counted and "
            f"{plural(len(problems), 'was', 'were', count=False)} left out (listed above; never modified)"
        )


#: ``--include-unverified`` of the summary and the report.
include_unverified_option = click.option(
    "--include-unverified",
    is_flag=True,
    help="Count the sessions that are not verified too (stored by a trainee's own client or imported, and not yet "
    "verified, or found wrong by `warroom scores verify`); by default they are left out, and how many is said.",
)


#: ``--all`` of the summary (``warroom scores summary`` and the old spelling ``warroom scores --summary``).
all_drills_option = click.option(
    "--all",
    "all_drills",
    is_flag=True,
    help="Show every trainee and every drill in the summary's tables (by default the first 500 trainees by name and "
    "100 drills by drill id, then how many more; JSON and CSV always carry them all).",
)


@click.command("summary")
@filter_options
@export_format_option
@output_option
@include_unverified_option
@all_drills_option
@click.pass_context
def summary_command(ctx: click.Context, **_: Any) -> None:
    """Detection statistics per trainee (hit rate, false-alarm rate, d′, c, A′, median times to detect in drill
    and wall seconds, mean score, reliability) and per drill (difficulty, discrimination, median times to detect,
    the distractors that pulled escalations) over the matching sessions.

    --mode: which sessions count (default auto: the assessment sessions when any match, else all; all, practice or
    assessment; never the tutorial's: `scores list --mode tutorial` lists those). Abandoned sessions are counted
    apart, never as misses. Every trainee's sessions count unless --trainee NAME or --mine is given. Sessions
    killed mid-drill are recorded as abandoned first; stored rows that cannot be counted are left out and named on
    stderr (exit status 1). Sessions that are not verified (`warroom scores verify`) are left out, and counted,
    unless --include-unverified is given. docs/sessions.md has every formula.
    """
    o = subcommand_options(ctx)
    check_output(o["fmt"], o["output"])
    settings = settings_from(ctx, data_dir=o["data_dir"])
    summarise(
        settings, filters_of(settings, o), o["fmt"], o["output"], ctx.params["include_unverified"],
        ctx.params["all_drills"],
    )  # fmt: skip
