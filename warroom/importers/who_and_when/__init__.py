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

The package is split along the importer's seams: :mod:`.rules` (the estimates' numbers, prices, options, the
error), :mod:`.parse` (a record file checked into a :class:`Record`), :mod:`.mapping` (history to plan steps and
trace events), :mod:`.pace` (the drill clock, token estimates, the deadline), :mod:`.prose` (the text read from and
written into a drill), :mod:`.drill` (the drill data, checked and dumped as YAML) and :mod:`.files` (finding
records and writing drill files: what ``warroom import who-and-when`` runs).

Public API (importable from this package): :func:`read_record`, :func:`parse_record`,
:func:`record_to_drill_data`, :func:`convert_record`, :func:`dump_drill_yaml`, :func:`find_record_files`,
:func:`import_records`, :class:`Price`, :class:`ImportOptions`, :class:`RecordError`, and the rules' numbers.
"""

from __future__ import annotations

from warroom.importers.who_and_when.drill import convert_record, dump_drill_yaml, record_to_drill_data
from warroom.importers.who_and_when.files import ImportReport, ImportResult, find_record_files, import_records
from warroom.importers.who_and_when.pace import estimate_tokens, reading_gap
from warroom.importers.who_and_when.parse import Message, Record, detect_subset, parse_record, read_record
from warroom.importers.who_and_when.prose import guess_fault_kind
from warroom.importers.who_and_when.rules import (
    CAPTAIN_AGENT,
    CHARS_PER_TOKEN,
    CLOSING_EVENT_MIN_GAP,
    CONTEXT_WINDOW_TOKENS,
    CORPUS,
    CORPUS_REFERENCE,
    DAMAGE_UNIT,
    DEADLINE_BEFORE_DAMAGE,
    DEADLINE_WINDOW,
    DEFAULT_DIFFICULTY,
    DEFAULT_EXECUTOR_PRICE,
    DEFAULT_PLANNER_PRICE,
    EVIDENCE_MIN_GAP,
    IMPORTER_SOURCE,
    MAGENTIC_ONE,
    MAX_EVENT_GAP,
    MAX_RECORD_BYTES,
    MIN_EVENT_GAP,
    SUBSETS,
    WORDS_PER_SECOND,
    ImportOptions,
    Price,
    RecordError,
)

__all__ = [
    "CAPTAIN_AGENT", "CHARS_PER_TOKEN", "CLOSING_EVENT_MIN_GAP", "CONTEXT_WINDOW_TOKENS", "CORPUS",
    "CORPUS_REFERENCE", "DAMAGE_UNIT", "DEADLINE_BEFORE_DAMAGE", "DEADLINE_WINDOW", "DEFAULT_DIFFICULTY",
    "DEFAULT_EXECUTOR_PRICE", "DEFAULT_PLANNER_PRICE", "EVIDENCE_MIN_GAP", "IMPORTER_SOURCE", "MAGENTIC_ONE",
    "MAX_EVENT_GAP", "MAX_RECORD_BYTES", "MIN_EVENT_GAP", "SUBSETS", "WORDS_PER_SECOND", "ImportOptions",
    "ImportReport", "ImportResult", "Message", "Price", "Record", "RecordError", "convert_record", "detect_subset",
    "dump_drill_yaml", "estimate_tokens", "find_record_files", "guess_fault_kind", "import_records",
    "parse_record", "read_record", "reading_gap", "record_to_drill_data",
]
