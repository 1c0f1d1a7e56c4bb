"""Who&When records to drills: real failed agent runs as incident drills.

The Who&When benchmark ("Which Agent Causes Task Failures and When?", ICML 2025, ag2ai/Agents_Failure_Attribution,
MIT License) holds traces of LLM agent teams that failed a task, each annotated with the agent and the history step
that decided the failure. This module turns one record (a JSON file) into one drill. The mapping, and every number
the importer has to estimate, is documented in docs/importing.md; in short:

- **magentic-one** records: ``Orchestrator (thought)`` plan and ledger messages become ``planner_call`` events; each
  ``Orchestrator (-> Agent)`` instruction starts a plan step titled by its agent and number (the instruction is the
  step's first trace event; events before the first instruction form step ``s00``, the planning step); agent replies
  become ``executor_message`` events; the ComputerTerminal's output becomes a ``tool_call`` / ``tool_result`` pair;
  status lines (``Next speaker ...``, ``Stalled...``) and termination conditions become ``log`` events.
- **captain-agent** records: the first message (the manager's task and plan) is a ``planner_call`` in step ``s01``;
  each later expert turn starts a plan step (titled ``<expert>, turn N``); ``Computer_terminal`` output is a
  ``tool_call`` / ``tool_result`` pair in the step of the turn whose code it ran.
- The annotated ``mistake_step`` (an index into ``history``) is the evidence; the plan step that contains it is the
  fault's origin; later plan steps are the cascade; every history message after it is one wasted agent turn of
  damage; the deadline is :data:`DEADLINE_WINDOW` seconds after the evidence, or :data:`DEADLINE_BEFORE_DAMAGE`
  seconds before the first damage event if that comes sooner (the event after the evidence comes at least
  :data:`EVIDENCE_MIN_GAP` seconds later, so the deadline always leaves ``warroom check``'s reaction window, and
  no damage is done by the deadline: ``warroom check``'s damage-by-deadline rule). A drill that would still fail
  ``warroom check`` is refused, never written. Record files are read within limits (:mod:`warroom.importers.reading`).

Event ids are ``h`` + the history index (``h012``); a terminal's synthetic tool call is ``h012-call``. Message text
is kept verbatim (never truncated, never re-encoded).

Nothing shown before the debrief gives the answer away or shows what an agent says before it says it: plan-step
titles and objectives (shown from 00:00) use only what the planner knew when it wrote the plan, and the tags never
name the annotated mistake agent.

Public API: :func:`read_record`, :func:`parse_record`, :func:`record_to_drill_data`, :func:`convert_record`,
:func:`dump_drill_yaml`, :func:`find_record_files`, :func:`import_records`, :class:`Price`, :class:`ImportOptions`,
:class:`RecordError`.
"""

from __future__ import annotations

import math
import os
import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from warroom.core.check import MIN_REACTION_WINDOW
from warroom.core.errors import WarroomError
from warroom.core.format import usd, usd_price
from warroom.importers.reading import read_json_object

# ---------------------------------------------------------------------------------------------------------------
# The rules for what the records lack (documented in docs/importing.md; change them there too)
# ---------------------------------------------------------------------------------------------------------------

#: Reading speed that paces the drill clock: an event's text is read at this many words per second.
WORDS_PER_SECOND = 4.0
#: Bounds on the drill-clock gap after an event, seconds: short status lines still take a moment, huge web pages
#: do not stall the drill.
MIN_EVENT_GAP = 2.0
MAX_EVENT_GAP = 30.0
#: Gap before the closing event the importer adds when a record stops at its mistake step, seconds (at least).
CLOSING_EVENT_MIN_GAP = 10.0
#: Token estimate: characters per token.
CHARS_PER_TOKEN = 4
#: Input tokens of one model call are capped at this context window.
CONTEXT_WINDOW_TOKENS = 128_000
#: The deadline comes this many seconds of drill time after the evidence, or sooner: :data:`DEADLINE_BEFORE_DAMAGE`
#: seconds before the first damage event.
DEADLINE_WINDOW = 90.0
DEADLINE_BEFORE_DAMAGE = 1.0
#: Largest record file read, in bytes (8 MiB, checked before reading): the shared corpus's largest record is 0.3 MiB,
#: and a record's text goes verbatim into a drill, which must stay quick to load and play.
MAX_RECORD_BYTES = 8 * 1024 * 1024
#: The drill-clock gap after the evidence event is at least this long (seconds), so that the deadline, half-way
#: to the last damage, leaves a person :data:`warroom.core.check.MIN_REACTION_WINDOW` seconds to read the
#: evidence and escalate even when the mistake is one of the last history entries.
EVIDENCE_MIN_GAP = 2 * MIN_REACTION_WINDOW
#: Difficulty used when a record has no usable ``level``.
DEFAULT_DIFFICULTY = 3

MAGENTIC_ONE = "magentic-one"
CAPTAIN_AGENT = "captain-agent"
SUBSETS = (MAGENTIC_ONE, CAPTAIN_AGENT)

CORPUS = "Who&When"
CORPUS_REFERENCE = (
    'Who&When benchmark ("Which Agent Causes Task Failures and When?", ICML 2025), '
    "github.com/ag2ai/Agents_Failure_Attribution, MIT License"
)
DAMAGE_UNIT = "wasted agent turns"
IMPORTER_SOURCE = "warroom importer"

_TERMINAL_NAMES = {"computerterminal", "computer_terminal"}
_STATUS_PREFIXES = ("Next speaker", "Stalled", "Request satisfied", "Replan counter exceeded")
_WARNING_PREFIXES = ("Stalled", "Replan counter exceeded", "Max time", "Max rounds")
_EXITCODE = re.compile(r"^exitcode: -?\d+")


class RecordError(WarroomError, ValueError):
    """A Who&When record that cannot be turned into a drill; ``str()`` is a one-line message for the user."""


@dataclass(frozen=True)
class Price:
    """A model's prices in USD per million input and output tokens."""

    input_usd_per_mtok: float
    output_usd_per_mtok: float

    @classmethod
    def parse(cls, text: str) -> Price:
        """Parse ``"IN/OUT"`` (USD per million tokens, e.g. ``"5/25"`` or ``"0.15/0.6"``).

        Raises ValueError with a readable message for anything else (missing slash, not a number, negative).
        """
        parts = str(text).split("/")
        if len(parts) != 2:
            raise ValueError(f"{text!r} is not IN/OUT (USD per million input/output tokens, e.g. 5/25)")
        try:
            values = [float(p.strip()) for p in parts]
        except ValueError:
            raise ValueError(f"{text!r} is not IN/OUT with two numbers (e.g. 5/25)") from None
        if any(not math.isfinite(v) or v < 0 for v in values):
            raise ValueError(f"{text!r}: prices must be non-negative numbers")
        return cls(values[0], values[1])

    def __str__(self) -> str:
        return f"{usd_price(self.input_usd_per_mtok)}/{usd_price(self.output_usd_per_mtok)} per million tokens"


#: Default planner prices: a frontier model (the seed material's $5/$25 per million tokens).
DEFAULT_PLANNER_PRICE = Price(5.0, 25.0)
#: Default executor prices: a cheap, fast model (the seed material's $1/$5 per million tokens).
DEFAULT_EXECUTOR_PRICE = Price(1.0, 5.0)


@dataclass(frozen=True)
class ImportOptions:
    """What the importer fills in that a record does not say: model prices."""

    planner_price: Price = DEFAULT_PLANNER_PRICE
    executor_price: Price = DEFAULT_EXECUTOR_PRICE


@dataclass(frozen=True)
class Message:
    """One ``history`` entry: who spoke (``role``, and ``name`` in captain-agent records) and the verbatim text."""

    role: str
    name: str | None
    content: str

    @property
    def speaker(self) -> str:
        """The speaker: ``name`` when the record gives one, else ``role``."""
        return self.name or self.role


@dataclass(frozen=True)
class Record:
    """A checked Who&When record. ``mistake_step`` is an index into ``history``; ``name`` is the file stem."""

    name: str
    file: str
    subset: str
    question: str
    ground_truth: str
    history: list[Message]
    mistake_agent: str
    mistake_step: int
    mistake_reason: str
    level: int | None
    question_id: str | None


# ---------------------------------------------------------------------------------------------------------------
# Reading and checking records
# ---------------------------------------------------------------------------------------------------------------


def read_record(path: Path) -> dict[str, Any]:
    """The JSON object in ``path``. Raises RecordError when it is not a regular file, is over
    :data:`MAX_RECORD_BYTES`, cannot be read, is not UTF-8 JSON, is not an object, or holds a number over
    :data:`~warroom.importers.reading.MAX_INTEGER_DIGITS` digits or an unpaired surrogate (see
    :func:`warroom.importers.reading.read_json_object`)."""
    return read_json_object(Path(path), MAX_RECORD_BYTES, RecordError)


def _json_type(value: Any) -> str:
    return {list: "array", str: "string", bool: "boolean", int: "number", float: "number", type(None): "null"}.get(
        type(value), type(value).__name__
    )


def _require_text(data: dict[str, Any], key: str, *, allow_number: bool = False, allow_empty: bool = False) -> str:
    if key not in data:
        raise RecordError(f"missing field {key!r}")
    value = data[key]
    if allow_number and isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    if not isinstance(value, str):
        raise RecordError(f"field {key!r} must be text, not a JSON {_json_type(value)}")
    if not allow_empty and not value.strip():
        raise RecordError(f"field {key!r} is empty")
    return value


def detect_subset(data: dict[str, Any]) -> str:
    """``"magentic-one"`` or ``"captain-agent"`` from a record's shape. Raises RecordError when it is neither."""
    history = data.get("history")
    if isinstance(history, list):
        roles = [m.get("role") for m in history if isinstance(m, dict)]
        if any(isinstance(r, str) and r.startswith("Orchestrator") for r in roles):
            return MAGENTIC_ONE
        if "system_prompt" in data or (history and all(isinstance(m, dict) and m.get("name") for m in history)):
            return CAPTAIN_AGENT
    raise RecordError(
        "cannot tell the record's kind: no 'Orchestrator' messages (magentic-one) and no speaker names "
        "(captain-agent)"
    )


def _mistake_step(data: dict[str, Any], n: int) -> int:
    """The record's ``mistake_step`` as an index into a history of ``n`` messages (a JSON number or text of
    digits; never converted when it has more than 9 digits). Raises RecordError naming the problem."""
    if "mistake_step" not in data:
        raise RecordError("missing field 'mistake_step'")
    raw_step = data["mistake_step"]
    if isinstance(raw_step, bool) or not isinstance(raw_step, (str, int)):
        raise RecordError(f"mistake_step must be a history index (e.g. \"4\"), not a JSON {_json_type(raw_step)}")
    text_step = str(raw_step).strip()
    if not re.fullmatch(r"-?[0-9]+", text_step):
        shown = raw_step if len(text_step) <= 40 else text_step[:37] + "..."
        raise RecordError(f"mistake_step {shown!r} is not a whole number (a history index, e.g. \"4\")")
    if len(text_step.lstrip("-")) > 9:  # never converted: a history index has a few digits
        raise RecordError(
            f"mistake_step is a number with {len(text_step.lstrip('-')):,} digits; history has {n} "
            f"messages (0 to {n - 1})"
        )
    step = int(text_step)
    if not 0 <= step < n:
        raise RecordError(
            f"mistake_step {step} is out of range: history has {n} messages (0 to {n - 1})"
        )
    return step


def parse_record(data: dict[str, Any], name: str, file: str | None = None) -> Record:
    """Check a record's fields and return a :class:`Record`.

    Args:
        data: the JSON object of one record.
        name: the record's name (the file stem, e.g. ``"12"``), used in the drill id.
        file: the record's file name as shown in the drill's ``source`` (default ``name + ".json"``).

    Raises RecordError naming the first problem: a missing or mistyped field, an empty history, a history entry
    without text, a ``mistake_step`` that is not a whole number or is outside ``history``.
    """
    if "history" not in data:
        raise RecordError("missing field 'history'")
    history_raw = data["history"]
    if not isinstance(history_raw, list):
        raise RecordError(f"field 'history' must be a list of messages, not a JSON {_json_type(history_raw)}")
    if not history_raw:
        raise RecordError("field 'history' is empty: there is no trace to replay")
    history: list[Message] = []
    for i, m in enumerate(history_raw):
        if not isinstance(m, dict):
            raise RecordError(f"history[{i}] must be an object with 'role' and 'content', not a JSON {_json_type(m)}")
        content = m.get("content")
        if not isinstance(content, str):
            what = "missing" if "content" not in m else f"a JSON {_json_type(content)}, not text"
            raise RecordError(f"history[{i}].content is {what}")
        role = m.get("role")
        if not isinstance(role, str) or not role.strip():
            raise RecordError(f"history[{i}].role is missing or not text")
        nm = m.get("name")
        if nm is not None and not isinstance(nm, str):
            raise RecordError(f"history[{i}].name must be text, not a JSON {_json_type(nm)}")
        history.append(Message(role=role, name=nm or None, content=content))
    subset = detect_subset(data)
    question = _require_text(data, "question")
    ground_truth = _require_text(data, "ground_truth", allow_number=True, allow_empty=True)
    mistake_agent = _require_text(data, "mistake_agent")
    mistake_reason = _require_text(data, "mistake_reason", allow_empty=True)
    step = _mistake_step(data, len(history))
    level: int | None = None
    raw_level = data.get("level")
    if isinstance(raw_level, int) and not isinstance(raw_level, bool):
        level = raw_level
    elif isinstance(raw_level, str) and re.fullmatch(r"[0-9]{1,9}", raw_level.strip()):
        level = int(raw_level.strip())
    qid = data.get("question_ID")
    return Record(
        name=name,
        file=file or f"{name}.json",
        subset=subset,
        question=question,
        ground_truth=ground_truth,
        history=history,
        mistake_agent=mistake_agent,
        mistake_step=step,
        mistake_reason=mistake_reason,
        level=level,
        question_id=qid if isinstance(qid, str) and qid.strip() else None,
    )


# ---------------------------------------------------------------------------------------------------------------
# Estimates
# ---------------------------------------------------------------------------------------------------------------


def reading_gap(text: str) -> float:
    """Seconds of drill time after an event with this text: words / :data:`WORDS_PER_SECOND`, bounded to
    [:data:`MIN_EVENT_GAP`, :data:`MAX_EVENT_GAP`], rounded to a tenth of a second."""
    words = len(text.split())
    return round(min(MAX_EVENT_GAP, max(MIN_EVENT_GAP, words / WORDS_PER_SECOND)), 1)


def estimate_tokens(chars: int) -> int:
    """Tokens in ``chars`` characters of text: ``ceil(chars / CHARS_PER_TOKEN)``."""
    return math.ceil(max(0, chars) / CHARS_PER_TOKEN)


def _usage(context_chars: int, output_text: str) -> dict[str, Any]:
    return {
        "input_tokens": min(CONTEXT_WINDOW_TOKENS, estimate_tokens(context_chars)),
        "output_tokens": max(1, estimate_tokens(len(output_text))),
        "estimated": True,
    }


_FAULT_KIND_RULES: list[tuple[str, re.Pattern[str]]] = [
    ("fabricated_result", re.compile(r"fabricat|hallucinat|placeholder", re.I)),
    ("http_error_ignored", re.compile(r"\b40[34]\b|not found error", re.I)),
    ("runaway_loop", re.compile(r"exhaust|\bin a loop\b|maximum time|step limit", re.I)),
    (
        "premature_termination",
        re.compile(r"directly (?:gave|give|reach|reached|draw|drew)|without (?:further )?verif|without taking", re.I),
    ),
    ("tool_output_misread", re.compile(r"misinterpret|misread", re.I)),
]


def guess_fault_kind(reason: str) -> str:
    """A fault kind for the annotators' reason, by keyword (docs/importing.md lists the rules); else ``"other"``."""
    for kind, pattern in _FAULT_KIND_RULES:
        if pattern.search(reason):
            return kind
    return "other"


def _headline(text: str, limit: int = 72) -> str:
    """The first non-empty line of ``text``, stripped of Markdown heading/emphasis marks, at most ``limit`` chars."""
    for line in text.splitlines():
        line = " ".join(line.strip().lstrip("#>*-").strip().strip("*").split())
        if line:
            return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"
    return ""


def _section(text: str, heading: str) -> str:
    """The body of a ``## heading`` section in a CaptainAgent manager message ("" when absent)."""
    m = re.search(rf"^##\s*{re.escape(heading)}\s*$(.*?)(?=^#{{1,2}}\s|\Z)", text, re.M | re.S | re.I)
    return m.group(1).strip() if m else ""


# ---------------------------------------------------------------------------------------------------------------
# The mapping
# ---------------------------------------------------------------------------------------------------------------


@dataclass
class _Draft:
    """Events and plan steps under construction, before the drill clock is laid out."""

    width: int
    plan: list[dict[str, Any]] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    #: the text read after each event (drives the gap to the next one), parallel to ``events``
    texts: list[str] = field(default_factory=list)
    #: history index -> the id of the event that carries that message (the tool_result for terminal output)
    event_of: dict[int, str] = field(default_factory=dict)

    def hid(self, i: int) -> str:
        return f"h{i:0{self.width}d}"

    def add(self, event: dict[str, Any], text: str, index: int | None = None) -> None:
        self.events.append(event)
        self.texts.append(text)
        if index is not None:
            self.event_of[index] = event["id"]

    @property
    def current_step(self) -> str | None:
        return self.plan[-1]["id"] if self.plan else None


def _step_id(n: int, width: int) -> str:
    return f"s{n:0{width}d}"


def _add_terminal_run(draft: _Draft, i: int, msg: Message, previous: int | None) -> None:
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


def _map_magentic_one(record: Record, draft: _Draft, context: list[int]) -> list[str]:
    """Fill ``draft`` from a magentic-one history; returns the executor agents seen."""
    steps = sum(1 for m in record.history if m.role.startswith("Orchestrator (->")) + 1
    sw = max(2, len(str(steps)))
    draft.plan.append(
        {
            "id": _step_id(0, sw),
            "title": "Orchestrator: initial plan and fact sheet",
            "objective": (
                "A fact sheet and a plan that cover everything the user's request (the briefing's goal) asks, "
                "and a first instruction to the right agent."
            ),
        }
    )
    agents: list[str] = []
    last_turn: int | None = None  # the last instruction or agent reply: the code a terminal runs comes from it
    for i, msg in enumerate(record.history):
        hid = draft.hid(i)
        role = msg.role
        ctx = max(context[i], len(record.question))
        if role.startswith("Orchestrator (->"):
            agent = role[len("Orchestrator (->") :].rstrip(")").strip() or "agent"
            n = len(draft.plan)
            # The plan panel shows every step from 00:00, so a step's title and objective use only what is known
            # then (the agent and the instruction's number); the instruction itself is this step's first event.
            draft.plan.append(
                {
                    "id": _step_id(n, sw),
                    "title": f"{agent}, instruction {n}",
                    "objective": (
                        f"{agent} carries out the Orchestrator's instruction that opens this step (shown in the trace "
                        "when the step starts) and reports back faithfully what it found, toward the user's request "
                        "(the briefing's goal)."
                    ),
                }
            )
            # The instruction relays the answer of the ledger call before it: no model call of its own.
            draft.add({"id": hid, "t": 0.0, "step": draft.current_step, "kind": "planner_call",
                       "content": msg.content}, msg.content, i)
            last_turn = i
        elif role == "Orchestrator (thought)" and msg.content.lstrip().startswith(_STATUS_PREFIXES):
            level = "warning" if msg.content.lstrip().startswith(_WARNING_PREFIXES) else "info"
            draft.add({"id": hid, "t": 0.0, "step": draft.current_step, "kind": "log", "source": "Orchestrator",
                       "content": msg.content, "level": level}, msg.content, i)
        elif role == "Orchestrator (termination condition)":
            level = "warning" if msg.content.lstrip().startswith(_WARNING_PREFIXES) else "info"
            draft.add({"id": hid, "t": 0.0, "step": draft.current_step, "kind": "log", "source": role,
                       "content": msg.content, "level": level}, msg.content, i)
        elif role.startswith("Orchestrator"):
            draft.add({"id": hid, "t": 0.0, "step": draft.current_step, "kind": "planner_call",
                       "content": msg.content, "usage": _usage(ctx, msg.content)}, msg.content, i)
        elif role in ("human", "user"):
            draft.add({"id": hid, "t": 0.0, "step": draft.current_step, "kind": "log",
                       "source": f"{role} (the request)", "content": msg.content, "level": "info"}, msg.content, i)
        elif role.replace(" ", "").lower() in _TERMINAL_NAMES:
            _add_terminal_run(draft, i, msg, last_turn)
        else:
            if role not in agents:
                agents.append(role)
            draft.add({"id": hid, "t": 0.0, "step": draft.current_step, "kind": "executor_message",
                       "content": msg.content, "usage": _usage(ctx, msg.content)}, msg.content, i)
            last_turn = i
    return agents


def _map_captain_agent(record: Record, draft: _Draft, context: list[int]) -> list[str]:
    """Fill ``draft`` from a captain-agent history; returns the expert agents seen."""
    turns = sum(1 for i, m in enumerate(record.history) if i == 0 or m.speaker.lower() not in _TERMINAL_NAMES)
    sw = max(2, len(str(turns)))
    first = record.history[0]
    task = _section(first.content, "Task description") or record.question
    plan_text = _section(first.content, "Plan for solving the task")
    constraints = _section(first.content, "Constraints and conditions for completion")
    turn_objective = f"Move the manager's task forward: {task}"
    if constraints:
        turn_objective += f"\n\nConstraints and conditions for completion:\n{constraints}"
    experts: list[str] = []
    last_turn: int | None = None
    for i, msg in enumerate(record.history):
        hid = draft.hid(i)
        ctx = max(context[i], len(record.question))
        is_terminal = msg.speaker.lower() in _TERMINAL_NAMES
        if i == 0:
            draft.plan.append(
                {
                    "id": _step_id(1, sw),
                    "title": f"{msg.speaker}: the manager's task and plan",
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
            draft.add({"id": hid, "t": 0.0, "step": draft.current_step, "kind": "planner_call",
                       "content": msg.content, "usage": _usage(ctx, msg.content)}, msg.content, i)
            if not is_terminal and msg.speaker not in experts:
                experts.append(msg.speaker)
            last_turn = i
        elif is_terminal:
            _add_terminal_run(draft, i, msg, last_turn)
        else:
            if msg.speaker not in experts:
                experts.append(msg.speaker)
            n = len(draft.plan) + 1
            # Titles and objectives use only what the manager knew when it wrote the plan (the first message):
            # never the turn's own text, which the plan panel would show before the expert says it.
            draft.plan.append({"id": _step_id(n, sw), "title": f"{msg.speaker}, turn {n}", "objective": turn_objective})
            draft.add({"id": hid, "t": 0.0, "step": draft.current_step, "kind": "executor_message",
                       "content": msg.content, "usage": _usage(ctx, msg.content)}, msg.content, i)
            last_turn = i
    return experts


def _drill_id(record: Record) -> str:
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "-", record.name).strip("-._") or "record"
    return f"ww-{record.subset}-{stem}"[:80]


def _cost(usage: dict[str, Any], price: Price) -> float:
    tokens_in, tokens_out = usage["input_tokens"], usage["output_tokens"]
    return float(tokens_in * price.input_usd_per_mtok + tokens_out * price.output_usd_per_mtok) / 1e6


def record_to_drill_data(record: Record, options: ImportOptions | None = None) -> dict[str, Any]:
    """The drill for ``record`` as plain data (dicts, lists, str, numbers), ready to validate and to dump as YAML.

    Raises RecordError if the record cannot make a playable drill (this should not happen for a parsed record).
    """
    options = options or ImportOptions()
    n = len(record.history)
    draft = _Draft(width=max(3, len(str(n - 1))))
    context = [0] * n  # characters of history before message i (what a model call at i has read)
    total = 0
    for i, m in enumerate(record.history):
        context[i] = total
        total += len(m.content)
    if record.subset == MAGENTIC_ONE:
        agents = _map_magentic_one(record, draft, context)
    else:
        agents = _map_captain_agent(record, draft, context)

    mistake = record.mistake_step
    evidence_id = draft.event_of[mistake]
    truncated = mistake == n - 1
    if truncated:
        # The record stops at its mistake: add the run's end so the fault has a consequence on the drill clock.
        draft.add(
            {
                "id": "end",
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

    # The drill clock: each event waits for the reading time of the text before it.
    t = 0.0
    last_text = ""
    for k, ev in enumerate(draft.events):
        if k > 0:
            gap = reading_gap(last_text) if draft.texts[k - 1] else MIN_EVENT_GAP
            if ev["id"] == "end":
                gap = max(gap, CLOSING_EVENT_MIN_GAP)
            if draft.events[k - 1]["id"] == evidence_id:  # time to read the evidence before the deadline
                gap = max(gap, EVIDENCE_MIN_GAP)
            t = round(t + gap, 1)
        ev["t"] = t
        last_text = draft.texts[k]
        if ev.get("step") is None:
            ev.pop("step", None)
    times = {ev["id"]: ev["t"] for ev in draft.events}
    step_of = {ev["id"]: ev.get("step") for ev in draft.events}

    origin = step_of[evidence_id]
    if origin is None:  # cannot happen: every history event is in a plan step
        raise RecordError(f"history step {mistake} is outside every plan step")
    plan_ids = [s["id"] for s in draft.plan]
    cascade = plan_ids[plan_ids.index(origin) + 1 :]

    # Damage: one wasted agent turn per history message after the mistake (or the added end of the run).
    planner, executor = options.planner_price, options.executor_price
    entries: list[dict[str, Any]] = []
    wasted_usd = 0.0
    by_id = {ev["id"]: ev for ev in draft.events}
    for i in range(mistake + 1, n):
        ev = by_id[draft.event_of[i]]
        msg = record.history[i]
        note = f"turn {i} by {msg.speaker} after the fault"
        usage = ev.get("usage")
        if usage:
            call_usd = _cost(usage, planner if ev["kind"] == "planner_call" else executor)
            wasted_usd += call_usd
            note += f" (model call, est. {usd(call_usd)})"
        entries.append({"event": ev["id"], "amount": 1, "note": note})
    if truncated:
        entries.append({"event": "end", "amount": 1, "note": "the run goes on to a wrong final answer"})
    e_t = times[evidence_id]
    first_t = min(times[e["event"]] for e in entries)
    # Strictly before the first damage (an escalation at the deadline comes after the events released by then).
    deadline = round(min(e_t + DEADLINE_WINDOW, first_t - DEADLINE_BEFORE_DAMAGE), 1)
    if not (e_t + MIN_REACTION_WINDOW <= deadline < first_t):  # pragma: no cover - EVIDENCE_MIN_GAP guarantees it
        raise RecordError(
            f"cannot place a deadline at least {MIN_REACTION_WINDOW:g} s after the evidence and before the damage"
        )

    mistake_msg = record.history[mistake]
    drill_id = _drill_id(record)
    kind = guess_fault_kind(record.mistake_reason)
    reason = record.mistake_reason.strip() or "(the annotators gave no reason)"
    who = (
        f"{record.mistake_agent}"
        if record.mistake_agent in mistake_msg.speaker
        else f"{record.mistake_agent} (the record's mistake agent; the message at that step is {mistake_msg.speaker}'s)"
    )
    turns_after = n - 1 - mistake
    debrief_parts = [
        f"The Who&When annotators put the decisive mistake at history step {mistake} (event {evidence_id}, in plan "
        f"step {origin}), by {who}.",
        f"Their reason: {reason}",
        f"The right answer (ground truth): {record.ground_truth if record.ground_truth.strip() else '(not given)'}",
        (
            f"After the mistake the run went on for {turns_after} more "
            f"{'turn' if turns_after == 1 else 'turns'} ({len(cascade)} later plan "
            f"{'step' if len(cascade) == 1 else 'steps'}, about {usd(wasted_usd)} of estimated model calls) "
            "and still failed the task. Escalating the plan step where the mistake happened, as soon as it "
            "appeared, was the way to save them: the planner re-plans from there."
            if turns_after
            else "The record stops at the mistake: the run went on to a wrong final answer."
        ),
        (
            "This drill is a real trace. The drill clock, token counts, prices and damage are the importer's "
            "estimates (see the drill's source and docs/importing.md)."
        ),
    ]
    tool_names = sorted({ev["tool"] for ev in draft.events if ev["kind"] == "tool_call"})
    if record.subset == MAGENTIC_ONE:
        team = ", ".join(agents + tool_names) or "its agents"
        watching = (
            "A Magentic-One agent team on a real task. The Orchestrator is the planner: it writes a plan and fact "
            "sheet, keeps a progress ledger and instructs one agent at a time; each instruction starts a plan "
            "step, and the instruction itself appears in the trace when its step starts. The executors are "
            f"{team}. Read the agents' replies against each instruction."
        )
    else:
        team = ", ".join(agents) or "its experts"
        tools = f", and a terminal ({', '.join(tool_names)}) runs the code they write" if tool_names else ""
        watching = (
            "A CaptainAgent group chat on a real task. The manager's task and plan open the chat (the first plan "
            f"step); then experts take turns ({team}){tools}. Each expert turn is a plan step. Check each turn "
            "against the task."
        )
    level_note = f" Who&When level {record.level}." if record.level is not None else ""
    context_text = (
        f"Imported from a real failed run in the {CORPUS} benchmark ({record.subset} subset, record "
        f"{record.file}).{level_note} The record has no timestamps, token counts, prices or damage, so the importer "
        f"estimated them: the drill clock paces each event by the reading time of its text ({WORDS_PER_SECOND:g} "
        f"words a second, {MIN_EVENT_GAP:g} to {MAX_EVENT_GAP:g} s); tokens are text length / {CHARS_PER_TOKEN} "
        f"(input: the history so far, capped at {CONTEXT_WINDOW_TOKENS:,}); prices are assumed (planner "
        f"{planner}, executors {executor}); damage counts the agent turns wasted after the fault. Message text is "
        "verbatim: long web pages, Markdown and code included."
    )
    source = (
        f"{CORPUS_REFERENCE}; subset {record.subset}, record {record.file}"
        + (f", question_ID {record.question_id}" if record.question_id else "")
        + ". Estimated by the importer (not in the record): the drill clock (reading time), token counts (text "
        f"length / {CHARS_PER_TOKEN}), model prices, the damage (agent turns after the mistake step), the deadline"
        + (", and the closing event 'end' (the record stops at its mistake step)" if truncated else "")
        + f". Fault kind guessed from the annotators' reason: {kind}."
    )
    if record.level is not None and 1 <= record.level <= 5:
        difficulty = record.level
    else:
        difficulty = DEFAULT_DIFFICULTY
    question_head = _headline(record.question, 60) or "a task"
    # Never the annotated mistake agent: domain tags are shown before the drill is played (the fault kind, not a
    # domain tag, is shown only in the debrief: warroom.core.hygiene).
    tags = ["domain:imported", "domain:who-and-when", f"domain:{record.subset}", kind]
    return {
        "schema_version": 1,
        "id": drill_id,
        "title": f"Who&When {record.subset} #{record.name}: {question_head}",
        "version": 1,
        "difficulty": difficulty,
        "tags": list(dict.fromkeys(tags)),
        "author": f"{CORPUS} annotators (real trace), imported by warroom",
        "source": source,
        "briefing": {"goal": record.question, "watching": watching, "context": context_text},
        "models": {
            "planner": {
                "name": (
                    "Orchestrator model (unrecorded)" if record.subset == MAGENTIC_ONE else "manager model (unrecorded)"
                ),
                "input_usd_per_mtok": planner.input_usd_per_mtok,
                "output_usd_per_mtok": planner.output_usd_per_mtok,
            },
            "executor": {
                "name": "agent model (unrecorded)" if record.subset == MAGENTIC_ONE else "expert model (unrecorded)",
                "input_usd_per_mtok": executor.input_usd_per_mtok,
                "output_usd_per_mtok": executor.output_usd_per_mtok,
            },
        },
        "plan": draft.plan,
        "trace": draft.events,
        "answer_key": {
            "fault": {"origin_step": origin, "kind": kind, "summary": reason},
            "evidence": [evidence_id],
            "cascade": cascade,
            "damage": {"unit": DAMAGE_UNIT, "entries": entries},
            "deadline": deadline,
            "debrief": "\n\n".join(debrief_parts),
        },
    }


def convert_record(record: Record, options: ImportOptions | None = None) -> tuple[dict[str, Any], Any]:
    """The drill for ``record`` as (plain data, validated :class:`~warroom.core.model.Drill`).

    The drill is the YAML text that gets written (:func:`dump_drill_yaml`) loaded back with the core loader
    (:func:`warroom.core.loader.load_drill_text`: the drill model and every drill rule), so what is checked is
    exactly what a trainee will load; the drill is then played by `warroom check`'s scripted trainees
    (:func:`warroom.core.check.run_checks`), so a drill nobody can win is never returned. Raises RecordError if it
    does not load or fails the check (reported per record rather than crashing).
    """
    from warroom.core.check import run_checks
    from warroom.core.loader import DrillLoadError, load_drill_text

    data = record_to_drill_data(record, options)
    try:
        drill = load_drill_text(dump_drill_yaml(data), path=f"{data.get('id', 'drill')}.yaml")
    except DrillLoadError as e:
        first = e.problems[0] if e.problems else e
        message = getattr(first, "message", str(first))
        raise RecordError(f"the drill made from this record does not load: {message}") from None
    report = run_checks(drill)  # never write a drill that `warroom check` fails: nobody could win it
    if not report.passed:
        raise RecordError(f"the drill made from this record fails `warroom check`: {report.problems[0]}")
    return data, drill


# ---------------------------------------------------------------------------------------------------------------
# YAML output
# ---------------------------------------------------------------------------------------------------------------


class _Dumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):  # type: ignore[misc]
    """Safe dumper that never writes anchors/aliases and writes multi-line text as literal blocks when it can."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _represent_str(dumper: yaml.SafeDumper, text: str) -> yaml.ScalarNode:
    # A literal block reads best for multi-line text; the emitter falls back to a quoted style by itself when the
    # text cannot be a block (trailing spaces, control characters), so the text always round-trips.
    style = "|" if "\n" in text else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)


_Dumper.add_representer(str, _represent_str)


def dump_drill_yaml(data: dict[str, Any], header: str | None = None) -> str:
    """``data`` as YAML text (safe dumper, no aliases, keys in the given order, Unicode kept), with an optional
    ``# comment`` header. Loading the text back with a safe loader gives ``data`` exactly."""
    body = yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=120, default_flow_style=False)
    if header:
        comment = "".join(f"# {line}\n".replace("# \n", "#\n") for line in header.splitlines())
        return comment + body
    return body


# ---------------------------------------------------------------------------------------------------------------
# Importing files
# ---------------------------------------------------------------------------------------------------------------


def find_record_files(paths: Iterable[Path]) -> list[Path]:
    """Record files under ``paths``: files as given, folders searched recursively for ``*.json`` (in natural order:
    ``2.json`` before ``10.json``), no duplicates. Raises FileNotFoundError for a path that does not exist."""
    from warroom.core.library import find_drill_files

    paths = [Path(p) for p in paths]
    for p in paths:
        if not p.exists():
            raise FileNotFoundError(f"{p}: no such file or folder")
    return find_drill_files(paths, (".json",), natural=True)


@dataclass(frozen=True)
class ImportResult:
    """What happened to one record file: ``output`` written (with ``drill_id``), or ``error`` (one line)."""

    source: Path
    drill_id: str | None = None
    output: Path | None = None
    error: str | None = None

    @property
    def ok(self) -> bool:
        """True when the drill was written."""
        return self.error is None


@dataclass
class ImportReport:
    """The results of one import run, in input order."""

    out_dir: Path
    results: list[ImportResult] = field(default_factory=list)

    @property
    def imported(self) -> list[ImportResult]:
        """Records whose drill was written."""
        return [r for r in self.results if r.ok]

    @property
    def failed(self) -> list[ImportResult]:
        """Records that could not be imported."""
        return [r for r in self.results if not r.ok]

    def summary(self) -> str:
        """One line: how many records were imported, where to, and how many failed."""
        n = len(self.results)
        return (
            f"{len(self.imported)} of {n} record{'s' if n != 1 else ''} imported into {self.out_dir}, "
            f"{len(self.failed)} failed"
        )


def _write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename, so a reader never sees half a drill.

    The file gets the normal mode of a new file (0666 minus the umask), like ``warroom new``; not the 0600 of
    :func:`tempfile.mkstemp`.
    """
    for _ in range(100):
        tmp = path.parent / f".{path.name}.{secrets.token_hex(6)}.tmp"
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            break
        except FileExistsError:
            continue
    else:  # pragma: no cover - 100 random names all taken
        raise FileExistsError(f"cannot create a temporary file next to {path}")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())  # the bytes are on disk before the rename makes them the drill
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def import_records(
    paths: Iterable[Path], out_dir: Path, options: ImportOptions | None = None, *, force: bool = False
) -> ImportReport:
    """Convert every Who&When record under ``paths`` into a drill file ``<out_dir>/<drill id>.yaml``.

    ``out_dir`` is created if missing. An existing drill file is overwritten only with ``force``. A bad record
    (or a file that cannot be written) is reported in its :class:`ImportResult` and the rest still import.

    Raises FileNotFoundError for an input path that does not exist, and OSError (with a readable message) when
    ``out_dir`` cannot be created.
    """
    options = options or ImportOptions()
    files = find_record_files(paths)
    out_dir = Path(out_dir)
    if out_dir.exists() and not out_dir.is_dir():
        raise NotADirectoryError(f"{out_dir}: exists and is not a folder")
    out_dir.mkdir(parents=True, exist_ok=True)
    report = ImportReport(out_dir=out_dir)
    written: dict[str, Path] = {}
    for f in files:
        try:
            record = parse_record(read_record(f), f.stem, file=f.name if f.parent.name not in SUBSETS
                                  else f"{f.parent.name}/{f.name}")
            data, _ = convert_record(record, options)
            drill_id = data["id"]
            if drill_id in written:
                raise RecordError(f"drill id {drill_id!r} was already imported from {written[drill_id]} in this run")
            target = out_dir / f"{drill_id}.yaml"
            if target.exists() and not force:
                raise RecordError(f"{target} already exists (use --force to overwrite it)")
            header = (
                f"Imported by `warroom import who-and-when` from {record.file} ({CORPUS}, MIT License).\n"
                "Real trace; the drill clock, tokens, prices and damage are estimates (see `source`)."
            )
            _write_atomic(target, dump_drill_yaml(data, header))
            written[drill_id] = f
            report.results.append(ImportResult(source=f, drill_id=drill_id, output=target))
        except RecordError as e:
            report.results.append(ImportResult(source=f, error=str(e)))
        except OSError as e:
            report.results.append(ImportResult(source=f, error=f"cannot write the drill: {e.strerror or e}"))
        except (ValueError, RecursionError, MemoryError) as e:  # a record the checks above missed: this file only
            why = f"cannot import this record ({type(e).__name__}: {str(e)[:200]})"
            report.results.append(ImportResult(source=f, error=why))
    return report
