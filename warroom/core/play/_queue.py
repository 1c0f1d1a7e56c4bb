"""The release queue of a replay: the events it releases on the drill clock, in order, found by a galloping search
(:class:`ReleaseQueue`), with format 2's repeated events laid out (:func:`occurrences`).

A repeated event (``repeat: {count, interval}``) happens ``count`` times: at ``t``, ``t + interval``, ... ``t + (count -
1) x interval``. The
replay releases every repetition on the drill clock; each one costs its model call and does its damage (a runaway
loop costs what it really costs). The trace table shows the event once, with how many repetitions have happened
(``x58``). :func:`occurrences` lays a list of events out as the replay's queue.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from typing import Any


def occurrences(events: Sequence[Any]) -> tuple[list[Any], list[float], list[int] | None]:
    """The replay queue of ``events`` (in drill-time order): ``(events, times, repetition numbers)``.

    With no repeated event, the events as they are, their times and None (no work per event beyond that). Else
    one entry per repetition (number 0 is the event itself, 1 the first repetition...), ordered by drill time,
    then by the events' order, then by repetition number. Work and memory are linear in the repetitions.
    """
    if not any(getattr(e, "repeat", None) is not None for e in events):
        return list(events), [e.t for e in events], None
    items: list[tuple[float, int, int, Any]] = []
    for order, e in enumerate(events):
        repeat = e.repeat
        if repeat is None:
            items.append((e.t, order, 0, e))
            continue
        for k in range(repeat.count):
            items.append((e.t + k * repeat.interval, order, k, e))
    items.sort(key=lambda item: item[:3])
    return [i[3] for i in items], [i[0] for i in items], [i[2] for i in items]


def release_end(times: list[float], t: float, lo: int) -> int:
    """Index just past the last entry of the sorted ``times`` that is ``<= t``, searching from ``lo``.

    A galloping search: O(1) when nothing is due (most ticks) and O(log k) when k events are due, so the work per
    tick never grows with the trace's length (a plain bisection over the rest of the trace costs O(log n)).
    """
    n = len(times)
    if lo >= n or times[lo] > t:
        return lo
    step = 1
    hi = lo + 1
    while hi < n and times[hi] <= t:
        lo = hi
        step *= 2
        hi = lo + step
    return bisect_right(times, t, lo, min(hi, n))


class ReleaseQueue:
    """The events a replay releases on the drill clock, in order, with format 2's repetitions laid out
    (:func:`occurrences`): ``events``, their ``times`` (seconds of drill time), their
    repetition numbers ``reps`` (None when no event repeats) and ``next``, the index of the next one to release."""

    def __init__(self, events: Any) -> None:
        self.events, self.times, self.reps = occurrences(events)
        self.next = 0

    @property
    def done(self) -> bool:
        """True once every entry has been released."""
        return self.next >= len(self.events)

    @property
    def next_time(self) -> float | None:
        """Drill time of the next entry to release, or None when nothing is left."""
        return self.times[self.next] if self.next < len(self.events) else None

    @property
    def last_time(self) -> float | None:
        """Drill time of the last entry still to release, or None when nothing is left."""
        return self.times[-1] if self.next < len(self.events) else None

    def take(self, t: float) -> tuple[int, int]:
        """Mark the entries due at drill time ``t`` released; returns their index range ``(start, end)``."""
        start = self.next
        self.next = release_end(self.times, t, start)
        return start, self.next
