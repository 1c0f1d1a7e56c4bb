"""A fifth fresh hostile campaign on issue 30's promises about results (docs/reliability.md, docs/cohorts.md, "What a
trainee can and cannot do to their results"): hand-edited SQLite stores, killed journals of odd action sequences,
export and import round trips and the figures, as a hostile trainee or a faulty world would attack them; each case
it found, with the right behaviour."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from unit.test_forgeries import GOOD, play
from warroom.cli import main
from warroom.core.model import Action, ActionKind


@pytest.mark.parametrize("version", [-1, -2147483648])
@pytest.mark.parametrize("command", [["scores"], ["scores", "verify"], ["store", "status"]])
def test_a_store_whose_schema_version_is_negative_is_damaged_not_a_traceback(
    tmp_path: Path, version: int, command: list[str]
):
    """A SQLite store whose ``PRAGMA user_version`` was set below 0 by hand: opening it ran the migrations from
    that version and every command died with ``KeyError: 0`` (a traceback). No warroom writes such a version: the
    store is damaged, named with what to do, exit status 1, and the file is left as it was."""
    play(tmp_path, "ann", GOOD)
    db = tmp_path / "results.sqlite3"
    with sqlite3.connect(db) as conn:
        conn.execute(f"PRAGMA user_version = {version}")
    before = db.read_bytes()
    result = CliRunner().invoke(main, [*command, "--data-dir", str(tmp_path)])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.exception
    assert f"the results store {db} has schema version {version}, which no warroom writes" in result.output
    assert "rename it to results.sqlite3.damaged" in result.output
    assert "Traceback" not in result.output
    assert db.read_bytes() == before


def test_an_assessment_session_cannot_be_played_on_a_seed_the_trainee_picked(tmp_path: Path, monkeypatch):
    """``--as`` was refused in assessment mode, but ``--seed`` was not: a seed picks the variant and, for a drill
    with a twin, the signal or noise trial (``warroom scores`` shows every session's seed, and the same seed always
    draws the same trial), so a trainee could take an assessment knowing beforehand that it is a noise trial (do
    nothing: a correct rejection) or a signal trial. It is a usage error; in practice a seed is still replayed."""
    from store_support import bundled_drill_path

    import warroom.tui.app as app
    from warroom.core.library import bundled_drills_dir

    twin = next(p for p in sorted(bundled_drills_dir().glob("*.yaml")) if "\ntwin:" in p.read_text(encoding="utf-8"))
    launched: list[dict] = []
    monkeypatch.setattr(app, "launch", lambda settings, **kw: launched.append(kw))
    data = ["--data-dir", str(tmp_path)]
    for drill in (twin, bundled_drill_path()):
        r = CliRunner().invoke(main, [*data, "run", str(drill), "--mode", "assessment", "--seed", "7"])
        assert r.exit_code == 2, r.output
        assert "--seed: an assessment session draws its seed, unseen" in r.output
        r = CliRunner().invoke(main, [*data, "--mode", "assessment", "run", str(drill), "--seed", "7"])
        assert r.exit_code == 2 and "an assessment session draws its seed" in r.output, r.output
    assert launched == []
    r = CliRunner().invoke(main, [*data, "run", str(twin), "--mode", "practice", "--seed", "7"])
    assert r.exit_code == 0, r.output
    assert launched[-1]["seed"] == 7 and launched[-1]["mode"] == "practice"


def test_a_killed_assessment_session_counts_as_a_miss_once_its_data_directory_recovers_it(tmp_path: Path):
    """docs/sessions.md, "Quitting is a response in assessment", and docs/cohorts.md, "Make a poor attempt vanish by
    killing it": an assessment session killed outright is only a journal until a warroom started on its data
    directory recovers it; then it is the first attempt, a miss, and a later good session of the drill a replay."""
    from store_support import bundled_drill_path, load

    from unit.test_forgeries import killed_journal
    from warroom.core.model import PlayedAs
    from warroom.core.scoring import score
    from warroom.store.journal import SessionRecorder, Trial, recover_unfinished

    data = tmp_path / "data"
    signal = Trial(played_as=PlayedAs.SIGNAL)
    sid = killed_journal(data, bundled_drill_path(), {"mode": "assessment", "trainee": "ann"}, [], trial=signal)
    with sqlite3.connect(data / "results.sqlite3") as conn:
        assert conn.execute("SELECT count(*) FROM sessions").fetchone() == (0,)  # not stored yet: only a journal
    # the war room's start (warroom.tui.logic._services) recovers the trainee's killed sessions before a new one
    # starts: stored first, the killed session is the first attempt (the store's order, stored_seq, decides)
    recover_unfinished(data, trainee="ann")
    drill = load(bundled_drill_path())
    rec = SessionRecorder.start(data, "ann", bundled_drill_path(), drill, mode="assessment", trial=signal)
    for action in GOOD:
        rec.record(action)
    rec.finish(score(rec.drill, rec.actions))
    result = CliRunner().invoke(main, ["scores", "summary", "--format", "json", "--data-dir", str(data)])
    assert result.exit_code == 0, result.output
    (ann,) = json.loads(result.stdout)["trainees"]
    assert (ann["signal_trials"], ann["hits"], ann["misses"], ann["replays"], ann["abandoned"]) == (1, 0, 1, 1, 1)
    with sqlite3.connect(data / "results.sqlite3") as conn:
        assert conn.execute("SELECT outcome FROM sessions WHERE session_id = ?", (sid,)).fetchone() == ("abandoned",)


@pytest.mark.parametrize("actions", [[], [Action(t=36.0, kind=ActionKind.INSPECT, event="e01")]])
def test_an_assessment_journal_claiming_a_noise_trial_its_seed_does_not_draw_is_flagged(tmp_path: Path, actions):
    """A killed assessment journal whose start line was edited from the signal trial its seed draws to a noise
    trial (``played_as: noise`` and ``all_clear: true``, the twin's): recovery and ``verify`` scored it on the twin
    and found it right, so a miss could stand as no false alarm. An assessment session outside a drill set plays
    the trial its seed draws (``--as`` and ``--seed`` are refused there): any other claim disagrees."""
    from store_support import bundled_drill_path, load

    from unit.test_forgeries import killed_journal, recovered_verdict
    from warroom.core.model import PlayedAs
    from warroom.core.variants import draw_played_as
    from warroom.store.journal import Trial
    from warroom.store.review import Verdict

    drill = load(bundled_drill_path())
    seed = next(s for s in range(100) if draw_played_as(drill, s) is PlayedAs.SIGNAL)
    claim = {"mode": "assessment", "played_as": "noise", "all_clear": True}
    sid = killed_journal(tmp_path, bundled_drill_path(), claim, actions, seed=seed, trial=Trial(PlayedAs.SIGNAL))
    state, reason, verdict = recovered_verdict(tmp_path, sid)
    assert (state, verdict) == ("disagrees", Verdict.DISAGREES)
    assert reason == (f"played_as 'noise' is stored, but an assessment session of this drill with seed {seed} is a "
                      "signal trial (drawn from its seed, outside a drill set)")  # fmt: skip


def test_a_practice_session_may_still_be_played_as_the_trial_asked_for(tmp_path: Path):
    """``--as noise`` in practice (for authors) is a noise trial whatever its seed draws: it stays verified (recorded
    as chosen, so no figure counts it: tests/unit/test_chosen_trial.py)."""
    from store_support import bundled_drill_path, load

    from unit.test_forgeries import killed_journal, recovered_verdict
    from warroom.core.model import PlayedAs
    from warroom.core.variants import draw_played_as
    from warroom.store.journal import Trial
    from warroom.store.review import Verdict

    seed = next(s for s in range(100) if draw_played_as(load(bundled_drill_path()), s) is PlayedAs.SIGNAL)
    trial = Trial(PlayedAs.NOISE, chosen=True)
    sid = killed_journal(tmp_path, bundled_drill_path(), {}, [], seed=seed, trial=trial)
    assert recovered_verdict(tmp_path, sid) == (None, "", Verdict.VERIFIED)
