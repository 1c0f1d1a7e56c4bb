"""``warroom scores delete ID...`` (old spelling ``warroom scores --delete ID...``): delete stored sessions and
their journals in ``journals/done/``, after showing them and asking."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from warroom.cli.common import data_dir_option, say, settings_from, store_errors
from warroom.cli.scores._options import open_store, subcommand_options
from warroom.core.settings import Settings
from warroom.core.text import clean_name, plural, visible_name

yes_help = "Do not ask for confirmation."


def _stdin_is_a_terminal() -> bool:
    """True when someone can answer the confirmation (stdin is a terminal)."""
    import sys

    return sys.stdin is not None and sys.stdin.isatty()


def delete_stored(settings: Settings, keys: tuple[str, ...], yes: bool) -> None:
    """Resolve every key to one session (all must match, or nothing is deleted), show them, ask (unless ``yes``;
    refused without a terminal), then delete the rows and their journals in ``journals/done/``. Raises
    click.ClickException (exit 1) for a key that matches no session or several."""
    store = open_store(settings)
    if store is None:
        say(f"No sessions recorded yet in {clean_name(settings.data_dir)}.")
        return
    with store, store_errors():
        _delete(store, settings, keys, yes)


def _delete(store: Any, settings: Settings, keys: tuple[str, ...], yes: bool) -> None:
    from warroom.cli.scores._tables import fmt_when
    from warroom.core.model import outcome_label
    from warroom.store.errors import CorruptSession, SessionNotFound
    from warroom.store.journal import delete_sessions

    ids: list[str] = []
    for key in keys:
        try:
            sid = store.resolve(key)
        except SessionNotFound as exc:
            raise click.ClickException(f"{exc}; nothing was deleted") from None
        if sid not in ids:
            ids.append(sid)
    where = settings.data_dir if store.dialect.name == "sqlite" else store.location  # a shared store: its URL
    say(f"{plural(len(ids), 'session')} to delete from {where}:")
    for sid in ids:
        try:
            r = store.get(sid)
            outcome = outcome_label(r.outcome, r.all_clear)
            what = f"{visible_name(r.trainee)}  {r.drill_id}  {fmt_when(r.started_at)}  {outcome}  {r.total}"
        except CorruptSession as exc:
            known = exc.trainee is not None and exc.drill_id is not None
            of = f"{visible_name(exc.trainee)}  {exc.drill_id}  " if known else ""
            what = f"{of}(a stored row that cannot be read)"
        say(f"  {sid}  {what}")
    for note in _next_first_attempts(store, ids):
        say(f"warning: {note}", err=True)
    if not yes:
        if not _stdin_is_a_terminal():
            raise click.ClickException("not deleting without confirmation: run it in a terminal, or add --yes")
        these = "this session" if len(ids) == 1 else f"these {plural(len(ids), 'session')}"
        if not click.confirm(f"Delete {these}? This cannot be undone", default=False):
            say("Nothing deleted.")
            return
    result = delete_sessions(settings.data_dir, store, ids)
    say(f"Deleted {plural(result.deleted, 'session')} and {plural(len(result.journals), 'journal')}.")
    for problem in result.problems:
        say(f"warning: {problem}", err=True)


def _next_first_attempts(store: Any, ids: list[str]) -> list[str]:
    """What deleting ``ids`` does to the figures beyond them: each deleted session that is its trainee's first
    attempt at its drill, where they have a later session of it that is kept, makes that later session the first
    attempt (the one the figures count as the trial, docs/cohorts.md), though it was played after the deleted one."""
    from warroom.core.stats import attempt_order
    from warroom.store.cohort import FactsQuery, read_facts
    from warroom.store.errors import CorruptSession

    notes: list[str] = []
    pairs: dict[tuple[str, str], None] = {}
    for sid in ids:
        try:
            r = store.get(sid)
        except CorruptSession as exc:  # its scorecard or action log unreadable: still the trainee's attempt
            if exc.trainee is not None and exc.drill_id is not None:
                pairs[exc.trainee, exc.drill_id] = None
            continue
        pairs[r.trainee, r.drill_id] = None
    gone = set(ids)
    for trainee, drill_id in pairs:
        facts = sorted(read_facts(store, FactsQuery(trainee=trainee, drill=drill_id), with_left_out=True)[0],
                       key=attempt_order)  # fmt: skip
        kept = [f for f in facts if f.session_id not in gone]
        if not facts or facts[0].session_id not in gone or not kept:
            continue
        notes.append(f"{facts[0].session_id} is the first attempt of trainee {clean_name(trainee)!r} at drill "
                     f"{clean_name(drill_id)!r}: once it is deleted, their next session of it, {kept[0].session_id}, "
                     "becomes the first attempt "
                     "the figures count as their trial, though it was played after the deleted one (delete it too "
                     "if it was played knowing the drill)")  # fmt: skip
    return notes


@click.command("delete")
@click.option("--yes", "-y", is_flag=True, help=yes_help)
@click.argument("session_ids", nargs=-1, required=True, metavar="SESSION_ID...")
@data_dir_option
@click.pass_context
def delete_command(ctx: click.Context, session_ids: tuple[str, ...], **_: Any) -> None:
    """Delete the sessions named by SESSION_ID... (ids, or unique prefixes or suffixes of ids) from the store, with
    their journals in journals/done/, after showing them and asking for confirmation (--yes: without asking;
    without a terminal it is refused unless --yes is given). Every id must name one session, or nothing is
    deleted."""
    o = subcommand_options(ctx)
    data_dir: Path | None = o["data_dir"]
    delete_stored(settings_from(ctx, data_dir=data_dir), session_ids, o["yes"])
