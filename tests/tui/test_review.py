"""`warroom review`: the review rows (pure) and the after-action review screen, driven with Pilot."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from pg_support import sqlite_only
from store_support import copy_drill, load

from warroom.cli import main
from warroom.core.model import Action, ActionKind
from warroom.core.play import Replay
from warroom.core.scoring import score
from warroom.store.journal import SessionRecorder
from warroom.store.results import ResultsStore
from warroom.store.review import build_review_rows, load_review

#: Every test here runs on each back end (the SQLite file, a PostgreSQL schema): tests/pg_support.py.
pytestmark = pytest.mark.usefixtures("backend_url")


def play(data_dir: Path, drill_path: Path, trainee: str = "ann") -> str:
    """A session: inspect and flag the evidence, a false escalation of s3, then contain at s1."""
    drill = load(drill_path)
    rec = SessionRecorder.start(data_dir, trainee, drill_path, drill)
    drill = rec.drill  # its ids by position, as the session plays them
    replay = Replay(drill, on_action=rec.record)
    replay.advance(12)
    replay.inspect("e06")
    replay.flag("e06", "41 rows, billing said [about 300]")
    replay.escalate("s3", "refund batch looks small")
    replay.escalate("s1", "snapshot is stale", ["e06"])
    replay.run_to_end()
    rec.finish(score(drill, rec.actions))
    return rec.session_id


@pytest.fixture
def stored(tmp_path: Path) -> tuple[Path, Path, str]:
    drill_path = copy_drill(tmp_path / "drills")
    data = tmp_path / "data"
    return data, drill_path, play(data, drill_path)


def test_timeline_marks_answer_key_and_trainee_actions(stored):
    data, drill_path, sid = stored
    with ResultsStore(data) as store:
        session = store.get(sid)
    from warroom.core.model import PlayedAs
    from warroom.core.variants import session_drill

    played = session_drill(load(drill_path), None, PlayedAs.SIGNAL)  # its ids by position, as the session played
    tl = build_review_rows(played, session.actions)
    assert tl.warning is None and tl.contained_at == 27.0
    e06 = next(r for r in tl.rows if r.kind == "event" and r.event.id == "e06")
    assert {"evidence", "earliest evidence", "fault step"} <= set(e06.key)
    assert e06.trainee == ["inspected at 12 s", "flagged", "cited"]
    actions = [r for r in tl.rows if r.is_trainee_action]
    assert [a.text for a in actions] == [
        "flagged e06: 41 rows, billing said [about 300]",
        "escalated step s3: refund batch looks small",
        "escalated step s1: snapshot is stale",
    ]
    assert actions[0].trainee == ["evidence flagged"]
    assert actions[1].trainee == ["false escalation", "fault was in step s1"]  # recorded with no citations
    assert actions[2].trainee == ["contained", "cited e06 (evidence)"]
    # the false escalation let the trace run on for 15 s: those events come between the two escalations
    i1, i2 = [i for i, r in enumerate(tl.rows) if r.is_trainee_action][1:]
    between = [r.event.id for r in tl.rows[i1 + 1 : i2] if r.kind == "event"]
    assert between and all(12 < tl.rows[tl.rows.index(r)].t <= 27 for r in tl.rows[i1 + 1 : i2] if r.kind == "event")
    # after the containment: the re-plan plays; the rest of the trace is listed as not played
    replan = [r for r in tl.rows if "re-plan" in r.key]
    assert replan and all(r.played for r in replan)
    not_played = [r for r in tl.rows if r.kind == "event" and not r.played]
    assert not_played and not_played[-1].event.id == played.trace[-1].id
    assert any(r.kind == "marker" and "deadline" in r.text for r in tl.rows)


def test_timeline_of_a_log_that_no_longer_fits_the_drill():
    from store_support import bundled_drill_path

    drill = load(bundled_drill_path())
    tl = build_review_rows(drill, [Action(t=5, kind=ActionKind.FLAG, event="no-such-event")])
    assert tl.warning and "does not replay" in tl.warning
    assert [r.kind for r in tl.rows].count("event") == len(drill.trace)


def _text(screen, selector: str) -> str:
    from textual.widgets import Static

    return str(screen.query_one(selector, Static).content)


async def test_review_screen_steps_through_the_session(stored):
    from warroom.tui.app import ReviewApp
    from warroom.tui.screens import ReviewScreen

    data, _drill_path, sid = stored
    with ResultsStore(data) as store:
        review = load_review(store.get(sid[:12]))
    app = ReviewApp(review)
    async with app.run_test(size=(160, 50)) as pilot:
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        head = _text(screen, "#review-head")
        assert sid in head and "ann" in head and "contained" in head
        answer = _text(screen, "#review-answer")
        assert "fault origin  s1" in answer and "stale_data" in answer and "Debrief" in answer
        assert "Distractors (harmless)" in answer
        card = _text(screen, "#review-scorecard")
        assert f"total {review.session.total}/100" in card and "false escalation" in card.lower()
        assert not screen.query_one("#review-notice").display
        # laid out by warroom.tcss, the app's one stylesheet: the timeline 3fr beside a bordered 2fr side panel
        assert "DEFAULT_CSS" not in vars(ReviewScreen)
        side, timeline = screen.query_one("#review-side"), screen.query_one("#review-table")
        assert side.styles.border_left[0] == "solid"
        assert timeline.outer_size.width / side.outer_size.width == pytest.approx(1.5, abs=0.05)
        # the cursor starts on the first trainee action: the flag, with its note shown literally
        assert screen.selected.action.kind is ActionKind.FLAG
        assert "41 rows, billing said [about 300]" in _text(screen, "#review-detail")
        await pilot.press("n")
        assert screen.selected.action.step == "s3"
        assert "false escalation" in _text(screen, "#review-detail")
        await pilot.press("n")
        assert screen.selected.action.step == "s1" and "contained" in _text(screen, "#review-detail")
        # what the containing escalation cited, and what it is by the answer key
        assert "cited:\n  e06 (evidence) " in _text(screen, "#review-detail")
        await pilot.press("n")  # no later action: stays
        assert screen.selected.action.step == "s1"
        await pilot.press("p", "p")
        assert screen.selected.action.kind is ActionKind.FLAG
        await pilot.press("e")
        assert screen.selected.kind == "event" and "evidence" in screen.selected.key
        assert "answer key: " in _text(screen, "#review-detail")
        await pilot.press("down")
        assert screen.selected is not None
        await pilot.press("q")
    assert app.return_code == 0


async def test_review_says_when_the_drill_file_changed(stored):
    from warroom.tui.app import ReviewApp

    data, drill_path, sid = stored
    drill_path.write_text(drill_path.read_text() + "\n# edited since\n")
    with ResultsStore(data) as store:
        review = load_review(store.get(sid))
    assert review.drill_changed
    app = ReviewApp(review)
    async with app.run_test(size=(160, 50)):
        notice = app.screen.query_one("#review-notice")
        assert notice.display and "has changed since this session was played" in _text(app.screen, "#review-notice")


async def test_the_trainee_reads_the_facilitators_notes_in_their_review(stored):
    """A facilitator's note on a session (the console writes it: schema version 12) is in `warroom review` of the
    session, under the facilitator's name, shown literally."""
    from warroom.tui.app import ReviewApp

    data, _, sid = stored
    with ResultsStore(data) as store:
        first = store.add_note(sid, author="Fran Allen", text="Good catch on e06.", at="2026-12-01T14:10:00Z")
        store.add_note(sid, author="Fran Allen", text="Next: cite [bold]e06[/bold] at once.", at="2026-12-01T14:12:00Z")
        review = load_review(store.get(sid))
    assert first.seq == 1
    assert review.note_lines() == [
        "Note from Fran Allen (2026-12-01 14:10 UTC): Good catch on e06.",
        "Note from Fran Allen (2026-12-01 14:12 UTC): Next: cite [bold]e06[/bold] at once.",
    ]
    app = ReviewApp(review)
    async with app.run_test(size=(160, 50)):
        notice = app.screen.query_one("#review-notice")
        shown = _text(app.screen, "#review-notice")
        assert notice.display and "Note from Fran Allen (2026-12-01 14:12 UTC): Next: cite [bold]e06[/bold]" in shown


async def test_review_without_the_drill_file_still_shows_the_actions(tmp_path: Path):
    from warroom.tui.app import ReviewApp

    drill_path = copy_drill(tmp_path / "private", new_id="private-refunds")
    data = tmp_path / "data"
    sid = play(data, drill_path)
    drill_path.unlink()
    with ResultsStore(data) as store:
        review = load_review(store.get(sid))
    assert review.drill is None and "not found" in review.notices[0]
    app = ReviewApp(review)
    async with app.run_test(size=(160, 50)) as pilot:
        assert app.screen.selected.action.kind is ActionKind.FLAG
        await pilot.press("n")
        assert app.screen.selected.action.step == "s3"
        assert "the drill file is not available" in _text(app.screen, "#review-answer")


@sqlite_only  # its last check: a data directory without a store file
def test_review_cli_unknown_and_ambiguous_ids(stored):
    data, drill_path, sid = stored
    other = play(data, drill_path, trainee="bob")
    runner = CliRunner()
    r = runner.invoke(main, ["review", "zzz", "--data-dir", str(data)])
    assert r.exit_code == 1 and "no stored session with id 'zzz'" in r.output and "Traceback" not in r.output
    common = os.path.commonprefix([sid, other])  # noqa: RUF071 - the common start of two id strings is wanted
    assert len(common) >= 9  # both ids begin with the same UTC date
    r = runner.invoke(main, ["review", common, "--data-dir", str(data)])
    assert r.exit_code == 1 and "matches several sessions" in r.output and sid in r.output
    r = runner.invoke(main, ["review", common[:8], "--data-dir", str(data)])
    assert r.exit_code == 1 and f"session id prefix '{common[:8]}' matches several sessions: " in r.output
    assert sid in r.output and other in r.output
    r = runner.invoke(main, ["review", "x", "--data-dir", str(data / "nowhere")])
    assert r.exit_code == 1 and "no results store" in r.output


def test_review_of_an_unknown_id_names_the_store_it_searched(stored, backend_url):
    from warroom.store.backends import redact
    from warroom.store.datadir import DB_NAME

    data, _drill_path, _sid = stored
    r = CliRunner().invoke(main, ["review", "zzz", "--data-dir", str(data)])
    assert r.exit_code == 1 and "no stored session with id 'zzz'" in r.output
    where = str(data / DB_NAME) if backend_url is None else redact(backend_url)
    assert f"in {where} (`warroom scores` lists the sessions)" in r.output.replace("\n", "")
    if backend_url is not None:  # a PostgreSQL store is not in the data directory, and its URL is shown redacted
        assert str(data) not in r.output


async def test_review_shows_drill_times_with_one_decimal(tmp_path: Path):
    from warroom.tui.app import ReviewApp

    drill_path = copy_drill(tmp_path / "drills")
    data = tmp_path / "data"
    drill = load(drill_path)
    rec = SessionRecorder.start(data, "ann", drill_path, drill)
    drill = rec.drill  # its ids by position, as the session plays them
    replay = Replay(drill, on_action=rec.record)
    replay.advance(14.4027)
    replay.inspect("e06")
    replay.flag("e06", "too few rows")
    replay.advance(4.1114)
    replay.escalate("s1", "stale snapshot")
    rec.finish(score(drill, rec.actions))
    with ResultsStore(data) as store:
        session = store.get(rec.session_id)
    assert session.actions[0].t == 14.4027  # the stored log keeps full precision
    review = load_review(session)
    e06 = next(r for r in review.review_rows.rows if r.kind == "event" and r.event.id == "e06")
    assert e06.trainee == ["inspected at 14.4 s", "flagged"]
    app = ReviewApp(review)
    async with app.run_test(size=(160, 50)) as pilot:
        detail = _text(app.screen, "#review-detail")
        assert "(14.4 s)" in detail and "14.4027" not in detail
        await pilot.press("n")
        detail = _text(app.screen, "#review-detail")
        assert "(18.5 s)" in detail and "18.514" not in detail


def test_review_cli_takes_the_id_suffix(stored, monkeypatch):
    from warroom.tui.app import ReviewApp

    data, _drill_path, sid = stored
    opened = []
    monkeypatch.setattr(ReviewApp, "run", lambda self: opened.append(self.data.session.session_id))
    r = CliRunner().invoke(main, ["review", sid[-4:], "--data-dir", str(data)])
    assert r.exit_code == 0, r.output
    assert opened == [sid]


async def test_review_shows_the_false_escalation_replan_and_cuts_unplayed_rows_with_an_ellipsis(stored):
    from screen_support import screen_text

    from warroom.tui.app import ReviewApp

    data, _drill_path, sid = stored
    with ResultsStore(data) as store:
        review = load_review(store.get(sid))
    app = ReviewApp(review)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = app.screen
        await pilot.press("n")  # the false escalation of s3
        assert screen.selected.action.step == "s3"
        table = screen.query_one("#review-table")
        escalated = table.cursor_row
        # its re-plan is listed when the trainee had the drill back (12 s + 15 s), after the events released meanwhile,
        # as the war room lists it
        replan = next(i for i, r in enumerate(screen.rows) if r.kind == "replan")
        assert replan > escalated + 1 and all(r.kind == "event" for r in screen.rows[escalated + 1 : replan])
        assert screen.rows[replan].t == screen.selected.action.t + 15
        table.move_cursor(row=replan, animate=False)
        await pilot.pause()
        assert screen.selected.kind == "replan"
        detail = _text(screen, "#review-detail")
        assert "After the false escalation at 00:12 (12 s)" in detail
        assert "the drill clock jumped 15 s, 00:12 -> 00:27" in detail
        assert "RE-PLAN" in screen_text(app)
        # rows of events that never played: "(not played) …" cut with an ellipsis, as played rows are
        unplayed = [i for i, r in enumerate(screen.rows) if r.kind == "event" and not r.played]
        table.move_cursor(row=unplayed[-1], animate=False)
        await pilot.pause()
        lines = [ln for ln in screen_text(app).splitlines() if "(not played" in ln]
        assert len(lines) >= 10 and all("(not played…" in ln for ln in lines)


async def test_review_shows_what_was_cited_and_whether_it_was_evidence_a_distractor_or_irrelevant(tmp_path: Path):
    from warroom.tui.app import ReviewApp

    drill_path = copy_drill(tmp_path / "drills")
    data = tmp_path / "data"
    drill = load(drill_path)
    rec = SessionRecorder.start(data, "bo", drill_path, drill)
    drill = rec.drill  # its ids by position, as the session plays them
    replay = Replay(drill, on_action=rec.record)
    replay.advance(24)
    replay.escalate("s1", "the refunds list is empty", ["e09", "e07"])  # a distractor and s1's report
    replay.run_to_end()
    rec.finish(score(drill, rec.actions))
    with ResultsStore(data) as store:
        review = load_review(store.get(rec.session_id))
    (row,) = [r for r in review.review_rows.rows if r.is_trainee_action]
    assert row.trainee == ["right step, unsupported", "cited e09 (distractor)", "cited e07 (irrelevant)"]
    e09 = next(r for r in review.review_rows.rows if r.kind == "event" and r.event.id == "e09")
    assert e09.trainee == ["cited"] and "distractor" in e09.key
    app = ReviewApp(review)
    async with app.run_test(size=(160, 50)) as pilot:
        screen = app.screen
        head = _text(screen, "#review-head")  # the outcome's label, as `warroom scores` shows it, not its raw value
        assert "·  right step, unsupported  10/100" in head and "right_step_unsupported" not in head
        detail = _text(screen, "#review-detail")
        assert "cited:\n  e09 (distractor) " in detail and "  e07 (irrelevant) " in detail
        assert "Escalation of s1 at 24 s cited e09 (a distractor), e07 (shows nothing about the fault)." in " ".join(
            _text(screen, "#review-scorecard").split()
        )
        await pilot.pause()


def test_a_cited_event_missing_from_an_edited_drill_is_named_not_dropped():
    from warroom.core.library import bundled_drills_dir
    from warroom.core.load import load_drill
    from warroom.tui.screens import cited_events

    drill = load_drill(bundled_drills_dir() / "duplicate-charge-refunds.yaml")
    first = drill.trace[0].id
    text = cited_events(drill, [first, "e999"]).plain
    assert f"  {first} (" in text
    assert "  e999 (" in text and "(not in this drill file)" in text


def test_a_tutorial_session_is_reviewed_on_the_bundled_tutorial_without_a_path(tmp_path: Path):
    """The tutorial's drill is bundled: a tutorial session whose recorded file is gone is reviewed on the bundled
    tutorial.yaml, even when a --drills folder holds another drill file named tutorial.yaml."""
    import shutil

    from warroom.core.library import bundled_drills_dir

    bundled = bundled_drills_dir() / "tutorial.yaml"
    played = tmp_path / "old-install" / "tutorial.yaml"
    played.parent.mkdir()
    shutil.copy(bundled, played)
    drill = load(played)
    rec = SessionRecorder.start(tmp_path / "data", "ann", played, drill, mode="tutorial")
    replay = Replay(drill, on_action=rec.record)
    replay.run_to_end()
    rec.finish(score(drill, rec.actions))
    shutil.rmtree(played.parent)
    mine = tmp_path / "mine"
    copy_drill(mine, new_id="tutorial")  # another drill that happens to have the tutorial's id
    assert (mine / "tutorial.yaml").is_file()
    with ResultsStore(tmp_path / "data") as store:
        session = store.get(rec.session_id)
    assert session.mode == "tutorial"
    for dirs in ((), (mine,)):
        data = load_review(session, dirs)
        assert data.drill_problem is None
        assert data.drill_file is not None and data.drill_file.resolve() == bundled.resolve()
        assert data.drill_changed is False and data.drill is not None and data.drill.id == "tutorial"


async def test_review_rows_carry_the_format_2_marks_of_the_war_room(tmp_path: Path):
    """A result's call (↳), a parallel batch (⇉) and a retry (↻) are marked in the review as in the war room: the
    review of dataroom-change-of-control showed "HTTP 429 ..." with nothing saying which call it answered."""
    from store_support import bundled_drill_path

    from warroom.tui.app import ReviewApp

    drill_path = bundled_drill_path().parent / "dataroom-change-of-control.yaml"
    drill = load(drill_path)
    rec = SessionRecorder.start(tmp_path / "data", "ann", drill_path, drill)
    Replay(drill, on_action=rec.record).advance(30)
    rec.record(Action(t=30.0, kind=ActionKind.QUIT))
    rec.finish(score(drill, rec.actions))
    with ResultsStore(tmp_path / "data") as store:
        review = load_review(store.get(rec.session_id))
    app = ReviewApp(review)
    async with app.run_test(size=(160, 50)):
        table = app.screen.query_one("#review-table")
        rows = [" ".join(c.plain for c in table.row_cells(i)) for i in range(table.row_count)]
    assert any("⇉b1 clause.extract(" in r for r in rows)
    assert any("↳e07 HTTP 429" in r for r in rows)
    assert any("↻e07 " in r for r in rows)


def test_the_side_panel_judges_citations_by_the_sessions_rules():
    """``cited_events`` with ``compare`` (``ReviewData.citations_compare``: version 4's reading of a distractor's
    field as completing a comparison) marks ``e10`` evidence; without it (version 5) part of the comparison."""
    from round2_support import ROUND2

    from warroom.core.load import load_drill
    from warroom.tui.screens import cited_events

    drill = load_drill(ROUND2 / "audit-fx-by-position.yaml")
    cites = ("e05:stale_after", "e10")
    assert "e10 (evidence)" in cited_events(drill, cites, True).plain
    assert "e10 (part)" in cited_events(drill, cites, False).plain
