"""Verifying stored sessions (``warroom scores verify``): each session's results recomputed from its stored action
log and its drill, and compared with everything stored that depends on them.

A session is **verified** when its drill file is found and loads (the variant of its seed, for a drill with
variants), its action log replays on it, and what the store holds agrees with that replay's score: the columns
(``drill_id``, ``drill_version``, ``all_clear``, ``scoring_version``, ``outcome``, ``total``, ``time_to_detect``,
``damage``, ``full_damage``, ``damage_unit``, ``false_escalations``, ``cost_usd``, no wall-clock time to detect
without a detection), the scorecard (every figure of it; its sentences are not compared, so that a wording changed
by a later warroom is no disagreement), the columns the statistics count (the distractor figures and the trial's
``response``: hit, miss, false alarm ...), and its mode (an assessment session never pauses or changes speed). It
**disagrees** when something differs or its action log does not replay; it is **unverifiable** when its drill
cannot be found or loaded, its row cannot be read, its drill file changed since it was played and scores it
otherwise, or it was stored without a check in a drill set, of a drill with a twin (its trial, drawn with the set's
``noise_rate``, cannot be checked: :func:`unverifiable_trial`), or its record names as its submitter a role that
cannot log in (a login stored it as its group, ``SET ROLE``, before schema version 25: whose it is is unknown).

A session stored without a check (``submitted_by``: a trainee role, ``store import``) is verified by its drill id
alone (a path it names is its client's claim) and by the current scoring rules (the rules it names are its client's
claim too), and compared with the trainee's other sessions of its drill for copies (the same action log, whatever
seed it claims: :func:`_copies`); a session stored by warroom's recorder is verified by the rules it recorded.
The verdicts are recorded in the store (:mod:`warroom.store.results._verification`) when ``record`` is true: a
session that disagrees or cannot be verified is left out of the statistics until it is verified; one that was
stored without a check and is found right is counted from then on.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, Unpack

from warroom.core.library import TUTORIAL_ID
from warroom.core.scoring import SCORING_VERSION, ScoringError, score
from warroom.store.errors import CorruptSession, session_id_text
from warroom.store.review._drill import (
    DrillCache,
    DrillResolver,
    DrillUnavailable,
    SessionDrill,
    found_path,
    resolve_session_drill,
)
from warroom.store.review._rescore import (
    FIGURE_COLUMNS,
    column_differences,
    json_value,
    newer_rules_reason,
    same_value,
    session_rules,
)
from warroom.store.timestamps import aware_time, ended_before_start

if TYPE_CHECKING:
    from warroom.core.model import Action, Drill
    from warroom.core.scoring import Scorecard
    from warroom.store.results import Filters, ResultsStore, SessionCheck, SessionInfo, SessionRow, StoredSession


class Verdict(StrEnum):
    """What verifying one session found (the states of :mod:`warroom.store.results._verification`)."""

    VERIFIED = "verified"
    DISAGREES = "disagrees"
    UNVERIFIABLE = "unverifiable"


@dataclass(frozen=True)
class VerifyResult:
    """One session verified: its ``verdict``, the ``problems`` found (each a sentence; empty when verified), who
    stored it without a check (``submitted_by``, None: warroom's recorder) and what was recorded before
    (``previous``, a state, None: nothing)."""

    session_id: str
    trainee: str | None
    drill_id: str | None
    verdict: Verdict
    problems: tuple[str, ...] = ()
    submitted_by: str | None = None
    previous: str | None = None
    #: True when it is unverifiable for this alone: scored by rules newer than this warroom applies (its problem
    #: says which and what to do), not for a doubt about its results.
    newer_rules: bool = False

    @property
    def label(self) -> str:
        """``SESSION_ID (TRAINEE, DRILL_ID)`` (the id alone for a row that cannot be read)."""
        return f"{self.session_id} ({self.trainee}, {self.drill_id})" if self.trainee is not None else self.session_id

    def to_dict(self) -> dict[str, Any]:
        """As a JSON-ready dict (``warroom scores verify --format json``)."""
        return {"session_id": self.session_id, "trainee": self.trainee, "drill_id": self.drill_id,
                "verdict": self.verdict.value, "problems": list(self.problems), "submitted_by": self.submitted_by,
                "previous": self.previous}  # fmt: skip

    @property
    def reason(self) -> str:
        """The verdict's reason, as recorded in the store."""
        if self.problems:
            return "; ".join(self.problems)
        submitted = f" (stored by {self.submitted_by} without a check)" if self.submitted_by else ""
        return f"recomputed by warroom scores verify: its results are what its action log scores{submitted}"

    def __str__(self) -> str:
        return f"{self.verdict.value}: {self.label}: {self.reason}"


#: The scorecard's keys that are sentences for people, not figures: not compared.
_PROSE = ("lines", "outcome_text")
#: The columns recomputed from a scorecard (column -> the scorecard's attribute).


def verify_sessions(
    store: ResultsStore,
    resolver: DrillResolver,
    *,
    record: bool = True,
    done: Callable[[], None] = lambda: None,
    **filters: Unpack[Filters],
) -> list[VerifyResult]:
    """Verify every stored session matching the :class:`~warroom.store.results.Filters`, oldest
    first; with ``record`` the verdicts are recorded in the store; ``done`` is called after each session (a progress
    bar). Returns one :class:`VerifyResult` per session. Raises StoreError when the store cannot be read (or
    written, with ``record``)."""
    cache = DrillCache()  # each drill file found, hashed, loaded and made into each variant once
    copies: CopyIndex = {}
    checks = store.checks()  # every record, read once (a query per session was a third of the time)
    groups = store.submitted_as_group()  # records naming a group role, not a login (stored under SET ROLE)
    figures = stored_figures(store)
    out: list[VerifyResult] = []
    pending: list[tuple[VerifyResult, SessionCheck | None, Any]] = []
    for s in store.iter_sessions(**filters):
        previous = checks.get(s.session_id)
        if isinstance(s, CorruptSession):  # (its id as stored may be a BLOB written by SQL: named as text)
            result = VerifyResult(session_id_text(s.session_id), None, None, Verdict.UNVERIFIABLE, (str(s),),
                                  _submitter(previous), previous.state if previous else None)  # fmt: skip
        else:
            result = verify_session(store, s, resolver, previous, cache, copies, figures, groups)
        if record and isinstance(s.session_id, str):  # (an id that is not text names no row a command can read)
            pending.append((result, previous, s.session_id))
            if len(pending) >= _RECORDED_AT_ONCE:
                _record_all(store, pending)
        out.append(result)
        done()
    _record_all(store, pending)
    return out


#: Verdicts recorded in one transaction (one commit, one fsync, for so many sessions).
_RECORDED_AT_ONCE = 500


def _record_all(store: ResultsStore, pending: list[tuple[VerifyResult, SessionCheck | None, Any]]) -> None:
    """Record the verdicts ``pending`` (each with its session's id as stored) in one transaction, and empty it."""
    if not any(r.verdict is not Verdict.VERIFIED or p is not None for r, p, _ in pending):
        pending.clear()
        return

    def write() -> None:
        for result, previous, stored_id in pending:
            _record(store, result, previous, stored_id)

    store.db.write(write)
    pending.clear()


def stored_figures(store: ResultsStore) -> dict[str, tuple[Any, ...]]:
    """Session id -> its stored columns the statistics count (:func:`_figure_differences`), read in one query."""
    sql = "SELECT session_id, distractors_shown, distractor_escalations, response FROM sessions"
    try:
        return {str(r[0]): tuple(r[1:]) for r in store.db.conn.execute(sql)}
    except store.db.errors as exc:
        raise store.db.error(exc) from exc


def _submitter(previous: SessionCheck | None) -> str | None:
    return previous.submitted_by if previous is not None else None


def _record(store: ResultsStore, result: VerifyResult, previous: SessionCheck | None, stored_id: Any) -> None:
    """Record ``result`` in the store, under the session's id as stored (``stored_id``): a verified session that had
    no record keeps none (warroom's recorder stored it, and it is right); every other verdict replaces the session's
    record."""
    if result.verdict is Verdict.VERIFIED and previous is None:
        return
    store.mark(stored_id, result.verdict.value, result.reason)


def verify_session(
    store: ResultsStore,
    s: StoredSession,
    resolver: DrillResolver,
    previous: SessionCheck | None = None,
    cache: dict[Path, Drill] | None = None,
    copies: CopyIndex | None = None,
    figures: dict[str, tuple[Any, ...]] | None = None,
    groups: frozenset[str] | None = None,
) -> VerifyResult:
    """Verify one stored session (``previous``: its verification record, if any); see the module docstring.
    ``cache`` and ``copies`` keep the drills and the trainees' sessions read for the next session verified;
    ``figures`` holds every session's stored figure columns, read at once (None: this session's are read);
    ``groups`` the submitters that are roles which cannot log in (None: read here)."""
    submitted = _submitter(previous)

    def result(verdict: Verdict, problems: list[str], newer: bool = False) -> VerifyResult:
        return VerifyResult(s.session_id, s.trainee, s.drill_id, verdict, tuple(problems), submitted,
                            previous.state if previous else None, newer)  # fmt: skip

    if submitted is not None and submitted in (store.submitted_as_group() if groups is None else groups):
        return result(Verdict.UNVERIFIABLE, [_stored_as_group(submitted)])

    info = s.info()
    if submitted is not None:  # the path it names is its client's claim: found by its drill id alone
        info = replace(info, drill_path=None)
    try:
        found = resolve_session_drill(info, resolver, cache)
    except DrillUnavailable as exc:
        return result(Verdict.UNVERIFIABLE, [f"{exc}; put the drill file back (or name its folder with --drills)"])
    if submitted is None and (newer := newer_rules_reason(s.scoring_version)):  # its recorder's rules, unknown here
        return result(Verdict.UNVERIFIABLE, [newer], newer=True)
    rules = SCORING_VERSION if submitted is not None else session_rules(s.scoring_version)
    try:
        new = score(found.drill, s.actions, rules=rules)
    except ScoringError as exc:
        problems = [f"its action log does not replay on its drill file {found.path}: {exc}"]
        return result(Verdict.UNVERIFIABLE if found.changed else Verdict.DISAGREES, problems)
    problems = differences(store, s, found, new, figures)
    if submitted is not None:
        problems.extend(_copies(store, s, copies) or _copy_before(previous))
    if submitted is None and (other := other_drill_file(info, found, s.actions, new, rules, resolver, cache)):
        return result(Verdict.UNVERIFIABLE, [*problems, other])
    if not problems and submitted is not None and (trial := unverifiable_trial(s, found)):
        return result(Verdict.UNVERIFIABLE, [trial])
    if not problems:
        return result(Verdict.VERIFIED, [])
    if found.changed:
        was = (s.drill_sha256 or "")[:12]
        return result(Verdict.UNVERIFIABLE, [
            f"its drill file {found.path} changed since the session (SHA-256 {found.sha256[:12]}…, was {was}…), and "
            f"on the current file {'; '.join(problems)} (put back the file it was played on, or `warroom scores "
            "rescore --allow-changed` scores it on this one)"
        ])  # fmt: skip
    return result(Verdict.DISAGREES, problems)


def _stored_as_group(role: str) -> str:
    """Why a session whose record names a role that cannot log in (a group) is unverifiable."""
    from warroom.core.text import clean_name

    return (f"stored by the role '{clean_name(role)}', which cannot log in: a login became it (SET ROLE, before schema "
            "version 25 named the login) and stored the session under its name, so whose session it is is not known "
            "(delete it with `warroom scores delete`)")  # fmt: skip


def differences(
    store: ResultsStore, s: StoredSession, found: SessionDrill, new: Scorecard,
    figures: dict[str, tuple[Any, ...]] | None = None,
) -> list[str]:
    """Every stored value of ``s`` that disagrees with ``new`` (its score recomputed on ``found``), as sentences
    (``figures``: the stored figure columns of every session, read at once; None: read here)."""
    out = start_differences(s, found, s.actions)
    backwards = ended_before_start(s.started_at, s.ended_at)
    if backwards:
        out.append(backwards)
    columns: list[str] = []
    figure_problems: list[str] = []
    for column, stored, value in column_differences(s, new, _figures_of(store, s.session_id, figures),
                                                    found.drill.is_all_clear):
        if column == "wall_time_to_detect":
            columns.append(f"wall_time_to_detect {_shown(stored)} is stored, but nothing was detected")
        else:
            said = f"{column} {_shown(stored)} is stored, {_shown(value)} recomputed"
            (figure_problems if column in FIGURE_COLUMNS else columns).append(said)
    return [*out, *columns, *scorecard_differences(s.scorecard, new.to_dict()), *figure_problems]


def other_drill_file(
    info: SessionInfo, found: SessionDrill, actions: Sequence[Action], new: Scorecard, rules: str,
    resolver: DrillResolver, cache: dict[Path, Drill] | None = None,
) -> str | None:
    """Why a session whose drill was found by the path it names (``found``, where its actions score ``new`` by
    ``rules``) is not judged on that file, as a sentence: its drill id names another file (found without the path:
    in the drill folders and the bundled library, what the facilitator names), with other bytes, on which its
    actions score otherwise. The path is its writer's word (a journal's start line, a row): a file of a library
    drill's id with an answer key of the trainee's own made their guess a hit. None when it names no path, its id
    names no other file, or both files score it alike (a class's copy of a drill, a folder moved)."""
    if not info.drill_path:
        return None
    by_its_id = replace(info, drill_path=None)
    try:
        if found_path(by_its_id, resolver, cache) == found.path:
            return None  # (the file found once a pass: most sessions name the file of their id)
        by_id = resolve_session_drill(by_its_id, resolver, cache)
    except DrillUnavailable:
        return None  # no other file of its id: the one it names is its drill
    if by_id.sha256 == found.sha256:
        return None
    try:
        theirs = score(by_id.drill, actions, rules=rules)
    except ScoringError as exc:
        there = f"its action log does not replay ({exc})"
    else:
        if not scorecard_differences(theirs.to_dict(), new.to_dict()):
            return None
        there = f"its actions score {_said(theirs, by_id.drill.is_all_clear)}"
        if _said(theirs, by_id.drill.is_all_clear) == _said(new, found.drill.is_all_clear):
            there += f" too, but {_other_figures(new, theirs)}"  # (else: "scores X ... on which it scores X")
    return (f"its drill file {found.path} (where its actions score {_said(new, found.drill.is_all_clear)}) is not "
            f"the drill file of drill {info.drill_id!r} in the drill folders and the library, {by_id.path}, on which "
            f"{there}: the path it names is its writer's word, so it is verified on neither (if that file is the drill "
            "the class played, name its folder with --drills)")  # fmt: skip


def _other_figures(here: Scorecard, there: Scorecard) -> str:
    """The figures of two scorecards of one action log (on the file a session names, ``here``, and on the file of
    its drill id, ``there``) that differ, as a clause (``deadline 13 on the one, 37 on the other``)."""
    a, b = _figures(here.to_dict()), _figures(there.to_dict())
    keys = [k for k in a if k != "components" and not same_value(a.get(k), b.get(k))] or ["components"]
    said = [f"{k} {_shown(a.get(k))} on the one, {_shown(b.get(k))} on the other" for k in keys[:3]]
    more = f", and {len(keys) - 3} more" if len(keys) > 3 else ""
    return f"its scorecard's {'; '.join(said)}{more}"


def _said(card: Scorecard, all_clear: bool) -> str:
    """A scorecard's outcome and total, as a sentence says them (``early escalation, 0/100``)."""
    from warroom.core.model import outcome_label

    return f"{outcome_label(card.outcome.value, all_clear)}, {card.total}/{card.max_total}"


def unverifiable_trial(s: StoredSession | SessionInfo, found: SessionDrill) -> str | None:
    """Why the trial (signal or noise) that ``s``, a session of a drill set stored without a check, claims cannot be
    checked, as a sentence; None for a session outside a set or of a drill without a twin (its only trial is
    checked by its drill). A set's session draws its trial from its seed with the set's ``noise_rate``, which is in
    the set's file, not in the store: whatever its row claims (the rate as well), any trial is the draw of some
    rate, so such a session is never verified by its row alone (docs/cohorts.md). Nor is a session of a drill with a
    twin that claims a drawn trial (an assessment session, a practice session not ``chosen``) stored without a seed:
    its seed draws its trial, so without one it cannot say which it was (it was taken for a signal trial, the draw
    of no seed)."""
    if found.drawn is None:
        return None
    if s.set_id is None and s.seed is None and (s.mode == "assessment" or (s.mode == "practice" and not s.chosen)):
        return (f"unverifiable trial: it claims a {s.played_as} trial of a drill with a twin but holds no seed, which "
                "draws the trial (signal or noise) of a session that did not choose it, so no check of the stored row "
                "can tell which trial it was (a session warroom plays of a drill with a twin always has a seed: store "
                "it with its seed)")
    if s.set_id is None:
        return None
    return (f"unverifiable trial: it claims a {s.played_as} trial of drill set {s.set_id!r}, drawn from its seed with "
            "the set's noise_rate, which the store does not keep, so no check of the stored row can tell it from a "
            "trial made up (play drill sets that count under `warroom serve`, whose host stores what it recorded)")


@dataclass(frozen=True)
class _Held:
    """A session of a drill's group (:func:`_group`): its id, claimed start, whether it was stored without a check,
    and when the database stored it, and whose it is."""

    session_id: str
    started_at: str
    submitted: bool
    #: When the database stored it, in an order no client sets (:meth:`ResultsStore.stored_order`); None
    #: where the store keeps none for it.
    stored: tuple[int, int] | None = None
    #: The seed it claims.
    seed: int | None = None
    #: Whose session it is.
    trainee: str = ""


#: The copies of a session that verify names (then how many more).
MAX_COPIES_NAMED = 3
#: action log as JSON -> the sessions of one drill that hold it, every trainee's, whatever their seeds.
Group = dict[str, list[_Held]]
#: drill id -> its :data:`Group`: built once per drill by :func:`verify_sessions`, so that checking each session for
#: copies costs a look-up, not a read of the group (a trainee's 2,000 rows of one drill took verify over ten
#: minutes).
CopyIndex = dict[str, Group]


#: A log is telling enough to name a copy with at least this many choices (actions that inspect, flag, unflag,
#: escalate or probe; playback and quitting are no choices) ...
MIN_TELLING_CHOICES = 3
#: ... or notes (flags' and escalations' words) of at least this many characters in all.
MIN_TELLING_NOTES = 40
#: The actions that are no choice of the trainee's about the trace.
_NO_CHOICE = frozenset({"quit", "pause", "resume", "speed"})


def telling(actions: Sequence[Action]) -> bool:
    """Whether an action log holds enough to tell a copy from an honest session that did the same: at least
    :data:`MIN_TELLING_CHOICES` choices, or notes of at least :data:`MIN_TELLING_NOTES` characters in all. A log of
    one escalation of the event that shows the fault, with a few words, at the drill time the event arrives, is what
    two trainees who read the trace well write alike; anyone holding the drill file can also write it without
    copying, so naming it a copy catches no one and wrongs honest trainees (docs/cohorts.md)."""
    choices = sum(1 for a in actions if a.kind.value not in _NO_CHOICE)
    return choices >= MIN_TELLING_CHOICES or sum(len(a.note or "") for a in actions) >= MIN_TELLING_NOTES


def _log_key(actions: Sequence[Action]) -> str | None:
    """An action log as comparable text; None for one too short to tell a copy (:func:`telling`: two sessions played
    hold the same one when nothing but a quit, or one escalation with a few words, was recorded)."""
    if not telling(actions):
        return None
    return json.dumps([a.model_dump(mode="json") for a in actions], sort_keys=True)


def _group(store: ResultsStore, drill: str, index: CopyIndex | None) -> Group:
    """The sessions of ``drill``, every trainee's the store shows, by action log (whatever their seeds), read once
    per ``index``."""
    if index is not None and drill in index:
        return index[drill]
    rows = [o for o in store.iter_sessions(drill=drill)
            if not isinstance(o, CorruptSession) and o.drill_id == drill]  # fmt: skip
    checks = store.checks([o.session_id for o in rows])
    ages = store.stored_order([o.session_id for o in rows])
    group: Group = {}
    for o in rows:
        key = _log_key(o.actions)
        if key is not None:
            submitted = o.session_id in checks and checks[o.session_id].submitted
            group.setdefault(key, []).append(_Held(o.session_id, o.started_at, submitted, ages.get(o.session_id),
                                                   o.seed, o.trainee))  # fmt: skip
    if index is not None:
        index[drill] = group
    return group


def _copies(store: ResultsStore, s: StoredSession, index: CopyIndex | None = None) -> list[str]:
    """A session stored without a check (``s``) that is a copy of another session, the same trainee's or another's
    (a hit handed in under another name): the same drill and action log, whatever the seed (a log holds each
    action's drill time, so two sessions played seldom hold the same one, and only a :func:`telling` log is
    compared; and a copier may pick another seed that draws the same trial), whatever its id and start time say. A
    copy given a later start took the session it copies out of the figures (a bad first attempt) while standing
    itself as a later one. Of two copies both stored without a check, the one the database stored later is the copy
    (:func:`_copy_of`); a session warroom's recorder stored is never the copy."""
    mine = _log_key(s.actions)
    if mine is None:
        return []
    held = _group(store, s.drill_id, index).get(mine, [])
    me = next((o for o in held if o.session_id == s.session_id),
              _Held(s.session_id, s.started_at, True, None, s.seed, s.trainee))
    found = [o for o in held if o.session_id != s.session_id and _copy_of(me, o)]
    said = [_copy_sentence(o, s) for o in found[:MAX_COPIES_NAMED]]
    if len(found) > MAX_COPIES_NAMED:  # a thousand copies: a thousand sentences for each of them
        whose = " of the trainee" if all(o.trainee == s.trainee for o in found[MAX_COPIES_NAMED:]) else ""
        said.append(f"and so are those of {len(found) - MAX_COPIES_NAMED:,} more sessions{whose}")
    return said


#: How the reason of a copy whose original is no longer stored begins (:func:`_copy_before`).
_COPY_BEFORE = "it was found a copy when verified on "


def _copy_before(previous: SessionCheck | None) -> list[str]:
    """A session found a copy before stays one when the session it copies is no longer stored (deleted by `scores
    delete`): else deleting a classmate's session would make the copy of it verified and counted. Its recorded reason
    is kept as it was (verified again, it does not grow)."""
    if previous is None or previous.state != Verdict.DISAGREES or ": a copy, whatever" not in previous.reason:
        return []
    if previous.reason.startswith(_COPY_BEFORE):
        return [previous.reason]
    return [f"{_COPY_BEFORE}{previous.checked_at} ({previous.reason}), and the session it copies is no longer stored: "
            "a copy stays one"]


def _copy_sentence(other: _Held, s: StoredSession) -> str:
    """That ``s`` is a copy of ``other``, naming whose ``other`` is when it is another trainee's: its drill, seed and
    action log; or its drill and action log under a seed of its own (a seed drawing the same trial changes nothing a
    log shows in a drill without timing variants)."""
    whose = "" if other.trainee == s.trainee else f" of trainee {other.trainee!r}"
    if other.seed == s.seed:
        return (f"its drill, seed and action log are those of session {other.session_id}{whose} (started "
                f"{other.started_at}): a copy, whatever its id and start time say")  # fmt: skip
    return (f"its drill and action log are those of session {other.session_id}{whose} (started {other.started_at}, "
            f"seed {_shown(other.seed)}; this one claims seed {_shown(s.seed)}): a copy, whatever its id, seed and "
            "start time say")  # fmt: skip


def _copy_of(me: _Held, other: _Held) -> bool:
    """Whether ``me`` (stored without a check) is the copy of ``other``, a session with the same drill and action log
    (whatever seed each claims): always when ``other`` was stored with a check (by warroom's recorder); else the one
    the database stored later (the order of ``stored_seq``, which the database numbers as it stores each row and no
    client sets, on both back ends; for rows stored before schema version 20, PostgreSQL's order of transactions),
    and where the store knows no order (two SQLite rows stored before version 20), the one that claims the earlier
    start."""
    if not other.submitted:
        return True
    if me.stored is not None and other.stored is not None and me.stored != other.stored:
        return me.stored > other.stored
    return aware_time(me.started_at) <= aware_time(other.started_at)  # start times given in any offset


def start_differences(s: SessionInfo | SessionRow, found: SessionDrill, actions: Sequence[Action]) -> list[str]:
    """What a session says of itself when it starts (``s``: its start line or its stored row, which has the same
    fields) that its drill file (``found``, the drill the session played: its twin for a noise trial) and its action
    log (``actions``) contradict, as sentences: its drill id, version and all-clear flag, an assessment session
    that pauses or changes the speed, and a session outside a drill set that claims another trial (signal or
    noise) than its seed draws though it says it drew it (:func:`_draw_differences`). Recovery flags a journal on
    these before storing it; verify on a stored row."""
    drill = found.drill
    out: list[str] = []
    if s.drill_id != drill.id:
        out.append(f"drill_id {s.drill_id!r} is stored, but its drill file {found.path} is drill {drill.id!r}")
    if not found.changed and s.drill_version != drill.version:
        out.append(f"drill_version {_shown(s.drill_version)} is stored, its drill file has version {drill.version}")
    if s.all_clear != drill.is_all_clear:
        trial = f" (played as {s.played_as})" if found.twin else ""
        out.append(f"all_clear {_shown(s.all_clear)} is stored, its drill{trial} "
                   f"{'is' if drill.is_all_clear else 'is not'} an all-clear drill")  # fmt: skip
    if s.mode == "tutorial" and drill.id != TUTORIAL_ID:  # the mode no figure counts: only the tutorial's drill
        out.append(f"mode \"tutorial\" is stored, but {drill.id!r} is not the tutorial's drill (only "
                   "`warroom tutorial` plays that mode, and no figure counts it)")  # fmt: skip
    out.extend(_draw_differences(s, found))
    if s.mode == "assessment" and any(a.kind in ("pause", "resume", "speed") for a in actions):
        out.append("an assessment session whose action log pauses or changes the speed (assessment plays at 1x, "
                   "without pauses)")  # fmt: skip
    return out


def _draw_differences(s: SessionInfo | SessionRow, found: SessionDrill) -> list[str]:
    """That a session outside a drill set claims another trial (signal or noise) than its seed draws, though it
    says it drew it: an assessment session always draws (``warroom run`` refuses ``--as`` and ``--seed`` there), a
    practice session unless it records its trial as ``chosen`` (schema version 23). So a ``warroom run --as``
    session whose start line or row was edited to claim a drawn trial, or one stored before that version, is
    told apart whenever its seed draws the other trial (a seed drawing the trial it played cannot be told from a
    draw: docs/cohorts.md)."""
    drawn = found.drawn  # (None: a drill without a twin, whose only trial its drill file checks)
    seeded = s.seed is not None  # (a session without a seed says nothing of its draw: unverifiable_trial)
    if s.set_id is not None or not drawn or not seeded or not s.played_as or s.played_as == drawn:
        return []
    if s.mode == "assessment":
        return [f"played_as {s.played_as!r} is stored, but an assessment session of this drill with seed "
                f"{_shown(s.seed)} is a {drawn} trial (drawn from its seed, outside a drill set)"]  # fmt: skip
    if s.mode == "practice" and not s.chosen:
        return [f"played_as {s.played_as!r} is stored as drawn, but a practice session of this drill with seed "
                f"{_shown(s.seed)} draws a {drawn} trial: a trial chosen with `warroom run --as` or `--seed` is "
                "recorded as chosen and never counted (stored before schema version 23, or its start line or row "
                "edited)"]  # fmt: skip
    return []


def scorecard_differences(stored: dict[str, Any], computed: dict[str, Any]) -> list[str]:
    """The figures of a ``stored`` scorecard (a dict, as stored or journalled) that differ from those of the
    ``computed`` one (``Scorecard.to_dict()``), as one sentence (empty: none differ); sentences for people are not
    compared."""
    from warroom.core.scoring import Scorecard

    try:
        card = Scorecard.from_dict(stored).to_dict()  # legacy keys renamed, defaults filled
    except ValueError as exc:
        return [f"its stored scorecard cannot be read ({exc})"]
    differing = []
    read, wrote = json_value(_figures(card)), json_value(_figures(computed))  # each as JSON reads it back, once
    for key in sorted(set(card) | set(computed)):
        if key in _PROSE:
            continue
        a, b = card.get(key), computed.get(key)
        if key == "components":
            a, b = _points(a), _points(b)
        if not same_value(read.get(key), wrote.get(key)):
            differing.append(f"{key} {_shown(a)} where its action log scores {_shown(b)}")
    if not differing:
        return []
    more = f", and {len(differing) - 5} more" if len(differing) > 5 else ""
    return [f"its scorecard says {', '.join(differing[:5])}{more}"]


def _figures_of(
    store: ResultsStore, session_id: str, figures: dict[str, tuple[Any, ...]] | None = None
) -> tuple[Any, ...] | None:
    """The stored columns the statistics count of ``session_id`` (``figures``: every session's, read at once; None:
    read here); None when it is not stored."""
    sql = "SELECT distractors_shown, distractor_escalations, response FROM sessions WHERE session_id = ?"
    try:
        row = figures.get(session_id) if figures is not None else store.db.conn.execute(sql, (session_id,)).fetchone()
    except store.db.errors as exc:
        raise store.db.error(exc) from exc
    return None if row is None else tuple(row)


def _figures(card: dict[str, Any]) -> dict[str, Any]:
    """A scorecard dict's figures: its sentences (:data:`_PROSE`, the components' explanations) left out."""
    out = {k: v for k, v in card.items() if k not in _PROSE}
    if "components" in out:
        out["components"] = _points(out["components"])
    return out


def _points(components: Any) -> Any:
    """A scorecard's components without their explanations (sentences)."""
    if not isinstance(components, list):
        return components
    return [{k: v for k, v in c.items() if k != "explanation"} if isinstance(c, dict) else c for c in components]


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 60 else text[:57] + "..."


def session_verdict(
    store: ResultsStore, s: StoredSession, resolver: DrillResolver
) -> tuple[VerifyResult, SessionCheck | None]:
    """``s`` verified now (not recorded) and its verification record (for ``warroom review``)."""
    previous = store.checks([s.session_id]).get(s.session_id)
    return verify_session(store, s, resolver, previous), previous
