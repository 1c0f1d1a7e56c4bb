"""``warroom scores rescore`` (old spelling ``warroom scores --rescore``): recompute stored sessions with the
scoring rules each was scored with (or the edition ``--rules`` names) and say which changed. With ``--rules`` it
first shows what would change, by outcome and by response, and asks before rewriting the store (``--yes``: without
asking; without a terminal it is refused unless ``--yes``), as ``scores delete`` does."""

from __future__ import annotations

from typing import Any

import click

from warroom.cli.common import say, settings_from, store_errors
from warroom.cli.scores._options import (
    Filters,
    allow_changed_help,
    check_rules_option,
    filter_options,
    filters_of,
    open_store,
    rules_option,
    subcommand_options,
    unknown_trainees,
)
from warroom.core.settings import Settings
from warroom.core.text import clean_name, plural


def rescore_sessions(
    settings: Settings, filters: Filters, allow_changed: bool = False, rules: str | None = None, yes: bool = False
) -> None:
    """Re-score the matching stored sessions (:func:`warroom.store.review.rescore`), each by its own edition of the
    scoring rules or by ``rules`` when given, and print what it did: each changed or updated session, each skipped
    one on stderr, then the counts. With ``rules``, what would change is shown first and the store is rewritten
    only once the user agrees (``yes``: without asking; refused without a terminal). Exits 1 when a session was
    skipped."""
    from warroom.store.review import RescoreStatus, apply_rescore, default_drill_resolver, rescore

    store = open_store(settings)
    if store is None:
        say(f"No sessions recorded yet in {clean_name(settings.data_dir)}.")
        return
    with store, store_errors():
        resolver = default_drill_resolver(settings.drill_dirs)
        asked = rules is not None
        results = rescore(
            store, resolver, **filters.as_kwargs(), allow_changed=allow_changed, rules=rules, write=not asked
        )
        shown = asked and any(r.pending is not None for r in results)
        if shown:
            if not _agreed(results, rules or "", yes):
                return
            results = apply_rescore(store, results)
        unknown = [] if results or not filters.trainee else unknown_trainees(store, [filters.trainee])
    for problem in unknown:  # (it said only "re-scored 0 of 0 sessions")
        say(f"note: {problem}", err=True)
    counts = {status: 0 for status in RescoreStatus}
    for r in results:
        counts[r.status] += 1
        if r.status in (RescoreStatus.CHANGED, RescoreStatus.UPDATED) and not shown:  # (shown already)
            say(r)
    skipped = [r for r in results if r.status is RescoreStatus.SKIPPED]
    for r in skipped:
        say(r, err=True)
    n = len(results)
    unchanged = counts[RescoreStatus.UNCHANGED] + counts[RescoreStatus.UPDATED]
    say(
        f"re-scored {n - len(skipped)} of {plural(n, 'session')}: {counts[RescoreStatus.CHANGED]} changed, {unchanged} "
        f"unchanged, {len(skipped)} skipped"
    )
    if skipped:
        click.get_current_context().exit(1)


def _agreed(results: list[Any], rules: str, yes: bool) -> bool:
    """Show what re-scoring by ``rules`` would change (by outcome, by response, then each session) and ask; True
    to rewrite. Refused (click.ClickException) without a terminal unless ``yes``."""
    from warroom.cli.scores._delete import _stdin_is_a_terminal

    pending = [r for r in results if r.pending is not None]
    say(f"Re-scoring {plural(len(results), 'session')} by the scoring rules {rules} would rewrite {len(pending)}:")
    for line in change_lines(pending):
        say(line)
    if yes:
        return True
    if not _stdin_is_a_terminal():
        raise click.ClickException("not rewriting the store without confirmation: run it in a terminal, or add --yes")
    if click.confirm(f"Rewrite {plural(len(pending), 'session')} (each keeps its replaced scorecard in its history)?"):
        return True
    say("Nothing rewritten.")
    return False


def change_lines(results: list[Any]) -> list[str]:
    """What re-scoring changes, in words: each outcome's and each response's moves (``before -> after: N``) with
    their counts, then each session's line."""
    from collections import Counter

    from warroom.core.model import RESPONSE_LABELS, Response, outcome_label

    def response(value: str | None) -> str:
        return RESPONSE_LABELS[Response(value)] if value in set(Response) else "(not recorded)"

    outcomes: Counter[tuple[str, str]] = Counter()
    responses: Counter[tuple[str, str]] = Counter()
    for r in results:
        if r.before is None or r.after is None:
            continue
        outcomes[outcome_label(r.before[0], r.all_clear), outcome_label(r.after[0], r.all_clear)] += 1
        responses[response(r.before[1]), response(r.after[1])] += 1
    lines = ["  by outcome:"]
    lines += [f"    {a} -> {b}: {n}" if a != b else f"    {a} (unchanged): {n}" for (a, b), n in outcomes.items()]
    lines.append("  by response (the trial's, from the first escalation):")
    lines += [f"    {a} -> {b}: {n}" if a != b else f"    {a} (unchanged): {n}" for (a, b), n in responses.items()]
    return lines + [str(r) for r in results]


@click.command("rescore")
@filter_options
@click.option("--allow-changed", is_flag=True, help=allow_changed_help)
@rules_option()
@click.option("--yes", "-y", is_flag=True, help="With --rules: rewrite the store without asking.")
@click.pass_context
def rescore_command(ctx: click.Context, **_: Any) -> None:
    """Recompute the matching stored sessions (from their action logs and drill files), each by the scoring rules
    it was scored with (or by --rules VERSION), and say which changed.

    With --rules VERSION, what would change is shown first (by outcome and by the trial's response, then each
    session) and the store is rewritten only once you agree (--yes: without asking; without a terminal it is
    refused unless --yes is given); each session keeps the scorecard it replaces in its history. A session whose
    drill file changed since it was played is skipped (exit status 1) unless --allow-changed is given; then the
    file it was re-scored against is recorded with it. Every trainee's sessions are re-scored unless --trainee NAME
    or --mine is given.
    """
    o = subcommand_options(ctx)
    check_rules_option(o["rules"])
    settings = settings_from(ctx, data_dir=o["data_dir"])
    filters = filters_of(settings, o)
    rescore_sessions(settings, filters, o["allow_changed"], o["rules"], o["yes"])
