"""The one table helper of the CLI (warroom/cli/common/_tables.py): Rich tables of cleaned cells, rendered to lines."""

from __future__ import annotations

from rich.console import Console

from warroom.cli.common import cleaned, table_lines, text_table
from warroom.cli.common._tables import RenderedLine, strip_trailing


def _lines(table, width: int = 200, indent: int = 0) -> list[str]:
    console = Console(width=width, color_system=None, highlight=False, markup=False, emoji=False)
    return table_lines(table, indent=indent, console=console)


def test_columns_are_sized_to_their_content_and_numbers_right_aligned():
    table = text_table(("name", "calls", "USD"), [("planner", 1, "$0.035"), ("executor", 13, "$0.02521")], right={1, 2})
    assert _lines(table, indent=2) == [
        "  name      calls       USD",
        "  planner       1    $0.035",
        "  executor     13  $0.02521",
    ]


def test_cells_are_shown_literally_never_as_markup_or_terminal_escapes():
    table = text_table(("who",), [("[bold red]ann[/]",), ("eve\x1b]52;c;Zm9v\x07",)])
    lines = _lines(table)
    assert "[bold red]ann[/]" in lines[1]
    assert "\x1b" not in "".join(lines) and "eve\\x1b]52;c;Zm9v\\x07" in lines[2]


def test_no_line_ends_in_spaces_and_blank_lines_are_empty():
    table = text_table(("a", "b"), [("x" * 10, "y"), ("z", "")])
    assert all(line == line.rstrip() for line in _lines(table))
    assert strip_trailing("ab   \x1b[0m") == "ab\x1b[0m"


def test_a_narrow_terminal_folds_cells_instead_of_cutting_them():
    long = "duplicate-charge-refunds-" * 3
    lines = _lines(text_table(("drill", "score"), [(long, "100/100")]), width=30)
    assert len(lines) > 2 and all(len(line) <= 30 for line in lines)
    drill_column = "".join(line[: line.index("100/100")] if "100/100" in line else line for line in lines[1:])
    assert "".join(drill_column.split()) == long and "…" not in "".join(lines)


def test_rendered_lines_are_not_cleaned_twice():
    bold = RenderedLine("\x1b[1mtrainee\x1b[0m")  # a bold header as a terminal gets it
    assert cleaned([bold, "text\x1b"]) == ["\x1b[1mtrainee\x1b[0m", "text\\x1b"]
    assert all(isinstance(line, RenderedLine) for line in _lines(text_table(("a",), [("b",)])))
