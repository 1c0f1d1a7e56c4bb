"""Ground truth: a failure-attribution dataset's annotations (AgentRx's ``ground_truth.json``) made into the answer
keys of the drills ``warroom import chat --ground-truth FILE`` writes (docs/importing.md, "Annotated failure
datasets").

A ground-truth file is a list of records (or ``{"data": [...]}``, or one record), each naming its run by
``trajectory_id`` (tau-bench's ``task_id``, a Magentic-One run's file name) with its ``failures`` (``failure_id``,
``step_number``: the message counted from 1, ``step_reason``, ``failure_category``, ``category_reason``,
``failed_agent``), the ``root_cause`` (``failure_id``, ``reason_for_root_cause``) and a ``failure_summary``. The
root cause's failure keys the drill (:func:`~warroom.importers.kit.key_drill`); a record that cannot give a fair
drill is refused with its reason.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from warroom.importers.chat._parse import Conversation
from warroom.importers.kit import Annotation, TraceError, json_kind, parse_json, read_text

#: The failure categories of AgentRx's taxonomy (lower case, letters only) -> the drill's fault kind. A category
#: with no close kind in the vocabulary is ``other`` (its name stays in the summary and the debrief).
CATEGORY_KINDS: dict[str, str] = {
    "misinterpretation of tool output": "tool_output_misread",
    "invention of new information": "fabricated_result",
    "invalid invocation": "wrong_tool",
    "guardrails triggered": "http_error_ignored",
    "system failure": "environment_setup_failed",
    "instruction adherence failure": "other",
    "instruction/plan adherence failure": "other",
    "intent plan misalignment": "other",
    "intent not supported": "other",
}
#: Categories that put the failure outside the agents (the user's request, or no conclusion): no fair drill.
NOT_AN_AGENT_FAULT = {
    "underspecified user intent": "the failure is in the user's request, not in what an agent did",
    "inconclusive": "the annotators reached no conclusion about the failure",
}
#: ``failed_agent`` values that name the person, not an agent.
USERS = frozenset({"user", "human", "customer"})
#: The ground-truth file's largest size, bytes.
MAX_GROUND_TRUTH_BYTES = 16 * 1024 * 1024


@dataclass(frozen=True)
class Failure:
    """One annotated failure of a run."""

    step: int
    reason: str
    category: str
    category_reason: str
    agent: str


def _key(category: str) -> str:
    return re.sub(r"\s+", " ", category.strip().lower())


def read_ground_truth(path: Path) -> dict[str, dict[str, Any]]:
    """The records of the ground-truth file at ``path`` by ``trajectory_id`` (as text). Raises TraceError (with
    the file's name) when it is not JSON of that shape."""
    try:
        text = read_text(path, MAX_GROUND_TRUTH_BYTES, TraceError)
        data = parse_json(text, TraceError, "a ground-truth file")
    except TraceError as e:
        raise TraceError(f"{path}: {e}") from None
    records = data.get("data", [data]) if isinstance(data, dict) else data
    if not isinstance(records, list):
        raise TraceError(f"{path}: a ground-truth file is a JSON list of records, not a JSON {json_kind(data)}")
    out: dict[str, dict[str, Any]] = {}
    for i, r in enumerate(records):
        tid = r.get("trajectory_id") if isinstance(r, dict) else None
        if not isinstance(tid, (str, int)) or isinstance(tid, bool) or not isinstance(r.get("failures"), list):
            raise TraceError(f"{path}: [{i}] is not a ground-truth record (`trajectory_id` and `failures`)")
        out[str(tid)] = r
    return out


def _failure(raw: Any) -> Failure:
    def text(key: str) -> str:
        value = raw.get(key)
        return value.strip() if isinstance(value, str) else ""

    step = raw.get("step_number")
    if isinstance(step, str) and step.strip().isascii() and step.strip().isdigit() and len(step.strip()) <= 9:
        step = int(step)
    if not isinstance(step, int) or isinstance(step, bool):
        raise TraceError(f"its failure {raw.get('failure_id')!r} has no whole `step_number`")
    return Failure(step, text("step_reason"), text("failure_category"), text("category_reason"), text("failed_agent"))


def root_failure(record: dict[str, Any]) -> tuple[Failure, list[Failure]]:
    """The root cause's failure of ``record`` and the other failures. Raises TraceError when there is none."""
    failures = [f for f in record["failures"] if isinstance(f, dict)]
    if not failures:
        raise TraceError("its ground truth lists no failure")
    root_id = (record.get("root_cause") or {}).get("failure_id") if isinstance(record.get("root_cause"), dict) else None
    root = next((f for f in failures if str(f.get("failure_id")) == str(root_id)), failures[0])
    return _failure(root), [_failure(f) for f in failures if f is not root]


def fault_kind(category: str) -> str:
    """The fault kind of an AgentRx category (:data:`CATEGORY_KINDS`; ``other`` when it is not listed)."""
    return CATEGORY_KINDS.get(_key(category), "other")


def refusal_reason(failure: Failure) -> str | None:
    """Why the annotated failure cannot make a fair drill (None when it can)."""
    why = NOT_AN_AGENT_FAULT.get(_key(failure.category))
    if why is None and failure.agent.strip().lower() in USERS:
        why = "the failed agent is the user, not an agent of the run"
    if why is None:
        return None
    return (f"{why} (step {failure.step}, {failure.category or 'no category'}, failed agent "
            f"{failure.agent or 'not named'}): a trainee watching the agents has no plan step to escalate")


def run_id(conv: Conversation, file: Path) -> str:
    """The id its ground truth names a conversation by: its ``task_id`` (tau-bench), else the file's name."""
    return conv.record_id if conv.record_id is not None else file.stem


def message_index(conv: Conversation, step: int) -> int:
    """The conversation's message at annotated step ``step`` (counted from 1). Raises TraceError when out of
    range."""
    if not 1 <= step <= len(conv.messages):
        raise TraceError(f"the annotated step {step} is out of range: the run has {len(conv.messages)} messages "
                         f"(steps 1 to {len(conv.messages)})")
    return step - 1


def _sentence(text: str) -> str:
    first = re.split(r"(?<=[.!?])\s", text.strip(), maxsplit=1)[0]
    return first if first.endswith((".", "!", "?")) else f"{first}."


def annotation(record: dict[str, Any], root: Failure, others: list[Failure], evidence: list[str], step: str,
               speaker: str, kind: str) -> Annotation:
    """The :class:`~warroom.importers.kit.Annotation` of ``record``: its root failure at the ``evidence`` events
    (in plan step ``step``, said by ``speaker``), with the annotators' reasons in the debrief."""
    cause: dict[str, Any] = record["root_cause"] if isinstance(record.get("root_cause"), dict) else {}
    why_root = cause.get("reason_for_root_cause") if isinstance(cause.get("reason_for_root_cause"), str) else ""
    summary_text = record.get("failure_summary") if isinstance(record.get("failure_summary"), str) else ""
    reason = root.reason or summary_text or f"{root.category} at step {root.step}"
    lines = [
        f"The annotators put the failure that decided this run at step {root.step} ({', '.join(evidence)}, plan "
        f"step {step}, said by {speaker}): {reason}",
        "",
        f"Category: {root.category or 'none given'}"
        + (f" ({root.category_reason})" if root.category_reason else "") + f", read as the fault kind {kind}.",
    ]
    if root.agent and root.agent.lower() != speaker.lower():
        lines += ["", f"They name {root.agent} as the failed agent; the message at that step is {speaker}'s."]
    if why_root:
        lines += ["", f"Why this failure is the root cause: {why_root}"]
    if summary_text:
        lines += ["", f"Their summary of the run: {summary_text}"]
    if others:
        lines += ["", "The other failures they found:"]
        lines += [f"- step {f.step} ({f.category}): {f.reason}" for f in sorted(others, key=lambda f: f.step)]
    lines += ["", "The run is real; its clock, token counts and costs are estimates, and the events after the "
              "failure were moved later so that it can be read (the drill's source says by how much)."]
    return Annotation(tuple(evidence), kind, _sentence(reason), "\n".join(lines),
                      "The run ends here, with the task failed.")
