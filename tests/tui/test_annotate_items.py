"""``warroom annotate``'s format-2 marks, driven by keys: a field inside an event as evidence (``/`` then ``f``), a
fault in the plan or the set-up (``o`` on a planner call or a set-up event), an absence (``a``) and a comparison
(``m`` ``m`` ``M``). Each bundled drill that shows one is stripped of its fault and evidence, marked up again by
keys, saved, reloaded with warroom's loader, and must pass ``warroom validate`` and ``warroom check``."""

from __future__ import annotations

import shutil
from contextlib import AbstractAsyncContextManager
from pathlib import Path

from click.testing import CliRunner
from locations import REPO
from textual.pilot import Pilot
from textual.widgets import Label

from warroom.cli import main
from warroom.core.author import AnnotatedFile, open_for_annotation, write_draft
from warroom.core.library import bundled_drills_dir
from warroom.core.load import load_drill
from warroom.core.model._evidence import EvidenceRef
from warroom.tui.app import AnnotateApp
from warroom.tui.author import AnnotateScreen, FaultDialog, FieldPathDialog, TextDialog, key_text
from warroom.tui.widgets import FieldScreen, HelpScreen, TraceTable

from .conftest import author_mode as tui_author_mode
from .conftest import record_notifications, screen_text, type_text


def stripped(tmp_path: Path, name: str) -> Path:
    """A copy of bundled drill ``name`` whose answer key has lost its fault and evidence (the rest is kept)."""
    path = tmp_path / f"{name}.yaml"
    shutil.copyfile(bundled_drills_dir() / f"{name}.yaml", path)
    file = open_for_annotation(path)
    file.draft.set_origin("step", "")
    file.draft.kind = file.draft.summary = ""
    file.draft.evidence.clear()
    write_draft(path, file.draft, file.event_order)
    assert "answer_key.fault.origin_step" in open_for_annotation(path).draft.missing()
    return path


def author_mode(file: AnnotatedFile) -> AbstractAsyncContextManager[tuple[AnnotateApp, Pilot, AnnotateScreen]]:
    """The author mode over ``file`` at 120x40, the whole trace released: the app, its pilot and the screen."""
    return tui_author_mode(file, (120, 40), whole_trace=True)


def panel(screen: AnnotateScreen) -> str:
    """The side panel's text (wrapped on screen: read from what it renders)."""
    return key_text(screen.draft, screen.findings, screen.saved, screen.comparing).plain


async def select(pilot, screen: AnnotateScreen, event_id: str) -> None:
    table = screen.query_one(TraceTable)
    table.move_cursor(table.row_index(event_id))
    await pilot.pause()


async def mark_origin(pilot, screen: AnnotateScreen, event_id: str, kind: str, title: str) -> None:
    await select(pilot, screen, event_id)
    await pilot.press("o")
    assert isinstance(pilot.app.screen, FaultDialog)
    assert title in screen_text(pilot.app)
    await type_text(pilot, kind)
    await pilot.press("enter")
    await type_text(pilot, "The fault as the author sees it.")
    await pilot.press("enter")
    assert pilot.app.screen is screen


async def save_and_check(pilot, screen: AnnotateScreen, path: Path):
    """Save with ``s``: the findings are clean; the file reloads, validates and passes check. Returns the key."""
    await pilot.press("s")
    assert screen.saved and screen.findings is not None
    assert screen.findings.ok, (screen.findings.problems, screen.findings.check)
    assert "check: passed" in screen_text(pilot.app)
    for command in ("validate", "check"):
        result = CliRunner().invoke(main, [command, str(path)])
        assert result.exit_code == 0, result.output
    key = load_drill(path).answer_key
    assert key is not None
    return key


async def test_a_field_inside_an_event_is_marked_as_evidence_and_unmarked(tmp_path):
    path = stripped(tmp_path, "privilege-screen-production")
    before = path.read_text()
    async with author_mode(open_for_annotation(path)) as (app, pilot, screen):
        await mark_origin(pilot, screen, "e01", "constraint_dropped", "the plan (planner call e01)")
        await select(pilot, screen, "e07")
        await pilot.press("colon")  # go to the field first, as in the war room
        assert isinstance(app.screen, FieldScreen)
        await type_text(pilot, "summary.privilege_flags.withheld")
        await pilot.press("enter")
        assert screen.fields == {"e07": "summary.privilege_flags.withheld"}
        await pilot.press("f")  # offers the field gone to
        assert isinstance(app.screen, FieldPathDialog)
        await pilot.press("enter")
        assert screen.draft.evidence == [{"event": "e07", "path": "summary.privilege_flags.withheld"}]
        assert "e07 summary.privilege_flags.withheld" in panel(screen)
        key = await save_and_check(pilot, screen, path)
        assert key.evidence == [EvidenceRef(event="e07", path="summary.privilege_flags.withheld")]
        assert key.fault.origin == "plan" and key.fault.origin_event == "e01" and key.fault.origin_step is None
        assert key.fault.kind == "constraint_dropped"
        # the same path again unmarks it
        await pilot.press("f")
        await pilot.press("enter")
        assert screen.draft.evidence == [] and not screen.saved
        await pilot.press("s")
    assert open_for_annotation(path).draft.missing() == ["answer_key.evidence"]
    # everything before the answer key stays byte for byte
    assert path.read_text().split("\nanswer_key:")[0] == before.split("\nanswer_key:")[0]


async def test_a_field_that_is_not_there_is_refused_in_its_dialog(tmp_path):
    path = stripped(tmp_path, "privilege-screen-production")
    async with author_mode(open_for_annotation(path)) as (app, pilot, screen):
        await select(pilot, screen, "e07")
        await pilot.press("f")
        await type_text(pilot, "summary.privilege_flags.withhold")
        await pilot.press("enter")
        assert isinstance(app.screen, FieldPathDialog)
        error = str(app.screen.query_one("#annotate-error", Label).content)
        assert error.startswith("no field summary.privilege_flags.withhold in the output of e07: `withhold` is not at "
                                "`summary.privilege_flags` (did you mean `withheld`?); the keys there: ")
        await pilot.press("escape")
        notes = record_notifications(app)
        await select(pilot, screen, "e02")  # a tool call has no output for a path
        await pilot.press("f")
        assert app.screen is screen and screen.draft.evidence == []
        assert any("no output" in n for n in notes)


async def test_a_set_up_origin_and_an_absence_as_evidence(tmp_path):
    path = stripped(tmp_path, "dependabot-merge-train")
    async with author_mode(open_for_annotation(path)) as (app, pilot, screen):
        await mark_origin(pilot, screen, "e02", "environment_setup_failed", "set-up (e02, before step 1)")
        assert "Origin: set-up at e02 (environment_setup_failed)" in panel(screen)
        await select(pilot, screen, "e12")
        await pilot.press("a")
        assert isinstance(app.screen, TextDialog)
        await type_text(pilot, "no tool call read a check run before CI was reported green")
        await pilot.press("enter")
        assert screen.draft.evidence == [
            {"event": "e12", "absent": "no tool call read a check run before CI was reported green"}]
        key = await save_and_check(pilot, screen, path)
        assert key.fault.origin == "setup" and key.fault.origin_event == "e02"
        assert key.evidence == [EvidenceRef(event="e12",
                                            absent="no tool call read a check run before CI was reported green")]
        await pilot.press("a")  # again: unmarked, no dialog
        assert app.screen is screen and screen.draft.evidence == []


async def test_a_comparison_of_two_events_is_one_evidence_item(tmp_path):
    path = stripped(tmp_path, "compacted-review-criteria")
    async with author_mode(open_for_annotation(path)) as (app, pilot, screen):
        await mark_origin(pilot, screen, "e12", "invented_constraint", "the plan (planner call e12)")
        await select(pilot, screen, "e12")
        await pilot.press("m")
        notes = record_notifications(app)
        await pilot.press("M")  # one event is not a comparison
        assert screen.draft.evidence == [] and any("two or more" in n for n in notes)
        await select(pilot, screen, "e01")
        await pilot.press("m")
        assert "Comparing: e12 + e01" in panel(screen)
        await pilot.press("M")
        assert screen.draft.evidence == [{"all_of": ["e01", "e12"]}] and screen.comparing == []
        key = await save_and_check(pilot, screen, path)
        assert key.evidence == [EvidenceRef(all_of=["e01", "e12"])]
        await pilot.press("M")  # nothing gathered: unmarks the selected event's comparison
        assert screen.draft.evidence == []


async def test_a_format_1_drill_keeps_step_origins_and_whole_events(tmp_path):
    path = tmp_path / "spring-sale-campaign.yaml"
    shutil.copyfile(REPO / "tests" / "fixtures" / "v1" / "spring-sale-campaign.yaml", path)
    file = open_for_annotation(path)
    assert file.drill.schema_version == 1
    planner = next(e for e in file.drill.trace if e.kind == "planner_call")
    assert file.origins_at(planner.id)[0][0] == "step"
    async with author_mode(file) as (app, pilot, screen):
        notes = record_notifications(app)
        await select(pilot, screen, planner.id)
        evidence = list(screen.draft.evidence)
        for key in ("f", "a", "m"):
            await pilot.press(key)
            assert app.screen is screen
        assert screen.draft.evidence == evidence and screen.comparing == []
        assert sum("format 1" in n for n in notes) == 3
        await pilot.press("o")
        assert isinstance(app.screen, FaultDialog) and "Fault origin: step" in screen_text(app)
        await pilot.press("escape", "question_mark")  # the help lists the format-2 keys (from BINDINGS)
        assert isinstance(app.screen, HelpScreen)
        rows = dict(app.screen.keys)
        assert rows["f"].startswith("format 2: a field of the selected event is evidence")
        assert rows["a"].startswith("format 2: an absence at the selected event is evidence")
        assert rows["M"].startswith("format 2: the gathered events (two or more) are one comparison")
        assert rows["m"].startswith("format 2: add / remove the selected event") and rows[":"].startswith("go to")


async def test_a_planner_call_offers_the_plan_then_its_step(tmp_path):
    from .test_annotate import imported

    path = imported(tmp_path, "otel", "otel/current.json", "otel-current.yaml")
    file = open_for_annotation(path)
    assert file.origins_at("e0012") == [("plan", "e0012"), ("step", "p02")]
    assert file.origins_at("e0001") == [("setup", "e0001"), ("step", file.drill.plan[0].id)]
    async with author_mode(file) as (app, pilot, screen):
        await select(pilot, screen, "e0012")
        await pilot.press("o")
        assert isinstance(app.screen, FaultDialog)
        text = screen_text(app)
        assert "Fault origin: the plan (planner call e0012)" in text and "ctrl+o: the origin is step p02" in text
        await type_text(pilot, "invented_constraint")
        await pilot.press("ctrl+o")  # the step instead; what was typed stays
        text = screen_text(app)
        assert "Fault origin: step p02" in text and "ctrl+o: the origin is the plan (planner call e0012)" in text
        await pilot.press("enter")
        await type_text(pilot, "The re-plan was wrong.")
        await pilot.press("enter")
        assert app.screen is screen
        assert (screen.draft.origin, screen.draft.origin_step, screen.draft.origin_event) == ("step", "p02", "")
        assert screen.draft.kind == "invented_constraint"
        await pilot.press("o", "ctrl+o", "ctrl+o")  # round to the plan again, and keep it
        await pilot.press("enter", "enter")
        assert (screen.draft.origin, screen.draft.origin_step, screen.draft.origin_event) == ("plan", "", "e0012")
        assert screen.draft.answer_key_data(file.event_order)["fault"] == {
            "origin": "plan", "origin_event": "e0012", "kind": "invented_constraint",
            "summary": "The re-plan was wrong."}
