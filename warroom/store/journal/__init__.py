"""The session journal and what is done with it: the append-only JSON Lines file fsynced line by line (``_file``),
recording one live session into it and then into the results store (``_recorder``), recovering sessions killed
mid-drill and quarantining journals that never can be (``_recovery``), the wall-clock figures from the journal's
action times (``_wallclock``), and deleting stored sessions with their journals (``_deletion``).
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
