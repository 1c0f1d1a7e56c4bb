"""An ASCII screen (a locale that is not UTF-8: LANG=C, TERM=dumb) names its keys in words.

Found playing in ``LANG=C``: the briefing's footer read ``? Start the drill  esc Back  q Quit  ? Help`` (Textual's
``⏎`` for enter has no ASCII stand-in, so it became ``?``, the help key), and the help's ``↑ k`` / ``↓ j`` read
``^ k`` (ctrl) / ``v j`` (``v`` is the verification probe's key). The trace table's marks (``↳e02``) were ``?e02``.
"""

from __future__ import annotations

import pytest
from rich.cells import cell_len

from warroom.tui.render import ASCII_TABLE, ascii_screen
from warroom.tui.room import WarRoomScreen
from warroom.tui.widgets import footer_label, help_rows, key_label, key_prose

from .conftest import advance, make_app, screen_text


@pytest.fixture
def ascii_locale(monkeypatch):
    for name in ("LC_ALL", "LC_CTYPE", "WARROOM_CHARSET"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C")
    assert ascii_screen()


@pytest.fixture
def utf8_locale(monkeypatch):
    monkeypatch.setenv("WARROOM_CHARSET", "utf-8")
    assert not ascii_screen()


def test_keys_are_named_in_words_on_an_ascii_screen(ascii_locale):
    assert [key_label(k) for k in ("up", "down", "enter", "question_mark", "pageup", "f")] == [
        "up", "down", "enter", "?", "pgup", "f"
    ]
    assert footer_label("⏎", "enter") == "enter" and footer_label("q", "q") == "q"
    keys = [key for key, _ in help_rows(WarRoomScreen)]
    assert all(key.isascii() for key in keys), keys
    assert {"up k", "down j", "enter", "v"} <= set(keys)  # the arrows are not "^ k" (ctrl) and "v j" (the probe)


def test_keys_keep_their_symbols_on_a_utf8_screen(utf8_locale):
    assert [key_label(k) for k in ("up", "down")] == ["↑", "↓"]
    assert footer_label("⏎", "enter") == "⏎"


async def test_the_briefing_footer_says_enter_on_an_ascii_screen(services, ascii_locale):
    app = make_app(services)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        footer = screen_text(app).splitlines()[-1]
        assert "enter Start the drill" in footer and footer.count("?") == 1, footer


def test_the_trace_marks_have_ascii_stand_ins_of_their_width():
    marks = "↳e02 ↻e08 ⇉B ×58 ✂ − ′ ⏎"
    plain = marks.translate(ASCII_TABLE)
    assert plain == ">e02 Re08 =B x58 % - ' <"
    assert cell_len(plain) == cell_len(marks) and "?" not in plain


def test_prose_names_arrow_keys_in_words_on_an_ascii_screen(ascii_locale):
    assert key_prose("↑↓ jk step · enter escalates") == "up/down jk step · enter escalates"
    assert key_prose("Select a trace event (↑ ↓ j k), then ⏎") == "Select a trace event (up down j k), then enter"
    assert key_prose("move with ↑ (or k)") == "move with up (or k)"
    texts = [text for _, text in help_rows(WarRoomScreen)]
    assert not any(ch in text for text in texts for ch in "↑↓"), texts


def test_prose_keeps_its_arrows_on_a_utf8_screen(utf8_locale):
    assert key_prose("↑↓ jk step") == "↑↓ jk step"


async def test_the_escalation_dialog_hint_and_the_new_rows_hint_say_keys_in_words(services, ascii_locale):
    app = make_app(services)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        live = app.screen
        assert isinstance(live, WarRoomScreen)
        await advance(pilot, 20)
        await pilot.press("home")  # away from the newest event: the trace counts the rows that come in below
        await advance(pilot, 20)
        assert "new below (G)" in screen_text(app), screen_text(app)
        await pilot.press("e")
        await pilot.pause()
        text = screen_text(app)
        assert "up/down jk step" in text, text
