"""Which agent each trace event belongs to, and how the trace table names the agents (format 2: docs/authoring.md,
"Agents").

No Textual and no Rich here.
"""

from __future__ import annotations

from collections import Counter

from warroom.core.model import Drill, TraceEvent, role_of


def shows_agents(drill: Drill) -> bool:
    """Whether the trace table of ``drill`` gets the agent column: when the drill names an agent beyond one
    planner and one executor (a sub-agent, a person, a tool host, or two agents of a role). With only a planner
    and an executor, every event's agent follows from its kind, and the column would only narrow the summary
    (the inspector still names the agent)."""
    roles = [a.role.value for a in drill.agents]
    return any(r not in ("planner", "executor") for r in roles) or len(roles) != len(set(roles))


def event_agent(event: TraceEvent) -> str | None:
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
