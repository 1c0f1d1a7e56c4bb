"""Reading and writing files safely: regular-file checks before opening, real paths."""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
