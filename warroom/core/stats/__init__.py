"""Cohort statistics: hit and false-alarm rates, d', c, A', reliability and item analysis, from one SessionFacts per
session or from counts.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
