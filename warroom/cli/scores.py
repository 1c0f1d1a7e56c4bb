"""``warroom scores``: the stored sessions as a table, CSV or JSON; summaries per trainee and per drill; re-scoring.

Heavy imports (pydantic models, Rich, the store) happen inside the command, so ``warroom --help`` stays fast.
"""

from __future__ import annotations

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
from warroom.cli.output import emit_csv, emit_json, say
from warroom.cli.summary import mode_option, show_summary
from warroom.cli.tables import (
    fmt_when,
    make_console,
    outcome_label,
    print_renderables,
    sessions_table,
)
from warroom.core.format import clean
from warroom.store.results import SORT_KEYS

#: ``--trainee`` of ``warroom scores``: a filter, so (unlike the trainee of ``warroom run``) it has no default.
trainee_filter_option = click.option(
    "--trainee",
    default=None,
    help="Only this trainee's sessions (default: every trainee's; --mine for your own).",
)

#: Rows a table shows when ``--limit`` is not given (CSV and JSON export every row).
DEFAULT_TABLE_LIMIT = 50


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
    "mode",
    "set_id",
    "seed",
    "pauses",
    "paused_seconds",
    "wall_time_to_detect",
)


def _csv_row(row: Any) -> dict[str, Any]:
    """A session row's CSV cells: the flat fields, ``notes`` as a JSON list."""
    import json

    d: dict[str, Any] = row.to_dict()
    d["notes"] = json.dumps(d.get("notes") or [], ensure_ascii=False)
    return d


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
@click.option("--summary", is_flag=True, help="Detection statistics per trainee and per drill instead of the sessions.")
@mode_option
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
    "--output",
    "-o",
    type=click.Path(dir_okay=False, writable=True, path_type=Path),
    default=None,
    help="Write the CSV or JSON export to this file, exactly as stored (printed output shows control characters "
    "as \\xNN escapes).",
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
    mode: str,
    fmt: str,
    rescore: bool,
    allow_changed: bool,
    output: Path | None,
    delete: bool,
    yes: bool,
    session_ids: tuple[str, ...],
    data_dir: Path | None,
) -> None:
    """Stored sessions: trainee, drill, when, outcome, score, time to detect, damage, false escalations.

    Every trainee's sessions are listed unless --trainee NAME or --mine is given. --summary gives the detection
    statistics: per trainee the hit rate, false-alarm rate, d′, c, A′, median times to detect, mean score and
    reliability; per drill the difficulty, discrimination, median times to detect and the distractors that pulled
    escalations (--mode: which sessions count; abandoned ones are counted apart). Sessions killed mid-drill are
    recorded as abandoned first.

    Printed output (a table, CSV or JSON, on a terminal or a pipe) shows control and bidi characters as escapes;
    --output FILE writes CSV or JSON exactly as stored. CSV text cells starting with = + - @ get a leading '.
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
            raise click.BadParameter(clean(exc), param_hint="--since") from None
    if allow_changed and not rescore:
        raise click.UsageError("--allow-changed only applies with --rescore")
    if output is not None and (fmt == "table" or rescore):
        raise click.UsageError("--output writes an export: use it with --format csv or --format json")
    _check_delete_usage(delete, yes, session_ids, rescore or summary)

    recover_and_report(settings)
    store = open_results(settings, verify=None)  # the whole file is checked first when it is not huge
    if store is None:
        if summary:
            show_summary(None, mode=mode, fmt=fmt, output=output)
        elif fmt == "json":
            emit_json([], output)
        elif fmt == "csv":
            emit_csv(CSV_COLUMNS, [], output)
        else:
            say(f"No sessions recorded yet in {settings.data_dir}.")
        return
    with store, store_errors():
        if rescore:
            _rescore(store, settings, who, drill_id, since_ts, allow_changed)
            return
        if delete:
            _delete(store, settings, session_ids, yes)
            return
        if summary:
            _report_skipped(
                show_summary(store, trainee=who, drill=drill_id, since=since_ts, mode=mode, fmt=fmt, output=output)
            )
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
            say(f"skipped: {problem}", err=True)
        if fmt == "json":
            emit_json([r.to_dict() for r in rows], output)
        elif fmt == "csv":
            emit_csv(CSV_COLUMNS, [_csv_row(r) for r in rows], output)
        else:
            if not rows and not unreadable:
                say("No sessions match." if (who or drill_id or since_ts) else "No sessions recorded yet.")
                return
            total = store.count(trainee=who, drill=drill_id, since=since_ts)
            title = f"{len(rows)} of {total} session(s)" if total > len(rows) else f"{total} session(s)"
            console = make_console()
            table, footnote = sessions_table(rows, console.width)
            notes = [footnote] if footnote else []
            if total > len(rows):
                notes.append(f"(showing {len(rows)}; use --limit 0 for all)")
            print_renderables(console, title, table, *notes)
        if unreadable:
            raise click.ClickException(
                f"{len(unreadable)} stored session(s) could not be read and were skipped (listed above)"
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
            say(r)
    skipped = [r for r in results if r.status is RescoreStatus.SKIPPED]
    for r in skipped:
        say(r, err=True)
    n = len(results)
    unchanged = counts[RescoreStatus.UNCHANGED] + counts[RescoreStatus.UPDATED]
    say(
        f"re-scored {n - len(skipped)} of {n} session(s): {counts[RescoreStatus.CHANGED]} changed, {unchanged} "
        f"unchanged, {len(skipped)} skipped"
    )
    if skipped:
        click.get_current_context().exit(1)


def _report_skipped(problems: list[Any]) -> None:
    """Name each stored session that was left out (unreadable) on stderr, then exit 1; nothing when none was."""
    for problem in problems:
        say(f"skipped: {problem}", err=True)
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
    say(f"{len(ids)} session(s) to delete from {settings.data_dir}:")
    for sid in ids:
        try:
            r = store.get(sid)
            what = f"{r.trainee}  {r.drill_id}  {fmt_when(r.started_at)}  {outcome_label(r.outcome)}  {r.total}"
        except CorruptSession:
            what = "(a stored row that cannot be read)"
        say(f"  {sid}  {what}")
    if not yes:
        if not _stdin_is_a_terminal():
            raise click.ClickException("not deleting without confirmation: run it in a terminal, or add --yes")
        if not click.confirm(f"Delete these {len(ids)} session(s)? This cannot be undone", default=False):
            say("Nothing deleted.")
            return
    result = delete_sessions(settings.data_dir, store, ids)
    say(f"Deleted {result.deleted} session(s) and {len(result.journals)} journal(s).")
    for problem in result.problems:
        say(f"warning: {problem}", err=True)
