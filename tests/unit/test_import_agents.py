"""Who&When import, format 2: the drill declares the record's agents (roles, models) and every event says which
agent produced it (docs/importing.md)."""

from __future__ import annotations

import json

from import_support import GOOD, by_id, convert

from warroom.core.play import trace_cost


def _agents(drill) -> dict[str, tuple[str, str | None]]:
    return {a.name: (a.role.value, a.model) for a in drill.agents}


def test_magentic_one_agents_and_who_said_what():
    path = GOOD / "magentic-one" / "mini.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    _data, drill = convert(path)
    assert drill.schema_version == 2
    assert _agents(drill) == {
        "Orchestrator": ("planner", "Orchestrator model (unrecorded)"),
        "WebSurfer": ("executor", "agent model (unrecorded)"),
        "Assistant": ("executor", "agent model (unrecorded)"),
        "ComputerTerminal": ("tool-host", None),
        "human": ("human", None),
    }
    ev = by_id(drill)
    for i, msg in enumerate(record["history"]):
        expected = "Orchestrator" if msg["role"].startswith("Orchestrator") else msg["role"]
        assert ev[f"h{i:03d}"].agent == expected, i
    # The terminal ran the Orchestrator's instruction (h006), not an agent's code: its call names no agent.
    assert ev["h008-call"].agent is None and ev["h008"].agent == "ComputerTerminal"


def test_captain_agent_manager_experts_and_terminal_calls():
    path = GOOD / "captain-agent" / "mini.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    _data, drill = convert(path)
    assert drill.schema_version == 2
    assert _agents(drill) == {
        "manager": ("planner", "manager model (unrecorded)"),
        "DataAnalysis_Expert": ("executor", "expert model (unrecorded)"),
        "Verification_Expert": ("executor", "expert model (unrecorded)"),
        "Computer_terminal": ("tool-host", None),
    }
    assert "posted as Excel_Expert's first message" in (drill.agents[0].description or "")
    ev = by_id(drill)
    assert ev["h000"].agent == "manager"
    for i, msg in enumerate(record["history"][1:], start=1):
        assert ev[f"h{i:03d}"].agent == msg["name"], i
    # A terminal run is called by the expert whose code it ran (the message before it).
    assert ev["h003-call"].agent == "DataAnalysis_Expert" and ev["h005-call"].agent == "Verification_Expert"


def test_the_cost_splits_by_the_recorded_agents():
    _data, drill = convert(GOOD / "captain-agent" / "mini.json")
    cost = trace_cost(drill)
    agents = {line.name for line in cost.by_agent}
    assert agents == {"manager", "DataAnalysis_Expert", "Verification_Expert"}  # the terminal makes no model calls
    assert abs(sum(line.usd for line in cost.by_agent) - sum(line.usd for line in cost.by_role)) < 1e-9
