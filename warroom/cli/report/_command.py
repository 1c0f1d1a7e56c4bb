"""``warroom report``: the facilitator's report, one self-contained HTML page of the cohort statistics.

Heavy imports (matplotlib, the store) happen inside the command, so ``warroom --help`` stays fast.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from warroom.cli.common import (
    data_dir_option,
    emit,
    failure,
    open_results,
    output_option,
    recover_and_report,
    say,
    settings_from,
    store_errors,
)
from warroom.cli.scores import include_unverified_option, parsed_since, set_filter_option, unknown_trainees
from warroom.core.text import clean, clean_name, plural, shown_path

#: What to install when matplotlib is missing.
INSTALL_HINT = "pip install 'warroom[report]'"

#: ``--mode``: which sessions the statistics count (as ``warroom scores summary``'s default, ``auto``).
mode_option = click.option(
    "--mode",
    "mode",
    type=click.Choice(["auto", "assessment", "practice", "all"]),
    default="auto",
    show_default=True,
    help="Sessions the statistics count: auto = assessment sessions when any match, else all of them.",
)


@click.command()
@set_filter_option
@click.option("--since", default=None, help="Only sessions started at or after this date or ISO datetime (UTC).")
@click.option("--trainee", "trainees", multiple=True, help="Only this trainee's sessions (repeatable).")
@mode_option
@output_option("The HTML file to write (created or replaced), or - for standard output. Required.")
@include_unverified_option
@data_dir_option
@click.pass_context
def report(
    ctx: click.Context,
    set_id: str | None,
    since: str | None,
    trainees: tuple[str, ...],
    mode: str,
    output: Path | None,
    include_unverified: bool,
    data_dir: Path | None,
) -> None:
    """Write the facilitator's report: one HTML page with each trainee in hit-rate vs false-alarm-rate space,
    per-drill difficulty and discrimination, time-to-detect distributions and the distractors that pulled
    escalations, and the tables of `warroom scores summary`.

    The page needs no network access to open (everything is inline). Sessions are counted as in
    `warroom scores summary` (--mode; abandoned sessions apart; the sessions that are not verified left out, and
    listed with why, unless --include-unverified). Exits 1 when no session matches, or a --trainee has no stored
    session (nothing written).
    """
    from datetime import UTC, datetime

    from warroom.store.cohort import FactsQuery

    if ctx.get_parameter_source("output") is click.core.ParameterSource.DEFAULT:
        raise click.MissingParameter(ctx=ctx, param=next(p for p in ctx.command.params if p.name == "output"))
    settings = settings_from(ctx, data_dir=data_dir)
    since_ts = parsed_since(since)
    try:
        import matplotlib  # noqa: F401  (checked first: the page cannot be drawn without it)
    except ImportError:
        raise failure(
            f"warroom report draws its figures with matplotlib, which is not installed: {INSTALL_HINT}"
        ) from None
    recover_and_report(settings)
    store = open_results(settings, verify=None)
    if store is None:
        raise failure(f"no sessions recorded yet in {clean_name(settings.data_dir)}: nothing to report")
    live = _in_progress(settings.data_dir, trainees)
    with store, store_errors():
        if unknown := unknown_trainees(store, trainees):  # a typo's report left that trainee out unsaid
            raise failure("; ".join(unknown) + ": nothing written (--trainee names a trainee with stored sessions)")
        query = FactsQuery(since=since_ts, set_id=set_id, trainees=trainees, include_unverified=include_unverified)
        _write(store, query, mode, output, datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"), live)


def _in_progress(data_dir: Path, trainees: tuple[str, ...]) -> int:
    """The sessions being played now from ``data_dir`` (of ``trainees`` when given), as `warroom scores summary`
    counts them: in no figure yet, said on the page and on the terminal."""
    from warroom.store.journal import sessions_in_progress

    if not trainees:
        return sessions_in_progress(data_dir)
    return sum(sessions_in_progress(data_dir, trainee) for trainee in dict.fromkeys(trainees))


def scope_sentence(set_id: str | None, since: str | None, trainees: tuple[str, ...]) -> str:
    """Which sessions were asked for, in a sentence (the report's first line), control characters of the filter
    values written as escapes (:func:`~warroom.core.text.clean`)."""
    parts = []
    if set_id is not None:
        parts.append(f"played in drill set {set_id}")
    if since is not None:
        parts.append(f"started since {since[:16].replace('T', ' ')} UTC")
    if trainees:
        parts.append(f"of {', '.join(trainees)}")
    return clean("Sessions " + ", ".join(parts) + ".") if parts else "All stored sessions."


def _write(store: Any, query: Any, mode: str, output: Path | None, now: str, in_progress: int = 0) -> None:
    from dataclasses import replace

    from warroom.cli.report._page import render
    from warroom.cli.scores import (
        compute_summary,
        counted_line,
        in_progress_line,
        tutorial_matches,
        unverified_sentence,
    )
    from warroom.store.cohort import prepared, read_facts, tutorial_sessions, unverified_sessions, window_problems

    # the first attempts are found among all the trainees' sessions, those not verified too; --since, --set and the
    # verification then keep theirs
    query = prepared(store, query)
    facts, problems = read_facts(store, query.partition(), with_left_out=True)
    if query.since is not None or query.set_id is not None:
        problems = window_problems(store, query, facts)
    unverified = unverified_sessions(store, query)
    for problem in problems:
        say(f"skipped: {problem}", err=True)
    tutorial = tutorial_sessions(store, query, mode)
    if not any(query.within(f) for f in facts):
        nothing = "no stored session matches: nothing to report."
        why = f"nothing to report: {tutorial_matches(tutorial)}." if tutorial else nothing
        raise failure(why + unverified_sentence(unverified))
    if unverified.count:
        say(f"note:{unverified_sentence(unverified)}", err=True)
    summary = replace(compute_summary(facts, mode, query.within, unverified), in_progress=in_progress,
                      tutorial=tutorial)  # fmt: skip
    scope = scope_sentence(query.set_id, query.since, query.trainees)
    page = render(summary, facts, scope=scope, generated_at=now, within=query.within)
    emit(page, output, what="report")
    # what was written, on stderr: stdout holds the page itself with --output -
    n_trainees, n_drills = plural(len(summary.stats.trainees), "trainee"), plural(len(summary.stats.drills), "drill")
    where = "the report to standard output" if output is None else shown_path(output)
    say(f"Wrote {where}: {n_trainees}, {n_drills}.", err=True)
    say(counted_line(summary), err=True)  # once any assessment session matches, only those count: as on the page
    if (live := in_progress_line(in_progress)) is not None:
        say(live, err=True)
    if problems:
        were = plural(len(problems), "was", "were", count=False)
        left_out = plural(len(problems), "stored session")
        raise failure(f"{left_out} could not be counted and {were} left out (listed above)")
