"""The war room plays the session's variant (a drill with variants), the debrief explains that variant, and
`warroom run --seed N` fixes the seed."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from warroom.cli import main
from warroom.core.library import bundled_drills_dir
from warroom.core.load import load_drill
from warroom.core.model import PlayedAs, evidence_ids
from warroom.core.variants import apply_variant, session_drill
from warroom.store.results import ResultsStore
from warroom.tui.logic import Services
from warroom.tui.screens import DebriefScreen

from .conftest import advance, escalate, make_app

REPLIES = bundled_drills_dir() / "late-delivery-replies.yaml"


async def test_the_war_room_plays_the_variant_of_the_fixed_seed(tmp_path: Path):
    services = Services(trainee="tester", data_dir=tmp_path / "data", seed=6)
    base = load_drill(REPLIES)
    variant = session_drill(base, 6, PlayedAs.SIGNAL)  # the variant of seed 6, its ids by position (it has a twin)
    assert variant != base and [e.t for e in variant.trace] == [e.t for e in apply_variant(base, 6).trace]
    app = make_app(services, drill_path=REPLIES, speed=4)
    async with app.run_test(size=(140, 45)) as pilot:
        await pilot.press("enter")
        live = app.live
        assert live.drill == variant and live.replay.drill == variant
        first = min(variant.event(e).t for e in variant.answer_key.evidence)
        while live.replay.now < first:
            await advance(pilot, 0.25, step=0.25)
        evidence = evidence_ids(variant.answer_key)[0]
        await escalate(pilot, variant.answer_key.fault.origin_step, "error objects", cite=evidence)
        for _ in range(40):
            if isinstance(app.screen, DebriefScreen):
                break
            await advance(pilot, 1)
        assert isinstance(app.screen, DebriefScreen)
        assert app.screen.drill == variant  # the debrief explains the variant that was played
    with ResultsStore(tmp_path / "data") as store:
        (row,) = store.query()
    assert row.seed == 6 and row.outcome in ("contained", "contained_late")


def test_run_passes_the_seed_to_the_terminal_ui(tmp_path: Path, monkeypatch):
    started = {}

    def fake_launch(settings, start=None, speed=1.0, seed=None, **_):
        started.update(start=start, seed=seed)

    monkeypatch.setattr("warroom.tui.app.launch", fake_launch)
    r = CliRunner().invoke(main, ["--data-dir", str(tmp_path / "d"), "run", "late-delivery-replies", "--seed", "42"])
    assert r.exit_code == 0, r.output
    assert started["seed"] == 42 and started["start"].drill.variants is not None  # the entry holds the drill as written
    bad = CliRunner().invoke(main, ["--data-dir", str(tmp_path / "d"), "run", "late-delivery-replies", "--seed", "-1"])
    assert bad.exit_code == 2
    # a drill without variants or a twin has no seed to play: refused, not silently played as written
    started.clear()
    from locations import ALL_CLEAR

    plain = CliRunner().invoke(main, ["--data-dir", str(tmp_path / "d"), "run",
                                      str(ALL_CLEAR / "outage-callback-calls.yaml"), "--seed", "3"])  # fmt: skip
    assert plain.exit_code == 2 and started == {}
    assert "--seed: the drill 'outage-callback-calls' has no variants" in plain.stderr
    # a drill with a twin takes a seed: it draws the trial (signal or noise)
    twinned = CliRunner().invoke(main, ["--data-dir", str(tmp_path / "d"), "run", "duplicate-charge-refunds", "--seed",
                                        "3"])
    assert twinned.exit_code == 0 and started["seed"] == 3, twinned.output
