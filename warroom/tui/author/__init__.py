"""The author mode (``warroom annotate FILE``): an imported trace replayed on its drill clock while the author marks up
its answer key (origin, evidence, cascade, distractors, damage, deadline, debrief), saves it into the drill file and
reads what ``warroom validate`` and ``warroom check`` say of it. Nothing is scored and no session is kept.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
