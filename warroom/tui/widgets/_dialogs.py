"""Dialogs every screen uses: the help (``?``, built from the screen's key bindings) and a yes / no question.

Each dismisses with its answer (None for the help). Drill text in them is shown literally, never as markup.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, TypeVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.await_complete import AwaitComplete
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Label, Static

from warroom.tui.widgets._keyhelp import help_body, help_rows, key_prose

_Result = TypeVar("_Result")


class Dialog(ModalScreen[_Result]):
    """A modal dialog. Each makes the keys that close it without a text to read (escape, a y/n answer) priority
    keys, run as the app reads them (but those answered in one field: :data:`ANSWERED_BY`), so the keys typed
    right behind them go to the screen beneath (``? esc f`` flags; the dialog's own keys ran later, and the f went
    to the closing dialog, lost). And it is dismissed once: the keys typed right behind an enter that closes it
    (``/ x enter f enter`` typed fast) reached it still, as the app forwarded them while it was on top, and a
    second dismiss popped the screen beneath it (the war room, leaving a blank screen and the drill running
    unseen)."""

    #: The ids of the one-line fields whose enter is the dialog's answer (it closes on it, whatever was typed) and
    #: whose escape cancels it: the keys typed right behind either are held, and given to the app once the dialog
    #: is gone, so that they reach the screen beneath (``f x ⏎ k`` typed fast flagged with the note ``xk``, the
    #: cursor unmoved). Escape is no priority key there: as one, it ran before the keys typed ahead of it (``: x ⏎
    #: esc`` cancelled the go-to, x unread).
    ANSWERED_BY: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._answered = False
        self._held: list[events.Key] = []

    def held(self, field_id: str | None, key: events.Key) -> bool:
        """Whether the key ``key``, arriving at the field ``field_id``, was typed after the dialog's answer: held
        until the dialog is gone (:meth:`dismiss`), or given to the app at once when it is gone already."""
        if not self._answered:
            self._answered = self.answers(field_id, key)
            return False
        if self.app.screen is self:
            self._held.append(key)
        else:
            self._give(key)
        return True

    def answers(self, field_id: str | None, key: events.Key) -> bool:
        """Whether ``key``, typed in the field ``field_id``, is the dialog's answer, which closes it (here: enter or
        escape in one of the fields :data:`ANSWERED_BY`). A dialog that may refuse what was typed (and stay open)
        says so here, so that the keys typed behind a refused answer go into its field, as typed."""
        return field_id in self.ANSWERED_BY and key.key in ("enter", "escape")

    def _give(self, key: events.Key) -> None:
        """Give ``key`` to the app as a key read now, once the dialog's answer (which the app runs next: a flag made,
        the drill clock resumed) has run, so that it acts on its result: ``f a ⏎ / q ⏎`` typed fast opened the find
        dialog while the flag's still held the drill's pause, and journalled no pause of its own."""
        again = events.Key(key.key, key.character)
        again.set_sender(self.app)
        self.app.call_next(self.app.post_message, again)

    def dismiss(self, result: Any = None) -> AwaitComplete:
        if self.app.screen is not self:  # dismissed already (or not yet shown): never another screen's pop
            return AwaitComplete.nothing()
        done = super().dismiss(result)
        held, self._held = self._held, []
        for key in held:  # the screen beneath is on top now: read by the app as typed
            self._give(key)
        return done

    def action_cancel(self) -> None:
        """Close the dialog without an answer (None): what a dialog's escape binds, where it has one."""
        self.dismiss(None)


def mouse_button(button_id: str, label: str, action: str) -> Button:
    """A compact button of a dialog, so that a trainee who uses only the mouse can answer it: ``label`` names the key
    that does the same (``Flag (enter)``), ``action`` is the dialog's own (``screen.cancel``). It takes no focus, so
    the keys go where they went before a click."""
    button = Button(label, id=button_id, action=action, compact=True)
    button.can_focus = False
    button.active_effect_duration = 0  # no press effect, which swallowed a click within 0.2 s of the one before
    return button


def mouse_buttons(*buttons: tuple[str, str, str]) -> Horizontal:
    """A dialog's row of :func:`mouse_button` buttons, each ``(id, label, action)``."""
    return Horizontal(*(mouse_button(*button) for button in buttons), classes="mouse-buttons")


class HelpScreen(Dialog[None]):
    """The keys of one screen and how it works (``?`` on every screen). Escape, q, ? or enter closes it.

    Screens open it with :meth:`for_screen`, which builds the rows from the screen's bindings
    (:func:`warroom.tui.widgets.help_rows`), so the help lists exactly the keys the screen has.

    Args:
        title: the dialog's title, e.g. "War room keys".
        keys: (key, what it does) rows.
        notes: text shown under the keys.
    """

    BINDINGS = [
        Binding("escape,q,question_mark,enter", "dismiss_help", "Close", priority=True),
        Binding("up,k", "scroll(-1)", "Scroll up", show=False),
        Binding("down,j", "scroll(1)", "Scroll down", show=False),
    ]

    def __init__(self, title: str, keys: Sequence[tuple[str, str]], notes: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.keys = tuple(keys)
        self.notes = notes

    @classmethod
    def for_screen(cls, screen: Screen[Any]) -> HelpScreen:
        """The help of ``screen``: its ``HELP_TITLE``, the rows of its bindings, its ``HELP_NOTES``."""
        title = getattr(screen, "HELP_TITLE", "Keys")
        return cls(title, help_rows(screen), getattr(screen, "HELP_NOTES", ""))

    def compose(self) -> ComposeResult:
        with Vertical(id="help-box", classes="dialog"):
            yield Label(self.title_text, classes="dialog-title")
            yield VerticalScroll(Static(help_body(self.keys, self.notes)), id="help-body")
            with Horizontal(classes="mouse-buttons"):  # the hint and the button on one row: the body keeps its rows
                yield Label("escape closes", id="help-hint", classes="dialog-hint")
                yield mouse_button("help-close", "Close (esc)", "screen.dismiss_help")

    def on_mount(self) -> None:
        self.fit_body()

    def on_resize(self) -> None:
        self.fit_body()

    def fit_body(self) -> None:
        """Give the body the rows the box leaves (at most 90% of the terminal; its border, title and hint take 5), so
        it is never cut off: when it does not fit, it scrolls (with its scrollbar) and the hint says so."""
        body = self.query_one("#help-body", VerticalScroll)
        body.styles.max_height = max(int(self.app.size.height * 0.9) - 5, 3)
        self.call_after_refresh(self._update_hint)

    def _update_hint(self) -> None:
        body = self.query_one("#help-body", VerticalScroll)
        more = body.max_scroll_y > 0
        self.query_one("#help-hint", Label).update(key_prose("↑ ↓ scroll · escape closes") if more else "escape closes")

    def action_scroll(self, lines: int) -> None:
        self.query_one("#help-body", VerticalScroll).scroll_relative(y=lines, animate=False)

    def action_dismiss_help(self) -> None:
        self.dismiss(None)


class ConfirmScreen(Dialog[bool]):
    """A yes/no question (e.g. quit the drill?). Dismisses with True for yes."""

    BINDINGS = [
        Binding("y", "answer(True)", "Yes", priority=True),
        Binding("n,escape", "answer(False)", "No", priority=True),
    ]

    def __init__(self, question: str, detail: str = "") -> None:
        super().__init__()
        self.question = question
        self.detail = detail

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-box", classes="dialog"):
            yield Label(Text(self.question), classes="dialog-title")
            if self.detail:
                yield Label(Text(self.detail), classes="dialog-quote")
            with Horizontal(id="confirm-buttons"):
                yield Button("Yes (y)", id="yes", variant="error")
                yield Button("No (n)", id="no", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
