"""YAML text to a validated Drill: limits, YAML 1.2 reading with line and column for every problem, the fast path for
valid drills.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
