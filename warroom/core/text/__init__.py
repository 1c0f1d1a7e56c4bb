"""Text for people: drill text made safe for a terminal, one format per number, plurals and natural order, ids shown
with their look-alikes named, did-you-mean.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
