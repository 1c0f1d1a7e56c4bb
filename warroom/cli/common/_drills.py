"""The drill arguments of the ``warroom`` commands: a drill resolved and loaded through the one
:class:`~warroom.core.library.DrillLibrary` of the invocation (its ``--drills`` folders, then the bundled library),
with did-you-mean (:class:`DrillParam`), and the drill files and drill set files under the folders given to
``warroom validate`` and ``warroom check``.
"""

from __future__ import annotations

from pathlib import Path
from typing import IO, Any

import click
from click.shell_completion import CompletionItem

from warroom.cli.common._options import settings_of, slash_on_no_folder
from warroom.core.library import DrillLibrary, LoadedDrill
from warroom.core.text import clean, clean_name, shown_path
from warroom.errors import WarroomError

_LIBRARY_KEY = "warroom.library"


def library_of(ctx: click.Context | None) -> DrillLibrary:
    """The invocation's :class:`DrillLibrary` over its settings' ``--drills`` folders, built once per set of
    folders (several drill arguments share its index of drill ids)."""
    if ctx is None:
        return DrillLibrary()
    dirs = settings_of(ctx).drill_dirs
    cached = ctx.meta.get(_LIBRARY_KEY)
    if not isinstance(cached, DrillLibrary) or cached.extra_dirs != dirs:
        cached = ctx.meta[_LIBRARY_KEY] = DrillLibrary(dirs)
    return cached


class DrillNotLoaded(WarroomError, click.ClickException):
    """A drill argument whose file does not load: each problem printed as ``path:line:col: message`` on stderr
    (cleaned: control characters as ``\\xNN``), exit status 1."""

    exit_code = 1

    def __init__(self, path: Path, problems: list[Any]) -> None:
        self.problems = list(problems) or [f"{shown_path(path)}: cannot load this drill"]
        super().__init__("\n".join(clean(p) for p in self.problems))

    def show(self, file: IO[Any] | None = None) -> None:
        for p in self.problems:
            click.echo(clean(p), err=file is None, file=file)


class DrillParam(click.ParamType):
    """A drill argument: a drill file, or a drill id (file name without ``.yaml``) in the ``--drills`` folders or
    the bundled library.

    With ``folders`` False (``warroom run``, ``warroom cost``) the value is a
    :class:`~warroom.core.library.LoadedDrill` ``(path, drill)``; a drill that does not load raises
    :class:`DrillNotLoaded` (exit status 1). With ``folders`` True (``warroom validate``, ``warroom check``) a
    folder is accepted too and the value is a :class:`~pathlib.Path` (a drill file or a folder to search); the
    command loads the files itself. A name that is none of these, or a folder where one drill is needed, is a click
    usage error (exit status 2) naming the folders searched and, when a drill id is one slip of the keyboard away,
    ``(did you mean `id`?)``.
    """

    name = "drill"

    def __init__(self, *, folders: bool = False) -> None:
        self.folders = folders

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, (LoadedDrill, Path)):  # already converted (a default value)
            return value
        if value == "":  # Path("") is the current folder, which nobody named (an unset shell variable)
            what = "drill file, folder or drill id" if self.folders else "drill file or drill id"
            self.fail(f"an empty name names no {what}: give one", param, ctx)
        if (slash := slash_on_no_folder(str(value))) is not None:  # (Path drops the slash: the file was read)
            self.fail(slash, param, ctx)
        library = library_of(ctx)
        try:
            if self.folders:
                return library.path(str(value))
            path = library.resolve(str(value))
        except FileNotFoundError as exc:  # UnknownDrill, DrillIsAFolder
            hint = param.human_readable_name.removesuffix("...") if param is not None else None
            raise click.BadParameter(clean_name(exc), ctx=ctx, param=param, param_hint=hint) from None  # one line
        drill, problems = library.load_or_problems(path)
        if drill is None:
            from warroom.core.load import is_drill_set_file

            if is_drill_set_file(path):  # a drill set, not a drill
                shown = shown_path(path)  # on its line: a newline in the name forges none
                raise click.UsageError(f"{shown} is a drill set: play it with `warroom --set {shown}`", ctx=ctx)
            raise DrillNotLoaded(path, problems)
        return LoadedDrill(path, drill)

    def shell_complete(self, ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
        """The library's drill ids that start with ``incomplete``, then files and folders (only files and folders
        when the settings cannot be resolved, e.g. an unusable ``$WARROOM_TRAINEE``)."""
        try:
            ids = [i for i in library_of(ctx).drill_ids() if i.startswith(incomplete)]
        except click.ClickException:
            ids = []
        return [CompletionItem(i) for i in ids] + [CompletionItem(incomplete, type="file")]


def drill_files_of(paths: tuple[Path, ...], aliases: dict[Path, Path] | None = None) -> tuple[list[Path], int]:
    """The drill files under the ``warroom validate`` / ``warroom check`` arguments (drill files and folders, as
    :class:`~warroom.cli.common.DrillParam` resolved them), and how many folders under them could not be read.

    A sub-folder that cannot be listed is reported on stderr (``folder: cannot read this folder (permission
    denied) ...``); the command must then fail (exit status 1). Raises a click usage error (exit status 2) when the
    folders hold no drill file, or when one is too large or too deep to search (``FOLDER: more than 100,000 files
    and folders under it ...: name the folder that holds the drills``; :class:`~warroom.core.library.FolderTooLarge`).
    ``aliases``: as :func:`~warroom.core.library.find_drill_files` fills it (other names of the files returned).
    """
    from warroom.core.library import FolderTooLarge, find_drill_files

    errors: list[OSError] = []
    try:
        files = find_drill_files(paths, errors=errors, aliases=aliases)
    except FolderTooLarge as exc:  # `warroom validate /`: refused after MAX_WALK_ENTRIES, never walked whole
        raise click.UsageError(str(exc)) from None
    for err in errors:
        click.echo(clean_name(folder_problem(err)), err=True)
    if not files:
        where = ", ".join(shown_path(p) for p in paths)
        raise click.UsageError(f"no drill files (*.yaml, *.yml) found in {where}")
    return files, len(errors)


def folder_problem(exc: OSError) -> str:
    """``folder: cannot read this folder (permission denied); the drills in it were not checked`` for a folder
    that could not be listed."""
    why = (exc.strerror or str(exc)).lower() if not isinstance(exc, PermissionError) else "permission denied"
    return f"{shown_path(exc.filename)}: cannot read this folder ({why}); the drills in it were not checked"
