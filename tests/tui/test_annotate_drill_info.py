"""The author mode goes all the way (issue 35 item 8): after keying an import, the file's header no longer says it has
no answer key; the title, difficulty, briefing, the habit and the re-plan after a containment are set from author
mode (dialogs) and saved through the round-trip writer, the file's other lines and comments kept."""

from __future__ import annotations

from warroom.core.author import UNMARKED_NOTE, discard_recovery, open_for_annotation, recover, write_recovery
from warroom.core.load import load_drill
from warroom.tui.author import DamageDialog, DebriefDialog, DrillInfoDialog, FaultDialog
from warroom.tui.screens import DebriefScreen

from .conftest import advance, author_mode, escalate, make_app, screen_text, type_text
from .test_annotate import imported, mark_up, select


async def _set_info(pilot, app) -> None:
    await pilot.press("i")
    assert isinstance(app.screen, DrillInfoDialog)
    for value in ("Refund sent to the wrong order", "4", "Refund order W2378156, which arrived broken, in full.",
                  "A support assistant with the order and refund tools, answering one customer.", ""):
        await pilot.press("ctrl+a", "ctrl+k")  # the field's text as read from the file: replaced
        await type_text(pilot, value)
        await pilot.press("enter")


async def test_an_import_keyed_in_author_mode_ends_with_its_header_title_briefing_habit_and_re_plan(tmp_path, services):
    path = imported(tmp_path, "chat", "chat/refund.json", "chat-refund.yaml")
    before = path.read_text()
    assert "# No answer key: a real trace does not say what went wrong" in before
    async with author_mode(path, size=(120, 40)) as (app, pilot, screen):
        await mark_up(pilot, screen, "m003", None, "m006", 7)
        await pilot.press("h")
        assert isinstance(app.screen, DebriefDialog)
        await type_text(pilot, "Read which order a refund names before it is sent.")
        await pilot.press("ctrl+s")
        await pilot.press("R")
        assert isinstance(app.screen, DebriefDialog)
        await type_text(pilot, "Escalation accepted: stop the refund; look the order up again by its number.")
        await pilot.press("ctrl+s")
        await _set_info(pilot, app)
        assert app.screen is screen
        text = screen_text(app)
        assert "Refund sent to the wrong order" in text  # the header shows the new title
        assert "Habit (h): Read which order" in text and "Re-plan (R): Escalation accepted" in text
        await pilot.press("s")
        assert screen.saved and screen.findings is not None and screen.findings.problems == []
        await pilot.press("q")
    after = path.read_text()
    # the header says it is marked up, not that it has no answer key; the importer's first lines are kept
    assert "No answer key" not in after and "Mark up the incident" not in after
    assert "# Answer key: marked up in the war room's author mode (`warroom annotate`): complete." in after
    assert after.splitlines()[:2] == before.splitlines()[:2]
    assert "not yet marked up" not in after and "(real trace, marked up in author mode)" in after
    drill = load_drill(path)
    assert (drill.title, drill.difficulty) == ("Refund sent to the wrong order", 4)
    assert drill.briefing.goal == "Refund order W2378156, which arrived broken, in full."
    assert drill.briefing.context is None
    key = drill.answer_key
    assert key.habit == "Read which order a refund names before it is sent."
    (replan,) = key.replan
    assert replan.kind == "planner_call" and replan.t == 3 and replan.content.startswith("Escalation accepted")
    # the drill plays to its re-plan after a containment, not to "the original trace stopped" alone
    app = make_app(services, path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter")
        await advance(pilot, next(e.t for e in app.live.drill.trace if e.id == "m003") + 0.5, step=0.1)
        live = app.live
        await escalate(pilot, key.fault.origin_step, cite="m003")
        assert live.replay.contained and not live.replay.ended  # the re-plan plays, 3 s after the escalation
        await advance(pilot, 5)
        assert live.replay.is_released(replan.id) and isinstance(app.screen, DebriefScreen)


def test_the_header_note_is_the_importers(tmp_path):
    path = imported(tmp_path, "chat", "chat/refund.json", "chat-refund.yaml")
    commented = "\n".join(f"# {line}" if line else "#" for line in UNMARKED_NOTE.splitlines())
    assert commented in path.read_text()


def test_unsaved_marks_with_a_new_title_are_recovered_with_it(tmp_path):
    # the recovery copy differs from the file in its author line, header and title: its marks are still the file's
    path = imported(tmp_path, "chat", "chat/refund.json", "chat-refund.yaml")
    opened = open_for_annotation(path)
    draft = opened.draft
    draft.evidence = ["m003"]
    draft.meta = {**draft.meta, "title": "Refund sent to the wrong order"}
    write_recovery(opened, draft)
    recovered = recover(open_for_annotation(path))
    assert recovered.draft is not None, recovered.message
    assert recovered.draft.evidence == ["m003"] and recovered.draft.meta["title"] == "Refund sent to the wrong order"
    discard_recovery(path)


async def test_the_info_dialog_labels_filled_fields_and_keeps_an_unedited_watching_as_the_file_has_it(tmp_path):
    """Issue 35's walk-through: a filled field showed no label (its placeholder gone), and saving after editing only
    the goal wrote the imported drill's `watching`, which the file wraps over two lines, onto one line."""
    path = imported(tmp_path, "chat", "chat/refund.json", "chat-refund.yaml")
    before = path.read_text().splitlines()
    at = next(i for i, line in enumerate(before) if line.startswith("  watching: "))
    watching = before[at : at + 2]
    assert watching[1].startswith("    Timing is estimated")  # wrapped over two lines by the importer
    async with author_mode(path, size=(80, 24)) as (app, pilot, screen):
        await pilot.press("i")
        assert isinstance(app.screen, DrillInfoDialog)
        await pilot.pause()
        text = screen_text(app)
        assert "title" in text and "difficulty" in text and "briefing goal" in text  # labels over filled fields
        assert "you are watching" in text
        await pilot.press("enter", "enter")  # title, difficulty as they are
        await pilot.press("ctrl+a", "ctrl+k")
        await type_text(pilot, "Refund order W2378156, which arrived broken.")
        await pilot.press("enter", "enter", "enter")  # the goal; watching and context as they are: done
        assert app.screen is screen
        await pilot.press("s")
        await pilot.pause()
    after = path.read_text().splitlines()
    assert any(line.startswith("  goal: ") and "Refund order W2378156, which arrived broken." in line for line in after)
    at = next(i for i, line in enumerate(after) if line.startswith("  watching: "))
    assert after[at : at + 2] == watching  # the unedited watching: its lines as they were


async def test_the_fault_and_damage_dialogs_label_their_filled_fields(tmp_path):
    """As the i dialog's (issue 35's walk-through): a field typed into keeps its label on its border."""
    path = imported(tmp_path, "chat", "chat/refund.json", "chat-refund.yaml")
    async with author_mode(path, size=(80, 24), whole_trace=True) as (app, pilot, screen):
        await select(pilot, screen, "m004")
        await pilot.press("o")
        assert isinstance(app.screen, FaultDialog)
        await type_text(pilot, "empty_result")
        await pilot.press("enter")
        await type_text(pilot, "The tool result was misread.")
        text = screen_text(app)
        assert "fault kind" in text and "what went wrong" in text
        await pilot.press("escape")
        await pilot.press("d")
        assert isinstance(app.screen, DamageDialog)
        await type_text(pilot, "184.5")
        assert [app.screen.query_one(f"#damage-{f}").border_title for f in ("amount", "unit", "note")] == [
            "amount", "unit", "note (optional)"]
