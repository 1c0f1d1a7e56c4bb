"""Prose: what the importer reads from a record's text and the text it writes into a drill (title, briefing,
source, debrief). Nothing shown before the debrief gives the answer away."""

from __future__ import annotations

import re
from dataclasses import dataclass

from warroom.core.text import plural, usd
from warroom.importers.kit import CHARS_PER_TOKEN, CONTEXT_WINDOW_TOKENS, MAX_EVENT_GAP, MIN_EVENT_GAP, WORDS_PER_SECOND
from warroom.importers.who_and_when._parse import Record
from warroom.importers.who_and_when._rules import CORPUS, CORPUS_REFERENCE, MAGENTIC_ONE, ImportOptions

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


def headline(text: str, limit: int = 72) -> str:
    """The first non-empty line of ``text``, stripped of Markdown heading/emphasis marks, at most ``limit`` chars."""
    for line in text.splitlines():
        line = " ".join(line.strip().lstrip("#>*-").strip().strip("*").split())
        if line:
            return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"
    return ""


def section(text: str, heading: str) -> str:
    """The body of a ``## heading`` section in a CaptainAgent manager message ("" when absent)."""
    m = re.search(rf"^##\s*{re.escape(heading)}\s*$(.*?)(?=^#{{1,2}}\s|\Z)", text, re.M | re.S | re.I)
    return m.group(1).strip() if m else ""


def title(record: Record) -> str:
    """The drill's title: subset, record name and the question's first line (``Who&When magentic-one #12: ...``)."""
    return f"Who&When {record.subset} #{record.name}: {headline(record.question, 60) or 'a task'}"


@dataclass(frozen=True)
class Mistake:
    """What the mapping found, for the debrief: the evidence event, the fault's origin step, the cascade's length
    and the estimated USD of the model calls after the mistake."""

    evidence_id: str
    origin: str
    cascade_steps: int
    wasted_usd: float


def reason(record: Record) -> str:
    """The annotators' reason for the mistake (the fault's summary), or a note that they gave none."""
    return record.mistake_reason.strip() or "(the annotators gave no reason)"


def debrief(record: Record, found: Mistake) -> str:
    """The debrief: where the annotators put the mistake and why, the right answer, what the mistake cost, and
    that the drill's numbers are estimates."""
    mistake = record.mistake_step
    speaker = record.history[mistake].speaker
    who = (
        record.mistake_agent
        if record.mistake_agent in speaker
        else f"{record.mistake_agent} (the record's mistake agent; the message at that step is {speaker}'s)"
    )
    turns_after = len(record.history) - 1 - mistake
    after = (
        f"After the mistake the run went on for {turns_after} more {plural(turns_after, 'turn', count=False)} "
        f"({found.cascade_steps} later plan {plural(found.cascade_steps, 'step', count=False)}, about "
        f"{usd(found.wasted_usd)} of estimated model calls) and still failed the task. Escalating the plan step "
        "where the mistake happened, as soon as it appeared, was the way to save them: the planner re-plans from "
        "there."
        if turns_after
        else "The record stops at the mistake: the run went on to a wrong final answer."
    )
    parts = [
        f"The Who&When annotators put the decisive mistake at history step {mistake} (event {found.evidence_id}, in "
        f"plan step {found.origin}), by {who}.",
        f"Their reason: {reason(record)}",
        f"The right answer (ground truth): {record.ground_truth if record.ground_truth.strip() else '(not given)'}",
        after,
        "This drill is a real trace. The drill clock, token counts, prices and damage are the importer's estimates "
        "(see the drill's source and docs/importing.md).",
    ]
    return "\n\n".join(parts)


def watching(record: Record, agents: list[str], tool_names: list[str]) -> str:
    """The briefing's ``watching``: who the planner and the executors are, and what to look for."""
    if record.subset == MAGENTIC_ONE:
        team = ", ".join(agents + tool_names) or "its agents"
        return (
            "A Magentic-One agent team on a real task. The Orchestrator is the planner: it writes a plan and fact "
            "sheet, keeps a progress ledger and instructs one agent at a time; each instruction starts a plan "
            "step, and the instruction itself appears in the trace when its step starts. The executors are "
            f"{team}. Read the agents' replies against each instruction."
        )
    team = ", ".join(agents) or "its experts"
    tools = f", and a terminal ({', '.join(tool_names)}) runs the code they write" if tool_names else ""
    return (
        "A CaptainAgent group chat on a real task. The manager's task and plan open the chat (the first plan "
        f"step); then experts take turns ({team}){tools}. Each expert turn is a plan step. Check each turn "
        "against the task."
    )


def context(record: Record, options: ImportOptions) -> str:
    """The briefing's ``context``: where the trace comes from and how the importer estimated what it lacks."""
    level_note = f" Who&When level {record.level}." if record.level is not None else ""
    return (
        f"Imported from a real failed run in the {CORPUS} benchmark ({record.subset} subset, record "
        f"{record.file}).{level_note} The record has no timestamps, token counts, prices or damage, so the importer "
        f"estimated them: the drill clock paces each event by the reading time of its text ({WORDS_PER_SECOND:g} "
        f"words a second, {MIN_EVENT_GAP:g} to {MAX_EVENT_GAP:g} s); tokens are text length / {CHARS_PER_TOKEN} "
        f"(input: the history so far, capped at {CONTEXT_WINDOW_TOKENS:,}); prices are assumed (planner "
        f"{options.planner_price}, executors {options.executor_price}); damage counts the agent turns wasted after "
        "the fault. Message text is verbatim: long web pages, Markdown and code included."
    )


def source(record: Record, kind: str, closed: bool) -> str:
    """The drill's ``source``: the corpus and record, what the importer estimated (with the closing event when
    ``closed``: the record stops at its mistake step) and the fault kind guessed."""
    return (
        f"{CORPUS_REFERENCE}; subset {record.subset}, record {record.file}"
        + (f", question_ID {record.question_id}" if record.question_id else "")
        + ". Estimated by the importer (not in the record): the drill clock (reading time), token counts (text "
        f"length / {CHARS_PER_TOKEN}), model prices, the damage (agent turns after the mistake step), the deadline"
        + (", and the closing event 'end' (the record stops at its mistake step)" if closed else "")
        + f". Fault kind guessed from the annotators' reason: {kind}."
    )


def file_header(record: Record) -> str:
    """The ``#`` comment at the top of a written drill file."""
    return (
        f"Imported by `warroom import who-and-when` from {record.file} ({CORPUS}, MIT License).\n"
        "Real trace; the drill clock, tokens, prices and damage are estimates (see `source`)."
    )
