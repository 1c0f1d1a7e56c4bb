"""Tools for drill authors: scripted trainees and fairness (warroom check), the skeleton and examples, migrate, the JSON
Schema and field reference, marking up an answer key (warroom annotate).
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
