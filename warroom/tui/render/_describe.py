"""An event in full, as the inspector shows it (:func:`describe_event`): its header, plan step and objective, agent
and model-call lines, its body by kind (:func:`warroom.tui.render._kinds.event_body`), and its token usage and cost.
Drill
text is rendered through :mod:`warroom.tui.render._text`, never as markup.

Lookups over the whole trace (the tool call a result answers, a call's results, its batch) go through the
:class:`~warroom.tui.logic.TraceIndex` the screen built for its drill, so that describing an event costs the
same on a 100-event and a 100,000-event trace.
"""

from __future__ import annotations

from collections.abc import Mapping

from rich.text import Text

from warroom.core.model import Drill, ExecutorMessage, ExecutorReport, PlannerCall, ToolCall, TraceEvent
from warroom.core.text import clean_line, clock, seconds, usd, usd_price
from warroom.tui.logic import TraceIndex, event_agent, shows_agents
from warroom.tui.render._kinds import KINDS, event_body, field_label, field_line
from warroom.tui.render._text import without_vs16

#: Most repetition times the inspector lists (then how many more).
SHOWN_REPETITIONS = 12


def describe_event(
    event: TraceEvent, index: TraceIndex, events: Mapping[str, TraceEvent] | None = None,
    repeated: int | None = None,
) -> Text:
    """The full inspector view of one trace event of ``index.drill``: header, plan step and objective, body, usage
    and cost.

    ``events`` (event id to trace event, e.g. :attr:`TraceTable.events`: the released events; None: the whole
    trace, as in the debrief) is used to find the tool call a tool result answers; an id missing from it is looked
    up in ``index``. ``repeated``: how many repetitions of a repeated event have happened so far (format 2; None:
    not playing), listed with their times.
    """
    drill = index.drill
    out = event_heading(event)
    out.append_text(_step_lines(event, drill))
    out.append_text(agent_lines(event, drill, repeated))
    out.append_text(event_body(event, index, events, repeated))
    line = usage_line(event, index, repeated)
    if line is not None:
        out.append("\n\n")
        out.append_text(line)
    return without_vs16(out)  # one cell wide on every terminal


def event_heading(event: TraceEvent) -> Text:
    """An event's first line in the inspector, with its newline: id, kind and drill time (``e05 · tool result ·
    01:20``)."""
    kind = KINDS[type(event)]
    return Text.assemble((clean_line(event.id), "bold"), " · ", (kind.label, kind.style), f" · {clock(event.t)}\n")


def _step_lines(event: TraceEvent, drill: Drill) -> Text:
    """The inspector's plan-step lines of an event: its step, the step's title and objective (none without a step)."""
    out = Text()
    if event.step is None:
        return out
    try:
        step = drill.step(event.step)
    except KeyError:
        step = None
    out.append(field_label("step"), style="bold")
    out.append(clean_line(event.step))
    if step is not None:
        out.append(" ")
        out.append(clean_line(step.title))
        out.append("\n" + field_label("objective"), style="bold")
        out.append(clean_line(step.objective), style="italic")
    out.append("\n")
    return out


def agent_lines(event: TraceEvent, drill: Drill, repeated: int | None = None) -> Text:
    """The inspector's ``agent`` line (name, role; the agent's description under it), a model call's metadata
    (model, finish reason, max tokens, truncation) and a repeated event's repetitions, expanded: how many so far
    (``repeated``; None when not playing, then the total) and at what drill times; empty for an event with none of
    these. While playing, the total number of repetitions is not shown: it would tell the rest of the trace."""
    out = Text()
    agents = {a.name: a for a in drill.agents}
    name = event_agent(event) if shows_agents(drill) else event.agent  # implied: only where the trace shows it
    if name is not None:
        agent = agents.get(name)
        role = f" · {agent.role.value}" if agent is not None else ""
        implied = " (by the event's kind)" if event.agent is None else ""
        out.append_text(field_line("agent", f"{name}{role}{implied}"))
        if agent is not None and agent.description:
            out.append_text(field_line("", agent.description, "dim"))
    if isinstance(event, PlannerCall | ExecutorMessage | ToolCall | ExecutorReport):  # a model call says what it was
        meta = []
        if event.model:
            meta.append(f"model {event.model}")
        if event.finish_reason:
            meta.append(f"finish {event.finish_reason}")
        if event.max_tokens is not None:
            meta.append(f"max_tokens {event.max_tokens:,}")
        if meta:
            out.append_text(field_line("call", " · ".join(meta)))
        if event.truncated:
            out.append_text(field_line("output", "cut short (truncated)", "bold red"))
    if event.repeat is not None:
        repeat = event.repeat
        # While playing, never the total: how many repetitions are still to come is the rest of the trace.
        total = f"×{repeat.count}, " if repeated is None else ""
        every = f"every {seconds(repeat.interval)}" if repeat.interval else "all at once"
        out.append_text(field_line("repeats", f"{total}{every}"))
        n = repeat.count if repeated is None else repeated
        times = [clock(event.t + k * repeat.interval) for k in range(min(n, SHOWN_REPETITIONS))]
        more = f" and {n - SHOWN_REPETITIONS:,} more" if n > SHOWN_REPETITIONS else ""
        so_far = "" if repeated is None else f"{n:,} so far: "
        out.append_text(field_line("", f"{so_far}{' '.join(times)}{more}"))
    return out


def usage_line(event: TraceEvent, index: TraceIndex, repeated: int | None = None) -> Text | None:
    """The token usage of a model-call event and its cost in USD (at its agent's or its own model, format 2), or None
    for an event without usage. A repeated event (format 2) costs that each time: the line adds what its
    repetitions cost, so far (``repeated`` of them, while playing) or in all (``None``: not playing)."""
    call = index.cast.call(event)
    if call is None:
        return None
    usage, role, spec = call.usage, call.role, call.spec
    out = Text()
    out.append("usage  ", style="bold")
    out.append(f"{usage.input_tokens:,} in / {usage.output_tokens:,} out tokens")
    if usage.estimated:
        out.append(" (estimated)", style="dim")
    out.append(f" · {role.value} ")
    out.append(clean_line(spec.name))
    out.append(f" at {usd_price(spec.input_usd_per_mtok)} / {usd_price(spec.output_usd_per_mtok)} per Mtok = ")
    out.append(usd(spec.cost(usage)), style="bold")
    if event.repeat is not None:
        n = event.repeat.count if repeated is None else repeated
        times = f"{n:,} so far" if repeated is not None else f"×{n:,}"
        out.append(f" each · {times}: ")
        out.append(usd(spec.cost(usage) * n), style="bold")
    return out
