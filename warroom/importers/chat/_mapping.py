"""A conversation as drill data: agents, plan steps (one per user turn), trace events on an estimated clock.

The mapping, field by field, is in docs/importing.md ("warroom import chat").
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from warroom.core.author import UNMARKED_AUTHOR
from warroom.core.text import is_valid_id
from warroom.importers.chat._parse import Conversation, Message
from warroom.importers.chat._team import is_terminal
from warroom.importers.kit import (
    DEFAULT_DIFFICULTY,
    DEFAULT_MODEL_NAME,
    TraceOptions,
    drill_id,
    model_usage,
    reading_gap,
)
from warroom.importers.spans import agent_id

USER, ASSISTANT, TOOLS = "user", "assistant", "tools"
PLANNER_MODEL = "planner (not in the trace)"


class _Clock:
    """The estimated drill clock: each event is released after the one before has been read."""

    def __init__(self) -> None:
        self.t = 0.0
        self.context_chars = 0

    def place(self, event: dict[str, Any], text: str) -> dict[str, Any]:
        event["t"] = round(self.t, 1)
        self.t += reading_gap(text)
        self.context_chars += len(text)
        return event


def _call_ids(conv: Conversation) -> dict[str, str]:
    """Event id of each tool call: the API's call id when it is a usable, unique event id, else ``mNNN-cJ``."""
    taken = {f"m{i:03d}" for i in range(len(conv.messages))}
    out: dict[str, str] = {}
    for i, m in enumerate(conv.messages):
        for j, c in enumerate(m.tool_calls, 1):
            eid = c.call_id if is_valid_id(c.call_id) and c.call_id not in taken else ""
            out[c.call_id] = eid or f"m{i:03d}-c{j}"
            taken.add(out[c.call_id])
    return out


def message_events(conv: Conversation, i: int) -> list[str]:
    """The ids of the trace events message ``i`` of ``conv`` becomes: its text's event and its tool calls'."""
    ids = _call_ids(conv)
    return [f"m{i:03d}", *(ids[c.call_id] for c in conv.messages[i].tool_calls)]


def assistant_names(conv: Conversation) -> dict[str | None, str]:
    """The agent of each assistant ``name`` in ``conv`` (None: no name): ``assistant`` when no assistant message is
    named; else each name as an agent id (``assistant`` for unnamed messages), never ``user`` or ``tools``."""
    names = list(dict.fromkeys(m.name for m in conv.messages if m.role == "assistant"))
    if names in ([], [None]):
        return {None: ASSISTANT}
    out: dict[str | None, str] = {}
    for name in names:
        agent = ASSISTANT if name is None else agent_id(name)
        while agent in (USER, TOOLS) or (agent in out.values()):
            agent += "-agent"
        out[name] = agent
    return out


def _assistant(i: int, m: Message, step: str | None, clock: _Clock, ids: dict[str, str], agent: str = ASSISTANT
               ) -> list[dict[str, Any]]:
    """An assistant message (by ``agent``): its text as an executor_message, then its tool calls (one batch when
    several); the turn's usage on the first event (as the file recorded it, else estimated)."""
    written = m.text + "".join(c.name + str(c.arguments) for c in m.tool_calls)
    usage: dict[str, Any] = dict(m.usage) if m.usage is not None else model_usage(clock.context_chars, written)
    events: list[dict[str, Any]] = []
    if m.text.strip() or not m.tool_calls:
        ev = {"id": f"m{i:03d}", "t": 0, "step": step, "agent": agent, "kind": "executor_message",
              "content": m.text, "usage": usage}
        events.append(clock.place(ev, m.text))
    for j, c in enumerate(m.tool_calls):
        ev = {"id": ids[c.call_id], "t": 0, "step": step, "agent": agent, "kind": "tool_call", "tool": c.name,
              "arguments": c.arguments}
        if len(m.tool_calls) > 1:
            ev["batch"] = f"m{i:03d}-batch"
        if not events:
            ev["usage"] = usage
        events.append(clock.place(ev, str(c.arguments) if j == len(m.tool_calls) - 1 else ""))
    return events


def _events(conv: Conversation) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The plan (one step per user message) and the trace events, in order."""
    ids = _call_ids(conv)
    agents = assistant_names(conv)
    clock = _Clock()
    plan: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = []
    step: str | None = None
    for i, m in enumerate(conv.messages):
        eid = f"m{i:03d}"
        if m.role == "user":
            step = f"u{len(plan) + 1:02d}"
            plan.append({"id": step, "title": f"User turn {len(plan) + 1}",
                         "objective": f"The assistant does what the user asks in {eid}, as its instructions allow."})
            events.append(clock.place({"id": eid, "t": 0, "step": step, "agent": USER, "kind": "human_message",
                                       "content": m.text}, m.text))
        elif m.role in ("system", "developer"):
            events.append(clock.place({"id": eid, "t": 0, "step": step, "kind": "log", "source": f"{m.role} prompt",
                                       "content": m.text}, m.text))
        elif m.role == "assistant":
            events.extend(_assistant(i, m, step, clock, ids, agents[m.name]))
        else:
            result = {"id": eid, "t": 0, "step": step, "agent": TOOLS, "kind": "tool_result",
                      "call": ids[m.answers or ""], "output": m.text}
            if m.error:  # Anthropic's tool_result `is_error`
                result["status"] = "error"
            events.append(clock.place(result, m.text))
    if not plan:
        plan.append({"id": "u01", "title": "The conversation", "objective": "The assistant does what it is asked."})
    for ev in events:
        if ev["step"] is None:
            del ev["step"]
    return plan, events


def team_planner(conv: Conversation) -> str | None:
    """The speaker of a team transcript's instructions (its orchestrator, the planner), or None."""
    return next((m.name for m in conv.messages if m.role == "planner" and m.to), None)


def _team_agents(conv: Conversation) -> dict[str, str]:
    """Each speaker of a team transcript as an agent id (never ``user`` or ``tools``), in order of appearance."""
    out: dict[str, str] = {}
    for m in conv.messages:
        if m.name is not None and m.name not in out and not (m.role == "agent" and is_terminal(m.name)):
            agent = agent_id(m.name)
            while agent in (USER, TOOLS) or agent in out.values():
                agent += "-agent"
            out[m.name] = agent
    return out


def _team_step(plan: list[dict[str, Any]], title: str, objective: str) -> str:
    step = f"s{len(plan):02d}"
    plan.append({"id": step, "title": title, "objective": objective})
    return step


def _team_events(conv: Conversation) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """A team transcript's plan and trace (docs/importing.md, "Team transcripts"): with a planner, step ``s00`` is
    its initial plan and each instruction starts a step (``WebSurfer, instruction 3``); without one, each change
    of speaker starts a step (``WebSurfer, turn 3``). Titles and objectives use only what is known at 00:00."""
    agents, planner = _team_agents(conv), team_planner(conv)
    clock = _Clock()
    plan: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = []
    step = _team_step(plan, f"{planner}: the initial plan", f"{planner} writes a plan that covers the whole request "
                      "and gives the first instruction to the right agent.") if planner else None
    last_speaker: str | None = None
    for i, m in enumerate(conv.messages):
        eid = f"m{i:03d}"
        if m.role == "planner" and m.to:
            step = _team_step(plan, f"{m.to}, instruction {len(plan)}", f"{m.to} carries out {planner}'s instruction "
                              "that opens this step (shown when the step starts) and reports back faithfully what it "
                              "found, toward the user's request.")
        elif planner is None and m.role == "agent" and m.name != last_speaker and not is_terminal(m.name or ""):
            step = _team_step(plan, f"{m.name}, turn {len(plan) + 1}", f"{m.name} takes its turn toward the "
                              "user's request and reports faithfully what it found.")
        ev: dict[str, Any] = {"id": eid, "t": 0, "step": step}
        if m.role == "user":
            ev.update(agent=USER, kind="human_message", content=m.text)
        elif m.role == "log":
            warn = m.text.lstrip().startswith(("Stalled", "Replan counter exceeded", "Max "))
            ev.update(kind="log", source=str(m.name), level="warning" if warn else "info", content=m.text)
        elif m.role == "agent" and is_terminal(m.name or ""):
            code_from = events[-1]["id"] if events else ""
            events.append(clock.place({"id": f"{eid}-call", "t": 0, "step": step, "agent": agents.get(
                last_speaker or "", next(iter(agents.values()), ASSISTANT)), "kind": "tool_call",
                "tool": m.name, "arguments": {"code_from": code_from}}, ""))
            ev.update(agent=TOOLS, kind="tool_result", call=f"{eid}-call", output=m.text)
        else:
            kind = "planner_call" if m.role == "planner" else "executor_message"
            ev.update(agent=agents[m.name or ""], kind=kind, content=m.text)
            if not m.to:  # an instruction relays the model call before it: no usage of its own
                ev["usage"] = model_usage(clock.context_chars, m.text)
        if m.role == "agent" and not is_terminal(m.name or ""):
            last_speaker = m.name
        events.append(clock.place(ev, m.text))
    if not plan:
        plan.append({"id": "s00", "title": "The conversation", "objective": "The team does what it is asked."})
    for ev in events:
        if ev["step"] is None:
            ev["step"] = plan[0]["id"]
    return plan, events


def _team_drill_agents(conv: Conversation) -> list[dict[str, Any]]:
    planner = team_planner(conv)
    out: list[dict[str, Any]] = [{"name": USER, "role": "human", "description": "The person who made the request."}]
    n = 0
    for name, agent in _team_agents(conv).items():
        if name == planner:
            out.append({"name": agent, "role": "planner", "description": f"{name}: plans and instructs the team."})
        else:
            out.append({"name": agent, "role": "executor" if n == 0 else "sub-agent",
                        "description": f"{name}, a member of the team."})
            n += 1
    if any(m.role == "agent" and is_terminal(m.name or "") for m in conv.messages):
        out.append({"name": TOOLS, "role": "tool-host", "description": "The terminal that ran the team's code."})
    return out


def _agents(conv: Conversation) -> list[dict[str, Any]]:
    """The people and agents of the drill: the user, each assistant (one, or one per assistant ``name``: the first
    the executor, the others sub-agents) and the tools."""
    named = [(name, agent) for name, agent in assistant_names(conv).items()]
    assistants = [{"name": agent, "role": "executor" if n == 0 else "sub-agent",
                   "description": "The assistant that answered." if name is None
                   else f"The assistant named {name!r} in the transcript."}
                  for n, (name, agent) in enumerate(named)]
    return [{"name": USER, "role": "human", "description": "The person in the chat."}, *assistants,
            {"name": TOOLS, "role": "tool-host", "description": "The tools the assistant called."}]


def _estimated(conv: Conversation) -> str:
    """What the drill of ``conv`` estimates: the clock, and the token counts of the model turns the file does not
    record (it records some: AutoGen's ``models_usage``, OpenAI's ``usage``...); which are recorded."""
    turns = [m for m in conv.messages if m.role == "assistant"]
    recorded = sum(m.usage is not None for m in turns)
    if not recorded:
        return "the drill clock (reading speed) and every token count (text length)"
    if recorded == len(turns):
        return "the drill clock (reading speed); recorded: every model turn's token counts, as the file gives them"
    return (f"the drill clock (reading speed) and the token counts of {len(turns) - recorded} of {len(turns)} model "
            "turns (text length); recorded: the others', as the file gives them")


def conversation_to_drill_data(conv: Conversation, file: Path, options: TraceOptions | None = None
                               ) -> tuple[dict[str, Any], str]:
    """The drill for ``conv`` (read from ``file``) as plain data without an answer key, and its header comment."""
    options = options or TraceOptions()
    plan, events = _team_events(conv) if conv.team else _events(conv)
    model = conv.model or DEFAULT_MODEL_NAME
    first_user = next((m.text for m in conv.messages if m.role == "user" and m.text.strip()), None)
    tools = sorted({ev["tool"] for ev in events if ev["kind"] == "tool_call"})
    planner = team_planner(conv) if conv.team else None
    speakers = [a["name"] for a in (_team_drill_agents(conv) if conv.team else _agents(conv))
                if a["role"] in ("planner", "executor", "sub-agent")]
    watching = (f"A team of agents ({', '.join(speakers)}) working on a person's request"
                + (f", planned and instructed by {planner}" if planner else "")
                + f"; tools: {', '.join(tools) or 'none'}. Timing is estimated from the text's length."
                if conv.team else
                f"An assistant (the executor) answering a user in a chat, with tools: {', '.join(tools) or 'none'}. "
                "Timing is estimated from the text's length.")
    where = file.name + ("" if conv.index is None else f", conversation {conv.index} ({conv.where})")
    estimated = _estimated(conv)
    prices = f"the prices ({options.price}, assumed)"
    return {
        "schema_version": 2,
        "id": drill_id("chat", file.stem, conv.index),
        "title": f"Chat transcript {file.stem}" + ("" if conv.index is None else f", conversation {conv.index}"),
        "version": 1,
        "difficulty": DEFAULT_DIFFICULTY,
        "tags": ["domain:imported", "domain:chat"],
        "author": f"imported by warroom from a chat transcript{UNMARKED_AUTHOR}",
        "source": (f"Chat transcript {where}, imported by `warroom import chat`. Message text is verbatim; "
                   f"estimated: {estimated}; {prices}."
                   + (f" The file says: {'; '.join(conv.notes)}." if conv.notes else "")),
        "briefing": {
            "goal": first_user or "(the transcript has no user message)",
            "watching": watching,
        },
        "models": {
            "planner": options.price.model(f"{planner} model (unrecorded)" if planner else PLANNER_MODEL),
            "executor": options.price.model(model),
        },
        "agents": _team_drill_agents(conv) if conv.team else _agents(conv),
        "plan": plan,
        "trace": events,
    }, (f"Imported by `warroom import chat` from {where}.\n"
        f"Real trace; estimated: {estimated}; {prices} (see `source`).")
