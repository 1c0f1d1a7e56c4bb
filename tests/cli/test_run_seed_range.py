"""`warroom run --seed N` takes exactly the seeds a session can store: a bigger one is refused before the drill
starts (it used to play, then fail to be stored at the end of the drill)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from store_support import bundled_drills_dir

from warroom.cli import main
from warroom.core.load import load_drill
from warroom.core.load.limits import MAX_SEED
from warroom.core.model import Action, ActionKind
from warroom.core.scoring import score
from warroom.store.journal import SessionRecorder
from warroom.store.results import ResultsStore

DRILL = "late-delivery-replies"


@pytest.fixture
def launched(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr("warroom.tui.app.launch", lambda settings, **kw: calls.append(kw))
    return calls


def test_a_seed_bigger_than_the_store_takes_is_refused_before_play(tmp_path: Path, launched):
    r = CliRunner().invoke(main, ["--data-dir", str(tmp_path / "d"), "run", DRILL, "--seed", str(MAX_SEED + 1)])
    assert r.exit_code == 2 and launched == []
    assert "Invalid value for '--seed'" in r.stderr and str(MAX_SEED) in r.stderr


def test_the_largest_seed_run_takes_is_played_and_stored(tmp_path: Path, launched):
    r = CliRunner().invoke(main, ["--data-dir", str(tmp_path / "d"), "run", DRILL, "--seed", str(MAX_SEED)])
    assert r.exit_code == 0, r.output
    assert launched[-1]["seed"] == MAX_SEED
    path = bundled_drills_dir() / f"{DRILL}.yaml"
    rec = SessionRecorder.start(tmp_path / "d", "ann", path, load_drill(path), seed=MAX_SEED)
    rec.record(Action(t=1.0, kind=ActionKind.QUIT))
    rec.finish(score(rec.drill, rec.actions))
    with ResultsStore(tmp_path / "d") as store:
        (row,) = store.query()
    assert row.seed == MAX_SEED
