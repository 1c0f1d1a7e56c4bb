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


def _killed(data_dir, trainee: str) -> str:
    """A session of ``trainee`` whose process died mid-drill in the shared ``data_dir``; its id."""
    drill = load_drill(STALE)
    recorder = SessionRecorder.start(data_dir, trainee, STALE, drill)
    replay = Replay(drill, on_action=recorder.record)
    replay.advance(13)
    replay.inspect("e04")
    recorder.close()
    return recorder.session_id


async def test_another_trainee_s_killed_session_is_never_shown_but_told_to_them_at_their_next_start(tmp_path):
    """A shared data folder (issue 30, item 4): bob's start neither recovers nor names ann's killed session; a
    facilitator's command recovers it, and ann alone is told, at her next start, once."""
    from click.testing import CliRunner

    from warroom.cli import main
    from warroom.tui.logic import Services

    data = tmp_path / "shared"
    ann_session = _killed(data, "ann")
    bob = Services(trainee="bob", data_dir=data)
    app = make_app(bob, drill_path=None)
    messages = record_notifications(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await picker_ready(pilot)
    assert messages == [] and (data / "journals" / f"{ann_session}.jsonl").exists()  # left for ann

    result = CliRunner().invoke(main, ["scores", "--data-dir", str(data)], env={"WARROOM_TRAINEE": "fac"})
    assert result.exit_code == 0, result.output
    assert "recovered 1 session of other trainees" in result.stderr and ann_session not in result.stderr
    for trainee, expected in (("bob", []), ("ann", [ann_session]), ("ann", [])):
        app = make_app(Services(trainee=trainee, data_dir=data), drill_path=None)
        messages = record_notifications(app)
        async with app.run_test(size=(80, 24)) as pilot:
            await picker_ready(pilot)
        assert [m for m in messages if ann_session in m] == [
            m for m in messages if any(e in m for e in expected)
        ] and len(messages) == len(expected), (trainee, messages)
