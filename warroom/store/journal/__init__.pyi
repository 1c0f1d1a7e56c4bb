# The API of warroom.store.journal (its __init__.py loads each name on first use, from the module named here).
# keep: JournalError, JournalWriter, NotRegularFile, RecoveredSession, Unrecoverable, detected_at, read_journal,
# keep: wall_clock

from ._deletion import delete_sessions
from ._file import JournalError, JournalWriter, NotRegularFile, read_journal
from ._notices import take_notices
from ._progress import sessions_in_progress
from ._recorder import SERVE_TAB_ENV, JournalWriteError, SessionError, SessionRecorder, Trial
from ._recovery import RecoveredSession, Unrecoverable, recover_unfinished
from ._wallclock import detected_at, wall_clock

__all__ = [
    "SERVE_TAB_ENV",
    "JournalError",
    "JournalWriteError",
    "JournalWriter",
    "NotRegularFile",
    "RecoveredSession",
    "SessionError",
    "SessionRecorder",
    "Trial",
    "Unrecoverable",
    "delete_sessions",
    "detected_at",
    "read_journal",
    "recover_unfinished",
    "sessions_in_progress",
    "take_notices",
    "wall_clock",
]
