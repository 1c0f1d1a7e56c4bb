"""The drill's agents (format 2): who spoke in a record, as named agents with roles and models, and which agent
produced each trace event.

Magentic-One: the Orchestrator is the planner, each agent it instructs (WebSurfer, FileSurfer, Coder, ...) an
executor, the terminal a tool host and the person who asked a human. CaptainAgent: the manager whose task and plan
open the chat is the planner (``manager``: the record names the expert who posted it, not the manager), each
expert an executor, the terminal a tool host. Agent names are the record's speaker names made into ids.
"""

from __future__ import annotations

import re
from typing import Any

from warroom.importers.who_and_when._mapping import Draft
from warroom.importers.who_and_when._parse import Record
from warroom.importers.who_and_when._rules import MAGENTIC_ONE, TERMINAL_NAMES

_ORCHESTRATOR = "Orchestrator"
_MANAGER = "manager"


class _Names:
    """Speaker names as unique drill ids (letters, digits, ``-``, ``_``, ``.``; at most 80 characters)."""

    def __init__(self) -> None:
        self.of: dict[str, str] = {}

    def __call__(self, speaker: str) -> str:
        if speaker not in self.of:
            base = re.sub(r"[^A-Za-z0-9_.-]+", "-", speaker).strip("-._")[:70] or "agent"
            name, n = base, 2
            while name in self.of.values():
                name, n = f"{base}-{n}", n + 1
            self.of[speaker] = name
        return self.of[speaker]


def _speaker_agent(record: Record, i: int, names: _Names) -> tuple[str, str]:
    """(agent name, role) of history message ``i``."""
    msg = record.history[i]
    if record.subset == MAGENTIC_ONE:
        if msg.role.startswith(_ORCHESTRATOR):
            return names(_ORCHESTRATOR), "planner"
        if msg.role in ("human", "user"):
            return names(msg.role), "human"
    elif i == 0:
        return names(_MANAGER), "planner"
    if msg.speaker.replace(" ", "").lower() in TERMINAL_NAMES:
        return names(msg.speaker), "tool-host"
    return names(msg.speaker), "executor"


def _description(record: Record, role: str, speaker: str) -> str:
    if role == "planner":
        if record.subset == MAGENTIC_ONE:
            return "Magentic-One's Orchestrator: writes the plan and fact sheet, keeps the ledger, instructs agents."
        return (f"CaptainAgent's manager: its task, advice and plan open the chat (posted as "
                f"{record.history[0].speaker}'s first message).")
    if role == "tool-host":
        return "The code-execution terminal: runs the code of the message before it and returns its output."
    if role == "human":
        return "The person who asked the question (the briefing's goal)."
    return f"{speaker}, an agent of the team (its replies are executor messages)."


def _set_agent(event: dict[str, Any], name: str) -> None:
    """Set ``event["agent"]`` in place, written after its ``step`` (or ``t``) as the drill format lists it."""
    items = [(k, v) for k, v in event.items() if k != "agent"]
    at = next(n for n, (k, _) in enumerate(items) if k == "kind")
    items.insert(at, ("agent", name))
    event.clear()
    event.update(items)


def cast_agents(record: Record, draft: Draft, planner_model: str, executor_model: str) -> list[dict[str, Any]]:
    """The drill's ``agents`` for ``record`` (in order of first appearance), and ``agent`` set on every event of
    ``draft`` whose speaker is known: each history message's event, and a terminal run's synthetic call (the agent
    whose message the terminal ran, when that is an executor). Planners and executors get the model of their role."""
    names = _Names()
    agents: dict[str, dict[str, Any]] = {}
    by_id = {ev["id"]: ev for ev in draft.events}
    for i, msg in enumerate(record.history):
        name, role = _speaker_agent(record, i, names)
        if name not in agents:
            agent: dict[str, Any] = {"name": name, "role": role}
            if role in ("planner", "executor"):
                agent["model"] = planner_model if role == "planner" else executor_model
            agent["description"] = _description(record, role, msg.speaker)
            agents[name] = agent
        event = by_id[draft.event_of[i]]
        _set_agent(event, name)
        call = by_id.get(f"{event['id']}-call")
        if call is not None and event["kind"] == "tool_result":
            source = by_id.get(call["arguments"].get("code_from", ""))
            if source is not None and source["kind"] == "executor_message":
                _set_agent(call, source["agent"])
    by_role = {"planner": 0, "executor": 1, "tool-host": 2, "human": 3}
    return sorted(agents.values(), key=lambda a: by_role[a["role"]])
