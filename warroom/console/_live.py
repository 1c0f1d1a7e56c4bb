"""The live class as the console shows it: one line per browser tab of the live table (every host's), and one per roster
trainee who is not signed in, with what each is doing now.

A tab's status is its state in the live table (signed in, on the picker, playing, finished, taken over by another tab of
its trainee, disconnected), made **stuck** when it plays a drill and no action was recorded for ``stuck_after`` seconds
(the drill's start counts as its first action), and **host lost** when its host's heartbeat is older than
``stale_after`` seconds (that host stopped or cannot reach the database: its tabs' state is unknown). The drill time of
a drill being played is the drill clock's last reading in the journal carried forward at its speed (unless paused):
``about`` it, since a false escalation's jump is only recorded with the next action.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from warroom.core.text import clock

#: Seconds without an action after which a trainee playing a drill is shown as stuck.
STUCK_AFTER = 90.0
#: Seconds without a heartbeat after which a host's rows are shown as lost.
STALE_AFTER = 10.0

#: Each status's words.
LABELS = {
    "absent": "not signed in",
    "signed_in": "signed in",
    "picker": "choosing a drill",
    "playing": "playing",
    "stuck": "stuck",
    "finished": "finished",
    "taken_over": "moved to another tab",
    "disconnected": "disconnected",
    "lost": "host lost",
}


@dataclass(frozen=True)
class LiveLine:
    """One line of the live table: who, the status (a key of :data:`LABELS`), where (host), the drill and its
    mode and set, the drill time now (seconds, None: no drill), the actions so far and the last one, seconds since
    the last action (None: none), the outcome and score of a finished drill, and since when the status holds."""

    trainee: str
    status: str
    host: str = ""
    session_id: str | None = None
    drill_id: str | None = None
    mode: str | None = None
    set_id: str | None = None
    drill_time: float | None = None
    paused: bool = False
    speed: float | None = None
    actions: int = 0
    last_action: str | None = None
    idle: float | None = None
    outcome: str | None = None
    total: int | None = None
    since: str | None = None

    @property
    def label(self) -> str:
        return LABELS[self.status]

    @property
    def clock(self) -> str:
        """The drill time as ``mm:ss`` with the speed or ``paused`` (empty without a drill)."""
        if self.drill_time is None:
            return ""
        how = " paused" if self.paused else ("" if self.speed in (None, 1.0) else f" at {self.speed:g}x")
        return clock(self.drill_time) + how


def live_lines(
    rows: Iterable[Any], roster: Sequence[str], now: datetime, *, stuck_after: float = STUCK_AFTER,
    stale_after: float = STALE_AFTER,
) -> list[LiveLine]:  # fmt: skip
    """The live table's lines: every row of ``rows`` (:class:`~warroom.store.live.LiveTab`, any host's), then a
    line for each ``roster`` trainee without a row; by trainee (roster order first), then host."""
    lines = [_line(row, now, stuck_after, stale_after) for row in rows]
    seen = {line.trainee for line in lines}
    lines += [LiveLine(name, "absent") for name in roster if name not in seen]
    order = {name: i for i, name in enumerate(roster)}
    return sorted(lines, key=lambda x: (order.get(x.trainee, len(order)), x.trainee, x.status == "absent", x.host))


def _line(row: Any, now: datetime, stuck_after: float, stale_after: float) -> LiveLine:
    status = row.state
    heartbeat = _seconds_since(now, row.heartbeat_at)
    drill_time = None
    if status == "playing":
        drill_time = row.drill_time or 0.0
        elapsed = _seconds_since(now, row.clock_at)
        if elapsed is not None and not row.paused:
            drill_time += max(elapsed, 0.0) * (row.speed or 1.0)
    idle = _seconds_since(now, row.last_action_at or (row.clock_at if row.state == "playing" else None))
    if status == "playing" and idle is not None and idle >= stuck_after:
        status = "stuck"
    if heartbeat is None or heartbeat > stale_after:
        status = "lost"
    since = row.ended_at if row.state in ("finished", "disconnected") else row.connected_at
    return LiveLine(
        trainee=row.trainee, status=status, host=row.host.split("#")[0], session_id=row.session_id,
        drill_id=row.drill_id, mode=row.mode, set_id=row.set_id, drill_time=drill_time, paused=row.paused,
        speed=row.speed, actions=row.actions, last_action=row.last_action, idle=idle, outcome=row.outcome,
        total=row.total, since=since,
    )  # fmt: skip


def _seconds_since(now: datetime, text: str | None) -> float | None:
    """Seconds from the ISO 8601 UTC time ``text`` to ``now`` (None for no time, or one that does not read)."""
    if not text:
        return None
    from datetime import UTC

    try:
        then = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    if then.tzinfo is None:
        then = then.replace(tzinfo=UTC)
    return (now - then).total_seconds()


def live_counts(lines: Sequence[LiveLine]) -> dict[str, int]:
    """How many lines have each status (trainees not signed in counted once each)."""
    out = dict.fromkeys(LABELS, 0)
    for line in lines:
        out[line.status] += 1
    return out
