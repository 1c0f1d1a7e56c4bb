"""What the terminal UI needs from outside itself: drills, sessions, best scores, scoring.

The screens never reach into the store or the loader directly; they go through :class:`Services`, so tests can
hand the app a :class:`Services` over a temporary data directory (or a subclass with fakes), and the wiring to
the session journal and the results store lives in one place.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from warroom.core.library import CachedFile, FolderCache, Stamp, file_stamp, settled
from warroom.core.text import natural_key
from warroom.tui.logic._entries import DrillEntry, load_entry, with_cross_file_problems
from warroom.tui.logic._recording import Recorder, ResultsUnavailable, SessionUnavailable, StoreRecorder

if TYPE_CHECKING:
    from warroom.core.model import Action, Drill
    from warroom.tui.logic._drillsets import ActiveSet


@dataclass(frozen=True)
class UnfinishedSession:
    """A session of the trainee not stored yet: being played in another warroom, or killed and not yet recovered
    (it will be stored as abandoned). Counts as an attempt of its drill in a drill set, as an abandoned one."""

    drill_id: str
    set_id: str | None
    outcome: str = "abandoned"


def unfinished_sessions(data_dir: Path, trainee: str, set_id: str | None) -> list[Any]:
    """The :class:`UnfinishedSession` of each journal in ``data_dir`` (``journals/*.jsonl``, read from its start
    line) of ``trainee``, played in the drill set ``set_id`` (None: in any set or none). A journal that cannot be
    read or parsed is left out (recovery reports it)."""
    from warroom.core.files import record_json
    from warroom.store.datadir import journal_files, journals_dir

    out: list[Any] = []
    try:
        paths = journal_files(journals_dir(data_dir))
    except OSError:
        return out
    for path in paths:
        try:
            if not path.is_file():
                continue
            with path.open("rb") as f:
                start = record_json(f.readline(1 << 16))  # a key twice: skipped, as recovery skips it
        except (OSError, ValueError):
            continue
        if not isinstance(start, dict) or start.get("type") != "start" or start.get("trainee") != trainee:
            continue
        if set_id is not None and start.get("set_id") != set_id:
            continue
        if isinstance(start.get("drill_id"), str):
            out.append(UnfinishedSession(start["drill_id"], start.get("set_id")))
    return out


def _unreadable_folder(exc: OSError) -> DrillEntry:
    """The picker's entry for a drill folder that cannot be listed: its problem names the folder escaped
    (:func:`~warroom.core.text.clean_name`: a newline or an ESC in its name shown as ``\\x0a``, ``\\x1b``), as every
    other message does."""
    from warroom.core.text import clean_name, shown_path

    why = "permission denied" if isinstance(exc, PermissionError) else clean_name(exc.strerror or exc)
    return DrillEntry(Path(exc.filename), None, (f"{shown_path(exc.filename)}: cannot read this folder ({why})",))


@dataclass
class Services:
    """The UI's access to drills, sessions and results for one trainee.

    Args:
        trainee: the trainee's name (sessions and best scores are theirs).
        data_dir: where sessions and results are kept.
        drill_dirs: extra folders of drills offered by the picker, besides the bundled library.
        mode: ``practice`` or ``assessment`` (``--mode``); a drill set in assessment mode makes every session
            assessment (see :attr:`session_mode`).
        drill_set: the drill set played (``--set FILE``; see :mod:`warroom.tui.logic._drillsets`), or None.
        cache_dir: the cache directory of the picker's cache between starts (:mod:`warroom.core.library._cache`;
            ``warroom`` passes :func:`~warroom.core.settings.resolve_cache_dir`), or None for none.
    """

    trainee: str
    data_dir: Path
    drill_dirs: tuple[Path, ...] = field(default_factory=tuple)
    mode: str = "practice"
    drill_set: ActiveSet | None = None
    #: The variant seed of every session started (``warroom run --seed N``); None: each session draws its own.
    seed: int | None = None
    #: What every session started plays as (``warroom run --as signal|noise``: ``"signal"`` or ``"noise"``); None:
    #: each session draws it from its seed (a drill with a twin; docs/authoring.md, "Twins: signal and noise trials").
    played_as: str | None = None
    #: The drill picker's cache directory (:mod:`warroom.core.library._cache`); None: no cache kept between starts.
    cache_dir: Path | None = None
    #: Entries read from their files by this process, by path, with the :data:`~warroom.core.library.Stamp` they
    #: were read at: a file is parsed again only when it changed, so reopening the picker does not re-read a library.
    _loaded: dict[Path, tuple[Stamp, DrillEntry]] = field(default_factory=dict, repr=False, compare=False)
    #: Each folder's records as this process last read them from, or wrote them to, its cache file.
    _cached: dict[str, dict[str, CachedFile]] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.drill_set is not None:  # its drills, as the set read them: refused once their file changes
            for d in self.drill_set.drills:
                if d.path is not None and d.drill is not None and d.stamp is not None:
                    self._loaded.setdefault(d.path, (d.stamp, DrillEntry(d.path, d.drill)))

    def _folder_entries(self, folder: Path, paths: list[Path]) -> list[DrillEntry]:
        """The entries of ``paths`` (the drill files found in ``folder``, in order): each from this process's
        entries while its file is unchanged, else from the folder's cache file while its record's stamp is the
        file's, else read (:func:`load_entry`). The cache file is rewritten when the folder's records changed
        (files edited, added, removed or renamed); a file modified in the last seconds is left out of it."""
        cache = FolderCache(self.cache_dir, folder) if self.cache_dir is not None else None
        known: dict[str, CachedFile] | None = None  # the cache file's records, read at the first miss
        records: dict[str, CachedFile] = {}
        out = []
        for path in paths:
            stamp = file_stamp(path)
            mine = self._loaded.get(path)
            if stamp is None:
                entry = load_entry(path)  # gone, or not a regular file: the loader says what is wrong with it
            elif mine is not None and mine[0] == stamp:
                entry = mine[1]
            else:
                if known is None:
                    known = cache.read() if cache is not None else {}
                    if cache is not None:
                        self._cached.setdefault(cache.folder, known)
                hit = known.get(str(path))
                if hit is not None and hit.stamp == stamp:
                    entry = DrillEntry(path, None, hit.problems, hit.card)
                else:
                    entry = load_entry(path)
                    if entry.lasting:  # a file that could not be read is read again next time
                        self._loaded[path] = (stamp, entry)
            if stamp is not None and settled(stamp) and entry.lasting:
                records[str(path)] = CachedFile(str(path), stamp, entry.card, entry.problems)
            out.append(entry)
        if cache is not None and records != self._cached.get(cache.folder):
            cache.write(records.values())
            self._cached[cache.folder] = records
        return out

    def catalog(self) -> list[DrillEntry]:
        """Every drill the picker offers: the bundled library, then the extra folders, each loaded (or listed from
        the picker's cache: :meth:`_folder_entries`) or with problems.

        Within a folder, drills are in natural order of their paths (``ww-9`` before ``ww-10``). A file found twice
        (the same folder given twice) is listed once. A drill whose id differs from its file name, or repeats the id
        of a drill listed before it, keeps its drill but gets that problem (see :func:`with_cross_file_problems`)
        and cannot be started. A sub-folder that cannot be read is listed last, as an entry with that problem.
        """
        from warroom.core.files import real_path
        from warroom.core.library import bundled_drills_dir, find_drill_files

        if self.drill_set is not None:  # only the set's drills, in its order
            return self.set_catalog()
        entries: list[DrillEntry] = []
        seen: set[Path] = set()
        errors: list[OSError] = []  # folders that cannot be listed: shown as entries with their problem
        for d in (bundled_drills_dir(), *self.drill_dirs):
            if not Path(d).exists():
                continue
            try:
                real = {p: real_path(p) for p in find_drill_files([d], errors=errors)}
            except OSError as exc:  # the folder itself went away or cannot be listed: shown, never fatal
                errors.append(exc if exc.filename else OSError(exc.errno, exc.strerror, str(d)))
                continue
            found = [p for p, r in real.items() if r not in seen]
            seen.update(real.values())
            if real and not found:  # a folder given again (another spelling): listed once, its cache file kept
                continue
            base = Path(d) if Path(d).is_dir() else Path(d).parent
            found.sort(key=lambda p: natural_key(p.relative_to(base).as_posix()))
            entries += self._folder_entries(Path(d), found)
        entries += [_unreadable_folder(e) for e in errors]
        try:
            return with_cross_file_problems(entries)
        except Exception:
            return entries

    def is_current(self, entry: DrillEntry) -> bool:
        """True when ``entry`` holds its drill, read from its file as the file still is (or from a drill set, whose
        drills are read when it is opened): it can be opened as it is. False for an entry from the picker's cache,
        or a file changed since it was read: :meth:`open_entry` reads it."""
        if entry.drill is None:
            return False
        mine = self._loaded.get(entry.path)
        if mine is None or mine[1].drill is not entry.drill:
            return self.drill_set is not None
        return file_stamp(entry.path) == mine[0]

    def open_entry(self, entry: DrillEntry) -> DrillEntry:
        """``entry`` with its drill read and validated from its file now (never from the picker's cache), to be
        opened. Returns an entry with problems instead when the file no longer loads, or no longer is what the
        picker listed (its card differs: the picker should read its drills again). Never raises for the file's
        content; runs the loader, so call it off the UI thread for a big drill."""
        stamp = file_stamp(entry.path)  # before reading: an edit made while the file is read changes it
        fresh = load_entry(entry.path)
        if stamp is not None and fresh.lasting:
            self._loaded[entry.path] = (stamp, fresh)
        if fresh.drill is not None and fresh.card != entry.card:
            changed = f"{entry.path}: this drill changed since the list was read; press r to read the drills again"
            return DrillEntry(entry.path, fresh.drill, (changed,), fresh.card)
        return DrillEntry(entry.path, fresh.drill, (*fresh.problems, *entry.problems), fresh.card)

    @property
    def session_mode(self) -> str:
        """The mode sessions are played in: ``assessment`` when ``--mode assessment`` or the drill set asks for
        it, else ``practice``."""
        if self.mode == "assessment" or (self.drill_set is not None and self.drill_set.model.mode == "assessment"):
            return "assessment"
        return "practice"

    def _results_stored(self) -> bool:
        """False when no session can have been stored yet: the store is a SQLite file (the data directory's, or a
        ``sqlite:///FILE`` store) that does not exist. A PostgreSQL store (``--store`` / ``$WARROOM_STORE``) is
        always read: its sessions are the cohort's, not this data directory's. Raises :class:`ResultsUnavailable`
        for a store URL that names no back end."""
        from warroom.store.backends import store_target
        from warroom.store.errors import StoreError

        try:
            target = store_target(Path(self.data_dir))
        except StoreError as exc:
            raise ResultsUnavailable(str(exc)) from None
        return target.path is None or target.path.exists()

    def _set_rows(self, all_sets: bool = False) -> list[Any]:
        """The trainee's stored sessions in the drill set (``all_sets``: on any set's drills, any mode), oldest
        first; empty when nothing is stored yet. Raises :class:`ResultsUnavailable` when the store cannot be read."""
        import sqlite3

        from warroom.store.errors import StoreError
        from warroom.store.results import ResultsStore

        assert self.drill_set is not None
        set_id = None if all_sets else self.drill_set.set_id
        unfinished = unfinished_sessions(self.data_dir, self.trainee, set_id)  # read first: none is missed
        if not self._results_stored():
            return unfinished
        try:
            with ResultsStore(self.data_dir, create=False) as store:
                rows, _ = store.query_readable(trainee=self.trainee, set_id=set_id, sort="when", reverse=True)
        except (StoreError, sqlite3.DatabaseError) as exc:
            raise ResultsUnavailable(str(exc)) from None
        return [*rows, *unfinished]

    def set_progress(self) -> dict[str, Any]:
        """Each drill id of the drill set -> its :class:`~warroom.tui.logic._drillsets.DrillProgress` for the trainee.
        Raises :class:`ResultsUnavailable` when the store cannot be read."""
        assert self.drill_set is not None
        return self.drill_set.progress(self._set_rows(), self._set_rows(all_sets=True))

    def set_catalog(self) -> list[DrillEntry]:
        """The drill set's entries, in its order; an adaptive set's: only the drill chosen next for the trainee
        (none once the set is done). A store that cannot be read gives the whole list (its attempts are then
        checked again at the start)."""
        assert self.drill_set is not None
        active = self.drill_set
        if active.adaptive:
            try:
                drill = active.next_adaptive(self.trainee, self._set_rows(), self._set_rows(all_sets=True))
            except ResultsUnavailable:
                drill = None
            chosen = [d for d in active.drills if drill is not None and d.drill is drill]
            return [self._as_read(d.path, d.drill) for d in chosen if d.path is not None]
        return [self._as_read(d.path, d.drill, d.problems) for d in active.drills if d.path is not None]

    def _as_read(self, path: Path, drill: Any, problems: tuple[str, ...] = ()) -> DrillEntry:
        """A drill set's entry for its drill at ``path``: as this process last read the file (a drill edited since
        the set was opened, read again when it was opened from the picker; with its problems if it no longer loads),
        else as the set read it."""
        mine = self._loaded.get(path)
        if mine is None:
            return DrillEntry(path, drill, problems)
        return mine[1] if mine[1].drill is None else DrillEntry(path, mine[1].drill, problems)

    def remember(self, entry: DrillEntry) -> None:
        """Take ``entry``, loaded from its file by the caller (``warroom run FILE``, ``warroom tutorial``), as read
        now: :meth:`cannot_start` then refuses it once its file changes, as it refuses an entry the picker read (the
        session would otherwise record the changed file's SHA-256 for the drill as it was read)."""
        stamp = file_stamp(entry.path)
        if stamp is not None and entry.drill is not None and entry.path not in self._loaded:
            self._loaded[entry.path] = (stamp, entry)

    def cannot_start(self, entry: DrillEntry) -> str | None:
        """Why ``entry`` cannot be started now (a sentence), or None: its file changed since it was read (the
        session would record the new file's SHA-256 for the drill as it was read, and its review would replay another
        drill); in a drill set, a drill with no attempt left, or (adaptive) not the drill chosen next."""
        mine = self._loaded.get(entry.path)
        if mine is not None and mine[1].drill is entry.drill and file_stamp(entry.path) != mine[0]:
            return "its file changed since it was opened: go back and open it again to play it as it is now"
        if self.drill_set is None or entry.drill is None:
            return None
        try:
            progress = self.set_progress().get(entry.drill.id)
            offered = [e.drill.id for e in self.set_catalog() if e.drill is not None]
        except ResultsUnavailable as exc:
            return f"the drill set's attempts cannot be checked: {exc}"
        if entry.drill.id not in offered:
            return "this adaptive drill set chooses your next drill: go back to the drill picker"
        if progress is not None and progress.exhausted:
            return f"no attempts left on this drill in the drill set ({self.drill_set.model.attempts} allowed)"
        return None

    def best_scores(self, mode: str | None = None) -> dict[str, int | None]:
        """The trainee's best total score per drill id over sessions not abandoned (of ``mode`` only, when given);
        None for a drill only ever quit (empty when no results are stored yet).

        Raises :class:`ResultsUnavailable` when the results store exists but cannot be read."""
        import sqlite3

        from warroom.store.errors import StoreError
        from warroom.store.results import ResultsStore

        if not self._results_stored():
            return {}
        try:
            with ResultsStore(self.data_dir, create=False) as store:
                return dict(store.best_scores(self.trainee, mode))
        except (StoreError, sqlite3.DatabaseError) as exc:
            raise ResultsUnavailable(str(exc)) from None

    def recover(self) -> list[str]:
        """Record this trainee's sessions killed mid-drill (journals with no end) as abandoned, scored from every
        recorded action, and take the notices kept for this trainee (their sessions another start recovered).

        Returns one message per notice and per journal looked at (what was recovered, or why it could not be); never
        raises for a broken store, whose problem comes back as a message instead. Another trainee's journals are left
        alone and their sessions never named here (a shared data folder, ``warroom serve``): see
        :func:`warroom.store.journal.recover_unfinished`.
        """
        from warroom.store.errors import StoreError
        from warroom.store.journal import take_notices

        notices = take_notices(self.data_dir, self.trainee)
        try:
            recovered = self._recover_unfinished(shown_to=self.trainee)
        except (StoreError, OSError) as exc:
            return [*notices, f"Cannot recover unfinished sessions: {exc}"]
        return [*notices, *(str(r) for r in recovered)]

    def _recover_unfinished(self, *, shown_to: str | None) -> list[Any]:
        """This trainee's unfinished journals recovered or delivered (:func:`warroom.store.journal.recover_unfinished`);
        what is not shown to ``shown_to`` now is kept as a notice for the trainee's next start."""
        from warroom.store.journal import recover_unfinished
        from warroom.store.review import default_drill_resolver

        return recover_unfinished(self.data_dir, default_drill_resolver(self.drill_dirs), trainee=self.trainee,
                                  shown_to=shown_to)  # fmt: skip

    def start_session(self, drill_path: Path, drill: Drill) -> Recorder:
        """Start recording a session of ``drill`` for the trainee, in :attr:`session_mode` (the bundled tutorial, in
        mode ``tutorial``, which the statistics never count); returns its recorder. A drill with a twin is played as
        a signal or a noise trial: :attr:`played_as` when given, the tutorial always as a signal trial (its lessons
        show the fault), else drawn from the session's seed with the drill set's ``noise_rate`` (or the default).

        Raises :class:`SessionUnavailable` with a clear message when the session cannot be recorded.
        """
        from warroom.core.model import PlayedAs
        from warroom.store.errors import StoreError
        from warroom.store.journal import SessionError, SessionRecorder, Trial
        from warroom.store.results import TUTORIAL as TUTORIAL_MODE
        from warroom.tui.logic._lessons import is_tutorial

        tutorial = is_tutorial(DrillEntry(Path(drill_path), drill))
        if not tutorial:  # (delivered first: that may wait on the store, while another window starts the drill)
            self._deliver_queued()
            self._refuse_second_at_once(drill)
        mode = TUTORIAL_MODE if tutorial else self.session_mode
        forced = PlayedAs.SIGNAL if tutorial else PlayedAs(self.played_as) if self.played_as else None
        rate = self.drill_set.model.noise_rate if self.drill_set is not None else None
        try:
            set_id = self.drill_set.set_id if self.drill_set is not None else None
            recorder = SessionRecorder.start(
                self.data_dir,
                self.trainee,
                Path(drill_path),
                drill,
                mode=mode,
                set_id=set_id,
                seed=self.seed,
                trial=Trial(forced, rate, chosen=not tutorial and (self.seed is not None or bool(self.played_as))),
            )
            if not tutorial:
                self._started_alone(recorder, drill)
            return StoreRecorder(recorder, before_finish=None if tutorial else self._deliver_queued)
        except (SessionError, StoreError) as exc:
            raise SessionUnavailable(str(exc)) from None

    def _started_alone(self, recorder: Any, drill: Drill) -> None:
        """Check again, the new session's journal created and locked: two windows that started the drill together
        both passed the check before it; while another of its sessions is live, the new journal is removed (before
        its lock is let go, so that no start takes it for a killed session to recover) and the start refused."""
        try:
            self._refuse_second_at_once(drill, own=1)
        except SessionUnavailable:
            try:
                recorder.journal_path.unlink(missing_ok=True)
            finally:
                recorder.close()
            raise

    def _refuse_second_at_once(self, drill: Drill, *, own: int = 0) -> None:
        """Raise :class:`SessionUnavailable` while a session of ``drill`` by this trainee is being played from the
        data directory (another window, its journal held by a live process): a trainee's first attempt is the
        session the store stores first, so two at once let them choose which counts (end the one that went well,
        leave the other open: docs/cohorts.md, "What a trainee can and cannot do to their results")."""
        from warroom.core.text import shown_id
        from warroom.store.journal import sessions_in_progress

        if sessions_in_progress(self.data_dir, self.trainee, drill.id) > own:  # ``own``: this start's journal
            raise SessionUnavailable(
                f"a session of drill {shown_id(drill.id)} by {shown_id(self.trainee)} is being played in another "
                "window (or browser tab): finish or quit it first, then start the drill again (two sessions of one "
                "drill at once would let you choose which attempt counts)"
            )

    def _deliver_queued(self) -> None:
        """Store the trainee's sessions waiting in the data directory (queued while a shared store could not be
        reached, or killed) before a new session begins, as a start of the war room does: a session is a first
        attempt by the order the store stores it, so one queued, its debrief seen, then stored after a later session
        of its drill made that later one, played knowing the answer, the trial. Whatever cannot be stored yet stays
        queued, before the new session in the order ``warroom store sync`` keeps (the order they were started in).
        Called again before a session is stored (a store back during the session). Nothing is shown to the trainee here:
        what was stored (a killed session recorded as abandoned) or set aside is told at their next start."""
        from contextlib import suppress

        from warroom.store.errors import StoreError

        with suppress(StoreError, OSError):  # the store still out of reach: the new session queues behind them
            self._recover_unfinished(shown_to=None)

    def score(self, drill: Drill, actions: list[Action]) -> Any:
        """The scorecard of ``actions`` on ``drill`` (see :func:`warroom.core.scoring.score`)."""
        from warroom.core.scoring import score

        return score(drill, actions)
