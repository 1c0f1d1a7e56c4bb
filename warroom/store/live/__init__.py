"""Who is live in a served class (schema version 15): the table ``live_sessions``, one row per browser tab (or
sign-in without a tab) of every ``warroom serve`` host, written by the host that serves it and kept fresh by a
heartbeat (``_table``), so that the facilitator's console of any host shows the whole class from the one database.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
