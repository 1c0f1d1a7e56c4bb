"""Options and settings shared by the ``warroom`` commands: trainee identity, data directory, drill folders."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import click

from warroom.core.settings import DATA_DIR_ENV, TRAINEE_ENV, Settings, resolve_data_dir, resolve_trainee

# The settings themselves live in the core (the TUI uses them too); re-exported for the commands.
from warroom.errors import SettingsError

__all__ = [
    "DATA_DIR_ENV",
    "TRAINEE_ENV",
    "Settings",
    "data_dir_option",
    "data_dir_setting",
    "drills_option",
    "drills_setting",
    "format_option",
    "load_set_option",
    "mode_option",
    "pass_settings",
    "recover_and_report",
    "resolve_data_dir",
    "resolve_trainee",
    "resolved_settings",
    "settings_from",
    "settings_of",
    "store_option",
    "trainee_option",
    "trainee_setting",
    "use_store",
]

F = TypeVar("F", bound=Callable[..., Any])

trainee_option = click.option(
    "--trainee",
    default=None,
    help=f"Trainee name (default: ${TRAINEE_ENV}, else the OS user).",
)
data_dir_option = click.option(
    "--data-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help=f"Where sessions and results are kept (default: ${DATA_DIR_ENV}, else the user data dir).",
)

store_option = click.option(
    "--store",
    "store_url",
    default=None,
    metavar="URL",
    help="Where results are stored: sqlite:///FILE or postgresql://... (default: $WARROOM_STORE, else the SQLite "
    "file in the data directory).",
)


def use_store(url: str | None) -> None:
    """Make ``url`` (a ``--store`` value; None: leave as is) the results store of every part of this command, which
    reads it from ``$WARROOM_STORE`` (see :func:`warroom.store.dialect.store_target`); the variable is put back as
    it was when the command ends."""
    if url is None:
        return
    import os

    from warroom.store.dialect import STORE_ENV

    before = os.environ.get(STORE_ENV)

    def restore() -> None:
        if before is None:
            os.environ.pop(STORE_ENV, None)
        else:
            os.environ[STORE_ENV] = before

    os.environ[STORE_ENV] = url
    ctx = click.get_current_context(silent=True)
    if ctx is not None:
        ctx.call_on_close(restore)


mode_option = click.option(
    "--mode",
    type=click.Choice(["practice", "assessment"]),
    default=None,
    help="practice (default): pause and speeds as you like. assessment: 1x only, no pause, the drill clock never "
    "stops (a drill set in assessment mode asks for it too).",
)

drills_option = click.option(
    "--drills",
    "drill_dirs",
    multiple=True,
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="Also offer the drills in this folder (repeatable).",
)


def format_option(help: str, choices: tuple[str, ...] = ("text", "json")) -> Callable[[F], F]:
    """The ``--format`` option (stored as ``fmt``) of a command that prints for people or for programs."""
    return click.option(
        "--format", "fmt", type=click.Choice(list(choices)), default=choices[0], show_default=True, help=help
    )


def resolved_settings(
    base: Settings | None = None,
    *,
    trainee: str | None = None,
    data_dir: Path | None = None,
    drill_dirs: tuple[Path, ...] = (),
) -> Settings:
    """:meth:`Settings.resolve` (no ``base``) or ``base.override``, with a :class:`SettingsError` (an unusable
    trainee name) turned into a :class:`click.UsageError` (exit status 2)."""
    try:
        if base is None:
            return Settings.resolve(trainee=trainee, data_dir=data_dir, drill_dirs=drill_dirs)
        return base.override(trainee=trainee, data_dir=data_dir, drill_dirs=drill_dirs)
    except SettingsError as exc:
        raise click.UsageError(str(exc)) from None


def settings_from(
    ctx: click.Context,
    trainee: str | None = None,
    data_dir: Path | None = None,
    drill_dirs: tuple[Path, ...] = (),
) -> Settings:
    """The invocation's :class:`Settings` (from the root group) with a subcommand's own options applied, for a
    command that takes ``--trainee`` / ``--data-dir`` / ``--drills`` as arguments (``warroom scores``). Other
    commands use the ``*_setting`` options and :data:`pass_settings`."""
    return resolved_settings(ctx.find_object(Settings), trainee=trainee, data_dir=data_dir, drill_dirs=drill_dirs)


#: Passes the invocation's one :class:`Settings` (``ctx.obj``: the root command's, with the subcommand's own
#: ``--drills`` / ``--trainee`` / ``--data-dir`` applied by the ``*_setting`` options below) as the command
#: function's first argument.
pass_settings = click.make_pass_decorator(Settings)


def settings_of(ctx: click.Context) -> Settings:
    """The invocation's :class:`Settings` (``ctx.obj``), resolved from the environment and set on ``ctx`` when the
    command runs without the root group (a click test invoking a subcommand alone)."""
    settings = ctx.find_object(Settings)
    if settings is None:
        settings = resolved_settings()
        ctx.obj = settings
    return settings


def _apply_drills(ctx: click.Context, param: click.Parameter, value: tuple[Path, ...]) -> None:
    if not ctx.resilient_parsing:
        ctx.obj = resolved_settings(settings_of(ctx), drill_dirs=tuple(value))


def _apply_trainee(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    if not ctx.resilient_parsing:
        ctx.obj = resolved_settings(settings_of(ctx), trainee=value)


def _apply_data_dir(ctx: click.Context, param: click.Parameter, value: Path | None) -> None:
    if not ctx.resilient_parsing:
        ctx.obj = resolved_settings(settings_of(ctx), data_dir=value)


# A subcommand's own settings: applied to ctx.obj as they are parsed (not passed to the function; use
# pass_settings). --drills is eager, so a drill argument (warroom.cli.params.DrillParam) is resolved in its folders
# whether it comes before or after them on the command line.
drills_setting = click.option(
    "--drills",
    "drill_dirs",
    multiple=True,
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    is_eager=True,
    expose_value=False,
    callback=_apply_drills,
    help="Also offer the drills in this folder (repeatable).",
)
trainee_setting = click.option(
    "--trainee",
    expose_value=False,
    callback=_apply_trainee,
    help=f"Trainee name (default: ${TRAINEE_ENV}, else the OS user).",
)
data_dir_setting = click.option(
    "--data-dir",
    type=click.Path(file_okay=False, path_type=Path),
    expose_value=False,
    callback=_apply_data_dir,
    help=f"Where sessions and results are kept (default: ${DATA_DIR_ENV}, else the user data dir).",
)


def recover_and_report(settings: Settings) -> None:
    """Record sessions killed mid-drill as abandoned and deliver the sessions queued while a shared store was
    unreachable (see ``recover_unfinished``), telling stderr what was done. A shared store that cannot be reached
    is a warning (the sessions stay queued); any other store problem raises click.ClickException."""
    from warroom.cli.output import failure, say
    from warroom.store.errors import StoreUnreachable
    from warroom.store.recovery import recover_unfinished
    from warroom.store.results import StoreError
    from warroom.store.sessions import default_drill_resolver

    try:
        recovered = recover_unfinished(settings.data_dir, default_drill_resolver(settings.drill_dirs))
    except StoreUnreachable as exc:
        say(f"warning: {exc}; finished sessions stay queued in this data directory (`warroom store sync`)", err=True)
        return
    except StoreError as exc:
        raise failure(exc) from None
    for rec in recovered:
        say(rec, err=True)


def load_set_option(path: Path, settings: Settings) -> Any:
    """The :class:`~warroom.tui.logic.ActiveSet` of ``--set FILE``. A set file that does not validate, or names
    a drill that is not found or does not load, prints its ``path:line:col: message`` problems on stderr and exits
    with status 1."""
    from warroom.core.library import DrillSetError
    from warroom.core.text import clean
    from warroom.tui.logic import load_active_set

    try:
        return load_active_set(path, settings.drill_dirs)
    except DrillSetError as exc:
        for problem in exc.problems:
            click.echo(clean(problem), err=True)
        raise SystemExit(1) from None


@contextmanager
def store_errors() -> Iterator[None]:
    """Turn the results store's errors (damaged, locked, a data directory that cannot be used) raised inside the
    block into a clear message on stderr and exit status 1 (click.ClickException), never a traceback."""
    from warroom.store.results import StoreError

    try:
        yield
    except StoreError as exc:
        raise click.ClickException(str(exc)) from None


#: ``warroom scores`` checks the whole database file first when it is at most this big (a check reads the whole
#: file: about 0.1 s for 64 MiB); a bigger store is checked where a read meets damage.
VERIFY_MAX_BYTES = 64 * 1024 * 1024


def open_results(settings: Settings, *, verify: bool | None = False) -> Any:
    """The data directory's :class:`~warroom.store.results.ResultsStore` (opened without creating it), or None when
    no session was ever recorded there.

    With ``verify`` True the whole database file is checked first (``PRAGMA quick_check``); with None only when
    the file is at most :data:`VERIFY_MAX_BYTES`. Raises click.ClickException
    (exit status 1) naming the file and what to do for a data directory that is a file or cannot be read or
    written, a damaged database, a ``sessions`` table without its columns, or one from a newer warroom."""
    from warroom.store.datadir import data_dir_problem
    from warroom.store.dialect import StoreURLError, store_target
    from warroom.store.results import ResultsStore

    with store_errors():
        problem = data_dir_problem(settings.data_dir)
        if problem:
            raise click.ClickException(problem)
        try:
            target = store_target(settings.data_dir)
        except StoreURLError as exc:
            raise click.ClickException(str(exc)) from None
        if target.path is not None and not target.path.exists():
            return None
        # a PostgreSQL store is created (its schema migrated) on first use, like the SQLite file by a session
        store = ResultsStore(settings.data_dir, create=target.path is None)
        if verify is None:
            verify = target.path is None or target.path.stat().st_size <= VERIFY_MAX_BYTES
        if verify:
            try:
                store.verify()
            except BaseException:
                store.close()
                raise
        return store


def check_store(settings: Settings, trainees: Sequence[str] | None = None) -> None:
    """Before the terminal UI opens (``warroom``, ``warroom run``): the data directory and its results store can be
    used (the whole database file is checked) and may store the sessions of ``trainees`` (default: the settings'
    trainee; a PostgreSQL ``warroom_trainee`` login role stores only its own), else a clear message and exit status 1
    (click.ClickException)."""
    from warroom.store.errors import StoreUnreachable
    from warroom.store.roles import FACILITATOR_ROLE, own_sessions_only, trainee_refused

    try:
        store = open_results(settings, verify=True)
    except click.ClickException as exc:
        if not isinstance(exc.__context__, StoreUnreachable):
            raise
        from warroom.cli.output import say

        say(f"warning: {exc.message}; the sessions played now are kept here until `warroom store sync`", err=True)
        return
    if store is None:
        return
    try:
        with store_errors():
            login_role = own_sessions_only(store)
    finally:
        store.close()
    for trainee in trainees if trainees is not None else [settings.trainee]:
        refused = trainee_refused(login_role, trainee)
        if refused is None:
            continue
        advice = (
            f"play with --trainee {login_role!r} (or $WARROOM_TRAINEE), or connect as a login role named like the "
            "trainee" if trainees is None else
            f"a served class needs a login role that stores every trainee's sessions: a {FACILITATOR_ROLE} role or "
            "the owner of the tables"
        )
        raise click.ClickException(f"cannot record the sessions of {trainee!r} in {store.location}: {refused}; "
                                   f"{advice} (docs/cohorts.md, \"Roles: who sees what\")")
