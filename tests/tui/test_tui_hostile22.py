"""Campaign 22 on the terminal UI (issue 30): bidirectional marks in drill text, invisible characters in a stored
trainee name, in the picker's filter and in the inspector's search; what it found and what now holds."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from store_support import copy_drill

from warroom.tui.logic import Services
from warroom.tui.screens import BriefingScreen
from warroom.tui.widgets import Inspector

from .conftest import make_app, record_notifications, screen_text, until, war_room
from .test_review import play


async def test_a_right_to_left_mark_in_a_drill_title_is_shown_escaped_on_the_briefing(tmp_path: Path) -> None:
    """A U+200F RIGHT-TO-LEFT MARK in a drill's title reached the terminal raw (U+202E was escaped): on a bidi-aware
    terminal it reorders the line's neutral characters, and it shows nothing. It is shown ``\\u200f``, like the
    other bidirectional controls."""
    path = copy_drill(tmp_path / "drills")
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('title: "Duplicate-charge', 'title: "INC-4471 \u200f- Duplicate-charge'),
                    encoding="utf-8")  # fmt: skip
    app = make_app(Services(trainee="tester", data_dir=tmp_path / "data"), drill_path=path)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: isinstance(pilot.app.screen, BriefingScreen), "the briefing")
        shown = screen_text(pilot.app)
    assert "INC-4471 \\u200f- Duplicate-charge" in shown, shown
    assert "\u200f" not in shown


def test_a_zero_width_space_in_a_stored_trainee_name_is_shown_in_the_review(tmp_path: Path) -> None:
    """A trainee name holding a zero-width space, written into the store by SQL (no check runs there), was shown in
    the review's heading as the name without it: ``ann\\u200b`` read as ``ann``. It is shown escaped."""
    from warroom.store.results import ResultsStore
    from warroom.store.review import load_review
    from warroom.tui.screens._reviewpanels import headline

    drill_path = copy_drill(tmp_path / "drills")
    data = tmp_path / "data"
    sid = play(data, drill_path, trainee="ann")
    with sqlite3.connect(data / "results.sqlite3") as conn:
        conn.execute("UPDATE sessions SET trainee = ? WHERE session_id = ?", ("ann\u200b", sid))
    with ResultsStore(data) as store:
        review = load_review(store.get(sid), (drill_path.parent,), store)
    shown = headline(review).plain
    assert "trainee ann\\u200b  ·" in shown, shown
    with sqlite3.connect(data / "results.sqlite3") as conn:  # a drill id the same way: named in the heading
        conn.execute("UPDATE sessions SET drill_id = ? WHERE session_id = ?", ("duplicate-charge-refunds\u2060", sid))
    with ResultsStore(data) as store:
        review = load_review(store.get(sid), (), store)
    assert "(duplicate-charge-refunds\\u2060 v" in headline(review).plain, headline(review).plain


def test_the_pickers_filter_of_invisible_characters_or_spaces_is_shown_as_it_is() -> None:
    """A pasted zero-width space as the picker's filter matched no drill under the title "0 of 44 · filter “”" and
    the note "No drill matches “”": the trainee could not see what they had typed. It is shown escaped. A filter of
    spaces alone (which filters nothing) was titled "44 of 44 · filter “”"; no filter is named now."""
    from warroom.tui.screens._pickerview import shown_filter, table_title

    assert table_title(0, 44, "\u200b", "domain") == "Drills · 0 of 44 · filter “\\u200b”"
    assert table_title(44, 44, "   ", "domain") == "Drills"
    assert table_title(44, 44, "   ", "level") == "Drills · by level"
    assert table_title(3, 44, " voice  agents\u2060 ", "domain") == "Drills · 3 of 44 · filter “voice agents\\u2060”"
    assert shown_filter("a\u200bb") == "a\\u200bb"


async def test_an_inspector_search_for_an_invisible_character_is_shown_escaped(services) -> None:
    """The inspector's search (``/``) for a pasted zero-width space was shown ``/: none`` in the inspector's border,
    and ``n`` said "No “” here.": the text searched for could not be seen. Both show it escaped."""
    app = make_app(services)
    notes = record_notifications(app)
    async with war_room(app, seconds=12) as (pilot, room):
        inspector = room.query_one(Inspector)
        inspector.search("\u200b")
        await pilot.pause()
        assert inspector.search_status() == "/\\u200b: none"
        await pilot.press("n")
        await pilot.pause()
    assert "No “\\u200b” here." in notes, notes
