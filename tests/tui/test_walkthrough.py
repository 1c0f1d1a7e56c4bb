"""docs/importing.md, "A walk-through: last week's incident as a drill", followed step by step on the same fixture
(tests/fixtures/otel/legacy.jsonl, Collector JSON Lines written by the OpenTelemetry SDK): import every trace, pick
the incident's with --trace-id, validate names the missing answer key, annotate marks it up with the keys the doc
names, the saved file validates and passes check, and a trainee escalating as the doc says reaches the debrief
with the outcome the doc states. If this test changes, the walk-through must change with it."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from locations import REPO

from warroom.cli import main
from warroom.core.load import load_drill
from warroom.core.model import Outcome
from warroom.tui.author import AnnotateScreen, DamageDialog, DebriefDialog, FaultDialog, NumberDialog, TextDialog
from warroom.tui.screens import DebriefScreen
from warroom.tui.widgets import TraceTable

from .conftest import advance, author_mode, make_app, screen_text, type_text

DOC = REPO / "docs" / "importing.md"
EXPORT = REPO / "tests" / "fixtures" / "otel" / "legacy.jsonl"
INCIDENT = "0f8a65358731232d6dc8e7fa93622339"  # the month-end run; be44... is the follow-up question
#: What the walk-through types, key by key, in the order it says.
KIND, SUMMARY = "pagination_truncated", "scout fetched one page of two and said all March invoices were fetched."
WHY_HARMLESS = "a large payment, but the 20 invoices it paid were due"
DAMAGE, UNIT, NOTE = "184.5", "USD late fees", "20 invoices left unpaid when March closed"
AFTER = "8"
DEBRIEF = "e0009 says returned 20 of total 40 with a next_cursor; scout reported all fetched. Escalate p01."


def _walkthrough() -> str:
    """The walk-through's text, its runs of white space (line breaks, indentation) as one space."""
    text = DOC.read_text(encoding="utf-8")
    return " ".join(text[text.index("## A walk-through"):].split())


def _in_walkthrough(shown: str) -> bool:
    return " ".join(shown.split()) in _walkthrough()


def test_the_doc_shows_what_this_test_does() -> None:
    """The walk-through names this fixture, trace id and the keys and words typed here (so the two stay one)."""
    for shown in ("tests/fixtures/otel/legacy.jsonl", INCIDENT, "e0009", "e0014", "e0017", KIND, SUMMARY,
                  WHY_HARMLESS, UNIT, NOTE, DEBRIEF,
                  "The ⚑ column now shows `v` on `e0009` (evidence; its deadline mark is behind it), `x` on `e0014`",
                  "`o`", "`v`", "`x`", "`d`", "`l`", "`b`", "`s`", "`E`",
                  "contained"):
        assert _in_walkthrough(shown), shown


async def _key_to(pilot, screen: AnnotateScreen, event_id: str) -> None:
    """Select ``event_id`` as the doc says: `g` (the first row), then `j` down to it."""
    table = screen.query_one(TraceTable)
    await pilot.press("g")
    await pilot.press(*["j"] * table.row_index(event_id))
    assert table.selected_key == event_id


async def _mark_up(pilot, screen: AnnotateScreen) -> None:
    app = pilot.app
    await pilot.press("E")
    await _key_to(pilot, screen, "e0009")
    await pilot.press("o")
    assert isinstance(app.screen, FaultDialog)
    await type_text(pilot, KIND)
    await pilot.press("enter")
    await type_text(pilot, SUMMARY)
    await pilot.press("enter", "v")
    await _key_to(pilot, screen, "e0014")
    await pilot.press("x")
    assert isinstance(app.screen, TextDialog)
    await type_text(pilot, WHY_HARMLESS)
    await pilot.press("enter")
    await _key_to(pilot, screen, "e0017")
    await pilot.press("d")
    assert isinstance(app.screen, DamageDialog)
    for answer in (DAMAGE, UNIT, NOTE):
        await type_text(pilot, answer)
        await pilot.press("enter")
    await _key_to(pilot, screen, "e0009")
    await pilot.press("l")
    assert isinstance(app.screen, NumberDialog)
    await type_text(pilot, AFTER)
    await pilot.press("enter", "b")
    assert isinstance(app.screen, DebriefDialog)
    await type_text(pilot, DEBRIEF)
    await pilot.press("ctrl+s")
    assert app.screen is screen


async def test_the_walkthrough_from_export_to_debrief(tmp_path: Path, services) -> None:
    runner = CliRunner()
    everything = runner.invoke(main, ["import", "otel", str(EXPORT), "--out", str(tmp_path / "all-traces"), "-v"])
    assert everything.exit_code == 0, everything.output
    assert "2 drills imported" in everything.output
    sources = [load_text for load_text in (p.read_text(encoding="utf-8") for p in
                                           sorted((tmp_path / "all-traces").iterdir()))]
    assert f"trace {INCIDENT}" in sources[0] and "Reconcile March's vendor invoices" in sources[0]

    out = tmp_path / "incidents"
    one = runner.invoke(main, ["import", "otel", str(EXPORT), "--trace-id", INCIDENT, "--out", str(out)])
    assert one.exit_code == 0, one.output
    path = out / "otel-legacy.yaml"
    assert sorted(p.name for p in out.iterdir()) == [path.name]

    validate = runner.invoke(main, ["validate", str(path)])
    assert validate.exit_code == 1
    assert validate.output.startswith(f"{path}:17:1: the drill needs an answer_key"), validate.output
    assert "1 drill checked: 0 valid, 1 invalid (1 problem)" in validate.output

    async with author_mode(path, size=(120, 40)) as (app, pilot, screen):
        assert isinstance(screen, AnnotateScreen)
        await _mark_up(pilot, screen)
        table = screen.query_one(TraceTable)
        assert {k: table.mark_of(k) for k in table.events if table.mark_of(k)} == {
            "e0009": "v", "e0014": "x", "e0017": "d"}
        assert not screen.draft.missing()
        await pilot.press("s")
        text = screen_text(app)
        assert screen.findings is not None and screen.findings.ok, screen.findings
        assert "validate: valid" in text and "check: passed" in text
        await pilot.press("q")

    drill = load_drill(path)
    key = drill.answer_key
    assert key is not None
    assert (key.fault.origin_step, key.fault.kind, key.fault.summary) == ("p01", KIND, SUMMARY)
    assert key.evidence == ["e0009"]
    assert [(d.event, d.why_harmless) for d in drill.distractors] == [("e0014", WHY_HARMLESS)]
    assert key.damage.unit == UNIT and [(d.event, d.amount) for d in key.damage.entries] == [("e0017", 184.5)]
    assert key.debrief.strip() == DEBRIEF
    assert runner.invoke(main, ["validate", str(path)]).exit_code == 0
    check = runner.invoke(main, ["check", str(path)])
    assert check.exit_code == 0, check.output

    play = make_app(services, path)
    async with play.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter")  # the briefing: start
        live = play.live
        assert live is not None, screen_text(play)
        await advance(pilot, 9, step=0.1)  # e0009 arrives at 7.93 s; the trace follows the newest event
        await pilot.press("enter")  # the trainee reads e0009 (inspects it): the trace stops following, e0009 chosen
        await pilot.press("e")
        await type_text(pilot, "p01")
        await pilot.press("tab")
        await type_text(pilot, "one page of two")
        assert list(play.screen.cites) == ["e0009"]  # type: ignore[attr-defined]  # the chosen event, ticked
        await pilot.press("enter", "y")
        await pilot.pause()
        if play.live is not None:  # no re-plan events to play: the debrief may be open already
            await advance(pilot, 60)
        assert isinstance(play.screen, DebriefScreen)
        assert play.screen.scorecard.outcome is Outcome.CONTAINED
        debrief = screen_text(play)
        for shown in ("CONTAINED   97/100", "You escalated p01, the fault's origin step, at 9 s, 1.1 s after the",
                      "earliest evidence and", "before the deadline at 15.9 s (00:16)."):
            assert shown in debrief and _in_walkthrough(shown), shown
