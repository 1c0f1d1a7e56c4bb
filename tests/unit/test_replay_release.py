"""The replay's release search (a galloping search from the next event) releases exactly what a bisection would."""

from __future__ import annotations

import random
from bisect import bisect_right

from core_support import make_drill

from warroom.core.play import Replay
from warroom.core.play._queue import release_end


def test_release_end_matches_bisect_right():
    rng = random.Random(8)
    for _ in range(300):
        times = sorted(rng.choice([0.0, 0.5, 1.0, 2.0, 3.5, 7.0, 7.0, 12.0]) for _ in range(rng.randint(0, 40)))
        for lo in range(len(times) + 1):
            for t in (-1.0, 0.0, 0.4, 1.0, 2.0, 6.9, 7.0, 11.0, 12.0, 100.0):
                expected = max(lo, bisect_right(times, t, lo=lo))
                assert release_end(times, t, lo) == expected, (times, t, lo)


def test_ticks_of_any_size_release_every_event_once_in_order():
    drill = make_drill()
    times = [e.t for e in drill.trace]
    for tick in (0.1, 0.5, 1.0, 3.0, 1000.0):
        replay = Replay(drill)
        seen = list(replay.advance(0))
        while not replay.ended:
            released = replay.advance(tick)
            now = replay.now
            assert all(e.t <= now for e in released)
            assert replay.next_event_time is None or replay.next_event_time > now
            seen.extend(released)
        assert [e.id for e in seen] == [e.id for e in drill.trace], tick
        assert [e.t for e in seen] == times


def test_only_model_calls_are_charged():
    drill = make_drill()
    replay = Replay(drill)
    replay.run_to_end()
    calls = [e for e in drill.trace if getattr(e, "usage", None) is not None]
    assert calls, "the test drill has model calls"
    assert replay.cost.calls == len(calls)
    assert replay.cost.tokens == sum(e.usage.input_tokens + e.usage.output_tokens for e in calls)
