"""``warroom scores``: the stored sessions as a table, CSV or JSON; summaries per trainee and per drill; re-scoring.

Heavy imports (pydantic models, Rich, the store) happen inside the command, so ``warroom --help`` stays fast.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from warroom.cli.common import data_dir_option, format_option, recover_and_report, settings_from
from warroom.store.results import DB_NAME, SORT_KEYS

#: ``--trainee`` of ``warroom scores``: a filter, so (unlike the trainee of ``warroom run``) it has no default.
trainee_filter_option = click.option(
    "--trainee",
    default=None,
    help="Only this trainee's sessions (default: every trainee's; --mine for your own).",
)

#: Rows a table shows when ``--limit`` is not given (CSV and JSON export every row).
DEFAULT_TABLE_LIMIT = 50


def _fmt_num(value: float | None, digits: int = 1) -> str:
    if value is None:
        return "-"
    if float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:,.{digits}f}"


def _fmt_seconds(value: float | None) -> str:
    """Seconds of drill time with one decimal, as the debrief shows them (``18.5 s``); ``-`` for None."""
    return "-" if value is None else f"{value:.1f} s"


def _fmt_damage(value: float | None, unit: str | None) -> str:
    """A damage amount with its unit (``931,837.5 USD refunded in error``); ``-`` for None."""
    if value is None:
        return "-"
    return f"{_fmt_num(value)} {unit}" if unit else _fmt_num(value)


def _fmt_rate(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:.0f}%"


def _fmt_when(iso: str) -> str:
    from datetime import datetime

    try:
        return datetime.fromisoformat(iso).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return iso


def _cell(value: object) -> Any:
    """A table cell showing ``value`` literally: no Rich markup, control characters written as ``\\xNN``."""
    import re

    from rich.text import Text

    return Text(re.sub(r"[\x00-\x1f\x7f-\x9f]", lambda m: f"\\x{ord(m.group()):02x}", str(value)))


def _console() -> Any:
    import sys

    from rich.console import Console

    return Console(highlight=False, markup=False, emoji=False, width=None if sys.stdout.isatty() else 200)


def _sessions_table(rows: list[Any], title: str) -> Any:
    from rich.table import Table

    table = Table(title=title, title_justify="left", header_style="bold")
    for name, justify in (
        ("session", "left"),
        ("trainee", "left"),
        ("drill", "left"),
        ("when", "left"),
        ("outcome", "left"),
        ("score", "right"),
        ("time to detect", "right"),
        ("damage", "right"),
        ("false esc.", "right"),
    ):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for r in rows:
        outcome = r.outcome + (" (recovered)" if r.recovered else "")
        table.add_row(
            _cell(r.session_id),
            _cell(r.trainee),
            _cell(r.drill_id),
            _cell(_fmt_when(r.started_at)),
            _cell(outcome),
            _cell(r.total),
            _cell(_fmt_seconds(r.time_to_detect)),
            _cell(_fmt_damage(r.damage, r.damage_unit)),
            _cell(r.false_escalations),
        )
    return table


#: The CSV export's columns: every flat stored field (``notes`` as a JSON list). The scorecard and the action log
#: are nested, so they are in the JSON export only.
CSV_COLUMNS = (
    "session_id",
    "trainee",
    "drill_id",
    "drill_version",
    "started_at",
    "ended_at",
    "outcome",
    "total",
    "time_to_detect",
    "damage",
    "full_damage",
    "damage_unit",
    "false_escalations",
    "cost_usd",
    "scoring_version",
    "recovered",
    "all_clear",
    "drill_sha256",
    "drill_path",
    "notes",
    "rescored_at",
)

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


def _write_csv(columns: tuple[str, ...], rows: list[dict[str, Any]]) -> None:
    import csv
    import io

    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=columns, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: ("" if row.get(k) is None else row.get(k)) for k in columns})
    click.echo(buf.getvalue(), nl=False)


def _csv_row(row: Any) -> dict[str, Any]:
    """A session row's CSV cells: the flat fields, ``notes`` as a JSON list."""
    import json

    d = row.to_dict()
    d["notes"] = json.dumps(d.get("notes") or [], ensure_ascii=False)
    return d


def _write_json(value: Any) -> None:
    import json

    click.echo(json.dumps(value, indent=2, ensure_ascii=False))


@click.command()
@trainee_filter_option
@click.option("--mine", is_flag=True, help="Only the current trainee's sessions ($WARROOM_TRAINEE, else the OS user).")
@click.option("--drill", "drill_id", default=None, help="Only sessions of this drill id.")
@click.option("--since", default=None, help="Only sessions started at or after this date or ISO datetime (UTC).")
@click.option(
    "--sort",
    "sort_key",
    type=click.Choice(list(SORT_KEYS)),
    default="when",
    show_default=True,
    help="Sort by: when (newest first), score (best first), trainee, drill, outcome, ttd (fastest first), damage "
    "(least first), false (fewest false escalations first).",
)
@click.option("--reverse", is_flag=True, help="Reverse the sort order.")
@click.option(
    "--limit",
    type=click.IntRange(min=0),
    default=None,
    help=f"Show at most this many sessions; 0 = all (default: {DEFAULT_TABLE_LIMIT} in a table, all in CSV/JSON).",
)
@click.option("--summary", is_flag=True, help="Figures per trainee and per drill instead of the sessions.")
@format_option("Output format.", choices=("table", "csv", "json"))
@click.option(
    "--rescore",
    is_flag=True,
    help="Recompute the matching stored sessions with the current scoring rules (from their action logs and drill "
    "files) and say which changed.",
)
@click.option(
    "--allow-changed",
    is_flag=True,
    help="With --rescore: also re-score sessions whose drill file changed since they were played.",
)
@data_dir_option
@click.pass_context
def scores(
    ctx: click.Context,
    trainee: str | None,
    mine: bool,
    drill_id: str | None,
    since: str | None,
    sort_key: str,
    reverse: bool,
    limit: int | None,
    summary: bool,
    fmt: str,
    rescore: bool,
    allow_changed: bool,
    data_dir: Path | None,
) -> None:
    """Stored sessions: trainee, drill, when, outcome, score, time to detect, damage, false escalations.

    Every trainee's sessions are listed unless --trainee NAME or --mine is given. --summary gives, per trainee,
    the drills run, contained rate, median time to detect, false escalation rate and mean score, and, per drill, the
    attempts, contained rate and median score. Sessions killed mid-drill are recorded as abandoned first.
    """
    from warroom.store.results import ResultsStore, StoreError, parse_since

    settings = settings_from(ctx, data_dir=data_dir)
    if trainee and trainee.strip():
        who: str | None = trainee.strip()
    else:
        who = settings.trainee if mine else None
    since_ts = None
    if since is not None:
        try:
            since_ts = parse_since(since)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--since") from None
    if allow_changed and not rescore:
        raise click.UsageError("--allow-changed only applies with --rescore")

    recover_and_report(settings)
    try:
        store = ResultsStore(settings.data_dir, create=False)
    except StoreError as exc:
        if not (settings.data_dir / DB_NAME).exists():
            if fmt == "json":
                _write_json({"trainees": [], "drills": []} if summary else [])
            elif fmt == "csv":
                _write_csv(SUMMARY_CSV_COLUMNS if summary else CSV_COLUMNS, [])
            else:
                click.echo(f"No sessions recorded yet in {settings.data_dir}.")
            return
        raise click.ClickException(str(exc)) from None
    with store:
        if rescore:
            _rescore(store, settings, who, drill_id, since_ts, allow_changed)
            return
        if summary:
            _summary(store, who, drill_id, since_ts, fmt)
            return
        effective_limit = limit if limit is not None else (DEFAULT_TABLE_LIMIT if fmt == "table" else 0)
        rows, unreadable = store.query_readable(
            trainee=who,
            drill=drill_id,
            since=since_ts,
            sort=sort_key,
            reverse=reverse,
            limit=effective_limit,
            full=fmt == "json",
        )
        for problem in unreadable:  # reported and skipped, never modified
            click.echo(f"skipped: {problem}", err=True)
        if fmt == "json":
            _write_json([r.to_dict() for r in rows])
        elif fmt == "csv":
            _write_csv(CSV_COLUMNS, [_csv_row(r) for r in rows])
        else:
            if not rows and not unreadable:
                click.echo("No sessions match." if (who or drill_id or since_ts) else "No sessions recorded yet.")
                return
            total = store.count(trainee=who, drill=drill_id, since=since_ts)
            title = f"{len(rows)} of {total} session(s)" if total > len(rows) else f"{total} session(s)"
            console = _console()
            console.print(_sessions_table(rows, title))
            if total > len(rows):
                console.print(f"(showing {len(rows)}; use --limit 0 for all)")
        if unreadable:
            raise click.ClickException(
                f"{len(unreadable)} stored session(s) could not be read and were skipped (listed above)"
            )


def _summary(store: Any, who: str | None, drill_id: str | None, since_ts: str | None, fmt: str) -> None:
    trainees = store.trainee_summaries(trainee=who, drill=drill_id, since=since_ts)
    drills = store.drill_summaries(trainee=who, drill=drill_id, since=since_ts)
    if fmt == "json":
        _write_json({"trainees": [t.to_dict() for t in trainees], "drills": [d.to_dict() for d in drills]})
        return
    if fmt == "csv":
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
        ] + [
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
        _write_csv(SUMMARY_CSV_COLUMNS, rows)
        return
    if not trainees:
        click.echo("No sessions match.")
        return
    from rich.table import Table

    console = _console()
    t_table = Table(title="Per trainee", title_justify="left", header_style="bold")
    for name in ("trainee", "sessions", "drills run", "contained", "median time to detect", "false escalations", "mean score"):
        t_table.add_column(name, justify="left" if name == "trainee" else "right")
    for t in trainees:
        t_table.add_row(
            _cell(t.trainee),
            str(t.sessions),
            str(t.drills_run),
            _fmt_rate(t.contained_rate),
            _fmt_seconds(t.median_time_to_detect),
            _fmt_rate(t.false_escalation_rate),
            f"{t.mean_score:.1f}",
        )
    d_table = Table(title="Per drill", title_justify="left", header_style="bold")
    for name in ("drill", "attempts", "trainees", "contained", "median score"):
        d_table.add_column(name, justify="left" if name == "drill" else "right")
    for d in drills:
        d_table.add_row(
            _cell(d.drill_id + (" (all-clear)" if d.all_clear else "")),
            str(d.attempts),
            str(d.trainees),
            _fmt_rate(d.contained_rate),
            f"{d.median_score:g}",
        )
    console.print(t_table)
    console.print(d_table)
    console.print(
        "contained: share of sessions on drills with a fault that contained it (in time or late); "
        "false escalations: share of sessions with at least one false escalation."
    )


def _rescore(
    store: Any, settings: Any, who: str | None, drill_id: str | None, since_ts: str | None, allow_changed: bool
) -> None:
    """Print what :func:`warroom.store.rescore.rescore` did; exit 1 when a session was skipped."""
    from warroom.store.rescore import RescoreStatus, rescore
    from warroom.store.sessions import default_drill_resolver

    results = rescore(
        store,
        default_drill_resolver(settings.drill_dirs),
        trainee=who,
        drill=drill_id,
        since=since_ts,
        allow_changed=allow_changed,
    )
    counts = {status: 0 for status in RescoreStatus}
    for r in results:
        counts[r.status] += 1
        if r.status in (RescoreStatus.CHANGED, RescoreStatus.UPDATED):
            click.echo(str(r))
    skipped = [r for r in results if r.status is RescoreStatus.SKIPPED]
    for r in skipped:
        click.echo(str(r), err=True)
    n = len(results)
    unchanged = counts[RescoreStatus.UNCHANGED] + counts[RescoreStatus.UPDATED]
    click.echo(
        f"re-scored {n - len(skipped)} of {n} session(s): {counts[RescoreStatus.CHANGED]} changed, {unchanged} "
        f"unchanged, {len(skipped)} skipped"
    )
    if skipped:
        click.get_current_context().exit(1)
