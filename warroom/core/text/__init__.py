"""Text for people: drill text made safe for a terminal (control characters and bidi controls written as visible
escapes), one format per kind of number (seconds, USD, damage, percentages), plurals and natural order, ids shown
with their look-alikes named, and did-you-mean hints. Pure functions, no third-party imports.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
