"""Recovering sessions killed mid-drill, and setting aside journals that can never be recovered.

A session whose process died (``kill -9``, a lost terminal) leaves its journal in ``journals/`` without an end line.
:func:`recover_unfinished` (run at every start of ``warroom``, ``run``, ``scores`` and ``review``) scores each such
journal as abandoned from the actions it recorded, stores it and moves the journal to ``journals/done/``.

What happens to each journal in ``journals/``:

- stored: moved to ``journals/done/`` (kept, never deleted);
- held by a live process (locked): left alone, silently;
- no readable start line: moved to ``journals/unreadable/``;
- its drill cannot be found or loaded, or the store cannot be written (locked, damaged, full): left in place and
  reported at each start, to be retried once the drill or the store is back;
- cannot ever be recovered (its start line holds bad values, its actions do not replay on its drill, its values do
  not fit the store, another session has its id, or recovering it fails in any other way): moved to
  ``journals/quarantine/`` with the reason in ``ID.jsonl.why.txt`` beside it, reported once, never retried
  silently (move it back to ``journals/`` to retry);
- not a regular file (a FIFO, a symlink, a folder named ``*.jsonl``): never opened, reported at each start, left.
"""

from __future__ import annotations

import os
import stat
import time
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from warroom.core.files import special_mode_kind
from warroom.core.model import outcome_label
from warroom.core.text import plural, seconds, shown_path
from warroom.errors import WarroomError
from warroom.store.datadir import done_dir, journal_files, journals_dir
from warroom.store.errors import DuplicateSession, InvalidSession, StoreError
from warroom.store.journal._file import (
    JOURNAL_FORMAT,
    JournalContents,
    JournalError,
    NotRegularFile,
    lock_exclusive,
    move_file,
    read_journal,
)
from warroom.store.journal._recorder import score_session, with_quit
from warroom.store.results import ResultsStore, SessionInfo
from warroom.store.review import (
    DrillCache,
    DrillResolver,
    DrillUnavailable,
    default_drill_resolver,
    resolve_session_drill,
)
from warroom.store.timestamps import ended_before_start, utc_now

if TYPE_CHECKING:
    from warroom.core.model import Action, Drill
    from warroom.core.scoring import Scorecard
    from warroom.store.review import SessionDrill

#: The note of the quit added to a recovered session that recorded no action: when it stopped is not known.
UNKNOWN_STOP = "the time of interruption is unknown (the session was killed before any action was recorded)"
UNREADABLE = "unreadable"
QUARANTINE = "quarantine"
#: Seconds from now (either way) beyond which a half-created journal (``.ID.jsonl.tmp``) that no process holds is set
#: aside by recovery: the grace for the instant between its creation and its lock.
STALE_TMP_AGE_S = 60.0


class Unrecoverable(WarroomError):
    """A journal that can never be recovered as it is; the message says why. It is quarantined."""


@dataclass
class RecoveredSession:
    """What :func:`recover_unfinished` did with one journal.

    ``stored`` is True when the session is now in the results store (``outcome``/``total``/``max_total`` set,
    ``outcome`` the raw :class:`~warroom.core.model.Outcome` value; ``str()`` shows its label); otherwise
    ``error`` says why not and where the journal is (``quarantined`` True when it was moved to
    ``journals/quarantine/``). ``problems`` lists skipped journal lines and other things worth telling (a changed
    drill file, a ``quit`` action added at recovery).
    """

    journal: Path
    session_id: str | None = None
    trainee: str | None = None
    drill_id: str | None = None
    actions: list[Action] = field(default_factory=list)
    outcome: str | None = None
    total: int | None = None
    max_total: int | None = None
    stored: bool = False
    problems: list[str] = field(default_factory=list)
    error: str | None = None
    quarantined: bool = False
    #: Whether the session played a healthy run (its stored ``all_clear``; None: not known), to say its outcome.
    all_clear: bool | None = None

    def __str__(self) -> str:
        if self.stored:
            from warroom.core.scoring import MAX_TOTAL

            label = outcome_label(str(self.outcome), self.all_clear)  # as `warroom scores` says it
            most = self.max_total if self.max_total is not None else MAX_TOTAL
            head = (
                f"recovered session {self.session_id} ({self.trainee}, {self.drill_id}): "
                f"{plural(len(self.actions), 'action')}, recorded as {label} ({self.total}/{most})"
            )
        else:
            head = f"could not recover {self.journal}: {self.error}"
        return "\n".join([head, *(f"  {p}" for p in self.problems)])


def recover_unfinished(
    data_dir: Path,
    drills_resolver: DrillResolver | None = None,
    *,
    store: ResultsStore | None = None,
    trainee: str | None = None,
    shown_to: str | None = None,
) -> list[RecoveredSession]:
    """Record every unfinished session journal in ``data_dir`` (a session killed mid-drill) in the results store.

    For each journal in ``journals/`` that no live process holds, the session is scored from its recorded actions
    and its drill, never taken from an end line: a journal with an end line (the process died while storing it, or
    a session queued while a shared store was unreachable) is scored from its actions as they are, and when its end
    line says otherwise the session is stored flagged as disagreeing (the statistics leave it out); one without is
    scored as abandoned (a ``quit`` is added at the drill time after the last recorded action when missing, unless
    the drill had already ended). The drill is found with ``drills_resolver(drill_id, drill_path) -> Path``
    (default: :func:`~warroom.store.journal._recorder.default_drill_resolver`); a drill file whose SHA-256 differs
    from the recorded one is used but reported. Every line is checked with the store's models
    (:mod:`warroom.store.results._records`); truncated, corrupt or invalid lines are reported and skipped. See the
    module docstring for where each journal goes; no journal is ever deleted.

    ``trainee`` (the war room's start) recovers only that trainee's journals, leaving every other one for its own
    trainee's start or a facilitator's command. What was recovered is told to the trainee concerned only: each session
    stored or quarantined here whose trainee is not ``shown_to`` (the person the caller shows the results to now)
    leaves its notice in that trainee's notice box (:mod:`warroom.store.journal._notices`), shown at their next start.

    Returns one :class:`RecoveredSession` per journal looked at (empty when there was nothing to recover).
    Raises StoreError / StoreVersionError when the data directory or the results store cannot be used (no journal
    is touched then).
    """
    from warroom.store.datadir import data_dir_problem
    from warroom.store.errors import DataDirError

    data_dir = Path(data_dir)
    problem = data_dir_problem(data_dir)
    if problem:
        raise DataDirError(problem)
    jdir = journals_dir(data_dir)
    if not jdir.is_dir():
        return []
    resolver = drills_resolver or default_drill_resolver()
    candidates, out = _journals_to_recover(jdir, trainee)
    if trainee is None:
        out.extend(_set_aside_stale_tmp(jdir))
    if not candidates:
        return out
    own_store = store is None
    store = store if store is not None else ResultsStore(data_dir)
    cache = DrillCache()  # each drill file loaded (and each variant made) once
    try:
        for path in candidates:
            rec = _recover_guarded(data_dir, path, resolver, store, cache)
            if rec is not None:
                out.append(rec)
                _tell(data_dir, rec, shown_to)
        return out
    finally:
        if own_store:
            store.close()


def _journals_to_recover(jdir: Path, trainee: str | None) -> tuple[list[Path], list[RecoveredSession]]:
    """The journals in ``jdir`` to recover (``trainee``'s only, unless None), in the order their sessions were started
    (:func:`~warroom.store.journal._file.queue_order`; by name among equals), and one refusal for each journal that
    is not a regular file (reported only when every trainee's journals are recovered)."""
    from warroom.store.journal._file import queue_order, start_line

    candidates: list[tuple[int, Path]] = []
    refused: list[RecoveredSession] = []
    for path in journal_files(jdir):
        kind = _non_regular(path)
        if kind is None:
            start = start_line(path) or {}
            if trainee is None or start.get("trainee") == trainee:
                candidates.append((queue_order(start), path))
        elif kind and trainee is None:
            refused.append(RecoveredSession(journal=path, error=_not_regular_message(path, kind)))
    # in the order the sessions were started in this data directory (their start lines' ``order``), not their names:
    # a session id is its start time, which a clock set back puts before the sessions played earlier
    return [path for _, path in sorted(candidates, key=lambda c: c[0])], refused


def journal_trainee(path: Path) -> str | None:
    """The trainee named by a journal's start line (its first line, read up to 64 KiB), or None when it cannot be
    told (not a regular file, unreadable, no start line)."""
    from warroom.store.journal._file import start_line

    name = (start_line(path) or {}).get("trainee")
    return name if isinstance(name, str) else None


def _tell(data_dir: Path, rec: RecoveredSession, shown_to: str | None) -> None:
    """Keep the notice of a session recovered (or set aside) for its trainee's next start, unless it is shown to them
    now (``shown_to``)."""
    from warroom.store.journal._notices import leave_notice, notices_problem

    if rec.trainee is None or rec.trainee == shown_to:
        return
    if rec.stored and rec.session_id is not None:
        kept = leave_notice(data_dir, rec.trainee, utc_now(), session=rec.session_id)
    elif rec.quarantined:
        kept = leave_notice(data_dir, rec.trainee, utc_now(), set_aside=rec.journal.name)
    else:
        return
    problem = None if kept else notices_problem(data_dir)
    if problem:  # a link where the notices' folder should be: said here, to whoever recovered it
        rec.problems.append(f"no notice was kept for its trainee's next start: {problem}")


def _non_regular(path: Path) -> str | None:
    """None for a regular file; else what it is (``a FIFO``, ``a symbolic link``...); ``""`` when it is gone."""
    try:
        return special_mode_kind(os.lstat(path).st_mode)
    except FileNotFoundError:
        return ""
    except OSError as exc:
        return f"unreadable ({exc.strerror or exc})"


def _not_regular_message(path: Path, kind: str) -> str:
    return f"{shown_path(path)} is {kind}, not a journal file: it was not opened and is left as it is; remove it"


def _set_aside_stale_tmp(jdir: Path) -> list[RecoveredSession]:
    """Move half-created journals (``.ID.jsonl.tmp``, no action can be in them) that no process holds to
    ``unreadable/``. Anything there that is not a regular file is never opened; it is reported instead.

    Its creator holds its lock from the instant after it created the file (``O_EXCL``) until it is renamed into
    place, so the lock decides; the minute's grace covers only that instant, measured either way from now: a file
    whose modification time is more than a minute from the clock, ahead of it (a clock set back, a file copied from
    another machine) as well as behind, is not being created now, and is set aside at once (:func:`_stale_tmp`)."""
    out = []
    now = time.time()
    for tmp in jdir.glob(".*.jsonl.tmp"):
        kind = _non_regular(tmp)
        if kind:
            out.append(RecoveredSession(journal=tmp, error=_not_regular_message(tmp, kind)))
            continue
        try:
            if kind is not None or not _stale_tmp(tmp.stat().st_mtime, now):
                continue
            fd = os.open(tmp, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            continue
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):  # pragma: no cover - replaced between lstat and open
                continue
            lock_exclusive(fd, blocking=False)
            dest = jdir / UNREADABLE / tmp.name
            dest.parent.mkdir(exist_ok=True)
            os.replace(tmp, dest)
        except OSError:
            pass
        finally:
            os.close(fd)
    return out


def _stale_tmp(mtime: float, now: float) -> bool:
    """True when a ``.tmp`` journal last written at ``mtime`` cannot be in its creator's first instant (created, not
    locked yet): its time is at least :data:`STALE_TMP_AGE_S` from ``now``, in the past or in the future. A time in
    the future never makes recovery wait for the clock to catch up."""
    return abs(now - mtime) >= STALE_TMP_AGE_S


def _recover_guarded(
    data_dir: Path, path: Path, resolver: DrillResolver, store: ResultsStore, cache: dict[Path, Drill]
) -> RecoveredSession | None:
    """:func:`_recover_one`, turning every failure into a report: a journal that cannot be recovered as it is gets
    quarantined; one that may be recovered later (a missing drill, a store that cannot be written) stays."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except FileNotFoundError:
        return None  # finished or recovered by another process meanwhile
    except OSError as exc:
        return RecoveredSession(journal=path, error=f"cannot open it ({exc.strerror or exc}); left in place")
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # pragma: no cover - replaced since the listing
            return RecoveredSession(journal=path, error=_not_regular_message(path, "not a regular file"))
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
            _recover_one(data_dir, path, resolver, store, rec, cache)
        except DrillUnavailable as exc:
            rec.error = f"{exc}\n  the journal was kept in place and is retried at the next start: {shown_path(path)}"
        except (Unrecoverable, InvalidSession, DuplicateSession) as exc:
            _quarantine(data_dir, rec, str(exc))
        except StoreError as exc:
            rec.error = f"{exc}\n  the journal was kept in place and is retried at the next start: {shown_path(path)}"
        except Exception as exc:
            _quarantine(data_dir, rec, f"recovering it failed: {type(exc).__name__}: {exc}")
        return rec
    finally:
        os.close(fd)


def _recover_one(
    data_dir: Path,
    path: Path,
    resolver: DrillResolver,
    store: ResultsStore,
    rec: RecoveredSession,
    cache: dict[Path, Drill] | None = None,
) -> None:
    """Recover one locked journal into ``rec``. Raises :class:`Unrecoverable` (and the store's errors) when it
    cannot be; DrillUnavailable when its drill is not there."""
    try:
        contents = read_journal(path)
    except NotRegularFile as exc:  # pragma: no cover - checked before
        rec.error = str(exc)
        return
    except JournalError as exc:
        dest = journals_dir(data_dir) / UNREADABLE / path.name
        move_file(path, dest)
        rec.journal = dest
        rec.error = f"{exc}; the journal was kept as {dest}"
        return
    rec.problems.extend(str(p) for p in contents.problems)
    newer = _newer_format(path, contents.start)
    if newer is not None:
        rec.error = newer
        return
    try:
        info = SessionInfo.from_dict(contents.start)
    except ValueError as exc:
        raise Unrecoverable(f"{shown_path(path)}:1: the session start line has bad values: {exc}") from None
    rec.session_id, rec.trainee, rec.drill_id = info.session_id, info.trainee, info.drill_id
    finished = contents.end is not None
    ended_at = _ended_at(path, contents, info, rec)
    scorecard, actions, info, found = _score_journal(info, contents, resolver, rec, cache)
    check = _journal_check(info, contents, found, actions, scorecard, resolver, rec, cache)
    rec.actions = actions
    rec.outcome, rec.all_clear = scorecard.outcome.value, info.all_clear
    rec.total = scorecard.total
    rec.max_total = scorecard.max_total
    times = [*contents.action_times, *([None] * (len(actions) - len(contents.action_times)))]  # an added quit
    # (imports the action models: only when a session is recovered)
    from warroom.store.journal._wallclock import detected_at, wall_clock

    wall = wall_clock(info.started_at, actions, times, contained_at=detected_at(scorecard), ended_at=ended_at)
    if finished:  # said only once it is true: a refused insert keeps the journal queued
        notes = [*rec.problems, "the session had finished; its result was stored at recovery"]
    else:
        notes = rec.problems
    inserted = store.insert(info, scorecard, actions, ended_at=ended_at, recovered=True, notes=notes, wall=wall,
                            check=check)  # fmt: skip
    if not inserted:  # the journal was delivered before (copied back, or synced twice): nothing stored again
        notes = [*rec.problems, "this session was already stored; nothing was stored again"]
    rec.problems = notes
    rec.stored = True
    dest = done_dir(data_dir) / path.name
    move_file(path, dest)
    rec.journal = dest


def _newer_format(path: Path, start: dict[str, object]) -> str | None:
    """Why the journal at ``path`` is left for a newer warroom (its start line's ``format`` is newer than
    :data:`JOURNAL_FORMAT`: read as this one's, its lines might mean something else), or None for a format this
    warroom reads (a start line without one was written by the first format). Raises :class:`Unrecoverable` for a
    ``format`` that is no format number."""
    fmt = start.get("format", JOURNAL_FORMAT)
    if isinstance(fmt, bool) or not isinstance(fmt, int) or fmt < 1:
        raise Unrecoverable(
            f"{shown_path(path)}:1: the session start line's format is {fmt!r}, not a journal format number "
            f"(this warroom writes format {JOURNAL_FORMAT})"
        )
    if fmt <= JOURNAL_FORMAT:
        return None
    return (
        f"{shown_path(path)}:1: a journal of format {fmt}, written by a newer warroom (this one reads format "
        f"{JOURNAL_FORMAT}); it was kept in place: recover it with a warroom as new as the one that wrote it "
        f"(pip install --upgrade warroom, then start warroom)"
    )


def _journal_check(
    info: SessionInfo, contents: JournalContents, found: SessionDrill, actions: list[Action], scorecard: Scorecard,
    resolver: DrillResolver, rec: RecoveredSession, cache: dict[Path, Drill] | None,
) -> tuple[str, str, str | None] | None:
    """The verification record of a recovered session (None: nothing found): what its journal says that its drill,
    its actions or the current rules contradict, each said in ``rec.problems``. What is its journal's word alone
    (older rules, another file of its drill id, a trial without a seed) is recorded as stored without a check, so
    that `warroom scores verify` checks it as a row handed in."""
    rules = _rules_problems(info, actions, scorecard, resolver, rec, cache)
    other = _other_file_problems(info, found, actions, scorecard, resolver, rec, cache)
    trial = _seedless_trial(info, found, rec)
    words = ((OTHER_FILE_SUBMITTER, other), (OLDER_RULES_SUBMITTER, rules), (SEEDLESS_SUBMITTER, trial))
    return _disagreement([*_start_line_problems(info, found, actions, rec),
                          *_end_line_problems(contents, scorecard, found.changed, rec), *rules, *other, *trial],
                         next((who for who, said in words if said), None))  # fmt: skip


def _ended_at(path: Path, contents: JournalContents, info: SessionInfo, rec: RecoveredSession) -> str:
    """When a recovered session ended: its end line's time, else the journal's last change or its last action's time,
    whichever is later (a file's change time is kept in the kernel's coarser clock, a few milliseconds behind the
    time the last action was written with: a session killed with a dialog open, its last action a pause, was stored
    as ended before that pause, its paused seconds unknown); its start where that is before it (said in ``rec``'s
    problems: an end line is never trusted, nor a clock stepped back, and the store refuses such an end)."""
    from warroom.store.journal._wallclock import parse_time

    ended_at = _mtime_iso(path)
    written = [t for t in map(parse_time, contents.action_times) if t is not None]
    if written and max(written) > datetime.fromisoformat(ended_at):
        ended_at = max(written).astimezone(UTC).isoformat(timespec="microseconds")
    if contents.end:
        ended_at = str(contents.end.get("ended_at") or ended_at)
    backwards = ended_before_start(info.started_at, ended_at)
    if backwards:
        rec.problems.append(f"{backwards}; it is stored as ended at its start")
        ended_at = info.started_at
    return ended_at


def _quarantine(data_dir: Path, rec: RecoveredSession, reason: str) -> None:
    """Move ``rec.journal`` to ``journals/quarantine/`` with ``reason`` in ``NAME.why.txt`` beside it, that file
    written whole or not at all (the one atomic write): a full disk leaves no reason file cut short, and the
    journal where it was."""
    from warroom.core.files import replace_file

    src = rec.journal
    dest = journals_dir(data_dir) / QUARANTINE / src.name
    why = dest.with_name(dest.name + ".why.txt")
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
        replace_file(why, f"{reason}\n")
        move_file(src, dest)
    except OSError as exc:
        rec.error = f"{reason}\n  it could not be quarantined ({exc.strerror or exc}); it was left in place: {src}"
        return
    rec.journal = dest
    rec.quarantined = True
    rec.error = (
        f"{reason}\n  the journal was quarantined, kept as {dest} (the reason is in {why.name}); it is not retried: "
        f"fix it and move it back to {src.parent} to try again, or delete it"
    )


def _start_line_problems(
    info: SessionInfo, found: SessionDrill, actions: list[Action], rec: RecoveredSession
) -> list[str]:
    """What the journal's start line says of the session that its drill file and its actions contradict (verify's
    :func:`~warroom.store.review.start_differences`: the drill id, version, all-clear flag, an assessment session
    that paused), each said in ``rec.problems``: the session is stored as it is and flagged, never stored as a row
    that ``warroom scores verify`` would reject afterwards."""
    from warroom.store.review import start_differences

    problems = start_differences(info, found, actions)
    rec.problems.extend(f"the journal's start line or actions contradict its drill: {p}" for p in problems)
    return problems


def _end_line_problems(
    contents: JournalContents, scorecard: Scorecard, changed: bool, rec: RecoveredSession
) -> list[str]:
    """A finished journal's end line is never trusted: the session is stored with the score its actions make
    (``scorecard``). When the end line says otherwise (and the drill file did not change since: then it may), that is
    said in ``rec.problems`` and returned (it disagrees: the journal was changed after it was written)."""
    from warroom.store.review import scorecard_differences

    end = contents.end
    if end is None or changed:
        return []
    claimed = end.get("scorecard")
    differing = scorecard_differences(claimed if isinstance(claimed, dict) else {}, scorecard.to_dict())
    for key in ("outcome", "total"):  # the end line's own copies of the scorecard's figures
        if end.get(key) is not None and end.get(key) != scorecard.to_dict()[key]:
            differing.append(f"its end line's {key} is {end.get(key)!r}")
    if not differing:
        return []
    said = (f"the journal's end line is not what its actions score ({'; '.join(differing)}); it was not trusted: the "
            f"session's score is the one its actions make ({scorecard.outcome.value}, {scorecard.total}), flagged as "
            "disagreeing (was the journal changed after it was written?)")  # fmt: skip
    rec.problems.append(said)
    return [said]


#: Who stored a recovered session, in its verification record (``submitted_by``), when the scoring rules its journal
#: records are older than the current ones and score its actions otherwise: the rules are its journal's word, so
#: ``warroom scores verify`` checks it by the current rules, as a session stored without a check.
OLDER_RULES_SUBMITTER = "a journal recording older scoring rules"


def _rules_problems(
    info: SessionInfo, actions: list[Action], scorecard: Scorecard, resolver: DrillResolver, rec: RecoveredSession,
    cache: dict[Path, Drill] | None = None,
) -> list[str]:
    """A journal is scored by the scoring rules its start line records (a session killed before an upgrade keeps the
    rules it was played under), but those are its writer's word, as its drill id and trial are: rules 1 judged the
    step alone and rules 3 took one evidence event among everything cited, so a start line edited to record them
    made an escalation citing nothing, or everything, a hit counted at once. When the current rules score its
    actions otherwise (outcome, total or the trial's response), or cannot, that is said in ``rec.problems`` and
    returned: the session is flagged, and verified by the current rules."""
    from warroom.core.scoring import SCORING_VERSION, SCORING_VERSIONS, ScoringError, score
    from warroom.store.results import response_column

    claimed = info.scoring_version
    if claimed not in SCORING_VERSIONS or claimed == SCORING_VERSION:
        return []

    def figures(card: Scorecard, all_clear: bool) -> str:
        d = card.to_dict()
        response = response_column(d, d["outcome"], all_clear, d["false_escalations"])
        return f"{d['outcome']}, {d['total']}, response {response}"

    try:
        found = resolve_session_drill(replace(info, scoring_version=SCORING_VERSION), resolver, cache)
        now = figures(score(found.drill, actions, rules=SCORING_VERSION), found.drill.is_all_clear)
    except (DrillUnavailable, ScoringError) as exc:
        now = f"its actions do not replay ({exc})"
    else:
        if figures(scorecard, found.drill.is_all_clear) == now:
            return []
    said = (f"the journal's start line records scoring rules {claimed}, not this warroom's {SCORING_VERSION}, which "
            f"score its actions otherwise ({figures(scorecard, info.all_clear)} by rules {claimed}; {now} by rules "
            f"{SCORING_VERSION}): it was scored by the rules it records and flagged as disagreeing, and `warroom "
            f"scores verify` checks it by rules {SCORING_VERSION} (a session killed before an upgrade: `warroom "
            f"scores rescore --rules {SCORING_VERSION}` where its drill allows, then `warroom scores verify`; or "
            "--include-unverified counts it)")  # fmt: skip
    rec.problems.append(said)
    return [said]


#: Who stored a recovered session, in its verification record (``submitted_by``), when the drill file its journal
#: names is not the file of its drill id and scores its actions otherwise: the path is its journal's word, so
#: ``warroom scores verify`` finds its drill by its id, as for a session stored without a check.
OTHER_FILE_SUBMITTER = "a journal naming another file of its drill id"


def _other_file_problems(
    info: SessionInfo, found: SessionDrill, actions: list[Action], scorecard: Scorecard, resolver: DrillResolver,
    rec: RecoveredSession, cache: dict[Path, Drill] | None = None,
) -> list[str]:
    """A journal's drill path is its writer's word, as its drill id and rules are: a file of a library drill's id
    with an answer key of the trainee's own, named by a journal, made its guess a hit counted at once. When the
    drill id names another file (the drill folders and the library) that scores its actions otherwise, that is said
    in ``rec.problems`` and returned: the session is flagged, and verified on the file of its id
    (:func:`~warroom.store.review.other_drill_file`)."""
    from warroom.store.review import other_drill_file, session_rules

    said = other_drill_file(info, found, actions, scorecard, session_rules(info.scoring_version), resolver, cache)
    if said is None:
        return []
    said = (f"{said}; it was scored on the file its journal names and flagged as disagreeing, and `warroom scores "
            "verify` checks it on the file of its drill id")
    rec.problems.append(said)
    return [said]


#: Who stored a recovered session, in its verification record (``submitted_by``), when its journal is of an
#: assessment session outside a drill set, of a drill with a twin, and holds no seed: the trial it claims is its
#: journal's word, so ``warroom scores verify`` finds it unverifiable, as a row handed in without its seed.
SEEDLESS_SUBMITTER = "a journal claiming its trial without a seed"


def _seedless_trial(info: SessionInfo, found: SessionDrill, rec: RecoveredSession) -> list[str]:
    """An assessment session outside a drill set plays the trial (signal or noise) its seed draws, and warroom's
    recorder always records that seed; a start line that claims a trial its seed does not draw is flagged
    (:func:`_start_line_problems`), and one without a seed claimed any trial unflagged (a noise trial held: a
    correct rejection counted at once). Said in ``rec.problems`` and returned
    (:func:`~warroom.store.review.unverifiable_trial`)."""
    from warroom.store.review import unverifiable_trial

    said = unverifiable_trial(info, found) if info.set_id is None else None  # (a set's: its host's recorder drew it)
    if said is None:
        return []
    rec.problems.append(f"the journal's start line: {said}; flagged as disagreeing")
    return [said]


def _disagreement(problems: list[str], submitted_by: str | None = None) -> tuple[str, str, str | None] | None:
    """The verification record of a recovered session whose journal contradicts itself (``problems``; None: none
    found): it disagrees, so the statistics leave it out until a facilitator looks (``submitted_by``: see
    :data:`OLDER_RULES_SUBMITTER`)."""
    from warroom.store.results import DISAGREES

    return (DISAGREES, "; ".join(problems), submitted_by) if problems else None


def _score_journal(
    info: SessionInfo,
    contents: JournalContents,
    resolver: DrillResolver,
    rec: RecoveredSession,
    cache: dict[Path, Drill] | None = None,
) -> tuple[Scorecard, list[Action], SessionInfo, SessionDrill]:
    """Score a journal's session from its recorded actions and its drill, never from an end line: (scorecard, the
    actions to store, the info to store, the drill file it was scored on). An unfinished session is scored as
    abandoned (a quit added after its last action when the drill had not ended).

    When the drill file changed since the session started, the session is scored against the current file and the
    returned info records that file (SHA-256, version, path), so the stored score and its drill file agree; a note
    in ``rec.problems`` names the file the session was played on.
    """
    found = resolve_session_drill(info, resolver, cache)
    drill, drill_file, sha = found.drill, found.path, found.sha256
    if found.changed:
        was = info.drill_sha256 or ""  # changed: there is a recorded SHA-256 and it differs
        rec.problems.append(
            f"the drill file {drill_file} changed since the session (SHA-256 {sha[:12]}… was "
            f"{was[:12]}…); scored against the current file (version {drill.version}, SHA-256 {sha}), "
            f"which is recorded with the session; it was played on version {info.drill_version} "
            f"(SHA-256 {info.drill_sha256})"
        )
        info = replace(info, drill_sha256=sha, drill_version=drill.version, drill_path=str(drill_file))
    if contents.end is not None:
        actions, added = list(contents.actions), False  # a finished session: its actions as recorded
    else:
        actions, added = with_quit(drill, contents.actions)
    if added and not contents.actions:  # nothing tells when it stopped: say so, never "quit at 0 s"
        actions[-1] = actions[-1].model_copy(update={"note": UNKNOWN_STOP})
        rec.problems.append(f"no action in the journal: {UNKNOWN_STOP}; a quit was added at drill time "
                            f"{seconds(actions[-1].t)}")  # fmt: skip
    elif added:
        rec.problems.append(f"no quit action in the journal; one was added at drill time {seconds(actions[-1].t)}")
    from warroom.core.scoring import ScoringError

    try:
        scorecard = score_session(drill, actions, info.scoring_version)  # the rules it was played under
    except ScoringError as exc:  # actions that do not fit the drill (corrupt, or a drill edited since)
        raise Unrecoverable(
            f"the actions of session {info.session_id} do not replay on its drill {drill_file}: {exc}"
            + (
                " (the drill file changed since the session; putting back the file it was played on may allow"
                " recovering it)"
                if found.changed
                else ""
            )
        ) from None
    return scorecard, actions, info, found


def _mtime_iso(path: Path) -> str:
    try:
        return datetime.fromtimestamp(path.stat().st_mtime, UTC).isoformat(timespec="microseconds")
    except OSError:  # pragma: no cover
        return utc_now()
