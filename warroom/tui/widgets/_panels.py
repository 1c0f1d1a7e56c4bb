"""The war room's state lines and plan: the status bar (drill clock, speed, pause), the damage and cost meters, and
the plan with each step's reported status. The author mode shows the status bar too.

All of them are thin views: they are handed state from a :class:`~warroom.core.play.Replay` (or a drill) and render
it; none of them advances the drill clock, applies an action or scores anything. Drill text is rendered through
:mod:`warroom.tui.render._text`, never as markup.
"""

from __future__ import annotations

from collections.abc import Mapping

from rich.text import Text
from textual.widgets import Static

from warroom.core.model import Drill, Role, damage_meter_text
from warroom.core.play import CostMeter, StepState
from warroom.core.text import clean_line, clock, speed, usd
from warroom.tui.render import STEP_ICONS, literal_line

#: The drill clock's sign in the status bar; in a browser (``warroom serve``) :data:`WEB_CLOCK_GLYPH`, since the
#: fonts browsers draw a terminal with have no stopwatch (an empty box) but do have the quartered circle.
CLOCK_GLYPH = "⏱"
WEB_CLOCK_GLYPH = "◷"

#: A one-line bar's text is cut at its end with "…": Textual wraps a Static's text at its width whatever the Rich
#: Text's ``no_wrap`` says, so the words that did not fit went to a second line the bar does not show (a title cut
#: mid-sentence without "…"), and a title whose first word did not fit (an imported run's id) was not shown at all.
ONE_LINE_CSS = "text-wrap: nowrap; text-overflow: ellipsis;"


class StatusBar(Static):
    """One line: the drill title, the drill clock (mm:ss), the playback speed and a PAUSED badge; a title too long
    for the line is cut with "…"."""

    DEFAULT_CSS = f"StatusBar {{ {ONE_LINE_CSS} }}"

    _shown: tuple[str, str, float, bool, str] | None = None

    def show(self, title: str, now: float, rate: float, paused: bool, note: str = "") -> None:
        """Render the bar (unless it shows exactly this already: the clock shows whole seconds, so the replay's ten
        ticks a second repaint it once). ``now`` is drill time in seconds; ``rate`` the playback speed, a multiplier
        of real time."""
        shown = (title, clock(now), rate, paused, note)
        if self._shown == shown:
            return
        self._shown = shown
        out = Text(no_wrap=True, overflow="ellipsis")
        out.append(f" {WEB_CLOCK_GLYPH if self.app.is_web else CLOCK_GLYPH} ")
        out.append(clock(now), style="bold")
        out.append("  ")
        out.append(speed(rate), style="bold")
        out.append("  ")
        if paused:
            out.append(" PAUSED ", style="bold reverse yellow")
            out.append("  ")
        if note:
            out.append(f" {note} ", style="bold reverse")
            out.append("  ")
        out.append_text(literal_line(title))  # no VS16 (warroom.tui.render._text): one cell a symbol on every terminal
        self.update(out, layout=False)  # fixed height (warroom.tcss): a repaint, not a layout of the screen
        self.set_class(paused, "-paused")


class Meters(Static):
    """One line: damage accrued so far and cost so far (USD, ``plan`` / ``exec``: the planner / executor split, and
    ``sub``, format 2, the sub-agents' share once they have made a call).

    Until damage accrues the meter reads ``damage none yet`` in every drill, fault or all-clear alike; then the
    bare amount (:func:`warroom.core.model.damage_meter_text`). The damage unit names the fault's consequence (it
    is part of the answer key), so it is never shown before the debrief. The cost meter always shows in full (in
    a line too narrow for it, cut with "…").
    """

    DEFAULT_CSS = f"Meters {{ {ONE_LINE_CSS} }}"

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
        out.append(usd(cost.usd), style="bold")
        out.append(" plan ", style="dim")
        out.append(usd(cost.usd_by_role[Role.PLANNER]))
        out.append(" exec ", style="dim")
        out.append(usd(cost.usd_by_role[Role.EXECUTOR]))
        if sub:  # format 2: sub-agents' calls, so that the shares add up to the cost
            out.append(" sub ", style="dim")
            out.append(usd(sub))
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
            line.append(clean_line(step.id), style="bold")
            line.append(" ")
            if step.id in missing:
                line.append("⚠ no approval ", style="bold red")
            line.append_text(literal_line(step.title, style="dim" if state is StepState.PENDING else ""))
            if step.id == current:
                line.stylize("reverse")
            out.append_text(line)
        self.update(out, layout=False)  # fixed height (warroom.tcss): a repaint, not a layout of the screen

    def on_resize(self) -> None:
        if self._shown is not None:
            self.show(*self._shown)
