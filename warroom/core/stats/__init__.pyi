# The API of warroom.core.stats (its __init__.py loads each name on first use, from the module named here).
# keep: MIN_DISTINCT_CONTROLS, MIN_NOISE_TRIALS, MIN_PROPHECY_R, MIN_RELIABILITY_TRAINEES, MIN_SIGNAL_TRIALS

from ._cells import d_prime_cell, drill_cells, estimate_cell, interval_text, median_cell, rate_cell, too_few
from ._counts import FirstAttempt, count_first_attempts, stats_from_counts
from ._facts import SessionFacts, attempt_order, uncountable
from ._figures import CohortStats, DrillStats, Reliability, TraineeStats
from ._measures import (
    MIN_DISTINCT_CONTROLS,
    MIN_NOISE_TRIALS,
    MIN_PROPHECY_R,
    MIN_RELIABILITY_TRAINEES,
    MIN_SIGNAL_TRIALS,
)
from ._responses import SIGNAL_RESPONSES, approximate_response, approximated_sql
from ._summary import count_facts, first_attempts, summarize

__all__ = [
    "CohortStats",
    "DrillStats",
    "FirstAttempt",
    "MIN_DISTINCT_CONTROLS",
    "MIN_NOISE_TRIALS",
    "MIN_PROPHECY_R",
    "MIN_RELIABILITY_TRAINEES",
    "MIN_SIGNAL_TRIALS",
    "Reliability",
    "SIGNAL_RESPONSES",
    "SessionFacts",
    "TraineeStats",
    "approximate_response",
    "approximated_sql",
    "attempt_order",
    "count_facts",
    "count_first_attempts",
    "d_prime_cell",
    "drill_cells",
    "estimate_cell",
    "first_attempts",
    "interval_text",
    "median_cell",
    "rate_cell",
    "stats_from_counts",
    "summarize",
    "too_few",
    "uncountable",
]
