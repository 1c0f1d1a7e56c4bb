"""How the terminal UI records a session: the :class:`Recorder` the war room writes every action to, the store's
recorder wrapped so the screens catch only this module's errors (:class:`StoreRecorder`), and those errors."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from warroom.errors import WarroomError

if TYPE_CHECKING:
    from warroom.core.model import Action, Drill


class Recorder(Protocol):
    """A session being recorded: every action appended to the journal, then the result stored."""

    session_id: str

    @property
    def actions(self) -> list[Action]:
        """The actions recorded (on disk) so far, in order: the log the session is scored from."""

    def record(self, action: Action) -> None:
        """Append one action to the session's journal (on disk before returning).

        Raises :class:`JournalUnwritable` when it cannot be written (the action is not recorded)."""

    def finish(self, scorecard: Any) -> None:
        """Store the session's scorecard (of :attr:`actions`) and close its journal.

        Raises :class:`SessionUnavailable` when the result cannot be stored."""

    def close(self) -> None:
        """Close the journal without storing a result (a later start recovers the session as abandoned)."""


class SessionUnavailable(WarroomError):
    """A session cannot be started or stored (unwritable data directory, broken results store); the message says why."""


class ResultsUnavailable(WarroomError):
    """The results store exists but cannot be read (not a database, damaged); the message says why."""


class JournalUnwritable(SessionUnavailable):
    """The session journal can no longer be written (disk full, data directory removed): actions cannot be saved.
    ``journal`` is the journal file, which keeps every action saved before."""

    def __init__(self, message: str, journal: Path) -> None:
        super().__init__(message)
        self.journal = Path(journal)


class StoreRecorder:
    """A :class:`Recorder` over a :class:`~warroom.store.journal.SessionRecorder` that turns the store's errors
    into :class:`JournalUnwritable` / :class:`SessionUnavailable`, so the screens catch only those."""

    def __init__(self, inner: Any, before_finish: Callable[[], None] | None = None) -> None:
        self.inner = inner
        self.session_id: str = inner.session_id
        #: Called before the session is stored (the trainee's queued sessions delivered first:
        #: :meth:`~warroom.tui.logic.Services.start_session`).
        self.before_finish = before_finish

    @property
    def journal_path(self) -> Path:
        """Where the session journal is."""
        return Path(self.inner.journal_path)

    @property
    def drill(self) -> Drill:
        """The drill this session plays: the variant of its seed for a drill with ``variants``."""
        drill: Drill = self.inner.drill
        return drill

    @property
    def actions(self) -> list[Action]:
        """The actions recorded so far (see :attr:`Recorder.actions`)."""
        return self.inner.actions

    def record(self, action: Action) -> None:
        """See :meth:`Recorder.record`."""
        from warroom.store.journal import JournalWriteError, SessionError

        try:
            self.inner.record(action)
        except JournalWriteError as exc:
            raise JournalUnwritable(str(exc), exc.journal) from None
        except SessionError as exc:
            raise JournalUnwritable(str(exc), self.journal_path) from None

    def finish(self, scorecard: Any) -> None:
        """See :meth:`Recorder.finish`."""
        from warroom.store.errors import StoreError
        from warroom.store.journal import SessionError

        if self.before_finish is not None and not self.inner.finished:
            self.before_finish()
        try:
            self.inner.finish(scorecard)
        except (SessionError, StoreError, OSError, ValueError) as exc:  # OSError/ValueError: the journal's end line
            raise SessionUnavailable(f"{exc}") from None

    def close(self) -> None:
        """Close the journal without storing a result (a later start recovers it as abandoned)."""
        self.inner.close()

    @property
    def queued(self) -> bool:
        """True once :meth:`finish` found the shared store unreachable: the finished session waits in its journal
        until ``warroom store sync`` or the next start delivers it."""
        return bool(getattr(self.inner, "queued", False))
