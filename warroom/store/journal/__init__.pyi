# The API of warroom.store.journal (its __init__.py loads each name on first use, from the module named here).

from ._deletion import delete_sessions
from ._recorder import JournalWriteError, SessionError, SessionRecorder
from ._recovery import recover_unfinished

__all__ = [
    "JournalWriteError",
    "SessionError",
    "SessionRecorder",
    "delete_sessions",
    "recover_unfinished",
]
