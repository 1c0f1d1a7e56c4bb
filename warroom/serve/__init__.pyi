# The API of warroom.serve (its __init__.py loads each name on first use, from the module named here).

from ._console import Console
from ._live import LiveClass, host_id
from ._proxies import trusted_proxies, wide_proxies_warning
from ._roster import FACILITATOR, TRAINEE, Roster, RosterError, new_token
from ._server import HEARTBEAT_WARNING, STOP_GRACE_WARNING, WRITE_STALL_WARNING, AppOptions, ServeError, WarroomServer
from ._signin import SignIns

__all__ = [
    "AppOptions",
    "Console",
    "FACILITATOR",
    "HEARTBEAT_WARNING",
    "LiveClass",
    "Roster",
    "RosterError",
    "ServeError",
    "STOP_GRACE_WARNING",
    "SignIns",
    "TRAINEE",
    "WarroomServer",
    "WRITE_STALL_WARNING",
    "host_id",
    "new_token",
    "trusted_proxies",
    "wide_proxies_warning",
]
