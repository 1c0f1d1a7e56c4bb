"""``warroom scores``: the stored sessions as a table, CSV or JSON; summaries per trainee and per drill; re-scoring.

Heavy imports (pydantic models, Rich, the store) happen inside the command, so ``warroom --help`` stays fast.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import click

from warroom.cli.common import (
    data_dir_option,
    format_option,
    open_results,
    recover_and_report,
    settings_from,
    store_errors,
)
from warroom.core.format import amount, clean, number, percent, seconds
from warroom.store.results import SORT_KEYS

#: ``--trainee`` of ``warroom scores``: a filter, so (unlike the trainee of ``warroom run``) it has no default.
trainee_filter_option = click.option(
    "--trainee",
    default=None,
    help="Only this trainee's sessions (default: every trainee's; --mine for your own).",
)

#: Rows a table shows when ``--limit`` is not given (CSV and JSON export every row).
DEFAULT_TABLE_LIMIT = 50


#: Width of a table written to something that is not a terminal (a file, a pipe) when ``COLUMNS`` is not set.
UNBOUNDED_WIDTH = 200

#: A damage unit longer than this is written once per drill under the table, not in every row.
SHORT_UNIT = 16


def _fmt_damage(value: float | None, unit: str | None) -> str:
    """A damage amount with its unit (``931,837.5 USD refunded in error``); ``-`` for None."""
    if value is None:
        return "-"
    return f"{amount(value)} {unit}" if unit else amount(value)


def _fmt_when(iso: str) -> str:
    from datetime import datetime

    try:
        return datetime.fromisoformat(iso).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return iso


def _outcome_label(outcome: str) -> str:
    """The label of a stored outcome (``contained late`` for ``contained_late``); an unknown value as it is."""
    from warroom.core.outcome import OUTCOME_LABELS, Outcome

    try:
        return OUTCOME_LABELS[Outcome(outcome)]
    except ValueError:
        return outcome


def _cell(value: object) -> Any:
    """A table cell showing ``value`` literally: no Rich markup, control characters written as ``\\xNN``."""
    from rich.text import Text

    return Text(clean(value))


def _console() -> Any:
    """A Rich console for the tables: the terminal's width on a terminal; elsewhere ``$COLUMNS`` when set, else
    :data:`UNBOUNDED_WIDTH`, so a file or a pipe gets every table unsqueezed."""
    import os
    import sys

    from rich.console import Console

    width = None
    if not sys.stdout.isatty():
        columns = os.environ.get("COLUMNS", "").strip()
        width = int(columns) if columns.isdigit() and int(columns) > 0 else UNBOUNDED_WIDTH
    return Console(highlight=False, markup=False, emoji=False, width=width)


#: ANSI SGR codes at the end of a line (after its trailing spaces).
_TRAILING = re.compile(r"[ \t]+((?:\x1b\[[0-9;]*m)*)$")


def _print(console: Any, *renderables: Any) -> None:
    """Print ``renderables`` on ``console`` without trailing spaces on any line (Rich pads to the table width)."""
    with console.capture() as capture:
        for r in renderables:
            console.print(r)
    text = "\n".join(_TRAILING.sub(r"\1", line) for line in capture.get().split("\n"))
    click.echo(text, nl=False)


def _damage_cell(row: Any, inline_units: bool) -> str:
    """A row's damage: the amount with its unit, or (``inline_units`` False and a long unit) the amount and a ``*``
    pointing to the footnote."""
    if not inline_units and row.damage_unit and len(row.damage_unit) > SHORT_UNIT:
        return "-" if row.damage is None else f"{amount(row.damage)} *"
    return _fmt_damage(row.damage, row.damage_unit)


def _unit_footnote(rows: list[Any]) -> str | None:
    """``* damage in UNIT (drill, drill); ...`` for the long damage units of ``rows``' drills, or None."""
    drills: dict[str, list[str]] = {}
    for r in rows:
        if r.damage_unit and len(r.damage_unit) > SHORT_UNIT and r.drill_id not in drills.setdefault(r.damage_unit, []):
            drills[r.damage_unit].append(r.drill_id)
    parts = [f"{unit} ({', '.join(sorted(ids))})" for unit, ids in sorted(drills.items()) if ids]
    return clean("* damage in " + "; ".join(parts)) if parts else None


def _fixed(table: Any, name: str, values: list[str], justify: str = "left") -> None:
    """Add a column that is never truncated nor wrapped (a session id must stay copyable)."""
    width = max(len(line) for text in (name, *values) for line in text.split("\n"))
    table.add_column(name, justify=justify, no_wrap=True, min_width=width)  # type: ignore[arg-type]


def _cells(r: Any, inline_units: bool) -> dict[str, str]:
    return {
        "session": clean(r.session_id),
        "trainee": clean(r.trainee),
        "drill": clean(r.drill_id),
        "when": _fmt_when(r.started_at),
        "outcome": _outcome_label(r.outcome) + (" (recovered)" if r.recovered else ""),
        "score": str(r.total),
        "ttd": seconds(r.time_to_detect),
        "damage": clean(_damage_cell(r, inline_units)),
        "false": str(r.false_escalations),
    }


def _narrow_table(cells: list[dict[str, str]]) -> Any:
    """Three columns, four lines a session: session id, trainee, drill and when; the score; outcome, time to detect,
    damage and false escalations. The headers name each line."""
    from rich import box
    from rich.table import Table

    table = Table(header_style="bold", box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    lines = [v for c in cells for v in (c["session"], c["trainee"], c["drill"], c["when"])]
    _fixed(table, "session\ntrainee\ndrill\nwhen", lines)
    _fixed(table, "score", [c["score"] for c in cells], "right")
    table.add_column("outcome\ntime to detect\ndamage\nfalse esc.", overflow="fold")
    for n, c in enumerate(cells):
        table.add_row(
            _cell("\n".join((c["session"], c["trainee"], c["drill"], c["when"]))),
            _cell(c["score"]),
            _cell("\n".join((c["outcome"], c["ttd"], c["damage"], c["false"]))),
            end_section=n < len(cells) - 1,
        )
    return table


#: The wide table's columns: (cell key, header, never wrapped).
_WIDE_COLUMNS = (
    ("session", "session", True),
    ("trainee", "trainee", True),
    ("drill", "drill", True),
    ("when", "when", False),
    ("outcome", "outcome", False),
    ("score", "score", True),
    ("ttd", "time to detect", False),
    ("damage", "damage", False),
    ("false", "false esc.", False),
)

#: Columns written right-aligned (numbers).
_RIGHT = {"score", "ttd", "damage", "false", "sessions", "drills run", "contained", "median time to detect",
          "false escalations", "mean score", "attempts", "trainees", "median score"}  # fmt: skip


def _fitted_table(columns: list[tuple[str, str, bool]], rows: list[list[str]], width: int) -> Any | None:
    """A Rich table of ``rows`` (cell texts, one per column) no wider than ``width``, or None when it cannot be.

    ``columns`` are (key, header, fixed). A fixed column is as wide as its widest cell and never wraps (ids stay
    whole and copyable); the others wrap between words and never break one: each gets its longest word, then the
    room left is shared out up to each column's widest cell. Widths are set on the columns, so Rich never squeezes
    them itself."""
    from rich.table import Table

    lows, highs = [], []
    for i, (_, header, fixed) in enumerate(columns):
        texts = [header, *(r[i] for r in rows)]
        widest = max(len(line) for t in texts for line in t.split("\n"))
        lows.append(widest if fixed else max(len(w) for t in texts for w in t.split() or [""]))
        highs.append(widest)
    room = width - (3 * len(columns) + 1) - sum(lows)  # padding of 1 each side and a rule between columns
    if room < 0:
        return None
    widths = list(lows)
    wanting = sorted(range(len(columns)), key=lambda i: highs[i] - lows[i])
    for n, i in enumerate(wanting):  # the least wanting first, each at most its share of what is left
        give = min(highs[i] - widths[i], room // (len(wanting) - n))
        widths[i] += give
        room -= give
    table = Table(header_style="bold")
    for (key, header, fixed), w in zip(columns, widths, strict=True):
        table.add_column(
            header, justify="right" if key in _RIGHT else "left", width=w, no_wrap=fixed, overflow="fold"
        )
    for r in rows:
        table.add_row(*(_cell(v) for v in r))
    return table


def _sessions_table(rows: list[Any], width: int) -> tuple[Any, str | None]:
    """The sessions as a Rich table no wider than ``width`` columns, and its footnote (or None).

    Session ids, trainees, drill ids and scores are never truncated or wrapped. In order of preference: nine
    columns with every damage unit in its row; nine columns with the long damage units (over :data:`SHORT_UNIT`
    characters) once per drill in the footnote, so no damage cell wraps over many lines; four lines per session in
    three columns (:func:`_narrow_table`)."""
    for inline_units in (True, False):
        cells = [_cells(r, inline_units) for r in rows]
        # Units in the rows only when no damage cell has to wrap; else they go to the footnote.
        columns = [(k, h, fixed or (inline_units and k == "damage")) for k, h, fixed in _WIDE_COLUMNS]
        table = _fitted_table(columns, [[c[k] for k, _, _ in columns] for c in cells], width)
        if table is not None:
            return table, None if inline_units else _unit_footnote(rows)
    return _narrow_table([_cells(r, False) for r in rows]), _unit_footnote(rows)


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
@click.option(
    "--delete",
    is_flag=True,
    help="Delete the sessions named by SESSION_IDS (ids, or unique prefixes or suffixes of ids) from the store, "
    "with their journals in journals/done/, after showing them and asking for confirmation.",
)
@click.option("--yes", "-y", is_flag=True, help="With --delete: do not ask for confirmation.")
@click.argument("session_ids", nargs=-1, metavar="[SESSION_IDS]...")
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
    delete: bool,
    yes: bool,
    session_ids: tuple[str, ...],
    data_dir: Path | None,
) -> None:
    """Stored sessions: trainee, drill, when, outcome, score, time to detect, damage, false escalations.

    Every trainee's sessions are listed unless --trainee NAME or --mine is given. --summary gives, per trainee,
    the drills run, contained rate, median time to detect, false escalation rate and mean score, and, per drill, the
    attempts, contained rate and median score. Sessions killed mid-drill are recorded as abandoned first.
    """
    from warroom.store.results import parse_since

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
    _check_delete_usage(delete, yes, session_ids, rescore or summary)

    recover_and_report(settings)
    store = open_results(settings, verify=None)  # the whole file is checked first when it is not huge
    if store is None:
        if fmt == "json":
            _write_json({"trainees": [], "drills": []} if summary else [])
        elif fmt == "csv":
            _write_csv(SUMMARY_CSV_COLUMNS if summary else CSV_COLUMNS, [])
        else:
            click.echo(f"No sessions recorded yet in {settings.data_dir}.")
        return
    with store, store_errors():
        if rescore:
            _rescore(store, settings, who, drill_id, since_ts, allow_changed)
            return
        if delete:
            _delete(store, settings, session_ids, yes)
            return
        if summary:
            _summary(store, who, drill_id, since_ts, fmt)
            _report_skipped(store.invalid_rows(trainee=who, drill=drill_id, since=since_ts))
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
            table, footnote = _sessions_table(rows, console.width)
            notes = [footnote] if footnote else []
            if total > len(rows):
                notes.append(f"(showing {len(rows)}; use --limit 0 for all)")
            _print(console, title, table, *notes)
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
    console = _console()
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
    t_table = _fitted_table(t_columns, t_rows, console.width) or _fitted_table(t_columns, t_rows, UNBOUNDED_WIDTH)
    d_table = _fitted_table(d_columns, d_rows, console.width) or _fitted_table(d_columns, d_rows, UNBOUNDED_WIDTH)
    _print(
        console,
        "Per trainee",
        t_table,
        "Per drill",
        d_table,
        "contained: share of sessions on drills with a fault that contained it (in time or late); "
        "false escalations: share of sessions with at least one false escalation.",
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


def _report_skipped(problems: list[Any]) -> None:
    """Name each stored session that was left out (unreadable) on stderr, then exit 1; nothing when none was."""
    for problem in problems:
        click.echo(f"skipped: {problem}", err=True)
    if problems:
        raise click.ClickException(
            f"{len(problems)} stored session(s) could not be read and were left out (listed above; never modified)"
        )


def _check_delete_usage(delete: bool, yes: bool, session_ids: tuple[str, ...], other_mode: bool) -> None:
    """Usage errors of ``--delete``: it needs ids, ids need it, it goes with no other mode, ``--yes`` needs it."""
    if session_ids and not delete:
        raise click.UsageError("session ids are only taken with --delete (`warroom review ID` opens one)")
    if delete and not session_ids:
        raise click.UsageError("--delete needs the ids of the sessions to delete (see `warroom scores`)")
    if delete and other_mode:
        raise click.UsageError("--delete cannot be combined with --summary or --rescore")
    if yes and not delete:
        raise click.UsageError("--yes only applies with --delete")


def _stdin_is_a_terminal() -> bool:
    """True when someone can answer the confirmation (stdin is a terminal)."""
    import sys

    return sys.stdin is not None and sys.stdin.isatty()


def _delete(store: Any, settings: Any, keys: tuple[str, ...], yes: bool) -> None:
    """``--delete``: resolve every key to one session (all must match, or nothing is deleted), show them, ask
    (unless ``yes``; refused without a terminal), then delete the rows and their journals in ``journals/done/``."""
    from warroom.store.results import CorruptSession, SessionNotFound
    from warroom.store.sessions import delete_sessions

    ids: list[str] = []
    for key in keys:
        try:
            sid = store.resolve(key)
        except SessionNotFound as exc:
            raise click.ClickException(f"{exc}; nothing was deleted") from None
        if sid not in ids:
            ids.append(sid)
    click.echo(f"{len(ids)} session(s) to delete from {settings.data_dir}:")
    for sid in ids:
        try:
            r = store.get(sid)
            what = f"{r.trainee}  {r.drill_id}  {_fmt_when(r.started_at)}  {_outcome_label(r.outcome)}  {r.total}"
        except CorruptSession:
            what = "(a stored row that cannot be read)"
        click.echo(clean(f"  {sid}  {what}"))
    if not yes:
        if not _stdin_is_a_terminal():
            raise click.ClickException("not deleting without confirmation: run it in a terminal, or add --yes")
        if not click.confirm(f"Delete these {len(ids)} session(s)? This cannot be undone", default=False):
            click.echo("Nothing deleted.")
            return
    result = delete_sessions(settings.data_dir, store, ids)
    click.echo(f"Deleted {result.deleted} session(s) and {len(result.journals)} journal(s).")
    for problem in result.problems:
        click.echo(f"warning: {problem}", err=True)
