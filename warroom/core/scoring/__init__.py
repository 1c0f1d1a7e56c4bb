"""Scoring: a session's Scorecard as a pure function of the drill and the action log, by the edition of the rules.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
