"""Re-timing for reading (warroom.importers.kit._retime): the gaps a trainee needs to read a result before the next
event, added without changing the order of events (docs/importing.md, "Re-timing for reading")."""

from __future__ import annotations

from typing import Any

from warroom.importers.kit._retime import stretch_after, stretch_reading


def _trace(*events: tuple[str, float, str]) -> list[dict[str, Any]]:
    return [{"id": i, "t": t, "kind": k} for i, t, k in events]


def test_stretch_after_moves_every_later_event_by_the_same_amount() -> None:
    trace = _trace(("a", 0.0, "tool_call"), ("b", 1.0, "tool_result"), ("c", 2.5, "executor_message"),
                   ("d", 4.0, "tool_call"))
    assert stretch_after(trace, "b", 10.0) == 8.5
    assert [e["t"] for e in trace] == [0.0, 1.0, 11.0, 12.5]  # the later events keep their own gaps


def test_stretch_after_keeps_events_released_with_the_evidence_and_long_gaps() -> None:
    trace = _trace(("r1", 3.0, "tool_result"), ("r2", 3.0, "tool_result"), ("m", 20.0, "executor_message"))
    assert stretch_after(trace, "r1", 10.0) == 0.0  # r2 is released with it; m comes 17 s later already
    assert [e["t"] for e in trace] == [3.0, 3.0, 20.0]
    assert stretch_after(trace, "m", 10.0) == 0.0  # the last event: nothing to move


def test_stretch_reading_puts_the_reading_time_after_results_and_model_outputs() -> None:
    trace = _trace(("call", 0.0, "tool_call"), ("r1", 1.0, "tool_result"), ("r2", 1.0, "tool_result"),
                   ("msg", 2.0, "executor_message"), ("pay", 3.0, "tool_call"), ("done", 30.0, "tool_result"))
    assert stretch_reading(trace, 6.0) == (2, 10.0)
    # the batch's results stay together; 6 s after them the message; 6 s after it the next call; the long gap stays
    assert [e["t"] for e in trace] == [0.0, 1.0, 1.0, 7.0, 13.0, 40.0]
