"""The fitted tables of ``warroom scores`` (warroom.cli.scores._tables.fitted_table): widths set on the columns so
that Rich never squeezes them; headers wrap between words, aligned to the bottom; a number and its unit never
wrap."""

from __future__ import annotations

from warroom.cli.common import make_console
from warroom.cli.scores._statistics import _DRILL_COLUMNS
from warroom.cli.scores._tables import fitted_table


def rich_lines(table) -> list[str]:
    console = make_console()
    with console.capture() as capture:
        console.print(table)
    return [ln.rstrip() for ln in capture.get().rstrip("\n").split("\n")]


def test_headers_wrap_to_the_bottom():
    columns = [("name", "name", True), ("ttd", "median time to detect", False)]
    rows = [["a", "12 s"]]
    table = fitted_table(columns, rows, 20)
    out = rich_lines(table)
    assert out[1].endswith("    median ┃") and out[3].endswith("detect ┃")  # three header lines, bottom-aligned


def test_a_cell_wider_than_its_column_wraps_between_words():
    columns = [("name", "name", True), ("note", "note", False)]
    rows = [["a", "several words that must wrap in a narrow column"]]
    table = fitted_table(columns, rows, 30)
    assert table is not None and table.columns[1].width < len(rows[0][1])
    out = rich_lines(table)
    assert len(out) > 5 and all(len(ln) <= 30 for ln in out)


def test_a_time_and_its_unit_stay_on_one_line_when_the_table_is_squeezed():
    """At 120 columns the drill table's wall ttd column was given 4 cells, so "15.4 s" printed as "15.4" over "s";
    a number and its unit are one value and never wrap, while headers still wrap between words."""
    rows = [["duplicate-charge-refunds", "1", "0", "1", "0", "1/1 100% [21–100]", "-", "3.2 s", "15.4 s", "-"]]
    table = fitted_table(_DRILL_COLUMNS, rows, 128)  # (the narrowest width the drill table fits in)
    assert table is not None
    widths = {c.header: c.width for c in table.columns}
    assert widths["median ttd"] >= len("3.2 s") and widths["wall ttd"] >= len("15.4 s")
    printed = rich_lines(table)
    assert any("3.2 s" in ln and "15.4 s" in ln for ln in printed), printed
