# The API of warroom.cli.scores (its __init__.py loads each name on first use, from the module named here).
# keep: scores

from ._group import scores
from ._options import RulesOption, check_rules_option, parsed_since, set_filter_option, unknown_trainees
from ._statistics import (
    LEGEND,
    approximated_line,
    compute_summary,
    counted_line,
    in_progress_line,
    reliability_line,
    score_reliability_line,
    tutorial_matches,
    unverified_sentence,
)
from ._summary import include_unverified_option

__all__ = [
    "LEGEND",
    "RulesOption",
    "approximated_line",
    "check_rules_option",
    "compute_summary",
    "counted_line",
    "in_progress_line",
    "include_unverified_option",
    "parsed_since",
    "reliability_line",
    "score_reliability_line",
    "scores",
    "set_filter_option",
    "tutorial_matches",
    "unknown_trainees",
    "unverified_sentence",
]
