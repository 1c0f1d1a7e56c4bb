# The API of warroom.cli.scores (its __init__.py loads each name on first use, from the module named here).
# keep: scores

from ._group import scores
from ._options import RulesOption, check_rules_option, set_filter_option
from ._statistics import compute_summary, counted_line, reliability_line

__all__ = [
    "RulesOption",
    "check_rules_option",
    "compute_summary",
    "counted_line",
    "reliability_line",
    "scores",
    "set_filter_option",
]
