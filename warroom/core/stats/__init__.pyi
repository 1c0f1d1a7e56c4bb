# The API of warroom.core.stats (its __init__.py loads each name on first use, from the module named here).

from ._counts import CohortCounts, PairCounts, stats_from_counts
from ._facts import SessionFacts
from ._summary import CohortStats, DrillStats, TraineeStats, summarize

__all__ = [
    "CohortCounts",
    "CohortStats",
    "DrillStats",
    "PairCounts",
    "SessionFacts",
    "TraineeStats",
    "stats_from_counts",
    "summarize",
]
