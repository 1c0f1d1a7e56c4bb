# The API of warroom.store.cohort (its __init__.py loads each name on first use, from the module named here).
# keep: CohortResult

from ._count import CohortResult, cohort_stats
from ._facts import FactsQuery, counted_modes, read_facts

__all__ = [
    "CohortResult",
    "FactsQuery",
    "cohort_stats",
    "counted_modes",
    "read_facts",
]
