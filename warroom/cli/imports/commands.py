"""``warroom import NAME``: the ``import`` group and one subcommand per importer of the registry
(:func:`warroom.importers.kit.importers`), each with the options every import takes (``PATHS...``, ``--out``,
``--redact``, ``--redact-names``, ``--force``, ``-v``) and the importer's own (``--price``, ``--trace-id``...).

Nothing here names a format: an importer added to :mod:`warroom.importers` is a subcommand. The importers' reading
code is imported only when a command runs, so ``warroom import --help`` stays fast.
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from warroom.cli.common import GivenPath
from warroom.importers.kit import importers

if TYPE_CHECKING:
    from warroom.importers.kit import Importer, Option


def _group_help() -> str:
    """The group's help, naming the importers whose drills carry their answer key and those whose do not."""
    keyed = [i.name for i in importers().values() if i.answer_key]
    unkeyed = [i.name for i in importers().values() if not i.answer_key]

    def listed(names: list[str]) -> str:
        return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"

    return ("Turn real agent traces into drills.\n\nEach subcommand reads one trace format and writes one drill YAML "
            "file per record or trace. What the source does not record (the drill clock, token counts, prices) is "
            f"estimated and said so in each drill. {listed(keyed)} records carry their answer key; {listed(unkeyed)} "
            "traces do not, and their drills say what the author must add (docs/importing.md).")


def _checked(option: Option) -> Any:
    """A click callback that makes ``option``'s value what the importer takes (None when not given); a value the
    importer refuses is a usage error naming the option (exit status 2)."""

    def check(ctx: click.Context, param: click.Parameter, value: str | None) -> object:
        if value is None:
            return None
        try:
            return option.parse(value)
        except ValueError as e:
            raise click.BadParameter(str(e), ctx=ctx, param=param) from None

    return check


class _OutFolder(GivenPath):
    """The ``--out`` folder, or ``-`` for standard output (converted to None: the one drill written there). Only the
    exact ``-`` means stdout: ``./-`` names a folder called ``-``."""

    def __init__(self) -> None:
        super().__init__(file_okay=False, path_type=Path)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and value == "-":
            return None
        return super().convert(value, param, ctx)


def _params(importer: Importer) -> list[click.Parameter]:
    """The command's arguments and options: those every import takes, then the importer's own."""
    return [
        click.Argument(["paths"], nargs=-1, required=True, type=GivenPath(exists=True, path_type=Path)),
        click.Option(["--out", "out_dir"], required=True, type=_OutFolder(),
                     help=importer.out_help + " With -, the one drill is written on standard output."),
        click.Option(["--redact"], is_flag=True,
                     help="Replace e-mail addresses, phone numbers, API keys and tokens and IP addresses in every text "
                          "by placeholders (<email-1>) before writing (docs/importing.md)."),
        click.Option(["--redact-names"], type=GivenPath(exists=True, dir_okay=False, path_type=Path), metavar="FILE",
                     help="Also replace these names (one a line; implies --redact)."),
        click.Option(["--force"], is_flag=True, help="Overwrite drill files that already exist in --out."),
        click.Option(["-v", "--verbose"], is_flag=True, help="List every drill written, not only failures."),
        *(click.Option([o.flag, o.name], metavar=o.metavar, callback=_checked(o), help=o.help)
          for o in importer.options),
    ]


def command(importer: Importer) -> click.Command:
    """The ``warroom import NAME`` subcommand of ``importer``."""

    def run(paths: tuple[Path, ...], out_dir: Path | None, redact: bool, redact_names: Path | None, force: bool,
            verbose: bool, **given: Any) -> None:
        from warroom.cli.imports.run import run_import

        run_import(importer, paths, out_dir, given, redact=redact, redact_names=redact_names, force=force,
                   verbose=verbose)

    return click.Command(importer.name, callback=run, params=_params(importer), help=inspect.cleandoc(importer.help))


import_group = click.Group("import", help=_group_help(), commands=[command(i) for i in importers().values()])
