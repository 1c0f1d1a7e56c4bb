"""The war room: one drill played on its drill clock (:class:`WarRoomScreen`, over :class:`DrillScreen`, the session
side: every trainee action journalled before it counts, then scored and stored), the guided tutorial played on it,
and its dialogs: the escalation (the plan step at fault, a reason, the events it cites), verification probes and
flags.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
