"""Parse: a Who&When record file read within limits and checked field by field into a :class:`Record`."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from warroom.importers.kit import json_kind, read_json_object
from warroom.importers.who_and_when._rules import CAPTAIN_AGENT, MAGENTIC_ONE, MAX_RECORD_BYTES, RecordError


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


def read_record(path: Path) -> dict[str, Any]:
    """The JSON object in ``path``. Raises RecordError when it is not a regular file, is over
    :data:`MAX_RECORD_BYTES`, cannot be read, is not UTF-8 JSON, is not an object, or holds a number over
    :data:`~warroom.importers.kit.MAX_INTEGER_DIGITS` digits or an unpaired surrogate (see
    :func:`warroom.importers.kit.read_json_object`)."""
    return read_json_object(Path(path), MAX_RECORD_BYTES, RecordError)


def _require_text(data: dict[str, Any], key: str, *, allow_number: bool = False, allow_empty: bool = False) -> str:
    if key not in data:
        raise RecordError(f"missing field {key!r}")
    value = data[key]
    if allow_number and isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    if not isinstance(value, str):
        raise RecordError(f"field {key!r} must be text, not a JSON {json_kind(value)}")
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
        raise RecordError(f"mistake_step must be a history index (e.g. \"4\"), not a JSON {json_kind(raw_step)}")
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

def _history(data: dict[str, Any]) -> list[Message]:
    """The record's ``history`` as messages. Raises RecordError for a missing, mistyped or empty history, or an
    entry without text or role."""
    if "history" not in data:
        raise RecordError("missing field 'history'")
    history_raw = data["history"]
    if not isinstance(history_raw, list):
        raise RecordError(f"field 'history' must be a list of messages, not a JSON {json_kind(history_raw)}")
    if not history_raw:
        raise RecordError("field 'history' is empty: there is no trace to replay")
    history: list[Message] = []
    for i, m in enumerate(history_raw):
        if not isinstance(m, dict):
            raise RecordError(f"history[{i}] must be an object with 'role' and 'content', not a JSON {json_kind(m)}")
        content = m.get("content")
        if not isinstance(content, str):
            what = "missing" if "content" not in m else f"a JSON {json_kind(content)}, not text"
            raise RecordError(f"history[{i}].content is {what}")
        role = m.get("role")
        if not isinstance(role, str) or not role.strip():
            raise RecordError(f"history[{i}].role is missing or not text")
        nm = m.get("name")
        if nm is not None and not isinstance(nm, str):
            raise RecordError(f"history[{i}].name must be text, not a JSON {json_kind(nm)}")
        history.append(Message(role=role, name=nm or None, content=content))
    return history


def _level(data: dict[str, Any]) -> int | None:
    """The record's ``level`` (a JSON number or text of at most 9 digits), or None when it has no usable one."""
    raw_level = data.get("level")
    if isinstance(raw_level, int) and not isinstance(raw_level, bool):
        return raw_level
    if isinstance(raw_level, str) and re.fullmatch(r"[0-9]{1,9}", raw_level.strip()):
        return int(raw_level.strip())
    return None


def parse_record(data: dict[str, Any], name: str, file: str | None = None) -> Record:
    """Check a record's fields and return a :class:`Record`.

    Args:
        data: the JSON object of one record.
        name: the record's name (the file stem, e.g. ``"12"``), used in the drill id.
        file: the record's file name as shown in the drill's ``source`` (default ``name + ".json"``).

    Raises RecordError naming the first problem: a missing or mistyped field, an empty history, a history entry
    without text, a ``mistake_step`` that is not a whole number or is outside ``history``.
    """
    history = _history(data)
    subset = detect_subset(data)
    question = _require_text(data, "question")
    ground_truth = _require_text(data, "ground_truth", allow_number=True, allow_empty=True)
    mistake_agent = _require_text(data, "mistake_agent")
    mistake_reason = _require_text(data, "mistake_reason", allow_empty=True)
    step = _mistake_step(data, len(history))
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
        level=_level(data),
        question_id=qid if isinstance(qid, str) and qid.strip() else None,
    )
