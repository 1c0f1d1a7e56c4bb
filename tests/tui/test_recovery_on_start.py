"""A session killed mid-drill is recorded as abandoned, with every action, when the terminal UI next starts."""

from __future__ import annotations

from warroom.core.load import load_drill
from warroom.core.play import Replay
from warroom.store.journal import SessionRecorder
from warroom.store.results import ResultsStore

from .conftest import STALE, make_app, picker_ready, record_notifications


async def test_start_recovers_a_killed_session_as_abandoned(services):
    drill = load_drill(STALE)
    recorder = SessionRecorder.start(services.data_dir, services.trainee, STALE, drill)
    replay = Replay(drill, on_action=recorder.record)
    replay.advance(13)
    replay.inspect("e04")
    replay.flag("e04", "snapshot from last week")
    recorder.close()  # the process dies here: no end line, no stored result

    app = make_app(services, drill_path=None)
    messages = record_notifications(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await picker_ready(pilot)
        assert any(recorder.session_id in m and "abandoned" in m for m in messages), messages

    with ResultsStore(services.data_dir) as store:
        stored = store.get(recorder.session_id)
    assert stored.outcome == "abandoned"
    kinds = [a["kind"] if isinstance(a, dict) else a.kind for a in stored.actions]
    assert kinds[:2] == ["inspect", "flag"] and kinds[-1] == "quit"
