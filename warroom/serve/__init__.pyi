# The API of warroom.serve (its __init__.py loads each name on first use, from the module named here).

from ._roster import Roster, RosterError, new_token
from ._server import AppOptions, ServeError, WarroomServer
from ._signin import SignIns

__all__ = [
    "AppOptions",
    "Roster",
    "RosterError",
    "ServeError",
    "SignIns",
    "WarroomServer",
    "new_token",
]
