"""Options and settings shared by the ``warroom`` commands: trainee identity, data directory, drill folders."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import click

# The settings themselves live in the core (the TUI uses them too); re-exported for the commands.
from warroom.core.errors import SettingsError
from warroom.core.settings import DATA_DIR_ENV, TRAINEE_ENV, Settings, resolve_data_dir, resolve_trainee

__all__ = [
    "DATA_DIR_ENV", "TRAINEE_ENV", "Settings", "data_dir_option", "drill_dirs_of", "drills_option", "format_option",
    "load_set_option", "mode_option", "recover_and_report", "resolve_data_dir", "resolve_trainee",
    "resolved_settings", "settings_from", "trainee_option",
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
    """The invocation's :class:`Settings` (from the root group) with a subcommand's own options applied."""
    return resolved_settings(ctx.find_object(Settings), trainee=trainee, data_dir=data_dir, drill_dirs=drill_dirs)


def drill_dirs_of(ctx: click.Context, extra: tuple[Path, ...] = ()) -> tuple[Path, ...]:
    """The ``--drills`` folders of this invocation: the root command's (``warroom --drills DIR CMD``), then a
    subcommand's own (``warroom CMD --drills DIR``), each once."""
    root = tuple(getattr(ctx.find_root().obj, "drill_dirs", ()) or ())
    return (*root, *(d for d in extra if d not in root))


def recover_and_report(settings: Settings) -> None:
    """Record sessions killed mid-drill as abandoned (see ``recover_unfinished``), telling stderr what was done.

    Raises click.ClickException when the results store cannot be used."""
    from warroom.cli.output import failure, say
    from warroom.store.recovery import recover_unfinished
    from warroom.store.results import StoreError
    from warroom.store.sessions import default_drill_resolver

    try:
        recovered = recover_unfinished(settings.data_dir, default_drill_resolver(settings.drill_dirs))
    except StoreError as exc:
        raise failure(exc) from None
    for rec in recovered:
        say(rec, err=True)


def load_set_option(path: Path, settings: Settings) -> Any:
    """The :class:`~warroom.tui.drillsets.ActiveSet` of ``--set FILE``. A set file that does not validate, or names
    a drill that is not found or does not load, prints its ``path:line:col: message`` problems on stderr and exits
    with status 1."""
    from warroom.core.drillset import DrillSetError
    from warroom.core.format import clean
    from warroom.tui.drillsets import load_active_set

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
    from warroom.store.results import DB_NAME, ResultsStore

    with store_errors():
        problem = data_dir_problem(settings.data_dir)
        if problem:
            raise click.ClickException(problem)
        if not (settings.data_dir / DB_NAME).exists():
            return None
        store = ResultsStore(settings.data_dir, create=False)
        if verify is None:
            verify = (settings.data_dir / DB_NAME).stat().st_size <= VERIFY_MAX_BYTES
        if verify:
            try:
                store.verify()
            except BaseException:
                store.close()
                raise
        return store


def check_store(settings: Settings) -> None:
    """Before the terminal UI opens (``warroom``, ``warroom run``): the data directory and its results store can be
    used (the whole database file is checked), else a clear message and exit status 1 (click.ClickException)."""
    store = open_results(settings, verify=True)
    if store is not None:
        store.close()
