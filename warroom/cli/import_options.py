"""The options every ``warroom import`` subcommand shares (--out, --force, -v, --redact, --redact-names), and the
price options with their parser; the redaction asked for as a :class:`~warroom.importers.redact.Redactor`."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from warroom.importers.kit import ImportResult, Price, Redactor


def parse_price(ctx: click.Context, param: click.Parameter, value: str | None) -> Price | None:
    """The ``IN/OUT`` price option's value as a Price (None when not given); a bad one is a usage error."""
    if value is None:
        return None
    from warroom.importers.kit import Price

    try:
        return Price.parse(value)
    except ValueError as e:
        raise click.BadParameter(str(e), ctx=ctx, param=param) from None


def price_option(*decls: str, help: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """An ``IN/OUT`` price option (``--price``, ``--planner-price`` ...), parsed by :func:`parse_price` into a Price
    (None when not given); ``help`` says whose prices they are and the default."""
    return click.option(*decls, metavar="IN/OUT", callback=parse_price, help=help)


def import_options(out_help: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorate an import command with ``PATHS...``, ``--out`` (``out_help`` says what is written there),
    ``--redact``, ``--redact-names FILE``, ``--force`` and ``-v``, passed as ``paths``, ``out_dir``, ``redact``,
    ``redact_names``, ``force``, ``verbose``."""

    def decorate(f: Callable[..., Any]) -> Callable[..., Any]:
        f = click.option("-v", "--verbose", is_flag=True, help="List every drill written, not only failures.")(f)
        f = click.option("--force", is_flag=True, help="Overwrite drill files that already exist in --out.")(f)
        f = click.option("--redact-names", type=click.Path(exists=True, dir_okay=False, path_type=Path),
                         metavar="FILE", help="Also replace these names (one a line; implies --redact).")(f)
        f = click.option("--redact", is_flag=True,
                         help="Replace e-mail addresses, phone numbers, API keys and tokens and IP addresses in "
                              "every text by placeholders (<email-1>) before writing (docs/importing.md).")(f)
        f = click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False, path_type=Path),
                         help=out_help)(f)
        return click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))(f)

    return decorate


def make_redactor(redact: bool, names_file: Path | None) -> Redactor | None:
    """The redactor ``--redact`` / ``--redact-names FILE`` ask for, or None. A names file that cannot be read is a
    usage error (``FILE: reason``)."""
    if not redact and names_file is None:
        return None
    from warroom.core.text import clean
    from warroom.importers.kit import Redactor, read_names

    names: list[str] = []
    if names_file is not None:
        try:
            names = read_names(names_file)
        except OSError as e:
            raise click.UsageError(clean(f"{names_file}: cannot read the names file: {e.strerror or e}")) from None
        except ValueError as e:
            raise click.UsageError(clean(str(e))) from None
    return Redactor(names)


class ImportProgress:
    """What ``warroom import`` prints as it goes (a :data:`~warroom.importers.who_and_when.files.Progress`): each
    file's warnings as ``path:line: warning: message`` and failures as ``path: message`` on stderr and, with
    ``verbose``, each drill written as ``path -> drill`` on stdout, as soon as the file is done; and, when stderr
    is a terminal (``live``), a ``N of M files`` line on stderr that the next line replaces, so that a large batch
    is never silent until its summary."""

    def __init__(self, verbose: bool, *, live: bool | None = None) -> None:
        self.verbose = verbose
        self.live = sys.stderr.isatty() if live is None else live
        self._shown = False

    def __call__(self, done: int, total: int, results: list[ImportResult]) -> None:
        from warroom.cli.output import say

        shown = [r for r in results if r.error is not None or r.warnings or self.verbose]
        if shown:
            self.finish()
        for r in shown:  # paths and messages quoting a record: control characters shown as \xNN
            for w in r.warnings:  # before the file's error: a cut-off last line may be why it failed
                say(w.at(r.source), err=True)
            if r.error is not None:
                say(f"{r.source}: {r.error}", err=True)
            elif self.verbose:
                say(f"{r.source} -> {r.output}")
        if self.live and done < total:  # the count only grows: "\r" overwrites the line before
            self._write(f"\r{done:,} of {total:,} files")
            self._shown = True

    def finish(self) -> None:
        """Erase the ``N of M files`` line, if one is shown."""
        if self._shown:
            self._write("\r\x1b[K")  # back to the line's start, erase to its end
            self._shown = False

    @staticmethod
    def _write(text: str) -> None:
        sys.stderr.write(text)  # not click.echo, which drops the erase sequence when it thinks it is no terminal
        sys.stderr.flush()
