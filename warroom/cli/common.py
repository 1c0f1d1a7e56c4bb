"""Options and settings shared by the ``warroom`` commands: trainee identity, data directory, drill folders."""

from __future__ import annotations

import getpass
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])

#: Environment variable naming the trainee when ``--trainee`` is not given.
TRAINEE_ENV = "WARROOM_TRAINEE"
#: Environment variable naming the data directory when ``--data-dir`` is not given.
DATA_DIR_ENV = "WARROOM_DATA_DIR"

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


def _checked_trainee(name: str, source: str) -> str:
    """``name`` when it holds no control character; else a usage error (exit status 2) naming ``source``."""
    from warroom.core.format import control_chars

    bad = control_chars(name)
    if bad:
        raise click.UsageError(
            f"the trainee name from {source} contains control characters ({', '.join(bad)}): a trainee name is "
            "stored with every session and printed by `warroom scores`; use letters, digits, spaces and punctuation"
        )
    return name


def resolve_trainee(name: str | None = None) -> str:
    """The trainee's name: ``name`` if given, else ``$WARROOM_TRAINEE``, else the OS user name (else ``trainee``),
    with surrounding white space removed.

    Raises :class:`click.UsageError` (exit status 2) when the name holds a control character (newline and tab
    included) or a bidirectional control: it is stored with the session and printed on terminals."""
    if name and name.strip():
        return _checked_trainee(name.strip(), "--trainee")
    env = os.environ.get(TRAINEE_ENV, "").strip()
    if env:
        return _checked_trainee(env, f"${TRAINEE_ENV}")
    try:
        user = getpass.getuser().strip()
    except (OSError, KeyError):  # no user name in this environment (e.g. a container without passwd entry)
        return "trainee"
    return _checked_trainee(user, "the OS user name") if user else "trainee"


def resolve_data_dir(path: Path | None = None) -> Path:
    """The data directory: ``path`` if given, else ``$WARROOM_DATA_DIR``, else platformdirs' user data dir."""
    if path is not None:
        return Path(path).expanduser()
    env = os.environ.get(DATA_DIR_ENV, "").strip()
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("warroom", appauthor=False))


@dataclass(frozen=True)
class Settings:
    """Resolved settings for one ``warroom`` invocation."""

    trainee: str
    data_dir: Path
    drill_dirs: tuple[Path, ...] = field(default_factory=tuple)

    @classmethod
    def resolve(
        cls, *, trainee: str | None = None, data_dir: Path | None = None, drill_dirs: tuple[Path, ...] = ()
    ) -> Settings:
        """Settings from command-line values, falling back to the environment and platform defaults."""
        return cls(trainee=resolve_trainee(trainee), data_dir=resolve_data_dir(data_dir), drill_dirs=tuple(drill_dirs))

    def override(
        self, *, trainee: str | None = None, data_dir: Path | None = None, drill_dirs: tuple[Path, ...] = ()
    ) -> Settings:
        """These settings with a subcommand's own ``--trainee`` / ``--data-dir`` applied where given, and its own
        ``--drills`` folders added after the root command's."""
        extra = tuple(d for d in drill_dirs if d not in self.drill_dirs)
        return Settings(
            trainee=resolve_trainee(trainee) if trainee else self.trainee,
            data_dir=Path(data_dir).expanduser() if data_dir else self.data_dir,
            drill_dirs=(*self.drill_dirs, *extra),
        )


def settings_from(
    ctx: click.Context,
    trainee: str | None = None,
    data_dir: Path | None = None,
    drill_dirs: tuple[Path, ...] = (),
) -> Settings:
    """The invocation's :class:`Settings` (from the root group) with a subcommand's own options applied."""
    root = ctx.find_object(Settings)
    if root is None:
        return Settings.resolve(trainee=trainee, data_dir=data_dir, drill_dirs=drill_dirs)
    return root.override(trainee=trainee, data_dir=data_dir, drill_dirs=drill_dirs)


def drill_dirs_of(ctx: click.Context, extra: tuple[Path, ...] = ()) -> tuple[Path, ...]:
    """The ``--drills`` folders of this invocation: the root command's (``warroom --drills DIR CMD``), then a
    subcommand's own (``warroom CMD --drills DIR``), each once."""
    root = tuple(getattr(ctx.find_root().obj, "drill_dirs", ()) or ())
    return (*root, *(d for d in extra if d not in root))


def recover_and_report(settings: Settings) -> None:
    """Record sessions killed mid-drill as abandoned (see ``recover_unfinished``), telling stderr what was done.

    Raises click.ClickException when the results store cannot be used."""
    from warroom.store.results import StoreError
    from warroom.store.sessions import default_drill_resolver, recover_unfinished

    from warroom.cli.output import failure, say

    try:
        recovered = recover_unfinished(settings.data_dir, default_drill_resolver(settings.drill_dirs))
    except StoreError as exc:
        raise failure(exc) from None
    for rec in recovered:
        say(rec, err=True)
