"""``warroom report``: the facilitator's report, one self-contained HTML page of the cohort statistics (the command,
the page, its matplotlib figures). matplotlib and the store are imported inside the command.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
