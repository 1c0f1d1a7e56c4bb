"""Scoring: a session's :class:`Scorecard` as a pure function of the drill and the action log (the log re-run on a
:class:`~warroom.core.play.Replay`), by an edition of the scoring rules. Each edition is one frozen :class:`Edition`
(its point values and switches) in :data:`EDITIONS`, so that a stored session is re-scored by the rules it was
played under; the scorecard says how each number was computed.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
