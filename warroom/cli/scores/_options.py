"""What the ``warroom scores`` subcommands share: the filter options, the filters they resolve to, the options of
the bare ``warroom scores`` that a subcommand takes over, and opening the store.

Heavy imports (pydantic models, Rich, the store) happen inside the functions, so ``warroom --help`` stays fast.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict, TypeVar

import click

from warroom.cli.common import WholeNumber, data_dir_option, format_option, open_results, recover_and_report
from warroom.cli.common import output_option as common_output_option
from warroom.core.files import expand_home
from warroom.core.settings import Settings
from warroom.core.text import clean, cut_value, visible_name
from warroom.store.results import SORT_KEYS

if TYPE_CHECKING:
    from warroom.store.results import ResultsStore

F = TypeVar("F", bound=Callable[..., Any])

#: Rows a table shows when ``--limit`` is not given (CSV and JSON export every row).
DEFAULT_TABLE_LIMIT = 50

#: ``--trainee`` of ``warroom scores``: a filter, so (unlike the trainee of ``warroom run``) it has no default.
trainee_filter_option = click.option(
    "--trainee",
    default=None,
    help="Only this trainee's sessions (default: every trainee's; --mine for your own).",
)
mine_option = click.option(
    "--mine", is_flag=True, help="Only the current trainee's sessions ($WARROOM_TRAINEE, else the OS user)."
)
drill_filter_option = click.option("--drill", "drill_id", default=None, help="Only sessions of this drill id.")
since_option = click.option(
    "--since", default=None, help="Only sessions started at or after this date or ISO datetime (UTC)."
)


def set_id_of(ctx: click.Context | None, param: click.Parameter | None, value: str | None) -> str | None:
    """The drill set id ``--set`` means: ``value`` itself, or the id in the drill set file ``value`` names (a path
    with a ``/``, or a name ending in ``.yaml``/``.yml``), as facilitators pass to ``warroom --set FILE``. A set file
    that does not load prints its ``path:line:col: message`` problems on stderr and exits with status 1; a path to
    no file is a usage error (status 2), never an id that no session matches."""
    if value is None:
        return None
    if not value.strip():  # `--set "$SET"` with the variable unset: no session has an empty set id
        raise click.BadParameter("an empty name names no drill set: give the set's id or its file", ctx, param)
    p = expand_home(value)
    # WEEK-1.SET.YAML is a file name as week-1.set.yaml is
    if not ("/" in value or "\\" in value or value.lower().endswith((".yaml", ".yml"))):
        return value
    # (os.path: Path.is_file raises on a name too long for the system); a folder or a FIFO there is named as one below
    if not os.path.isfile(p) and not os.path.exists(p):
        raise click.BadParameter(_no_set_file(value, p), ctx, param)
    from warroom.core.load import DrillSetError, load_drill_set

    try:
        return load_drill_set(p).set
    except DrillSetError as exc:
        for problem in exc.problems:
            click.echo(clean(problem), err=True)
        raise SystemExit(1) from None


def _no_set_file(value: str, path: Path) -> str:
    """Why ``--set``'s ``value`` (at ``path``) names no set file: a symbolic link to nothing named as one, a name on
    disk in another Unicode form or letter case than typed named so."""
    from warroom.core.files import why_missing

    why = why_missing(path, typed=value)
    if why is not None:
        return f"{cut_value(value, limit=200)}: {why}"
    return f"no drill set file {cut_value(value, limit=200)}: give the set's id or its file"


set_filter_option = click.option(
    "--set",
    "set_id",
    default=None,
    callback=set_id_of,
    help="Only sessions played in this drill set (its id, or its set file).",
)
#: The modes a session is played in (``tutorial``: ``warroom tutorial``, listed but never counted in the statistics);
#: ``--mode`` also takes ``all`` (every session) and, for the summary's default, ``auto`` (the summary counts the
#: assessment sessions when any match, else all; elsewhere every session).
SESSION_MODES = ("practice", "assessment", "tutorial")
mode_filter_option = click.option(
    "--mode",
    type=click.Choice([*SESSION_MODES, "all", "auto"]),
    default=None,
    help="Only sessions played in this mode (all: every session; tutorial: the guided tutorial's, which the "
    "statistics never count). The summary's default (auto) counts the assessment sessions when any match, else "
    "all of them (never the tutorial's).",
)
sort_option = click.option(
    "--sort",
    "sort_key",
    type=click.Choice(list(SORT_KEYS)),
    default="when",
    show_default=True,
    help="Sort by: when (newest first), score (best first), trainee, drill, outcome, ttd (fastest first), damage "
    "(least first), false (fewest false escalations first).",
)
reverse_option = click.option("--reverse", is_flag=True, help="Reverse the sort order.")
limit_option = click.option(
    "--limit",
    type=WholeNumber(min=0),
    default=None,
    help=f"Show at most this many sessions; 0 = all (default: {DEFAULT_TABLE_LIMIT} in a table, all in CSV/JSON).",
)
export_format_option = format_option("Output format.", choices=("table", "csv", "json"))
output_option = common_output_option(
    "Write the CSV or JSON export to this file, exactly as stored, or - for standard output (printed output shows "
    "control characters as \\xNN escapes)."
)
allow_changed_help = "Also re-score sessions whose drill file changed since they were played."


class RulesOption(click.Option):
    """``--rules VERSION``: its help names the editions of the scoring rules and the current one as the code has
    them (:data:`warroom.core.scoring.SCORING_VERSIONS`, :data:`~warroom.core.scoring.SCORING_VERSION`), looked up
    when the help is shown, so listing or counting sessions never imports the scoring rules. ``help`` may hold
    ``{editions}`` and ``{current}``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.help_template = self.help or ""

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        from warroom.core.scoring import SCORING_VERSION, SCORING_VERSIONS

        *older, newest = SCORING_VERSIONS
        editions = f"{', '.join(older)} or {newest}" if older else newest
        self.help = self.help_template.format(editions=editions, current=SCORING_VERSION)
        return super().get_help_record(ctx)


def rules_option(prefix: str = "") -> Callable[[F], F]:
    """The ``--rules VERSION`` option of ``warroom scores rescore`` (``prefix`` before its help: the old spelling's
    ``With --rescore: ``)."""
    return click.option(
        "--rules",
        "rules",
        cls=RulesOption,
        default=None,
        metavar="VERSION",
        help=f"{prefix}Apply this edition of the scoring rules ({{editions}}; current: {{current}}) to every matching "
        "session instead of each session's own (docs/scoring.md: version-1 escalations cited nothing).",
    )


def check_rules_option(rules: str | None) -> None:
    """Raise click.BadParameter for a ``--rules`` value that is no edition of the scoring rules."""
    if rules is None:
        return
    from warroom.core.scoring import check_rules

    try:
        check_rules(rules)
    except ValueError as exc:
        raise click.BadParameter(clean(exc), param_hint="--rules") from None


def filter_options(f: F) -> F:
    """``--trainee``, ``--mine``, ``--drill``, ``--since``, ``--set``, ``--mode`` (and ``--data-dir``): which
    sessions a command reads."""
    options = (
        data_dir_option,
        mode_filter_option,
        set_filter_option,
        since_option,
        drill_filter_option,
        mine_option,
        trainee_filter_option,
    )
    for option in options:
        f = option(f)
    return f


class FilterKwargs(TypedDict):
    """The filter keyword arguments of the store's reads."""

    trainee: str | None
    drill: str | None
    since: str | None
    set_id: str | None
    mode: str | None


@dataclass(frozen=True)
class Filters:
    """Which stored sessions a command reads: a trainee, a drill id (exact), sessions started at or after ``since``
    (the store's UTC timestamp text), played in the drill set ``set_id``, in ``mode`` (practice, assessment or tutorial;
    ``all`` and ``auto`` filter nothing in the store's reads, the summary reads them, see
    :func:`warroom.cli.scores._summary.show_summary`); None matches every one."""

    trainee: str | None = None
    drill: str | None = None
    since: str | None = None
    set_id: str | None = None
    mode: str | None = None

    def given(self) -> bool:
        """True when any filter is set."""
        return bool(self.trainee or self.drill or self.since or self.set_id or self.mode in SESSION_MODES)

    def as_kwargs(self) -> FilterKwargs:
        """The ``trainee``, ``drill``, ``since``, ``set_id`` and ``mode`` keyword arguments of the store's reads."""
        return {
            "trainee": self.trainee,
            "drill": self.drill,
            "since": self.since,
            "set_id": self.set_id,
            "mode": self.mode if self.mode in SESSION_MODES else None,
        }

    def options(self) -> str:
        """The filters as the options that set them, for a message (``--set week-1 --mode assessment``); each value
        quoted as a shell needs it, control and invisible characters escaped (a zero-width space showed as nothing)."""
        import shlex

        given = (("--trainee", self.trainee), ("--drill", self.drill), ("--since", self.since), ("--set", self.set_id),
                 ("--mode", self.mode if self.mode in SESSION_MODES else None))
        return " ".join(f"{option} {visible_name(shlex.quote(value))}" for option, value in given if value)

    def scope(self) -> str:
        """The mode and drill set the sessions are limited to, for a title (``assessment sessions · drill set
        week-1``); empty when neither is."""
        parts = [f"{self.mode} sessions"] if self.mode in SESSION_MODES else []
        if self.set_id:
            parts.append(f"drill set {self.set_id}")
        return " · ".join(parts)


def parsed_since(since: str | None) -> str | None:
    """``--since`` (a date or ISO datetime, UTC) as the store's UTC timestamp text; None when not given. Raises
    click.BadParameter for a bad one."""
    from warroom.store.timestamps import parse_since

    try:
        return None if since is None else parse_since(since)
    except ValueError as exc:
        raise click.BadParameter(clean(exc), param_hint="--since") from None


def filters_of(settings: Settings, opts: dict[str, Any]) -> Filters:
    """The :class:`Filters` of a command's option values: ``--trainee`` (stripped; blank is none), else the current
    trainee with ``--mine``; ``--drill``; ``--since`` (:func:`parsed_since`); ``--set``; ``--mode``."""
    trainee = opts["trainee"]
    who = trainee.strip() if trainee and trainee.strip() else (settings.trainee if opts["mine"] else None)
    return Filters(who, opts["drill_id"], parsed_since(opts["since"]), opts["set_id"] or None, opts["mode"])


def unknown_trainees(store: ResultsStore, names: tuple[str, ...] | list[str]) -> list[str]:
    """For each of ``names`` (``--trainee``) under which no session is stored, what to say: ``no session of trainee
    'anne' is stored in LOCATION (did you mean `ann`?)``, the name escaped; empty when every name has a session. A
    typo's filter matched nothing, and the list, the summary and the report said only that nothing matched (the
    report, of two names one misspelt, left that trainee out unsaid)."""
    from warroom.core.text import clean_name, did_you_mean
    from warroom.store.backends import own_sessions_only

    missing = [name for name in dict.fromkeys(names) if not store.count(trainee=name)]
    if not missing:
        return []
    known = store.trainee_names()
    # a trainee role reads its own sessions only: another name's may be stored all the same
    role = own_sessions_only(store)
    readable = "" if role is None else f" that the login role {clean_name(repr(role))} may read"
    return [
        f"no session of trainee {clean_name(repr(name))}{readable} is stored in {store.location}"
        + clean_name(did_you_mean(name, known))
        for name in missing
    ]


#: The old spelling's mode flags (``warroom scores --summary``...): never together with a subcommand.
MODE_FLAGS = {"summary": "summary", "rescore": "rescore", "delete": "delete"}


def subcommand_options(ctx: click.Context) -> dict[str, Any]:
    """A subcommand's option values, with those given to ``warroom scores`` before the subcommand name taken over
    (``warroom scores --trainee ana summary`` is ``warroom scores summary --trainee ana``); the subcommand's own
    value wins when both are given.

    Raises click.UsageError for an old mode flag (``--summary``, ``--rescore``, ``--delete``) given with a
    subcommand, and for an option the subcommand does not take (``--sort`` before ``summary``)."""
    from click.core import ParameterSource

    values = dict(ctx.params)
    parent = ctx.parent
    if parent is None:  # pragma: no cover - a subcommand always runs under its group
        return values
    given = (ParameterSource.COMMANDLINE, ParameterSource.ENVIRONMENT)
    for name, value in parent.params.items():
        if parent.get_parameter_source(name) not in given:
            continue
        if name in MODE_FLAGS:
            raise click.UsageError(
                f"--{name} is the old spelling of `warroom scores {MODE_FLAGS[name]}`: give one or the other"
            )
        if name not in values:
            raise click.UsageError(f"{_option_name(parent, name)} does not apply to `warroom scores {ctx.info_name}`")
        if ctx.get_parameter_source(name) not in given:
            values[name] = value
    return values


def _option_name(ctx: click.Context, name: str) -> str:
    """The command-line spelling of a parameter (``sort_key`` -> ``--sort``)."""
    for param in ctx.command.params:
        if param.name == name and param.opts:
            return max(param.opts, key=len)
    return name  # pragma: no cover - every group parameter is an option


def open_store(settings: Settings) -> ResultsStore | None:
    """Record sessions killed mid-drill first (reported on stderr), then open the results store, checking the
    whole file when it is not huge; None when no session was ever recorded. Raises click.ClickException for a
    store that cannot be used."""
    recover_and_report(settings)
    store: ResultsStore | None = open_results(settings, verify=None)
    return store


def check_output(fmt: str, output: Path | None) -> None:
    """``--output`` writes an export: a usage error with the table format."""
    if output is not None and fmt == "table":
        raise click.UsageError("--output writes an export: use it with --format csv or --format json")
