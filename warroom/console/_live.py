"""The live class as the console shows it: one line per browser tab of the live table (every host's), and one per roster
trainee who is not signed in, with what each is doing now.

A tab's status is its state in the live table (signed in, on the picker, playing, finished, taken over by another tab of
its trainee, disconnected; **left** when it disconnected after its drill ended, not abandoned), made **stuck** when
it plays a drill and no action was recorded for ``stuck_after`` seconds (the drill's start counts as its first
action), and **host lost** when its host's heartbeat is older than
``stale_after`` seconds (that host stopped or cannot reach the database: its tabs' state is unknown). The drill time of
a drill being played is the drill clock's last reading in the journal carried forward at its speed (unless paused):
``about`` it, since a false escalation's jump is only recorded with the next action.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
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
    "left": "finished, tab closed",
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
    #: The line's identity across updates: its host and tab (:func:`absent_key` for a trainee not signed in).
    key: str = ""
    #: The drill clock's last reading in the journal (seconds) and its wall time: a page carries it forward itself.
    reading: float | None = None
    clock_at: str | None = None
    #: The wall time of the last action (or of the drill's start): a page counts the seconds since itself.
    idle_since: str | None = None

    @property
    def label(self) -> str:
        return LABELS[self.status]

    @property
    def clock_how(self) -> str:
        """How the drill clock runs: `` paused``, `` at 2x``, or nothing (at 1x, or no drill)."""
        if self.drill_time is None:
            return ""
        return " paused" if self.paused else ("" if self.speed in (None, 1.0) else f" at {self.speed:g}x")

    @property
    def clock(self) -> str:
        """The drill time as ``mm:ss`` with the speed or ``paused`` (empty without a drill)."""
        return "" if self.drill_time is None else clock(self.drill_time) + self.clock_how

    @property
    def ticking(self) -> bool:
        """True when a page carries the drill clock forward (a drill being played, not paused, its reading known)."""
        return self.status in ("playing", "stuck") and not self.paused and self.clock_at is not None

    @property
    def reading_time(self) -> str:
        """The drill clock's last reading as ``mm:ss`` (what a page shows before it carries it forward)."""
        if self.drill_time is None:
            return ""
        return clock(self.drill_time if self.reading is None else self.reading)


def live_lines(
    rows: Iterable[Any], roster: Sequence[str], now: datetime, *, stuck_after: float = STUCK_AFTER,
    stale_after: float = STALE_AFTER,
) -> list[LiveLine]:  # fmt: skip
    """The live table's lines: every row of ``rows`` (:class:`~warroom.store.live.LiveTab`, any host's), then a
    line for each ``roster`` trainee without a row; by trainee (roster order first), then host."""
    lines = [_line(row, now, stuck_after, stale_after) for row in rows]
    seen = {line.trainee for line in lines}
    lines += [LiveLine(name, "absent", key=absent_key(name)) for name in roster if name not in seen]
    order = {name: i for i, name in enumerate(roster)}
    return sorted(lines, key=lambda x: (order.get(x.trainee, len(order)), x.trainee, x.status == "absent", x.host))


def absent_key(name: str) -> str:
    """The key of the line of a roster trainee not signed in: ``absent/`` and a digest of the name (a key names no
    one: the page holds each name where it is shown, no more)."""
    import hashlib

    return "absent/" + hashlib.sha256(name.encode()).hexdigest()[:16]


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
    if status == "disconnected" and row.outcome and row.outcome != "abandoned":
        status = "left"  # the drill ended, then the tab closed: not the mid-drill loss "disconnected" warns of
    if heartbeat is None or heartbeat > stale_after:
        status = "lost"
    since = row.ended_at if row.state in ("finished", "disconnected") else row.connected_at
    return LiveLine(
        trainee=row.trainee, status=status, host=row.host.split("#")[0], session_id=row.session_id,
        drill_id=row.drill_id, mode=row.mode, set_id=row.set_id, drill_time=drill_time, paused=row.paused,
        speed=row.speed, actions=row.actions, last_action=row.last_action, idle=idle, outcome=row.outcome,
        total=row.total, since=since, key=f"{row.host}/{row.tab}",
        reading=(row.drill_time or 0.0) if row.state == "playing" else None, clock_at=row.clock_at,
        idle_since=row.last_action_at or (row.clock_at if row.state == "playing" else None),
    )  # fmt: skip


def parse_utc(text: str | None) -> datetime | None:
    """The datetime of an ISO 8601 time of the live table or a journal (``Z`` or an offset; none: UTC); None for no
    time, or one that does not read."""
    if not text:
        return None
    try:
        value = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def _seconds_since(now: datetime, text: str | None) -> float | None:
    """Seconds from the ISO 8601 UTC time ``text`` to ``now`` (None for no time, or one that does not read)."""
    then = parse_utc(text)
    return None if then is None else (now - then).total_seconds()


def live_counts(lines: Sequence[LiveLine]) -> dict[str, int]:
    """How many lines have each status (trainees not signed in counted once each)."""
    out = dict.fromkeys(LABELS, 0)
    for line in lines:
        out[line.status] += 1
    return out


def live_rows(lines: Sequence[LiveLine], render_row: Any) -> dict[str, str]:
    """Each line's HTML (``render_row(line)``), by its :attr:`LiveLine.key`, in the table's order. A line's HTML
    depends on what changed in the class only (not on the time: a page carries drill clocks and idle times forward
    itself), so that an update holds the lines that changed."""
    return {line.key: render_row(line) for line in lines}


def live_delta(before: dict[str, str], after: dict[str, str]) -> list[list[str | None]]:
    """What turns the table of rows ``before`` into ``after`` (both by key, in the table's order): ``[key, html,
    previous]`` for each line new or changed (``previous``: the key of the line it follows, None at the top; a line
    keeps its place among the others), then ``[key, None, None]`` for each line gone."""
    out: list[list[str | None]] = []
    previous: str | None = None
    for key, html in after.items():
        if before.get(key) != html:
            out.append([key, html, previous])
        previous = key
    out += [[key, None, None] for key in before if key not in after]
    return out
