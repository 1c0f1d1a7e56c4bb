"""Seeded variants: a drill and a seed made into the variant a session plays.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
