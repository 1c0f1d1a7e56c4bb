"""Re-scoring stored sessions (``warroom scores rescore``).

Each matching session's action log is scored again (:func:`warroom.core.scoring.score`) against its drill file, by
the edition of the scoring rules it was scored with (a version-1 session stays on version 1: its escalations were
never asked for citations), or by the edition asked for (``rules``; docs/scoring.md says why this is the default),
found like recovery finds it (:func:`warroom.store.journal._recorder.resolve_session_drill`). A session whose drill file
changed since it was played (its SHA-256 differs from the recorded one) is skipped unless ``allow_changed``; when
re-scored against a changed file, that file (SHA-256, version, path) is recorded with the new scorecard and a note
names the file the session was played on, so the stored score and its recorded drill file always agree.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field, replace
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, Unpack

from warroom.core.scoring import (
    SCORING_VERSION,
    SCORING_VERSIONS,
    Scorecard,
    ScoringError,
    check_rules,
    current_scorecard_keys,
    ids_by_position,
    newer_rules,
    score,
)
from warroom.store.errors import CorruptSession
from warroom.store.results import Filters, ResultsStore, StoredSession
from warroom.store.review._drill import (
    DrillCache,
    DrillResolver,
    DrillUnavailable,
    SessionDrill,
    resolve_session_drill,
)
from warroom.store.timestamps import utc_now

if TYPE_CHECKING:
    from warroom.core.model import Drill


class RescoreStatus(StrEnum):
    """What re-scoring did to one session."""

    CHANGED = "changed"  # a new scorecard was stored (outcome, score or details differ)
    UNCHANGED = "unchanged"  # the scorecard is the same; nothing was written
    UPDATED = "updated"  # the scorecard is the same, but the changed drill file it was scored on was recorded
    SKIPPED = "skipped"  # not re-scored: ``message`` says why


@dataclass(frozen=True)
class RescoreResult:
    """One session's re-scoring: ``status`` and a ``message`` for people (what changed, or why it was skipped).

    ``label`` is ``SESSION_ID (TRAINEE, DRILL_ID)``. ``before`` and ``after`` are the session's (outcome, response)
    values as stored and as re-scored (the response None for a scorecard by rules before version 4; ``after`` None
    for a skipped session); ``all_clear`` says whether its drill is an all-clear drill (for the outcome's label).
    ``pending`` is the write a re-score without ``write`` left to do (:func:`apply_rescore`), None once done or when
    there is nothing to write."""

    session_id: str
    label: str
    status: RescoreStatus
    message: str
    before: tuple[str, str | None] | None = None
    after: tuple[str, str | None] | None = None
    all_clear: bool = False
    pending: tuple[Scorecard, dict[str, Any]] | None = field(default=None, repr=False, compare=False)

    def __str__(self) -> str:
        return f"{self.status.value}: {self.label}: {self.message}"


def json_value(value: Any) -> Any:
    """``value`` as it reads back from JSON (tuples as lists, anything else JSON cannot hold as its text)."""
    return json.loads(json.dumps(value, default=str))


def rescore(
    store: ResultsStore,
    resolver: DrillResolver,
    *,
    allow_changed: bool = False,
    rules: str | None = None,
    reason: str | None = None,
    write: bool = True,
    **filters: Unpack[Filters],
) -> list[RescoreResult]:
    """Re-score every stored session matching the :class:`~warroom.store.results.Filters` (``trainee`` / ``drill``
    id exact, ``since`` a UTC timestamp text, ``set_id`` a drill set's id, ``mode`` practice or assessment), oldest
    first, and store the scorecards that changed.

    ``resolver(drill_id, drill_path) -> Path`` finds each session's drill file (e.g.
    :func:`~warroom.store.journal._recorder.default_drill_resolver`). Returns one :class:`RescoreResult` per session; a
    session whose row cannot be read, whose drill file is missing, unreadable, invalid or changed (without
    ``allow_changed``), or whose action log no longer fits the drill is SKIPPED (never modified). ``rules`` is the
    edition of the scoring rules to apply (:data:`~warroom.core.scoring.SCORING_VERSIONS`); None applies each
    session's own (:func:`session_rules`). Each scorecard replaced is kept in the session's history with who
    re-scored, when, the rules applied and why (``reason``; None: which rules and whether they were asked for).
    Without ``write`` nothing is written: each result says what would change, and :func:`apply_rescore` writes
    them (``warroom scores rescore --rules N`` shows them and asks first).
    Raises StoreError when the store cannot be written, ValueError for an unknown ``rules``.
    """
    if rules is not None:
        check_rules(rules)
    from warroom.store.review._verify import stored_figures  # (verify imports this module)

    cache = DrillCache()
    figures = stored_figures(store)
    out: list[RescoreResult] = []
    for s in store.iter_sessions(**filters):
        if isinstance(s, CorruptSession):
            out.append(RescoreResult(s.session_id, s.session_id, RescoreStatus.SKIPPED, f"{s}; not re-scored"))
            continue
        if rules is None and (newer := newer_rules_reason(s.scoring_version)):  # never rewritten by older rules unasked
            out.append(RescoreResult(s.session_id, f"{s.session_id} ({s.trainee}, {s.drill_id})", RescoreStatus.SKIPPED,
                                     f"{newer}; not re-scored (--rules {SCORING_VERSION} re-scores it by this "
                                     "warroom's rules, after showing what would change)"))
            continue
        applied = rules or session_rules(s.scoring_version)
        why = reason or f"warroom scores rescore by the scoring rules {applied}" + (
            " (asked for)" if rules is not None else " (the session's own)"
        )
        check = store.checks([s.session_id]).get(s.session_id)
        submitted = bool(check and check.submitted)
        result = _rescore_one(s, resolver, cache, allow_changed, applied, why, submitted, figures.get(s.session_id))
        out.append(_write(store, result) if write else result)
    return out


def _write(store: ResultsStore, result: RescoreResult) -> RescoreResult:
    """Store ``result``'s pending scorecard (if any); the result with nothing pending. A session re-scored by another
    process since it was read (two ``warroom scores rescore`` at once) is not written: SKIPPED, saying so (the
    write checks, in its transaction, that the stored scorecard is still the one read); nor is one deleted since it
    was read (``scores delete`` meanwhile): SKIPPED too, where it stopped the whole re-score (``no stored session``)."""
    from warroom.store.errors import RescoredMeanwhile, SessionNotFound

    if result.pending is None:
        return result
    scorecard, kwargs = result.pending
    try:
        store.update_scorecard(result.session_id, scorecard, **kwargs)
    except RescoredMeanwhile as exc:
        why = (f"re-scored by someone else (at {exc.rescored_at}) since this re-score read it; not rewritten (run "
               "`warroom scores rescore` again to see what it holds now)")
        return replace(result, status=RescoreStatus.SKIPPED, pending=None, after=None, message=why)
    except SessionNotFound:
        why = "deleted by someone else (`warroom scores delete`) since this re-score read it; nothing was written"
        return replace(result, status=RescoreStatus.SKIPPED, pending=None, after=None, message=why)
    return replace(result, pending=None)


def apply_rescore(store: ResultsStore, results: list[RescoreResult]) -> list[RescoreResult]:
    """Write the scorecards :func:`rescore` without ``write`` left pending, in order; returns the results with
    nothing pending. Raises StoreError when the store cannot be written."""
    return [_write(store, r) for r in results]


def session_rules(recorded: str | None) -> str:
    """The edition of the scoring rules a session is re-scored (or recovered) with by default: the one it recorded,
    when this warroom still applies it, else the current one."""
    return recorded if recorded in SCORING_VERSIONS else SCORING_VERSION


def newer_rules_reason(recorded: str | None) -> str | None:
    """Why a session scored by ``recorded`` cannot be checked by this warroom: rules newer than any it applies (a
    newer warroom wrote into the store), said with what to do; None for rules it applies, or no version at all."""
    if recorded is None or not newer_rules(recorded):
        return None
    shown = recorded if len(recorded) <= 12 else f"{recorded[:12]}… ({len(recorded):,} digits)"
    return (f"scored by the scoring rules {shown}, which a newer warroom applies (this one applies "
            f"{', '.join(SCORING_VERSIONS)}): check it with that warroom or a later one")


def _ids_refusal(recorded: str | None, rules: str) -> str:
    """Why a session of a drill with a twin is not re-scored by ``rules``: its action log names the event ids its own
    edition played (by position from rules 6 on, authored before), which ``rules`` would read otherwise."""
    played = "renamed by position (e01, e02, ...)" if ids_by_position(recorded) else "as the drill file writes them"
    return (f"played by the scoring rules {recorded or '(none)'}, with the trace's event ids {played}, which the "
            f"rules {rules} would read otherwise; not re-scored (re-score it by its own rules, or by rules on the "
            "same side of version 6)")


def _rescore_one(
    s: StoredSession,
    resolver: DrillResolver,
    cache: dict[Path, Drill],
    allow_changed: bool,
    rules: str,
    why: str,
    submitted: bool = False,
    figures: tuple[Any, ...] | None = None,
) -> RescoreResult:
    """The re-score of one session, its write left pending. A session stored without a check (``submitted``) is
    scored on the drill its id names in the drill folders, never on the path its row names (its client's claim, as
    :func:`~warroom.store.review.verify_session` does); a drill file of another id is never scored on. ``figures``:
    its stored distractor figures and ``response`` (:func:`~warroom.store.review._verify.stored_figures`)."""
    label = f"{s.session_id} ({s.trainee}, {s.drill_id})"
    before = (s.outcome, s.scorecard.get("response"))
    new: Scorecard | None = None

    def result(
        status: RescoreStatus, message: str, pending: tuple[Scorecard, dict[str, Any]] | None = None
    ) -> RescoreResult:
        after = (new.outcome.value, new.response.value if new.response else None) if new is not None else None
        return RescoreResult(s.session_id, label, status, message, before, after, s.all_clear, pending)

    info = replace(s.info(), drill_path=None) if submitted else s.info()
    try:
        found = resolve_session_drill(info, resolver, cache)
    except DrillUnavailable as exc:
        return result(RescoreStatus.SKIPPED, f"{exc}; not re-scored")
    path, drill_, sha = found.path, found.drill, found.sha256
    if drill_.id != s.drill_id:
        return result(RescoreStatus.SKIPPED, f"its drill file {path} is drill {drill_.id!r}, not {s.drill_id!r}; "
                                             "not re-scored")  # fmt: skip
    if found.changed and not allow_changed:
        was = s.drill_sha256 or ""  # changed: there is a recorded SHA-256 and it differs
        return result(
            RescoreStatus.SKIPPED,
            f"the drill file {path} changed since the session (SHA-256 {sha[:12]}…, was {was[:12]}…); "
            "not re-scored (--allow-changed to re-score against the current file)",
        )
    if found.renamed is not None and ids_by_position(rules) != found.renamed:
        return result(RescoreStatus.SKIPPED, _ids_refusal(s.scoring_version, rules))
    try:
        new = score(drill_, s.actions, rules=rules)
    except ScoringError as exc:  # actions that no longer fit an edited drill
        return result(RescoreStatus.SKIPPED, f"cannot be scored on {path}: {exc}; not re-scored")
    record, file_detail = _changed_file_record(s, found) if found.changed else ({}, "")
    file_why = f"; against the changed drill file {path}" if found.changed else ""
    new_d = json_value(new.to_dict())
    write = (new, {"reason": why + file_why, "read_rescored_at": s.rescored_at, **record})
    if same_value(new_d, json_value(_in_current_naming(s.scorecard))):  # the stored card and its keys kept
        if edited := _edited_columns(s, new, figures):  # the scorecard as stored, its columns not: corrected from it
            return result(RescoreStatus.CHANGED, f"stored columns disagreed with the scorecard: {edited}", write)
        if not found.changed:
            return result(RescoreStatus.UNCHANGED, "scorecard unchanged")
        return result(RescoreStatus.UPDATED, f"scorecard unchanged; {file_detail}", write)
    return result(RescoreStatus.CHANGED, _what_changed(s, new, file_detail), write)


def _in_current_naming(stored: dict[str, Any]) -> dict[str, Any]:
    """A stored scorecard as this warroom writes it (:meth:`Scorecard.to_dict`): its :data:`LEGACY_SCORECARD_KEYS
    <warroom.core.scoring.LEGACY_SCORECARD_KEYS>` renamed and the keys added since its edition filled with their
    defaults (what the rules that did not record them mean: a first-edition scorecard has no ``distractors_shown``),
    as ``scores verify`` reads it; only renamed when it cannot be read (it then differs from any re-score)."""
    try:
        return Scorecard.from_dict(stored).to_dict()
    except ValueError:
        return current_scorecard_keys(stored)


#: The columns of a session's row that its scorecard sets (:meth:`~warroom.store.results.ResultsStore.update_scorecard`
#: rewrites them from it).
SCORED_COLUMNS = ("scoring_version", "outcome", "total", "time_to_detect", "damage", "full_damage", "damage_unit",
                  "false_escalations", "cost_usd")  # fmt: skip
#: The columns the statistics count that a scorecard sets, after :data:`SCORED_COLUMNS` in
#: :func:`column_differences`.
FIGURE_COLUMNS = ("distractors_shown", "distractor_escalations", "response")


def column_differences(
    s: StoredSession, new: Scorecard, figures: tuple[Any, ...] | None, all_clear: bool
) -> list[tuple[str, Any, Any]]:
    """``(column, stored, recomputed)`` for each column of ``s`` that the scorecard ``new`` sets otherwise (the one
    definition of what ``scores verify`` reports and ``scores rescore`` corrects of a row edited by hand or inserted
    under a trainee role): :data:`SCORED_COLUMNS`; a wall-clock time to detect kept with nothing detected
    (recomputed None); and with ``figures`` (the stored :data:`FIGURE_COLUMNS`) those the statistics count, the
    trial's response as of ``all_clear``. Equal: :func:`same_value`."""
    from warroom.store.results import figure_columns, response_column

    card = new.to_dict()
    wanted = {column: card[column] for column in SCORED_COLUMNS}
    stored_of = {column: getattr(s, column) for column in SCORED_COLUMNS}
    if new.time_to_detect is None:  # nothing detected: a write clears the wall-clock time to detect
        wanted["wall_time_to_detect"], stored_of["wall_time_to_detect"] = None, s.wall_time_to_detect
    if figures is not None:
        expected = figure_columns(card, new.scoring_version)
        expected["response"] = response_column(card, new.outcome.value, all_clear, new.false_escalations)
        for (column, value), stored in zip(expected.items(), figures, strict=True):
            wanted[column], stored_of[column] = value, stored
    return [(c, stored_of[c], v) for c, v in wanted.items() if not same_value(stored_of[c], v)]


def same_value(a: Any, b: Any) -> bool:
    """Equal, floats within a part in 10^9 (a figure that went through JSON or a REAL column); a bool only to a
    bool."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b or (a == b and type(a) is type(b))
    if isinstance(a, int | float) and isinstance(b, int | float):
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_value(a[k], b[k]) for k in a)
    return bool(a == b)


def _edited_columns(s: StoredSession, new: Scorecard, figures: tuple[Any, ...] | None = None) -> str:
    """The columns of ``s`` that the re-scored ``new`` (whose scorecard is the stored one) sets otherwise
    (:func:`column_differences`, as the write sets them: the response from the row's ``all_clear``), as ``total 100
    -> 40, ...`` (empty when none). Without this, such a row was "unchanged" and kept its edited values."""
    return ", ".join(f"{column} {stored!r} -> {value!r}"
                     for column, stored, value in column_differences(s, new, figures, bool(s.all_clear)))


def _what_changed(s: StoredSession, new: Scorecard, file_detail: str) -> str:
    """What a re-score changes of stored session ``s``: its rules, outcome and score (``scorecard details changed``
    when none of them), then ``file_detail`` (the drill file it is now scored on), if any."""
    detail = []
    if new.scoring_version != s.scoring_version:
        detail.append(f"scoring rules version {s.scoring_version or '(none)'} -> {new.scoring_version}")
    if new.outcome.value != s.outcome:
        detail.append(f"outcome {s.outcome} -> {new.outcome.value}")
    if new.total != s.total:
        detail.append(f"score {s.total} -> {new.total}")
    if not detail:
        detail.append("scorecard details changed")
    if file_detail:
        detail.append(file_detail)
    return ", ".join(detail)


def _changed_file_record(s: StoredSession, found: SessionDrill) -> tuple[dict[str, Any], str]:
    """For a session re-scored against a changed drill file (allowed): the keyword arguments of
    :meth:`~warroom.store.results.ResultsStore.update_scorecard` that record that file with the score (so the stored
    score and its recorded drill file agree and a later plain re-score does not flip the score back), and what to
    say about it."""
    path, drill_, sha = found.path, found.drill, found.sha256
    record: dict[str, Any] = {
        "drill_sha256": sha,
        "drill_version": drill_.version,
        "drill_path": str(path),
        "note": (
            f"re-scored at {utc_now()} against the changed drill file {path} (version {drill_.version}, "
            f"SHA-256 {sha}); the session was played on version {s.drill_version} (SHA-256 {s.drill_sha256})"
        ),
    }
    file_detail = (
        f"drill file version {s.drill_version} -> {drill_.version} (SHA-256 {(s.drill_sha256 or '')[:12]}… -> "
        f"{sha[:12]}…) recorded"
    )
    return record, file_detail
