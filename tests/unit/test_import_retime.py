"""Re-timing for reading (warroom.core.author._retime): the gaps a trainee needs to read a result before the next
event, added without changing the order of events (docs/importing.md, "Re-timing for reading")."""

from __future__ import annotations

from typing import Any

from warroom.core.author import stretch_after, stretch_reading


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


def _batched() -> list[dict[str, Any]]:
    """A chat import's parallel batch (two calls of one model turn, answered 2 s apart), then the next message."""
    return [
        {"id": "c1", "t": 6.8, "kind": "tool_call", "batch": "m002-batch"},
        {"id": "c2", "t": 8.8, "kind": "tool_call", "batch": "m002-batch"},
        {"id": "r2", "t": 10.8, "kind": "tool_result", "call": "c2"},
        {"id": "r1", "t": 12.8, "kind": "tool_result", "call": "c1"},
        {"id": "msg", "t": 14.8, "kind": "executor_message"},
    ]


def test_stretch_reading_keeps_one_parallel_batch_together() -> None:
    """Issue 35's walk-through: --reading-time stretched the gap between two results of one batch (r2, r1)."""
    trace = _batched()
    assert stretch_reading(trace, 10.0) == (1, 8.0)
    assert [e["t"] for e in trace] == [6.8, 8.8, 10.8, 12.8, 22.8]  # the gap after the batch's last result only


def test_stretch_after_puts_the_gap_after_the_evidence_batch() -> None:
    trace = _batched()
    assert stretch_after(trace, "r2", 10.0) == 8.0  # r1, of r2's batch, stays 2 s after it
    assert [e["t"] for e in trace] == [6.8, 8.8, 10.8, 12.8, 22.8]
