# The API of warroom.console (its __init__.py loads each name on first use, from the module named here).

from ._counting import counting_sentence
from ._figures import FALSE_ALARM, HIT, NEUTRAL, detect_plot, figure, kinds_plot, sensitivity_plot, split_markers, svg
from ._gradebook import Graded, first_attempt_first, gradebook_csv, graded_sessions
from ._grid import completion_grid
from ._html import render
from ._live import live_counts, live_delta, live_lines, live_rows, parse_utc
from ._progress import progress
from ._review import compare_lines, review_lines

__all__ = [
    "FALSE_ALARM",
    "Graded",
    "HIT",
    "NEUTRAL",
    "compare_lines",
    "completion_grid",
    "counting_sentence",
    "detect_plot",
    "figure",
    "first_attempt_first",
    "gradebook_csv",
    "graded_sessions",
    "kinds_plot",
    "live_counts",
    "live_delta",
    "live_lines",
    "live_rows",
    "parse_utc",
    "progress",
    "render",
    "review_lines",
    "sensitivity_plot",
    "split_markers",
    "svg",
]
