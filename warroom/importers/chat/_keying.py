"""``warroom import chat --ground-truth FILE``: each conversation keyed from its run's annotations
(:mod:`._truth`), or refused with the reason (docs/importing.md, "Annotated failure datasets")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from warroom.importers.chat._mapping import conversation_to_drill_data, message_events
from warroom.importers.chat._parse import Conversation
from warroom.importers.chat._truth import (
    annotation,
    fault_kind,
    message_index,
    read_ground_truth,
    refusal_reason,
    root_failure,
    run_id,
)
from warroom.importers.kit import READING_TIME, DrillData, Refused, TraceError, TraceOptions, key_drill


def _where(conv: Conversation, rid: str) -> str:
    return f"run {rid}" + ("" if conv.index is None else f" (conversation {conv.index})")


def keyed_drill(conv: Conversation, file: Path, options: TraceOptions, record: dict[str, Any]) -> DrillData:
    """The drill of ``conv`` keyed from its ground-truth ``record``. Raises TraceError with the reason it cannot
    be."""
    root, others = root_failure(record)
    why = refusal_reason(root)
    if why is not None:
        raise TraceError(why)
    i = message_index(conv, root.step)
    data, header = conversation_to_drill_data(conv, file, options)
    present = {ev["id"] for ev in data["trace"]}
    evidence = [e for e in message_events(conv, i) if e in present]
    step = next((ev.get("step") for ev in data["trace"] if ev["id"] in evidence), None) or "(none)"
    message = conv.messages[i]
    speaker = message.name or message.role
    kind = fault_kind(root.category)
    key_drill(data, annotation(record, root, others, evidence, step, speaker, kind),
              options.reading_time or READING_TIME)
    gt = options.ground_truth
    data["tags"] = [*data["tags"], "domain:annotated", kind]
    data["author"] = "the dataset's annotators (real trace, keyed from its ground truth), imported by warroom"
    data["source"] += (f" Keyed from the ground truth in {gt.name if gt else 'the ground-truth file'} (run "
                       f"{run_id(conv, file)}: root cause at step {root.step}, category {root.category!r} read "
                       f"as {kind}).")
    return data, header + f"\nKeyed from the ground truth in {gt.name if gt else '?'}: see answer_key and `source`."


def keyed_drills(conversations: list[Conversation], file: Path, options: TraceOptions) -> list[DrillData | Refused]:
    """Each of ``conversations`` (of ``file``) keyed from ``options.ground_truth``; a run without a record, or
    whose record cannot give a fair drill, is :class:`~warroom.importers.kit.Refused` with the reason."""
    assert options.ground_truth is not None
    records = read_ground_truth(options.ground_truth)
    out: list[DrillData | Refused] = []
    for conv in conversations:
        rid = run_id(conv, file)
        record = records.get(rid)
        if record is None:
            out.append(Refused(_where(conv, rid), f"{options.ground_truth.name} has no record of run {rid!r} (its "
                               "`trajectory_id`s name the runs it annotates)"))
            continue
        try:
            out.append(keyed_drill(conv, file, options, record))
        except TraceError as e:
            out.append(Refused(_where(conv, rid), str(e)))
    return out
