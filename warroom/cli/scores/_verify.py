"""``warroom scores verify``: recompute every stored session from its action log and its drill file, say which
disagree with what is stored or cannot be verified, and record it so that ``scores summary`` and ``report`` leave
them out (:mod:`warroom.store.review._verify`)."""

from __future__ import annotations

from typing import Any

import click

from warroom.cli.common import emit_json, file_progress, say, settings_from, store_errors
from warroom.cli.scores._options import (
    Filters,
    filter_options,
    filters_of,
    open_store,
    subcommand_options,
    unknown_trainees,
)
from warroom.core.settings import Settings
from warroom.core.text import clean_name, plural


def verify_stored(settings: Settings, filters: Filters, fmt: str = "text") -> None:
    """Verify the matching stored sessions and print the verdicts: each session that disagrees or cannot be verified
    (a line each, or every session as JSON), then the counts (stderr for JSON). Exits 1 when any disagrees or cannot
    be verified."""
    from warroom.store.backends import group_roles, own_sessions_only
    from warroom.store.review import Verdict, default_drill_resolver, verify_sessions

    store = open_store(settings)
    if store is None:
        if fmt == "json":
            emit_json([])
        say(f"No sessions recorded yet in {clean_name(settings.data_dir)}.", err=fmt == "json")
        return
    with store, store_errors():
        login_role = own_sessions_only(store)  # a trainee role may not record verdicts (nor change any)
        trainees = group_roles(store).shown().trainee
        resolver = default_drill_resolver(settings.drill_dirs)
        with file_progress(store.count(**filters.as_kwargs()), "verifying sessions") as done:
            results = verify_sessions(store, resolver, **filters.as_kwargs(), record=login_role is None, done=done)
        unknown = [] if results or not filters.trainee else unknown_trainees(store, [filters.trainee])
    for problem in unknown:  # `--trainee anne` said only "verified 0 of 0 sessions", as if anne's were all right
        say(f"note: {problem}", err=True)
    wrong = [r for r in results if r.verdict is not Verdict.VERIFIED]
    if fmt == "json":
        emit_json([r.to_dict() for r in results])
    else:
        for r in wrong:
            say(r)
    n_wrong = {v: sum(r.verdict is v for r in results) for v in Verdict}
    line = (
        f"verified {n_wrong[Verdict.VERIFIED]} of {plural(len(results), 'session')}: "
        f"{n_wrong[Verdict.DISAGREES]} disagree, {n_wrong[Verdict.UNVERIFIABLE]} cannot be verified"
    )
    if login_role is not None:
        line += f" (not recorded: the login role {login_role!r} is a {trainees} and may not record verdicts)"
    elif wrong:
        line += "; the summary and the report leave those out until verified (--include-unverified counts them)"
    say(line, err=fmt == "json")
    if wrong:
        click.get_current_context().exit(1)


@click.command("verify")
@filter_options
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="text: a line per session that disagrees or cannot be verified; json: every session's verdict.",
)
@click.pass_context
def verify_command(ctx: click.Context, **_: Any) -> None:
    """Recompute every matching stored session from its action log and its drill file, and report each one whose
    stored results disagree: its columns (drill_id, outcome, total, time to detect, damage, ...), its scorecard,
    its distractor figures or its mode, or whose drill file is missing or changed; a session stored without a check
    that copies another's action log is a copy, and one of a drill set (a drill with a twin) cannot be verified: its
    trial was drawn with the set's noise_rate, which the store does not keep.

    The verdicts are recorded: `scores summary` and `report` leave out the sessions that disagree or cannot be
    verified, and count the sessions a trainee's own client stored (or an import brought) once they are found
    right. A session stored without a check is verified by its drill id and the current scoring rules. Exit status
    1 when any session disagrees or cannot be verified. Every trainee's sessions are verified unless --trainee NAME
    or --mine is given; --drills DIR names more folders to find drill files in.
    """
    o = subcommand_options(ctx)
    settings = settings_from(ctx, data_dir=o["data_dir"])
    verify_stored(settings, filters_of(settings, o), o["fmt"])
