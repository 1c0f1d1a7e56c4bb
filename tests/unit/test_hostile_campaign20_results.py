"""Campaign 20 (issue 30), results and scores: regression tests for the breaks it found."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from store_support import load

from warroom.core.library import bundled_drills_dir
from warroom.core.play import Replay
from warroom.core.scoring import score


def _abandoned_with_twin(data: Path, seed: int) -> str:
    """An assessment session of a bundled drill with a twin, quit at 5 s (abandoned) by warroom's recorder: its id."""
    from warroom.store.journal import SessionRecorder

    path = bundled_drills_dir() / "staging-orders-reseed.yaml"
    drill = load(path)
    assert drill.twin is not None
    rec = SessionRecorder.start(data, "ann", path, drill, mode="assessment", seed=seed)
    replay = Replay(rec.drill, on_action=rec.record)
    replay.advance_to(5.0)
    replay.quit()
    rec.finish(score(rec.drill, rec.actions))
    return rec.session_id


def test_the_review_of_an_abandoned_session_hides_its_seed(tmp_path: Path, monkeypatch) -> None:
    """`warroom scores` shows no seed for a session that never reached its debrief (the seed draws its trial:
    `warroom run --seed N` would replay it knowing the trial), but `warroom review`'s heading showed it
    (`variant seed 4242`), and trainees read review output too. The heading names no seed for such a session."""
    from warroom.store.results import ResultsStore
    from warroom.store.review import load_review
    from warroom.tui.screens._reviewpanels import headline

    monkeypatch.delenv("WARROOM_STORE", raising=False)
    session_id = _abandoned_with_twin(tmp_path, 4242)
    with ResultsStore(tmp_path) as store:
        session = store.get(session_id)
        assert (session.outcome, session.seed) == ("abandoned", 4242)
        data = load_review(session, [], store)
    text = headline(data).plain
    assert "4242" not in text and "variant seed" not in text, text
    reached = dataclasses.replace(data, session=dataclasses.replace(session, outcome="missed"))
    assert "variant seed 4242)" in headline(reached).plain  # a session that reached its debrief shows it
