"""How the war room shows format-2 events and fields (docs/authoring.md, "Format version 2"): the one-line
summaries of the new event kinds, the trace table's marks (a result's call ``↳e03``, a retry ``↻e08``, ``×58``
for a repeated event), and the inspector's lines for agents, call metadata, every result of a call (or that it has
none), what the model was shown beside the full output, and a command's exit code, stdout and stderr.

Drill text goes through :mod:`warroom.tui.text` (literal, control characters escaped), never as markup.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from rich.text import Text

from warroom.core.model import Drill, role_of
from warroom.core.play import CallIndex, index_calls, missing_approvals
from warroom.tui import text as fmt
from warroom.tui.structured import structured

#: Labels and styles of the format-2 event kinds in the trace table.
LABELS = {"command_result": "command", "handoff": "handoff", "approval": "approval", "human_message": "human"}
STYLES = {"command_result": "green", "handoff": "bold blue", "approval": "bold yellow", "human_message": "bold"}

_INDEXES: dict[int, tuple[Drill, CallIndex]] = {}


def call_index(drill: Drill) -> CallIndex:
    """The :class:`~warroom.core.play.CallIndex` of ``drill``'s trace and re-plan, built once per drill."""
    kept = _INDEXES.get(id(drill))
    if kept is not None and kept[0] is drill:
        return kept[1]
    replan = drill.answer_key.replan if drill.answer_key else ()
    index = index_calls((*drill.trace, *replan))
    if len(_INDEXES) >= 8:
        del _INDEXES[next(iter(_INDEXES))]
    _INDEXES[id(drill)] = (drill, index)
    return index


_UNAPPROVED: dict[int, tuple[Drill, dict[str, str]]] = {}


def unapproved_calls(drill: Drill) -> dict[str, str]:
    """Format 2: the tool calls that went ahead without the approval their plan step requires (the first tool call
    of such a step before any granted approval in it), call id to step id; built once per drill. Whether a call went
    ahead unapproved depends only on the events before it, so showing it with the call tells nothing of the rest of
    the trace."""
    kept = _UNAPPROVED.get(id(drill))
    if kept is not None and kept[0] is drill:
        return kept[1]
    calls = {call: step for step, call in missing_approvals(drill.plan, drill.trace).items()}
    if len(_UNAPPROVED) >= 8:
        del _UNAPPROVED[next(iter(_UNAPPROVED))]
    _UNAPPROVED[id(drill)] = (drill, calls)
    return calls


def summarize2(event: Any, cut: Any) -> str | None:
    """The one-line summary of a format-2 event kind (``cut`` shortens free text), or None for another kind."""
    match event.kind:
        case "command_result":
            out = f"exit {event.exit_code}"
            if event.stderr:
                out += f" · stderr: {cut(event.stderr)}"
            if event.stdout:
                out += f" · stdout: {cut(event.stdout)}"
            return out
        case "handoff":
            return f"{event.from_agent} → {event.to_agent}: {cut(event.content)}"
        case "approval":
            answers = f" ({event.request})" if event.request else ""
            return f"{event.decision.upper().replace('_', ' ')}{answers}: {cut(event.content)}"
        case _:
            return None


def row_mark(event: Any, repetitions: Mapping[str, int] | None) -> str:
    """What the trace table puts before an event's summary, kept short for 80 columns: ``×N`` (repetitions so far,
    or in all without a replay) for a repeated event, ``⇉B`` for a call of the parallel batch B (one model turn),
    ``↻ID`` for a call retrying the call ID, ``↳ID`` for a result (the call it answers), ``✂`` for a model call cut
    short; empty for a plain event. The marks come first in the summary so that they stay in sight when the trace
    table is narrow (80 columns) and the rest of the summary is cut."""
    marks = []
    if event.repeat is not None:
        n = repetitions.get(event.id, 1) if repetitions is not None else event.repeat.count
        marks.append(f"×{n}")
    if event.kind == "tool_call" and event.batch is not None:
        marks.append(f"⇉{event.batch}")
    if event.kind == "tool_call" and event.retry_of is not None:
        marks.append(f"↻{event.retry_of}")
    if event.kind in ("tool_result", "command_result"):
        marks.append(f"↳{event.call}")
    if getattr(event, "truncated", False):
        marks.append("✂")
    return " ".join(marks) + " " if marks else ""


def shows_agents(drill: Any) -> bool:
    """Whether the trace table of ``drill`` gets the agent column: when the drill names an agent beyond one
    planner and one executor (a sub-agent, a person, a tool host, or two agents of a role). With only a planner
    and an executor, every event's agent follows from its kind, and the column would only narrow the summary
    (the inspector still names the agent)."""
    roles = [a.role.value for a in drill.agents]
    return any(r not in ("planner", "executor") for r in roles) or len(roles) != len(set(roles))


def event_agent(event: Any) -> str | None:
    """The agent ``event`` belongs to: its ``agent``, else the role its kind implies, under the role's name (a
    planner call: ``planner``; an executor message, tool call or report: ``executor``; docs/authoring.md,
    "Agents"; the cost by agent counts it under the same name); None for an event of no role that names no agent
    (a tool result, a log line)."""
    if event.agent is not None:
        return str(event.agent)
    role = role_of(event)
    return role.value if role is not None else None


def agent_labels(drill: Drill, width: int) -> dict[str, str]:
    """The trace table's agent column: each agent's name (``drill.agents``) as shown in ``width`` cells. A name that
    does not fit is cut at its end (``coordi…``), unless that leaves two agents looking the same (``researcher-1``
    and ``researcher-2``): those are cut in the middle instead, keeping the end where such names differ
    (``res…r-1``, ``res…r-2``), so that a trainee can tell which agent did what."""
    def end_cut(name: str) -> str:
        return name if len(name) <= width else name[: width - 1] + "…"

    def middle_cut(name: str) -> str:
        if len(name) <= width:
            return name
        head = (width - 1) // 2
        return name[:head] + "…" + name[len(name) - (width - 1 - head):]

    cut = {agent.name: end_cut(agent.name) for agent in drill.agents}
    seen = Counter(cut.values())
    return {name: middle_cut(name) if seen[label] > 1 else label for name, label in cut.items()}


def _line(label: str, value: str, style: str = "") -> Text:
    out = Text()
    out.append(f"{label:<10}", style="bold")
    out.append(fmt.clean_line(value), style=style)
    out.append("\n")
    return out


#: Most repetition times the inspector lists (then how many more).
SHOWN_REPETITIONS = 12
#: Most other calls of a batch the inspector names (then how many more).
SHOWN_BATCH_CALLS = 12


def agent_lines(event: Any, drill: Drill, repeated: int | None = None) -> Text:
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
        out.append_text(_line("agent", f"{name}{role}{implied}"))
        if agent is not None and agent.description:
            out.append_text(_line("", agent.description, "dim"))
    meta = []
    if getattr(event, "model", None):
        meta.append(f"model {event.model}")
    if getattr(event, "finish_reason", None):
        meta.append(f"finish {event.finish_reason}")
    if getattr(event, "max_tokens", None) is not None:
        meta.append(f"max_tokens {event.max_tokens:,}")
    if meta:
        out.append_text(_line("call", " · ".join(meta)))
    if getattr(event, "truncated", False):
        out.append_text(_line("output", "cut short (truncated)", "bold red"))
    if event.repeat is not None:
        repeat = event.repeat
        # While playing, never the total: how many repetitions are still to come is the rest of the trace.
        total = f"×{repeat.count}, " if repeated is None else ""
        every = f"every {fmt.seconds(repeat.interval)}" if repeat.interval else "all at once"
        out.append_text(_line("repeats", f"{total}{every}"))
        n = repeat.count if repeated is None else repeated
        times = [fmt.clock(event.t + k * repeat.interval) for k in range(min(n, SHOWN_REPETITIONS))]
        more = f" and {n - SHOWN_REPETITIONS:,} more" if n > SHOWN_REPETITIONS else ""
        so_far = "" if repeated is None else f"{n:,} so far: "
        out.append_text(_line("", f"{so_far}{' '.join(times)}{more}"))
    return out


def results_lines(call: Any, drill: Drill, events: Mapping[str, Any] | None) -> Text:
    """The inspector's ``result`` lines of a tool call: each result answering it that has been released (id and
    time), or that none has returned yet, or that the trace has none; then its batch and retry, and (format 2) that
    it went ahead without the approval its step requires (:func:`unapproved_calls`).

    ``events`` are the released events (None: the whole trace, as in the debrief). A call without a result says
    "not returned yet" until the trace's last event is out, as a call whose result is still to come does: saying
    "no result in the trace" earlier would tell the trainee what the rest of the trace holds."""
    out = Text()
    index = call_index(drill)
    results = index.results_of(call.id)
    shown = [r for r in results if events is None or r.id in events]
    ended = events is None or not drill.trace or drill.trace[-1].id in events  # times never go back in a trace
    if not results:
        out.append_text(_line("result", "no result in the trace", "bold yellow") if ended else
                        _line("result", "not returned yet", "dim"))
    for r in shown:
        out.append_text(_line("result", f"{r.id} (t={fmt.seconds(r.t)})"))
    if results and not shown:  # (never "more to come" once one is out: that too would tell the rest of the trace)
        out.append_text(_line("result", "not returned yet", "dim"))
    if call.batch is not None:  # the released calls of the batch only (the rest would tell the trace), at most 12
        others = [c for c in index.batches.get(call.batch, []) if c != call.id and (events is None or c in events)]
        none = "no other call" if events is None else "no other call yet"
        shown_calls = ", ".join(others[:SHOWN_BATCH_CALLS]) or none
        more = f" and {len(others) - SHOWN_BATCH_CALLS:,} more" if len(others) > SHOWN_BATCH_CALLS else ""
        out.append_text(_line("batch", f"{call.batch} with {shown_calls}{more}"))
    if call.retry_of is not None:
        out.append_text(_line("retry", f"attempt {index.attempt(call.id)}, retries {call.retry_of}"))
    step = unapproved_calls(drill).get(call.id)
    if step is not None:
        out.append_text(_line("approval", f"none granted in {step} before this call ({step} requires one)", "bold red"))
    return out


def result_extras(event: Any) -> Text:
    """A tool result's size and what the model was shown (beside the full output), or a command's exit code,
    stdout and stderr, each apart."""
    out = Text()
    if event.kind == "command_result":
        out.append_text(_line("exit code", str(event.exit_code), "bold red" if event.exit_code else "green"))
        for name in ("stdout", "stderr"):
            out.append(f"{name}\n", style="bold")
            text = getattr(event, name)
            out.append(fmt.clean(text) if text else Text("(empty)", style="dim"))
            out.append("\n")
        return out
    if event.size_bytes is not None:
        out.append_text(_line("size", f"{event.size_bytes:,} bytes"))
    if event.shown is not None:
        out.append("shown to the model (cut short)\n", style="bold")
        out.append_text(structured(event.shown))
        out.append("\n")
    return out
