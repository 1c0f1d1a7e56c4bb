"""A fast path for printing a fitted table (:func:`warroom.cli.scores._tables.fitted_table`) whose every body cell fits
its
column on one line: the same lines Rich prints (heavy-head box, one space of padding, headers wrapped between words
and aligned to the bottom, bold on a terminal), as plain string formatting.

Rich lays out every cell on its own (about 60 µs a cell); a summary of 500 trainees has 6,000 cells. Anything this
path does not handle (a cell that would wrap, a header word wider than its column) returns None, and the caller
prints the table with Rich. tests/cli/test_plaintable.py checks the lines equal Rich's.

:func:`text_lines` does the same for a sequence of fitted tables and plain text (the lines around the tables), the
text wrapped between words as Rich wraps it, or returns None when Rich must lay something out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import click
from rich.cells import cell_len


def _wrap(text: str, width: int) -> list[str] | None:
    """``text`` wrapped between words into lines of at most ``width`` cells (greedy); None when a word is wider."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        if cell_len(word) > width:
            return None
        if not current:
            current = word
        elif cell_len(current) + 1 + cell_len(word) <= width:
            current += " " + word
        else:
            lines.append(current)
            current = word
    return lines + [current]


def _fit(text: str, width: int, justify: str) -> str:
    pad = " " * (width - cell_len(text))
    return pad + text if justify == "right" else text + pad


def lines(table: Any, rows: Sequence[Sequence[str]]) -> list[str] | None:
    """The lines of ``table`` (made by ``fitted_table`` from ``rows``, the same cell texts), without trailing
    spaces, or None when some cell or header would not fit on one line of its column (print it with Rich)."""
    columns = table.columns
    widths: list[int] = [c.width for c in columns]
    justify: list[str] = [c.justify for c in columns]
    for row in rows:
        for cell, width in zip(row, widths, strict=True):
            if "\n" in cell or cell_len(cell) > width:
                return None
    headers = [_wrap(str(c.header), w) for c, w in zip(columns, widths, strict=True)]
    if any(h is None for h in headers):
        return None
    heads: list[list[str]] = [h for h in headers if h is not None]
    height = max(len(h) for h in heads)
    out = ["┏" + "┳".join("━" * (w + 2) for w in widths) + "┓"]
    for i in range(height):
        cells = []
        for head, width, just in zip(heads, widths, justify, strict=True):
            k = i - (height - len(head))  # headers sit at the bottom of the header row
            text = _fit(head[k] if k >= 0 else "", width, just)
            cells.append(" " + click.style(text, bold=True) + " ")
        out.append("┃" + "┃".join(cells) + "┃")
    out.append("┡" + "╇".join("━" * (w + 2) for w in widths) + "┩")
    for row in rows:
        out.append("│" + "│".join(f" {_fit(c, w, j)} " for c, w, j in zip(row, widths, justify, strict=True)) + "│")
    out.append("└" + "┴".join("─" * (w + 2) for w in widths) + "┘")
    return [line.rstrip() for line in out]


#: A word as Rich's wrapping sees it: leading spaces (only at the start of a line), the word, its trailing spaces.
_WORD = re.compile(r"\s*\S+\s*")


def _wrap_text(line: str, width: int) -> list[str] | None:
    """``line`` (printable, no newline) broken before the words that do not fit in ``width`` cells, as Rich's
    ``divide_line`` breaks it; None when a word is wider than ``width`` (Rich folds it)."""
    out: list[str] = []
    begin = offset = 0
    for match in _WORD.finditer(line):
        word, start = match.group(), match.start()
        length = cell_len(word.rstrip())
        if width - offset >= length:
            offset += cell_len(word)
        elif length > width:
            return None
        elif offset and start:
            out.append(line[begin:start])
            begin, offset = start, cell_len(word)
    return out + [line[begin:]]


def text_lines(renderables: Sequence[object], width: int) -> list[str] | None:
    """The lines Rich prints for ``renderables`` on a console ``width`` cells wide (as
    :func:`warroom.cli.common.table_lines` returns them: no trailing spaces, no trailing empty lines), each one
    plain text (no markup) or a :class:`~warroom.cli.scores._tables.FittedTable` (its cells cleaned as Rich's cells
    are).
    None when Rich must lay one out: a text with a tab, a control character or a word wider than ``width``, a
    table cell that wraps, anything else."""
    from warroom.cli.scores._tables import FittedTable
    from warroom.core.text import clean

    out: list[str] = []
    for item in renderables:
        if isinstance(item, FittedTable):
            table = lines(item, [[clean(cell) for cell in row] for row in item.rows])
            if table is None:
                return None
            out.extend(table)
            continue
        if not isinstance(item, str):
            return None
        for line in item.split("\n"):
            wrapped = _wrap_text(line, width) if line.isprintable() else None
            if wrapped is None:
                return None
            out.extend(wrapped)
    return [line.rstrip(" ") for line in "\n".join(out).rstrip("\n").split("\n")]
