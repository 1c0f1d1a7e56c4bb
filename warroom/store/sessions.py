"""Sessions: recording one trainee's run of one drill, and recovering sessions that were killed mid-drill.

A live session is a :class:`SessionRecorder`: :meth:`SessionRecorder.start` writes the journal's start line,
:meth:`SessionRecorder.record` appends each trainee action (flushed and fsynced before it returns; pass it to
``Replay(drill, on_action=recorder.record)``), and :meth:`SessionRecorder.finish` writes the end line, stores the
result in the :class:`~warroom.store.results.ResultsStore` and moves the journal to ``journals/done/``.

A session whose process died (``kill -9``, a lost terminal) leaves its journal in ``journals/`` without an end line.
:func:`recover_unfinished` finds such journals, scores each as abandoned from the actions it recorded (adding a
``quit`` action at the drill time after the last recorded action when there is none), stores it and moves the journal to
``journals/done/``. A journal that is still being written by a live process is locked and left alone.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from warroom.core.format import seconds
from warroom.core.outcome import OUTCOME_LABELS, Outcome
from warroom.store.journal import (
    JOURNAL_FORMAT,
    JournalContents,
    JournalError,
    JournalWriter,
    fsync_dir,
    lock_exclusive,
    read_journal,
    utc_now,
)
from warroom.store.results import ResultsStore, SessionInfo, StoreError

if TYPE_CHECKING:
    from warroom.core.actions import Action
    from warroom.core.model import Drill
    from warroom.core.scoring import Scorecard

#: Folder names inside the data directory.
JOURNALS = "journals"
DONE = "done"
UNREADABLE = "unreadable"
#: Seconds after which an orphaned half-created journal (``.ID.jsonl.tmp``) is set aside by recovery.
STALE_TMP_AGE_S = 60.0

_ID_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"  # Crockford base32, lower case (no i, l, o, u)

#: ``drills_resolver(drill_id, drill_path) -> Path``: the drill file to score a recovered session with.
DrillResolver = Callable[[str, str | None], Path]


class SessionError(Exception):
    """A session cannot be started or recorded (data directory unusable, journal closed...)."""


class JournalWriteError(SessionError):
    """The session journal can no longer be written (disk full, the data directory removed, the journal closed):
    the action was not recorded. ``journal`` is the journal file; the actions recorded before are in it."""

    def __init__(self, message: str, journal: Path) -> None:
        super().__init__(message)
        self.journal = Path(journal)


class DrillUnavailable(Exception):
    """The drill a stored session was played on cannot be found or loaded; the message says why."""


def journals_dir(data_dir: Path) -> Path:
    """``DATA_DIR/journals``: journals of live (or killed) sessions."""
    return Path(data_dir) / JOURNALS


def done_dir(data_dir: Path) -> Path:
    """``DATA_DIR/journals/done``: journals of finished or recovered sessions."""
    return journals_dir(data_dir) / DONE


def new_session_id(now: float | None = None) -> str:
    """A new session id: UTC time to the second plus 4 random base32 characters, e.g. ``20261129-152052-k3f9``.

    Ids sort by start time as text and are short enough to type (a unique prefix is enough for ``warroom review``).
    """
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(time.time() if now is None else now))
    suffix = "".join(secrets.choice(_ID_ALPHABET) for _ in range(4))
    return f"{stamp}-{suffix}"


def file_sha256(path: Path) -> str:
    """SHA-256 (hex) of a file's bytes. Raises OSError if it cannot be read."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 16), b""):
            digest.update(chunk)
    return digest.hexdigest()


def scoring_version() -> str:
    """The current scoring rules' version (``warroom.core.scoring.SCORING_VERSION``)."""
    from warroom.core.scoring import SCORING_VERSION

    return SCORING_VERSION


def load_drill_file(path: Path) -> Drill:
    """Load and validate a drill file with the core loader.

    Raises :class:`DrillUnavailable` with a clear message for a missing, unreadable or invalid file.
    """
    from warroom.core.loader import DrillLoadError, load_drill

    path = Path(path)
    try:
        return load_drill(path)
    except DrillLoadError as exc:  # the loader reports an unreadable file as a DrillLoadError too
        raise DrillUnavailable(f"the drill file {path} does not load:\n{exc}") from None


def default_drill_resolver(drill_dirs: Iterable[Path] = ()) -> DrillResolver:
    """A resolver that finds a session's drill: the recorded drill path if it still exists, else the drill id in
    ``drill_dirs`` and the bundled library. The returned function raises FileNotFoundError when neither exists."""
    dirs = tuple(Path(d) for d in drill_dirs)

    def resolve(drill_id: str, drill_path: str | None) -> Path:
        from warroom.core.library import resolve_drill

        if drill_path and Path(drill_path).is_file():
            return Path(drill_path)
        return resolve_drill(drill_id, dirs)

    return resolve


def _score(drill: Drill, actions: list[Action]) -> Scorecard:
    from warroom.core.scoring import score

    return score(drill, actions)


def _with_quit(drill: Drill, actions: list[Action]) -> tuple[list[Action], bool]:
    """``actions`` ending with a ``quit`` when the drill had not ended; True if one was added.

    The log is re-run with :func:`warroom.core.scoring.replay_actions` (not played to the end) to find the drill
    clock after the last action (a false escalation moves it on); the ``quit`` goes there. A log whose drill had
    already ended (the session was killed at the debrief) gets no ``quit``: its outcome stands. A log that does not
    replay on the drill gets its ``quit`` at its last action's time (scoring then says why the log does not fit).
    """
    from warroom.core.actions import Action, ActionKind
    from warroom.core.scoring import ScoringError, replay_actions

    if any(a.kind is ActionKind.QUIT for a in actions):
        return list(actions), False
    try:
        replay, _ = replay_actions(drill, actions, play_to_end=False)
    except ScoringError:
        t = max((a.t for a in actions), default=0.0)
    else:
        if replay.ended:
            return list(actions), False
        t = replay.now
    return [*actions, Action(t=t, kind=ActionKind.QUIT)], True


class SessionRecorder:
    """One live session: its journal (append-only, fsynced per action) and, when it ends, its stored result.

    Create with :meth:`start`. Not thread-safe; one recorder per session.
    """

    def __init__(self, data_dir: Path, info: SessionInfo, drill: Drill, writer: JournalWriter) -> None:
        self.data_dir = Path(data_dir)
        self.info = info
        self.drill = drill
        self._writer = writer
        self._actions: list[Action] = []
        self._scorecard: Scorecard | None = None
        self.finished = False

    @classmethod
    def start(cls, data_dir: Path, trainee: str, drill_path: Path, drill: Drill) -> SessionRecorder:
        """Start a session of ``drill`` (loaded from ``drill_path``) for ``trainee``, with its data in ``data_dir``.

        Checks that the results store can be used (so a trainee never plays a drill whose result cannot be
        stored), creates the journal and writes its start line (id, trainee, drill id and version, SHA-256 of the
        drill file's bytes, drill path, scoring version, start time), fsynced. Returns the recorder.
        Raises SessionError (or StoreError / StoreVersionError for the store) with a clear message.
        """
        data_dir = Path(data_dir)
        drill_path = Path(drill_path)
        try:
            sha = file_sha256(drill_path)
        except OSError as exc:
            raise SessionError(f"cannot read the drill file {drill_path}: {exc.strerror or exc}") from None
        ResultsStore(data_dir).close()  # creates or migrates the store; raises for a newer or broken one
        jdir = journals_dir(data_dir)
        for _ in range(100):
            info = SessionInfo(
                session_id=new_session_id(),
                trainee=trainee,
                drill_id=drill.id,
                drill_version=drill.version,
                drill_sha256=sha,
                drill_path=str(drill_path.resolve()),
                started_at=utc_now(),
                all_clear=drill.is_all_clear,
                scoring_version=scoring_version(),
            )
            final = jdir / f"{info.session_id}.jsonl"
            if final.exists() or (done_dir(data_dir) / final.name).exists():
                continue
            tmp = jdir / f".{info.session_id}.jsonl.tmp"
            try:
                writer = JournalWriter.create(tmp)
            except FileExistsError:
                continue
            except OSError as exc:
                raise SessionError(f"cannot create a session journal in {jdir}: {exc.strerror or exc}") from None
            try:
                writer.append({"type": "start", "format": JOURNAL_FORMAT, **info.to_dict(), "pid": os.getpid()})
                if final.exists():  # pragma: no cover - another process took the same id within this second
                    writer.close()
                    tmp.unlink()  # only our start line is in it
                    continue
                writer.move_to(final)
            except OSError as exc:
                writer.close()
                raise SessionError(f"cannot write a session journal in {jdir}: {exc.strerror or exc}") from None
            except BaseException:
                writer.close()
                raise
            return cls(data_dir, info, drill, writer)
        raise SessionError(f"cannot find a free session id in {jdir}")  # pragma: no cover

    # -- recording ------------------------------------------------------------------------------------------------

    @property
    def session_id(self) -> str:
        """The session's id (see :func:`new_session_id`)."""
        return self.info.session_id

    @property
    def journal_path(self) -> Path:
        """Where the journal is now (``journals/`` while live, ``journals/done/`` once finished)."""
        return self._writer.path

    @property
    def actions(self) -> list[Action]:
        """The actions recorded so far, in order (a copy)."""
        return list(self._actions)

    @property
    def scorecard(self) -> Scorecard | None:
        """The scorecard stored by :meth:`finish`, or None before."""
        return self._scorecard

    def record(self, action: Action) -> None:
        """Append one trainee action to the journal; it is on disk (fsynced) when this returns.

        Raises SessionError once the session is finished, :class:`JournalWriteError` (a SessionError) when the
        journal cannot be written (the action is then not recorded).
        """
        if self.finished:
            raise SessionError(f"session {self.session_id} is finished; no more actions can be recorded")
        line = {
            "type": "action",
            "seq": len(self._actions) + 1,
            "at": utc_now(),
            "action": action.model_dump(mode="json", exclude_none=True),
        }
        try:
            self._writer.append(line)
        except (OSError, ValueError) as exc:  # a failed write, or the journal already closed
            detail = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise JournalWriteError(
                f"cannot write the session journal {self.journal_path}: {detail}", self.journal_path
            ) from exc
        self._actions.append(action)

    def finish(self, scorecard: Scorecard) -> bool:
        """End the session with its ``scorecard``, which must be the score of :attr:`actions` (the recorded log).

        Writes the journal's end line (fsynced), stores the session in the results store and moves the journal to
        ``journals/done/``. Idempotent: a second call does nothing and returns False (True the first time).
        Raises :class:`JournalWriteError` when the end line cannot be written (nothing is stored; the journal is
        recovered later, as abandoned), ValueError for a scorecard of another drill, and StoreError when storing
        fails: then the journal stays in ``journals/`` with its end line, and the next :func:`recover_unfinished`
        stores it.
        """
        if self.finished:
            return False
        if scorecard.drill_id != self.drill.id:
            raise ValueError(f"a scorecard of drill {scorecard.drill_id!r} for a session of {self.drill.id!r}")
        d = scorecard.to_dict()
        ended_at = utc_now()
        try:
            self._writer.append(
                {"type": "end", "ended_at": ended_at, "outcome": d["outcome"], "total": d["total"], "scorecard": d}
            )
        except (OSError, ValueError) as exc:
            detail = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise JournalWriteError(
                f"cannot write the session journal {self.journal_path}: {detail}", self.journal_path
            ) from exc
        self.finished = True
        self._scorecard = scorecard
        try:
            with ResultsStore(self.data_dir) as store:
                store.insert(self.info, scorecard, self._actions, ended_at=ended_at)
            self._writer.move_to(done_dir(self.data_dir) / self._writer.path.name)
        finally:
            self._writer.close()
        return True

    def abandon(self) -> Scorecard | None:
        """End the session as abandoned (Ctrl-C, quit before the end): scored from the recorded actions.

        Appends a ``quit`` action at the drill time after the last recorded action if the log has none (call
        ``Replay.quit()`` first to record the quit at the current drill time), scores the log and :meth:`finish` es with it.
        Returns the scorecard (None if the session was already finished).
        """
        if self.finished:
            return None
        actions, added = _with_quit(self.drill, self._actions)
        if added:
            self.record(actions[-1])
        scorecard = _score(self.drill, self._actions)
        self.finish(scorecard)
        return scorecard

    def close(self) -> None:
        """Close the journal without finishing (the session stays unfinished until recovered). Safe to call twice."""
        self._writer.close()

    def __enter__(self) -> SessionRecorder:
        return self

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        if not self.finished:
            try:
                self.abandon()
            finally:
                self.close()


# ---------------------------------------------------------------------------------------------------------------
# Recovery
# ---------------------------------------------------------------------------------------------------------------


#: The raw outcome values (a recovered session's ``outcome``), to show their labels.
_OUTCOMES = frozenset(o.value for o in Outcome)


@dataclass
class RecoveredSession:
    """What :func:`recover_unfinished` did with one journal.

    ``stored`` is True when the session is now in the results store (``outcome``/``total``/``max_total`` set,
    ``outcome`` the raw :class:`~warroom.core.outcome.Outcome` value; ``str()`` shows its label); otherwise
    ``error`` says why not and where the journal was kept. ``problems`` lists skipped journal lines and other
    things worth telling (a changed drill file, a ``quit`` action added at recovery).
    """

    journal: Path
    session_id: str | None = None
    trainee: str | None = None
    drill_id: str | None = None
    actions: list[Any] = field(default_factory=list)
    outcome: str | None = None
    total: int | None = None
    max_total: int | None = None
    stored: bool = False
    problems: list[str] = field(default_factory=list)
    error: str | None = None

    def __str__(self) -> str:
        if self.stored:
            from warroom.core.scoring import MAX_TOTAL

            label = OUTCOME_LABELS[Outcome(self.outcome)] if self.outcome in _OUTCOMES else self.outcome
            most = self.max_total if self.max_total is not None else MAX_TOTAL
            head = (
                f"recovered session {self.session_id} ({self.trainee}, {self.drill_id}): {len(self.actions)} "
                f"action(s), recorded as {label} ({self.total}/{most})"
            )
        else:
            head = f"could not recover {self.journal}: {self.error}"
        return "\n".join([head, *(f"  {p}" for p in self.problems)])


def recover_unfinished(
    data_dir: Path, drills_resolver: DrillResolver | None = None, *, store: ResultsStore | None = None
) -> list[RecoveredSession]:
    """Record every unfinished session journal in ``data_dir`` (a session killed mid-drill) in the results store.

    For each journal in ``journals/`` that no live process holds: a journal with an end line (the process died
    while storing it) is stored with the scorecard of its end line; one without is scored as abandoned from its
    recorded actions (a ``quit`` is added at the drill time after the last recorded action when missing, unless
    the drill had already ended). The drill is found with
    ``drills_resolver(drill_id, drill_path) -> Path`` (default: :func:`default_drill_resolver`); a drill file whose
    SHA-256 differs from the recorded one is used but reported. Truncated or corrupt lines are reported and skipped.
    Recovered journals move to ``journals/done/`` (never deleted); a journal without a readable start line moves to
    ``journals/unreadable/``; a journal whose drill cannot be found or loaded stays where it is (retried next time).

    Returns one :class:`RecoveredSession` per journal looked at (empty when there was nothing to recover).
    Raises StoreError / StoreVersionError when the results store cannot be used (no journal is touched then).
    """
    data_dir = Path(data_dir)
    jdir = journals_dir(data_dir)
    if not jdir.is_dir():
        return []
    resolver = drills_resolver or default_drill_resolver()
    candidates = sorted(p for p in jdir.glob("*.jsonl") if p.is_file() and not p.name.startswith("."))
    _set_aside_stale_tmp(jdir)
    if not candidates:
        return []
    own_store = store is None
    store = store if store is not None else ResultsStore(data_dir)
    try:
        out = []
        for path in candidates:
            rec = _recover_one(data_dir, path, resolver, store)
            if rec is not None:
                out.append(rec)
        return out
    finally:
        if own_store:
            store.close()


def _set_aside_stale_tmp(jdir: Path) -> None:
    """Move half-created journals (``.ID.jsonl.tmp``, no action can be in them) older than a minute aside."""
    now = time.time()
    for tmp in jdir.glob(".*.jsonl.tmp"):
        try:
            if now - tmp.stat().st_mtime < STALE_TMP_AGE_S:
                continue
            fd = os.open(tmp, os.O_RDONLY)
        except OSError:
            continue
        try:
            lock_exclusive(fd, blocking=False)
            dest = jdir / UNREADABLE / tmp.name
            dest.parent.mkdir(exist_ok=True)
            os.replace(tmp, dest)
        except OSError:
            pass
        finally:
            os.close(fd)


def _recover_one(data_dir: Path, path: Path, resolver: DrillResolver, store: ResultsStore) -> RecoveredSession | None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return None  # finished or recovered by another process meanwhile
    try:
        try:
            lock_exclusive(fd, blocking=False)
        except BlockingIOError:
            return None  # a live session: its process holds the lock
        try:
            if os.fstat(fd).st_ino != os.stat(path).st_ino:
                return None  # pragma: no cover - replaced meanwhile
        except FileNotFoundError:
            return None  # moved to done/ by the process that held it
        rec = RecoveredSession(journal=path)
        try:
            contents = read_journal(path)
        except JournalError as exc:
            dest = journals_dir(data_dir) / UNREADABLE / path.name
            _move(path, dest)
            rec.journal = dest
            rec.error = f"{exc}; the journal was kept as {dest}"
            return rec
        rec.problems.extend(str(p) for p in contents.problems)
        try:
            info = SessionInfo.from_dict(contents.start)
        except KeyError as exc:
            dest = journals_dir(data_dir) / UNREADABLE / path.name
            _move(path, dest)
            rec.journal = dest
            rec.error = f"{path}:1: the start line has no {exc.args[0]!r}; the journal was kept as {dest}"
            return rec
        rec.session_id, rec.trainee, rec.drill_id = info.session_id, info.trainee, info.drill_id
        ended_at = _mtime_iso(path)
        finished = _end_scorecard(contents)
        if finished is not None:
            scorecard = finished
            actions = contents.actions
            ended_at = str(contents.end.get("ended_at") or ended_at) if contents.end else ended_at
            rec.problems.append("the session had finished; its result was stored at recovery")
        else:
            try:
                scorecard, actions, info = _score_abandoned(info, contents, resolver, rec)
            except DrillUnavailable as exc:
                rec.error = f"{exc}\n  the journal was kept in place: {path}"
                return rec
        rec.actions = actions
        rec.outcome = scorecard.outcome.value
        rec.total = scorecard.total
        rec.max_total = scorecard.max_total
        store.insert(info, scorecard, actions, ended_at=ended_at, recovered=True, notes=rec.problems)
        rec.stored = True
        dest = done_dir(data_dir) / path.name
        _move(path, dest)
        rec.journal = dest
        return rec
    finally:
        os.close(fd)


def _end_scorecard(contents: JournalContents) -> Scorecard | None:
    """The scorecard of a journal's end line, or None when there is none or it cannot be read (the session is then
    scored as abandoned from its actions)."""
    from warroom.core.scoring import Scorecard

    d = contents.end.get("scorecard") if contents.end is not None else None
    if not isinstance(d, dict):
        return None
    try:
        return Scorecard.from_dict(d)
    except ValueError:
        return None


@dataclass(frozen=True)
class SessionDrill:
    """The drill file a stored session is scored with: its ``path`` (resolved), the loaded ``drill``, the file's
    ``sha256`` and whether it ``changed`` since the session was played (its SHA-256 differs from the recorded one)."""

    path: Path
    drill: Drill
    sha256: str
    changed: bool


def resolve_session_drill(
    info: SessionInfo, resolver: DrillResolver, cache: dict[Path, Drill] | None = None
) -> SessionDrill:
    """Find, read and load the drill of a session (``info``: its recorded drill id, path and SHA-256) with
    ``resolver``; ``cache`` (path -> drill) saves loading one file twice. Raises :class:`DrillUnavailable` with a
    clear message when the file is not found, cannot be read or does not load."""
    try:
        path = Path(resolver(info.drill_id, info.drill_path)).resolve()
    except FileNotFoundError as exc:
        raise DrillUnavailable(
            f"the drill {info.drill_id!r} of session {info.session_id} is not found (was {info.drill_path}): {exc}"
        ) from None
    try:
        sha = file_sha256(path)
    except OSError as exc:
        raise DrillUnavailable(f"cannot read the drill file {path}: {exc.strerror or exc}") from None
    if cache is not None and path in cache:
        drill = cache[path]
    else:
        drill = load_drill_file(path)
        if cache is not None:
            cache[path] = drill
    return SessionDrill(path, drill, sha, bool(info.drill_sha256) and sha != info.drill_sha256)


def _score_abandoned(
    info: SessionInfo, contents: JournalContents, resolver: DrillResolver, rec: RecoveredSession
) -> tuple[Scorecard, list[Action], SessionInfo]:
    """Score an interrupted session as abandoned: (scorecard, actions with the added quit, the info to store).

    When the drill file changed since the session started, the session is scored against the current file and the
    returned info records that file (SHA-256, version, path), so the stored score and its drill file agree; a note
    in ``rec.problems`` names the file the session was played on.
    """
    found = resolve_session_drill(info, resolver)
    drill, drill_file, sha = found.drill, found.path, found.sha256
    if found.changed:
        rec.problems.append(
            f"the drill file {drill_file} changed since the session (SHA-256 {sha[:12]}… was "
            f"{info.drill_sha256[:12]}…); scored against the current file (version {drill.version}, SHA-256 {sha}), "
            f"which is recorded with the session; it was played on version {info.drill_version} "
            f"(SHA-256 {info.drill_sha256})"
        )
        info = replace(info, drill_sha256=sha, drill_version=drill.version, drill_path=str(drill_file))
    actions, added = _with_quit(drill, contents.actions)
    if added:
        rec.problems.append(f"no quit action in the journal; one was added at drill time {seconds(actions[-1].t)}")
    from warroom.core.scoring import ScoringError

    try:
        scorecard = _score(drill, actions)
    except ScoringError as exc:  # a drill edited so that the recorded actions no longer fit it
        raise DrillUnavailable(f"session {info.session_id} cannot be scored on {drill_file}: {exc}") from None
    return scorecard, actions, info


def _mtime_iso(path: Path) -> str:
    try:
        return datetime.fromtimestamp(path.stat().st_mtime, UTC).isoformat(timespec="microseconds")
    except OSError:  # pragma: no cover
        return utc_now()


def _move(src: Path, dest: Path) -> None:
    dest.parent.mkdir(parents=True, exist_ok=True)
    os.replace(src, dest)
    fsync_dir(dest.parent)
    fsync_dir(src.parent)


__all__ = [
    "DrillResolver",
    "DrillUnavailable",
    "JournalWriteError",
    "RecoveredSession",
    "SessionError",
    "SessionRecorder",
    "StoreError",
    "SessionDrill",
    "default_drill_resolver",
    "file_sha256",
    "load_drill_file",
    "resolve_session_drill",
    "new_session_id",
    "recover_unfinished",
]
