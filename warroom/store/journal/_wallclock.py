"""The wall-clock figures of a played session, from the wall-clock times (``at``) of its journal's action lines.

The drill clock stops while a practice session is paused (by the trainee, or by a dialog: recorded alike, a ``pause``
then a ``resume``), so the drill-clock time to detect says nothing of how long the trainee really took; these
figures do (docs/sessions.md, "Wall-clock figures"):

- **pauses**: how many ``pause`` actions the session has;
- **paused seconds**: the wall seconds from each ``pause`` to the ``resume`` after it, summed; a pause never resumed
  runs to the session's end (``ended_at``; else the last action's time). None when a time needed is missing or
  unreadable (a journal written before action times were kept);
- **wall time to detect**: the wall seconds from the session's start (``started_at``) to the escalation that
  contained the incident (the escalation at the scorecard's ``contained_at``); None when nothing was contained or
  its time is unknown.

Pure functions over ISO 8601 texts (as :func:`~warroom.store.journal._file.utc_now` writes them); nothing is read or
written here.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from warroom.core.model import Action, ActionKind
from warroom.core.scoring import Scorecard
from warroom.store.results import WallClock
from warroom.store.timestamps import aware_time


def detected_at(scorecard: Scorecard) -> float | None:
    """The drill time (seconds) of the escalation that showed detection, for ``wall_clock``'s ``contained_at``:
    the scorecard's ``contained_at`` when the scorecard has a time to detect (contained, on time or late); None
    otherwise (nothing contained, or the right step named citing no evidence: the cascade stopped, but nothing was
    detected, so there is no wall-clock time to detect either)."""
    return scorecard.contained_at if scorecard.time_to_detect is not None else None


def parse_time(text: str | None) -> datetime | None:
    """An ISO 8601 timestamp text as an aware datetime (no zone: UTC); None for None or text that is not one."""
    if not text:
        return None
    try:
        return aware_time(text)
    except ValueError:
        return None


#: The longest wall span a figure may be (the store's bound on a wall-clock figure, about 31 years).
MAX_WALL_SECONDS = 1e9


def _seconds(start: datetime | None, end: datetime | None) -> float | None:
    """Wall seconds from ``start`` to ``end``; None when either is unknown, or when the clock went back between
    them (a negative span) or jumped (a span over :data:`MAX_WALL_SECONDS`: a machine that started in 1970 and set
    its clock mid-session): a time the wall clock cannot give is unknown, never a figure, and never keeps the
    session from being stored."""
    if start is None or end is None:
        return None
    spent = (end - start).total_seconds()
    return spent if 0.0 <= spent <= MAX_WALL_SECONDS else None


def _paused_seconds(actions: Sequence[Action], times: Sequence[datetime | None], end: datetime | None) -> float | None:
    total = 0.0
    since: datetime | None = None
    pausing = False
    for action, at in zip(actions, times, strict=True):
        if action.kind is ActionKind.PAUSE and not pausing:
            if at is None:
                return None
            pausing, since = True, at
        elif action.kind is ActionKind.RESUME and pausing:
            spent = _seconds(since, at)
            if spent is None:
                return None
            total += spent
            pausing = False
    if pausing:
        last = next((t for t in reversed(times) if t is not None), None)
        spent = _seconds(since, end if end is not None else last)
        if spent is None:
            return None
        total += spent
    return total if total <= MAX_WALL_SECONDS else None


def wall_clock(
    started_at: str,
    actions: Sequence[Action],
    times: Sequence[str | None],
    *,
    contained_at: float | None,
    ended_at: str | None = None,
) -> WallClock:
    """The :class:`~warroom.store.results.WallClock` of a session.

    Args:
        started_at: the session's start (ISO 8601 text, the journal's start line).
        actions: the action log, in order.
        times: the wall-clock time (ISO 8601 text, the journal's ``at``) of each action, same length as
            ``actions``; None where it is unknown.
        contained_at: the drill time (seconds) of the escalation that contained the incident (the scorecard's
            ``contained_at``), None when nothing was contained.
        ended_at: when the session ended (ISO 8601 text), for a pause never resumed; None: the last action's time.

    Returns the figures (all wall seconds, see the module docstring). Raises ValueError when ``times`` and
    ``actions`` differ in length.
    """
    if len(times) != len(actions):
        raise ValueError(f"{len(times)} action times for {len(actions)} actions")
    parsed = [parse_time(t) for t in times]
    pauses = sum(1 for a in actions if a.kind is ActionKind.PAUSE)
    paused = _paused_seconds(actions, parsed, parse_time(ended_at)) if pauses else 0.0
    wall_ttd = None
    if contained_at is not None:
        escalations = [i for i, a in enumerate(actions) if a.kind is ActionKind.ESCALATE and a.t == contained_at]
        if escalations:
            wall_ttd = _seconds(parse_time(started_at), parsed[escalations[-1]])
    return WallClock(pauses=pauses, paused_seconds=paused, wall_time_to_detect=wall_ttd)
