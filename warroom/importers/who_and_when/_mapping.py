"""Map: a record's history as plan steps and trace events, before the drill clock is laid out (:mod:`._pace`).

Event ids are ``h`` + the history index (``h012``); a terminal's synthetic tool call is ``h012-call``. Message
text is kept verbatim. Plan-step titles and objectives (shown from 00:00) use only what the planner knew when it
wrote the plan.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from warroom.importers.kit import CLOSING_EVENT_ID, model_usage
from warroom.importers.who_and_when._parse import Message, Record
from warroom.importers.who_and_when._prose import section
from warroom.importers.who_and_when._rules import IMPORTER_SOURCE, MAGENTIC_ONE, TERMINAL_NAMES

_STATUS_PREFIXES = ("Next speaker", "Stalled", "Request satisfied", "Replan counter exceeded")
_WARNING_PREFIXES = ("Stalled", "Replan counter exceeded", "Max time", "Max rounds")
_EXITCODE = re.compile(r"^exitcode: -?\d+")
_INSTRUCTION = "Orchestrator (->"


@dataclass
class Draft:
    """Events and plan steps under construction, before the drill clock is laid out (every ``t`` is 0.0)."""

    width: int
    #: digits in a plan step id (``s01``: 2)
    step_width: int = 2
    plan: list[dict[str, Any]] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    #: the text read after each event (drives the gap to the next one), parallel to ``events``
    texts: list[str] = field(default_factory=list)
    #: history index -> the id of the event that carries that message (the tool_result for terminal output)
    event_of: dict[int, str] = field(default_factory=dict)
    #: the executor agents (magentic-one) or experts (captain-agent) seen, in order of first appearance
    agents: list[str] = field(default_factory=list)

    def hid(self, i: int) -> str:
        return f"h{i:0{self.width}d}"

    def add(self, event: dict[str, Any], text: str, index: int | None = None) -> None:
        self.events.append(event)
        self.texts.append(text)
        if index is not None:
            self.event_of[index] = event["id"]

    def add_message(self, i: int, kind: str, msg: Message, usage: dict[str, Any] | None = None, **extra: Any) -> None:
        """Add history message ``i`` as an event of ``kind`` in the current plan step (with ``usage`` for a
        model call, and ``extra`` fields after ``content``)."""
        event: dict[str, Any] = {"id": self.hid(i), "t": 0.0, "step": self.current_step, "kind": kind}
        event.update(extra)
        event["content"] = msg.content
        if usage is not None:
            event["usage"] = usage
        self.add(event, msg.content, i)

    def note_agent(self, name: str) -> None:
        if name not in self.agents:
            self.agents.append(name)

    @property
    def current_step(self) -> str | None:
        return self.plan[-1]["id"] if self.plan else None


def _step_id(n: int, width: int) -> str:
    return f"s{n:0{width}d}"


def _add_terminal_run(draft: Draft, i: int, msg: Message, previous: int | None) -> None:
    """A terminal's output: a synthetic tool_call (running the previous message's code) and the raw tool_result."""
    hid = draft.hid(i)
    call_id = f"{hid}-call"
    arguments: dict[str, Any] = {"code_from": draft.event_of.get(previous, "") if previous is not None else ""}
    call = {"id": call_id, "t": 0.0, "step": draft.current_step, "kind": "tool_call", "tool": msg.speaker,
            "arguments": arguments}
    first_line = msg.content.split("\n", 1)[0].strip()
    result: dict[str, Any] = {"id": hid, "t": 0.0, "step": draft.current_step, "kind": "tool_result", "call": call_id}
    if _EXITCODE.match(first_line):
        result["status"] = first_line
    result["output"] = msg.content
    draft.add(call, "")
    draft.add(result, msg.content, i)


def _instruction_step(draft: Draft, agent: str, width: int) -> None:
    """The plan step an Orchestrator instruction to ``agent`` opens. The plan panel shows every step from 00:00,
    so its title and objective use only what is known then (the agent and the instruction's number)."""
    n = len(draft.plan)
    draft.plan.append(
        {
            "id": _step_id(n, width),
            "title": f"{agent}, instruction {n}",
            "objective": (
                f"{agent} carries out the Orchestrator's instruction that opens this step (shown in the trace "
                "when the step starts) and reports back faithfully what it found, toward the user's request "
                "(the briefing's goal)."
            ),
        }
    )


def _magentic_one_message(draft: Draft, i: int, msg: Message, ctx: int, last_turn: int | None) -> bool:
    """Add magentic-one history message ``i``; True when it is a turn whose code a terminal may run next."""
    role = msg.role
    if role.startswith(_INSTRUCTION):
        agent = role[len(_INSTRUCTION) :].rstrip(")").strip() or "agent"
        _instruction_step(draft, agent, draft.step_width)
        # The instruction relays the answer of the ledger call before it: no model call of its own.
        draft.add_message(i, "planner_call", msg)
        return True
    if (role == "Orchestrator (thought)" and msg.content.lstrip().startswith(_STATUS_PREFIXES)) or (
        role == "Orchestrator (termination condition)"
    ):
        level = "warning" if msg.content.lstrip().startswith(_WARNING_PREFIXES) else "info"
        source = "Orchestrator" if role == "Orchestrator (thought)" else role
        draft.add({"id": draft.hid(i), "t": 0.0, "step": draft.current_step, "kind": "log", "source": source,
                   "content": msg.content, "level": level}, msg.content, i)
    elif role.startswith("Orchestrator"):
        draft.add_message(i, "planner_call", msg, model_usage(ctx, msg.content))
    elif role in ("human", "user"):
        draft.add({"id": draft.hid(i), "t": 0.0, "step": draft.current_step, "kind": "log",
                   "source": f"{role} (the request)", "content": msg.content, "level": "info"}, msg.content, i)
    elif role.replace(" ", "").lower() in TERMINAL_NAMES:
        _add_terminal_run(draft, i, msg, last_turn)
    else:
        draft.note_agent(role)
        draft.add_message(i, "executor_message", msg, model_usage(ctx, msg.content))
        return True
    return False


def _map_magentic_one(record: Record, draft: Draft, context: list[int]) -> None:
    """Fill ``draft`` from a magentic-one history: step ``s00`` is the initial plan, each instruction a step."""
    steps = sum(1 for m in record.history if m.role.startswith(_INSTRUCTION)) + 1
    draft.step_width = max(2, len(str(steps)))
    draft.plan.append(
        {
            "id": _step_id(0, draft.step_width),
            "title": "Orchestrator: initial plan and fact sheet",
            "objective": (
                "A fact sheet and a plan that cover everything the user's request (the briefing's goal) asks, "
                "and a first instruction to the right agent."
            ),
        }
    )
    last_turn: int | None = None  # the last instruction or agent reply: the code a terminal runs comes from it
    for i, msg in enumerate(record.history):
        if _magentic_one_message(draft, i, msg, max(context[i], len(record.question)), last_turn):
            last_turn = i


def _captain_plan_step(record: Record, draft: Draft, width: int) -> str:
    """Step ``s01`` (the manager's task and plan) and the user's request that opens the chat; returns the
    objective of every later expert turn (only what the manager knew when it wrote the plan)."""
    first = record.history[0]
    task = section(first.content, "Task description") or record.question
    plan_text = section(first.content, "Plan for solving the task")
    constraints = section(first.content, "Constraints and conditions for completion")
    draft.plan.append(
        {
            "id": _step_id(1, width),
            "title": f"{first.speaker}: the manager's task and plan",
            "objective": (
                f"The manager's plan for the task, carried out faithfully:\n{plan_text}"
                if plan_text
                else f"A plan that answers the task: {task}"
            ),
        }
    )
    # The user's request (the record's question) opens the chat, as the human message does in magentic-one.
    draft.add({"id": "task", "t": 0.0, "step": draft.current_step, "kind": "log",
               "source": "user (the request)", "content": record.question, "level": "info"}, record.question)
    turn_objective = f"Move the manager's task forward: {task}"
    if constraints:
        turn_objective += f"\n\nConstraints and conditions for completion:\n{constraints}"
    return turn_objective


def _map_captain_agent(record: Record, draft: Draft, context: list[int]) -> None:
    """Fill ``draft`` from a captain-agent history: the first message is step ``s01``, each expert turn a step."""
    turns = sum(1 for i, m in enumerate(record.history) if i == 0 or m.speaker.lower() not in TERMINAL_NAMES)
    width = max(2, len(str(turns)))
    turn_objective = _captain_plan_step(record, draft, width)
    last_turn: int | None = None
    for i, msg in enumerate(record.history):
        ctx = max(context[i], len(record.question))
        is_terminal = msg.speaker.lower() in TERMINAL_NAMES
        if i == 0:
            draft.add_message(i, "planner_call", msg, model_usage(ctx, msg.content))
            if not is_terminal:
                draft.note_agent(msg.speaker)
            last_turn = i
        elif is_terminal:
            _add_terminal_run(draft, i, msg, last_turn)
        else:
            draft.note_agent(msg.speaker)
            n = len(draft.plan) + 1
            # Never the turn's own text, which the plan panel would show before the expert says it.
            draft.plan.append({"id": _step_id(n, width), "title": f"{msg.speaker}, turn {n}",
                               "objective": turn_objective})
            draft.add_message(i, "executor_message", msg, model_usage(ctx, msg.content))
            last_turn = i


def map_record(record: Record) -> Draft:
    """The plan steps and trace events of ``record``'s history (all at ``t`` 0.0), with the closing event
    :data:`~warroom.importers.kit.CLOSING_EVENT_ID` added when the record stops at its mistake step, so that the
    fault has a consequence on the drill clock."""
    n = len(record.history)
    draft = Draft(width=max(3, len(str(n - 1))))
    context = [0] * n  # characters of history before message i (what a model call at i has read)
    total = 0
    for i, m in enumerate(record.history):
        context[i] = total
        total += len(m.content)
    if record.subset == MAGENTIC_ONE:
        _map_magentic_one(record, draft, context)
    else:
        _map_captain_agent(record, draft, context)
    mistake = record.mistake_step
    if mistake == n - 1:
        draft.add(
            {
                "id": CLOSING_EVENT_ID,
                "t": 0.0,
                "kind": "log",
                "source": IMPORTER_SOURCE,
                "level": "info",
                "content": (
                    f"The recorded trace ends here, after history step {mistake}. The run went on from this "
                    "point to a final answer (not in the record)."
                ),
            },
            "",
        )
    return draft
