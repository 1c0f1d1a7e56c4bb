# The API of warroom.core.stats (its __init__.py loads each name on first use, from the module named here).

from ._counts import CohortCounts, PairCounts, stats_from_counts
from ._facts import SessionFacts
from ._figures import CohortStats, DrillStats, Reliability, TraineeStats
from ._summary import summarize

__all__ = [
    "CohortCounts",
    "CohortStats",
    "DrillStats",
    "PairCounts",
    "Reliability",
    "SessionFacts",
    "TraineeStats",
    "stats_from_counts",
    "summarize",
]
