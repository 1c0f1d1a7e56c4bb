"""The screens around the war room: the drill picker (its table, groups and preview), the briefing, the debrief (the
only screen that shows the trainee the answer key) and the after-action review of a stored session. They post the
messages of :mod:`warroom.tui.flow` to move the trainee on, and never import the app.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
