"""The ids a trainee sees in the war room (issue 30, docs/authoring.md "The ids trainees see"): a drill with a twin is
played with its trace events renamed by position, so a noise trial's trace table shows no id of the twin's own
(``h1``), and a citation typed with a shown id is accepted and judged as the event it names."""

from __future__ import annotations

import re
from pathlib import Path

from warroom.core.library import bundled_drills_dir
from warroom.store.results import ResultsStore
from warroom.tui.logic import Services

from .conftest import advance, escalate, make_app, screen_text

SIZE = (110, 34)


def _copy(tmp_path: Path, name: str) -> Path:
    folder = tmp_path / "drills"
    folder.mkdir(exist_ok=True)
    dest = folder / f"{name}.yaml"
    dest.write_bytes((bundled_drills_dir() / dest.name).read_bytes())
    return dest


def _services(tmp_path: Path, played_as: str, folder: Path) -> Services:
    return Services(trainee="ann", data_dir=tmp_path / "data", drill_dirs=(folder,), played_as=played_as)


async def test_a_noise_trial_shows_no_id_of_the_twins_own_and_takes_a_citation_of_a_shown_id(tmp_path: Path):
    """idle-volume-cleanup's twin adds ``h3`` at 62 s and its result ``h4`` at 70 s (the snapshot-and-delete once
    the notice passed): by 70 s the noise trial has shown e01 to e24 in order (``h4`` is e24, its line names its
    call ``↳e23``), and an escalation citing ``e23``, typed as shown, is recorded with it: a false alarm."""
    path = _copy(tmp_path, "idle-volume-cleanup")
    app = make_app(_services(tmp_path, "noise", path.parent), path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        live = app.live
        assert live is not None
        await advance(pilot, 70.0)
        table = screen_text(app)
        assert not re.search(r"\bh\d\b", table)
        rows = re.findall(r"(e\d\d)  \d\d:\d\d ", table)  # the trace table's id and time columns
        shown = [e.id for e in live.replay.released]
        assert shown == [f"e{k:02d}" for k in range(1, 25)]
        assert len(rows) >= 10 and rows == shown[-len(rows):]  # the table follows the newest event
        assert "↳e23" in table  # the added result names its call as shown
        await escalate(pilot, "s4", "looks off", cite="e23")
        assert [a.cites for a in live.replay.actions if a.kind.value == "escalate"] == [("e23",)]
        if app.live is live:  # plays on to the end and the debrief: stored
            await advance(pilot, live.replay.drill.duration, step=2.0)
    with ResultsStore(tmp_path / "data") as store:
        (row,) = store.query()
        stored = store.get(row.session_id)
    escalation = next(a for a in stored.actions if a.kind.value == "escalate")
    assert (stored.played_as, stored.outcome, escalation.cites) == ("noise", "false_alarm", ("e23",))


async def test_a_signal_trial_judges_a_citation_of_the_shown_evidence_id_as_the_evidence(tmp_path: Path):
    """staging-orders-reseed's evidence is written e03 and e04; played by position it is shown as e07 and e08 (the
    set-up log and s0's three events before it move it on). Escalating s1 at 11 s citing ``e08``, as the table shows
    it, contains the incident with the evidence cited: a hit (with the authored ids, e08 would be a later event)."""
    path = _copy(tmp_path, "staging-orders-reseed")
    app = make_app(_services(tmp_path, "signal", path.parent), path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        live = app.live
        assert live is not None
        await advance(pilot, 11.0)
        assert [e.id for e in live.replay.released][-2:] == ["e07", "e08"]
        assert live.replay.drill.answer_key.evidence == ["e07", "e08"]
        await escalate(pilot, "s1", "the reseed reads the wrong source", cite="e08")
        if app.live is live:  # the re-plan plays on to the end and the debrief: stored
            await advance(pilot, live.replay.drill.duration, step=2.0)
    with ResultsStore(tmp_path / "data") as store:
        (row,) = store.query()
        stored = store.get(row.session_id)
    escalation = next(a for a in stored.actions if a.kind.value == "escalate")
    assert (stored.played_as, stored.outcome, escalation.cites) == ("signal", "contained", ("e08",))
    assert stored.scorecard["response"] == "hit"
