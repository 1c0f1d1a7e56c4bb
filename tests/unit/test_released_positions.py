"""The replay's released positions (``Replay.released_positions``): each released event's id and its row in
``Replay.released``, kept as events and probe results are released, which the escalation dialog reads instead of
indexing every released event when it opens."""

from __future__ import annotations

import pytest

from warroom.core.library import bundled_drills_dir
from warroom.core.load import load_drill
from warroom.core.play import Replay


def _positions_match(replay: Replay) -> None:
    assert dict(replay.released_positions) == {e.id: n for n, e in enumerate(replay.released)}


def test_the_positions_follow_the_play_probe_results_included():
    drill = load_drill(bundled_drills_dir() / "api-dns-cutover.yaml")
    replay = Replay(drill)
    assert dict(replay.released_positions) == {}
    probe, asked = drill.probes[0], False
    while not replay.ended:
        replay.advance(1.0)
        _positions_match(replay)
        if not asked and any(e.step == probe.step for e in replay.released):
            replay.probe(probe.id)
            asked = True
    ids = [e.id for e in replay.released]
    assert replay.released_positions[probe.id] == ids.index(probe.id) > 0  # the probe's result, at its row
    assert len(replay.released_positions) == len(replay.released) > 10


def test_the_positions_are_a_read_only_view():
    replay = Replay(load_drill(bundled_drills_dir() / "duplicate-charge-refunds.yaml"))
    view = replay.released_positions
    replay.advance(30.0)
    assert len(view) == len(replay.released) > 0  # the same view follows the play
    with pytest.raises(TypeError):
        view["e01"] = 5  # type: ignore[index]
