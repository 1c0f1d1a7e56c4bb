"""The Textual widgets the screens share: the trace table on a line table drawn for traces of any length, the inspector
(an event in full, laid out off the UI thread when big) and going to a field in it, the war room's status bar,
meters and plan panel, the panes the war room and the author mode lay out alike, the footer, the help and yes / no
dialogs, and help built from each screen's key bindings.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
