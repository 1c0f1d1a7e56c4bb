# The API of warroom.store.cohort (its __init__.py loads each name on first use, from the module named here).
# keep: CohortResult, Unverified

from ._count import CohortResult, cohort_stats
from ._facts import (
    FactsQuery,
    Unverified,
    counted_modes,
    prepared,
    read_facts,
    tutorial_sessions,
    unverified_sessions,
    window_problems,
)

__all__ = [
    "CohortResult",
    "FactsQuery",
    "Unverified",
    "cohort_stats",
    "counted_modes",
    "prepared",
    "read_facts",
    "tutorial_sessions",
    "unverified_sessions",
    "window_problems",
]
