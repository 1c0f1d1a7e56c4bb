"""The dialogs of the author mode (``warroom annotate``): the fault, a distractor's reason, damage, the deadline and
the debrief. Each dismisses with its answer, or None when cancelled (escape); the annotate screen applies it to the
answer-key draft. Text typed here is the author's and is shown literally."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.suggester import SuggestFromList
from textual.widgets import Input, Label, TextArea

from warroom.core.model import FaultKind
from warroom.core.text import clean_line
from warroom.tui.render import literal_line

__all__ = ["DamageChoice", "DamageDialog", "DebriefDialog", "FaultChoice", "FaultDialog", "FieldPathDialog",
           "NumberDialog", "TextDialog", "parse_amount"]

#: The fault kinds, in the vocabulary's order (docs/authoring.md).
KINDS: tuple[str, ...] = tuple(k.value for k in FaultKind)


def parse_amount(text: str, minimum: float, strict: bool) -> float | None:
    """``text`` as a finite number above ``minimum`` (``strict``) or at least ``minimum``; None when it is not."""
    try:
        value = float(text.strip().replace(",", ""))
    except ValueError:
        return None
    if not math.isfinite(value) or value < minimum or (strict and value == minimum):
        return None
    return value


class _Dialog(ModalScreen["object | None"]):
    """A dialog with a title, a quoted line, an error line and a hint; escape cancels."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]
    #: The error line wraps within the dialog: a long one (a field path's did-you-mean and the keys there) is read
    #: in full, not cut at the dialog's edge.
    DEFAULT_CSS = """
    #annotate-error { width: 100%; height: auto; }
    #annotate-box { overflow-y: auto; }
    """

    def __init__(self, title: str, quote: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.quote = quote

    def head(self) -> ComposeResult:
        yield Label(Text(self.title_text), classes="dialog-title")
        if self.quote:
            yield Label(literal_line(self.quote, limit=300), classes="dialog-quote")

    def error(self, message: str) -> None:
        """Show ``message`` under the fields (the dialog stays open)."""
        self.query_one("#annotate-error", Label).update(Text(message, style="bold red"))

    def action_cancel(self) -> None:
        self.dismiss(None)


@dataclass(frozen=True)
class FaultChoice:
    """The fault as marked: its kind (a :class:`~warroom.core.model.FaultKind` value), one-sentence summary, and
    which of the dialog's origins was chosen (``origin``: an index into its ``origins``)."""

    kind: str
    summary: str
    origin: int = 0


class FaultDialog(_Dialog):
    """The fault at its origin: its kind (type it; completion from the vocabulary) and summary. ``origins`` are the
    places the fault may be, as ``(where, quote)`` pairs (``where``: ``step s2``, ``the plan (planner call e01)``,
    ``set-up (e02, before step 1)``; ``quote``: the step's title or the event's summary), the first offered first;
    with two or more, ctrl+o goes to the next."""

    BINDINGS = [Binding("escape", "cancel", "Cancel"), Binding("ctrl+o", "next_origin", "Other origin")]

    def __init__(self, origins: Sequence[tuple[str, str]], kind: str = "", summary: str = "") -> None:
        if not origins:
            raise ValueError("a fault dialog needs at least one origin")
        super().__init__(*self._head_of(origins[0]))
        self.origins, self.chosen = list(origins), 0
        self.kind, self.summary = kind, summary

    @staticmethod
    def _head_of(origin: tuple[str, str]) -> tuple[str, str]:
        return f"Fault origin: {clean_line(origin[0])}", origin[1]

    def head(self) -> ComposeResult:
        yield Label(Text(self.title_text), classes="dialog-title", id="fault-origin")
        yield Label(literal_line(self.quote, limit=300), classes="dialog-quote", id="fault-quote")
        if len(self.origins) > 1:
            yield Label(self._others(), classes="dialog-hint", id="fault-other")

    def _others(self) -> str:
        others = " or ".join(clean_line(w) for i, (w, _) in enumerate(self.origins) if i != self.chosen)
        return f"ctrl+o: the origin is {others} instead"

    def compose(self) -> ComposeResult:
        with Vertical(id="annotate-box", classes="dialog"):
            yield from self.head()
            yield Input(self.kind, placeholder="fault kind, e.g. empty_result (→ completes)", id="fault-kind",
                        suggester=SuggestFromList(KINDS, case_sensitive=False))
            yield Input(self.summary, placeholder="what went wrong, in one sentence", id="fault-summary")
            yield Label("", id="annotate-error")
            # the keys before the long list of kinds, which a 24-line terminal cuts short (the box scrolls)
            yield Label("enter: next field, then done · escape cancels", classes="dialog-hint")
            yield Label("kinds: " + ", ".join(KINDS), classes="dialog-hint")

    def action_next_origin(self) -> None:
        """Offer the next origin (ctrl+o); the kind and summary typed so far stay."""
        self.chosen = (self.chosen + 1) % len(self.origins)
        title, quote = self._head_of(self.origins[self.chosen])
        self.query_one("#fault-origin", Label).update(Text(title))
        self.query_one("#fault-quote", Label).update(literal_line(quote, limit=300))
        if len(self.origins) > 1:
            self.query_one("#fault-other", Label).update(self._others())

    @on(Input.Submitted, "#fault-kind")
    def next_field(self) -> None:
        self.query_one("#fault-summary", Input).focus()

    @on(Input.Submitted, "#fault-summary")
    def submit(self) -> None:
        kind = self.query_one("#fault-kind", Input).value.strip().lower()
        summary = self.query_one("#fault-summary", Input).value.strip()
        if kind not in KINDS:
            self.error(f"{kind or 'the kind'} is not a fault kind; pick one of those listed")
            self.query_one("#fault-kind", Input).focus()
        elif not summary:
            self.error("write what went wrong, in one sentence")
        else:
            self.dismiss(FaultChoice(kind, summary, self.chosen))


class TextDialog(_Dialog):
    """One line of text under a title and a quoted line (e.g. why a distractor is harmless); dismisses with it,
    stripped (never empty). Enter hands the text to :meth:`parse`, which subclasses override: it returns the answer
    to dismiss with, or None with :attr:`problem` set (shown; the dialog stays open)."""

    #: Shown under the field when :meth:`parse` refuses the text.
    problem = "write something (escape cancels)"

    def __init__(self, title: str, quote: str, placeholder: str, value: str = "") -> None:
        super().__init__(title, quote)
        self.placeholder, self.value = placeholder, value

    def compose(self) -> ComposeResult:
        with Vertical(id="annotate-box", classes="dialog"):
            yield from self.head()
            yield Input(self.value, placeholder=self.placeholder, id="annotate-line")
            yield Label("", id="annotate-error")
            yield Label("enter: done · escape cancels", classes="dialog-hint")

    def parse(self, text: str) -> object | None:
        """The answer for the typed ``text`` (here the text, stripped), or None (then :attr:`problem` says why)."""
        return text.strip() or None

    @on(Input.Submitted, "#annotate-line")
    def submit(self, event: Input.Submitted) -> None:
        answer = self.parse(event.value)
        if answer is None:
            self.error(self.problem)
        else:
            self.dismiss(answer)


class NumberDialog(TextDialog):
    """A number of drill seconds at least 0 (the deadline after an event); dismisses with it as a float."""

    problem = "a number of seconds, 0 or more (e.g. 20 or 7.5)"

    def parse(self, text: str) -> object | None:
        return parse_amount(text, 0.0, strict=False)


class FieldPathDialog(TextDialog):
    """A field path of one event (evidence at a field): ``check(path)`` returns why the path does not do (not a
    field path, no such field), or None; dismisses with the path, stripped."""

    def __init__(self, title: str, quote: str, check: Callable[[str], str | None], value: str = "") -> None:
        super().__init__(title, quote, "field path, e.g. data.next_cursor or items[3].id", value)
        self.check = check

    def parse(self, text: str) -> object | None:
        path = text.strip()
        why = self.check(path) if path else "type a field path (escape cancels)"
        if why is not None:
            self.problem = why
            return None
        return path


@dataclass(frozen=True)
class DamageChoice:
    """Damage one event does: ``amount`` (> 0) in ``unit`` (the drill's one damage unit), an optional ``note``."""

    amount: float
    unit: str
    note: str


class DamageDialog(_Dialog):
    """The damage an event does: amount, the drill's damage unit (shared by every entry) and an optional note."""

    def __init__(self, event_id: str, summary: str, unit: str = "", amount: str = "", note: str = "") -> None:
        super().__init__(f"Damage done by {clean_line(event_id)}", summary)
        self.unit, self.amount, self.note = unit, amount, note

    def compose(self) -> ComposeResult:
        with Vertical(id="annotate-box", classes="dialog"):
            yield from self.head()
            yield Input(self.amount, placeholder="amount, e.g. 184.5", id="damage-amount")
            yield Input(self.unit, placeholder="unit, e.g. USD refunded in error (the drill's one unit)",
                        id="damage-unit")
            yield Input(self.note, placeholder="note (optional): what the damage is", id="damage-note")
            yield Label("", id="annotate-error")
            yield Label("enter: next field, then done · escape cancels", classes="dialog-hint")

    @on(Input.Submitted, "#damage-amount")
    def to_unit(self) -> None:
        self.query_one("#damage-unit", Input).focus()

    @on(Input.Submitted, "#damage-unit")
    def to_note(self) -> None:
        self.query_one("#damage-note", Input).focus()

    @on(Input.Submitted, "#damage-note")
    def submit(self) -> None:
        amount = parse_amount(self.query_one("#damage-amount", Input).value, 0.0, strict=True)
        unit = self.query_one("#damage-unit", Input).value.strip()
        if amount is None:
            self.error("the amount is a number above 0")
            self.query_one("#damage-amount", Input).focus()
        elif not unit:
            self.error("name the damage unit (e.g. USD refunded in error)")
            self.query_one("#damage-unit", Input).focus()
        else:
            self.dismiss(DamageChoice(amount, unit, self.query_one("#damage-note", Input).value.strip()))


class DebriefDialog(_Dialog):
    """The debrief: several lines of text. ctrl+s keeps it, escape cancels."""

    BINDINGS = [Binding("escape", "cancel", "Cancel"), Binding("ctrl+s", "done", "Done")]
    DEFAULT_CSS = """
    DebriefDialog #debrief-text { height: 10; }
    """

    def __init__(self, value: str = "") -> None:
        super().__init__("Debrief: what the trainee should have seen, and when")
        self.value = value

    def compose(self) -> ComposeResult:
        with Vertical(id="annotate-box", classes="dialog"):
            yield from self.head()
            yield TextArea(self.value, id="debrief-text", soft_wrap=True)
            yield Label("", id="annotate-error")
            yield Label("a blank line starts a paragraph (the debrief joins the lines of one; \"- \" starts a list "
                        "item) · ctrl+s: done · escape cancels", classes="dialog-hint")

    def on_mount(self) -> None:
        self.query_one(TextArea).focus()

    def action_done(self) -> None:
        text = self.query_one(TextArea).text.strip()
        if text:
            self.dismiss(text)
        else:
            self.error("write the debrief (escape cancels)")
