"""Widgets of the war room, reusable by other views (e.g. a facilitator's session review).

All of them are thin views: they are handed state from a :class:`~warroom.core.replay.Replay` (or a drill) and render
it; none of them advances the drill clock, applies an action or scores anything. Drill text is rendered through
:mod:`warroom.tui.text`, never as markup.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.text import Text
from textual.widgets import DataTable, Static

from warroom.core.cost import call_cost
from warroom.core.hygiene import damage_meter_text
from warroom.core.model import ROLE_OF_KIND, Drill, Role, ToolCall, ToolResult
from warroom.core.replay import CostMeter, StepState
from warroom.tui import text as fmt
from warroom.tui.structured import language_hint, structured

# ---------------------------------------------------------------------------------------------------------------
# Event descriptions
# ---------------------------------------------------------------------------------------------------------------

#: Short labels for trace event kinds, as the timeline shows them.
KIND_LABELS: dict[str, str] = {
    "planner_call": "planner",
    "executor_message": "executor",
    "tool_call": "tool call",
    "tool_result": "result",
    "executor_report": "report",
    "log": "log",
}

#: Style of each kind label in the timeline.
KIND_STYLES: dict[str, str] = {
    "planner_call": "bold magenta",
    "executor_message": "cyan",
    "tool_call": "blue",
    "tool_result": "green",
    "executor_report": "bold cyan",
    "log": "yellow",
}

#: Icon and style of each plan step state (the executor's *reported* status).
STEP_ICONS: dict[StepState, tuple[str, str]] = {
    StepState.PENDING: ("·", "dim"),
    StepState.IN_PROGRESS: ("▸", "yellow"),
    StepState.NO_REPORT: ("?", "dim"),
    StepState.SUCCESS: ("✓", "green"),
    StepState.PARTIAL: ("◐", "yellow"),
    StepState.FAILED: ("✗", "red"),
}


def summarize(event: Any, limit: int | None = None) -> str:
    """A one-line summary of a trace event (plain text, not yet cleaned): what the timeline shows.

    With ``limit`` (characters), free text is cut before it is formatted, so a 200 KB result costs no more than a
    short one; the summary is then at least ``limit`` characters long when the full one would be (callers cut it
    to ``limit`` with their ellipsis)."""

    def cut(value: Any) -> Any:
        return value[: limit + 1] if limit is not None and isinstance(value, str) else value

    kind = event.kind
    if kind == "tool_call":
        return f"{event.tool}({fmt.compact_json(event.arguments)[1:-1] if event.arguments else ''})"
    if kind == "tool_result":
        status = f"{event.status} · " if event.status else ""
        return status + fmt.compact_json(cut(event.output))
    if kind == "executor_report":
        return f"{event.status.value.upper()}: {cut(event.content)}"
    if kind == "log":
        return f"{event.source} {event.level}: {cut(event.content)}"
    return str(cut(getattr(event, "content", "")))


def usage_line(event: Any, drill: Drill) -> Text | None:
    """The token usage of a model-call event and its cost in USD, or None for an event without usage."""
    usage = getattr(event, "usage", None)
    if usage is None or event.kind not in ROLE_OF_KIND:
        return None
    role = ROLE_OF_KIND[event.kind]
    spec = drill.models.planner if role is Role.PLANNER else drill.models.executor
    out = Text()
    out.append("usage  ", style="bold")
    out.append(f"{usage.input_tokens:,} in / {usage.output_tokens:,} out tokens")
    if usage.estimated:
        out.append(" (estimated)", style="dim")
    out.append(f" · {role.value} ")
    out.append(fmt.clean_line(spec.name))
    out.append(f" at {fmt.usd_price(spec.input_usd_per_mtok)} / {fmt.usd_price(spec.output_usd_per_mtok)} per Mtok = ")
    out.append(fmt.usd(call_cost(usage, spec)), style="bold")
    return out


def _result_of(call: Any, drill: Drill, events: Mapping[str, Any] | None) -> Text:
    """The inspector's ``result`` line of a tool call: the tool result answering it (released, so shown), or that it
    has not returned yet, or that the trace has none. ``events`` are the events shown so far (None: the whole trace)."""
    out = Text()
    out.append(_label("result"), style="bold")
    shown = events.values() if events is not None else drill.trace
    answer = next((e for e in shown if isinstance(e, ToolResult) and e.call == call.id), None)
    if answer is not None:
        out.append(fmt.clean_line(answer.id))
        out.append(f" (t={fmt.seconds(answer.t)})", style="dim")
    elif any(isinstance(e, ToolResult) and e.call == call.id for e in drill.trace):
        out.append("not returned yet", style="dim")
    else:
        out.append("no result in the trace", style="dim")
    return out


def _label(name: str) -> str:
    """A label of the inspector's field column (step, objective, tool, ...), padded so the values line up."""
    return f"{name:<10}"


def describe_event(event: Any, drill: Drill, events: Mapping[str, Any] | None = None) -> Text:
    """The full inspector view of one trace event: header, plan step and objective, body, usage and cost.

    ``events`` (event id to trace event, e.g. :attr:`Timeline.events`) is used to find the tool call a tool result
    answers without a scan of the whole trace; an id missing from it is looked up in ``drill``.
    """
    out = Text()
    out.append(fmt.clean_line(event.id), style="bold")
    out.append(" · ")
    out.append(KIND_LABELS.get(event.kind, event.kind), style=KIND_STYLES.get(event.kind, ""))
    out.append(f" · {fmt.clock(event.t)}\n")
    if event.step is not None:
        try:
            step = drill.step(event.step)
        except KeyError:
            step = None
        out.append(_label("step"), style="bold")
        out.append(fmt.clean_line(event.step))
        if step is not None:
            out.append(" ")
            out.append(fmt.clean_line(step.title))
            out.append("\n" + _label("objective"), style="bold")
            out.append(fmt.clean_line(step.objective), style="italic")
        out.append("\n")
    kind = event.kind
    if kind == "tool_call":
        out.append(_label("tool"), style="bold")
        out.append(fmt.clean_line(event.tool))
        out.append("\n")
        out.append_text(_result_of(event, drill, events))
        out.append("\narguments\n", style="bold")
        out.append_text(structured(event.arguments))
    elif kind == "tool_result":
        meta = []
        if event.status:
            meta.append(f"status {fmt.clean_line(event.status)}")
        if event.duration_ms is not None:
            meta.append(f"{event.duration_ms:,.0f} ms")
        language = None
        try:
            call = events[event.call] if events is not None and event.call in events else drill.event(event.call)
        except KeyError:  # a call the trace does not have
            call = None
        if isinstance(call, ToolCall):
            meta.append(f"answers {fmt.clean_line(event.call)} ({fmt.clean_line(call.tool)})")
            language = language_hint(call.arguments)  # e.g. the file a read_file call named
        else:
            meta.append(f"answers {fmt.clean_line(event.call)}")
        out.append(" · ".join(meta) + "\n")
        out.append("output (raw)\n", style="bold")
        out.append_text(structured(event.output, language))
    elif kind == "executor_report":
        state = StepState(event.status.value)
        icon, style = STEP_ICONS[state]
        out.append(_label("reports"), style="bold")
        out.append(f"{icon} {event.status.value}", style=style)
        out.append("\n")
        out.append(fmt.clean(event.content))
    elif kind == "log":
        out.append(_label("source"), style="bold")
        out.append(fmt.clean_line(event.source))
        out.append(f" · {event.level}\n", style="red" if event.level == "error" else "")
        out.append(fmt.clean(event.content))
    else:
        out.append(fmt.clean(getattr(event, "content", "")))
    line = usage_line(event, drill)
    if line is not None:
        out.append("\n\n")
        out.append_text(line)
    return out


# ---------------------------------------------------------------------------------------------------------------
# Header, meters, plan
# ---------------------------------------------------------------------------------------------------------------


class StatusBar(Static):
    """One line: the drill title, the drill clock (mm:ss), the playback speed and a PAUSED badge."""

    def show(self, title: str, now: float, speed: float, paused: bool, note: str = "") -> None:
        """Render the bar. ``now`` is drill time in seconds; ``speed`` a multiplier of real time."""
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
    """One line: damage accrued so far and cost so far (USD, ``plan`` / ``exec``: the planner / executor split).

    Until damage accrues the meter reads ``damage none yet`` in every drill, fault or all-clear alike; then the
    bare amount (:func:`warroom.core.hygiene.damage_meter_text`). The damage unit names the fault's consequence (it
    is part of the answer key), so it is never shown before the debrief. The cost meter always shows in full.
    """

    _shown: tuple[float, str, CostMeter] | None = None

    def show(self, damage: float, unit: str, cost: CostMeter) -> None:
        """Render the meters from the replay's accrued ``damage`` and its ``cost`` meter. ``unit`` (the damage
        unit) is not shown before the debrief; it is taken so that callers pass the replay's state unchanged."""
        self._shown = (damage, unit, cost)
        out = Text(no_wrap=True, overflow="ellipsis")
        out.append(" damage ", style="bold")
        if damage:  # the amount only: the unit is part of the answer key (warroom.core.hygiene)
            out.append(damage_meter_text(damage), style="bold red")
        else:
            out.append("none yet", style="bold green")
        out.append("  cost ", style="bold")
        out.append(fmt.usd(cost.usd), style="bold")
        out.append(" plan ", style="dim")
        out.append(fmt.usd(cost.usd_by_role[Role.PLANNER]))
        out.append(" exec ", style="dim")
        out.append(fmt.usd(cost.usd_by_role[Role.EXECUTOR]))
        self.update(out, layout=False)  # fixed height (warroom.tcss): a repaint, not a layout of the screen

    def on_resize(self) -> None:
        if self._shown is not None:
            self.show(*self._shown)


class PlanPanel(Static):
    """The plan: each step with the status the executor *reported* for it; the selected event's step is marked.

    A plan longer than the panel shows a window of it that follows the marked step (scrolled just enough to show
    it), with "first-last of N" under the panel."""

    _top = 0
    _shown: tuple[Drill, Mapping[str, StepState], str | None] | None = None

    def show(self, drill: Drill, states: Mapping[str, StepState], current: str | None = None) -> None:
        """Render ``drill.plan`` with ``states`` (step id to state); ``current`` is highlighted and kept in view."""
        self._shown = (drill, states, current)
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
            line.append(fmt.clean_line(step.title), style="dim" if state is StepState.PENDING else "")
            if step.id == current:
                line.stylize("reverse")
            out.append_text(line)
        self.update(out, layout=False)  # fixed height (warroom.tcss): a repaint, not a layout of the screen

    def on_resize(self) -> None:
        if self._shown is not None:
            self.show(*self._shown)


# ---------------------------------------------------------------------------------------------------------------
# Column fitting (the drill picker's DataTable)
# ---------------------------------------------------------------------------------------------------------------

#: Fixed widths of the timeline's columns other than the summary.
_FIXED = {"flag": 1, "t": 5, "step": 5, "kind": 9}


def fit_columns(table: DataTable, fixed: Mapping[str, int], flex: Mapping[str, float], minimum: int = 8) -> None:
    """Size a DataTable's columns to its width: ``fixed`` widths as given, the rest shared by ``flex`` weights.

    Keys are column keys. Call it from ``on_resize``; cached rows are re-rendered only when a width changed.
    """
    cells = table.scrollable_content_region.width - 2 * table.cell_padding * (len(fixed) + len(flex))
    free = max(cells - sum(fixed.values()), minimum * len(flex))
    total = sum(flex.values()) or 1
    widths = dict(fixed)
    for key, weight in flex.items():
        widths[key] = max(int(free * weight / total), minimum)
    changed = False
    for key, width in widths.items():
        column = table.columns.get(key)  # type: ignore[call-overload]
        if column is not None and (column.width != width or column.auto_width):
            column.width = width
            column.auto_width = False
            changed = True
    if changed:
        table._clear_caches()  # DataTable has no public API to resize a column; these two lines are what it does
        table._require_update_dimensions = True
        table.refresh()
