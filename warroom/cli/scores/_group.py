"""``warroom scores``: the stored sessions as a table, CSV or JSON; cohort statistics per trainee and per drill;
re-scoring; verifying; deleting.

A click group: ``warroom scores list | summary | rescore | verify | delete``, each in a module of its own
(:mod:`warroom.cli.scores._list`, :mod:`~warroom.cli.scores._summary`, :mod:`~warroom.cli.scores._rescore`,
:mod:`~warroom.cli.scores._verify`, :mod:`~warroom.cli.scores._delete`). A bare ``warroom scores [OPTIONS]``
lists, and the old spelling keeps working: ``--summary``, ``--rescore`` and ``--delete ID... [--yes]`` are the
subcommands of those names.

Heavy imports (pydantic models, Rich, the store) happen inside the commands, so ``warroom --help`` stays fast.
"""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any

import click

from warroom.cli.common import settings_from
from warroom.cli.scores._delete import delete_command, delete_stored
from warroom.cli.scores._list import list_command, list_sessions
from warroom.cli.scores._options import (
    allow_changed_help,
    check_output,
    check_rules_option,
    export_format_option,
    filter_options,
    filters_of,
    limit_option,
    output_option,
    reverse_option,
    rules_option,
    sort_option,
)
from warroom.cli.scores._rescore import rescore_command, rescore_sessions
from warroom.cli.scores._summary import all_drills_option, include_unverified_option, summarise, summary_command
from warroom.cli.scores._verify import verify_command

#: Where the old spelling's session ids (``warroom scores --delete ID...``) are kept in the context's ``meta``.
OLD_DELETE_IDS = "warroom.scores.delete_ids"


class ScoresGroup(click.Group):
    """The ``warroom scores`` group: subcommands, and the old spelling with ids (``--delete ID... [--yes]``, options
    and ids in any order, as before the subcommands)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not ctx.resilient_parsing and self._is_old_delete(ctx, args):
            ctx.allow_interspersed_args = True
            ids = click.Command.parse_args(self, ctx, args)  # every option anywhere; what is left are the ids
            ctx.meta[OLD_DELETE_IDS] = tuple(ids)
            ctx.args = []
            return []
        return super().parse_args(ctx, args)

    def _is_old_delete(self, ctx: click.Context, args: list[str]) -> bool:
        """True when ``args`` carry ``--delete`` and do not start with a subcommand (``warroom scores --delete ID``,
        ``warroom scores ID --delete``)."""
        probe = click.Context(
            self,
            info_name=ctx.info_name,
            parent=ctx.parent,
            resilient_parsing=True,
            allow_interspersed_args=True,
            ignore_unknown_options=True,
        )
        positional = click.Command.parse_args(self, probe, list(args))
        return bool(probe.params.get("delete")) and not (positional and positional[0] in self.commands)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0]
        if name not in self.commands and not difflib.get_close_matches(name, list(self.commands), n=1):
            raise click.UsageError(
                f"no subcommand {name!r}: session ids are only taken with --delete (`warroom scores delete ID...`; "
                f"`warroom review ID` opens one). Subcommands: {', '.join(self.commands)}.",
                ctx,
            )
        return super().resolve_command(ctx, args)


@click.group(cls=ScoresGroup, invoke_without_command=True)
@filter_options
@sort_option
@reverse_option
@limit_option
@click.option("--summary", is_flag=True, help="Old spelling of `warroom scores summary`.")
@include_unverified_option
@all_drills_option
@export_format_option
@click.option("--rescore", is_flag=True, help="Old spelling of `warroom scores rescore`.")
@click.option(
    "--allow-changed", is_flag=True, help=f"With --rescore: {allow_changed_help[0].lower()}{allow_changed_help[1:]}"
)
@rules_option("With --rescore: ")
@output_option
@click.option("--delete", is_flag=True, help="Old spelling of `warroom scores delete SESSION_ID...`.")
@click.option("--yes", "-y", is_flag=True, help="With --delete, or --rescore --rules: do not ask for confirmation.")
@click.pass_context
def scores(ctx: click.Context, **opts: Any) -> None:
    """Stored sessions: trainee, drill, when, outcome, score, time to detect, damage, false escalations.

    \b
    warroom scores [OPTIONS]                list the sessions (the same as `scores list`)
    warroom scores list [OPTIONS]           list the sessions: a table, CSV or JSON
    warroom scores summary [OPTIONS]        detection statistics per trainee and per drill
    warroom scores rescore [OPTIONS]        recompute each by its own scoring rules (or --rules)
    warroom scores verify [OPTIONS]         recompute each and report those whose stored results disagree
    warroom scores delete SESSION_ID...     delete sessions (asks first; --yes to skip)

    Every trainee's sessions are listed unless --trainee NAME or --mine is given; --set ID keeps the sessions
    played in a drill set, --mode those of one mode (practice, assessment or tutorial; all: every one; the summary's
    default counts the assessment sessions when any match, else all). Sessions killed mid-drill are
    recorded as abandoned first. Options given before a subcommand apply to it. The old spelling still works:
    --summary, --rescore and --delete SESSION_ID... [--yes] are the subcommands of those names.

    Printed output (a table, CSV or JSON, on a terminal or a pipe) shows control and bidi characters as escapes;
    --output FILE writes CSV or JSON exactly as stored. CSV text cells starting with = + - @ get a leading '.
    """
    if ctx.invoked_subcommand is not None:
        return  # the subcommand takes over the options given here (_options.subcommand_options)
    old_ids: tuple[str, ...] = ctx.meta.get(OLD_DELETE_IDS, ())
    _check_old_usage(opts, old_ids)
    settings = settings_from(ctx, data_dir=opts["data_dir"])
    filters = filters_of(settings, opts)
    fmt: str = opts["fmt"]
    output: Path | None = opts["output"]
    if opts["rescore"]:
        rescore_sessions(settings, filters, opts["allow_changed"], opts["rules"], opts["yes"])
    elif opts["delete"]:
        delete_stored(settings, old_ids, opts["yes"])
    elif opts["summary"]:
        summarise(settings, filters, fmt, output, opts["include_unverified"], opts["all_drills"])
    else:
        list_sessions(settings, filters, opts)


def _check_old_usage(opts: dict[str, Any], ids: tuple[str, ...]) -> None:
    """Usage errors of the old spelling: ``--allow-changed`` needs ``--rescore``, ``--output`` an export format,
    ``--delete`` its ids and no other mode, ``--yes`` needs ``--delete`` or ``--rescore``."""
    for name, flag in (("include_unverified", "--include-unverified"), ("all_drills", "--all")):
        if opts[name] and not opts["summary"]:
            raise click.UsageError(f"{flag} only applies with --summary (or `warroom scores summary`)")
    if opts["allow_changed"] and not opts["rescore"]:
        raise click.UsageError("--allow-changed only applies with --rescore")
    if opts["rules"] is not None and not opts["rescore"]:
        raise click.UsageError("--rules only applies with --rescore")
    check_rules_option(opts["rules"])
    if opts["output"] is not None and opts["rescore"]:
        raise click.UsageError("--output writes an export: use it with --format csv or --format json")
    check_output(opts["fmt"], opts["output"])
    if opts["delete"] and not ids:
        raise click.UsageError("--delete needs the ids of the sessions to delete (see `warroom scores`)")
    if opts["delete"] and (opts["rescore"] or opts["summary"]):
        raise click.UsageError("--delete cannot be combined with --summary or --rescore")
    if opts["yes"] and not (opts["delete"] or opts["rescore"]):
        raise click.UsageError("--yes only applies with --delete or --rescore")


scores.add_command(list_command)
scores.add_command(summary_command)
scores.add_command(rescore_command)
scores.add_command(delete_command)
scores.add_command(verify_command)
