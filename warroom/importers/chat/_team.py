"""Team transcripts: a multi-agent run written as one message list whose speakers are the agents, as Magentic-One
(AutoGen) logs it and AgentRx and Who&When keep it: ``role: human`` for the request, then each message's speaker in
its ``role`` (``Orchestrator (thought)``, ``Orchestrator (-> WebSurfer)``, ``WebSurfer``, ``ComputerTerminal``) or
in its ``name`` (``{"role": "assistant", "name": "WebSurfer"}``).

An agent written ``NAME (-> AGENT)`` instructs another: it is the team's planner (the orchestrator), each of its
instructions starts a plan step, its ``NAME (thought)`` messages are its model calls (a status line such as ``Next
speaker WebSurfer`` a log line), ``NAME (termination condition)`` a log line. The other speakers are the executor
and sub-agents; a terminal (``ComputerTerminal``) runs the code of the message before it (docs/importing.md,
"Team transcripts").
"""

from __future__ import annotations

import re
from typing import Any

from warroom.importers.chat._parse import Message
from warroom.importers.kit import TraceError, json_kind

#: ``Orchestrator (thought)``, ``Orchestrator (-> WebSurfer)``, ``Orchestrator (termination condition)``.
SPEAKER = re.compile(r"^(?P<agent>[^()]+?) \((?:(?P<thought>thought)|-> *(?P<to>[^()]+?)|(?P<end>termination "
                     r"condition))\)$")
#: The speaker names of a team's human (the request).
HUMANS = frozenset({"human", "user"})
#: A planner's status lines, read as log lines rather than model calls.
STATUS_PREFIXES = ("Next speaker", "Stalled", "Request satisfied", "Replan counter exceeded")
#: Speaker names (lower case, ``_`` dropped) of a code-running terminal.
TERMINALS = frozenset({"computerterminal", "computer terminal", "terminal"})


def is_team(items: list[Any]) -> bool:
    """Whether the message list ``items`` is a team transcript: a ``human`` speaker or a ``NAME (...)`` speaker in
    ``role``, with no chat tool messages."""
    roles = [m.get("role") for m in items if isinstance(m, dict)]
    if any(r in ("tool", "function") for r in roles) or not all(isinstance(r, str) for r in roles):
        return False
    return "human" in roles or any(isinstance(r, str) and SPEAKER.match(r) for r in roles)


def is_terminal(name: str) -> bool:
    return name.replace("_", "").lower() in TERMINALS


def team_messages(items: list[Any], where: str) -> list[Message]:
    """The team transcript ``items`` (at ``where``) as messages: ``user`` (the request), ``planner`` (an
    orchestrator's model call; ``to`` set on an instruction), ``log`` (its status lines and termination),
    ``agent`` (another speaker, by ``name``). Raises TraceError for an entry that is not a message with text."""
    out: list[Message] = []
    for i, m in enumerate(items):
        here = f"{where}[{i}]" if where else f"[{i}]"
        if not isinstance(m, dict):
            raise TraceError(f"{here} is a JSON {json_kind(m)}, not a message object")
        content = m.get("content")
        if content is None:
            content = ""
        if not isinstance(content, str):
            raise TraceError(f"{here}.content is a JSON {json_kind(content)}; a team message's content is text")
        role = str(m.get("role"))
        name = m.get("name") if isinstance(m.get("name"), str) and m["name"].strip() else None
        speaker = SPEAKER.match(role)
        if role in HUMANS and name is None:
            out.append(Message("user", content))
        elif speaker and speaker["to"]:
            out.append(Message("planner", content, name=speaker["agent"], to=speaker["to"].strip()))
        elif speaker and (speaker["end"] or content.lstrip().startswith(STATUS_PREFIXES)):
            out.append(Message("log", content, name=speaker["agent"]))
        elif speaker:
            out.append(Message("planner", content, name=speaker["agent"]))
        else:
            out.append(Message("agent", content, name=name or role))
    return out
