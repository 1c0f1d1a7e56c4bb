"""The escalation dialog: name the plan step at fault, cite the events that show it, optionally give a reason,
confirm.

:class:`EscalateScreen` is pushed by the war room on ``e``. Its step list moves like the trace (↑ ↓ j k, home end)
and takes a typed step id (type-ahead, :func:`match_step`); tab moves to the reason box, tab again to the evidence
list (:class:`~warroom.tui.room._citelist.CiteList`: space ticks an event), tab again back to the steps; the list keys
go to is marked (▶ before its title, its left edge drawn thick). Enter asks for a y / n confirmation naming the step and
the cited events; n goes back to where the trainee was (the evidence list, hidden under the question, included). Keys
are handled as they arrive at the focused widget (never as bindings, which run only once a key has bubbled up to the
app, after keys typed behind it), so a fast typist's keys keep their order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.css.query import NoMatches
from textual.widgets import Button, Input, Label, OptionList
from textual.widgets.option_list import Option

from warroom.core.model import PLAN, SETUP, TARGET_LABELS, PlanStep, TraceEvent, split_cite
from warroom.tui.render import literal_line, shown_line
from warroom.tui.room._citelist import CiteList
from warroom.tui.room._keylist import KeyedList
from warroom.tui.widgets import Dialog, TextInput, key_prose, mouse_buttons

#: What "the plan" and "set-up" stand for in the step list (format 2: a fault may be in either).
ORIGIN_TITLES = {
    PLAN: "the planner's own plan or re-plan dropped or invented something",
    SETUP: "the harness set-up before step 1 (tools, environment) failed",
}

#: Longest escalation reason or flag note, in characters.
NOTE_MAX = 200


@dataclass(frozen=True)
class EscalationChoice:
    """What the trainee chose in the escalation modal: the plan step at fault, a short reason and the ids of the
    trace events cited as showing the fault (in the order they were ticked)."""

    step: str
    reason: str
    cites: tuple[str, ...] = ()


#: The dialog's focus zones, in tab order.
ZONES = ("steps", "reason", "cites")


def match_step(ids: Sequence[str], typed: str) -> int | None:
    """Index of the plan step the trainee means by ``typed`` (type-ahead in the escalation dialog), or None.

    An id equal to ``typed`` (ignoring case) wins, then the first id starting with it; digits alone match an id
    whose number they are (``12`` finds ``s12``, ``step-12``)."""
    want = typed.casefold()
    if not want:
        return None
    folded = [i.casefold() for i in ids]
    if want in folded:
        return folded.index(want)
    for n, ident in enumerate(folded):
        if ident.startswith(want):
            return n
    if want.isdigit():
        for n, ident in enumerate(folded):
            head = ident[: len(ident) - len(want)]
            if ident.endswith(want) and head and not head[-1].isdigit():
                return n
    return None


class StepList(KeyedList):
    """The escalation dialog's list of plan steps, moved with the trace's keys: ↑ ↓ and k j (stopping at the first
    and the last step, never wrapping), home / end, and typing a step id jumps to it (``s12``, or ``12``). Enter
    asks to confirm the highlighted step (see :class:`EscalateScreen`)."""

    ZONE = "steps"

    def typed_index(self, typed: str) -> int | None:
        # "@plan" and "@setup" are found by typing "plan" or "setup" too (a plan step of that id comes first)
        ids = [str(self.get_option_at_index(n).id).lstrip("@") for n in range(self.option_count)]
        return match_step(ids, typed)


class ReasonInput(TextInput):
    """The escalation reason box; while the dialog asks for confirmation, its keys answer the question."""

    def on_key(self, event: events.Key) -> None:
        screen = self.screen
        if not isinstance(screen, EscalateScreen):
            return
        if screen.zone != "reason" and not (screen.asking or screen.sent):
            # A key sent here before an earlier key (a tab typed fast, a slow app) moved the dialog on: it goes
            # where the trainee's keys go now, as the lists' keys do, not into this box.
            screen.route_key(event)
            event.stop()
            event.prevent_default()
            return
        if screen.asking or screen.sent or event.key in ("tab", "shift+tab", "enter"):
            if screen.asking and not screen.sent:
                screen.answer(event.key)
            elif event.key == "enter":
                screen.action_choose()
            elif not screen.sent:
                screen.to_zone("cites" if event.key == "tab" else "steps")
            event.stop()
            event.prevent_default()


class EscalateScreen(Dialog["EscalationChoice | None"]):
    """Escalate to the planner: choose the plan step at fault, cite the events that show it, optionally type a
    short reason, confirm.

    The step list has the focus and moves like the trace (↑ ↓ j k, home end; type a step id to jump). It opens on
    ``preselect`` (the step of the event the trainee chose: :func:`warroom.core.play.escalation_draft`) or on no
    step. With ``origins`` (a format-2 drill) the list
    offers "the plan" and "set-up" after the steps: a fault in the planner's own call or in the harness set-up. Tab
    moves to the reason box (typing goes there only once it has the focus), tab again to the evidence list of the
    ``released`` trace events (space ticks or unticks the highlighted one; it opens with ``cited`` ticked), tab
    again back to the steps; shift+tab goes back. The ticked events are listed literally under the list. Enter, from
    anywhere, asks "Escalate step X?" with the cited events; y sends it, n or escape goes back to the dialog. Escape
    cancels. Dismisses with an :class:`EscalationChoice`, or None when cancelled.
    """

    AUTO_FOCUS = "#escalate-steps"

    BINDINGS = [Binding("escape", "cancel", "Cancel", priority=True)]

    #: The hint under the dialog while choosing, and while asking for confirmation.
    HINT = "↑↓ jk step · type an id to jump · tab reason, events · space cites · enter escalates · esc cancels"
    ASK_HINT = "y escalates · n or esc goes back"
    #: The labels of the two buttons for the mouse (a click on a step asks, on an event ticks it), while choosing and
    #: while asking for confirmation. Yes is never where Escalate was: a double click on Escalate asks, never sends.
    BUTTONS = (("Escalate (enter)", "Cancel (esc)"), ("No, go back (n)", "Yes, escalate (y)"))
    TITLE = "Escalate to the planner: which plan step is at fault?"

    def __init__(
        self,
        plan: Sequence[PlanStep],
        preselect: str | None = None,
        released: Sequence[TraceEvent] = (),
        cited: Sequence[str] = (),
        *,
        origins: bool = False,
        positions: Mapping[str, int] | None = None,
        handoffs: Sequence[tuple[str, str, str]] = (),
        fields: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__()
        self.plan = list(plan)
        #: What the trainee can name, in list order: (target id, title). The plan steps, and with ``origins`` (a
        #: format-2 drill) "the plan" and "set-up" after them (:mod:`warroom.core.model._origins`).
        self.choices: list[tuple[str, str]] = [(s.id, s.title) for s in self.plan]
        #: How the list and the question name each target that is not a plan step.
        self.labels: dict[str, str] = {}
        if origins:
            self.choices += [(PLAN, ORIGIN_TITLES[PLAN]), (SETUP, ORIGIN_TITLES[SETUP])]
            self.labels.update(TARGET_LABELS)
            self.add_class("-origins")
        # format 2: the released handoffs outside any plan step, as (target, label, what was handed over)
        for target, label, content in handoffs:
            self.choices.append((target, content))
            self.labels[target] = label
        self.released = list(released)
        #: The released events' rows by id (the replay's, else built here: see :class:`CiteList`).
        self.positions = positions
        known = positions if positions is not None else {e.id for e in self.released}
        #: The events cited when the dialog opens (those of ``cited`` that were released), in order.
        self.initially_cited = [c for c in dict.fromkeys(cited) if split_cite(c)[0] in known]
        #: Format 2: event id -> the citation of the field the trainee went to in it (ticking its row cites that).
        self.fields = dict(fields or {})
        #: Where typed keys go: the step list, the reason box or the evidence list (see :data:`ZONES`); set at
        #: once on tab, so keys queued before the focus moves go to the right place.
        self.zone = "steps"
        ids = [c[0] for c in self.choices]
        #: Index of the step highlighted when the dialog opens, or None (no step chosen yet).
        self.preselect: int | None = ids.index(preselect) if preselect in ids else None
        #: The choice awaiting the trainee's y / n, or None.
        self.pending: EscalationChoice | None = None
        #: The zone the trainee was in when enter asked to confirm: ``n`` (or escape) goes back there.
        self.asked_from = "steps"
        #: True once y sent the escalation (keys still queued for the dialog are dropped).
        self.sent = False
        self._question = ""

    def compose(self) -> ComposeResult:
        options = []
        for ident, title in self.choices:
            prompt = Text(no_wrap=True, overflow="ellipsis")
            prompt.append(shown_line(self.labels.get(ident, ident)), style="bold")
            prompt.append(" ")
            prompt.append(shown_line(title), style="italic" if ident in self.labels else "")
            options.append(Option(prompt, id=ident))
        with Vertical(id="escalate-box", classes="dialog"):
            yield Label(self.TITLE, id="escalate-title", classes="dialog-title")
            steps = StepList(*options, id="escalate-steps")
            steps.border_title = self._title("steps")
            yield steps
            yield ReasonInput(
                placeholder="reason (optional): what is wrong with that step",
                max_length=NOTE_MAX,
                select_on_focus=False,
                id="escalate-reason",
            )
            cites = CiteList(self.released, self.initially_cited, id="escalate-cites", positions=self.positions,
                             fields=self.fields)
            cites.border_title = self._title("cites")
            cites.border_subtitle = self._cited_text()
            yield cites
            yield Label(key_prose(self.HINT), id="escalate-hint", classes="dialog-hint")
            yield mouse_buttons(("escalate-first", self.BUTTONS[0][0], "screen.button(0)"),
                                ("escalate-second", self.BUTTONS[0][1], "screen.button(1)"))

    def on_mount(self) -> None:
        steps = self.query_one("#escalate-steps", OptionList)
        steps.highlighted = self.preselect
        if self.preselect is not None:
            steps.scroll_to_highlight()
        self.fit_lists()

    def on_resize(self) -> None:
        self.fit_lists()

    #: The mark before the title of the list that has the focus (its left edge is drawn thick too, warroom.tcss).
    FOCUS_MARK = "▶ "
    #: The lists' titles (on their top borders), by zone.
    TITLES = {"steps": "the plan step at fault", "cites": "cite the events that show the fault (tab here, space ticks)"}

    def _title(self, zone: str) -> Text:
        """A list's title, marked when the list has the focus (the trainee sees where keys go)."""
        if self.zone == zone and not self.asking:  # while it asks, the question has the keys (y / n): no list
            return Text(self.FOCUS_MARK + self.TITLES[zone], style="bold")
        return Text(self.TITLES[zone])

    def show_zone(self) -> None:
        """Show which list keys go to: the list with the focus has its title marked (:data:`FOCUS_MARK`) and a
        focus class (its left edge drawn thick, its highlight brighter: warroom.tcss)."""
        for zone, ident in (("steps", "#escalate-steps"), ("cites", "#escalate-cites")):
            try:
                widget = self.query_one(ident)
            except NoMatches:  # not composed yet
                return
            widget.set_class(self.zone == zone and not self.asking, "-zone")
            widget.border_title = self._title(zone)

    #: The lists' most rows (borders included) at 24 terminal rows (warroom.tcss): the steps, and the cited events
    #: (two fewer with the format-2 origins "the plan" and "set-up" among the steps).
    STEPS_ROWS, CITES_ROWS, CITES_ROWS_WITH_ORIGINS, BASE_HEIGHT = 8, 6, 4, 24

    def fit_lists(self) -> None:
        """Give the rows a taller terminal has beyond 24 to the step list and the evidence list, half each, so a
        40-row terminal shows every step and several events to cite rather than 2 scrolled ones."""
        spare = max(0, self.app.size.height - self.BASE_HEIGHT)
        cites_rows = self.CITES_ROWS_WITH_ORIGINS if self.has_class("-origins") else self.CITES_ROWS
        self.query_one("#escalate-steps").styles.max_height = self.STEPS_ROWS + spare // 2
        self.query_one("#escalate-cites").styles.max_height = cites_rows + spare - spare // 2

    @property
    def cites(self) -> tuple[str, ...]:
        """The ids of the events cited now, in the order they were ticked."""
        try:
            return tuple(self.query_one("#escalate-cites", CiteList).cited)
        except NoMatches:  # not composed yet
            return tuple(self.initially_cited)

    #: The cited events the question and the evidence list's border name; the rest are counted ("and 12 more"): the
    #: question naming 300 of them pushed its hint and its yes / no buttons off a 24-row screen.
    CITES_NAMED = 6
    #: The characters of the step's title the question shows (a long one is cut with "…", on one line or two).
    TITLE_SHOWN = 120

    def _cites_named(self, cites: Sequence[str]) -> str:
        """``e04, e07``, or with more than :data:`CITES_NAMED`, the first of them and ``and 12 more``; literally."""
        named = ", ".join(shown_line(c) for c in cites[: self.CITES_NAMED])
        more = len(cites) - self.CITES_NAMED
        return f"{named} and {more:,} more" if more > 0 else named

    def _cited_text(self) -> Text:
        """``citing: e04, e07`` (or ``citing no event``), literally: the list's bottom border shows it."""
        cites = self.cites
        return Text("citing: " + self._cites_named(cites) if cites else "citing no event")

    @property
    def step(self) -> str | None:
        """The id of the plan step highlighted now, or None when none is."""
        index = self.query_one("#escalate-steps", OptionList).highlighted
        return self.choices[index][0] if index is not None else None

    @on(Input.Submitted, "#escalate-reason")
    def reason_submitted(self) -> None:
        self.action_choose()

    @on(OptionList.OptionSelected, "#escalate-steps")
    def step_clicked(self) -> None:
        self.action_choose()

    @on(CiteList.Ticked)
    def cite_clicked(self) -> None:
        self.query_one("#escalate-cites", CiteList).border_subtitle = self._cited_text()

    @property
    def asking(self) -> bool:
        """True while the dialog asks the trainee to confirm the chosen step."""
        return self.pending is not None

    def on_key(self, event: events.Key) -> None:
        # Keys that reach the screen itself (before the list has the focus) are routed as the list routes them.
        if self.route_key(event):
            event.stop()
            event.prevent_default()

    def route_key(self, event: events.Key) -> bool:
        """Handle a key that reached the step list (or the screen): answer a pending question, move to the reason box
        (tab), send typing to the reason box after tab, or type ahead a step id. Returns True when handled."""
        reason = self.query_one("#escalate-reason", ReasonInput)
        if self.sent:
            return True
        if self.asking:
            self.answer(event.key)
            return True
        if event.key in ("tab", "shift+tab"):
            step = 1 if event.key == "tab" else -1
            self.to_zone(ZONES[(ZONES.index(self.zone) + step) % len(ZONES)])
            return True
        if event.key == "enter":
            self.action_choose()
            return True
        char = event.character
        if self.zone == "reason":
            if reason.edit(event.key):  # ← home backspace ... in the order typed
                return True
            if event.is_printable and char:
                reason.insert_text_at_cursor(char)
                return True
            return False
        target: StepList | CiteList
        if self.zone == "cites":
            target = self.query_one("#escalate-cites", CiteList)
            if event.key in CiteList.TOGGLES:
                if target.toggle() is not None:
                    target.border_subtitle = self._cited_text()
                return True
        else:
            target = self.query_one("#escalate-steps", StepList)
        typing = event.is_printable and bool(char) and char != " "
        move = target.MOVES.get(event.key)
        if move is not None and not (typing and char is not None and target.continues_id(char)):
            name, arg = move
            getattr(target, f"action_{name}")(arg)
            return True
        if typing and char is not None:
            target.type_ahead(char)
            return True
        return False

    def to_zone(self, zone: str) -> None:
        """Send typed keys to ``zone`` (one of :data:`ZONES`) at once, and move the focus there."""
        self.zone = zone
        ids = {"steps": "#escalate-steps", "reason": "#escalate-reason", "cites": "#escalate-cites"}
        # at once (Widget.focus waits for the next idle moment): the next key already goes to the new zone's widget
        self.set_focus(self.query_one(ids[zone]))
        self.show_zone()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """The focus moved (a key, a click): keys go where it is now, and the dialog shows it. While the question is
        asked, the evidence list is hidden and the focus it had is lent to the steps: that is no move of the
        trainee's (``n`` goes back to :attr:`asked_from`)."""
        zones = {"escalate-steps": "steps", "escalate-reason": "reason", "escalate-cites": "cites"}
        # the widget focused now, not the event's: a focus event arrives after keys may have moved the focus on
        zone = zones.get(getattr(self.focused, "id", None) or "")
        if zone is not None and not self.asking:
            self.zone = zone
        self.show_zone()

    def show_notice(self, text: str) -> bool:
        """Show a notice of the app (a probe's answer in assessment, where the clock runs on) in the dialog's hint
        line, literally: a toast would cover the evidence list (see :mod:`warroom.tui.app._notices`)."""
        try:
            self.query_one("#escalate-hint", Label).update(Text(text, style="bold"))
        except NoMatches:
            return False
        return True

    def action_choose(self) -> None:
        """Ask to confirm the highlighted step (or say that no step is chosen yet)."""
        if not self.is_current or self.asking:  # a second enter while the dialog closes or asks
            return
        step_id = self.step
        if step_id is None:
            # said in the dialog's own hint line: a toast would cover the dialog
            hint = Text(key_prose("Choose the plan step at fault first (↑ ↓, or type its id)."), style="bold yellow")
            self.query_one("#escalate-hint", Label).update(hint)
            return
        title = dict(self.choices)[step_id]
        reason = self.query_one("#escalate-reason", Input).value.strip()
        cites = self.cites
        self.pending = EscalationChoice(step=step_id, reason=reason, cites=cites)
        named = shown_line(self.labels[step_id]) if step_id in self.labels else f"step {shown_line(step_id)}"
        question = Text(f"Escalate {named} to the planner?", style="bold")
        question.append("\n").append(literal_line(title, limit=self.TITLE_SHOWN))
        cited = "citing " + (self._cites_named(cites) if cites else "no event") + " · "
        question.append("\n" + cited, style="")
        question.append(f"reason: {shown_line(reason)}" if reason else "no reason given", style="italic")
        self._question = question.plain
        self.asked_from = self.zone
        self.query_one("#escalate-title", Label).update(question)
        self.query_one("#escalate-hint", Label).update(self.ASK_HINT)
        self.add_class("-asking")
        self._label_buttons()
        self.show_zone()

    def _label_buttons(self) -> None:
        """The buttons for the mouse say what a click does now: escalate and cancel, or no and yes to the question."""
        for ident, label in zip(("#escalate-first", "#escalate-second"), self.BUTTONS[self.asking], strict=True):
            button = self.query_one(ident, Button)
            button.label = label
            button.refresh(layout=True)  # its width fitted to the new label (else "Yes, escalate (y)" lost its "(y)")

    def action_button(self, which: int) -> None:
        """A button for the mouse (:data:`BUTTONS`): escalate (enter) or cancel (escape); asked, no (n) or yes (y)."""
        if self.asking:
            self.answer("y" if which else "n")
        elif which:
            self.action_cancel()
        else:
            self.action_choose()

    def answer(self, key: str) -> None:
        """The trainee's answer to the confirmation: ``y`` sends the escalation; ``n`` or escape goes back to the
        dialog; other keys are ignored (they cannot change the step the question named)."""
        choice = self.pending
        if choice is None or self.sent:
            return
        if key == "y":
            self.sent = True
            self.dismiss(choice)
        elif key in ("n", "escape"):
            self.pending = None
            self.query_one("#escalate-title", Label).update(self.TITLE)
            self.query_one("#escalate-hint", Label).update(key_prose(self.HINT))
            self.remove_class("-asking")
            self._label_buttons()
            # back where the trainee was: the evidence list was hidden under the question, which took its focus
            zone = self.asked_from
            self.zone = zone
            self.show_zone()
            self.call_after_refresh(self._refocus, zone)

    def _refocus(self, zone: str) -> None:
        if self.zone == zone and not self.asking and not self.sent:
            self.to_zone(zone)

    @property
    def question(self) -> str:
        """The confirmation's text while asking (plain), else ""."""
        if not self.asking:
            return ""
        return self._question

    def action_cancel(self) -> None:
        if self.asking:
            self.answer("escape")
        else:
            self.dismiss(None)
