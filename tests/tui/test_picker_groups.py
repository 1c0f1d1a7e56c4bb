"""The drill picker groups the library by domain, with the tutorial first for a new trainee (issue 17)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import DataTable

from warroom.core.library import bundled_drills_dir, find_drill_files
from warroom.tui.logic import (
    DrillEntry,
    domain_key,
    domain_of,
    group_entries,
    is_tutorial,
    load_entry,
    new_trainee,
    tutorial_path,
)

from .conftest import make_app, picker_ready


def _bundled() -> list[DrillEntry]:
    return [load_entry(p) for p in find_drill_files([bundled_drills_dir()])]


def test_domain_keys_join_the_spellings_of_one_domain():
    assert domain_key("code-agent") == domain_key("code-agents") == domain_key("Code agents") == "code-agent"
    assert domain_key("finance_ops") == domain_key("finance-ops") == "finance-ops"  # a short word keeps its s
    assert domain_key("security-access") == "security-access"  # not "acces"
    assert domain_key("data-pipeline") != domain_key("data-pipelines-and-more")


def test_the_library_is_grouped_by_its_first_domain_tag():
    entries = _bundled()
    groups = group_entries(entries, tutorial_first=True, is_tutorial=is_tutorial)
    assert groups[0].label == "start here" and [e.drill.id for e in groups[0].entries] == ["tutorial"]
    assert sorted(e.path for g in groups for e in g.entries) == sorted(e.path for e in entries)  # each drill once
    domains = groups[1:]
    keys = [domain_key(g.label) for g in domains]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)  # alphabetical, one group per domain
    for group in domains:
        assert {domain_key(domain_of(e)) for e in group.entries} == {domain_key(group.label)}
    by_id = {e.drill.id: g.label for g in groups for e in g.entries}
    # spellings of one domain make one group ("code-agent" and "code-agents"; the bundled library has one spelling)
    code = group_entries([*_spelt(entries, "code-agents", "code-agent")], tutorial_first=False,
                         is_tutorial=is_tutorial)
    assert [g.label for g in code] == ["code-agents"] and len(code[0].entries) == 2
    assert by_id["stripe-sdk-upgrade"] == by_id["tax-region-migration"] == "code-agents"


def _spelt(entries: list[DrillEntry], *spellings: str) -> list[DrillEntry]:
    """Two code-agents drills of ``entries``, the second with its domain spelt as the second of ``spellings``."""
    import dataclasses

    picked = [e for e in entries if e.card is not None and e.card.public_tags[:1] == (spellings[0],)][:2]
    card = picked[1].card
    assert card is not None
    other = dataclasses.replace(card, public_tags=(spellings[1], *card.public_tags[1:]))
    return [picked[0], dataclasses.replace(picked[1], card=other)]


def test_the_tutorial_is_last_once_a_drill_is_finished_and_broken_files_come_after():
    broken = DrillEntry(Path("/nowhere/broken.yaml"), None, ("/nowhere/broken.yaml:1:1: bad",))
    groups = group_entries([*_bundled(), broken], tutorial_first=False, is_tutorial=is_tutorial)
    assert [g.label for g in groups[-2:]] == ["tutorial", "cannot load"]
    assert groups[-1].entries == (broken,)
    assert all(g.label != "start here" for g in groups)


def test_a_new_trainee_has_finished_no_drill():
    assert new_trainee({})
    assert new_trainee({"tutorial": None})  # only quit it: still new
    assert not new_trainee({"tutorial": 80})
    assert not new_trainee({"duplicate-charge-refunds": 0})


def test_a_copy_of_the_tutorial_elsewhere_is_an_ordinary_drill(tmp_path):
    copy = tmp_path / "tutorial.yaml"
    copy.write_text(tutorial_path().read_text(encoding="utf-8"), encoding="utf-8")
    assert is_tutorial(load_entry(tutorial_path())) and not is_tutorial(load_entry(copy))


async def _picker_rows(app, pilot) -> tuple[list[str], list[str]]:
    picker = await picker_ready(pilot)
    table = picker.query_one("#picker-table", DataTable)
    labels = [str(table.get_cell(row, "group")) for row in table.rows]
    return [e.card.id for e in picker.entries], labels


async def test_the_picker_shows_the_tutorial_first_to_a_new_trainee_and_last_after_it(services):
    from store_support import add_session

    from warroom.store.results import ResultsStore

    app = make_app(services, drill_path=None)
    async with app.run_test(size=(100, 40)) as pilot:
        ids, labels = await _picker_rows(app, pilot)
        assert ids[0] == "tutorial" and labels[0] == "start here"
        assert app.screen.selected().card.id == "tutorial"  # enter starts it
        code = ids.index("stripe-sdk-upgrade")
        assert labels[code] == "" or domain_key(labels[code]) == "code-agent"
        assert sum(domain_key(label) == "code-agent" for label in labels) == 1  # one labelled row per group
    with ResultsStore(services.data_dir) as store:
        add_session(store, "t1", trainee=services.trainee, drill_id="tutorial", outcome="contained", total=95)
    app = make_app(services, drill_path=None)
    async with app.run_test(size=(100, 40)) as pilot:
        ids, labels = await _picker_rows(app, pilot)
        assert ids[0] != "tutorial" and ids[-1] == "tutorial" and labels[-1] == "tutorial"
        assert labels[0] != "start here"


async def test_the_preview_separates_the_author_from_the_domain(services):
    # "by warroom drill library · customer-support", not "library· customer-support" (the separator's leading
    # space was folded away with the text's own whitespace).
    from screen_support import screen_text

    app = make_app(services, drill_path=None)
    async with app.run_test(size=(100, 40)) as pilot:
        picker = await picker_ready(pilot)
        ids = [e.card.id for e in picker.entries]
        table = picker.query_one(DataTable)
        table.move_cursor(row=ids.index("late-delivery-replies"))
        await pilot.pause()
        text = screen_text(app)
        assert "late-delivery-replies v2 · by warroom drill library · customer-support" in text, text


async def test_the_group_names_are_on_screen_beside_their_first_drill(services):
    # The names were DataTable row labels, which Textual left undrawn when it painted the rows before noticing them:
    # a real terminal showed no group name at all (and after a cursor move, an empty label column on two rows).
    from screen_support import screen_text

    app = make_app(services, drill_path=None)
    async with app.run_test(size=(120, 40)) as pilot:
        picker = await picker_ready(pilot)
        await pilot.press("down")
        await pilot.pause()
        lines = screen_text(app).splitlines()
        first = next(line for line in lines if "Tutorial:" in line)
        assert first.split("│")[1].split()[:3] == ["start", "here", "Tutorial:"]
        stripe = next(line for line in lines if "Stripe SDK upgrade" in line)
        title_at = first.index("Tutorial:")
        assert stripe.index("Stripe SDK upgrade") == title_at  # every title in one column, labelled or not
        assert any(line.startswith("│ code-agent") for line in lines)
        assert picker.entries[0].card.id == "tutorial"
        # The race cannot be forced here (Pilot often paints after the table noticed its labels), so: no row labels.
        table = picker.query_one("#picker-table", DataTable)
        assert all(row.label is None for row in table.rows.values())
        assert str(table.get_cell("0", "group")) == "start here"


@pytest.mark.parametrize("width", [60, 80, 120])
async def test_every_column_fits_a_narrow_terminal(services, width):
    # At 60 columns the 14-cell group column pushed the table past the screen: "best" read "bes", and a horizontal
    # scroll bar appeared. The group column narrows (to 8 cells at least) so the title and tags keep 8 cells each.
    from screen_support import screen_text

    app = make_app(services, drill_path=None)
    async with app.run_test(size=(width, 24)) as pilot:
        picker = await picker_ready(pilot)
        table = picker.query_one("#picker-table", DataTable)
        assert table.max_scroll_x == 0
        header = next(line for line in screen_text(app).splitlines() if "title" in line and "level" in line)
        assert header.split()[-2:] == ["best", "│"], header
        assert str(table.get_cell("0", "group")).startswith("start")
