"""``warroom annotate``'s author mode, driven by keys: each importer's fixture, imported into tmp_path, is marked up,
saved, passes ``warroom validate`` and ``warroom check`` and plays to a debrief."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from locations import REPO
from textual.clock import MockClock

from warroom.cli import main
from warroom.core.author import open_for_annotation
from warroom.core.load import load_drill
from warroom.core.model import Outcome
from warroom.tui.app import AnnotateApp
from warroom.tui.author import (
    AnnotateScreen,
    DamageDialog,
    DebriefDialog,
    FaultDialog,
    NumberDialog,
    TextDialog,
    key_text,
)
from warroom.tui.screens import DebriefScreen
from warroom.tui.widgets import ConfirmScreen, HelpScreen, Inspector, TraceTable

from .conftest import advance, author_mode, escalate, make_app, record_notifications, screen_text, type_text

FIXTURES = REPO / "tests" / "fixtures"

#: importer, fixture, drill file written, evidence, distractor, damage event, and the deadline in seconds after the
#: evidence. The evidence is the invoice list that says it is one page of two (``next_cursor``), the distractor the
#: payment of that page (a large amount, but the invoices were due), the damage the month closed with invoices
#: unpaid (late fees).
CASES = [
    ("chat", "chat/refund.json", "chat-refund.yaml", "m003", None, "m006", 7),
    ("otel", "otel/current.json", "otel-current.yaml", "call_inv", "e0014", "e0017", 7),
    ("openinference", "openinference/phoenix.jsonl", "openinference-phoenix.yaml", "call_inv", "e0016", "e0019", 7),
    # another tool's shape (tests/fixtures/thirdparty): an Anthropic Messages API body, tool_use/tool_result blocks
    ("chat", "thirdparty/chat-anthropic.json", "chat-anthropic.yaml", "m003", None, "m006", 5),
]


def imported(tmp_path: Path, importer: str, fixture: str, name: str) -> Path:
    out = tmp_path / "drills"
    result = CliRunner().invoke(main, ["import", importer, str(FIXTURES / fixture), "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out / name


async def select(pilot, screen: AnnotateScreen, event_id: str) -> None:
    table = screen.query_one(TraceTable)
    table.move_cursor(table.row_index(event_id))
    await pilot.pause()


async def mark_up(pilot, screen: AnnotateScreen, evidence: str, distractor: str | None, damage: str,
                  after: float) -> None:
    """Mark every part of the answer key by keys and dialogs, as an author does."""
    app = pilot.app
    await pilot.press("E")  # the whole trace
    await select(pilot, screen, evidence)
    await pilot.press("o")
    assert isinstance(app.screen, FaultDialog)
    await type_text(pilot, "empty_result")
    await pilot.press("enter")
    await type_text(pilot, "The tool result was empty and nobody noticed.")
    await pilot.press("enter", "v")
    if distractor is not None:  # the chat fixture has one plan step: a distractor there would not be fair
        await select(pilot, screen, distractor)
        await pilot.press("x")
        assert isinstance(app.screen, TextDialog)
        await type_text(pilot, "an ordinary lookup")
        await pilot.press("enter")
    await select(pilot, screen, damage)
    await pilot.press("d")
    assert isinstance(app.screen, DamageDialog)
    await type_text(pilot, "184.5")
    await pilot.press("enter")
    await type_text(pilot, "USD refunded in error")
    await pilot.press("enter", "enter")
    await select(pilot, screen, evidence)
    await pilot.press("l")
    assert isinstance(app.screen, NumberDialog)
    await type_text(pilot, str(after))
    await pilot.press("enter", "b")
    assert isinstance(app.screen, DebriefDialog)
    await type_text(pilot, "The evidence showed the empty result; escalate its step.")
    await pilot.press("ctrl+s")
    assert app.screen is screen


@pytest.mark.parametrize("importer,fixture,name,evidence,distractor,damage,after", CASES)
async def test_annotate_each_importers_fixture(tmp_path, services, importer, fixture, name, evidence, distractor,
                                               damage, after):
    path = imported(tmp_path, importer, fixture, name)
    async with author_mode(path, size=(120, 40)) as (app, pilot, screen):
        assert isinstance(screen, AnnotateScreen)
        assert "Still missing" in screen_text(app) and "origin (o)" in screen_text(app)
        await mark_up(pilot, screen, evidence, distractor, damage, after)
        assert not screen.draft.missing() and not screen.saved
        assert "Answer key complete" in screen_text(app)
        await pilot.press("s")
        assert screen.saved and screen.findings is not None
        assert screen.findings.problems == []
        text = screen_text(app)
        assert "validate: valid" in text
        assert screen.findings.ok, screen.findings.check
        assert "check: passed" in text and "winnable in time" in screen.query_one(Inspector).text
        await pilot.press("q")  # saved: leaves without asking
    drill = load_drill(path)
    key = drill.answer_key
    assert key is not None and key.evidence == [evidence] and key.fault.kind == "empty_result"
    assert [(d.event, d.amount) for d in key.damage.entries] == [(damage, 184.5)]
    assert key.damage.unit == "USD refunded in error"
    assert [(d.event, d.why_harmless) for d in drill.distractors] == (
        [(distractor, "an ordinary lookup")] if distractor else [])
    validate = CliRunner().invoke(main, ["validate", str(path)])
    assert validate.exit_code == 0, validate.output
    check = CliRunner().invoke(main, ["check", str(path)])
    assert check.exit_code == 0, check.output
    await plays_to_debrief(services, path, key.fault.origin_step, evidence)


async def plays_to_debrief(services, path: Path, step: str, evidence: str) -> None:
    app = make_app(services, path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter")
        live = app.live
        assert live is not None, screen_text(app)
        evidence_t = next(e.t for e in live.drill.trace if e.id == evidence)
        await advance(pilot, evidence_t + 0.5, step=0.1)
        await escalate(pilot, step, "empty result", cite=evidence)
        if app.live is not None:  # no re-plan events to play: the debrief may be open already
            await advance(pilot, 60)
        assert isinstance(app.screen, DebriefScreen)
        assert app.screen.scorecard.outcome is Outcome.CONTAINED


async def test_unsaved_marks_ask_before_quitting_and_help_lists_the_keys(tmp_path):
    path = imported(tmp_path, "chat", "chat/refund.json", "chat-refund.yaml")
    before = path.read_text()
    async with author_mode(path) as (app, pilot, screen):
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        help_text = screen_text(app)
        assert "Author mode keys" in help_text and "evidence" in help_text and "scrub" in help_text
        await pilot.press("escape")
        await pilot.press("E")
        await select(pilot, screen, "m003")
        await pilot.press("v")
        assert screen.draft.evidence == ["m003"] and not screen.saved
        assert "Unsaved changes" in key_text(screen.draft, None, screen.saved).plain
        await pilot.press("x")  # evidence cannot also be a distractor
        assert app.screen is screen and "m003" not in screen.draft.distractors
        await pilot.press("q")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        assert app.screen is screen
    assert path.read_text() == before  # nothing saved


async def test_scrubbing_back_replays_from_the_start_and_keeps_the_selection(tmp_path):
    path = imported(tmp_path, "chat", "chat/refund.json", "chat-refund.yaml")
    async with author_mode(path) as (app, pilot, screen):
        await pilot.press("right_square_bracket")
        assert screen.replay.now == 10
        table = screen.query_one(TraceTable)
        assert list(table.events) == ["m000", "m001", "call_lookup1", "call_user1"]
        await pilot.press("right_square_bracket")
        await select(pilot, screen, "m003")
        await pilot.press("left_square_bracket")
        assert screen.replay.now == 10 and "m003" not in table.events
        await pilot.press("right_square_bracket")
        assert screen.replay.now == 20 and "m006" in table.events
        await pilot.press("space")
        app.clock.set_time(app.clock.time + 5)  # paused: the drill clock does not move
        screen.tick()
        assert screen.replay.now == 20


async def test_a_bad_mark_is_refused_in_its_dialog(tmp_path):
    path = imported(tmp_path, "chat", "chat/refund.json", "chat-refund.yaml")
    app = AnnotateApp(open_for_annotation(path), clock=MockClock())
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        notes = record_notifications(app)
        screen = app.screen
        await pilot.press("E")
        await select(pilot, screen, "m006")
        await pilot.press("d")
        await type_text(pilot, "-3")
        await pilot.press("enter", "enter", "enter")
        assert isinstance(app.screen, DamageDialog) and "above 0" in screen_text(app)
        await pilot.press("escape")
        await pilot.press("o")
        await type_text(pilot, "no_such_kind")
        await pilot.press("enter")
        await type_text(pilot, "x")
        await pilot.press("enter")
        assert isinstance(app.screen, FaultDialog) and "is not a fault kind" in screen_text(app)
        await pilot.press("escape")
        assert screen.draft.missing()[0] == "answer_key.fault.origin_step" and screen.saved
        assert notes == []


async def test_scrubbing_back_counts_repeated_events_again():
    from warroom.core.library import bundled_drills_dir
    from warroom.core.play import Replay

    file = open_for_annotation(bundled_drills_dir() / "dental-recall-calls.yaml")
    app = AnnotateApp(file, clock=MockClock())
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        shown = screen.replay.repetitions  # the dict the trace table reads its ×N counts from
        await pilot.press("E")
        assert screen.replay.repetitions
        await pilot.press("left_square_bracket")
        fresh = Replay(file.drill)
        fresh.advance(screen.replay.now)
        assert screen.replay.repetitions is shown and shown == fresh.repetitions
        assert list(screen.query_one(TraceTable).events) == [e.id for e in fresh.released]
