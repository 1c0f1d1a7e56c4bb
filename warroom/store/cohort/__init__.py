"""The cohort statistics of ``warroom scores summary`` counted inside the results store: a few GROUP BY queries over the
sessions' own rows (``_count``; PostgreSQL's plan in ``_postgres``) turned into the figures by
:func:`warroom.core.stats.stats_from_counts`, and one :class:`~warroom.core.stats.SessionFacts` per stored session
(``_facts``: ``warroom report``'s input, and the rows the counts leave out described one by one).
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
