"""The order of a data directory's queued sessions (docs/cohorts.md, "Claim a start time"): sessions queued while a
shared store was out of reach are stored, when it is back, in the order they were played in that data directory,
not in the order of their start times, which the machine's clock sets. A trainee's machine offline played a drill
poorly, its debrief was read, the clock was set back (by hand, or by a clock that was fast and was corrected), and
the drill was played again, well: the two were synced in start order, so the informed replay was stored first and
became the trial, a hit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from unit.test_forgeries import GOOD, play
from unit.test_issue30_results_leftovers import LATE, _ann
from warroom.store.errors import StoreUnreachable
from warroom.store.journal import _recorder, recover_unfinished
from warroom.store.results import ResultsStore


def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every session ending from now on finds the shared store out of reach: it is queued in the data directory."""

    def unreachable(*args: object, **kwargs: object) -> bool:
        raise StoreUnreachable("the server is down")

    monkeypatch.setattr(ResultsStore, "insert", unreachable)


def test_sessions_queued_offline_are_stored_in_the_order_they_were_played_whatever_the_clock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    with monkeypatch.context() as m:
        offline(m)
        poor = play(tmp_path, "ann", [LATE], mode="assessment")
        m.setattr(_recorder, "utc_now", lambda: "2025-01-01T00:00:00.000000+00:00")  # the clock set back a year
        m.setattr(_recorder, "new_session_id", lambda now=None: "20250101-000000-aaaa")
        good = play(tmp_path, "ann", GOOD, mode="assessment")
        assert poor.queued and good.queued and good.session_id < poor.session_id  # its journal's name sorts first
    recovered = recover_unfinished(tmp_path)  # the store is back: `warroom store sync`
    assert [r.session_id for r in recovered if r.stored] == [poor.session_id, good.session_id]
    with ResultsStore(tmp_path) as store:
        assert _ann(store) == [(1, 1, 0, 1)] * 2  # the poor session is the trial, the informed one a replay


def test_journals_say_the_order_they_were_started_in_and_an_older_journal_comes_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """Each journal's start line numbers it after every journal waiting in the data directory (``order``); a
    journal without the number (written by an older warroom) is delivered before the numbered ones, by name."""
    with monkeypatch.context() as m:
        offline(m)
        first, second = play(tmp_path, "ann", [LATE]), play(tmp_path, "ann", [LATE])
    starts = {
        rec.session_id: json.loads(rec.journal_path.read_text().split("\n", 1)[0]) for rec in (first, second)
    }
    assert [starts[r.session_id]["order"] for r in (first, second)] == [1, 2]
    path = second.journal_path
    start, rest = path.read_text().split("\n", 1)
    path.write_text(json.dumps({k: v for k, v in json.loads(start).items() if k != "order"}) + "\n" + rest)
    recovered = recover_unfinished(tmp_path)
    assert [r.session_id for r in recovered if r.stored] == [second.session_id, first.session_id]


def _play_out(recorder: object, actions: list) -> None:
    """Play ``actions`` in a session a war room started (``Services.start_session``'s recorder) and end it."""
    from warroom.core.play import Replay
    from warroom.core.scoring import score

    inner = recorder.inner  # type: ignore[attr-defined]
    replay = Replay(inner.drill, on_action=inner.record)
    for a in actions:
        replay.advance_to(a.t)
        if a.kind.value == "inspect":
            replay.inspect(a.event)
        else:
            replay.escalate(a.step, a.note, a.cites)
    inner.finish(score(inner.drill, inner.actions))


def test_two_data_directories_on_one_store_play_a_drill_at_once_and_the_first_stored_is_the_trial(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, store_url: str
):
    """docs/cohorts.md, "Play a drill in two windows at once": a data directory refuses a second session of a drill
    its trainee is playing there, but two data directories on one shared store (two terminals with their own
    `--data-dir`, two machines) know nothing of each other's live sessions: both start, both are stored, and the
    one stored first is the trial, whichever was started first; the trainee chooses it by ending it first."""
    from store_support import bundled_drill_path, load

    from warroom.tui.logic import Services

    monkeypatch.setenv("WARROOM_STORE", store_url)
    path = bundled_drill_path()
    one, two = (Services(trainee="ann", data_dir=tmp_path / d, mode="assessment") for d in ("one", "two"))
    started_first = one.start_session(path, load(path))
    second = two.start_session(path, load(path))  # not refused: the other data directory's session is not seen
    _play_out(second, GOOD)  # ended first: the trial, a hit
    _play_out(started_first, [LATE])
    with ResultsStore(tmp_path / "one") as store:
        assert _ann(store) == [(1, 1, 1, 1)] * 2
