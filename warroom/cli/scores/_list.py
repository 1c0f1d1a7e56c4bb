"""``warroom scores list`` (and the bare ``warroom scores``): the stored sessions as a table, CSV or JSON."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import click

from warroom.cli.common import emit_csv, emit_json, say, settings_from, store_errors
from warroom.cli.scores._options import (
    DEFAULT_TABLE_LIMIT,
    Filters,
    check_output,
    export_format_option,
    filter_options,
    filters_of,
    limit_option,
    open_store,
    output_option,
    reverse_option,
    sort_option,
    subcommand_options,
    unknown_trainees,
)
from warroom.core.settings import Settings
from warroom.core.text import clean_name, plural
from warroom.store.results import LIST_FIELDS

#: The CSV export's columns: every flat stored field (the store.s :data:`~warroom.store.results.LIST_FIELDS`;
#: ``notes`` as a JSON list), these first in this order, then the others in the store's order, so that a column
#: the store adds is exported with no change here. The scorecard and the action log are nested, so they are in the
#: JSON export only.
_CSV_FIRST = (
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
)
#: The last column of an export: the session's verification state (docs/cohorts.md): ``unverified``,
#: ``disagrees``, ``unverifiable``, ``verified``, or empty (null in JSON) for a session warroom's recorder stored.
VERIFICATION = "verification"
CSV_COLUMNS = _CSV_FIRST + tuple(f for f in LIST_FIELDS if f not in _CSV_FIRST) + (VERIFICATION,)


def _shown(row: Any) -> Any:
    """``row`` as ``warroom scores`` may show it: a session that never reached its debrief without its answer-key
    fields (:func:`warroom.core.model.hidden_session_fields`)."""
    import dataclasses

    from warroom.core.model import hidden_session_fields

    hidden = hidden_session_fields(row.outcome)
    return dataclasses.replace(row, **dict.fromkeys(hidden)) if hidden else row


def _csv_row(row: Any, state: str | None) -> dict[str, Any]:
    """A session row's CSV cells: the flat fields (answer-key fields empty for a session that never reached its
    debrief), ``notes`` as a JSON list, and its verification ``state``."""
    import json

    d = _json_row(row, state)
    d["notes"] = json.dumps(d.get("notes") or [], ensure_ascii=False)
    return d


def _json_row(row: Any, state: str | None) -> dict[str, Any]:
    """A session row as exported: its fields (answer-key fields left out before its debrief) and its verification
    ``state`` (None: stored by warroom's recorder)."""
    from warroom.core.model import pre_debrief_session

    d: dict[str, Any] = pre_debrief_session(row.to_dict())
    d[VERIFICATION] = state
    return d


def list_sessions(settings: Settings, filters: Filters, opts: Mapping[str, Any]) -> None:
    """Print the matching stored sessions, by the command's options ``opts`` (``warroom scores`` and ``scores
    list`` read the same ones): ``fmt`` table, csv or json; ``output`` writes the export to a file; ``sort_key``,
    ``reverse``; ``limit`` None shows :data:`DEFAULT_TABLE_LIMIT` rows in a table and every row in an export, 0
    every row. Unreadable rows are named on stderr and skipped, then click.ClickException (exit 1) after the rest."""
    fmt: str = opts["fmt"]
    output: Path | None = opts["output"]
    limit: int | None = opts["limit"]
    store = open_store(settings)
    if store is None:
        if fmt == "json":
            emit_json([], output)
        elif fmt == "csv":
            emit_csv(CSV_COLUMNS, [], output)
        else:
            say(f"No sessions recorded yet in {clean_name(settings.data_dir)}.")
        return
    with store, store_errors():
        effective_limit = limit if limit is not None else (DEFAULT_TABLE_LIMIT if fmt == "table" else 0)
        rows, unreadable = store.query_readable(
            **filters.as_kwargs(), sort=opts["sort_key"], reverse=opts["reverse"], limit=effective_limit,
            full=fmt == "json",
        )
        for problem in unreadable:  # reported and skipped, never modified
            say(f"skipped: {problem}", err=True)
        checks = store.checks([r.session_id for r in rows])
        states = {sid: c.state for sid, c in checks.items()}
        unknown = [] if rows or unreadable or not filters.trainee else unknown_trainees(store, [filters.trainee])
        if fmt != "table" and unknown:
            say(f"note: {unknown[0]}", err=True)
        if fmt == "json":
            emit_json([_json_row(r, states.get(r.session_id)) for r in rows], output)
        elif fmt == "csv":
            emit_csv(CSV_COLUMNS, [_csv_row(r, states.get(r.session_id)) for r in rows], output)
        elif rows or unreadable:
            _print_table(rows, store.count(**filters.as_kwargs()), states)
        else:
            say(_none_match(filters, store.count(), unknown) if filters.given() else "No sessions recorded yet.")
        if unreadable:
            raise click.ClickException(
                f"{plural(len(unreadable), 'stored session')} could not be read and "
                f"{plural(len(unreadable), 'was', 'were', count=False)} skipped (listed above)"
            )


def _none_match(filters: Any, stored: int, unknown: list[str] | None = None) -> str:
    """What a list with filters that match nothing says: the filters, and that other sessions are stored (`warroom
    scores --set week-1 --mode assessment` said only "No sessions match." of a set played in practice); ``unknown``:
    that the ``--trainee`` named has no session at all (:func:`unknown_trainees`), with a did-you-mean."""
    if not stored:
        return "No sessions match: no session is stored yet."
    if unknown:
        return f"No sessions match {filters.options()}: {unknown[0]}."
    return (f"No sessions match {filters.options()}: {plural(stored, 'session is', 'sessions are')} stored "
            "(`warroom scores` without these options lists them).")


def _print_table(rows: list[Any], total: int, states: dict[str, str]) -> None:
    """The sessions table, titled with how many of the ``total`` matching sessions it shows; a session the
    statistics leave out (``states``: session id -> its verification state) is marked ``!`` beside its score, and a
    note says why."""
    from warroom.cli.common import make_console, print_renderables
    from warroom.cli.scores._tables import CHOSEN_MARK, sessions_table

    title = f"{len(rows):,} of {plural(total, 'session')}" if total > len(rows) else plural(total, "session")
    console = make_console()
    left_out = {sid: state for sid, state in states.items() if state != "verified"}
    table, footnote = sessions_table([_shown(r) for r in rows], console.width, left_out)
    notes = [footnote] if footnote else []
    if left_out:
        kinds = ", ".join(f"{n} {state}" for state, n in sorted(Counter(left_out.values()).items()))
        notes.append(f"! not verified ({kinds}): left out of the statistics; `warroom scores verify` says why")
    if any(getattr(r, "chosen", False) for r in rows):
        notes.append(f"{CHOSEN_MARK}: its trial or seed was chosen (`warroom run --as`/`--seed`), not drawn: kept, "
                     "never counted in the statistics")
    if total > len(rows):
        notes.append(f"(showing {len(rows)}; use --limit 0 for all)")
    print_renderables(console, title, table, *notes)


@click.command("list")
@filter_options
@sort_option
@reverse_option
@limit_option
@export_format_option
@output_option
@click.pass_context
def list_command(ctx: click.Context, **_: Any) -> None:
    """The stored sessions: trainee, drill, when, outcome, score, time to detect, damage, false escalations.

    Every trainee's sessions are listed unless --trainee NAME or --mine is given (--set ID: those played in a
    drill set; --mode: those of one mode, --mode tutorial those of `warroom tutorial`); a table shows the newest 50
    (--limit), CSV and JSON every one. Sessions killed mid-drill are recorded as abandoned first.

    Printed output (a table, CSV or JSON, on a terminal or a pipe) shows control and bidi characters as escapes;
    --output FILE writes CSV or JSON exactly as stored. CSV text cells starting with = + - @ get a leading '.
    """
    o = subcommand_options(ctx)
    check_output(o["fmt"], o["output"])
    settings = settings_from(ctx, data_dir=o["data_dir"])
    filters = filters_of(settings, o)
    list_sessions(settings, filters, o)
