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
  damage; the deadline is :data:`~warroom.importers.kit.DEADLINE_WINDOW` seconds after the evidence, or
  :data:`DEADLINE_BEFORE_DAMAGE` seconds before the first damage event if that comes sooner (the event after the
  evidence comes at least :data:`EVIDENCE_MIN_GAP` seconds later, so the deadline always leaves ``warroom check``'s
  reaction window, and no damage is done by the deadline: ``warroom check``'s damage-by-deadline rule). A drill that
  would still fail ``warroom check`` is refused, never written. Record files are read within limits
  (:mod:`warroom.importers.kit`).

Event ids are ``h`` + the history index (``h012``); a terminal's synthetic tool call is ``h012-call``. Message text
is kept verbatim (never truncated, never re-encoded).

Nothing shown before the debrief gives the answer away or shows what an agent says before it says it: plan-step
titles and objectives (shown from 00:00) use only what the planner knew when it wrote the plan, and the tags never
name the annotated mistake agent.

The package is split along the importer's seams: ``_rules`` (the estimates' numbers, the options, the error),
``_parse`` (a record file checked into a :class:`Record`), ``_mapping`` (history to plan steps and trace events),
``_pace`` (the drill clock and the deadline), ``_prose`` (the text read from and written into a drill), ``_cast``
(the agents), ``_drill`` (the drill data, checked) and ``_importer`` (the importer the registry lists: what
``warroom import who-and-when`` runs).
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
