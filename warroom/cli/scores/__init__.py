"""``warroom scores``: the stored sessions listed (a table, CSV or JSON), the cohort statistics per trainee and per
drill (``summary``), re-scoring (``rescore``) and deleting (``delete``), with the old spelling (``--summary``,
``--rescore``, ``--delete``). A module per subcommand, the options and filters they share, the statistics' rendering
(tables, bars, CSV rows; ``warroom report`` uses it too) and the tables fitted to the terminal. Heavy imports
(pydantic models, Rich, the store) happen inside the commands.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
