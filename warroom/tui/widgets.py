"""Widgets of the war room, reusable by other views (e.g. a facilitator's session review).

All of them are thin views: they are handed state from a :class:`~warroom.core.play.Replay` (or a drill) and render
it; none of them advances the drill clock, applies an action or scores anything. Drill text is rendered through
:mod:`warroom.tui.text`, never as markup.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.text import Text
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from warroom.core.model import Drill, Role, damage_meter_text
from warroom.core.play import CostMeter, StepState
from warroom.tui import text as fmt
from warroom.tui.kinds import STEP_ICONS

__all__ = ["KeyFooter", "Meters", "PlanPanel", "ScrollPane", "StatusBar", "fit_columns"]

# ---------------------------------------------------------------------------------------------------------------
# Header, meters, plan
# ---------------------------------------------------------------------------------------------------------------


class StatusBar(Static):
    """One line: the drill title, the drill clock (mm:ss), the playback speed and a PAUSED badge."""

    _shown: tuple[str, float, float, bool, str] | None = None

    def show(self, title: str, now: float, speed: float, paused: bool, note: str = "") -> None:
        """Render the bar (unless it shows exactly this already). ``now`` is drill time in seconds; ``speed`` a
        multiplier of real time."""
        if self._shown == (title, now, speed, paused, note):
            return
        self._shown = (title, now, speed, paused, note)
        out = Text(no_wrap=True, overflow="ellipsis")
        out.append(" ⏱ ")
        out.append(fmt.clock(now), style="bold")
        out.append("  ")
        out.append(fmt.speed(speed), style="bold")
        out.append("  ")
        if paused:
            out.append(" PAUSED ", style="bold reverse yellow")
            out.append("  ")
        if note:
            out.append(f" {note} ", style="bold reverse")
            out.append("  ")
        out.append(fmt.clean_line(title))
        self.update(out, layout=False)  # fixed height (warroom.tcss): a repaint, not a layout of the screen
        self.set_class(paused, "-paused")


class Meters(Static):
    """One line: damage accrued so far and cost so far (USD, ``plan`` / ``exec``: the planner / executor split, and
    ``sub``, format 2, the sub-agents' share once they have made a call).

    Until damage accrues the meter reads ``damage none yet`` in every drill, fault or all-clear alike; then the
    bare amount (:func:`warroom.core.model.damage_meter_text`). The damage unit names the fault's consequence (it
    is part of the answer key), so it is never shown before the debrief. The cost meter always shows in full.
    """

    _shown: tuple[float, str, CostMeter] | None = None
    #: What the line shows: the figures and the width it was fitted to (a repeated call with these does nothing).
    _figures: tuple[float, str, float, float, float, float, int] | None = None

    def show(self, damage: float, unit: str, cost: CostMeter) -> None:
        """Render the meters from the replay's accrued ``damage`` and its ``cost`` meter (unless the line shows
        these figures already). ``unit`` (the damage unit) is not shown before the debrief; it is taken so that
        callers pass the replay's state unchanged."""
        self._shown = (damage, unit, cost)
        by_role = cost.usd_by_role
        sub = by_role.get(Role.SUB_AGENT, 0.0)
        width = self.content_region.width
        figures = (damage, unit, cost.usd, by_role[Role.PLANNER], by_role[Role.EXECUTOR], sub, width)
        if figures == self._figures:
            return
        self._figures = figures
        out = Text(no_wrap=True, overflow="ellipsis")
        out.append(" damage ", style="bold")
        if damage:  # the amount only: the unit is part of the answer key (warroom.core.model._hygiene)
            out.append(damage_meter_text(damage), style="bold red")
        else:
            out.append("none yet", style="bold green")
        out.append("  cost ", style="bold")
        out.append(fmt.usd(cost.usd), style="bold")
        out.append(" plan ", style="dim")
        out.append(fmt.usd(cost.usd_by_role[Role.PLANNER]))
        out.append(" exec ", style="dim")
        out.append(fmt.usd(cost.usd_by_role[Role.EXECUTOR]))
        if sub:  # format 2: sub-agents' calls, so that the shares add up to the cost
            out.append(" sub ", style="dim")
            out.append(fmt.usd(sub))
        self.update(out, layout=False)  # fixed height (warroom.tcss): a repaint, not a layout of the screen

    def on_resize(self) -> None:
        if self._shown is not None:
            self.show(*self._shown)


class PlanPanel(Static):
    """The plan: each step with the status the executor *reported* for it; the selected event's step is marked.

    A plan longer than the panel shows a window of it that follows the marked step (scrolled just enough to show
    it), with "first-last of N" under the panel."""

    _top = 0
    _shown: tuple[Drill, Mapping[str, StepState], str | None, Mapping[str, str]] | None = None
    #: The rows the panel had when it was last rendered (with the same arguments, a call does nothing).
    _rows = -1

    def show(
        self, drill: Drill, states: Mapping[str, StepState], current: str | None = None,
        unapproved: Mapping[str, str] | None = None,
    ) -> None:
        """Render ``drill.plan`` with ``states`` (step id to state); ``current`` is highlighted and kept in view;
        a step in ``unapproved`` (format 2: it went ahead without the approval it requires) is marked "⚠ no
        approval". A call with what the panel shows already (same drill, states, step and height) does nothing."""
        shown = self._shown
        height = self.content_region.height
        missing = dict(unapproved or {})
        if shown is not None and shown[0] is drill and shown[1:] == (states, current, missing) and height == self._rows:
            return
        self._rows = height
        self._shown = (drill, dict(states), current, missing)
        plan = drill.plan
        rows = self.content_region.height or len(plan)
        top = self._top
        at = next((i for i, step in enumerate(plan) if step.id == current), None) if current is not None else None
        if at is not None:
            if at < top:
                top = at
            elif at >= top + rows:
                top = at - rows + 1
        top = max(0, min(top, len(plan) - rows))
        self._top = top
        self.border_subtitle = f"{top + 1}-{min(top + rows, len(plan))} of {len(plan)}" if len(plan) > rows else ""
        out = Text(no_wrap=True, overflow="ellipsis")
        for i, step in enumerate(plan[top : top + rows]):
            state = states.get(step.id, StepState.PENDING)
            icon, style = STEP_ICONS[state]
            if i:
                out.append("\n")
            line = Text(no_wrap=True, overflow="ellipsis")
            line.append(f"{icon} ", style=style)
            line.append(fmt.clean_line(step.id), style="bold")
            line.append(" ")
            if step.id in missing:
                line.append("⚠ no approval ", style="bold red")
            line.append(fmt.clean_line(step.title), style="dim" if state is StepState.PENDING else "")
            if step.id == current:
                line.stylize("reverse")
            out.append_text(line)
        self.update(out, layout=False)  # fixed height (warroom.tcss): a repaint, not a layout of the screen

    def on_resize(self) -> None:
        if self._shown is not None:
            self.show(*self._shown)


class KeyFooter(Footer):
    """Textual's Footer, rebuilt only when the keys it shows change.

    Textual's Footer recomposes all its keys (new widgets, styled again: several milliseconds) whenever the
    screen's active bindings may have changed, e.g. on every focus change; in the war room that is every ``enter``
    (focus to the inspector) and every ``space`` (pause becomes resume). This one compares what it would show (key,
    action, description, enabled) with what it shows, and rebuilds only when they differ.
    """

    _shown: tuple[tuple[str, str, str, bool], ...] | None = None

    def bindings_changed(self, screen: Screen[Any]) -> None:
        shown = tuple(
            (binding.key, binding.action, binding.description, enabled)
            for _node, binding, enabled, _tooltip in screen.active_bindings.values()
            if binding.show
        )
        if shown == self._shown:
            return
        if screen.app.app_focus:  # Textual's Footer waits for the app to have the focus again before it rebuilds
            self._shown = shown
        super().bindings_changed(screen)


class ScrollPane(VerticalScroll):
    """A scrolling text pane (the debrief) whose keys the help lists: the keys of Textual's ``VerticalScroll``
    bound again here with help text (see :mod:`warroom.tui.keyhelp`)."""

    BINDINGS = [
        Binding("up", "scroll_up", "Scroll up", show=False, tooltip="scroll up / down"),
        Binding("down", "scroll_down", "Scroll down", show=False, tooltip="scroll up / down"),
        Binding("pageup", "page_up", "Page up", show=False, tooltip="a page up / down"),
        Binding("pagedown", "page_down", "Page down", show=False, tooltip="a page up / down"),
        Binding("home", "scroll_home", "Top", show=False, tooltip="top / end"),
        Binding("end", "scroll_end", "End", show=False, tooltip="top / end"),
    ]


# ---------------------------------------------------------------------------------------------------------------
# Column fitting (the drill picker's DataTable)
# ---------------------------------------------------------------------------------------------------------------


def fit_columns(table: DataTable[Any], fixed: Mapping[str, int], flex: Mapping[str, float], minimum: int = 8) -> None:
    """Size a DataTable's columns to its width: ``fixed`` widths as given, the rest shared by ``flex`` weights.

    Keys are column keys. Call it from ``on_resize``; nothing happens unless a width changed. DataTable has no
    public way to resize a column, so the columns are added again at their new widths and the rows after them
    (public API only; the picker's table holds a few dozen rows), the cursor kept on its row and their labels kept
    (the width of the row labels, when shown, is taken off the columns' room).
    """
    labels = [row.label.cell_len for row in table.rows.values() if row.label is not None]
    label_width = max(labels) + 2 * table.cell_padding if labels and table.show_row_labels else 0
    cells = table.scrollable_content_region.width - label_width - 2 * table.cell_padding * (len(fixed) + len(flex))
    free = max(cells - sum(fixed.values()), minimum * len(flex))
    total = sum(flex.values()) or 1
    widths = dict(fixed)
    for key, weight in flex.items():
        widths[key] = max(int(free * weight / total), minimum)
    columns = [(key, column.label, widths.get(str(key.value))) for key, column in table.columns.items()]
    if all(w is None or (table.columns[k].width == w and not table.columns[k].auto_width) for k, _, w in columns):
        return
    rows = [(key.value, table.get_row(key), row.label) for key, row in table.rows.items()]
    cursor = table.cursor_row
    table.clear(columns=True)
    for column_key, label, width in columns:
        table.add_column(label, width=width, key=column_key.value)
    for row_key, cells_of_row, row_label in rows:
        table.add_row(*cells_of_row, key=row_key, label=row_label)
    if rows:
        table.move_cursor(row=cursor, animate=False, scroll=True)
