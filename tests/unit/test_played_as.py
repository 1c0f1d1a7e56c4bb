"""Signal or noise per session (warroom/core/variants/_trial.py, warroom/store/journal/_recorder.py,
warroom/store/review/_drill.py; docs/authoring.md "Twins: signal and noise trials"): the documented draw, the
session's record of it (journal start line, the `played_as` column and its migration), and scoring, re-scoring,
recovery and review rebuilding the twin of a noise session."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from locations import TESTS

from warroom.cli import main
from warroom.core.author._examples import example_path
from warroom.core.library import Attempt, Candidate, bundled_drills_dir
from warroom.core.library._adaptive import trainee_level
from warroom.core.load import DrillSetError, load_drill, load_drill_set
from warroom.core.model import Action, ActionKind, PlayedAs, twin_of
from warroom.core.play import Replay
from warroom.core.scoring import score
from warroom.core.variants import VariantError, apply_variant, draw_played_as, session_drill
from warroom.core.variants._apply import draw
from warroom.store.journal import SessionRecorder, Trial, read_journal, recover_unfinished
from warroom.store.results import SCHEMA_VERSION, ResultsStore, SessionInfo
from warroom.store.review import (
    DrillUnavailable,
    RescoreStatus,
    default_drill_resolver,
    load_review,
    rescore,
    resolve_session_drill,
)

DRILL_ID = "fanout-retries"
ALL_CLEAR = TESTS / "fixtures" / "all-clear" / "outage-callback-calls.yaml"  # an all-clear drill, always noise


@pytest.fixture
def path(tmp_path: Path) -> Path:
    """The full example (a fault drill with a twin) as a drill file of its own."""
    dest = tmp_path / "drills" / f"{DRILL_ID}.yaml"
    dest.parent.mkdir(parents=True)
    shutil.copyfile(example_path("full"), dest)
    return dest


# -- the draw ------------------------------------------------------------------------------------------------------


def test_the_draw_is_the_documented_rule(real_noise_draw):
    drill = load_drill(example_path("full"))
    assert real_noise_draw == 0.25
    for seed in range(300):
        noise = draw(seed, "played_as", 1000) < 250
        assert draw_played_as(drill, seed) is (PlayedAs.NOISE if noise else PlayedAs.SIGNAL)
    assert draw(5, "played_as", 1000) == 244 and draw_played_as(drill, 5) is PlayedAs.NOISE  # the same everywhere
    assert draw(0, "played_as", 1000) == 577 and draw_played_as(drill, 0) is PlayedAs.SIGNAL


def test_about_a_quarter_of_sessions_are_noise_and_a_rate_changes_it():
    drill = load_drill(example_path("full"))
    share = sum(draw_played_as(drill, s, 0.25) is PlayedAs.NOISE for s in range(4000)) / 4000
    assert 0.23 < share < 0.27
    assert all(draw_played_as(drill, s, 0.0) is PlayedAs.SIGNAL for s in range(200))
    assert all(draw_played_as(drill, s, 1.0) is PlayedAs.NOISE for s in range(200))
    with pytest.raises(ValueError, match="between 0 and 1"):
        draw_played_as(drill, 1, 1.5)


def test_a_drill_without_a_twin_is_always_signal_and_an_all_clear_drill_always_noise():
    plain = load_drill(example_path("full")).model_copy(update={"twin": None})
    clear = load_drill(ALL_CLEAR)
    assert {draw_played_as(plain, s, 1.0) for s in range(50)} == {PlayedAs.SIGNAL}
    assert {draw_played_as(clear, s, 0.0) for s in range(50)} == {PlayedAs.NOISE}
    with pytest.raises(VariantError, match="has no twin"):
        session_drill(plain, 1, PlayedAs.NOISE)
    with pytest.raises(VariantError, match="an all-clear drill has no fault"):
        session_drill(clear, None, PlayedAs.SIGNAL)


def test_a_noise_session_plays_the_twin_with_the_same_variant_applied_after_it():
    drill = load_drill(bundled_drills_dir() / "late-delivery-replies.yaml")
    for seed in range(20):
        signal, noise = (session_drill(drill, seed, t, by_position=False) for t in (PlayedAs.SIGNAL, PlayedAs.NOISE))
        assert signal == apply_variant(drill, seed) and signal.twin is None
        assert noise == apply_variant(twin_of(drill), seed) and noise.is_all_clear
        shown = session_drill(drill, seed, PlayedAs.SIGNAL)  # (as a session plays it: its ids by position)
        assert [e.id for e in shown.trace] == [f"e{k:02d}" for k in range(1, len(signal.trace) + 1)]
        first = min(e.t for e in signal.trace if e.id in {x for x in drill.twin.replace})
        before = [e for e in signal.trace if e.t < first]
        assert before == noise.trace[: len(before)]  # the same background until the twin differs


# -- the session's record ------------------------------------------------------------------------------------------


def test_a_noise_session_records_it_and_plays_the_twin(tmp_path: Path, path: Path):
    drill = load_drill(path)
    rec = SessionRecorder.start(tmp_path / "data", "ann", path, drill, trial=Trial(PlayedAs.NOISE))
    assert rec.info.played_as == "noise" and rec.info.all_clear and rec.info.seed is not None
    assert rec.drill == session_drill(drill, rec.info.seed, PlayedAs.NOISE)  # the twin, its ids by position
    assert rec.drill.trace[1:] != twin_of(drill).trace[1:] and [e.t for e in rec.drill.trace] == [
        e.t for e in twin_of(drill).trace
    ]
    start = read_journal(rec.journal_path).start
    assert start["played_as"] == "noise"
    replay = Replay(rec.drill, on_action=rec.record)
    replay.run_to_end()
    card = score(rec.drill, rec.actions)
    assert card.outcome.value == "all_clear_held"
    rec.finish(card)
    with ResultsStore(tmp_path / "data") as store:
        row = store.get(rec.session_id)
    assert (row.played_as, row.all_clear, row.outcome) == ("noise", True, "all_clear_held")
    out = CliRunner().invoke(main, ["--data-dir", str(tmp_path / "data"), "scores", "--format", "json"])
    assert json.loads(out.output)[0]["played_as"] == "noise"


def test_the_draw_follows_the_seed_and_the_drill_set_s_rate(tmp_path: Path, path: Path):
    drill = load_drill(path)
    noise_seed = next(s for s in range(100) if draw(s, "played_as", 1000) < 250)
    rec = SessionRecorder.start(tmp_path / "d", "ann", path, drill, seed=noise_seed, trial=Trial(noise_rate=0.25))
    assert rec.info.played_as == "noise" and rec.drill.is_all_clear
    rec.abandon()
    rec = SessionRecorder.start(tmp_path / "d", "ann", path, drill, seed=noise_seed, trial=Trial(noise_rate=0.0))
    assert rec.info.played_as == "signal" and rec.drill.answer_key is not None
    rec.abandon()
    rec = SessionRecorder.start(tmp_path / "d", "ann", path, drill, trial=Trial(PlayedAs.SIGNAL, 1.0))
    assert rec.info.played_as == "signal"  # forced beats drawn
    rec.abandon()


def test_a_noise_trial_of_a_drill_without_a_twin_is_refused(tmp_path: Path):
    from warroom.store.journal import SessionError

    path = bundled_drills_dir() / "tutorial.yaml"
    plain = load_drill(path).model_copy(update={"twin": None})
    with pytest.raises(SessionError, match="cannot be played as a noise trial"):
        SessionRecorder.start(tmp_path / "d", "ann", path, plain, trial=Trial(PlayedAs.NOISE))


def test_an_older_start_line_reads_as_the_trial_it_was():
    base = {"session_id": "s", "trainee": "t", "drill_id": "d", "drill_version": 1, "drill_sha256": None,
            "drill_path": None, "started_at": "2026-01-01T00:00:00+00:00"}
    assert SessionInfo.from_dict({**base, "all_clear": True}).played_as == "noise"
    assert SessionInfo.from_dict({**base, "all_clear": False}).played_as == "signal"
    assert SessionInfo.from_dict({**base, "all_clear": True, "played_as": "noise"}).to_dict()["played_as"] == "noise"
    with pytest.raises(ValueError, match="played_as"):
        SessionInfo.from_dict({**base, "played_as": "maybe"})


def test_migration_13_gives_older_sessions_the_trial_they_were(tmp_path: Path, backend_url: str | None):
    from store_support import add_session, set_version

    with ResultsStore(tmp_path, url=backend_url) as s:
        add_session(s, "fault", trainee="ana", outcome="contained")
        add_session(s, "clear", trainee="ana", outcome="all_clear_held", all_clear=True, ttd=None)
        s.db.conn.execute("ALTER TABLE sessions DROP COLUMN played_as")
        set_version(s, 12)
        if not getattr(s.db.conn, "in_transaction", False) and hasattr(s.db.conn, "commit"):
            s.db.conn.commit()
    with ResultsStore(tmp_path, url=backend_url) as s:
        assert s.schema_version == SCHEMA_VERSION == 25
        assert {r.session_id: r.played_as for r in s.query()} == {"fault": "signal", "clear": "noise"}


def test_an_exported_line_without_played_as_imports_as_the_trial_it_was(tmp_path: Path):
    from store_support import add_session

    with ResultsStore(tmp_path / "a") as s:
        add_session(s, "clear", trainee="ana", outcome="all_clear_held", all_clear=True, ttd=None)
    out = CliRunner().invoke(main, ["--data-dir", str(tmp_path / "a"), "store", "export", "-o", str(tmp_path / "x")])
    assert out.exit_code == 0, out.output
    line = json.loads((tmp_path / "x").read_text(encoding="utf-8").splitlines()[0])
    del line["played_as"]
    (tmp_path / "old.jsonl").write_text(json.dumps(line) + "\n", encoding="utf-8")
    r = CliRunner().invoke(main, ["--data-dir", str(tmp_path / "b"), "store", "import", "--all-trainees",
                                  str(tmp_path / "old.jsonl")])
    assert r.exit_code == 0, r.output
    with ResultsStore(tmp_path / "b") as s:
        assert [row.played_as for row in s.query()] == ["noise"]


def test_an_abandoned_session_does_not_show_what_it_played_as(tmp_path: Path, path: Path):
    rec = SessionRecorder.start(tmp_path / "data", "ann", path, load_drill(path), trial=Trial(PlayedAs.NOISE))
    rec.abandon()
    out = CliRunner().invoke(main, ["--data-dir", str(tmp_path / "data"), "scores", "--format", "json"])
    row = json.loads(out.output)[0]
    assert row["outcome"] == "abandoned" and row["played_as"] is None and row["all_clear"] is None
    assert row["scorecard"].get("played_as") is None


# -- scoring, re-scoring, recovery and review rebuild the twin ---------------------------------------------------


def _escalate_early(rec: SessionRecorder) -> None:
    replay = Replay(rec.drill, on_action=rec.record)
    replay.advance_to(20.0)
    replay.escalate("s1", "the invoice count looks short", cites=["e06"])


def test_rescore_and_review_of_a_noise_session_rebuild_the_twin(tmp_path: Path, path: Path):
    drill = load_drill(path)
    rec = SessionRecorder.start(tmp_path / "data", "ann", path, drill, trial=Trial(PlayedAs.NOISE))
    _escalate_early(rec)
    Replay(rec.drill).run_to_end()
    rec.finish(score(rec.drill, rec.actions))
    with ResultsStore(tmp_path / "data") as store:
        stored = store.get(rec.session_id)
        assert stored.outcome == "false_alarm"
        refused = rescore(store, default_drill_resolver(), rules="4")  # rules 4 would read its ids as authored
        assert [r.status for r in refused] == [RescoreStatus.SKIPPED] and "same side of version 6" in refused[0].message
        results = rescore(store, default_drill_resolver(), rules="6")
        assert [r.status for r in results] in ([RescoreStatus.CHANGED], [RescoreStatus.UNCHANGED])
        again = store.get(rec.session_id)
    assert again.outcome == "false_alarm" and again.scorecard["played_as"] == "noise"
    assert again.scorecard["response"] == "false_alarm"
    found = resolve_session_drill(again.info(), default_drill_resolver())
    assert found.twin and found.drill == session_drill(drill, again.seed, PlayedAs.NOISE) and found.renamed is True
    data = load_review(again)
    assert data.twin and data.drill.is_all_clear


def test_a_killed_noise_session_is_recovered_on_the_twin(tmp_path: Path, path: Path):
    rec = SessionRecorder.start(tmp_path / "data", "ann", path, load_drill(path), trial=Trial(PlayedAs.NOISE))
    _escalate_early(rec)
    rec.close()  # killed: no end line
    recovered = recover_unfinished(tmp_path / "data", default_drill_resolver())
    assert len(recovered) == 1
    with ResultsStore(tmp_path / "data") as store:
        row = store.get(rec.session_id)
    assert (row.played_as, row.outcome, row.recovered) == ("noise", "abandoned", True)
    assert row.scorecard["false_escalations"] == 1  # scored on the twin: the escalation was a false one


def test_a_noise_session_whose_drill_lost_its_twin_cannot_be_rebuilt(tmp_path: Path, path: Path):
    rec = SessionRecorder.start(tmp_path / "data", "ann", path, load_drill(path), trial=Trial(PlayedAs.NOISE))
    rec.abandon()
    text = path.read_text(encoding="utf-8")
    path.write_text(text[: text.index("twin:\n")], encoding="utf-8")
    with ResultsStore(tmp_path / "data") as store:
        info = store.get(rec.session_id).info()
    with pytest.raises(DrillUnavailable, match=r"noise trial of drill 'fanout-retries'.*has no twin"):
        resolve_session_drill(info, default_drill_resolver())


# -- drill sets ----------------------------------------------------------------------------------------------------


def test_a_drill_set_may_set_its_noise_rate(tmp_path: Path):
    ok = tmp_path / "a.set.yaml"
    ok.write_text("set: a\ntitle: A\nnoise_rate: 0.4\ndrills: [tutorial]\n", encoding="utf-8")
    assert load_drill_set(ok).noise_rate == 0.4
    assert load_drill_set(ok).model_copy(update={"noise_rate": None}).noise_rate is None
    bad = tmp_path / "b.set.yaml"
    bad.write_text("set: b\ntitle: B\nnoise_rate: 1.5\ndrills: [tutorial]\n", encoding="utf-8")
    with pytest.raises(DrillSetError) as info:
        load_drill_set(bad)
    assert str(info.value).startswith(f"{bad}:3:13: ")


def test_noise_trials_do_not_move_an_adaptive_trainee_s_level():
    from warroom.tui.logic._drillsets import _as_played

    fault = Candidate("d", 3, "stale_data")

    class Row:
        played_as = "noise"

    assert _as_played(fault, Row()).fault_kind is None
    record = [Attempt(_as_played(fault, Row()), detected=True)] * 4
    assert trainee_level(record, 2.0) == 2.0


# -- warroom run --as ----------------------------------------------------------------------------------------------


def test_run_refuses_a_trial_the_drill_cannot_be_played_as(tmp_path: Path, path: Path):
    data = ["--data-dir", str(tmp_path / "d")]
    r = CliRunner().invoke(main, [*data, "run", str(ALL_CLEAR), "--as", "signal"])
    assert r.exit_code == 2 and "an all-clear drill has no fault" in r.output
    plain = tmp_path / "p" / f"{DRILL_ID}.yaml"
    plain.parent.mkdir()
    plain.write_text(path.read_text(encoding="utf-8").split("twin:\n")[0], encoding="utf-8")
    r = CliRunner().invoke(main, [*data, "run", str(plain), "--as", "noise"])
    assert r.exit_code == 2 and "it has no twin" in r.output
    r = CliRunner().invoke(main, [*data, "run", str(path), "--as", "noise", "--mode", "assessment"])
    assert r.exit_code == 2 and "--as is for trying a drill in practice" in r.output


def test_run_passes_the_trial_and_takes_a_seed_for_a_drill_with_a_twin(tmp_path: Path, path: Path, monkeypatch):
    import warroom.tui.app as app

    seen: dict[str, object] = {}
    monkeypatch.setattr(app, "launch", lambda settings, **kw: seen.update(kw))
    r = CliRunner().invoke(main, ["--data-dir", str(tmp_path / "d"), "run", str(path), "--as", "noise", "--seed", "7"])
    assert r.exit_code == 0, r.output
    assert (seen["played_as"], seen["seed"]) == ("noise", 7)


def test_an_action_log_scores_the_same_on_the_twin_as_the_session_did(path: Path):
    twin = twin_of(load_drill(path))
    actions = [Action(t=30.0, kind=ActionKind.ESCALATE, step="s2", cites=("e09",))]
    card = score(twin, actions)
    assert card.outcome.value == "false_alarm" and card.played_as is PlayedAs.NOISE  # rules 4 record the trial
    assert score(twin, actions, rules="3").played_as is None  # rules 3 recorded none
