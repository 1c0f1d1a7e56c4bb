"""The one way the CLI prints a table: a Rich table of cleaned text cells, rendered to lines.

Every table a command prints (``warroom check``'s scripted trainees, ``warroom cost``'s breakdowns; any new one)
is built with :func:`text_table` and printed, or rendered to lines with :func:`table_lines`. Cells are drill or
trainee text shown literally: never Rich markup, control characters as ``\\xNN`` (:func:`warroom.core.text.clean`).
Columns are sized to their content and separated by two spaces; a table too wide for the terminal folds its cells
instead of cutting them. The console is :func:`make_console` (the terminal's width; 200 columns or ``$COLUMNS`` for
a file or a pipe), and no line ends in spaces. ``warroom scores`` builds its own fitted tables
(:mod:`warroom.cli.scores._tables`) and prints them with :func:`print_renderables` too.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from typing import Any

import click

from warroom.core.text import clean

#: Width of a table written to something that is not a terminal (a file, a pipe) when ``COLUMNS`` is not set.
UNBOUNDED_WIDTH = 200


def make_console() -> Any:
    """The Rich console tables are printed on, without markup, emoji or highlighting: on a terminal as wide as the
    terminal; elsewhere ``$COLUMNS`` wide when set, else :data:`UNBOUNDED_WIDTH`, so a file or a pipe gets every
    table unsqueezed."""
    import os
    import sys

    from rich.console import Console

    if sys.stdout.isatty():
        return Console(highlight=False, markup=False, emoji=False)
    columns = os.environ.get("COLUMNS", "").strip()
    # ASCII digits only: `str.isdigit` also takes `COLUMNS=²`, which `int` refuses (a traceback in every table)
    width = int(columns) if columns.isascii() and columns.isdigit() and int(columns) > 0 else UNBOUNDED_WIDTH
    return Console(highlight=False, markup=False, emoji=False, width=width)


def print_renderables(console: Any, *renderables: Any) -> None:
    """Print ``renderables`` (tables, text) on ``console`` without trailing spaces on any line (Rich pads to the
    table width): :func:`table_lines`, echoed."""
    click.echo("\n".join(table_lines(*renderables, console=console)))


def text_table(headers: Sequence[str], rows: Iterable[Sequence[object]], *, right: Collection[int] = ()) -> Any:
    """A borderless Rich ``Table``: one column per header (the column indexes in ``right`` right-aligned, for
    numbers), one row per item of ``rows`` (each value shown with ``str`` after :func:`clean`). The header is bold
    on a terminal (never in a file or a pipe)."""
    from rich.table import Table
    from rich.text import Text

    table = Table(box=None, show_edge=False, pad_edge=False, padding=(0, 1), header_style="bold")
    for i, header in enumerate(headers):
        table.add_column(Text(clean(header)), justify="right" if i in right else "left", overflow="fold")
    for row in rows:
        table.add_row(*(Text(clean(value)) for value in row))
    return table


class RenderedLine(str):
    """A line :func:`table_lines` rendered: its text is cleaned already and it may hold the terminal's style codes
    (a bold header), so it is never cleaned again (:func:`cleaned`)."""

    __slots__ = ()


def cleaned(lines: Iterable[str]) -> list[str]:
    """``lines`` ready to print: each cleaned (:func:`~warroom.core.text.clean`) except the
    :class:`RenderedLine` ones, whose cells were cleaned before Rich laid them out."""
    return [line if isinstance(line, RenderedLine) else clean(line) for line in lines]


def table_lines(*renderables: Any, indent: int = 0, console: Any = None) -> list[str]:
    """``renderables`` (tables, text) rendered as the CLI prints them: one :class:`RenderedLine` per line, each
    prefixed with ``indent`` spaces and without trailing spaces. ``console`` defaults to
    :func:`make_console` (the terminal's width, 200 columns for a file or a pipe)."""
    console = console or make_console()
    if indent:  # the table gets the room left after the indent
        console.width = max(20, console.width - indent)
    with console.capture() as capture:
        for r in renderables:
            console.print(r)
    lines = capture.get().rstrip("\n").split("\n")
    return [RenderedLine((" " * indent + strip_trailing(line)) if line.strip() else "") for line in lines]


#: Spaces at the end of a line, before any ANSI style codes that close it.
_TRAILING = re.compile(r"[ \t]+((?:\x1b\[[0-9;]*m)*)$")


def strip_trailing(line: str) -> str:
    """``line`` without the spaces Rich pads it with (any closing style codes kept)."""
    return _TRAILING.sub(r"\1", line)
