"""Seeded variants: a drill and a seed made into the variant a session plays (names, amounts, timing, the order of
distractors and the phrasing of events changed as the drill's ``variants`` section allows), and a new seed for a
session. The section's rules are checked by :mod:`warroom.core.rules`.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
