"""``warroom scores summary`` (old spelling ``warroom scores --summary``): figures per trainee and per drill.

What is printed is all in :func:`show_summary`, the one function the command calls.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from warroom.cli.common import Settings, settings_from, store_errors
from warroom.cli.output import emit_csv, emit_json, say
from warroom.cli.scores_common import (
    Filters,
    check_output,
    export_format_option,
    filter_options,
    filters_of,
    open_store,
    output_option,
    subcommand_options,
)

if TYPE_CHECKING:
    from warroom.store.results import ResultsStore

SUMMARY_CSV_COLUMNS = (
    "scope",
    "name",
    "sessions",
    "drills_run",
    "trainees",
    "contained_rate",
    "median_time_to_detect",
    "false_escalation_rate",
    "mean_score",
    "median_score",
)


def summarise(settings: Settings, filters: Filters, fmt: str = "table", output: Path | None = None) -> None:
    """Print the summary of the matching sessions (:func:`show_summary`), then name the rows it left out because
    they cannot be read (stderr, exit status 1 via click.ClickException)."""
    store = open_store(settings)
    if store is None:
        if fmt == "table":
            say(f"No sessions recorded yet in {settings.data_dir}.")
        else:
            show_summary(None, filters, fmt, output)
        return
    with store, store_errors():
        show_summary(store, filters, fmt, output)
        _report_skipped(store.invalid_rows(**filters.as_kwargs()))


def show_summary(store: ResultsStore | None, filters: Filters, fmt: str, output: Path | None) -> None:
    """Print (``output``: write) the figures per trainee and per drill of the sessions ``filters`` match, as a
    table, CSV or JSON (``fmt``); ``store`` None when no session was ever recorded."""
    trainees = store.trainee_summaries(**filters.as_kwargs()) if store is not None else []
    drills = store.drill_summaries(**filters.as_kwargs()) if store is not None else []
    if fmt == "json":
        emit_json({"trainees": [t.to_dict() for t in trainees], "drills": [d.to_dict() for d in drills]}, output)
        return
    if fmt == "csv":
        emit_csv(SUMMARY_CSV_COLUMNS, _summary_csv_rows(trainees, drills), output)
        return
    if not trainees:
        say("No sessions match.")
        return
    _print_tables(trainees, drills, filters.scope())


def _print_tables(trainees: list[Any], drills: list[Any], scope: str = "") -> None:
    """The summary's two tables (per trainee, per drill), fitted to the terminal's width, and what they mean;
    ``scope`` (the mode and drill set they are limited to, see :meth:`Filters.scope`) is named in their titles."""
    from warroom.cli.tables import UNBOUNDED_WIDTH, fitted_table, make_console, print_renderables
    from warroom.core.format import clean, number, percent, seconds

    console = make_console()
    t_columns = [("trainee", "trainee", True)] + [
        (n, n, False)
        for n in ("sessions", "drills run", "contained", "median time to detect", "false escalations", "mean score")
    ]
    t_rows = [
        [
            clean(t.trainee),
            str(t.sessions),
            str(t.drills_run),
            percent(t.contained_rate),
            seconds(t.median_time_to_detect),
            percent(t.false_escalation_rate),
            number(t.mean_score, 1),
        ]
        for t in trainees
    ]
    d_columns = [("drill", "drill", True)] + [
        (n, n, False) for n in ("attempts", "trainees", "contained", "median score")
    ]
    d_rows = [
        [
            clean(d.drill_id + (" (all-clear)" if d.all_clear else "")),
            str(d.attempts),
            str(d.trainees),
            percent(d.contained_rate),
            number(d.median_score, 1),
        ]
        for d in drills
    ]
    t_table = fitted_table(t_columns, t_rows, console.width) or fitted_table(t_columns, t_rows, UNBOUNDED_WIDTH)
    d_table = fitted_table(d_columns, d_rows, console.width) or fitted_table(d_columns, d_rows, UNBOUNDED_WIDTH)
    print_renderables(
        console,
        "Per trainee" + (f" ({clean(scope)})" if scope else ""),
        t_table,
        "Per drill" + (f" ({clean(scope)})" if scope else ""),
        d_table,
        "contained: share of sessions on drills with a fault that contained it (in time or late); "
        "false escalations: share of sessions with at least one false escalation.",
    )


def _summary_csv_rows(trainees: list[Any], drills: list[Any]) -> list[dict[str, Any]]:
    """The ``summary --format csv`` rows: one per trainee (``scope`` trainee), then one per drill."""
    rows = [
        {
            "scope": "trainee",
            "name": t.trainee,
            "sessions": t.sessions,
            "drills_run": t.drills_run,
            "contained_rate": t.contained_rate,
            "median_time_to_detect": t.median_time_to_detect,
            "false_escalation_rate": t.false_escalation_rate,
            "mean_score": t.mean_score,
        }
        for t in trainees
    ]
    return rows + [
        {
            "scope": "drill",
            "name": d.drill_id,
            "sessions": d.attempts,
            "trainees": d.trainees,
            "contained_rate": d.contained_rate,
            "median_score": d.median_score,
        }
        for d in drills
    ]


def _report_skipped(problems: list[Any]) -> None:
    """Name each stored session that was left out (unreadable) on stderr, then exit 1; nothing when none was."""
    for problem in problems:
        say(f"skipped: {problem}", err=True)
    if problems:
        raise click.ClickException(
            f"{len(problems)} stored session(s) could not be read and were left out (listed above; never modified)"
        )


@click.command("summary")
@filter_options
@export_format_option
@output_option
@click.pass_context
def summary_command(ctx: click.Context, **_: Any) -> None:
    """Figures per trainee (sessions, drills run, contained rate, median time to detect, false escalation rate,
    mean score) and per drill (attempts, trainees, contained rate, median score) over the matching sessions.

    Every trainee's sessions count unless --trainee NAME or --mine is given. Sessions killed mid-drill are
    recorded as abandoned first; stored rows that cannot be read are left out and named on stderr (exit status 1).
    """
    o = subcommand_options(ctx)
    check_output(o["fmt"], o["output"])
    settings = settings_from(ctx, data_dir=o["data_dir"])
    summarise(
        settings, filters_of(settings, o), o["fmt"], o["output"]
    )
