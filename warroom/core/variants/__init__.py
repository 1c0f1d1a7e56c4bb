"""Seeded variants: a drill and a seed made into the variant a session plays (names, amounts, timing, the order of
distractors and the phrasing of events changed as the drill's ``variants`` section allows), a new seed for a
session, and what the session plays as a trial (signal or noise, drawn from the seed; a noise trial plays the
drill's twin). The section's rules are checked by :mod:`warroom.core.rules`.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
