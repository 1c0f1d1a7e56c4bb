"""Options and settings shared by the ``warroom`` commands: trainee identity, data directory, drill folders."""

from __future__ import annotations

import math
import os
import re
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from warroom.core.settings import DATA_DIR_ENV, TRAINEE_ENV, Settings
from warroom.core.text import SHOWN_PATH, shown_path
from warroom.core.text import SHOWN_VALUE as SHOWN
from warroom.core.text import cut_value as _cut
from warroom.errors import SettingsError

F = TypeVar("F", bound=Callable[..., Any])


class GivenPath(click.Path):
    """A path argument or option of a command: ``click.Path`` that refuses an empty name. ``Path("")`` is ``.``, so
    an empty value (``--out "$OUT"`` with the variable unset) was read as the current folder: ``validate ""``
    checked every drill there, ``new ID --out ""`` and ``import ... --out ""`` wrote into it, and the refusals named
    ``.``, a path nobody gave. Every path parameter of the command line is one (tests/unit/
    test_hostile_campaign11_inputs.py walks the command tree)."""

    def __init__(self, *args: Any, names: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.names = names or _what_it_names(self)  # what an empty name is said not to name

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and value == "":
            self.fail(f"an empty name names no {self.names}: give one", param, ctx)
        if isinstance(value, (str, os.PathLike)) and (slash := slash_on_no_folder(value)) is not None:
            self.fail(slash, param, ctx)
        if not self.dir_okay and isinstance(value, (str, os.PathLike)):
            self._fail_on_slash(os.fsdecode(value), param, ctx)
        if self.exists and isinstance(value, (str, os.PathLike)) and not os.path.exists(value):
            self._fail_on_missing(value, param, ctx)
        if not self.file_okay and isinstance(value, (str, os.PathLike)) and os.path.isfile(value):
            self._fail_on_file(os.fsdecode(value), param, ctx)
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter as exc:
            shown = _cut_path(value, exc.message)
            if shown == exc.message:
                raise
            self.fail(shown, param, ctx)

    #: What a file's name ending in ``/`` is told after "``NAME``: a name ending in / names a folder, and ``OPTION``"
    #: (``unnamed`` when there is no option to name).
    slash_refusal = "is a file: drop the trailing /"
    unnamed = "it"

    def _fail_on_slash(self, name: str, param: click.Parameter | None, ctx: click.Context | None) -> None:
        """A file's name ending in ``/`` is refused (a file to create: pathlib drops the slash and made the file)."""
        if _ends_in_slash(name):
            from warroom.core.text import clean_name

            what = _option_name(param, self.unnamed)
            self.fail(f"{clean_name(name)}: a name ending in / names a folder, and {what} {self.slash_refusal}", param,
                      ctx)

    #: What a folder option given a file's name is told after "``NAME`` is a file, not a folder: ``OPTION`` names a
    #: folder" (``FOLDER``: the folder that holds the file).
    folder_use = ""

    def _fail_on_file(self, name: str, param: click.Parameter | None, ctx: click.Context | None) -> None:
        """A file's name where a folder is wanted, said with what to give: click said "Directory 'x.yaml' is a
        file"."""
        from warroom.core.text import shown_path

        what = _option_name(param, self.unnamed)
        folder = shown_path(os.path.dirname(os.path.abspath(name)))
        self.fail(f"{shown_path(name)} is a file, not a folder: {what} names a folder"
                  + self.folder_use.replace("FOLDER", folder).replace("OPTION", what), param, ctx)  # fmt: skip

    def _fail_on_missing(self, value: str | os.PathLike[str], param: click.Parameter | None,
                         ctx: click.Context | None) -> None:
        """A symbolic link to nothing, or in a loop, is named as one, and a name on disk in another Unicode form or
        letter case than typed (NFD from macOS, NFC typed) as such: click said ``Path 'x' does not exist`` of a name
        ``ls`` lists."""
        from warroom.core.files import why_missing
        from warroom.core.text import clean_name

        why = why_missing(value)
        if why is not None:
            self.fail(f"{clean_name(os.fspath(value))}: {why}", param, ctx)


def _ends_in_slash(name: str) -> bool:
    """Whether the path ``name`` ends in ``/`` (or the system's separator), and so names a folder."""
    return name.rstrip("/" + os.sep) != name


def _option_name(param: click.Parameter | None, unnamed: str) -> str:
    """How a message names the option or argument ``param``: its longest flag (``--output``), or the argument's
    name (``ROSTER``); ``unnamed`` without one."""
    if param is None:
        return unnamed
    return max(param.opts, key=len) if isinstance(param, click.Option) else param.human_readable_name


def slash_on_no_folder(value: str | os.PathLike[str]) -> str | None:
    """The refusal of a name ending in ``/`` whose name without it is there and is no folder (``demo.yaml/``: the
    system says "not a directory", while :class:`~pathlib.Path` drops the slash and reads the file), None for any
    other name."""
    from warroom.core.text import clean_name

    name = os.fsdecode(value)
    bare = name.rstrip("/" + os.sep)
    if not _ends_in_slash(name) or not bare or not os.path.lexists(bare) or os.path.isdir(bare):
        return None
    shown, file = clean_name(name), clean_name(bare)
    return f"{shown}: a name ending in / names a folder, and {file} is not one: drop the trailing /"


def _cut_path(value: Any, message: str) -> str:
    """Click's refusal ``message`` of the path ``value`` with the path, when longer than :data:`SHOWN_PATH`, shown by
    its start, end and length (:func:`~warroom.core.text.shown_path`): click echoed a 5,000-character name whole."""
    if not isinstance(value, (str, os.PathLike)):
        return message
    name = os.fsdecode(value)
    if len(name.strip()) <= SHOWN_PATH:
        return message
    return message.replace(repr(click.format_filename(value)), shown_path(name))


class FiniteFloat(click.FloatRange):
    """A number option (``click.FloatRange``) that refuses NaN and infinity: ``nan`` passed click's range checks (no
    comparison with NaN is true), so ``annotate --speed nan`` crashed the author mode (``cannot advance the drill
    clock by nan seconds``), ``serve --stuck-after nan`` never showed a trainee stuck and ``project --window inf``
    failed in the drill it wrote. Every number option of the command line is one (a test walks the command tree)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        long = isinstance(value, str) and len(value.strip()) > SHOWN
        if long:  # click's refusal would echo it whole
            try:
                float(value)
            except ValueError:
                self.fail(f"{_cut(value)} is not a number", param, ctx)
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            shown = _cut(value)
            if "n" not in str(value).lower():  # digits that overflow (1e400), not nan or inf(inity)
                size = "small" if number < 0 else "large"
                self.fail(f"{shown} is too {size}: give a number{self._describe_range_text()}", param, ctx)
            self.fail(f"{shown} is no number; give one{self._describe_range_text()}", param, ctx)
        return number

    def _describe_range_text(self) -> str:
        if self.min is None and self.max is None:
            return ""
        return f" ({self._describe_range()})"


#: A whole number as ``int`` reads one: a sign, then digits (of any script) with single underscores between them.
_WHOLE = re.compile(r"(?P<sign>[+-]?)(?P<digits>\d+(?:_\d+)*)")


def _what_it_names(path_type: click.Path) -> str:
    if path_type.file_okay and path_type.dir_okay:
        return "file or folder"
    return "file" if path_type.file_okay else "folder"


trainee_option = click.option(
    "--trainee",
    default=None,
    help=f"Trainee name (default: ${TRAINEE_ENV}, else the OS user).",
)
data_dir_option = click.option(
    "--data-dir",
    type=GivenPath(file_okay=False, path_type=Path),
    default=None,
    help=f"Where sessions and results are kept (default: ${DATA_DIR_ENV}, else the user data dir).",
)

def _use_store(ctx: click.Context, param: click.Parameter, url: str | None) -> None:
    """Make ``url`` (a ``--store`` value; None: leave as is) the results store of every part of this command, which
    reads it from ``$WARROOM_STORE`` (see :func:`warroom.store.backends.store_target`); the variable is put back as
    it was when the command ends."""
    if url is None or ctx.resilient_parsing:
        return
    if not url.strip():  # `--store "$URL"` with the variable unset: never the default store without a word
        raise click.BadParameter("an empty URL names no store: give sqlite:///FILE or postgresql://..., or leave "
                                 "--store out for $WARROOM_STORE, else the data directory's SQLite file",
                                 param_hint="'--store'")
    from warroom.store.backends import STORE_ENV

    before = os.environ.get(STORE_ENV)

    def restore() -> None:
        if before is None:
            os.environ.pop(STORE_ENV, None)
        else:
            os.environ[STORE_ENV] = before

    os.environ[STORE_ENV] = url
    ctx.call_on_close(restore)


store_setting = click.option(
    "--store",
    metavar="URL",
    expose_value=False,
    callback=_use_store,
    help="Where results are stored: sqlite:///FILE or postgresql://... (default: $WARROOM_STORE, else the SQLite "
    "file in the data directory).",
)


mode_option = click.option(
    "--mode",
    type=click.Choice(["practice", "assessment"]),
    default=None,
    help="practice (default): pause and speeds as you like. assessment: 1x only, no pause, the drill clock never "
    "stops (a drill set in assessment mode asks for it too).",
)

class FolderPath(GivenPath):
    """An existing folder: click's ``Path(exists=True, file_okay=False)`` refuses a regular file but lets a FIFO, a
    socket or a device through (it checks for a regular file only), which then offered no drill without a word."""

    folder_use = " of drill files: give the folder that holds it (OPTION FOLDER)"

    def __init__(self) -> None:
        super().__init__(exists=True, file_okay=False, path_type=Path)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        from warroom.core.files import special_file_kind
        from warroom.core.text import shown_path

        path = Path(os.fsdecode(super().convert(value, param, ctx)))
        kind = special_file_kind(path)
        if kind is not None and kind != "a folder":
            self.fail(f"{shown_path(path)} is {kind}, not a folder: name a folder of drill files", param, ctx)
        return path


class WholeNumber(click.IntRange):
    """A whole number option (:class:`click.IntRange`, bounds optional) whose refusal never echoes a long value whole:
    a value of more than :attr:`SHOWN` characters is shown by its start and end and its length (``99999999…9999
    (5,000 digits)``), where click wrote all 5,000 digits back (and Python refuses to read an integer of over 4,300
    digits at all)."""

    name = "integer"  # "'12x' is not a valid integer", not "... integer range"
    SHOWN = SHOWN

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and len(value.strip()) > SHOWN:
            text = value.strip()
            number = _WHOLE.fullmatch(text)
            if number is None:
                self.fail(f"{_cut(text)} is not a whole number", param, ctx)
            # leading zeros, underscores and other scripts' digits are as click reads them in a short value
            digits = "".join(str(unicodedata.decimal(c)) for c in number["digits"] if c != "_").lstrip("0")
            if len(digits) <= SHOWN:  # 000…0005 is 5, not too large
                short: Any = number["sign"] + (digits or "0")
                return super().convert(short, param, ctx)
            size = "small" if text.startswith("-") else "large"
            self.fail(f"{_cut(text, f'{len(digits):,} digits')} is too {size}"
                      + (f": give {self._bounds()}" if self._bounds() else ""), param, ctx)
        return super().convert(value, param, ctx)

    def _bounds(self) -> str:
        """The range in words (``0 to 1000``), or empty unless both bounds are set."""
        return f"{self.min} to {self.max}" if self.min is not None and self.max is not None else ""


class OutputPath(GivenPath):
    """The file an ``--output`` writes, or ``-`` for standard output (converted to None: printed as without the
    option, control characters escaped). Only the exact ``-`` means stdout: ``./-`` names a file called ``-``. An
    empty name (``-o ""``, an unset shell variable) names no file: refused as such, where it was read as ``.``, the
    current folder (``.: is a folder``)."""

    slash_refusal = "writes a file: give the file's name without the trailing /"
    unnamed = "--output"

    def __init__(self, *, writable: bool = True) -> None:
        super().__init__(dir_okay=False, writable=writable, allow_dash=True, path_type=Path)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and value == "-":
            return None
        if isinstance(value, str) and value == "":
            self.fail("an empty name names no file: give the file to write, or - for standard output", param, ctx)
        if isinstance(value, (str, os.PathLike)):
            self._fail_on_folder(os.fsdecode(value), param, ctx)
        return super().convert(value, param, ctx)

    def _fail_on_folder(self, name: str, param: click.Parameter | None, ctx: click.Context | None) -> None:
        """A name ending in ``/`` (pathlib drops the slash: ``-o out/`` wrote a file called ``out``) or naming a
        folder (click said ``File 'reports' is a directory.`` alone) is refused with what to give."""
        from warroom.core.text import clean_name

        self._fail_on_slash(name, param, ctx)
        option = _option_name(param, self.unnamed)
        if os.path.isdir(name):
            self.fail(f"{clean_name(name)} is a folder, and {option} writes a file: give a file's name "
                      f"({clean_name(name)}/NAME to write in it)", param, ctx)


drills_option = click.option(
    "--drills",
    "drill_dirs",
    multiple=True,
    type=FolderPath(),
    help="Also offer the drills in this folder (repeatable).",
)


def output_option(help: str, *, writable: bool = True) -> Callable[[F], F]:
    """The ``--output`` / ``-o`` option (an :class:`OutputPath`, None without it or with ``-``) of a command that
    writes a file or standard output; ``writable`` as :class:`click.Path`'s (False: not checked before the write)."""
    return click.option("--output", "-o", type=OutputPath(writable=writable), default=None, help=help)


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


def settings_from(ctx: click.Context, data_dir: Path | None = None, drill_dirs: tuple[Path, ...] = ()) -> Settings:
    """The invocation's :class:`Settings` (from the root group) with a subcommand's own options applied, for a
    command that takes ``--data-dir`` / ``--drills`` as arguments (``warroom scores``, ``warroom store``). Other
    commands use the ``*_setting`` options and :data:`pass_settings`."""
    return resolved_settings(ctx.find_object(Settings), data_dir=data_dir, drill_dirs=drill_dirs)


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
# pass_settings). --drills is eager, so a drill argument (warroom.cli.common.DrillParam) is resolved in its folders
# whether it comes before or after them on the command line.
drills_setting = click.option(
    "--drills",
    "drill_dirs",
    multiple=True,
    type=FolderPath(),
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
    type=GivenPath(file_okay=False, path_type=Path),
    expose_value=False,
    callback=_apply_data_dir,
    help=f"Where sessions and results are kept (default: ${DATA_DIR_ENV}, else the user data dir).",
)


def load_set_option(path: Path, settings: Settings, mode: str | None = None) -> Any:
    """The :class:`~warroom.tui.logic.ActiveSet` of ``--set FILE`` (played in ``mode``: ``--mode``'s, None for the
    set's own). A set file that does not validate, names a drill that is not found or does not load, or (played as
    an assessment) two drills of one healthy run, prints its ``path:line:col: message`` problems on stderr and
    exits with status 1."""
    from warroom.core.load import DrillSetError
    from warroom.core.text import clean
    from warroom.tui.logic import load_active_set

    try:
        return load_active_set(path, settings.drill_dirs, assessment=mode == "assessment")
    except DrillSetError as exc:
        for problem in exc.problems:
            click.echo(clean(problem), err=True)
        raise SystemExit(1) from None
