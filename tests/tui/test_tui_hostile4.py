"""Hostile text typed into the terminal UI (issue 30's fourth hostile campaign): what a trainee types is shown
literally wherever it goes, never read as Textual markup."""

from __future__ import annotations

import pytest

from warroom.tui.widgets import Inspector

from .conftest import advance, make_app, picker_ready, screen_text, type_text

#: Texts Textual's markup reads as tags: a closing tag with nothing to close, a link, a click action, a style.
TAGS = ["[/x]", "[/]", "[link=http://x]l", "[@click=app.quit]q[/]", "[b]bold"]


@pytest.mark.parametrize("typed", TAGS)
async def test_the_pickers_filter_is_shown_literally_in_the_lists_title(services, typed: str):
    """The filter went into the table's border title as a str, which Textual reads as markup: ``[/x]`` was a
    MarkupError that ended the app (a traceback; in ``warroom serve`` the trainee's session)."""
    app = make_app(services, None)
    async with app.run_test(size=(100, 24)) as pilot:
        await picker_ready(pilot)
        await pilot.press("slash")
        await type_text(pilot, typed)
        await pilot.pause()
        assert app.is_running
        assert f"filter “{typed}”" in screen_text(app)


@pytest.mark.parametrize("typed", TAGS)
async def test_the_inspectors_search_is_shown_literally_in_its_border(services, typed: str):
    """The same for the inspector's search (``/``): its bottom border said ``/[/x]: none`` as markup."""
    app = make_app(services)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 12)
        await pilot.press("slash")
        await type_text(pilot, typed)
        await pilot.press("enter")
        await pilot.pause()
        assert app.is_running
        assert app.live.query_one(Inspector).search_status() == f"/{typed}: none"
        assert f"/{typed}: none" in screen_text(app)


@pytest.mark.parametrize("size", [(1, 1), (5, 3), (3, 200)])
async def test_the_escalation_dialog_opens_in_a_terminal_a_few_columns_wide(services, size: tuple[int, int]):
    """A served tab says its size (``["resize", {"width": 1, ...}]``): in a terminal of 1 to 5 columns the escalation
    dialog's lists had no column left, and Textual's layout failed (``range() arg 3 must not be zero``): the app
    ended. The dialog now opens, and a wider terminal shows it whole again."""
    from warroom.tui.room import EscalateScreen

    app = make_app(services)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter")
        await advance(pilot, 5)
        await pilot.resize_terminal(*size)
        await pilot.press("e")
        await pilot.pause()
        assert app.is_running and isinstance(app.screen, EscalateScreen)
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        assert "Escalate" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert app.is_running and app.screen is app.live
