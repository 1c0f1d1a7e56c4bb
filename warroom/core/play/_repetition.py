"""Format 2: repeated events (``repeat: {count, interval}``) as the replay releases them.

A repeated event happens ``count`` times: at ``t``, ``t + interval``, ... ``t + (count - 1) x interval``. The
replay releases every repetition on the drill clock; each one costs its model call and does its damage (a runaway
loop costs what it really costs). The trace table shows the event once, with how many repetitions have happened
(``x58``). :func:`occurrences` lays a list of events out as the replay's queue.
"""

from __future__ import annotations

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
