"""warroom.cli.scores._plaintable: the fast path prints the lines Rich prints for a fitted table, or declines."""

from __future__ import annotations

import click
import pytest

from warroom.cli.scores import make_console, rich_console
from warroom.cli.scores._plaintable import lines as styled_lines
from warroom.cli.scores._statistics import _DRILL_COLUMNS, _TRAINEE_COLUMNS
from warroom.cli.scores._tables import fitted_table


def lines(table, rows) -> list[str] | None:
    """The fast path's lines without their styles (bold headers; click drops them when not on a terminal)."""
    out = styled_lines(table, rows)
    return None if out is None else [click.unstyle(ln) for ln in out]


def rich_lines(table) -> list[str]:
    console = rich_console(make_console())
    with console.capture() as capture:
        console.print(table)
    return [ln.rstrip() for ln in capture.get().rstrip("\n").split("\n")]


TRAINEES = [
    ["ana", "40", "2", "55%", "10%", "1.41", "-0.12", "0.83", "12.5 s", "30 s", "63.2", "0.71 (+12)"],
    ["bartholomew-the-third", "3", "0", "100%", "-", "-", "-", "-", "-", "-", "100", "-"],
    ["日本語の名前", "12", "0", "0%", "100%", "-2.01", "0", "0", "-", "-", "0", "-"],
]
DRILLS = [["refund-replay (all-clear)", "40", "20", "1", "55%", "-0.05", "9 s", "21.5 s", "e5 ×2, e9 ×1"]]


@pytest.mark.parametrize("width", [200, 150, 130])
@pytest.mark.parametrize(("columns", "rows"), [(_TRAINEE_COLUMNS, TRAINEES), (_DRILL_COLUMNS, DRILLS)])
def test_same_lines_as_rich(columns, rows, width):
    table = fitted_table(columns, rows, width)
    assert table is not None
    assert lines(table, rows) == rich_lines(table)


def test_declines_a_cell_that_would_wrap():
    columns = [("name", "name", True), ("note", "note", False)]
    rows = [["a", "several words that must wrap in a narrow column"]]
    table = fitted_table(columns, rows, 30)
    assert table is not None and table.columns[1].width < len(rows[0][1])
    assert lines(table, rows) is None


def test_headers_wrap_to_the_bottom():
    columns = [("name", "name", True), ("ttd", "median time to detect", False)]
    rows = [["a", "12 s"]]
    table = fitted_table(columns, rows, 20)
    out = lines(table, rows)
    assert out == rich_lines(table)
    assert out[1].endswith("    median ┃") and out[3].endswith("detect ┃")  # three header lines, bottom-aligned
    assert "\x1b[1m" in styled_lines(table, rows)[1]  # bold on a terminal


LEGEND = (
    "hit rate: contained on time / drills with a fault played; false alarms: all-clear drills escalated / all-clear "
    "drills played; d′ (log-linear correction), criterion c and A′: sensitivity and bias; reliability: of the mean "
    "score (+ more drills needed to reach 0.7); Spearman–Brown. docs/sessions.md has every formula."
)
TEXTS = [
    LEGEND,
    "Per trainee (assessment, set wk-1)",
    "",
    "   indented start  and  double  spaces   ",
    "two\nlines\n\nwith a blank one",
    "日本語の名前 trainee 名前名前名前 wide cells",
    "x" * 19 + " " + "y" * 19,
    "   ",
]


@pytest.mark.parametrize("width", [20, 37, 60, 80, 121, 200])
def test_text_lines_are_the_lines_rich_prints(width):
    """Plain text on a pipe is wrapped without Rich (warroom.cli.scores._plaintable.text_lines) exactly as Rich wraps
    it;
    what it cannot do as Rich does (a word wider than the line, tabs, control characters) it declines."""
    from rich.console import Console

    from warroom.cli.common import table_lines
    from warroom.cli.scores._plaintable import text_lines

    def rich(*texts: str) -> list[str]:
        return [str(line) for line in table_lines(*texts, console=Console(width=width, highlight=False, markup=False))]

    for text in TEXTS:
        assert text_lines([text], width) == rich(text), (text, width)
    assert text_lines(TEXTS, width) == rich(*TEXTS)
    assert text_lines(["a " + "w" * (width + 1)], width) is None  # Rich folds the word
    assert text_lines(["tab\there"], width) is None and text_lines(["bell\x07"], width) is None
    assert text_lines([object()], width) is None  # neither text nor a fitted table


@pytest.mark.parametrize("width", [60, 130, 200])
def test_tables_and_text_together_are_the_lines_rich_prints(width):
    """A title, a fitted table (a cell holding a control character, cleaned as Rich's cells are) and notes."""
    from rich.console import Console

    from warroom.cli.common import table_lines
    from warroom.cli.scores._plaintable import text_lines

    rows = [["s-1", "ann\x1b[31m", "12.5 s"], ["s-2", "日本語", "-"]]
    columns = [("session", "session", True), ("trainee", "the trainee's name", True), ("ttd", "ttd", False)]
    items = ["2 sessions", fitted_table(columns, rows, width), "* a footnote", ""]
    plain = text_lines(items, width)
    assert plain is not None and "ann\\x1b[31m" in "\n".join(plain)
    rich = table_lines(*items, console=Console(width=width, highlight=False, markup=False))
    assert [click.unstyle(ln) for ln in plain] == [str(ln) for ln in rich]


def test_a_time_and_its_unit_stay_on_one_line_when_the_table_is_squeezed():
    """At 120 columns the drill table's wall ttd column was given 4 cells, so "15.4 s" printed as "15.4" over "s";
    a number and its unit are one value and never wrap, while headers still wrap between words."""
    rows = [["duplicate-charge-refunds", "1", "1", "1", "100%", "-", "3.2 s", "15.4 s", "-"]]
    table = fitted_table(_DRILL_COLUMNS, rows, 120)
    assert table is not None
    widths = {c.header: c.width for c in table.columns}
    assert widths["median ttd"] >= len("3.2 s") and widths["wall ttd"] >= len("15.4 s")
    printed = rich_lines(table)
    assert any("3.2 s" in ln and "15.4 s" in ln for ln in printed), printed
    assert lines(table, rows) == printed
