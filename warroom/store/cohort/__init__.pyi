# The API of warroom.store.cohort (its __init__.py loads each name on first use, from the module named here).

from ._count import cohort_stats
from ._facts import TUTORIAL_MODE, FactsQuery, counted_modes, read_facts

__all__ = [
    "TUTORIAL_MODE",
    "FactsQuery",
    "cohort_stats",
    "counted_modes",
    "read_facts",
]
