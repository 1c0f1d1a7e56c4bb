"""Finding drills in the picker (issue 35 items 5 and 7): `/` filters by title, domain or tag as you type, `s` sorts
by level or best score, and group names are shown whole at 80 columns."""

from __future__ import annotations

import itertools

from textual.widgets import DataTable

from warroom.core.library import bundled_drills_dir, find_drill_files
from warroom.tui.logic import domain_of, filter_entries, load_entry, sort_entries

from .conftest import make_app, picker_ready, screen_text, type_text


def _bundled():
    return [load_entry(p) for p in find_drill_files([bundled_drills_dir()])]


def test_the_filter_keeps_drills_with_every_word_in_title_id_domain_or_tags():
    entries = _bundled()
    ids = lambda es: {e.card.id for e in es}  # noqa: E731
    assert ids(filter_entries(entries, "healthcare")) == {"clinic-rebooking", "dental-recall-calls",
                                                          "derm-clinic-rebooking-calls"}
    assert ids(filter_entries(entries, "Voice HEALTHCARE")) == {"dental-recall-calls", "derm-clinic-rebooking-calls"}
    assert ids(filter_entries(entries, "refund")) >= {"duplicate-charge-refunds", "delay-refund-chats"}
    assert filter_entries(entries, "") == entries and filter_entries(entries, "zzz") == []


def test_sorting_by_level_and_by_best_score():
    entries = _bundled()
    levels = [e.card.difficulty for e in sort_entries(entries, "level", {})]
    assert levels == sorted(levels)
    best = {"tutorial": 100, "late-delivery-replies": 40, "delay-refund-chats": None}
    order = [e.card.id for e in sort_entries(entries, "best", best)]
    # never played first, then only quit, then from the lowest score up
    assert order[-3:] == ["delay-refund-chats", "late-delivery-replies", "tutorial"]
    assert sort_entries(entries, "domain", best) == entries


async def test_slash_filters_the_picker_as_you_type_and_escape_clears_it(services):
    app = make_app(services, None)
    async with app.run_test(size=(80, 24)) as pilot:
        picker = await picker_ready(pilot)
        table = picker.query_one("#picker-table", DataTable)
        everything = table.row_count
        await pilot.press("slash")
        await type_text(pilot, "voice-agents")  # a g would be the list's key: here it is the filter's
        await pilot.pause()
        assert {e.card.id for e in picker.entries} == {"dental-recall-calls", "derm-clinic-rebooking-calls",
                                                      "outage-callback-calls"}
        total = len(find_drill_files([bundled_drills_dir()]))
        assert f"Drills · 3 of {total} · filter “voice-agents”" in screen_text(app)
        await pilot.press("enter")  # back to the list, the filter kept
        assert table.has_focus and table.row_count == 3
        await pilot.press("s")  # by level
        assert "· by level" in screen_text(app)
        levels = [e.card.difficulty for e in picker.entries]
        assert levels == sorted(levels)
        await pilot.press("escape")  # clears the filter
        await pilot.pause()
        assert table.row_count == everything and picker.filter_text == ""
        await pilot.press("slash")
        await type_text(pilot, "nothing-like-this")
        await pilot.pause()
        assert table.row_count == 0 and "No drill matches “nothing-like-this”" in screen_text(app)


async def test_group_names_are_whole_at_80_columns(services):
    app = make_app(services, None)
    async with app.run_test(size=(80, 40)) as pilot:
        picker = await picker_ready(pilot)
        table = picker.query_one("#picker-table", DataTable)
        labels = [str(table.get_cell(row, "group")) for row in table.rows]
        assert "customer-support" in labels and "…" not in "".join(labels)
        assert table.columns["group"].width >= max(len(label) for label in labels)  # none is cut
        text = screen_text(app)
        assert " customer-support " in text or " code-agents " in text  # on screen, whole



def test_sort_ties_are_broken_the_same_way_whatever_the_order_read():
    """Issue 35's walk-through: ties (a level, a best score) fell in the order the drills happened to be read.
    Now: by level, then domain, then title; among equal best scores (never played), the easiest first."""
    entries = _bundled()
    for sort in ("level", "best"):
        assert sort_entries(entries, sort, {}) == sort_entries(list(reversed(entries)), sort, {})
    by_level = sort_entries(entries, "level", {})
    for one, two in itertools.pairwise(by_level):
        if one.card.difficulty == two.card.difficulty and domain_of(one) == domain_of(two):
            assert one.card.title.casefold() <= two.card.title.casefold()  # one domain's drills together, by title
    runs = [key for key, _ in itertools.groupby((e.card.difficulty, domain_of(e)) for e in by_level)]
    assert len(runs) == len(set(runs))  # within a level, each domain's drills come together
    levels = [e.card.difficulty for e in sort_entries(entries, "best", {})]
    assert levels == sorted(levels)  # never played, all: the easiest first
