"""The dialogs of the author mode (``warroom annotate``): the fault, a distractor's reason, damage, the deadline, the
debrief (and the habit, the re-plan: longer text), and the drill's title, difficulty and briefing. Each dismisses
with its answer, or None when cancelled (escape); the annotate screen applies it to the answer-key draft. Text typed
here is the author's and is shown literally."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any, ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.suggester import SuggestFromList
from textual.widgets import Input, Label, TextArea

from warroom.core.model import FaultKind
from warroom.core.text import clean_line
from warroom.tui.render import literal_line
from warroom.tui.widgets import Dialog, TextEditor, TextInput, mouse_buttons

#: The fault kinds, in the vocabulary's order (docs/authoring.md).
KINDS: tuple[str, ...] = tuple(k.value for k in FaultKind)
#: The most characters of a one-line field (a summary, a reason, a briefing's goal: the bundled drills' longest is
#: under 500) and of a longer text (the debrief, the habit, the re-plan: the longest bundled debrief has 1,713). A paste
#: is cut to what is left, with a notice: a 1 MB paste into the debrief took seconds, and each key after one into a
#: one-line field half a second.
LINE_MAX = 2_000
TEXT_MAX = 20_000


def _line(value: str = "", **kwargs: Any) -> TextInput:
    """A one-line field of the author mode, holding at most :data:`LINE_MAX` characters."""
    return TextInput(value, max_length=LINE_MAX, **kwargs)


#: A number written with commas between its thousands (``1,500``, ``14,021.25``): the only place a comma is taken.
_THOUSANDS = re.compile(r"[+-]?\d{1,3}(?:,\d{3})+(?:\.\d*)?")


def parse_amount(text: str, minimum: float, strict: bool) -> float | None:
    """``text`` as a finite number above ``minimum`` (``strict``) or at least ``minimum``; None when it is not. A
    comma is taken only between thousands: ``1,5`` (a decimal comma) is refused, never read as 15."""
    text = text.strip()
    if "," in text and not _THOUSANDS.fullmatch(text):
        return None
    try:
        value = float(text.replace(",", ""))
    except ValueError:
        return None
    if not math.isfinite(value) or value < minimum or (strict and value == minimum):
        return None
    return value


def labelled(field: Input, label: str) -> Input:
    """``field`` with ``label`` on its top border: a filled field shows no placeholder, and so no label."""
    field.border_title = label
    return field


@dataclass(frozen=True)
class Refusal:
    """Why what a dialog's fields hold is no answer (shown under them; the dialog stays open), and the id of the field
    to go back to (None: the focus stays)."""

    message: str
    field: str | None = None


class _Dialog(Dialog["object | None"]):
    """A dialog with a title, a quoted line, an error line and a hint; escape cancels. Its answer is read from its
    fields by :meth:`read` when :data:`ANSWER_KEY` is typed in :data:`ANSWER_FIELD` (enter in the last field): the
    keys typed right behind an answer taken are held and given to the screen beneath (``x r ⏎ j`` typed fast marked
    a distractor whose reason was ``rj``, the cursor unmoved), those behind one refused go into the field, as typed."""

    # enter in a field that has a next one moves there as the app reads it (priority; see check_action): the keys
    # typed right behind enter go into the next field (Widget.focus waits for the app's next idle moment, and
    # ``12⏎USD`` typed fast made an amount of ``12USD``)
    BINDINGS = [Binding("escape", "cancel", "Cancel", priority=True),
                Binding("enter", "next_field", "Next field", show=False, priority=True)]
    #: Each field's next field, by id: enter moves there (the last field's enter is the dialog's own).
    NEXT_FIELD: ClassVar[dict[str, str]] = {}
    #: The field in which :data:`ANSWER_KEY` is the dialog's answer, and that key.
    ANSWER_FIELD: ClassVar[str] = ""
    ANSWER_KEY: ClassVar[str] = "enter"
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

    def buttons(self, *more: tuple[str, str, str]) -> Horizontal:
        """The dialog's buttons for an author who uses only the mouse, each naming the key that does the same:
        ``more`` (``(id, label, action)`` each), then ``Done (enter)``, which answers as :data:`ANSWER_KEY` in the
        last field does (a refused answer is shown, the dialog stays), and ``Cancel (esc)``."""
        done = ("annotate-done", f"Done ({self.ANSWER_KEY})", "screen.done")
        return mouse_buttons(*more, done, ("annotate-cancel", "Cancel (esc)", "screen.cancel"))

    def action_done(self) -> None:
        """Answer with what the fields hold (the Done button), or show why they hold none."""
        self.answer()

    def error(self, message: str) -> None:
        """Show ``message`` under the fields (the dialog stays open)."""
        self.query_one("#annotate-error", Label).update(Text(message, style="bold red"))

    def show_notice(self, text: str) -> bool:
        """Show a notice of the app under the fields, where errors go (a toast would cover the dialog: see
        :mod:`warroom.tui.app._notices`). False when the dialog has no such line (not composed yet)."""
        try:
            self.query_one("#annotate-error", Label).update(Text(text, style="bold"))
        except NoMatches:
            return False
        return True

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Enter is the dialog's ``next_field`` only in a field with a next one; elsewhere the field's own."""
        if action == "next_field":
            return getattr(self.focused, "id", None) in self.NEXT_FIELD
        return True

    def action_next_field(self) -> None:
        """Enter in a field: the focus moves to the next field at once (:data:`NEXT_FIELD`)."""
        self.set_focus(self.query_one(f"#{self.NEXT_FIELD[str(getattr(self.focused, 'id', ''))]}", Input))

    def read(self) -> object:
        """The answer the fields hold, or a :class:`Refusal` saying why they hold none (changing nothing): each
        dialog reads its own fields; a dialog without fields of its own holds no answer."""
        return Refusal(f"{type(self).__name__} has no fields to answer with")

    def answers(self, field_id: str | None, key: events.Key) -> bool:
        return field_id == self.ANSWER_FIELD and key.key == self.ANSWER_KEY and not isinstance(self.read(), Refusal)

    def answer(self) -> None:
        """Dismiss with the answer the fields hold; or show why they hold none, back in the field at fault."""
        result = self.read()
        if not isinstance(result, Refusal):
            self.dismiss(result)
            return
        self.error(result.message)
        if result.field is not None:
            self.query_one(f"#{result.field}").focus()

    @on(Input.Submitted)
    def submitted(self, event: Input.Submitted) -> None:
        if event.input.id == self.ANSWER_FIELD:
            self.answer()


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

    BINDINGS = [Binding("escape", "cancel", "Cancel", priority=True), Binding("ctrl+o", "next_origin", "Other origin")]
    NEXT_FIELD: ClassVar[dict[str, str]] = {"fault-kind": "fault-summary"}
    ANSWER_FIELD = "fault-summary"

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
            yield labelled(_line(self.kind, placeholder="fault kind, e.g. empty_result (→ completes)",
                                     id="fault-kind", suggester=SuggestFromList(KINDS, case_sensitive=False)),
                           "fault kind")
            yield labelled(_line(self.summary, placeholder="what went wrong, in one sentence", id="fault-summary"),
                           "what went wrong")
            yield Label("", id="annotate-error")
            # the keys before the long list of kinds, which a 24-line terminal cuts short (the box scrolls)
            yield Label("enter: next field, then done · escape cancels", classes="dialog-hint")
            other = ("fault-next-origin", "Other origin (ctrl+o)", "screen.next_origin")
            yield self.buttons(*([other] if len(self.origins) > 1 else []))
            yield Label("kinds: " + ", ".join(KINDS), classes="dialog-hint")

    def action_next_origin(self) -> None:
        """Offer the next origin (ctrl+o); the kind and summary typed so far stay."""
        self.chosen = (self.chosen + 1) % len(self.origins)
        title, quote = self._head_of(self.origins[self.chosen])
        self.query_one("#fault-origin", Label).update(Text(title))
        self.query_one("#fault-quote", Label).update(literal_line(quote, limit=300))
        if len(self.origins) > 1:
            self.query_one("#fault-other", Label).update(self._others())

    def read(self) -> object:
        kind = self.query_one("#fault-kind", Input).value.strip().lower()
        summary = self.query_one("#fault-summary", Input).value.strip()
        if kind not in KINDS:
            return Refusal(f"{kind or 'the kind'} is not a fault kind; pick one of those listed", "fault-kind")
        if not summary:
            return Refusal("write what went wrong, in one sentence")
        return FaultChoice(kind, summary, self.chosen)


class TextDialog(_Dialog):
    """One line of text under a title and a quoted line (e.g. why a distractor is harmless); dismisses with it,
    stripped (never empty). Enter hands the text to :meth:`parse`, which subclasses override: it returns the answer
    to dismiss with, or None with :attr:`problem` set (shown; the dialog stays open)."""

    #: Shown under the field when :meth:`parse` refuses the text.
    problem = "write something (escape cancels)"
    ANSWER_FIELD = "annotate-line"

    def __init__(self, title: str, quote: str, placeholder: str, value: str = "") -> None:
        super().__init__(title, quote)
        self.placeholder, self.value = placeholder, value

    def compose(self) -> ComposeResult:
        with Vertical(id="annotate-box", classes="dialog"):
            yield from self.head()
            yield _line(self.value, placeholder=self.placeholder, id="annotate-line")
            yield Label("", id="annotate-error")
            yield Label("enter: done · escape cancels", classes="dialog-hint")
            yield self.buttons()

    def parse(self, text: str) -> object | None:
        """The answer for the typed ``text`` (here the text, stripped), or None (then :attr:`problem` says why)."""
        return text.strip() or None

    def read(self) -> object:
        answer = self.parse(self.query_one("#annotate-line", Input).value)
        return Refusal(self.problem) if answer is None else answer


class NumberDialog(TextDialog):
    """A number of drill seconds at least 0 (the deadline after an event); dismisses with it as a float."""

    problem = "a number of seconds, 0 or more (e.g. 20 or 7.5, with a decimal point)"

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

    NEXT_FIELD: ClassVar[dict[str, str]] = {"damage-amount": "damage-unit", "damage-unit": "damage-note"}
    ANSWER_FIELD = "damage-note"

    def __init__(self, event_id: str, summary: str, unit: str = "", amount: str = "", note: str = "") -> None:
        super().__init__(f"Damage done by {clean_line(event_id)}", summary)
        self.unit, self.amount, self.note = unit, amount, note

    def compose(self) -> ComposeResult:
        with Vertical(id="annotate-box", classes="dialog"):
            yield from self.head()
            yield labelled(_line(self.amount, placeholder="amount, e.g. 184.5", id="damage-amount"), "amount")
            yield labelled(_line(self.unit, placeholder="unit, e.g. USD refunded in error (the drill's one unit)",
                                 id="damage-unit"), "unit")
            yield labelled(_line(self.note, placeholder="note (optional): what the damage is", id="damage-note"),
                           "note (optional)")
            yield Label("", id="annotate-error")
            yield Label("enter: next field, then done · escape cancels", classes="dialog-hint")
            yield self.buttons()

    def read(self) -> object:
        amount = parse_amount(self.query_one("#damage-amount", Input).value, 0.0, strict=True)
        unit = self.query_one("#damage-unit", Input).value.strip()
        if amount is None:
            return Refusal("the amount is a number above 0 (e.g. 184.5 or 1,500: a decimal point, commas only between "
                           "thousands)", "damage-amount")
        if not unit:
            return Refusal("name the damage unit (e.g. USD refunded in error)", "damage-unit")
        return DamageChoice(amount, unit, self.query_one("#damage-note", Input).value.strip())


class DebriefDialog(_Dialog):
    """Several lines of text: the debrief by default, or (``title``, ``hint``, ``what``) the habit or the planner's
    re-plan. ctrl+s keeps it, escape cancels; ``empty_ok``: an empty text is an answer too (it removes the part)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", priority=True), Binding("ctrl+s", "done", "Done")]
    DEFAULT_CSS = """
    DebriefDialog #debrief-text { height: 10; }
    """
    ANSWER_FIELD, ANSWER_KEY = "debrief-text", "ctrl+s"

    #: The debrief's title and hint.
    TITLE = "Debrief: what the trainee should have seen, and when"
    HINT = ("a blank line starts a paragraph (the debrief joins the lines of one; \"- \" starts a list item) · "
            "ctrl+s: done · escape cancels")

    def __init__(self, value: str = "", title: str = TITLE, hint: str = HINT, what: str = "the debrief",
                 empty_ok: bool = False) -> None:
        super().__init__(title)
        self.value, self.hint, self.what, self.empty_ok = value, hint, what, empty_ok

    def compose(self) -> ComposeResult:
        with Vertical(id="annotate-box", classes="dialog"):
            yield from self.head()
            yield TextEditor(self.value, id="debrief-text", soft_wrap=True, max_length=TEXT_MAX)
            yield Label("", id="annotate-error")
            yield Label(self.hint, classes="dialog-hint")
            yield self.buttons()

    def on_mount(self) -> None:
        self.query_one(TextArea).focus()

    def read(self) -> object:
        text = self.query_one(TextArea).text.strip()
        return text if text or self.empty_ok else Refusal(f"write {self.what} (escape cancels)")


def _one_line(text: str) -> str:
    """``text`` as a one-line field holds it, stripped (for telling a field not edited from one edited)."""
    return text.strip()


@dataclass(frozen=True)
class DrillInfo:
    """The drill's title, difficulty (1 to 5) and briefing (``goal``, ``watching``, ``context``: empty for none) as
    set in the author mode."""

    title: str
    difficulty: int
    goal: str
    watching: str
    context: str = ""

    def data(self) -> dict[str, object]:
        """The top-level fields to write (``title``, ``difficulty``, ``briefing``), as the drill format has them."""
        briefing = {"goal": self.goal, "watching": self.watching}
        if self.context:
            briefing["context"] = self.context
        return {"title": self.title, "difficulty": self.difficulty, "briefing": briefing}


class DrillInfoDialog(_Dialog):
    """The drill as a trainee first meets it: its title, difficulty and briefing (the goal, what the trainee is
    watching, an optional context). Enter goes to the next field; enter on the last one is done."""

    FIELDS = ("info-title", "info-difficulty", "info-goal", "info-watching", "info-context")
    NEXT_FIELD: ClassVar[dict[str, str]] = dict(pairwise(FIELDS))
    ANSWER_FIELD = "info-context"

    def __init__(self, info: DrillInfo) -> None:
        super().__init__("The drill: title, difficulty and briefing (what the trainee reads first)",
                         "Describe the task and the stakes, never the fault or when to escalate.")
        self.info = info

    #: Each field's label, on its top border (a filled field shows no placeholder), and placeholder.
    LABELS = {
        "info-title": ("title", "title"),
        "info-difficulty": ("difficulty", "difficulty, 1 (easy) to 5"),
        "info-goal": ("briefing goal", "briefing goal: what the agent was asked to do"),
        "info-watching": ("you are watching", "what the trainee is watching (the agents, the tools)"),
        "info-context": ("context (optional)", "context (optional): what a trainee should know"),
    }

    def compose(self) -> ComposeResult:
        info = self.info
        values = (info.title, str(info.difficulty), info.goal, info.watching, info.context)
        with Vertical(id="annotate-box", classes="dialog"):
            yield from self.head()
            for ident, value in zip(self.FIELDS, values, strict=True):
                label, placeholder = self.LABELS[ident]
                yield labelled(_line(value, placeholder=placeholder, id=ident), label)
            yield Label("", id="annotate-error")
            yield Label("enter: next field, then done · escape cancels", classes="dialog-hint")
            yield self.buttons()

    def read(self) -> object:
        values = {ident: self.query_one(f"#{ident}", Input).value.strip() for ident in self.FIELDS}
        difficulty = values["info-difficulty"]
        required = (("info-title", "a title"), ("info-goal", "the goal"), ("info-watching", "what the trainee watches"))
        for ident, what in required:
            if not values[ident]:
                return Refusal(f"write {what} (escape cancels)", ident)
        if difficulty not in ("1", "2", "3", "4", "5"):
            return Refusal("the difficulty is a whole number from 1 (easy) to 5", "info-difficulty")
        info = self.info
        # a text not edited is the file's as it was (its line breaks, its spaces), not the one-line field's
        goal, watching, context = (
            old if values[ident] == _one_line(old) else values[ident]
            for ident, old in (("info-goal", info.goal), ("info-watching", info.watching),
                               ("info-context", info.context))
        )
        return DrillInfo(values["info-title"], int(difficulty), goal, watching, context)
