"""Recording one trainee's run of one drill: the journal first, then the results store.

A live session is a :class:`SessionRecorder`: :meth:`SessionRecorder.start` writes the journal's start line,
:meth:`SessionRecorder.record` appends each trainee action (flushed and fsynced before it returns; pass it to
``Replay(drill, on_action=recorder.record)``), and :meth:`SessionRecorder.finish` writes the end line, stores the
result in the :class:`~warroom.store.results.ResultsStore` and moves the journal to ``journals/done/``.

A session whose process died (``kill -9``, a lost terminal) leaves its journal in ``journals/`` without an end line.
:func:`~warroom.store.journal.recover_unfinished` (:mod:`warroom.store.journal._recovery`) finds such journals and
stores them as abandoned, scoring them as this module does (:func:`score_session`, :func:`with_quit`).
"""

from __future__ import annotations

import os
import secrets
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from warroom.errors import WarroomError
from warroom.store.datadir import done_dir, journals_dir
from warroom.store.errors import StoreUnreachable
from warroom.store.journal._file import JOURNAL_FORMAT, JournalWriter, next_queue_order
from warroom.store.results import ResultsStore, SessionInfo, WallClock
from warroom.store.review import (
    file_sha256,
)
from warroom.store.timestamps import utc_now

if TYPE_CHECKING:
    from warroom.core.model import Action, Drill, PlayedAs
    from warroom.core.scoring import Scorecard

_ID_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"  # Crockford base32, lower case (no i, l, o, u)


class SessionError(WarroomError):
    """A session cannot be started or recorded (data directory unusable, journal closed...)."""


class JournalWriteError(SessionError):
    """The session journal can no longer be written (disk full, the data directory removed, the journal closed):
    the action was not recorded. ``journal`` is the journal file; the actions recorded before are in it."""

    def __init__(self, message: str, journal: Path) -> None:
        super().__init__(message)
        self.journal = Path(journal)


#: Random base32 characters closing a session id: 40 bits. With 4 (20 bits), a trainee's PostgreSQL role could store
#: a row under every id another trainee's session starting in a given second could draw (a million rows), and that
#: session was then refused by the store for good ("another session is stored under this id", a row it cannot see).
ID_RANDOM_CHARS = 8


def new_session_id(now: float | None = None) -> str:
    """A new session id: UTC time to the second plus :data:`ID_RANDOM_CHARS` random base32 characters, e.g.
    ``20261129-152052-k3f9x2mq``.

    Ids sort by start time as text; a unique prefix or suffix of one is enough for ``warroom review``.
    """
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(time.time() if now is None else now))
    suffix = "".join(secrets.choice(_ID_ALPHABET) for _ in range(ID_RANDOM_CHARS))
    return f"{stamp}-{suffix}"


def scoring_version() -> str:
    """The current scoring rules' version (``warroom.core.scoring.SCORING_VERSION``)."""
    from warroom.core.scoring import SCORING_VERSION

    return SCORING_VERSION


def score_session(drill: Drill, actions: list[Action], recorded_rules: str | None = None) -> Scorecard:
    """The scorecard of ``actions`` on ``drill`` by the scoring rules the session recorded at its start (when this
    warroom still applies them), else the current rules."""
    from warroom.core.scoring import SCORING_VERSION, SCORING_VERSIONS, score

    return score(drill, actions, rules=recorded_rules if recorded_rules in SCORING_VERSIONS else SCORING_VERSION)


def with_quit(drill: Drill, actions: list[Action]) -> tuple[list[Action], bool]:
    """``actions`` ending with a ``quit`` when the drill had not ended; True if one was added.

    The log is re-run with :func:`warroom.core.scoring.replay_actions` (not played to the end) to find the drill
    clock after the last action (a false escalation moves it on); the ``quit`` goes there. A log whose drill had
    already ended (the session was killed at the debrief) gets no ``quit``: its outcome stands. A log that does not
    replay on the drill gets its ``quit`` at its last action's time (scoring then says why the log does not fit).
    """
    from warroom.core.model import Action, ActionKind
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


#: How many of a trainee's latest sessions of a drill a new session's variant should differ from.
RECENT_VARIANTS = 8


def _session_variant(
    store: ResultsStore | None, trainee: str, drill: Drill, seed: int | None, trial: Trial
) -> tuple[int | None, PlayedAs, Drill]:
    """The seed of a new session of ``drill`` (``seed`` when given; else one unlike the trainee's recent sessions
    in ``store``, None: a shared store that cannot be reached), what it plays as (``trial``'s forced one, else drawn
    from the seed with its noise rate: :func:`warroom.core.variants.draw_played_as`) and the drill it plays (the
    twin for a noise trial of a drill with a twin, then the variant of the seed, its events' ids by position when
    the current edition says so: :func:`warroom.core.scoring.ids_by_position`). Raises SessionError when that
    drill cannot be made."""
    from warroom.core.scoring import ids_by_position
    from warroom.core.variants import VariantError, draw_played_as, new_seed, session_drill

    recent: list[int] = []
    if seed is None and drill.variants is not None and store is not None:
        rows, _ = store.query_readable(trainee=trainee, drill=drill.id, limit=RECENT_VARIANTS)  # skip bad rows
        recent = [r.seed for r in rows if r.seed is not None]
    seed = new_seed(drill, recent, fixed=seed)
    try:
        played_as = trial.played_as or draw_played_as(drill, seed, trial.noise_rate)
        by_position = ids_by_position(scoring_version())  # the edition the session records (its start line)
        return seed, played_as, session_drill(drill, seed, played_as, by_position=by_position)
    except (VariantError, ValueError) as exc:
        raise SessionError(f"cannot play drill {drill.id}: {exc}") from None


@dataclass(frozen=True)
class Trial:
    """How a new session's trial is decided: ``played_as`` forced (``warroom run --as``; the tutorial: signal), or
    None to draw it from the session's seed with ``noise_rate`` (:data:`~warroom.core.variants.DEFAULT_NOISE_RATE`,
    or a drill set's ``noise_rate``)."""

    played_as: PlayedAs | None = None
    #: None: :data:`~warroom.core.variants.DEFAULT_NOISE_RATE`.
    noise_rate: float | None = None
    #: True when the trainee chose the trial or the seed (``warroom run --as`` or ``--seed``) instead of letting the
    #: session draw them: the start line and the stored row record it (``chosen``), and the cohort statistics never
    #: count such a session as a trial (docs/scoring.md, "What counts as a trial"). The caller says so: a forced
    #: trial of warroom's own (the tutorial's signal trial) is not the trainee's choice. A drill with one trial only
    #: (no twin) is recorded as drawn unless a seed chose its variant (:func:`_chosen`): there was nothing to choose.
    chosen: bool = False


def _chosen(drill: Drill, trial: Trial, seed: int | None) -> bool:
    """Whether a session of ``drill`` decided by ``trial`` (and ``seed``, when the trainee named one) is recorded as
    chosen: the trainee chose its trial or seed, and there was something to choose: two trials (a twin), or, for a
    seed, the variant (a drill with variants: a seed another trainee played gives their session's names and amounts,
    which they may have told). A drill of one trial and no variants (no twin: signal; all clear: noise) plays the same
    whatever ``--as`` or ``--seed`` says, so nothing was chosen: the session is drawn, a fair trial (and ``scores
    verify`` finds its seed drawing it); so is ``--as`` naming the only trial of a drill with variants."""
    from warroom.core.variants import can_play_as

    if not trial.chosen:
        return False
    # a variants section of empty lists (``variants: {}``) plays the same session whatever the seed: nothing chosen
    varies = drill.variants is not None and any(drill.variants.model_dump().values())
    return len(can_play_as(drill)) > 1 or (seed is not None and varies)


#: The variable ``warroom serve`` sets for each app process it runs: the browser tab's id on that server.
SERVE_TAB_ENV = "WARROOM_SERVE_TAB"


def _served() -> dict[str, str]:
    """``{"tab": ID}`` in a process that ``warroom serve`` runs for a browser tab (:data:`SERVE_TAB_ENV`), so the
    server tells which tab plays the session (its console's live view); else nothing."""
    tab = os.environ.get(SERVE_TAB_ENV, "")
    return {"tab": tab[:64]} if tab else {}


def _open_journal(data_dir: Path, template: SessionInfo) -> tuple[SessionInfo, JournalWriter]:
    """Create a new session's journal in ``data_dir``'s ``journals/`` and write its start line (``template`` with a
    fresh session id and start time; a taken id is drawn again), fsynced. Returns the session's info and the journal's
    writer. Raises SessionError when the journal cannot be created or written, or no free id is found."""
    jdir = journals_dir(data_dir)
    for _ in range(100):
        info = replace(template, session_id=new_session_id(), started_at=utc_now())
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
            start = {"type": "start", "format": JOURNAL_FORMAT, **info.to_dict(), "pid": os.getpid(),
                     "order": next_queue_order(jdir), **_served()}  # fmt: skip
            writer.append(start)
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
        return info, writer
    raise SessionError(f"cannot find a free session id in {jdir}")  # pragma: no cover


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
        self._times: list[str | None] = []  # the wall-clock time journalled with each action
        self._scorecard: Scorecard | None = None
        self.finished = False
        #: True once :meth:`finish` found the shared store unreachable: the session waits, finished, in
        #: ``journals/`` until ``warroom store sync`` or the next start delivers it.
        self.queued = False

    @classmethod
    def start(
        cls,
        data_dir: Path,
        trainee: str,
        drill_path: Path,
        drill: Drill,
        *,
        mode: str = "practice",
        set_id: str | None = None,
        seed: int | None = None,
        trial: Trial | None = None,
    ) -> SessionRecorder:
        """Start a session of ``drill`` (loaded from ``drill_path``) for ``trainee``, with its data in ``data_dir``.

        Checks that the results store can be used (so a trainee never plays a drill whose result cannot be
        stored), creates the journal and writes its start line (id, trainee, drill id and version, SHA-256 of the
        drill file's bytes, drill path, scoring version, start time, ``mode`` (``practice``, ``assessment`` or
        ``tutorial``) and the drill set's ``set_id`` or None, the variant ``seed``), fsynced. Returns the recorder.
        A drill with ``variants`` is played as the variant of ``seed`` (given: ``warroom run --seed N``; else drawn
        unlike the trainee's recent sessions of the drill, :func:`warroom.core.variants.new_seed`): that variant is
        the recorder's :attr:`drill`. A drill with a twin is played as a signal or a noise trial (``trial``: forced,
        or drawn from the seed with its noise rate; default: drawn with
        :data:`~warroom.core.variants.DEFAULT_NOISE_RATE`); a noise trial plays the twin's variant, and the start
        line records ``played_as``. Raises SessionError (or StoreError / StoreVersionError for the store) with a
        clear message, ValueError for an unknown mode.
        """
        if mode not in ("practice", "assessment", "tutorial"):
            raise ValueError(f"unknown session mode {mode!r} (practice, assessment or tutorial)")
        data_dir = Path(data_dir)
        drill_path = Path(drill_path)
        try:
            sha = file_sha256(drill_path)
        except OSError as exc:
            raise SessionError(f"cannot read the drill file {drill_path}: {exc.strerror or exc}") from None
        chosen = _chosen(drill, trial or Trial(), seed)
        try:
            with ResultsStore(data_dir) as store:  # creates or migrates the store; raises for a newer or broken one
                seed, played_as, drill = _session_variant(store, trainee, drill, seed, trial or Trial())
        except StoreUnreachable:  # a shared store that is down: the session is played and queued locally (finish)
            seed, played_as, drill = _session_variant(None, trainee, drill, seed, trial or Trial())
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
            mode=mode,
            set_id=set_id,
            seed=seed,
            played_as=played_as.value,
            chosen=chosen,
        )
        info, writer = _open_journal(data_dir, info)
        return cls(data_dir, info, drill, writer)

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
        at = utc_now()
        line = {
            "type": "action",
            "seq": len(self._actions) + 1,
            "at": at,
            "action": action.model_dump(mode="json", exclude_none=True),
        }
        self._append(line)
        self._actions.append(action)
        self._times.append(at)

    def _append(self, line: dict[str, Any]) -> None:
        """Write ``line`` to the journal (fsynced); raises :class:`JournalWriteError` when it cannot be written."""
        try:
            self._writer.append(line)
        except (OSError, ValueError) as exc:  # a failed write, or the journal already closed
            detail = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise JournalWriteError(
                f"cannot write the session journal {self.journal_path}: {detail}", self.journal_path
            ) from exc

    def finish(self, scorecard: Scorecard) -> bool:
        """End the session with its ``scorecard``, the score of :attr:`actions` (the recorded log): the score stored is
        always recomputed from the recorded log and the drill (by the rules ``scorecard`` was computed with), so what
        the caller passes names the rules, never the figures.

        Writes the journal's end line (fsynced), stores the session in the results store and moves the journal to
        ``journals/done/``. Idempotent: a second call does nothing and returns False (True the first time).
        Raises :class:`JournalWriteError` when the end line cannot be written (nothing is stored; the journal is
        recovered later, as abandoned), ValueError for a scorecard of another drill, and StoreError when storing
        fails: then the journal stays in ``journals/`` with its end line, and the next :func:`recover_unfinished`
        stores it. When a shared store cannot be reached (:class:`StoreUnreachable`) nothing is raised: the session
        is queued (:attr:`queued` True; its journal, finished, stays in ``journals/``) and ``warroom store sync`` or
        the next start delivers it, once.
        """
        if self.finished:
            return False
        if scorecard.drill_id != self.drill.id:
            raise ValueError(f"a scorecard of drill {scorecard.drill_id!r} for a session of {self.drill.id!r}")
        scorecard = self._recomputed(scorecard)
        d = scorecard.to_dict()
        # never before its start (the store refuses that): a clock stepped back during the session ends it there
        ended_at = max(utc_now(), self.info.started_at)
        self._append(
            {"type": "end", "ended_at": ended_at, "outcome": d["outcome"], "total": d["total"], "scorecard": d}
        )
        self.finished = True
        self._scorecard = scorecard
        try:
            with ResultsStore(self.data_dir) as store:
                wall = self._wall(scorecard, ended_at)
                store.insert(self.info, scorecard, self._actions, ended_at=ended_at, wall=wall)
            self._writer.move_to(done_dir(self.data_dir) / self._writer.path.name)
        except StoreUnreachable:
            self.queued = True
        finally:
            self._writer.close()
        return True

    def _recomputed(self, scorecard: Scorecard) -> Scorecard:
        """The score of the recorded action log (by the rules ``scorecard`` names when this warroom applies them,
        else the session's): what is journalled and stored, whatever the caller computed. Raises ValueError when the
        recorded actions do not replay on the drill."""
        from warroom.core.scoring import SCORING_VERSIONS, ScoringError

        rules: str | None = scorecard.scoring_version
        if rules not in SCORING_VERSIONS:
            rules = self.info.scoring_version
        try:
            return score_session(self.drill, self._actions, rules)
        except ScoringError as exc:
            raise ValueError(
                f"the recorded actions of session {self.session_id} do not replay on its drill: {exc}"
            ) from None

    def _wall(self, scorecard: Scorecard, ended_at: str) -> WallClock:
        """The session's wall-clock figures (see :mod:`warroom.store.journal._wallclock`)."""
        from warroom.store.journal._wallclock import detected_at, wall_clock

        return wall_clock(
            self.info.started_at, self._actions, self._times, contained_at=detected_at(scorecard), ended_at=ended_at
        )

    def abandon(self) -> Scorecard | None:
        """End the session as abandoned (Ctrl-C, quit before the end): scored from the recorded actions.

        Appends a ``quit`` action at the drill time after the last recorded action if the log has none (call
        ``Replay.quit()`` first to record the quit at the current drill time), scores the log and :meth:`finish` es
        with it.
        Returns the scorecard (None if the session was already finished).
        """
        if self.finished:
            return None
        actions, added = with_quit(self.drill, self._actions)
        if added:
            self.record(actions[-1])
        scorecard = score_session(self.drill, self._actions)
        self.finish(scorecard)
        return scorecard

    def close(self) -> None:
        """Close the journal without finishing (the session stays unfinished until recovered). Safe to call twice."""
        self._writer.close()

    def __enter__(self) -> SessionRecorder:
        return self

    def __exit__(self, *exc: object) -> None:
        if not self.finished:
            try:
                self.abandon()
            finally:
                self.close()
