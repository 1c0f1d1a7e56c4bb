"""Where drills are found and how they are listed: the bundled library and --drills folders, DrillLibrary, the picker's
cards and cache, drill sets and the adaptive chooser.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
