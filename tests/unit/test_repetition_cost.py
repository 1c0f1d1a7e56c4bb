"""A repeated event (format 2 ``repeat``) costs, in the replay's meters, exactly what its repetitions written out
as plain events cost: the replay resolves a repeated event's model call once and reuses it
(warroom.core.model)."""

from __future__ import annotations

from warroom.core.library import bundled_drills_dir
from warroom.core.load import load_drill
from warroom.core.model import Repeat
from warroom.core.play import Replay


def _played(drill):  # type: ignore[no-untyped-def]
    replay = Replay(drill)
    while not replay.ended:
        replay.advance(0.5)
    return replay.cost


def test_a_repeated_call_costs_what_its_repetitions_written_out_cost() -> None:
    base = load_drill(bundled_drills_dir() / "idle-volume-cleanup.yaml")
    trace = list(base.trace)
    i = next(k for k, e in enumerate(trace) if e.repeat is None and getattr(e, "usage", None) is not None)
    ev = trace[i]
    repeated = list(trace)
    repeated[i] = ev.model_copy(update={"repeat": Repeat(count=25, interval=0.01)})
    plain = list(trace)
    plain[i + 1 : i + 1] = [ev.model_copy(update={"id": f"{ev.id}x{k}", "t": ev.t + k * 0.01}) for k in range(1, 25)]
    plain.sort(key=lambda e: e.t)
    a = _played(base.model_copy(update={"trace": repeated}))
    b = _played(base.model_copy(update={"trace": plain}))
    assert a.calls == b.calls > 25
    assert a.tokens == b.tokens
    assert a.tokens_by_agent == b.tokens_by_agent
    assert {k: round(v, 9) for k, v in a.usd_by_model.items()} == {k: round(v, 9) for k, v in b.usd_by_model.items()}
    assert {k: round(v, 9) for k, v in a.usd_by_step.items()} == {k: round(v, 9) for k, v in b.usd_by_step.items()}
