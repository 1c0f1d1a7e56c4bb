"""``warroom scores rescore`` (old spelling ``warroom scores --rescore``): recompute stored sessions with the
scoring rules each was scored with (or the edition ``--rules`` names) and say which changed."""

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
)
from warroom.core.settings import Settings
from warroom.core.text import plural


def rescore_sessions(
    settings: Settings, filters: Filters, allow_changed: bool = False, rules: str | None = None, yes: bool = False
) -> None:
    """Re-score the matching stored sessions (:func:`warroom.store.review.rescore`), each by its own edition of the
    scoring rules or by ``rules`` when given, and print what it did: each changed or updated session, each skipped
    one on stderr, then the counts. Exits 1 when a session was skipped. With ``rules``, what would change is shown
    first and the store is rewritten only once confirmed (``yes``: without asking; refused without a terminal)."""
    from warroom.store.review import RescoreStatus, default_drill_resolver, rescore

    store = open_store(settings)
    if store is None:
        say(f"No sessions recorded yet in {settings.data_dir}.")
        return
    with store, store_errors():
        resolver = default_drill_resolver(settings.drill_dirs)
        kwargs: dict[str, Any] = {**filters.as_kwargs(), "allow_changed": allow_changed, "rules": rules}
        if rules is not None and not yes and not _confirmed(rescore(store, resolver, **kwargs, dry_run=True), rules):
            return
        results = rescore(store, resolver, **kwargs)
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
        f"re-scored {n - len(skipped)} of {plural(n, 'session')}: {counts[RescoreStatus.CHANGED]} changed, {unchanged} "
        f"unchanged, {len(skipped)} skipped"
    )
    if skipped:
        click.get_current_context().exit(1)


def _confirmed(would: list[Any], rules: str) -> bool:
    """Show what re-scoring by the scoring rules ``rules`` would change (``would``: a dry run's results) and ask
    whether to do it; True when there is nothing to ask about (no scorecard would change) or the answer is yes."""
    from warroom.cli.scores import _delete
    from warroom.store.review import RescoreStatus

    changes = [r for r in would if r.status in (RescoreStatus.CHANGED, RescoreStatus.UPDATED)]
    if not changes:
        return True
    say(f"Re-scoring by the scoring rules {rules} would rewrite {plural(len(changes), 'stored session')}:")
    for r in changes:
        say(f"  {r.label}: {r.message}")
    if not _delete._stdin_is_a_terminal():
        raise click.ClickException("not re-scoring without confirmation: run it in a terminal, or add --yes")
    if not click.confirm("Rewrite these scorecards? (each one replaced is kept in its session's history)",
                         default=False):  # fmt: skip
        say("Nothing re-scored.")
        return False
    return True


@click.command("rescore")
@filter_options
@click.option("--allow-changed", is_flag=True, help=allow_changed_help)
@rules_option()
@click.option("--yes", "-y", is_flag=True, help="With --rules: rewrite the store without asking first.")
@click.pass_context
def rescore_command(ctx: click.Context, **_: Any) -> None:
    """Recompute the matching stored sessions (from their action logs and drill files), each by the scoring rules
    it was scored with (or by --rules VERSION), and say which changed.

    A session whose drill file changed since it was played is skipped (exit status 1) unless --allow-changed is
    given; then the file it was re-scored against is recorded with it. Every trainee's sessions are re-scored
    unless --trainee NAME or --mine is given. With --rules, what would change is shown first and the store is
    rewritten only once you confirm (--yes: without asking; without a terminal it is refused unless --yes is given).
    """
    o = subcommand_options(ctx)
    check_rules_option(o["rules"])
    settings = settings_from(ctx, data_dir=o["data_dir"])
    filters = filters_of(settings, o)
    rescore_sessions(settings, filters, o["allow_changed"], o["rules"], o["yes"])
